//! Successors without building them: the key and layer of every position
//! one move away, for the layered exact search.
//!
//! The layered search ([`crate::explore::layered`]) stores a position as a
//! 128-bit key and drops most successors as already stored (four in five
//! in a Spider stage). Building each successor ([`Game::apply`]: a copy of
//! the 126-byte position, the cards shifted, a hash of all its bytes) only
//! to learn its key was most of the search's time. Here the key is a *sum
//! of pile hashes*: a move changes two piles, so a successor's key is the
//! parent's sum with two pile hashes replaced, computed from the two piles
//! alone ([`Game::preview_shift`]). The search then builds only the
//! successors that are new.
//!
//! # The key
//!
//! `key = head(rows dealt, runs removed) + Σ pile(tag, face-down count,
//! face-up cards)`, wrapping in 128 bits, where `pile` and `head` are
//! 128-bit hashes (two 64-bit lanes of a wyhash-style folded multiply, with
//! fixed seeds: the same key in every run and every build, so checkpoints
//! can be resumed). The `tag` is the pile's number plus one; for the
//! *unordered* key ([`Game::key`]'s merge of positions that differ only by
//! the order of the piles without face-down cards, once the stock is
//! empty) it is 0 for a pile without face-down cards, and since a sum does
//! not depend on the order of its terms, such piles are interchangeable.
//! Two different positions (or multisets of piles) get the same key only
//! if a sum of pseudo-random 128-bit values cancels: odds of about 2^-128
//! a pair, as for [`Position::fingerprint`].

use crate::deal::{DECK_CARDS, PILES};

use super::layer::key as layer_key;
use super::position::{RUNS_TO_WIN, complete_run, face, out_of_order, slot_face};
use super::{Game, Move, Position};
use crate::cards::Card;

const SEEDS: [u64; 2] = [0x243f_6a88_85a3_08d3, 0x1319_8a2e_0370_7344];
const P0: u64 = 0xa076_1d64_78bd_642f;
const P1: u64 = 0xe703_7ed1_a0b4_28db;
const P2: u64 = 0x8ebc_6af0_9c88_c6e3;
const P3: u64 = 0x5899_65cc_7537_4cc3;

#[inline(always)]
fn mix(a: u64, b: u64) -> u64 {
    let r = (a as u128).wrapping_mul(b as u128);
    (r as u64) ^ ((r >> 64) as u64)
}

/// Room to read a whole 16-byte block past the last card.
const PAD: usize = 16;

/// The little-endian word at `at` in `bytes`, with the bytes from `end`
/// on taken as zero (they are read, so `bytes` must reach `at + 8`).
#[inline(always)]
fn word(bytes: &[u8], at: usize, end: usize) -> u64 {
    let w = u64::from_le_bytes(bytes[at..at + 8].try_into().expect("eight bytes"));
    let keep = end.saturating_sub(at);
    if keep >= 8 {
        w
    } else {
        w & ((1u64 << (8 * keep)) - 1)
    }
}

/// Both lanes over `bytes[start..end]` (`bytes` reaching `end + PAD`).
#[inline(always)]
fn lanes(header: u64, bytes: &[u8], start: usize, end: usize) -> u128 {
    let len = (end - start) as u64;
    let [s0, s1] = SEEDS;
    let mut h0 = mix(header ^ s0 ^ P0, P1 ^ s0);
    let mut h1 = mix(header ^ s1 ^ P0, P1 ^ s1);
    let mut at = start;
    while at < end {
        let a = word(bytes, at, end);
        let b = word(bytes, at + 8, end);
        h0 = mix(a ^ P2 ^ h0, b ^ P3 ^ s0);
        h1 = mix(a ^ P2 ^ h1, b ^ P3 ^ s1);
        at += 16;
    }
    (mix(h0 ^ P1, len ^ P0 ^ s0) as u128) << 64 | mix(h1 ^ P1, len ^ P0 ^ s1) as u128
}

/// The 128-bit hash of one pile: its tag (0 when it is interchangeable,
/// else its number plus one), face-down count and face-up cards.
#[inline]
pub fn pile_hash(tag: u8, down: u8, cards: &[u8]) -> u128 {
    let mut padded = [0u8; DECK_CARDS + 13 + PAD];
    padded[..cards.len()].copy_from_slice(cards);
    pile_hash_padded(tag, down, &padded, 0, cards.len())
}

/// [`pile_hash`] of the cards `bytes[start..end]`, `bytes` reaching
/// `end + 16` (read, then masked).
#[inline(always)]
fn pile_hash_padded(tag: u8, down: u8, bytes: &[u8], start: usize, end: usize) -> u128 {
    let header = tag as u64 | (down as u64) << 8 | ((end - start) as u64) << 16 | 1 << 40;
    lanes(header, bytes, start, end)
}

/// The 128-bit hash of a position's rows dealt and runs removed.
#[inline]
fn head_hash(dealt: u8, removed: u8) -> u128 {
    let header = dealt as u64 | (removed as u64) << 8 | 2 << 40;
    lanes(header, &[], 0, 0)
}

#[inline]
fn tag(pile: usize, down: u8, unordered: bool) -> u8 {
    if unordered && down == 0 {
        0
    } else {
        pile as u8 + 1
    }
}

/// A position's pile hashes, for previewing its successors.
pub struct PileHashes {
    /// The position's face-up cards, then zeros to read whole blocks past
    /// the last one.
    padded: [u8; DECK_CARDS + PAD],
    piles: [u128; PILES],
    sum: u128,
    unordered: bool,
    /// Where each pile's face-up cards start in the position.
    starts: [u8; PILES + 1],
    /// Face-down cards on the table.
    down_total: u32,
    /// Whether previews give split layers ([`super::layer_of`]) or whole
    /// ones ([`super::whole_layer_of`]): see [`PileHashes::split_layers`].
    split: bool,
    /// Each pile's pairs out of order ([`out_of_order`]), when split.
    out_of_order: [u8; PILES],
    /// Their sum.
    out_of_order_total: u32,
}

impl PileHashes {
    /// Previews from these hashes give layers split by the pairs out of
    /// order ([`super::layer_of`]); by default they give whole layers
    /// ([`super::whole_layer_of`]), and do not count the pairs (a search
    /// in memory spent 6 % more time counting them).
    pub fn split_layers(mut self) -> PileHashes {
        for pile in 0..PILES {
            let (start, end) = (self.starts[pile] as usize, self.starts[pile + 1] as usize);
            self.out_of_order[pile] = out_of_order(&self.padded[start..end]) as u8;
        }
        self.out_of_order_total = self.out_of_order.iter().map(|&n| n as u32).sum();
        self.split = true;
        self
    }

    /// The layer of a preview: split by `disorder`, the pairs out of order,
    /// or whole.
    fn layer(
        &self,
        dealt: usize,
        removed: usize,
        down_total: usize,
        disorder: impl Fn() -> u32,
    ) -> u64 {
        let disorder = if self.split { disorder() as usize } else { 0 };
        layer_key(dealt, removed, down_total, disorder)
    }

    /// The layer the position itself has, as previews give it.
    #[cfg(debug_assertions)]
    fn layer_of(&self, position: &Position) -> u64 {
        if self.split {
            super::layer_of(position)
        } else {
            super::whole_layer_of(position)
        }
    }

    /// The key of the position itself ([`Position::sum_key`]).
    pub fn key(&self) -> u128 {
        self.sum
    }
}

/// What a move leads to, without the position: its key and layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Preview {
    /// The successor's [`Position::sum_key`].
    pub key: u128,
    /// Its rows dealt, runs removed and face-down cards, as
    /// [`layer_of`](super::layer_of) puts them together.
    pub layer: u64,
}

/// A 128-bit key in 64 bits, for the searches that may skip a position
/// on a collision but never conclude from one.
fn fold(key: u128) -> u64 {
    (key >> 64) as u64 ^ key as u64
}

impl Preview {
    /// [`Preview::key`] in 64 bits, as [`Position::sum_key64`] gives it.
    pub fn key64(&self) -> u64 {
        fold(self.key)
    }
}

impl Position {
    /// The sum-of-piles key (see the module docs); `unordered` merges the
    /// piles without face-down cards.
    pub fn sum_key(&self, unordered: bool) -> u128 {
        self.pile_hashes(unordered).sum
    }

    /// [`Position::sum_key`] folded to 64 bits (`fold`).
    pub fn sum_key64(&self, unordered: bool) -> u64 {
        fold(self.sum_key(unordered))
    }

    /// The hash of every pile and their sum.
    pub fn pile_hashes(&self, unordered: bool) -> PileHashes {
        let mut piles = [0u128; PILES];
        let mut sum = head_hash(self.dealt, self.removed);
        let mut padded = [0u8; DECK_CARDS + PAD];
        padded[..DECK_CARDS].copy_from_slice(&self.cards);
        let mut start = 0;
        let mut starts = [0u8; PILES + 1];
        for (pile, hash) in piles.iter_mut().enumerate() {
            let end = start + self.up[pile] as usize;
            starts[pile + 1] = end as u8;
            *hash = pile_hash_padded(
                tag(pile, self.down[pile], unordered),
                self.down[pile],
                &padded,
                start,
                end,
            );
            sum = sum.wrapping_add(*hash);
            start = end;
        }
        PileHashes {
            padded,
            piles,
            sum,
            unordered,
            starts,
            down_total: self.down.iter().map(|&d| d as u32).sum(),
            split: false,
            out_of_order: [0; PILES],
            out_of_order_total: 0,
        }
    }
}

/// Copies `len` bytes from `source[from..]` to `target[at..]` in whole
/// 16-byte blocks (fixed-size copies, not a call to `memmove` for each
/// pile), so up to 15 bytes past them are copied too: both sides must have
/// room for that, and what lies past `at + len` is to be ignored.
#[inline(always)]
fn copy_blocks(target: &mut [u8], at: usize, source: &[u8], from: usize, len: usize) {
    let mut done = 0;
    while done < len {
        target[at + done..at + done + PAD].copy_from_slice(&source[from + done..from + done + PAD]);
        done += PAD;
    }
}

/// One pile being changed: its face-up cards in a buffer, its face-down
/// count.
struct Pile {
    cards: [u8; DECK_CARDS + 13 + PAD],
    len: usize,
    down: u8,
}

impl Pile {
    /// As [`Game::apply`] settles pile `pile`: a completed K..A run on top
    /// is removed (counted in `removed`), and a pile left without face-up
    /// cards turns its top face-down card up (counted in `down_total`).
    #[inline(always)]
    fn settle(&mut self, game: &Game, pile: usize, removed: &mut u8, down_total: &mut u32) {
        if self.len >= 13 && complete_run(&self.cards[self.len - 13..self.len]) {
            self.len -= 13;
            *removed += 1;
        }
        if self.len == 0 && self.down > 0 {
            *down_total -= 1;
            self.cards[0] = game.turn_up(pile, &mut self.down).0;
            self.len = 1;
        }
    }
}

/// The two piles a shift changes, as its successor holds them, and what
/// else of the successor they decide: for a search that ranks successors
/// by their piles and builds only those it keeps (the move beams). It
/// borrows the parent's cards rather than copying them.
pub struct ShiftedPiles<'a> {
    /// The pile the cards left, then the pile they went to.
    piles: [PileView<'a>; 2],
    removed: u8,
    down_total: u32,
    unknown: bool,
}

/// A pile of a successor: face-up cards `lower` then `upper` (slices of
/// the parent's cards), or the one card `turned` up, and `down`
/// face-down cards.
struct PileView<'a> {
    lower: &'a [u8],
    upper: &'a [u8],
    turned: Option<u8>,
    down: u8,
}

impl ShiftedPiles<'_> {
    /// Face-down cards on the pile the cards left (`which` 0) or went to
    /// (1).
    pub fn face_down(&self, which: usize) -> usize {
        self.piles[which].down as usize
    }

    /// The face-up cards of that pile, bottom first; `None` for an
    /// unknown card (see [`Position::face_up`]).
    pub fn face_up(&self, which: usize) -> impl Iterator<Item = Option<Card>> + '_ {
        let pile = &self.piles[which];
        (pile.lower.iter().chain(pile.upper))
            .copied()
            .chain(pile.turned)
            .map(face)
    }

    /// The successor's runs removed ([`Position::runs_removed`]).
    pub fn runs_removed(&self) -> usize {
        self.removed as usize
    }

    /// The successor's face-down cards ([`Position::face_down_total`]).
    pub fn face_down_total(&self) -> usize {
        self.down_total as usize
    }

    /// Whether the successor is won ([`Position::is_won`]).
    pub fn is_won(&self) -> bool {
        self.removed == RUNS_TO_WIN
    }

    /// Whether the shift turns up an unknown card ([`Game::apply`] would
    /// report it among its reveals).
    pub fn turns_up_unknown(&self) -> bool {
        self.unknown
    }
}

impl Game {
    /// The key and layer of the position `mv` (a legal shift) leads to from
    /// `position`, whose pile hashes are `hashes`: exactly what
    /// [`Game::apply`] then [`Position::sum_key`] and `layer_of` would
    /// give, but only the two piles the move touches are looked at.
    pub fn preview_shift(
        &self,
        position: &Position,
        hashes: &PileHashes,
        from: usize,
        to: usize,
        count: usize,
    ) -> Preview {
        let start = |pile: usize| hashes.starts[pile] as usize;
        let len = |pile: usize| hashes.starts[pile + 1] as usize - start(pile);
        let (source, target) = (start(from), len(to));
        let keep = len(from) - count;
        let mut removed = position.removed;
        let mut down_total = hashes.down_total;
        // `from` keeps the cards under the run (settled first, as apply
        // does), `to` gets the run on top.
        let mut a = Pile {
            cards: [0; DECK_CARDS + 13 + PAD],
            len: keep,
            down: position.down[from],
        };
        copy_blocks(&mut a.cards, 0, &hashes.padded, source, keep);
        let mut b = Pile {
            cards: [0; DECK_CARDS + 13 + PAD],
            len: target + count,
            down: position.down[to],
        };
        copy_blocks(&mut b.cards, 0, &hashes.padded, start(to), target);
        copy_blocks(&mut b.cards, target, &hashes.padded, source + keep, count);
        for (pile, p) in [(from, &mut a), (to, &mut b)] {
            p.settle(self, pile, &mut removed, &mut down_total);
        }
        let unordered = hashes.unordered;
        let mut key = hashes
            .sum
            .wrapping_sub(hashes.piles[from])
            .wrapping_sub(hashes.piles[to])
            .wrapping_add(pile_hash_padded(
                tag(from, a.down, unordered),
                a.down,
                &a.cards,
                0,
                a.len,
            ))
            .wrapping_add(pile_hash_padded(
                tag(to, b.down, unordered),
                b.down,
                &b.cards,
                0,
                b.len,
            ));
        if removed != position.removed {
            key = key
                .wrapping_sub(head_hash(position.dealt, position.removed))
                .wrapping_add(head_hash(position.dealt, removed));
        }
        Preview {
            key,
            layer: hashes.layer(
                position.dealt as usize,
                removed as usize,
                down_total as usize,
                || {
                    hashes.out_of_order_total
                        - hashes.out_of_order[from] as u32
                        - hashes.out_of_order[to] as u32
                        + out_of_order(&a.cards[..a.len])
                        + out_of_order(&b.cards[..b.len])
                },
            ),
        }
    }

    /// The two piles a legal shift of `count` cards from `from` to `to`
    /// leaves in `position`, settled as [`Game::apply`] settles them
    /// (`Pile::settle`): exactly the successor's piles `from` and `to`
    /// (a test checks it against `apply` for every move of random play).
    pub fn shifted_piles<'a>(
        &self,
        position: &'a Position,
        from: usize,
        to: usize,
        count: usize,
    ) -> ShiftedPiles<'a> {
        let source = position.face_up_raw(from);
        let target = position.face_up_raw(to);
        let keep = source.len() - count;
        let mut shifted = ShiftedPiles {
            piles: [
                PileView {
                    lower: &source[..keep],
                    upper: &[],
                    turned: None,
                    down: position.down[from],
                },
                PileView {
                    lower: target,
                    upper: &source[keep..],
                    turned: None,
                    down: position.down[to],
                },
            ],
            removed: position.removed,
            down_total: position.down.iter().map(|&d| d as u32).sum(),
            unknown: false,
        };
        // `from` shows a K..A run left under the cards moved (a position
        // given may hold one), which goes.
        if keep >= 13 && complete_run(&source[keep - 13..keep]) {
            shifted.removed += 1;
            shifted.piles[0].lower = &source[..keep - 13];
        }
        // `to` may complete a K..A run: its last 13 cards, of which the
        // moved ones are at most 13.
        let len = target.len() + count;
        if len >= 13 {
            let mut top = [0u8; 13];
            let (below, moved) = top.split_at_mut(13 - count.min(13));
            below.copy_from_slice(&target[len - 13..]);
            moved.copy_from_slice(&source[keep..]);
            if complete_run(&top) {
                shifted.removed += 1;
                shifted.piles[1] = PileView {
                    lower: &target[..len - 13],
                    upper: &[],
                    turned: None,
                    down: position.down[to],
                };
            }
        }
        for (pile, view) in [from, to].into_iter().zip(&mut shifted.piles) {
            if view.lower.is_empty() && view.upper.is_empty() && view.down > 0 {
                shifted.down_total -= 1;
                let (face, unknown) = self.turn_up(pile, &mut view.down);
                view.turned = Some(face);
                shifted.unknown |= unknown;
            }
        }
        shifted
    }

    /// [`Game::preview_shift`] for a deal (legal in `position`): every
    /// pile gets its stock card on top, then is settled, as
    /// [`Game::apply`] does. `unordered` chooses the key of the position
    /// dealt to, whatever `hashes` chose for `position` (the last deal
    /// empties the stock, after which a search may merge piles without
    /// face-down cards).
    pub fn preview_deal(
        &self,
        position: &Position,
        hashes: &PileHashes,
        unordered: bool,
    ) -> Preview {
        let row = &self.stock()[position.dealt as usize];
        let dealt = position.dealt + 1;
        let mut removed = position.removed;
        let mut down_total = hashes.down_total;
        let mut piles = 0u128;
        let mut disorder = 0;
        for (pile, &slot) in row.iter().enumerate() {
            let (start, end) = (
                hashes.starts[pile] as usize,
                hashes.starts[pile + 1] as usize,
            );
            let mut p = Pile {
                cards: [0; DECK_CARDS + 13 + PAD],
                len: end - start + 1,
                down: position.down[pile],
            };
            copy_blocks(&mut p.cards, 0, &hashes.padded, start, end - start);
            p.cards[end - start] = slot_face(slot);
            p.settle(self, pile, &mut removed, &mut down_total);
            if hashes.split {
                disorder += out_of_order(&p.cards[..p.len]);
            }
            piles = piles.wrapping_add(pile_hash_padded(
                tag(pile, p.down, unordered),
                p.down,
                &p.cards,
                0,
                p.len,
            ));
        }
        let preview = Preview {
            key: head_hash(dealt, removed).wrapping_add(piles),
            layer: hashes.layer(
                dealt as usize,
                removed as usize,
                down_total as usize,
                || disorder,
            ),
        };
        #[cfg(debug_assertions)]
        {
            let next = self.apply(position, Move::Deal).position;
            debug_assert_eq!(preview.key, next.sum_key(unordered));
            debug_assert_eq!(preview.layer, hashes.layer_of(&next));
        }
        preview
    }

    /// [`Game::preview_shift`] for any legal move (a deal keyed as
    /// `hashes` chose for `position`).
    pub fn preview(&self, position: &Position, hashes: &PileHashes, mv: Move) -> Preview {
        let preview = match mv {
            Move::Shift { from, to, count } => {
                self.preview_shift(position, hashes, from as usize, to as usize, count as usize)
            }
            Move::Deal => self.preview_deal(position, hashes, hashes.unordered),
        };
        #[cfg(debug_assertions)]
        {
            let next = self.apply(position, mv).position;
            debug_assert_eq!(preview.key, next.sum_key(hashes.unordered), "{mv}");
            debug_assert_eq!(preview.layer, hashes.layer_of(&next), "{mv}");
        }
        preview
    }

    /// A move as a 32-bit token ([`Game::move_of_token`] reads it back).
    pub fn token_of(mv: Move) -> u32 {
        match mv {
            Move::Shift { from, to, count } => {
                from as u32 | (to as u32) << 8 | (count as u32) << 16
            }
            Move::Deal => u32::MAX,
        }
    }

    /// The move a [`Game::token_of`] token stands for.
    pub fn move_of_token(token: u32) -> Move {
        if token == u32::MAX {
            Move::Deal
        } else {
            Move::Shift {
                from: token as u8,
                to: (token >> 8) as u8,
                count: (token >> 16) as u8,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deal::{Rules, pysol};

    /// Every successor's preview equals the key and layer of the position
    /// `apply` builds, ordered and unordered, layers split and whole, and
    /// no move lowers the layer, over the first thousands of positions of
    /// a few deals (with run removals and turn-ups).
    #[test]
    fn previews_equal_the_keys_of_the_built_successors() {
        for number in [2, 3, 14934] {
            let deal = pysol::deal(number, Rules::Standard).unwrap();
            let game = Game::new(&deal).unwrap();
            let mut seen = std::collections::HashSet::new();
            let mut queue = vec![game.start().clone()];
            let mut moves = Vec::new();
            let mut checked = 0;
            while let Some(position) = queue.pop() {
                if checked > 20_000 {
                    break;
                }
                for (unordered, split) in
                    [(false, false), (true, false), (false, true), (true, true)]
                {
                    let mut hashes = position.pile_hashes(unordered);
                    if split {
                        hashes = hashes.split_layers();
                    }
                    let layer_of = |p: &Position| {
                        if split {
                            crate::game::layer_of(p)
                        } else {
                            crate::game::whole_layer_of(p)
                        }
                    };
                    moves.clear();
                    game.moves(&position, &mut moves);
                    for &mv in &moves {
                        let next = game.apply(&position, mv).position;
                        let preview = game.preview(&position, &hashes, mv);
                        assert_eq!(preview.key, next.sum_key(unordered), "{mv}");
                        assert_eq!(preview.layer, layer_of(&next), "{mv}");
                        assert!(preview.layer >= layer_of(&position), "{mv}");
                        checked += 1;
                        if !unordered && seen.insert(next.sum_key(false)) {
                            queue.push(next);
                        }
                    }
                }
            }
            assert!(checked > 1000, "{number}: {checked}");
        }
    }

    /// The unordered key merges positions whose piles without face-down
    /// cards are swapped, and only those.
    #[test]
    fn the_unordered_key_ignores_the_order_of_open_piles_only() {
        let position = |down: [u8; PILES], piles: [&[u8]; PILES]| {
            let up: [u8; PILES] = std::array::from_fn(|p| piles[p].len() as u8);
            let cards: Vec<u8> = piles.concat();
            Position::from_parts(5, 0, down, up, &cards).unwrap()
        };
        let a = position(
            [0, 0, 1, 0, 0, 0, 0, 0, 0, 0],
            [&[12, 11], &[3], &[7], &[], &[], &[], &[], &[], &[], &[]],
        );
        let b = position(
            [0, 0, 1, 0, 0, 0, 0, 0, 0, 0],
            [&[3], &[12, 11], &[7], &[], &[], &[], &[], &[], &[], &[]],
        );
        let c = position(
            [0, 0, 1, 0, 0, 0, 0, 0, 0, 0],
            [&[7], &[12, 11], &[3], &[], &[], &[], &[], &[], &[], &[]],
        );
        assert_eq!(a.sum_key(true), b.sum_key(true));
        assert_ne!(a.sum_key(false), b.sum_key(false));
        assert_ne!(a.sum_key(true), c.sum_key(true));
    }
}
