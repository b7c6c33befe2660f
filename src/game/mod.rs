//! The rules of Spider, in one place.
//!
//! A [`Game`] holds what never changes during play: the face-down cards
//! (they never move, so a position only needs to know how many are left on
//! each pile), the stock rows, the rules and the suit count. A [`Position`]
//! holds what play changes: face-up cards, face-down counts, rows dealt, runs
//! removed. [`Game::moves`] lists the legal moves of a position and
//! [`Game::apply`] plays one, with the automatic turn-up of an uncovered
//! face-down card and the automatic removal of a completed K..A run.
//!
//! A move that turns up an `XX` card (a face-down card or a stock card whose
//! face is not known) is a *reveal*: the resulting position holds an unknown
//! face-up card, [`Step::reveals`] says which slots turned up, and the
//! position has no moves (nothing is known beyond it).

mod board;
mod compact;
mod expand;
mod layer;
mod packed;
mod packed_step;
mod position;
mod replay;

pub use board::Board;
pub use compact::{compact_step, uncompact_step};
pub use expand::{PileHashes, Preview, ShiftedPiles, pile_hash};
pub use layer::{LayerKey, layer_of, whole_layer_key, whole_layer_of};
pub use packed::PackedPosition;
pub use packed_step::PackedStep;
pub use position::{Game, IllegalMove, Position, Reveals, Step};
pub use replay::{MoveListError, ReplayError, Token, WrittenMove, parse_moves, replay};

use std::fmt;

/// One step of play: move cards between piles, or deal a stock row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Move the top `count` cards of pile `from` onto pile `to` (piles 0-based).
    Shift { from: u8, to: u8, count: u8 },
    /// Deal the next stock row, one card on each pile.
    Deal,
}

impl fmt::Display for Move {
    /// The compact token: `F-T/K` (piles counted from 1) or `deal`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Move::Shift { from, to, count } => write!(f, "{}-{}/{}", from + 1, to + 1, count),
            Move::Deal => f.write_str("deal"),
        }
    }
}

/// Writes a line of moves in the compact form, tokens separated by spaces.
pub fn compact_line(moves: &[Move]) -> String {
    moves
        .iter()
        .map(Move::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests;
