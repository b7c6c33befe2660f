//! The rules of Spider (being built).

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
