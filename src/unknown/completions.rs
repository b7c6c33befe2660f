//! Unknown cards: every way to fill the `XX` slots with the candidate cards
//! (the cards the two-deck check finds missing), each decided on its own.

use std::sync::atomic::AtomicBool;

use rayon::prelude::*;

use num_bigint::BigUint;

use crate::cards::Card;
use crate::deal::Deal;

use crate::solve::{Limits, SolveError, analyze};

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

/// Decides every completion of `deal` by `candidates`, in parallel (on the
/// current rayon pool), each under `limits`. At most `max_completions` are
/// enumerated.
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
    let completions = distinct_orderings(candidates)
        .into_par_iter()
        .map(|cards| {
            let filled = deal.with_unknowns_filled(&cards)?;
            let analysis = analyze(&filled, limits, cancel)?;
            let completion = Completion { cards, analysis };
            on_done(&completion);
            Ok(completion)
        })
        .collect::<Result<Vec<_>, SolveError>>()?;
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
