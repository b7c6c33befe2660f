//! Checking a results file row by row (`spider batch --verify`): each deal
//! is dealt again from its number; a winnable row's recorded line is played
//! by the rules ([`crate::game::replay`]) and must end in a win, with as
//! many moves as the row says; an unwinnable row is proved lost again by a
//! search of its own. Nothing a row says is taken on trust but the number.

use std::sync::atomic::AtomicBool;

use serde::Serialize;

use crate::game::{Game, parse_moves, replay};
use crate::solve::{self, Limits, Verdict};

use super::{Record, numbered_deal};

/// What checking one row found, when the row holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Checked {
    /// Winnable: its line replayed by the rules, every move legal, and won.
    LineReplayed,
    /// Unwinnable: proved lost again.
    LossProved,
    /// Unwinnable, not proved again (none asked for).
    LossUnchecked,
    /// Undecided: nothing to check.
    Undecided,
}

/// Checks one row: replays a winnable row's line, proves an unwinnable row
/// lost again within `limits` (with `None`, leaves it unchecked), and has nothing to check in an undecided row. The error says
/// why the row does not hold.
pub fn check(
    record: &Record,
    reprove: Option<&Limits>,
    cancel: &AtomicBool,
) -> Result<Checked, String> {
    let deal = numbered_deal(record.source, record.number, record.suits, record.rules)
        .map_err(|err| err.to_string())?;
    match record.verdict {
        Verdict::Winnable => {
            let Some(line) = &record.line else {
                return Err("winnable, but no line is recorded to replay".to_string());
            };
            let game = Game::new(&deal).map_err(|err| err.to_string())?;
            let tokens = parse_moves(line).map_err(|err| format!("the line: {err}"))?;
            let (moves, end) = replay(&game, &tokens).map_err(|err| format!("the line: {err}"))?;
            if !end.is_won() {
                return Err(format!(
                    "the line's {} moves are legal but do not win ({} of 8 runs removed)",
                    moves.len(),
                    end.runs_removed()
                ));
            }
            if record.line_length != Some(moves.len()) {
                return Err(format!(
                    "the line wins in {} moves, but the row says {}",
                    moves.len(),
                    record
                        .line_length
                        .map_or("none".to_string(), |n| n.to_string())
                ));
            }
            Ok(Checked::LineReplayed)
        }
        Verdict::Unwinnable => {
            let Some(limits) = reprove else {
                return Ok(Checked::LossUnchecked);
            };
            let analysis = solve::analyze(&deal, limits, cancel).map_err(|err| err.to_string())?;
            match analysis.verdict {
                Verdict::Unwinnable => Ok(Checked::LossProved),
                Verdict::Winnable => Err(format!(
                    "recorded unwinnable, but a win was found: {}",
                    analysis
                        .line
                        .as_deref()
                        .map(crate::game::compact_line)
                        .unwrap_or_default()
                )),
                Verdict::Undecided => Err(format!(
                    "not proved lost again: {} after {} positions (give more with --time-limit or --max-positions)",
                    analysis
                        .stopped_by
                        .map_or("the search stopped".to_string(), |r| r.to_string()),
                    analysis.positions
                )),
            }
        }
        Verdict::Undecided => Ok(Checked::Undecided),
    }
}

/// Why an unwinnable row's deal is lost, in a few words: the dead-end test
/// on the dealt position when it finds the deal lost at once, else the
/// exhaustive search that the row's positions count.
pub fn why_lost(record: &Record) -> String {
    let dead_end = numbered_deal(record.source, record.number, record.suits, record.rules)
        .ok()
        .and_then(|deal| Game::new(&deal).ok())
        .and_then(|game| crate::solve::prune::dead_end(&game, game.start()));
    match dead_end {
        Some(dead) => format!("lost from the deal: {dead}"),
        None => format!(
            "every position reachable from the deal examined ({}), none won",
            crate::text::count(record.positions, "position")
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::batch::{BatchConfig, DealList, Shard, Source, decide};
    use crate::cards::SuitCount;
    use crate::deal::Rules;

    fn config() -> BatchConfig {
        BatchConfig {
            source: Source::Pysol,
            deals: DealList::range(1, 1),
            shard: Shard::WHOLE,
            suits: SuitCount::Four,
            rules: Rules::Standard,
            limits: Limits {
                shorten_positions: 0,
                ..Limits::default()
            },
        }
    }

    #[test]
    fn a_recorded_line_is_replayed_and_a_tampered_one_fails() {
        let cancel = AtomicBool::new(false);
        let record = decide(&config(), 1, &cancel).unwrap();
        assert_eq!(record.verdict, Verdict::Winnable);
        assert_eq!(check(&record, None, &cancel), Ok(Checked::LineReplayed));

        // One move less: legal, not won.
        let mut short = record.clone();
        let line = short.line.take().unwrap();
        let cut = line.rsplit_once(' ').unwrap().0.to_string();
        short.line = Some(cut);
        let err = check(&short, None, &cancel).unwrap_err();
        assert!(err.contains("are legal but do not win"), "{err}");

        // The wrong length.
        let mut long = record.clone();
        long.line_length = Some(long.line_length.unwrap() + 1);
        assert!(
            check(&long, None, &cancel)
                .unwrap_err()
                .contains("but the row says")
        );

        // Another deal's line does not play on this deal.
        let mut other = record.clone();
        other.number = 2;
        assert!(
            check(&other, None, &cancel)
                .unwrap_err()
                .contains("is illegal")
        );

        // No line at all.
        let mut none = record;
        none.line = None;
        assert!(check(&none, None, &cancel).unwrap_err().contains("no line"));
    }

    #[test]
    fn game_14934_is_proved_lost_again_and_a_false_loss_is_found() {
        let cancel = AtomicBool::new(false);
        let limits = config().limits;
        let lost = decide(&config(), 14934, &cancel).unwrap();
        assert_eq!(lost.verdict, Verdict::Unwinnable);
        assert_eq!(
            check(&lost, Some(&limits), &cancel),
            Ok(Checked::LossProved)
        );
        assert!(why_lost(&lost).starts_with("lost from the deal: "));

        let mut false_loss = decide(&config(), 1, &cancel).unwrap();
        false_loss.verdict = Verdict::Unwinnable;
        let err = check(&false_loss, Some(&limits), &cancel).unwrap_err();
        assert!(
            err.starts_with("recorded unwinnable, but a win was found"),
            "{err}"
        );
    }
}
