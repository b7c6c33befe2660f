//! A step's bytes in fewer bytes, for the files of the search on disk.
//!
//! [`Step::pack_into`](super::Step::pack_into) writes 26 bytes and one a
//! face-up card: rows dealt and runs removed, ten face-down counts, ten
//! face-up counts, the cards, the reveals. The search on disk writes
//! every position it finds to a file (`explore::layered::disk`) and packs
//! those files with Zstandard, which finds the piles one position shares
//! with others; what it packs worse is what lies between them. The compact
//! form ([`compact_step`], read back by [`uncompact_step`]) keeps each
//! pile together and drops what is seldom there:
//!
//! | field | bytes |
//! |---|---|
//! | rows dealt (bits 0–2), runs removed (bits 3–6), reveals follow (bit 7) | 1 |
//! | per pile: its face-down count × 32 + its face-up count, then its face-up cards, bottom first | 1 + 1 a card |
//! | the reveals, if bit 7 says so | 4 |
//!
//! A count that does not fit (seven face-down cards or more on a pile, 31
//! face-up or more, seven rows dealt or more) is written as an escape byte
//! and the counts in full. On the unwon game's stage 1 the records of the
//! search on disk take 40 bytes rather than 58, and 13.2 rather than 17.1
//! once packed (Zstandard level 1, blocks of 256 KiB). Packed harder, the
//! cards pack worse: a card one rank below the card it lies on written as
//! its suit alone took 3 % fewer bytes but cost 50–100 ns a record each
//! way, and the bit stream of [`super::PackedPosition`] (a card in 6 bits,
//! one bit for a card that continues a run) takes 35 bytes but 23.5 once
//! packed: Zstandard finds no piles in it (`docs/engine.md`).

use crate::deal::PILES;

/// Bytes before the face-up cards in [`Step::pack_into`](super::Step::pack_into)'s
/// form: rows dealt, runs removed, the face-down and the face-up counts.
const HEAD: usize = 2 + 2 * PILES;
/// Bytes of the reveals, after the cards.
const REVEALS: usize = 4;
/// The header's rows-dealt field when the two counts follow in full.
const WIDE_HEAD: u8 = 7;
/// A pile's byte when its two counts follow in full.
const WIDE_PILE: u8 = 0xff;
/// The most face-up cards a position holds (both decks).
const MOST: usize = 104;
/// Bytes copied at once: a pile's cards are copied in pieces of this many,
/// into room kept past the end and cut off after, so that a copy is one or
/// two instructions, not a call with branches on its length.
const PIECE: usize = 32;

/// Copies `len` bytes of `from` at `start` to the start of `dst` in pieces
/// of [`PIECE`] bytes: both must hold `len` rounded up to a piece (the
/// bytes past `len` are copied too, and overwritten or cut off after).
#[inline]
fn copy_pieces(from: &[u8], start: usize, len: usize, dst: &mut [u8]) {
    let mut k = 0;
    while k < len {
        dst[k..k + PIECE].copy_from_slice(&from[start + k..start + k + PIECE]);
        k += PIECE;
    }
}

/// Copies `len` bytes of `from` at `start` to the start of `dst` (which
/// holds `len` rounded up to a piece), in pieces if `from` goes on far
/// enough.
#[inline]
fn copy_cards(from: &[u8], start: usize, len: usize, dst: &mut [u8]) {
    if start + len.next_multiple_of(PIECE) <= from.len() {
        copy_pieces(from, start, len, dst);
    } else {
        dst[..len].copy_from_slice(&from[start..start + len]);
    }
}

/// Appends the compact form of the step at the start of `bytes` (as
/// [`Step::pack_into`](super::Step::pack_into) wrote it, perhaps followed
/// by more); returns how many bytes of `bytes` the step took.
///
/// # Panics
/// If `bytes` are shorter than the step's counts say.
pub fn compact_step(bytes: &[u8], out: &mut Vec<u8>) -> usize {
    let (dealt, removed) = (bytes[0], bytes[1]);
    let down = &bytes[2..2 + PILES];
    let up = &bytes[2 + PILES..HEAD];
    let total: usize = up.iter().map(|&n| n as usize).sum();
    let reveals = &bytes[HEAD + total..HEAD + total + REVEALS];
    let flag = if reveals.iter().any(|&b| b != 0) {
        0x80
    } else {
        0
    };
    // Written in place: the most it can take, then cut to what it took.
    let base = out.len();
    out.resize(base + 3 + 3 * PILES + total + REVEALS + PIECE, 0);
    let dst = &mut out[base..];
    let mut at = if dealt < WIDE_HEAD && removed < 16 {
        dst[0] = flag | removed << 3 | dealt;
        1
    } else {
        dst[..3].copy_from_slice(&[flag | WIDE_HEAD, dealt, removed]);
        3
    };
    // The cards, copied once where pieces may be read past them.
    let mut padded = [0u8; MOST + PIECE];
    let (cards, mut from) = if total <= MOST {
        padded[..total].copy_from_slice(&bytes[HEAD..HEAD + total]);
        (&padded[..], 0)
    } else {
        (bytes, HEAD)
    };
    for pile in 0..PILES {
        let (d, u) = (down[pile], up[pile]);
        if d < 7 && u < 31 {
            dst[at] = d << 5 | u;
            at += 1;
        } else {
            dst[at..at + 3].copy_from_slice(&[WIDE_PILE, d, u]);
            at += 3;
        }
        copy_cards(cards, from, u as usize, &mut dst[at..]);
        from += u as usize;
        at += u as usize;
    }
    if flag != 0 {
        dst[at..at + REVEALS].copy_from_slice(reveals);
        at += REVEALS;
    }
    out.truncate(base + at);
    HEAD + total + REVEALS
}

/// Appends the step whose compact form ([`compact_step`]) starts `bytes`
/// as [`Step::pack_into`](super::Step::pack_into) writes it; returns how
/// many bytes of `bytes` the compact form took, `None` if they do not
/// start with one.
pub fn uncompact_step(bytes: &[u8], out: &mut Vec<u8>) -> Option<usize> {
    let head = *bytes.first()?;
    let flag = head & 0x80 != 0;
    let (dealt, removed, mut at) = if head & 7 == WIDE_HEAD {
        if head & 0x78 != 0 {
            return None;
        }
        let counts = bytes.get(1..3)?;
        (counts[0], counts[1], 3)
    } else {
        (head & 7, head >> 3 & 15, 1)
    };
    // First the counts, to know the size; then the cards.
    let mut down = [0; PILES];
    let mut up = [0; PILES];
    let mut cards_at = [0; PILES];
    for pile in 0..PILES {
        let b = *bytes.get(at)?;
        at += 1;
        (down[pile], up[pile]) = if b == WIDE_PILE {
            let counts = bytes.get(at..at + 2)?;
            at += 2;
            (counts[0], counts[1])
        } else {
            (b >> 5, b & 31)
        };
        cards_at[pile] = at;
        at += up[pile] as usize;
    }
    let reveals = if flag {
        let reveals = bytes.get(at..at + REVEALS)?;
        at += REVEALS;
        reveals
    } else {
        &[0; REVEALS]
    };
    if at > bytes.len() {
        return None;
    }
    let total: usize = up.iter().map(|&n| n as usize).sum();
    let base = out.len();
    out.resize(base + HEAD + total + REVEALS + PIECE, 0);
    let dst = &mut out[base..];
    dst[0] = dealt;
    dst[1] = removed;
    dst[2..2 + PILES].copy_from_slice(&down);
    dst[2 + PILES..HEAD].copy_from_slice(&up);
    let mut to = HEAD;
    for pile in 0..PILES {
        let u = up[pile] as usize;
        copy_cards(bytes, cards_at[pile], u, &mut dst[to..]);
        to += u;
    }
    dst[to..to + REVEALS].copy_from_slice(reveals);
    out.truncate(base + HEAD + total + REVEALS);
    Some(at)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bytes of a step as `Step::pack_into` lays them out, from its
    /// parts (not necessarily a position of any game: the compact form
    /// reads only the layout).
    fn step_bytes(dealt: u8, removed: u8, piles: &[(u8, &[u8])], reveals: [u8; 4]) -> Vec<u8> {
        let mut bytes = vec![dealt, removed];
        bytes.extend(piles.iter().map(|p| p.0));
        bytes.extend(piles.iter().map(|p| p.1.len() as u8));
        for (_, cards) in piles {
            bytes.extend_from_slice(cards);
        }
        bytes.extend_from_slice(&reveals);
        bytes
    }

    fn round_trip(bytes: &[u8]) -> Vec<u8> {
        let mut compact = Vec::new();
        assert_eq!(compact_step(bytes, &mut compact), bytes.len());
        let mut back = vec![9];
        assert_eq!(uncompact_step(&compact, &mut back), Some(compact.len()));
        assert_eq!(&back[1..], bytes, "appended after what was there");
        // Every shorter piece is refused, not misread.
        for end in 0..compact.len() {
            assert_eq!(
                uncompact_step(&compact[..end], &mut Vec::new()),
                None,
                "{end}"
            );
        }
        compact
    }

    #[test]
    fn counts_that_fit_take_a_byte_a_pile_and_the_reveals_only_when_there() {
        let hearts: Vec<u8> = (13..26).rev().collect();
        let piles: Vec<(u8, &[u8])> = (0..PILES as u8)
            .map(|p| (p % 6, &hearts[..p as usize]))
            .collect();
        let plain = step_bytes(2, 3, &piles, [0; 4]);
        let compact = round_trip(&plain);
        assert_eq!(compact.len(), 1 + PILES + 45);
        assert_eq!(compact[0], 3 << 3 | 2);
        let revealed = step_bytes(2, 3, &piles, [4, 0, 0, 1]);
        assert_eq!(round_trip(&revealed).len(), compact.len() + REVEALS);
    }

    #[test]
    fn counts_that_do_not_fit_are_written_in_full() {
        let many: Vec<u8> = (0..40).map(|i| i % 53).collect();
        let mut piles: Vec<(u8, &[u8])> = vec![(0, &[]); PILES];
        piles[0] = (7, &[5]);
        piles[3] = (1, &many[..31]);
        piles[9] = (200, &many);
        for (dealt, removed) in [(7, 0), (0, 16), (255, 255), (6, 15)] {
            round_trip(&step_bytes(dealt, removed, &piles, [0, 0, 0, 0]));
            round_trip(&step_bytes(dealt, removed, &piles, [1, 2, 3, 4]));
        }
    }

    #[test]
    fn steps_written_one_after_another_read_back_in_turn() {
        let a = step_bytes(1, 0, &[(4, &[12u8, 11, 52][..]); PILES], [0; 4]);
        let b = step_bytes(5, 8, &[(0, &[][..]); PILES], [0, 0, 255, 3]);
        let mut stream = Vec::new();
        for bytes in [&a, &b, &a] {
            compact_step(bytes, &mut stream);
        }
        let mut back = Vec::new();
        let mut at = 0;
        while at < stream.len() {
            at += uncompact_step(&stream[at..], &mut back).unwrap();
        }
        assert_eq!(back, [a.clone(), b, a].concat());
    }

    #[test]
    fn bytes_that_are_no_compact_form_are_refused() {
        // A header whose counts follow in full but with bits set besides.
        assert_eq!(
            uncompact_step(&[WIDE_HEAD | 8, 0, 0], &mut Vec::new()),
            None
        );
    }
}
