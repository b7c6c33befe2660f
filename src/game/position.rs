//! Positions, legal moves and how a move changes a position.

use std::fmt;

use crate::cards::{Card, CardSlot, KING, SuitCount};
use crate::deal::{DECK_CARDS, Deal, PILES, Place, Rules, ShapeError, StockRow};

use super::Move;

mod rules;

pub use rules::Game;

/// The face of a turned-up `XX` card in a position: known to be there, not
/// known what it is.
pub(super) const UNKNOWN_FACE: u8 = Card::DISTINCT as u8;

/// Two hashers with fixed, unrelated seeds: the same position has the same
/// fingerprint in every run. (The second seeds were once `0x4528_21e6…`:
/// ahash hashes every input to 0 with those, which left fingerprints 64
/// bits wide; a test now checks that both halves vary.)
static FINGERPRINT_SEEDS: std::sync::LazyLock<[ahash::RandomState; 2]> =
    std::sync::LazyLock::new(|| {
        [
            ahash::RandomState::with_seeds(
                0x243f_6a88_85a3_08d3,
                0x1319_8a2e_0370_7344,
                0xa409_3822_299f_31d0,
                0x082e_fa98_ec4e_6c89,
            ),
            ahash::RandomState::with_seeds(
                0x9216_d5d9_8979_fb1b,
                0xd131_0ba6_98df_b5ac,
                0x2ffd_72db_d01a_dfb7,
                0xb8e1_afed_6a26_7e96,
            ),
        ]
    });

/// Runs of a suit in two decks: the game is won when this many are removed.
pub const RUNS_TO_WIN: u8 = 8;

/// What play changes: face-up cards, face-down counts, rows dealt, runs
/// removed.
///
/// The face-up cards of all piles sit in one array, pile 1's first, each
/// pile bottom first. Entries past the last face-up card are always zero, so
/// equal positions are equal byte for byte (and the derived `Eq` and `Hash`
/// are exact).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Position {
    /// Stock rows dealt since the deal file's position.
    pub(super) dealt: u8,
    /// K..A runs removed, including those the deal file says were removed.
    pub(super) removed: u8,
    /// Face-down cards left on each pile.
    pub(super) down: [u8; PILES],
    /// Face-up cards on each pile.
    pub(super) up: [u8; PILES],
    /// Face-up cards: a card index `0..52`, or [`UNKNOWN_FACE`].
    pub(super) cards: [u8; DECK_CARDS],
}

impl Position {
    pub(super) fn start_of(&self, pile: usize) -> usize {
        self.up[..pile].iter().map(|&n| n as usize).sum()
    }

    fn total_up(&self) -> usize {
        self.up.iter().map(|&n| n as usize).sum()
    }

    pub(super) fn face_up_raw(&self, pile: usize) -> &[u8] {
        let start = self.start_of(pile);
        &self.cards[start..start + self.up[pile] as usize]
    }

    /// The face-up cards of `pile` (0-based), bottom first; `None` for an
    /// unknown card that a reveal turned up.
    pub fn face_up(
        &self,
        pile: usize,
    ) -> impl DoubleEndedIterator<Item = Option<Card>> + ExactSizeIterator + Clone + '_ {
        self.face_up_raw(pile).iter().map(|&c| face(c))
    }

    /// Face-down cards left on `pile` (0-based).
    pub fn face_down_count(&self, pile: usize) -> usize {
        self.down[pile] as usize
    }

    /// Whether `pile` (0-based) holds no card at all.
    pub fn is_empty_pile(&self, pile: usize) -> bool {
        self.up[pile] == 0 && self.down[pile] == 0
    }

    /// Stock rows dealt since the deal file's position.
    pub fn rows_dealt(&self) -> usize {
        self.dealt as usize
    }

    /// K..A runs removed so far (including those the deal started with).
    pub fn runs_removed(&self) -> usize {
        self.removed as usize
    }

    /// Whether all eight runs are removed.
    pub fn is_won(&self) -> bool {
        self.removed == RUNS_TO_WIN
    }

    /// Whether an unknown card is face up: the position was reached by a
    /// reveal and nothing is known beyond it.
    pub fn is_reveal(&self) -> bool {
        self.cards[..self.total_up()].contains(&UNKNOWN_FACE)
    }

    /// Face-down cards left on the table.
    pub fn face_down_total(&self) -> usize {
        self.down.iter().map(|&n| n as usize).sum()
    }

    /// Face-up cards on the table.
    pub fn face_up_total(&self) -> usize {
        self.total_up()
    }

    /// A 128-bit fingerprint of the position, for deduplication: two
    /// independent 64-bit hashes of the position's bytes. Positions that
    /// differ collide with odds about 2^-128 per pair: among a billion
    /// stored positions the chance that any two collide is below 10^-20.
    pub fn fingerprint(&self) -> u128 {
        use std::hash::{BuildHasher, Hasher};
        let total = self.total_up();
        let hash = |state: &ahash::RandomState| {
            let mut hasher = state.build_hasher();
            hasher.write(&[self.dealt, self.removed]);
            hasher.write(&self.down);
            hasher.write(&self.up);
            hasher.write(&self.cards[..total]);
            hasher.finish()
        };
        (hash(&FINGERPRINT_SEEDS[0]) as u128) << 64 | hash(&FINGERPRINT_SEEDS[1]) as u128
    }

    /// A 128-bit fingerprint that ignores the order of the piles without
    /// face-down cards: two positions that differ only by which of those
    /// piles holds which cards get the same one. Piles with face-down cards
    /// keep their place (their hidden cards differ).
    pub(super) fn fingerprint_unordered(&self) -> u128 {
        use std::hash::{BuildHasher, Hasher};
        let mut piles = [0u128; PILES];
        let mut start = 0;
        for (pile, key) in piles.iter_mut().enumerate() {
            let count = self.up[pile] as usize;
            let cards = &self.cards[start..start + count];
            start += count;
            let hash = |state: &ahash::RandomState| {
                let mut hasher = state.build_hasher();
                if self.down[pile] > 0 {
                    hasher.write(&[pile as u8 + 1, self.down[pile]]);
                } else {
                    hasher.write(&[0, 0]);
                }
                hasher.write(cards);
                hasher.finish()
            };
            *key =
                (hash(&FINGERPRINT_SEEDS[0]) as u128) << 64 | hash(&FINGERPRINT_SEEDS[1]) as u128;
        }
        piles.sort_unstable();
        let hash = |state: &ahash::RandomState| {
            let mut hasher = state.build_hasher();
            hasher.write(&[self.dealt, self.removed, 0xff]);
            for key in &piles {
                hasher.write_u128(*key);
            }
            hasher.finish()
        };
        (hash(&FINGERPRINT_SEEDS[0]) as u128) << 64 | hash(&FINGERPRINT_SEEDS[1]) as u128
    }

    /// Raw parts for the packed form: rows dealt, runs removed, face-down
    /// counts, face-up counts and face-up bytes.
    pub(super) fn parts(&self) -> (u8, u8, &[u8; PILES], &[u8; PILES], &[u8]) {
        (
            self.dealt,
            self.removed,
            &self.down,
            &self.up,
            &self.cards[..self.total_up()],
        )
    }

    /// Rebuilds a position from the parts [`Position::parts`] gives.
    pub(super) fn from_parts(
        dealt: u8,
        removed: u8,
        down: [u8; PILES],
        up: [u8; PILES],
        face_up: &[u8],
    ) -> Option<Position> {
        let total: usize = up.iter().map(|&n| n as usize).sum();
        if total != face_up.len() || total > DECK_CARDS || face_up.iter().any(|&c| c > UNKNOWN_FACE)
        {
            return None;
        }
        let mut cards = [0; DECK_CARDS];
        cards[..total].copy_from_slice(face_up);
        Some(Position {
            dealt,
            removed,
            down,
            up,
            cards,
        })
    }

    /// Appends the position as bytes: rows dealt, runs removed, the
    /// face-down and face-up counts of each pile, then the face-up cards (22
    /// bytes and one per face-up card). For searches that keep many
    /// positions waiting: a `Position` itself takes 126 bytes.
    pub fn pack_into(&self, out: &mut Vec<u8>) {
        out.push(self.dealt);
        out.push(self.removed);
        out.extend_from_slice(&self.down);
        out.extend_from_slice(&self.up);
        out.extend_from_slice(&self.cards[..self.total_up()]);
    }

    /// The position [`Position::pack_into`] wrote at the start of `bytes`,
    /// and how many bytes it took; `None` if they are not one.
    pub fn unpack_from(bytes: &[u8]) -> Option<(Position, usize)> {
        let head = bytes.get(..2 + 2 * PILES)?;
        let down: [u8; PILES] = head[2..2 + PILES].try_into().ok()?;
        let up: [u8; PILES] = head[2 + PILES..].try_into().ok()?;
        let total: usize = up.iter().map(|&n| n as usize).sum();
        let cards = bytes.get(head.len()..head.len() + total)?;
        let position = Position::from_parts(head[0], head[1], down, up, cards)?;
        Some((position, head.len() + total))
    }

    /// The top card of `pile`, if it has a known one.
    fn top(&self, pile: usize) -> Option<u8> {
        let n = self.up[pile] as usize;
        (n > 0).then(|| self.cards[self.start_of(pile) + n - 1])
    }

    /// Unknown cards face up (those a reveal turned up), on all piles.
    pub fn unknown_face_up(&self) -> usize {
        self.cards[..self.total_up()]
            .iter()
            .filter(|&&c| c == UNKNOWN_FACE)
            .count()
    }

    /// Face-up cards on `pile` (0-based).
    pub fn face_up_count(&self, pile: usize) -> usize {
        self.up[pile] as usize
    }

    /// The face-up card `depth` cards below the top of `pile` (0 is the top
    /// card); `None` past the face-up cards or for an unknown card.
    pub fn card_from_top(&self, pile: usize, depth: usize) -> Option<Card> {
        let n = self.up[pile] as usize;
        if depth >= n {
            return None;
        }
        face(self.cards[self.start_of(pile) + n - 1 - depth])
    }

    /// Where each pile's face-up cards start among the position's face-up
    /// cards (pile `p`'s are at `starts[p]..starts[p + 1]`), for reading
    /// many piles' cards at once.
    pub fn starts(&self) -> [u8; PILES + 1] {
        let mut starts = [0u8; PILES + 1];
        for pile in 0..PILES {
            starts[pile + 1] = starts[pile] + self.up[pile];
        }
        starts
    }

    /// [`Position::card_from_top`], with the piles' starts
    /// ([`Position::starts`]) already computed.
    #[inline]
    pub fn card_from_top_at(
        &self,
        starts: &[u8; PILES + 1],
        pile: usize,
        depth: usize,
    ) -> Option<Card> {
        if depth >= self.up[pile] as usize {
            return None;
        }
        face(self.cards[starts[pile + 1] as usize - 1 - depth])
    }

    /// Pairs of known face-up cards one on the other on `pile` (0-based):
    /// how many continue a same-suit run, and how many are not even one
    /// rank below the card they lie on. For the solver's score.
    pub fn pile_links(&self, pile: usize) -> (u32, u32) {
        let (mut runs, mut out_of_order) = (0, 0);
        for pair in self.face_up_raw(pile).windows(2) {
            let (below, above) = (pair[0], pair[1]);
            if below == UNKNOWN_FACE || above == UNKNOWN_FACE {
                continue;
            }
            if above + 1 == below && above % 13 != 12 {
                runs += 1;
            } else if out_of_order_pair(below, above) {
                out_of_order += 1;
            }
        }
        (runs, out_of_order)
    }

    /// Pairs of known face-up cards, on every pile, where the upper card is
    /// not one rank below the card it lies on (see `out_of_order`).
    pub fn out_of_order_total(&self) -> u32 {
        (0..PILES)
            .map(|pile| out_of_order(self.face_up_raw(pile)))
            .sum()
    }

    /// [`Position::run_length`] of every pile, in one pass.
    pub fn run_lengths(&self) -> [u8; PILES] {
        let mut runs = [0u8; PILES];
        let mut start = 0;
        for (pile, run) in runs.iter_mut().enumerate() {
            let end = start + self.up[pile] as usize;
            let cards = &self.cards[start..end];
            if let Some(&top) = cards.last()
                && top != UNKNOWN_FACE
            {
                *run = 1;
                for pair in cards.windows(2).rev() {
                    let (below, above) = (pair[0], pair[1]);
                    if below == UNKNOWN_FACE || above + 1 != below || above % 13 == 12 {
                        break;
                    }
                    *run += 1;
                }
            }
            start = end;
        }
        runs
    }

    /// How many cards on top of `pile` form a same-suit run descending by
    /// one (0 for an empty pile).
    pub fn run_length(&self, pile: usize) -> usize {
        let cards = self.face_up_raw(pile);
        let Some(&top) = cards.last() else { return 0 };
        if top == UNKNOWN_FACE {
            return 0;
        }
        let mut length = 1;
        for pair in cards.windows(2).rev() {
            let (below, above) = (pair[0], pair[1]);
            if below == UNKNOWN_FACE
                || !Card::from_index(above).continues_run(Card::from_index(below))
            {
                break;
            }
            length += 1;
        }
        length
    }

    /// Removes the top `count` cards of `pile` and returns them, bottom first.
    fn take(&mut self, pile: usize, count: usize) -> ([u8; 13], usize) {
        debug_assert!(count <= 13 && count <= self.up[pile] as usize);
        let total = self.total_up();
        let end = self.start_of(pile) + self.up[pile] as usize;
        let mut run = [0; 13];
        run[..count].copy_from_slice(&self.cards[end - count..end]);
        self.cards.copy_within(end..total, end - count);
        self.cards[total - count..total].fill(0);
        self.up[pile] -= count as u8;
        (run, count)
    }

    /// Puts `cards` (bottom first) on top of `pile`.
    fn put(&mut self, pile: usize, cards: &[u8]) {
        let total = self.total_up();
        let end = self.start_of(pile) + self.up[pile] as usize;
        self.cards.copy_within(end..total, end + cards.len());
        self.cards[end..end + cards.len()].copy_from_slice(cards);
        self.up[pile] += cards.len() as u8;
    }

    /// Whether the top 13 cards of `pile` are K..A of one suit.
    fn has_complete_run(&self, pile: usize) -> bool {
        let cards = self.face_up_raw(pile);
        if cards.len() < 13 {
            return false;
        }
        complete_run(&cards[cards.len() - 13..])
    }
}

/// Pairs of known cards in `faces` (one pile's face-up cards, bottom
/// first) where the upper card is not one rank below the one under it,
/// whatever the suits: 5♠ on 9♥, or 5♠ on 5♥. No move adds such a pair: a
/// run goes only onto a card one rank above its first card or onto an
/// empty pile, and a card turned up lies on nothing face up. Only a deal
/// adds them (see [`super::layer_of`]).
#[inline]
pub fn out_of_order(faces: &[u8]) -> u32 {
    faces
        .windows(2)
        .filter(|pair| {
            let (below, above) = (pair[0], pair[1]);
            below != UNKNOWN_FACE && above != UNKNOWN_FACE && out_of_order_pair(below, above)
        })
        .count() as u32
}

/// Whether known face `above`, lying on known face `below`, is not one
/// rank below it (whatever the suits).
#[inline]
fn out_of_order_pair(below: u8, above: u8) -> bool {
    above % 13 + 1 != below % 13
}

/// Whether `run`, 13 face-up cards bottom first, is K..A of one suit.
#[inline]
pub(super) fn complete_run(run: &[u8]) -> bool {
    run[0] != UNKNOWN_FACE
        && Card::from_index(run[0]).rank() == KING
        && run.windows(2).all(|pair| pair[1] + 1 == pair[0])
}

pub(super) fn face(byte: u8) -> Option<Card> {
    (byte != UNKNOWN_FACE).then(|| Card::from_index(byte))
}

pub(super) fn slot_face(slot: CardSlot) -> u8 {
    match slot {
        CardSlot::Known(card) => card.index(),
        CardSlot::Unknown => UNKNOWN_FACE,
    }
}

/// The `XX` slots a step turned up.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Reveals {
    /// Bit `p`: pile `p` turned up an unknown face-down card.
    pub(super) turned_up: u16,
    /// Bit `p`: the deal gave pile `p` an unknown stock card.
    pub(super) dealt: u16,
}

impl Reveals {
    /// Appends the four bytes [`Step::pack_into`] ends with.
    pub(super) fn write_to(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.turned_up.to_le_bytes());
        out.extend_from_slice(&self.dealt.to_le_bytes());
    }

    /// The places turned up, as one number: bit `p` for pile `p`'s
    /// face-down card, bit `16 + p` for a stock card dealt on pile `p`.
    pub fn places(&self) -> u32 {
        self.turned_up as u32 | (self.dealt as u32) << 16
    }

    /// Whether nothing unknown turned up.
    pub fn is_empty(&self) -> bool {
        self.turned_up == 0 && self.dealt == 0
    }
}

/// The result of playing a move: the new position and the `XX` slots it
/// turned up (if any, the position is a reveal).
#[derive(Clone, PartialEq, Eq)]
pub struct Step {
    pub position: Position,
    pub reveals: Reveals,
}

impl Step {
    /// Appends the step as bytes: the position ([`Position::pack_into`])
    /// and the four bytes of its reveals.
    pub fn pack_into(&self, out: &mut Vec<u8>) {
        self.position.pack_into(out);
        self.reveals.write_to(out);
    }

    /// The step [`Step::pack_into`] wrote at the start of `bytes`, and how
    /// many bytes it took.
    pub fn unpack_from(bytes: &[u8]) -> Option<(Step, usize)> {
        let (position, used) = Position::unpack_from(bytes)?;
        let tail = bytes.get(used..used + 4)?;
        let reveals = Reveals {
            turned_up: u16::from_le_bytes([tail[0], tail[1]]),
            dealt: u16::from_le_bytes([tail[2], tail[3]]),
        };
        Some((Step { position, reveals }, used + 4))
    }
}

/// Why a move is not legal in a position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    #[error("there is no pile {0} (piles are 1 to 10)")]
    NoSuchPile(usize),
    #[error("a pile cannot move onto itself")]
    SamePile,
    #[error("pile {0} is empty")]
    EmptySource(usize),
    #[error("a move takes at least one card")]
    NoCards,
    #[error(
        "the top {count} cards of pile {pile} are not a same-suit run descending by one (its run is {run} long)"
    )]
    NotARun {
        pile: usize,
        count: usize,
        run: usize,
    },
    #[error("{card} cannot go on {target}: it needs a card one rank higher or an empty pile")]
    DoesNotFit { card: String, target: String },
    #[error("pile {pile} has no card one rank above {target} in its run to move onto {target}")]
    NoMatchingRun { pile: usize, target: String },
    #[error("the stock is empty")]
    StockEmpty,
    #[error("no deal while a pile is empty under standard rules (pile {0} is empty)")]
    DealOntoEmpty(usize),
    #[error("the game is over: all eight runs are removed")]
    GameOver,
    #[error("an unknown card is face up (a reveal): nothing is known beyond it")]
    BeyondReveal,
}

impl fmt::Display for Position {
    /// The table for people: one line per pile, `XX` for a face-down card
    /// (as in the deal files and the live game's board),
    /// `??` for an unknown face-up card.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "rows dealt: {}   runs removed: {}",
            self.dealt, self.removed
        )?;
        for pile in 0..PILES {
            write!(f, "{:>2}:", pile + 1)?;
            for _ in 0..self.down[pile] {
                f.write_str(" XX")?;
            }
            for card in self.face_up(pile) {
                match card {
                    Some(card) => write!(f, " {}", card.pretty())?,
                    None => f.write_str(" ??")?,
                }
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}
