//! The packed position: a small, canonical byte string for a position.
//!
//! Face-down cards never move, so a pile's face-down part is just a count;
//! the cards themselves stay in the [`super::Game`]. Most face-up cards in
//! play continue a same-suit run, so such a card costs one bit. The layout,
//! as a bit stream (most significant bit first, zero-padded to whole bytes):
//!
//! | field | bits |
//! |---|---|
//! | stock rows dealt | 3 |
//! | runs removed | 4 |
//! | per pile: face-down count `d`, face-up count `u` | Elias gamma of `d + 1`, of `u + 1` |
//! | per face-up card, pile 1 first, bottom first | `1` if it continues the same-suit run on the card below it, else `0` and the card in 6 bits (`0..52`, 52 = unknown) |
//!
//! Sizes: a fresh deal (five or four face-down cards and one face-up card on
//! each pile) packs into 20 bytes; a typical mid-game position (25 face-down
//! cards, 40 face-up of which 28 continue a run) into 26 bytes. The encoding
//! is a bijection between positions and byte strings of one game, so equal
//! positions give equal packed keys and different positions different ones.

use crate::cards::Card;
use crate::deal::PILES;

use super::Position;

/// A position packed into a few bytes (see the module docs for the layout).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PackedPosition(Box<[u8]>);

impl PackedPosition {
    /// Packs a position.
    pub fn pack(position: &Position) -> PackedPosition {
        let (dealt, removed, down, up, cards) = position.parts();
        let mut bits = BitWriter::default();
        bits.write(dealt as u64, 3);
        bits.write(removed as u64, 4);
        for pile in 0..PILES {
            bits.gamma(down[pile] as u64 + 1);
            bits.gamma(up[pile] as u64 + 1);
        }
        let mut start = 0;
        for &count in up {
            let pile = &cards[start..start + count as usize];
            for (i, &card) in pile.iter().enumerate() {
                if i > 0 && continues(card, pile[i - 1]) {
                    bits.write(1, 1);
                } else {
                    bits.write(0, 1);
                    bits.write(card as u64, 6);
                }
            }
            start += count as usize;
        }
        PackedPosition(bits.finish())
    }

    /// The position this packs; `None` if the bytes are not a packed
    /// position.
    pub fn unpack(&self) -> Option<Position> {
        let mut bits = BitReader {
            bytes: &self.0,
            at: 0,
        };
        let dealt = bits.read(3)? as u8;
        let removed = bits.read(4)? as u8;
        let mut down = [0; PILES];
        let mut up = [0; PILES];
        for pile in 0..PILES {
            down[pile] = u8::try_from(bits.gamma()? - 1).ok()?;
            up[pile] = u8::try_from(bits.gamma()? - 1).ok()?;
        }
        let mut cards = Vec::new();
        for &count in &up {
            for i in 0..count {
                let card = if bits.read(1)? == 1 {
                    if i == 0 {
                        return None;
                    }
                    // The card one rank lower and of the same suit.
                    cards.last().copied()? - 1
                } else {
                    bits.read(6)? as u8
                };
                cards.push(card);
            }
        }
        Position::from_parts(dealt, removed, down, up, &cards)
    }

    /// The packed bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }

    /// Size in bytes.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Never true: a packed position holds at least its header.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

fn continues(card: u8, below: u8) -> bool {
    (card as usize) < Card::DISTINCT
        && (below as usize) < Card::DISTINCT
        && Card::from_index(card).continues_run(Card::from_index(below))
}

#[derive(Default)]
struct BitWriter {
    bytes: Vec<u8>,
    used: u32,
}

impl BitWriter {
    fn write(&mut self, value: u64, width: u32) {
        for shift in (0..width).rev() {
            if self.used.is_multiple_of(8) {
                self.bytes.push(0);
            }
            let bit = ((value >> shift) & 1) as u8;
            let last = self.bytes.len() - 1;
            self.bytes[last] |= bit << (7 - self.used % 8);
            self.used += 1;
        }
    }

    /// Elias gamma code of `value >= 1`.
    fn gamma(&mut self, value: u64) {
        let width = 64 - value.leading_zeros();
        self.write(0, width - 1);
        self.write(value, width);
    }

    fn finish(self) -> Box<[u8]> {
        self.bytes.into_boxed_slice()
    }
}

struct BitReader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl BitReader<'_> {
    fn read(&mut self, width: u32) -> Option<u64> {
        let mut value = 0;
        for _ in 0..width {
            let byte = *self.bytes.get(self.at / 8)?;
            value = value << 1 | ((byte >> (7 - self.at % 8)) & 1) as u64;
            self.at += 1;
        }
        Some(value)
    }

    fn gamma(&mut self) -> Option<u64> {
        let mut zeros = 0;
        while self.read(1)? == 0 {
            zeros += 1;
            if zeros > 16 {
                return None;
            }
        }
        Some(1 << zeros | self.read(zeros)?)
    }
}
