//! The solver's schedule and verdicts on small deals.

use super::*;

/// The move beam alone (what `benches/move_beam.rs` measures) finds the
/// same win as in the schedule on `r2-g5007` (a move beam of 2,000
/// wins it: 287,312 positions kept, a line of 149 moves), replayed by
/// the rules, and stops without a verdict at its position limit.
#[test]
fn a_move_beam_alone_wins_and_stops_at_its_limit() {
    let path = format!(
        "{}/benches/ladder/r2-g5007.yaml",
        env!("CARGO_MANIFEST_DIR")
    );
    let deal = crate::deal::load(path.as_ref()).unwrap();
    let (line, kept) = move_beam_alone(&deal, 2_000, false, false, 0).unwrap();
    let line = line.expect("a move beam of 2,000 wins r2-g5007");
    assert_eq!((line.len(), kept), (149, 287_312));
    let game = Game::new(&deal).unwrap();
    assert!(verify(&game, &line).is_ok());
    let (line, kept) = move_beam_alone(&deal, 2_000, false, false, 1_000).unwrap();
    assert_eq!((line, kept), (None, 1_000));
}

/// `analyze` relies on it: only an exhaustive pass without a cap always
/// decides or stops.
#[test]
fn the_schedule_ends_with_an_exhaustive_pass_without_a_cap() {
    assert_eq!(SCHEDULE.last(), Some(&(Pass::Exhaustive, None)));
    let uncapped = SCHEDULE
        .iter()
        .filter(|&&(pass, cap)| pass == Pass::Exhaustive && cap.is_none())
        .count();
    assert_eq!(uncapped, 1);
}

/// Every pass of the schedule runs until a beam has left nothing out.
/// From then on only the thorough probes and beams (move beams
/// included), the capped exhaustive pass followed by a thorough one
/// (small proofs before the thorough move beams' seconds) and the last
/// exhaustive pass do: the capped exhaustive pass that the last one
/// would follow at once would only repeat its start.
#[test]
fn passes_that_cannot_find_anything_new_are_left_out() {
    let running = |favoured_exhausted| -> Vec<(Pass, Option<u64>)> {
        (0..SCHEDULE.len())
            .filter(|&index| worth_running(&SCHEDULE, index, favoured_exhausted))
            .map(|index| SCHEDULE[index])
            .collect()
    };
    assert_eq!(running(false), SCHEDULE.to_vec());
    let after = running(true);
    assert_eq!(after.last(), Some(&(Pass::Exhaustive, None)));
    assert_eq!(
        after,
        [
            thorough_beam(2_000, 10, SHORT),
            thorough_beam(5_000, 50, SHORT),
            thorough_beam(2_000, 10, 0),
            thorough_beam(5_000, 50, 0),
            thorough_move_beam(500),
            (Pass::Exhaustive, Some(EARLY_PROOF)),
            thorough_move_beam(1_000),
            thorough_move_beam(2_000),
            thorough_move_beam(4_000),
            thorough_move_beam(8_000),
            thorough_breaks_beam(1_000),
            thorough_breaks_beam(2_000),
            thorough_breaks_beam(4_000),
            thorough_breaks_beam(8_000),
            thorough_move_beam(16_000),
            thorough_breaks_beam(16_000),
            thorough_move_beam(32_000),
            (Pass::Exhaustive, None),
        ]
    );
    let twice = [(Pass::Exhaustive, Some(10)), (Pass::Exhaustive, None)];
    assert!(!worth_running(&twice, 0, false));
    assert!(worth_running(&twice, 1, false));
}
