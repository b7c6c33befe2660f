//! PySol-compatible game numbers: `spider deal --pysol N` gives the 4-suit
//! Spider deal that PySolFC deals as game `N`, so a player can analyze the
//! very game on their screen, and published PySol results can be checked.
//!
//! Reimplemented from reading PySolFC's sources (`pysollib/pysolrandom.py`,
//! `pysollib/game/__init__.py`, `pysollib/games/spider.py`) and the
//! `pysol_cards` package (`random.py`, `random_base.py`, `cards.py`):
//!
//! - **Generator.** Games `0..32000` use `LCRandom31`, Microsoft's C runtime
//!   `rand()` (the FreeCell numbers): `x = (x * 214013 + 2531011) mod 2^33`,
//!   output `(x >> 16) & 0x7fff`, starting from `x = N`; an integer in
//!   `0..=n` is `output % (n + 1)`. Games `32000..=10^20` use `MTRandom`,
//!   Python's Mersenne Twister (MT19937) seeded with the integer `N` as
//!   Python seeds it (`init_by_array` over the 32-bit words of `N`, least
//!   significant first); a float is `(a * 2^26 + b) / 2^53` with `a`, `b` the
//!   top 27 and 26 bits of two outputs, and an integer in `0..=n` is
//!   `floor(float * (n + 1))`.
//! - **Shuffle.** Fisher–Yates from the end: for `n` from 103 down to 1,
//!   swap card `n` with card `randint(0, n)`.
//! - **Deck.** Two decks, each clubs, spades, hearts, diamonds (PySol's suit
//!   numbers 0..3), each suit ace to king. (The FreeCell reordering PySol
//!   applies to 52-card games under `LCRandom31` does not apply to 104 cards.)
//! - **Layout.** The shuffled list is the talon, its last card on top. PySol's
//!   Spider deals four rows face down onto all ten piles, a fifth face-down row
//!   onto piles 1, 4, 7 and 10 only, then one face-up row onto all ten piles;
//!   each row takes the talon's top card for pile 1 first. The 50 cards left
//!   are the stock, dealt ten at a time in the same way.
//!
//! Game 14934's published layout is a test below. The Mersenne Twister path
//! is checked against Python's own `random` module (whose integer seeding and
//! `random()` PySolFC's `random2` dependency shares), not against a running
//! PySolFC.

use crate::cards::{Card, CardSlot, Suit, SuitCount};
use crate::deal::{DECK_CARDS, Deal, MAX_STOCK_ROWS, PILES, Pile, Rules, StockRow};

/// The highest PySol game number (PySolFC's `MAX_SEED`, 10^20).
pub const MAX_GAME: u128 = 100_000_000_000_000_000_000;

/// Game numbers below this use Microsoft's generator; the others Mersenne
/// Twister.
pub const FIRST_MERSENNE_GAME: u128 = 32_000;

/// A game number PySol does not have.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("PySol game numbers go from 0 to {MAX_GAME}; {0} is out of range")]
pub struct GameNumberError(pub u128);

/// Microsoft's C runtime `rand()`, as PySol's `LCRandom31` runs it for game
/// numbers below 32000.
#[derive(Clone, Debug)]
pub struct MsRandom {
    state: u64,
}

impl MsRandom {
    /// The generator for game `seed`.
    pub fn new(seed: u32) -> MsRandom {
        MsRandom {
            state: u64::from(seed),
        }
    }

    /// The next 15-bit output.
    pub fn next_u15(&mut self) -> u32 {
        self.state = (self.state * 214_013 + 2_531_011) & 0x1_ffff_ffff;
        ((self.state >> 16) & 0x7fff) as u32
    }

    /// An integer in `0..=max`, PySol's `randint(0, max)`.
    pub fn randint(&mut self, max: usize) -> usize {
        self.next_u15() as usize % (max + 1)
    }
}

/// MT19937, the Mersenne Twister of Matsumoto and Nishimura, with Python's
/// seeding of integers.
#[derive(Clone)]
pub struct Mt19937 {
    state: [u32; 624],
    index: usize,
}

impl Mt19937 {
    /// The reference `init_genrand(seed)`.
    pub fn from_u32(seed: u32) -> Mt19937 {
        let mut state = [0u32; 624];
        state[0] = seed;
        for i in 1..624 {
            state[i] = 1_812_433_253u32
                .wrapping_mul(state[i - 1] ^ (state[i - 1] >> 30))
                .wrapping_add(i as u32);
        }
        Mt19937 { state, index: 624 }
    }

    /// The reference `init_by_array(key)`.
    pub fn from_key(key: &[u32]) -> Mt19937 {
        let mut mt = Mt19937::from_u32(19_650_218);
        let s = &mut mt.state;
        let n = 624;
        let (mut i, mut j) = (1usize, 0usize);
        for _ in 0..n.max(key.len()) {
            s[i] = (s[i] ^ (s[i - 1] ^ (s[i - 1] >> 30)).wrapping_mul(1_664_525))
                .wrapping_add(key[j])
                .wrapping_add(j as u32);
            i += 1;
            j += 1;
            if i >= n {
                s[0] = s[n - 1];
                i = 1;
            }
            if j >= key.len() {
                j = 0;
            }
        }
        for _ in 0..n - 1 {
            s[i] = (s[i] ^ (s[i - 1] ^ (s[i - 1] >> 30)).wrapping_mul(1_566_083_941))
                .wrapping_sub(i as u32);
            i += 1;
            if i >= n {
                s[0] = s[n - 1];
                i = 1;
            }
        }
        s[0] = 0x8000_0000;
        mt
    }

    /// Seeded as Python's `random.seed(n)` seeds a non-negative integer: the
    /// key is `n`'s 32-bit words, least significant first (`[0]` for 0).
    pub fn from_python_int(n: u128) -> Mt19937 {
        let mut key = Vec::new();
        let mut rest = n;
        while rest > 0 {
            key.push(rest as u32);
            rest >>= 32;
        }
        if key.is_empty() {
            key.push(0);
        }
        Mt19937::from_key(&key)
    }

    /// The next 32-bit output.
    pub fn next_u32(&mut self) -> u32 {
        const UPPER: u32 = 0x8000_0000;
        const LOWER: u32 = 0x7fff_ffff;
        if self.index >= 624 {
            for k in 0..624 {
                let y = (self.state[k] & UPPER) | (self.state[(k + 1) % 624] & LOWER);
                let mag = if y & 1 == 1 { 0x9908_b0df } else { 0 };
                self.state[k] = self.state[(k + 397) % 624] ^ (y >> 1) ^ mag;
            }
            self.index = 0;
        }
        let mut y = self.state[self.index];
        self.index += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    /// A float in `[0, 1)` with 53 random bits, Python's `random()`.
    pub fn random(&mut self) -> f64 {
        let a = f64::from(self.next_u32() >> 5);
        let b = f64::from(self.next_u32() >> 6);
        (a * 67_108_864.0 + b) * (1.0 / 9_007_199_254_740_992.0)
    }

    /// An integer in `0..=max`, PySol's `randint(0, max)` for this generator.
    pub fn randint(&mut self, max: usize) -> usize {
        (self.random() * (max + 1) as f64) as usize
    }
}

/// The 104 cards of PySol's two decks before shuffling: per deck clubs,
/// spades, hearts, diamonds, each ace to king.
pub fn unshuffled_deck() -> Vec<Card> {
    const PYSOL_SUITS: [Suit; 4] = [Suit::Clubs, Suit::Spades, Suit::Hearts, Suit::Diamonds];
    (0..2)
        .flat_map(|_| PYSOL_SUITS)
        .flat_map(|suit| (1..=13).map(move |rank| Card::new(rank, suit)))
        .collect()
}

/// PySol's talon for game `game` after shuffling (the top card is the last).
pub fn talon(game: u128) -> Result<Vec<Card>, GameNumberError> {
    if game > MAX_GAME {
        return Err(GameNumberError(game));
    }
    let mut cards = unshuffled_deck();
    let mut randint: Box<dyn FnMut(usize) -> usize> = if game < FIRST_MERSENNE_GAME {
        let mut rng = MsRandom::new(game as u32);
        Box::new(move |max| rng.randint(max))
    } else {
        let mut rng = Mt19937::from_python_int(game);
        Box::new(move |max| rng.randint(max))
    };
    for n in (1..cards.len()).rev() {
        let j = randint(n);
        cards.swap(n, j);
    }
    Ok(cards)
}

/// PySol's 4-suit Spider game `game` (0 to [`MAX_GAME`]) under `rules`
/// (PySol's "Spider" is [`Rules::Standard`], its "Relaxed Spider"
/// [`Rules::Relaxed`]; both deal alike).
pub fn deal(game: u128, rules: Rules) -> Result<Deal, GameNumberError> {
    let mut talon = talon(game)?;
    debug_assert_eq!(talon.len(), DECK_CARDS);
    let mut top = move || talon.pop().expect("104 cards are enough");
    let mut piles: Vec<Vec<Card>> = vec![Vec::new(); PILES];
    for _ in 0..4 {
        for pile in piles.iter_mut() {
            pile.push(top());
        }
    }
    for pile in [0, 3, 6, 9] {
        piles[pile].push(top());
    }
    for pile in piles.iter_mut() {
        pile.push(top());
    }
    let piles = piles
        .into_iter()
        .map(|mut cards| {
            let up = cards.pop().expect("piles are never empty");
            Pile {
                face_down: cards.into_iter().map(CardSlot::Known).collect(),
                face_up: vec![up],
            }
        })
        .collect();
    let stock = (0..MAX_STOCK_ROWS)
        .map(|_| {
            let mut row: StockRow = [CardSlot::Unknown; PILES];
            for slot in row.iter_mut() {
                *slot = CardSlot::Known(top());
            }
            row
        })
        .collect();
    let deal = Deal {
        suits: SuitCount::Four,
        rules,
        piles,
        stock,
        removed: Vec::new(),
        moves_played: 0,
    };
    debug_assert!(deal.validate().is_ok());
    Ok(deal)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mt19937_matches_the_reference_outputs() {
        // mt19937ar.c's published test: init_by_array({0x123, 0x234, 0x345,
        // 0x456}) then genrand_int32() gives 1067595299 955945823 ...
        let mut mt = Mt19937::from_key(&[0x123, 0x234, 0x345, 0x456]);
        let first: Vec<u32> = (0..5).map(|_| mt.next_u32()).collect();
        assert_eq!(
            first,
            [
                1_067_595_299,
                955_945_823,
                477_289_528,
                4_107_218_783,
                4_228_976_476
            ]
        );
        // The 10000th output of init_genrand(5489), C++'s std::mt19937 check.
        let mut mt = Mt19937::from_u32(5489);
        let last = (0..10_000).map(|_| mt.next_u32()).last();
        assert_eq!(last, Some(4_123_659_995));
    }

    #[test]
    fn python_seeding_and_random() {
        // Python: random.Random(32000).random() == 0.3721723162993418
        let mut mt = Mt19937::from_python_int(32_000);
        assert_eq!(mt.random(), 0.372_172_316_299_341_8);
    }

    #[test]
    fn ms_rand_matches_the_c_runtime() {
        // srand(1); rand() in Microsoft's C runtime gives 41, 18467, 6334.
        let mut rng = MsRandom::new(1);
        assert_eq!(
            [rng.next_u15(), rng.next_u15(), rng.next_u15()],
            [41, 18467, 6334]
        );
    }

    #[test]
    fn refuses_numbers_past_the_last_game() {
        assert!(deal(MAX_GAME, Rules::Standard).is_ok());
        assert_eq!(
            deal(MAX_GAME + 1, Rules::Standard),
            Err(GameNumberError(MAX_GAME + 1))
        );
    }
}
