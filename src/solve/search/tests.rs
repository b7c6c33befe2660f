//! The passes against plain searches: wins replayed, proofs cross-checked,
//! progress and checkpoint notes.

use super::super::heuristic::promising;
use super::proof::*;
use super::*;
use crate::cards::SuitCount;
use crate::deal::{Rules, numbered};
use std::collections::HashSet;

/// A checkpoint's name for the reductions is what it was before the
/// deal rule existed, as long as the rule is off: checkpoints of
/// earlier builds still resume. With the rule on it is another search.
#[test]
fn checkpoints_of_earlier_builds_still_resume() {
    use super::super::prune::RoomTest;
    assert_eq!(
        checkpoint_settings(&Reductions::DEFAULT),
        "Reductions { dead_ends: true, dead_ends_everywhere: false, room: Last, \
         symmetry: true, make_way: true, learn: false }"
    );
    let with = Reductions {
        deals_fill: true,
        room: RoomTest::Entries,
        ..Reductions::DEFAULT
    };
    assert!(checkpoint_settings(&with).ends_with(", learn: false, deals_fill: true }"));
}

/// The estimate of the positions left is made per whole layer: a
/// search in split layers gives the one the same search in whole layers
/// gives. Whole layers A, B (finished) and C (running): A met 1 entry
/// and holds 10 positions, B 4 and 40, C 6 and 12 so far, and 5
/// positions wait in later layers: growth 50 / 5 = 10 an entry, so 6 ×
/// 10 − 12 = 48 left in C and 5 × 10 = 50 later, 98. Split: A in two
/// parts (4 + 6 positions; the second met 3 entries, all from the
/// first), B in two (25 + 15; 5 and 4 entries, 3 and 1 of them from
/// A), C's first two parts (8 + 4; 4 and 2 entries, 4 and 1 from B),
/// and a third part of C waits with 1 state from B and 2 from C: 8
/// positions wait, 6 from other whole layers. C: 5 × 10 − 12 = 38
/// left, and 6 × 10 = 60 later, 98 again. Counted per split layer as
/// before, the growth was 58 / 17 and the estimate 30.
#[test]
fn the_estimate_left_is_made_per_whole_layer() {
    use crate::explore::layered::LayeredStats;
    // Layer keys: 40, 39 and 38 cards face down, `out_of_order` pairs
    // out of order (none: the whole layer's key).
    let key = |face_down: u64, out_of_order: u64| (255 - face_down) << 8 | (255 - out_of_order);
    let layer = |layer, entries, across, positions| LayerStats {
        layer,
        entries,
        entries_across: Some(across),
        positions,
        ..LayerStats::default()
    };
    let stats = |layers: Vec<LayerStats>, queued, queued_across| LayeredStats {
        positions: layers.iter().map(|l| l.positions).sum(),
        layers,
        queued,
        queued_across,
        elapsed: std::time::Duration::from_secs(1),
        ..LayeredStats::default()
    };
    let whole = stats(
        vec![
            layer(key(40, 0), 1, 1, 10),
            layer(key(39, 0), 4, 4, 40),
            layer(key(38, 0), 6, 6, 12),
        ],
        5,
        5,
    );
    let split = stats(
        vec![
            layer(key(40, 5), 1, 1, 4),
            layer(key(40, 3), 3, 0, 6),
            layer(key(39, 7), 5, 3, 25),
            layer(key(39, 2), 4, 1, 15),
            layer(key(38, 6), 4, 4, 8),
            layer(key(38, 4), 2, 1, 4),
        ],
        8,
        6,
    );
    // Whole layers read from a checkpoint written before the entries
    // from other whole layers were counted: all their entries are.
    let mut older = whole.clone();
    for l in &mut older.layers[..2] {
        l.entries_across = None;
    }
    assert_eq!(proof_progress(&older, true).estimate_left, 98);
    let (whole, split) = (proof_progress(&whole, true), proof_progress(&split, true));
    assert_eq!(whole.estimate_left, 98);
    assert_eq!(split.estimate_left, 98);
    assert_eq!((whole.queued, split.queued), (5, 8));
    assert_eq!((whole.layers_finished, split.layers_finished), (2, 5));
    assert_eq!(split.layer.unwrap().out_of_order, 4);
    // Finished: nothing is left but what is queued (none).
    let done = stats(vec![layer(key(40, 0), 1, 1, 10)], 0, 0);
    assert_eq!(proof_progress(&done, false).estimate_left, 0);
}

/// The solver's note in a checkpoint reads back as it was written:
/// the reveals with their line lengths and the fewest face-down cards
/// per pile (a resumed proof reports them as an uninterrupted one).
#[test]
fn the_checkpoint_note_reads_back() {
    let reveals = BTreeMap::from([
        (Place::FaceDown { pile: 3, index: 2 }, 17),
        (Place::Stock { row: 4, pile: 10 }, 250),
    ]);
    let fewest = [0, 1, 2, 3, 4, 5, 0, 0, 1, 5];
    let note = checkpoint_note(&reveals, &fewest);
    let (read, read_fewest) = read_checkpoint_note(&note);
    assert_eq!(read.into_iter().collect::<BTreeMap<_, _>>(), reveals);
    assert_eq!(read_fewest, Some(fewest));
    assert_eq!(read_checkpoint_note(""), (Vec::new(), None));
}

fn run(deal: &crate::deal::Deal, pass: Pass) -> Outcome {
    let game = Game::new(deal).unwrap();
    let limits = Limits::default();
    let cancel = AtomicBool::new(false);
    let mut search = Search::new(&game, &limits, &cancel, &|_| {});
    let outcome = search.run(pass);
    if let Outcome::Won(line) = &outcome {
        super::super::verify(&game, line).unwrap();
    }
    outcome
}

/// A position of the ladder corpus (`benches/ladder/NAME.yaml`).
fn ladder(name: &str) -> crate::deal::Deal {
    let path = format!("{}/benches/ladder/{name}.yaml", env!("CARGO_MANIFEST_DIR"));
    crate::deal::load(path.as_ref()).unwrap()
}

#[test]
fn a_beam_wins_fresh_deals() {
    for number in 1..=3 {
        let deal = numbered::deal(number, SuitCount::Two, Rules::Standard);
        let pass = Pass::Beam {
            budget: 2_000,
            width: 20,
            move_cost: 0,
            lookahead: 0,
            thorough: false,
        };
        assert!(matches!(run(&deal, pass), Outcome::Won(_)), "deal {number}");
    }
}

/// A ladder position (PySol 5007, two stock rows left) that the stage
/// beams win only at their widest (about 43 M positions): a move beam
/// of 2,000 wins it, its line replayed by the rules; one of 1,000 does
/// not, and a position limit stops a move beam without a verdict.
#[test]
fn a_move_beam_wins_where_the_stage_beams_take_long() {
    let deal = ladder("r2-g5007");
    assert!(matches!(
        run(
            &deal,
            Pass::MoveBeam {
                width: 2_000,
                thorough: false,
                breaks_only: false,
            }
        ),
        Outcome::Won(_)
    ));
    assert!(matches!(
        run(
            &deal,
            Pass::MoveBeam {
                width: 1_000,
                thorough: false,
                breaks_only: false,
            }
        ),
        Outcome::Exhausted
    ));
    let game = Game::new(&deal).unwrap();
    let limits = Limits {
        max_positions: Some(10_000),
        ..Limits::default()
    };
    let cancel = AtomicBool::new(false);
    let mut search = Search::new(&game, &limits, &cancel, &|_| {});
    assert!(matches!(
        search.run(Pass::MoveBeam {
            width: 2_000,
            thorough: false,
            breaks_only: false,
        }),
        Outcome::Stopped
    ));
    assert_eq!(search.stopped, Some(StopReason::Positions));
    assert_eq!(search.positions, 10_000);
}

/// A ladder position (PySol 5013, one stock row left) that needs a move
/// the favoured ones leave out: the thorough move beam of 500 wins it
/// (the schedule's stage beams took 174 s), the favoured one does not.
#[test]
fn a_thorough_move_beam_plays_the_moves_the_others_skip() {
    let deal = ladder("r1-g5013");
    let beam = |thorough| Pass::MoveBeam {
        width: 500,
        thorough,
        breaks_only: false,
    };
    assert!(matches!(run(&deal, beam(true)), Outcome::Won(_)));
    assert!(matches!(run(&deal, beam(false)), Outcome::Exhausted));
}

/// `r0-g5005` (no stock left, 33 cards face down) was the one rung-0
/// position of the ladder no pass decided. A thorough move beam of
/// 4,000 wins it (one of 2,000 gives up at depth 139, having found no
/// better position after depth 38), and no beam of favoured moves
/// can: they reach two positions.
#[test]
#[ignore = "slow: runs with `cargo test -- --ignored` (CI runs it)"]
fn a_wide_thorough_move_beam_wins_a_position_without_stock() {
    let deal = ladder("r0-g5005");
    let beam = |width, thorough| Pass::MoveBeam {
        width,
        thorough,
        breaks_only: false,
    };
    assert!(matches!(run(&deal, beam(4_000, true)), Outcome::Won(_)));
    assert!(matches!(run(&deal, beam(2_000, true)), Outcome::Exhausted));
    assert!(matches!(run(&deal, beam(4_000, false)), Outcome::Exhausted));
}

/// `r2-g5011` (two stock rows left, 39 cards face down) is won by a
/// thorough move beam of 4,000 ranked by the breaks alone, and by
/// neither the same beam ranked with the bound on the moves needed
/// nor the narrower one by the breaks alone.
#[test]
#[ignore = "slow: runs with `cargo test -- --ignored` (CI runs it)"]
fn a_move_beam_ranked_by_the_breaks_alone_wins_where_the_bound_misleads() {
    let deal = ladder("r2-g5011");
    let beam = |width, breaks_only| Pass::MoveBeam {
        width,
        thorough: true,
        breaks_only,
    };
    assert!(matches!(run(&deal, beam(4_000, true)), Outcome::Won(_)));
    assert!(matches!(run(&deal, beam(2_000, true)), Outcome::Exhausted));
    assert!(matches!(run(&deal, beam(4_000, false)), Outcome::Exhausted));
}

/// A stuck player's position (PySol 5006 with three stock rows left,
/// from the ladder corpus) where the promising moves run dry after 15
/// positions: only a lateral move opens the stage (to over a million
/// positions). The plain beam 2,000 × 10 ends without a win; the same
/// beam made thorough goes on with the skipped moves and wins. (The
/// player's own line shows a win exists: it reaches the position two
/// rows left, which the schedule wins.)
#[test]
fn a_thorough_beam_goes_on_where_the_promising_moves_run_dry() {
    let deal = ladder("r3-g5006");
    let beam = |thorough| Pass::Beam {
        budget: 2_000,
        width: 10,
        move_cost: 0,
        lookahead: 0,
        thorough,
    };
    assert!(matches!(run(&deal, beam(false)), Outcome::Exhausted));
    assert!(matches!(run(&deal, beam(true)), Outcome::Won(_)));
}

/// The positions reachable from the start by the moves probes and
/// beams favour and by deals, counted by a plain breadth-first search
/// under the beams' key (rows dealt apart). `None` if one is won.
fn favoured_closure(game: &Game) -> Option<u64> {
    let mut seen = HashSet::new();
    let start = game.start().clone();
    seen.insert((start.rows_dealt(), game.key64(&start)));
    let mut queue = std::collections::VecDeque::from([start]);
    let mut moves = Vec::new();
    while let Some(position) = queue.pop_front() {
        moves.clear();
        let runs = game.moves(&position, &mut moves);
        for &mv in &moves {
            if mv != Move::Deal && !promising(game, &position, &runs, mv) {
                continue;
            }
            let next = game.apply(&position, mv).position;
            if next.is_won() {
                return None;
            }
            if seen.insert((next.rows_dealt(), game.key64(&next))) {
                queue.push_back(next);
            }
        }
    }
    Some(seen.len() as u64)
}

/// A stuck player's position (PySol 5004 with one stock row left and
/// 41 face-down cards) whose favoured moves reach few positions, none
/// won. A narrow beam leaves dealt positions out and claims nothing; a
/// wide one searches them all and says so, with exactly the count of a
/// plain breadth-first search of those moves.
#[test]
fn a_beam_that_leaves_nothing_out_says_so() {
    let deal = ladder("r1-g5004");
    let game = Game::new(&deal).unwrap();
    let limits = Limits::default();
    let cancel = AtomicBool::new(false);
    let beam = |budget, width| Pass::Beam {
        budget,
        width,
        move_cost: 0,
        lookahead: 0,
        thorough: false,
    };
    let mut search = Search::new(&game, &limits, &cancel, &|_| {});
    assert!(matches!(search.run(beam(2_000, 10)), Outcome::Exhausted));
    assert_eq!(search.favoured_exhausted, None);
    let closure = favoured_closure(&game).expect("no favoured line wins");
    assert_eq!(closure, 25_718);
    let mut search = Search::new(&game, &limits, &cancel, &|_| {});
    assert!(matches!(
        search.run(beam(100_000, 100_000)),
        Outcome::Exhausted
    ));
    assert_eq!(search.favoured_exhausted, Some(closure));
}

/// PySol game 17 is one of the hard deals: the beam 1,000 × 200 ends
/// without a win, while the same beam judging its dealt positions by a
/// lookahead of 300 expansions wins it (in about a second, release
/// build). The lookahead changes which positions the beam keeps.
#[test]
#[ignore = "slow: runs with `cargo test -- --ignored` (CI runs it)"]
fn a_lookahead_beam_wins_where_the_plain_beam_does_not() {
    let deal = crate::deal::pysol::deal(17, Rules::Standard).unwrap();
    let beam = |lookahead| Pass::Beam {
        budget: 1_000,
        width: 200,
        move_cost: 0,
        lookahead,
        thorough: false,
    };
    assert!(matches!(run(&deal, beam(0)), Outcome::Exhausted));
    assert!(matches!(run(&deal, beam(300)), Outcome::Won(_)));
}

/// A small position with no ace at all, so it can never be won: the
/// exhaustive pass must examine it to the end. Moving 5♠ off pile 1
/// turns up a 6♥ it can go straight back onto, a move back that leads
/// somewhere new; the stock row makes a second stage.
fn aceless() -> crate::deal::Deal {
    aceless_with(["QH", "QD", "JS", "JC", "QH", "QD", "JS", "JC", "10H", "10D"])
}

/// [`aceless`] with `row` for its stock row.
fn aceless_with(row: [&str; 10]) -> crate::deal::Deal {
    use crate::cards::{Card, CardSlot};
    use crate::deal::{Deal, Pile};
    let card = |text: &str| text.parse::<Card>().unwrap();
    let pile = |down: &[&str], up: &str| Pile {
        face_down: down.iter().map(|t| CardSlot::Known(card(t))).collect(),
        face_up: vec![card(up)],
    };
    Deal {
        suits: SuitCount::Four,
        rules: Rules::Standard,
        piles: vec![
            pile(&["2C", "6H"], "5S"),
            pile(&["KD"], "6S"),
            pile(&[], "KH"),
            pile(&[], "KS"),
            pile(&[], "KC"),
            pile(&[], "KD"),
            pile(&[], "KH"),
            pile(&[], "KS"),
            pile(&[], "KC"),
            pile(&[], "KD"),
        ],
        stock: vec![row.map(|t| CardSlot::Known(card(t)))],
        removed: Vec::new(),
        moves_played: 0,
    }
}

/// Every position reachable from the start by any legal moves, counted
/// by plain breadth-first search over the same keys the search uses.
fn reachable(game: &Game) -> u64 {
    let mut seen = std::collections::HashSet::new();
    let mut queue = std::collections::VecDeque::from([game.start().clone()]);
    seen.insert(game.key(game.start()));
    let mut moves = Vec::new();
    while let Some(position) = queue.pop_front() {
        moves.clear();
        game.moves(&position, &mut moves);
        for &mv in &moves {
            let next = game.apply(&position, mv).position;
            if seen.insert(game.key(&next)) {
                queue.push_back(next);
            }
        }
    }
    seen.len() as u64
}

/// The exhaustive pass's shortcuts (deduplication, the move back to the
/// parent not played) skip no position: it examines exactly the
/// positions a plain search reaches. The quick run deals a row of five
/// kings (2,625 positions: every kind of move, reveals and both
/// stages); [`the_exhaustive_pass_examines_every_one_of_272_490_positions`]
/// deals queens, jacks and tens.
#[test]
fn the_exhaustive_pass_examines_every_reachable_position() {
    let deal = aceless_with(["QH", "QD", "JS", "JC", "10H", "KD", "KS", "KC", "KH", "KD"]);
    assert_eq!(exhaustive_against_plain(&deal), 2_625);
}

#[test]
#[ignore = "slow: runs with `cargo test -- --ignored` (CI runs it)"]
fn the_exhaustive_pass_examines_every_one_of_272_490_positions() {
    assert_eq!(exhaustive_against_plain(&aceless()), 272_490);
}

/// The positions the exhaustive pass examines in `deal`, asserted
/// equal to those a plain search reaches.
fn exhaustive_against_plain(deal: &crate::deal::Deal) -> u64 {
    let game = Game::new(deal).unwrap();
    let limits = Limits::default();
    let cancel = AtomicBool::new(false);
    let mut search = Search::new(&game, &limits, &cancel, &|_| {});
    assert!(matches!(search.run(Pass::Exhaustive), Outcome::Exhausted));
    let expected = reachable(&game);
    assert_eq!(search.positions, expected);
    expected
}

#[test]
fn a_capped_pass_gives_up_without_a_verdict() {
    let deal = numbered::deal(1, SuitCount::Four, Rules::Standard);
    let game = Game::new(&deal).unwrap();
    let limits = Limits::default();
    let cancel = AtomicBool::new(false);
    let mut search = Search::new(&game, &limits, &cancel, &|_| {});
    search.pass_cap = Some(1_000);
    assert!(matches!(search.run(Pass::Exhaustive), Outcome::Stopped));
    assert!(search.capped);
    assert_eq!(search.stopped, None);
    search.pass_cap = None;
    let probe = Pass::Probe {
        budget: 2_000,
        width: 2,
        move_cost: 0,
        thorough: false,
    };
    search.run(probe);
    assert!(!search.capped);
}
