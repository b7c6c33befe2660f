//! Unknown cards: every way to fill the `XX` slots with the candidate cards
//! (the cards the two-deck check finds missing), each decided on its own.

use std::sync::atomic::AtomicBool;

use rayon::prelude::*;

use num_bigint::BigUint;

use crate::cards::Card;
use crate::deal::Deal;

use crate::game::{Game, Move};
use crate::solve::{Analysis, Limits, SolveError, Verdict, analyze, analyze_unshortened};

use super::decided::{Completion, CompletionError, Decided};
use super::sample;

/// Every distinct ordering of `candidates` (a multiset), in lexicographic
/// order: with duplicate cards, orderings that differ only by swapping equal
/// cards are one completion.
pub fn distinct_orderings(candidates: &[Card]) -> Vec<Vec<Card>> {
    let mut current = candidates.to_vec();
    current.sort();
    let mut all = vec![current.clone()];
    // The next lexicographic permutation, until the last.
    loop {
        let Some(pivot) = (1..current.len())
            .rev()
            .find(|&i| current[i - 1] < current[i])
        else {
            return all;
        };
        let pivot = pivot - 1;
        let successor = (pivot + 1..current.len())
            .rev()
            .find(|&j| current[j] > current[pivot])
            .expect("a larger card exists after the pivot");
        current.swap(pivot, successor);
        current[pivot + 1..].reverse();
        all.push(current.clone());
    }
}

/// How many completions are decided first, on their own, to guide the
/// others: two, so that both cores of a small machine have one (the number
/// must not depend on the machine, or the verdicts would).
const GUIDES: usize = 2;

/// The positions a guided attempt may examine before the completion is
/// searched from its start as usual (they count toward its
/// `--max-positions`).
const GUIDED_BUDGET: u64 = 50_000;

/// A won completion whose line may guide another.
struct Guide {
    deal: Deal,
    line: Vec<Move>,
}

/// Decides a completion: first from where each guide's winning line stops
/// holding for it, then, if no guide leads to a win, from its start.
///
/// Two completions differ only in their `XX` cards, so a guide's line is
/// legal in this completion and reaches the same positions until a move
/// turns up a card where the two differ. From the position that move
/// reaches here, a search with the cards of this completion looks for the
/// rest of a win (within [`GUIDED_BUDGET`]); a win found is the guide's
/// prefix and that rest, replayed by the rules like any other line. When
/// the guided attempts find nothing, the usual search runs from the start
/// with what is left of the position budget: the verdict can only be
/// `winnable` by a replayed line, or what the usual search says.
fn decide_guided(
    filled: &Deal,
    guides: &[Guide],
    limits: &Limits,
    cancel: &AtomicBool,
) -> Result<Analysis, SolveError> {
    let started = std::time::Instant::now();
    let game = Game::new(filled)?;
    let mut used = 0u64;
    for guide in guides {
        let budget = limits.max_positions.map_or(GUIDED_BUDGET, |max| {
            max.saturating_sub(used).min(GUIDED_BUDGET)
        });
        if budget == 0 {
            break;
        }
        let Ok(theirs) = Game::new(&guide.deal) else {
            continue;
        };
        let (mut here, mut there) = (game.start().clone(), theirs.start().clone());
        let mut prefix = Vec::new();
        for &mv in &guide.line {
            if game.check(&here, mv).is_err() {
                break;
            }
            here = game.apply(&here, mv).position;
            there = theirs.apply(&there, mv).position;
            prefix.push(mv);
            if here != there {
                break;
            }
        }
        let Some(rest_deal) = game.deal_at(&here) else {
            continue;
        };
        let rest_limits = Limits {
            max_positions: Some(budget),
            shorten_positions: 0,
            checkpoint: None,
            ..limits.clone()
        };
        let rest = analyze_unshortened(&rest_deal, &rest_limits, cancel)?;
        used += rest.positions;
        if let (Verdict::Winnable, Some(rest_line)) = (rest.verdict, &rest.line) {
            let mut line = prefix.clone();
            line.extend_from_slice(rest_line);
            let line = crate::solve::shorten::shorten(&game, &line);
            crate::solve::verify(&game, &line)?;
            let first_win = Some((started.elapsed(), line.len()));
            // The guide's part was shortened with the guide; the rest is
            // shortened in its own, smaller game.
            let rest_game = Game::new(&rest_deal)?;
            let rest_line = crate::solve::shorter_winning_line(
                &rest_game,
                rest_line,
                limits.shorten_positions,
                cancel,
            );
            let mut short = prefix;
            short.extend_from_slice(&rest_line);
            let short = crate::solve::shorten::shorten(&game, &short);
            let line = if short.len() < line.len() && crate::solve::verify(&game, &short).is_ok() {
                short
            } else {
                line
            };
            return Ok(Analysis {
                line: Some(line),
                first_win,
                positions: used,
                elapsed: started.elapsed(),
                pass: "guided",
                ..rest
            });
        }
    }
    let limits = Limits {
        max_positions: limits
            .max_positions
            .map(|max| max.saturating_sub(used).max(1)),
        ..limits.clone()
    };
    let mut analysis = analyze(filled, &limits, cancel)?;
    analysis.positions += used;
    analysis.elapsed = started.elapsed();
    Ok(analysis)
}

/// Decides every completion of `deal` by `candidates`, in parallel (on the
/// current rayon pool), each under `limits`. At most `max_completions` are
/// enumerated. The first `GUIDES` are decided on their own; each of the
/// others starts from their winning lines (see `decide_guided`).
pub fn decide(
    deal: &Deal,
    candidates: &[Card],
    limits: &Limits,
    cancel: &AtomicBool,
    max_completions: u64,
    on_done: &(dyn Fn(&Completion) + Sync),
) -> Result<Decided, CompletionError> {
    let slots = deal.unknown_places();
    if slots.len() != candidates.len() {
        return Err(CompletionError::Mismatch {
            slots: slots.len(),
            candidates: candidates.len(),
        });
    }
    let count = sample::count(candidates);
    if count > BigUint::from(max_completions) {
        return Err(CompletionError::TooMany {
            count,
            limit: max_completions,
        });
    }
    let mut orderings = distinct_orderings(candidates);
    let later = orderings.split_off(GUIDES.min(orderings.len()));
    let decide = |cards: Vec<Card>, guides: &[Guide]| {
        let filled = deal.with_unknowns_filled(&cards)?;
        let analysis = decide_guided(&filled, guides, limits, cancel)?;
        let completion = Completion { cards, analysis };
        on_done(&completion);
        Ok(completion)
    };
    // The first completions alone, then the others guided by their wins:
    // which completions guide which never depends on the threads or their
    // speed, so the verdicts, lines and counts do not either.
    let mut completions = orderings
        .into_par_iter()
        .map(|cards| decide(cards, &[]))
        .collect::<Result<Vec<_>, SolveError>>()?;
    let guides = completions
        .iter()
        .filter_map(|c| {
            let line = c.analysis.line.clone()?;
            Some(Guide {
                deal: deal.with_unknowns_filled(&c.cards).ok()?,
                line,
            })
        })
        .collect::<Vec<_>>();
    completions.extend(
        later
            .into_par_iter()
            .map(|cards| decide(cards, &guides))
            .collect::<Result<Vec<_>, SolveError>>()?,
    );
    Ok(Decided {
        slots,
        total: count,
        seed: None,
        completions,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigUint;

    fn cards(text: &str) -> Vec<Card> {
        text.split_whitespace()
            .map(|t| t.parse().unwrap())
            .collect()
    }

    #[test]
    fn small_counts_match_the_listing() {
        for text in [
            "",
            "AS",
            "AS AS 2H",
            "3S 7S KS 4H",
            "AS AS AS AS 2H 2H",
            "AS AS 2S 2S 3S",
        ] {
            let c = cards(text);
            assert_eq!(
                sample::count(&c),
                BigUint::from(distinct_orderings(&c).len()),
                "{text}"
            );
        }
        assert_eq!(
            sample::count(&cards("AS AS AS AS 2H 2H")),
            BigUint::from(15u32)
        );
    }

    #[test]
    fn orderings_of_distinct_cards_are_all_permutations() {
        let all = distinct_orderings(&cards("3S 7S KS 4H"));
        assert_eq!(all.len(), 24);
        let mut unique = all.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), 24);
    }

    #[test]
    fn equal_cards_make_one_completion() {
        // AS AS 2H: 3!/2! = 3 distinct orderings.
        let all = distinct_orderings(&cards("AS 2H AS"));
        assert_eq!(all.len(), 3);
        assert_eq!(distinct_orderings(&[]).len(), 1);
    }
}
