//! A move played on a step's bytes, for the exact search's new positions.
//!
//! The layered search ([`crate::explore::layered`]) keeps the positions
//! waiting to be expanded as the bytes [`Step::pack_into`] writes (rows
//! dealt, runs removed, each pile's face-down and face-up counts, the
//! face-up cards pile by pile, the reveals). Building a new successor the
//! plain way (unpack the parent into a 126-byte [`Position`], clone it,
//! take the run off one pile and put it on the other, each shifting the
//! cards of every pile after it, then pack the result) was a quarter of the
//! search's time on the ladder. [`Game::apply_shift_packed`] writes the
//! same bytes straight from the parent's: the piles the move does not touch
//! are copied as they lie, in at most three pieces;
//! [`Game::apply_deal_packed`] does the same for a deal.
//!
//! They are the rules of [`Game::apply`] (the run moves, or each pile gets
//! its stock card; then each pile changed is settled: a completed K..A run
//! on top is removed, and a pile left without face-up cards turns its top
//! face-down card up), and tests check that both write the same bytes for
//! every legal move of random play (`game::tests`) and of the first
//! positions of numbered deals.

use crate::cards::{Card, CardSlot};
use crate::deal::PILES;

use super::position::{Reveals, complete_run, slot_face};
use super::{Game, Move, Step};

/// Bytes before the face-up cards: rows dealt, runs removed, then the
/// face-down and the face-up count of each pile.
const HEAD: usize = 2 + 2 * PILES;

/// A step's bytes ([`Step::pack_into`]), read where they lie.
#[derive(Clone, Copy)]
pub struct PackedStep<'a> {
    bytes: &'a [u8],
    /// Where each pile's face-up cards start among the face-up cards.
    starts: [u8; PILES + 1],
}

impl<'a> PackedStep<'a> {
    /// The step at the start of `bytes` (which may go on past it).
    ///
    /// # Panics
    /// If `bytes` are shorter than the step's header says: they must be
    /// what [`Step::pack_into`] wrote.
    #[inline]
    pub fn new(bytes: &'a [u8]) -> PackedStep<'a> {
        let mut starts = [0u8; PILES + 1];
        for pile in 0..PILES {
            starts[pile + 1] = starts[pile] + bytes[2 + PILES + pile];
        }
        assert!(
            bytes.len() >= HEAD + starts[PILES] as usize + 4,
            "a packed step is cut short"
        );
        PackedStep { bytes, starts }
    }

    /// K..A runs removed ([`super::Position::runs_removed`]).
    #[inline]
    pub fn runs_removed(&self) -> usize {
        self.bytes[1] as usize
    }

    /// Face-down cards left on `pile`.
    #[inline]
    pub fn face_down_count(&self, pile: usize) -> usize {
        self.bytes[2 + pile] as usize
    }

    /// Face-up cards on `pile`.
    #[inline]
    pub fn face_up_count(&self, pile: usize) -> usize {
        self.bytes[2 + PILES + pile] as usize
    }

    /// The face-up cards of `pile`, bottom first, as card bytes.
    #[inline]
    fn pile(&self, pile: usize) -> &'a [u8] {
        &self.bytes[HEAD + self.starts[pile] as usize..HEAD + self.starts[pile + 1] as usize]
    }

    /// As [`super::Position::card_from_top`]: the face-up card `depth`
    /// cards below the top of `pile`, `None` past them or for an unknown
    /// card.
    #[inline]
    pub fn card_from_top(&self, pile: usize, depth: usize) -> Option<Card> {
        let cards = self.pile(pile);
        let byte = *cards.get(cards.len().checked_sub(depth + 1)?)?;
        ((byte as usize) < Card::DISTINCT).then(|| Card::from_index(byte))
    }
}

impl Game {
    /// Writes to `out` the bytes [`Game::apply`] then [`Step::pack_into`]
    /// would give for `mv` (a legal move) in the step `parent`
    /// ([`Game::apply_shift_packed`], [`Game::apply_deal_packed`]).
    #[inline]
    pub fn apply_packed(&self, parent: &PackedStep, mv: Move, out: &mut Vec<u8>) {
        match mv {
            Move::Shift { from, to, count } => {
                self.apply_shift_packed(parent, from as usize, to as usize, count as usize, out)
            }
            Move::Deal => self.apply_deal_packed(parent, out),
        }
    }

    /// Writes to `out` the bytes [`Game::apply`] then [`Step::pack_into`]
    /// would give for the shift of the top `count` cards of pile `from`
    /// onto pile `to` (a legal move) in the step `parent`, without building
    /// a position.
    pub fn apply_shift_packed(
        &self,
        parent: &PackedStep,
        from: usize,
        to: usize,
        count: usize,
        out: &mut Vec<u8>,
    ) {
        let cards = &parent.bytes[HEAD..HEAD + parent.starts[PILES] as usize];
        let mut down: [u8; PILES] = parent.bytes[2..2 + PILES].try_into().expect("ten");
        let mut up: [u8; PILES] = parent.bytes[2 + PILES..HEAD].try_into().expect("ten");
        let mut removed = parent.bytes[1];
        let mut reveals = Reveals::default();
        let source = parent.pile(from);
        let target = parent.pile(to);
        let keep = source.len() - count;
        let run = &source[keep..];

        // `from` keeps the cards under the run, settled.
        let mut from_len = keep;
        if keep >= 13 && complete_run(&source[keep - 13..keep]) {
            from_len -= 13;
            removed += 1;
        }
        // `to` gets the run on top, settled: its top 13 cards may be a
        // completed run, partly its own cards and partly the run's.
        let to_total = target.len() + count;
        let mut to_len = to_total;
        if to_total >= 13 {
            let mut top = [0u8; 13];
            if count >= 13 {
                top.copy_from_slice(&run[count - 13..]);
            } else {
                top[..13 - count].copy_from_slice(&target[target.len() - (13 - count)..]);
                top[13 - count..].copy_from_slice(run);
            }
            if complete_run(&top) {
                to_len -= 13;
                removed += 1;
            }
        }
        let mut turn = |pile: usize, len: usize, turned: &mut u16| -> Option<u8> {
            (len == 0 && down[pile] > 0).then(|| {
                let (face, unknown) = self.turn_up(pile, &mut down[pile]);
                *turned |= u16::from(unknown) << pile;
                face
            })
        };
        let mut turned_up = 0u16;
        let from_turned = turn(from, from_len, &mut turned_up);
        let to_turned = turn(to, to_len, &mut turned_up);
        reveals.turned_up = turned_up;
        up[from] = (from_len + usize::from(from_turned.is_some())) as u8;
        up[to] = (to_len + usize::from(to_turned.is_some())) as u8;

        out.reserve(HEAD + cards.len() + 13 + 4);
        out.push(parent.bytes[0]);
        out.push(removed);
        out.extend_from_slice(&down);
        out.extend_from_slice(&up);
        // The piles between and around the two are copied as they lie.
        let mut copied = 0;
        for pile in [from.min(to), from.max(to)] {
            out.extend_from_slice(&cards[copied..parent.starts[pile] as usize]);
            if pile == from {
                out.extend_from_slice(&source[..from_len]);
                out.extend(from_turned);
            } else {
                let own = to_len.min(target.len());
                out.extend_from_slice(&target[..own]);
                out.extend_from_slice(&run[..to_len - own]);
                out.extend(to_turned);
            }
            copied = parent.starts[pile + 1] as usize;
        }
        out.extend_from_slice(&cards[copied..]);
        reveals.write_to(out);
    }

    /// Writes to `out` the bytes [`Game::apply`] then [`Step::pack_into`]
    /// would give for dealing the next stock row (a legal move) in the
    /// step `parent`: each pile gets its card, then is settled.
    pub fn apply_deal_packed(&self, parent: &PackedStep, out: &mut Vec<u8>) {
        let row = &self.stock()[parent.bytes[0] as usize];
        let mut down: [u8; PILES] = parent.bytes[2..2 + PILES].try_into().expect("ten");
        let mut up = [0u8; PILES];
        let mut removed = parent.bytes[1];
        let mut reveals = Reveals::default();
        let head = out.len();
        out.extend_from_slice(&[0; HEAD]);
        for (pile, &slot) in row.iter().enumerate() {
            if slot == CardSlot::Unknown {
                reveals.dealt |= 1 << pile;
            }
            let cards = parent.pile(pile);
            let start = out.len();
            out.extend_from_slice(cards);
            out.push(slot_face(slot));
            if cards.len() + 1 >= 13 && complete_run(&out[out.len() - 13..]) {
                out.truncate(out.len() - 13);
                removed += 1;
            }
            if out.len() == start && down[pile] > 0 {
                let (face, unknown) = self.turn_up(pile, &mut down[pile]);
                reveals.turned_up |= u16::from(unknown) << pile;
                out.push(face);
            }
            up[pile] = (out.len() - start) as u8;
        }
        out[head] = parent.bytes[0] + 1;
        out[head + 1] = removed;
        out[head + 2..head + 2 + PILES].copy_from_slice(&down);
        out[head + 2 + PILES..head + HEAD].copy_from_slice(&up);
        reveals.write_to(out);
    }
}

impl Step {
    /// A look at this step's bytes as [`Step::pack_into`] writes them, for
    /// tests.
    #[cfg(test)]
    pub(super) fn packed(&self) -> Vec<u8> {
        let mut bytes = Vec::new();
        self.pack_into(&mut bytes);
        bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deal::{Rules, pysol};

    /// Every legal move of the first positions of a few deals (turn-ups,
    /// deals and completed runs among them) writes the bytes `apply` then
    /// `pack_into` write.
    #[test]
    fn a_move_on_bytes_writes_what_apply_writes() {
        let mut removals = 0;
        let mut turn_ups = 0;
        let mut deals = 0;
        let mut reveals = 0;
        for (number, suits) in [
            (2, crate::cards::SuitCount::Four),
            (3, crate::cards::SuitCount::Four),
            (14934, crate::cards::SuitCount::Four),
            (7, crate::cards::SuitCount::One),
            (11, crate::cards::SuitCount::Two),
            // The bundled unwon game, changed so that its `XX` cards turn
            // up at once (reveals).
            (0, crate::cards::SuitCount::Four),
        ] {
            let deal = if number == 0 {
                // Pile 5 dug down to its `XX` cards (its 10♠ and 7♦ moved
                // onto pile 10), and the first stock card unknown.
                let path = concat!(env!("CARGO_MANIFEST_DIR"), "/deals/unwon-2017.yaml");
                let text = std::fs::read_to_string(path)
                    .unwrap()
                    .replace(
                        "face_down: [XX, XX, 4C, 7D]                    # pile 5\n    face_up: [10S]",
                        "face_down: [XX, XX]\n    face_up: [4C]",
                    )
                    .replace("face_up: [4D]", "face_up: [4D, 10S, 7D]")
                    .replace("- [10H, 10D, 5H,", "- [XX, 10D, 5H,");
                crate::deal::files::parse(&text, path.as_ref()).unwrap()
            } else if suits == crate::cards::SuitCount::Four {
                pysol::deal(number, Rules::Standard).unwrap()
            } else {
                crate::deal::numbered::deal(number as u64, suits, Rules::Standard)
            };
            let game = Game::new(&deal).unwrap();
            let mut seen = std::collections::HashSet::new();
            let mut stack = vec![game.start().clone()];
            let mut moves = Vec::new();
            let mut checked = 0;
            while let Some(position) = stack.pop() {
                if checked > 30_000 {
                    break;
                }
                let parent = Step {
                    position: position.clone(),
                    reveals: Reveals::default(),
                }
                .packed();
                moves.clear();
                game.moves(&position, &mut moves);
                for &mv in &moves {
                    let step = game.apply(&position, mv);
                    // Written after a byte already there, as in an arena.
                    let mut out = vec![7];
                    game.apply_packed(&PackedStep::new(&parent), mv, &mut out);
                    assert_eq!(out[1..], step.packed()[..], "{number}: {mv}");
                    deals += usize::from(mv == Move::Deal);
                    reveals += usize::from(!step.reveals.is_empty());
                    removals += usize::from(step.position.runs_removed() > position.runs_removed());
                    turn_ups +=
                        usize::from(step.position.face_down_total() < position.face_down_total());
                    checked += 1;
                    if seen.insert(step.position.fingerprint()) {
                        stack.push(step.position);
                    }
                }
            }
            assert!(checked > 1000, "{number}: {checked}");
        }
        assert!(
            removals > 0 && turn_ups > 100 && deals > 10 && reveals > 0,
            "{removals} {turn_ups} {deals} {reveals}"
        );
    }
}
