//! How promising a position looks, for ordering the search. Only the order
//! in which positions are tried depends on it, never which positions the
//! exhaustive pass examines, so a poor score can cost time but never a
//! verdict.

use crate::deal::PILES;
use crate::game::{Move, Position};

/// A score, higher is better: runs removed above all, then face-down cards
/// turned up, empty piles, and cards that sit in same-suit runs (which move
/// together and become removable); a card that is not even one rank below
/// the card it lies on costs a little. The weights were tuned on own 4-suit deals: against
/// the earlier 12/20/6/2/−1 they decided 97 of deals 41..140 instead of 95,
/// and 11 of the 15 hard deals of 1..300 instead of 7, 10 s each.
pub fn score(position: &Position) -> i32 {
    let empty = (0..PILES)
        .filter(|&pile| position.is_empty_pile(pile))
        .count() as i32;
    let (runs, out_of_order) = position.links();
    position.runs_removed() as i32 * 400 - position.face_down_total() as i32 * 12
        + empty * 40
        + runs as i32 * 10
        - out_of_order as i32 * 3
}

/// Whether a move is worth trying in a probe. Probes may skip moves (they
/// prove nothing); the exhaustive pass never asks this. Skipped: moving a
/// whole pile onto an empty pile, splitting a same-suit run onto a card of
/// another suit, and moving a run from a card one rank higher onto another
/// card of another suit (a lateral move that uncovers nothing new and joins
/// no suit). `runs` are the run lengths of the piles
/// ([`Position::run_lengths`]), computed once per position.
pub fn promising(position: &Position, runs: &[u8; PILES], mv: Move) -> bool {
    let Move::Shift { from, to, count } = mv else {
        return true;
    };
    let (from, to, count) = (from as usize, to as usize, count as usize);
    let run = runs[from] as usize;
    let Some(deepest) = position.card_from_top(from, count - 1) else {
        return false;
    };
    let uncovers = count == position.face_up_count(from);
    match position.card_from_top(to, 0) {
        None => count == run && !(uncovers && position.face_down_count(from) == 0),
        Some(target) if target.suit() == deepest.suit() => true,
        Some(_) if count < run => false,
        Some(_) if uncovers => true,
        Some(_) => position
            .card_from_top(from, count)
            .is_none_or(|below| below.rank() != deepest.rank() + 1),
    }
}
