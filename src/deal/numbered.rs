//! The project's own numbered deals: deal `N` is the same 104 cards in the
//! same places in every version of this program, on every machine.
//!
//! That promise is why nothing here comes from a random-number crate (their
//! generators and sampling methods change between versions). The whole
//! algorithm is written down, and golden tests pin its output:
//!
//! 1. **Deck.** Card `k` of the unshuffled deck, `k = 0..104`, has rank
//!    `k % 13 + 1` (ace first) and suit number `(k / 13) % s` of the suits in
//!    play, in the order spades, hearts, diamonds, clubs, where `s` is the suit
//!    count (1, 2 or 4). With four suits the deck is A..K of spades, hearts,
//!    diamonds, clubs, then the same again; with one suit, eight times A..K of
//!    spades. So deal `N` with one or two suits is deal `N` with four suits
//!    with the suits folded onto those in play.
//! 2. **Generator.** SplitMix64 (Steele, Lea and Flood, 2014) seeded with
//!    `N`: each step adds `0x9E3779B97F4A7C15` to the state (wrapping) and
//!    returns the state mixed by `z ^= z >> 30; z *= 0xBF58476D1CE4E5B9;
//!    z ^= z >> 27; z *= 0x94D049BB133111EB; z ^= z >> 31` (wrapping).
//! 3. **Uniform draw below `b`.** Rejection sampling: draw `x`; reject while
//!    `x >= 2^64 - (2^64 mod b)`; answer `x mod b`. Unbiased, and the
//!    rejection is so rare for `b <= 104` that it almost never happens.
//! 4. **Shuffle.** Fisher–Yates from the end: for `i` from 103 down to 1,
//!    swap card `i` with card `j`, `j` drawn uniformly below `i + 1`.
//! 5. **Layout.** The shuffled cards are the dealing order of
//!    [`Deal::fresh`], Microsoft's layout: piles 1–4 get six cards and piles
//!    5–10 five, pile by pile, bottom first (the last card of each pile is face
//!    up); the remaining 50 cards are the five stock rows, row 1 first,
//!    entry for pile 1 first.

use crate::cards::{Card, CardSlot, SuitCount};
use crate::deal::{DECK_CARDS, Deal, Rules};

/// SplitMix64, the generator of the own numbered deals. Tiny, fast, passes
/// BigCrush, and fully specified by the few lines of [`SplitMix64::next_u64`].
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// The generator whose first output mixes `seed + 0x9E3779B97F4A7C15`.
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number drawn uniformly from `0..bound` by rejection sampling
    /// (`bound` must not be 0).
    pub fn below(&mut self, bound: u64) -> u64 {
        assert!(bound > 0, "cannot draw below 0");
        // 2^64 mod bound, computed without 128-bit arithmetic.
        let rest = (u64::MAX % bound + 1) % bound;
        loop {
            let x = self.next_u64();
            // Accept x < 2^64 - rest; when rest is 0 every x is accepted.
            if rest == 0 || x < 0u64.wrapping_sub(rest) {
                return x % bound;
            }
        }
    }
}

/// The 104 cards before shuffling, in the documented order (see the module
/// docs): card `k` is rank `k % 13 + 1` of suit `(k / 13) % suit count`.
pub fn unshuffled_deck(suits: SuitCount) -> Vec<Card> {
    let in_play = suits.suits();
    (0..DECK_CARDS)
        .map(|k| Card::new((k % 13) as u8 + 1, in_play[(k / 13) % in_play.len()]))
        .collect()
}

/// The 104 cards of own deal `number` in dealing order (the order
/// [`Deal::fresh`] takes).
pub fn dealing_order(number: u64, suits: SuitCount) -> Vec<Card> {
    let mut cards = unshuffled_deck(suits);
    let mut rng = SplitMix64::new(number);
    for i in (1..cards.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        cards.swap(i, j);
    }
    cards
}

/// Own deal `number` for a suit count and rules, laid out as Microsoft Spider
/// lays out a fresh game. Every `u64` is a deal number.
pub fn deal(number: u64, suits: SuitCount, rules: Rules) -> Deal {
    let slots: Vec<CardSlot> = dealing_order(number, suits)
        .into_iter()
        .map(CardSlot::Known)
        .collect();
    Deal::fresh(&slots, suits, rules).expect("104 known cards of suits in play always make a deal")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix64_matches_the_reference_outputs() {
        // The reference implementation (Vigna's splitmix64.c) seeded with 0
        // and with 1234567 gives these first outputs.
        let mut rng = SplitMix64::new(0);
        assert_eq!(rng.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(rng.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(rng.next_u64(), 0x06C4_5D18_8009_454F);
        let mut rng = SplitMix64::new(1_234_567);
        assert_eq!(rng.next_u64(), 6_457_827_717_110_365_317);
        assert_eq!(rng.next_u64(), 3_203_168_211_198_807_973);
    }

    #[test]
    fn below_stays_below_and_covers_the_range() {
        let mut rng = SplitMix64::new(7);
        let mut seen = [false; 5];
        for _ in 0..1000 {
            let x = rng.below(5);
            assert!(x < 5);
            seen[x as usize] = true;
        }
        assert!(seen.iter().all(|&s| s));
        assert_eq!(rng.below(1), 0);
    }

    #[test]
    fn unshuffled_deck_order() {
        let deck = unshuffled_deck(SuitCount::Four);
        let text: Vec<String> = deck.iter().map(|c| c.to_string()).collect();
        assert_eq!(text[0], "AS");
        assert_eq!(text[12], "KS");
        assert_eq!(text[13], "AH");
        assert_eq!(text[51], "KC");
        assert_eq!(text[52], "AS");
        let two = unshuffled_deck(SuitCount::Two);
        assert_eq!(two[26].to_string(), "AS");
        assert_eq!(two[39].to_string(), "AH");
        assert!(
            unshuffled_deck(SuitCount::One)
                .iter()
                .all(|c| c.suit() == crate::cards::Suit::Spades)
        );
    }

    #[test]
    fn fewer_suits_fold_the_four_suit_deal() {
        let four = dealing_order(99, SuitCount::Four);
        let one = dealing_order(99, SuitCount::One);
        let two = dealing_order(99, SuitCount::Two);
        for ((f, o), t) in four.iter().zip(&one).zip(&two) {
            assert_eq!(f.rank(), o.rank());
            assert_eq!(f.rank(), t.rank());
            assert_eq!(o.suit(), crate::cards::Suit::Spades);
            assert_eq!(t.suit(), crate::cards::Suit::ALL[f.suit() as usize % 2]);
        }
    }
}
