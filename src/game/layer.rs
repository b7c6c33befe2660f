//! The layer of a position: the part of it no move ever lowers.
//!
//! Deals, run removals and turn-ups are never undone, so every position
//! falls into a *layer* (rows dealt, runs removed, cards turned up) and a
//! move stays in its layer or climbs to a higher one. Within those, the
//! cards out of order (a face-up card that is not one rank below the card
//! it lies on) only ever become fewer until the next deal, so they split a
//! layer further. The layered search and the exhaustive proof visit layers
//! in order and forget the finished ones; the stage graph reports its size
//! layer by layer.

use super::Position;

/// The layer of a position for the layered search: rows dealt, then runs
/// removed, then cards turned up, then face-up cards put right. No move
/// lowers it, so positions of different layers never meet. Decode it with
/// [`LayerKey`].
///
/// Why no move lowers it: a deal adds a row; a run removed or a card turned
/// up is never undone. A move that does neither keeps the rows, the runs
/// and the face-down cards, and cannot add a pair out of order
/// (`super::position::out_of_order`): the run moved keeps its own pairs,
/// the pair it leaves behind (if the card under it is face up) goes, and
/// the pair it makes is with a card one rank above its first card, or with
/// nothing on an empty pile. So the pairs out of order stay or become
/// fewer, and their count, subtracted from 255, can only grow.
pub fn layer_of(position: &Position) -> u64 {
    key(
        position.rows_dealt(),
        position.runs_removed(),
        position.face_down_total(),
        position.out_of_order_total() as usize,
    )
}

/// The layer key of its parts (see [`layer_of`]).
#[inline]
pub(super) fn key(
    rows_dealt: usize,
    runs_removed: usize,
    face_down: usize,
    out_of_order: usize,
) -> u64 {
    (rows_dealt as u64) << 24
        | (runs_removed as u64) << 16
        | (255 - face_down as u64) << 8
        | (255 - out_of_order as u64)
}

/// The *whole* layer of a position: [`layer_of`] without its last part,
/// the pairs out of order, which it does not count (decoded, it has none):
/// rows dealt, runs removed and cards turned up. No move lowers it either.
/// The stage graph reports its layers so, and the exhaustive search in
/// memory searches so: there the finer layers only hold more states
/// waiting (docs/engine.md).
pub fn whole_layer_of(position: &Position) -> u64 {
    key(
        position.rows_dealt(),
        position.runs_removed(),
        position.face_down_total(),
        0,
    )
}

/// The whole layer ([`whole_layer_of`]) of the positions of layer `layer`
/// ([`layer_of`]'s key, or a whole one): the key without its pairs out of
/// order.
#[inline]
pub fn whole_layer_key(layer: u64) -> u64 {
    layer | 0xff
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
    /// Pairs of face-up cards out of order: a card not one rank below the
    /// card it lies on.
    pub out_of_order: usize,
}

impl LayerKey {
    /// Reads a key [`layer_of`] made.
    pub fn decode(layer: u64) -> LayerKey {
        LayerKey {
            rows_dealt: (layer >> 24) as usize,
            runs_removed: (layer >> 16 & 0xff) as usize,
            face_down: 255 - (layer >> 8 & 0xff) as usize,
            out_of_order: 255 - (layer & 0xff) as usize,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pairs out of order are counted on each pile, whatever the
    /// suits, and the key reads back to its parts (5 rows dealt); a whole
    /// layer has none.
    #[test]
    fn a_layer_counts_the_pairs_out_of_order() {
        // Faces: index = suit * 13 + rank - 1. Pile 1: K♠ Q♠ (in order);
        // pile 2: 4♠ 8♠ (out of order), then 7♥ (in order on the 8);
        // pile 3: 5♠ 5♥ (out of order); pile 4: an ace under a two (out).
        let up = [2, 3, 2, 2, 0, 0, 0, 0, 0, 0];
        let cards = [12, 11, 3, 7, 13 + 6, 4, 13 + 4, 0, 1];
        let position =
            Position::from_parts(5, 0, [0, 1, 0, 0, 0, 0, 0, 0, 0, 0], up, &cards).unwrap();
        assert_eq!(position.out_of_order_total(), 3);
        let key = LayerKey::decode(layer_of(&position));
        assert_eq!(
            key,
            LayerKey {
                rows_dealt: 5,
                runs_removed: 0,
                face_down: 1,
                out_of_order: 3
            }
        );
        let whole = whole_layer_of(&position);
        assert_eq!(LayerKey::decode(whole).out_of_order, 0);
        assert_eq!(whole, layer_of(&position) | 0xff);
        assert_eq!(whole_layer_key(layer_of(&position)), whole);
        assert_eq!(whole_layer_key(whole), whole);
        assert!(whole > layer_of(&position));
    }
}
