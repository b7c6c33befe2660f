//! The layer of a position: the part of it no move ever lowers.
//!
//! Deals, run removals and turn-ups are never undone, so every position
//! falls into a *layer* (rows dealt, runs removed, cards turned up) and a
//! move stays in its layer or climbs to a higher one. The layered search
//! and the exhaustive proof visit layers in order and forget the finished
//! ones; the stage graph reports its size layer by layer.

use super::Position;

/// The layer of a position for the layered search: rows dealt, then runs
/// removed, then cards turned up. No move lowers it (a deal adds a row, a
/// move may remove a run or turn a card up, and nothing is ever undone),
/// so positions of different layers never meet. Decode it with
/// [`LayerKey`].
pub fn layer_of(position: &Position) -> u64 {
    (position.rows_dealt() as u64) << 16
        | (position.runs_removed() as u64) << 8
        | (255 - position.face_down_total() as u64)
}

/// A Spider layer key ([`layer_of`]) read back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct LayerKey {
    /// Stock rows dealt.
    pub rows_dealt: usize,
    /// K..A runs removed.
    pub runs_removed: usize,
    /// Face-down cards left on the table.
    pub face_down: usize,
}

impl LayerKey {
    /// Reads a key [`layer_of`] made.
    pub fn decode(layer: u64) -> LayerKey {
        LayerKey {
            rows_dealt: (layer >> 16) as usize,
            runs_removed: (layer >> 8 & 0xff) as usize,
            face_down: 255 - (layer & 0xff) as usize,
        }
    }
}
