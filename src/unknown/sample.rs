//! Unknown cards as a player has them: too many completions to decide them
//! all, so a seeded uniform sample of them is decided instead, and the
//! report gives the winnable share with its error bars.
//!
//! A deal typed as a player sees it has every face-down and stock card
//! `XX`: a fresh 4-suit deal has 94 of them and about 2.47 × 10^133
//! completions. [`count`] gives that number exactly (a big integer: no
//! fixed-width counter holds it), [`draw`] draws one completion uniformly,
//! and [`decide_sample`] decides a sample of them in parallel, each under
//! its own limits. The completions of a sample are independent uniform
//! draws (with replacement), so the number found winnable is binomial and
//! the 95 % Wilson interval of [`super::SampleSummary`] is the usual one.

use std::sync::atomic::{AtomicBool, Ordering};

use num_bigint::BigUint;
use rayon::prelude::*;

use crate::cards::Card;
use crate::deal::Deal;
use crate::deal::numbered::SplitMix64;

use crate::game::{Game, Move};
use crate::solve::{Limits, SolveError, Verdict, analyze_unshortened};

use super::decided::{Completion, CompletionError, Decided};

/// The number of distinct completions of `candidates` (a multiset): the
/// multinomial n! / (k1! k2! ...), where n is the number of cards and each
/// k is how often one card appears. Exact, however large.
pub fn count(candidates: &[Card]) -> BigUint {
    let mut sorted = candidates.to_vec();
    sorted.sort();
    // Multiply in the cards one at a time: after card i (0-based) the value
    // is the number of distinct orderings of the first i + 1 cards, which
    // is (previous) × (i + 1) / (copies of this card so far). The division
    // is exact at every step, as each intermediate value is a multinomial.
    let mut total = BigUint::from(1u32);
    let mut copies = 0u32;
    for (i, card) in sorted.iter().enumerate() {
        copies = if i > 0 && sorted[i - 1] == *card {
            copies + 1
        } else {
            1
        };
        total *= BigUint::from(i + 1);
        total /= BigUint::from(copies);
    }
    total
}

/// A count for people: in full up to six digits, else with three
/// significant digits, `2.47 × 10^133`.
pub fn approximate(n: &BigUint) -> String {
    let digits = n.to_string();
    if digits.len() <= 6 {
        return digits;
    }
    // The first 17 digits as a mantissa in [1, 10).
    let head: f64 = digits[..17.min(digits.len())].parse().unwrap_or(1.0);
    let mut mantissa = head / 10f64.powi(16.min(digits.len() as i32 - 1));
    let mut exponent = digits.len() - 1;
    if format!("{mantissa:.2}") == "10.00" {
        mantissa = 1.0;
        exponent += 1;
    }
    format!("{mantissa:.2} × 10^{exponent}")
}

/// Draws one completion uniformly: the candidate cards, shuffled by
/// Fisher–Yates with `rng`, in the order of [`Deal::unknown_places`].
///
/// Why every distinct completion is equally likely, even with repeated
/// cards: Fisher–Yates makes each of the n! orderings of the n card
/// *copies* (copies told apart, say by where they stood before the
/// shuffle) equally likely, 1/n!. A distinct completion is what is left
/// when equal cards are not told apart. The orderings of copies that give
/// one completion are exactly those that differ from it by permuting the
/// k1 copies of the first card among their own slots, the k2 copies of
/// the second among theirs, and so on: k1! k2! ... of them, the same
/// number for every completion. So each completion has probability
/// k1! k2! ... / n!, which is 1 / (number of completions): uniform. The
/// test `sampling_is_uniform` checks it by a chi-square test.
pub fn draw(candidates: &[Card], rng: &mut SplitMix64) -> Vec<Card> {
    let mut cards = candidates.to_vec();
    cards.sort();
    for i in (1..cards.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        cards.swap(i, j);
    }
    cards
}

/// `size` completions drawn by [`draw`] from a generator seeded with
/// `seed`, in order: the same seed always gives the same sample, whatever
/// the number of threads that decide it.
pub fn draw_sample(candidates: &[Card], size: usize, seed: u64) -> Vec<Vec<Card>> {
    let mut rng = SplitMix64::new(seed);
    (0..size).map(|_| draw(candidates, &mut rng)).collect()
}

/// Whether the completion of `deal` (a position with `XX` cards) that
/// fills them with `fill` is won after `line`: the line played with those
/// cards, then the position it reaches solved under `limits`. This is how
/// a move or a line is valued against sampled completions (the hint's
/// verification, the blind player's check).
pub fn won_after(
    deal: &Deal,
    fill: &[Card],
    line: &[Move],
    limits: &Limits,
    cancel: &AtomicBool,
) -> Result<bool, SolveError> {
    let limits = &unshortened(limits);
    let filled = deal.with_unknowns_filled(fill)?;
    let game = Game::new(&filled)?;
    let mut position = game.start().clone();
    for &mv in line {
        position = game.apply(&position, mv).position;
    }
    if position.is_won() {
        return Ok(true);
    }
    let now = game
        .deal_at(&position)
        .expect("a completion has no unknown card to turn up");
    Ok(analyze_unshortened(&now, limits, cancel)?.verdict == Verdict::Winnable)
}

/// In how many of `size` completions of `deal` drawn uniformly (seeded
/// with `seed`) a win is found after `line` ([`won_after`], each under
/// `limits`, in parallel on the current rayon pool): the chance `spider
/// play` gives for a move of a player that solves no sample. Like HOP's,
/// it is optimistic (each completion is solved with its cards known) and
/// a completion left undecided counts as not won.
pub fn won_share_after(
    deal: &Deal,
    candidates: &[Card],
    line: &[Move],
    size: usize,
    seed: u64,
    limits: &Limits,
    cancel: &AtomicBool,
) -> Result<usize, SolveError> {
    let fills = draw_sample(candidates, size, seed);
    let won = fills
        .par_iter()
        .map(|fill| won_after(deal, fill, line, limits, cancel))
        .collect::<Result<Vec<bool>, SolveError>>()?;
    Ok(won.into_iter().filter(|&w| w).count())
}

/// Decides `size` completions of `deal` drawn uniformly (seeded with
/// `seed`), in parallel on the current rayon pool, each under `limits`
/// (its winning line is not shortened: only its first moves matter here).
/// `on_done` is called as each is decided. Once `cancel` is set the
/// completions not yet started are left out.
pub fn decide_sample(
    deal: &Deal,
    candidates: &[Card],
    size: usize,
    seed: u64,
    limits: &Limits,
    cancel: &AtomicBool,
    on_done: &(dyn Fn(&Completion) + Sync),
) -> Result<Decided, CompletionError> {
    let slots = deal.unknown_places();
    if slots.len() != candidates.len() {
        return Err(CompletionError::Mismatch {
            slots: slots.len(),
            candidates: candidates.len(),
        });
    }
    let limits = &unshortened(limits);
    let completions = draw_sample(candidates, size, seed)
        .into_par_iter()
        .filter(|_| !cancel.load(Ordering::Relaxed))
        .map(|cards| {
            let filled = deal.with_unknowns_filled(&cards)?;
            let analysis = analyze_unshortened(&filled, limits, cancel)?;
            let completion = Completion { cards, analysis };
            on_done(&completion);
            Ok(completion)
        })
        .collect::<Result<Vec<_>, SolveError>>()?;
    Ok(Decided {
        slots,
        total: count(candidates),
        seed: Some(seed),
        completions,
    })
}

/// `limits` with no search for a shorter line after a win: a sampled
/// completion's solve needs only its verdict and first moves, and the
/// search for a shorter line (1.5 M positions by default) would cost far
/// more than finding the win.
fn unshortened(limits: &Limits) -> Limits {
    Limits {
        shorten_positions: 0,
        ..limits.clone()
    }
}

/// A seed for a run that was given none: from the clock, so two runs
/// differ; it is printed so the run can be repeated with `--seed`.
pub fn fresh_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    // Mixed, and kept below 10^9 so it is easy to type back.
    SplitMix64::new(nanos).next_u64() % 1_000_000_000
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn cards(text: &str) -> Vec<Card> {
        text.split_whitespace()
            .map(|t| t.parse().unwrap())
            .collect()
    }

    /// n! / (k1! k2! ...) by the plain formula, in big integers.
    fn multinomial(counts: &[usize]) -> BigUint {
        let factorial = |n: usize| (1..=n).fold(BigUint::from(1u32), |acc, i| acc * i);
        let n: usize = counts.iter().sum();
        counts
            .iter()
            .fold(factorial(n), |acc, &k| acc / factorial(k))
    }

    #[test]
    fn a_fresh_four_suit_deal_has_about_2_47e133_completions() {
        // 94 unknown cards of a fresh deal: every card twice, but the ten
        // face-up cards once less. Take the ten face-up cards as ten
        // distinct cards: 42 cards twice, 10 once.
        let mut candidates = Vec::new();
        let deck = crate::deal::numbered::unshuffled_deck(crate::cards::SuitCount::Four);
        let mut seen: HashMap<Card, usize> = HashMap::new();
        for card in deck {
            *seen.entry(card).or_default() += 1;
        }
        let mut face_up = 0;
        let mut sorted: Vec<_> = seen.into_iter().collect();
        sorted.sort();
        let mut counts = Vec::new();
        for (card, copies) in sorted {
            let copies = if face_up < 10 {
                face_up += 1;
                copies - 1
            } else {
                copies
            };
            candidates.extend(std::iter::repeat_n(card, copies));
            counts.push(copies);
        }
        assert_eq!(candidates.len(), 94);
        let exact = count(&candidates);
        assert_eq!(exact, multinomial(&counts));
        // 94! / 2^42, by the formula: the exact digits.
        let factorial94 = (1..=94u32).fold(BigUint::from(1u32), |acc, i| acc * i);
        assert_eq!(exact, factorial94 >> 42);
        assert_eq!(approximate(&exact), "2.47 × 10^133");
        assert_eq!(exact.to_string().len(), 134);
    }

    #[test]
    fn one_suit_and_two_suit_counts_match_the_formula() {
        // One suit: 8 copies of 13 ranks; two suits: 4 copies of 26 cards.
        let one: Vec<Card> = crate::deal::numbered::unshuffled_deck(crate::cards::SuitCount::One);
        assert_eq!(count(&one), multinomial(&[8; 13]));
        let two: Vec<Card> = crate::deal::numbered::unshuffled_deck(crate::cards::SuitCount::Two);
        assert_eq!(count(&two), multinomial(&[4; 26]));
    }

    #[test]
    fn approximations() {
        assert_eq!(approximate(&BigUint::from(999_999u32)), "999999");
        assert_eq!(approximate(&BigUint::from(1_000_000u32)), "1.00 × 10^6");
        assert_eq!(approximate(&BigUint::from(2_475_000u32)), "2.48 × 10^6");
        assert_eq!(approximate(&BigUint::from(9_999_999u32)), "1.00 × 10^7");
    }

    #[test]
    fn the_same_seed_draws_the_same_sample() {
        let c = cards("AS AS 2H 3D 4C 5S 5S");
        assert_eq!(draw_sample(&c, 20, 7), draw_sample(&c, 20, 7));
        assert_ne!(draw_sample(&c, 20, 7), draw_sample(&c, 20, 8));
        for drawn in draw_sample(&c, 20, 7) {
            let mut sorted = drawn.clone();
            sorted.sort();
            let mut expected = c.clone();
            expected.sort();
            assert_eq!(sorted, expected);
        }
    }

    /// Chi-square goodness of fit of many draws against the uniform
    /// distribution over every distinct completion, on a multiset with
    /// repeated cards (180 completions).
    #[test]
    fn sampling_is_uniform() {
        let c = cards("AS AS 2H 2H 3D KC");
        assert_eq!(count(&c), BigUint::from(180u32));
        let draws = 180 * 200;
        let mut seen: HashMap<Vec<Card>, usize> = HashMap::new();
        for drawn in draw_sample(&c, draws, 2026) {
            *seen.entry(drawn).or_default() += 1;
        }
        // Every completion drawn, so the counts seen are all the cells.
        assert_eq!(seen.len(), 180, "every completion is drawn");
        let expected = draws as f64 / 180.0;
        let chi2: f64 = seen
            .values()
            .map(|&observed| (observed as f64 - expected).powi(2) / expected)
            .sum();
        // 179 degrees of freedom: the 99.9th percentile is about 243.3
        // (Wilson–Hilferty).
        assert!(
            chi2 < 243.3,
            "chi-square {chi2:.1} with 179 degrees of freedom"
        );
        // And far from the suspiciously perfect: the 0.1th percentile is
        // about 126.1.
        assert!(chi2 > 126.1, "chi-square {chi2:.1} is too good to be true");
    }
}
