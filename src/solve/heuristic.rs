//! How promising a position looks, for ordering the search. Only the order
//! in which positions are tried depends on it, never which positions the
//! exhaustive pass examines, so a poor score can cost time but never a
//! verdict.

use crate::cards::CardSlot;
use crate::deal::PILES;
use crate::game::{Game, Move, Position};

/// Weights of the score (see [`score`]).
const RUN_REMOVED: i32 = 400;
const FACE_DOWN: i32 = -12;
const EMPTY_PILE: i32 = 40;
const SAME_SUIT_PAIR: i32 = 10;
const OUT_OF_ORDER_PAIR: i32 = -3;

/// A score, higher is better: runs removed above all, then face-down cards
/// turned up, empty piles, and cards that sit in same-suit runs (which move
/// together and become removable); a card that is not even one rank below
/// the card it lies on costs a little. The weights were tuned on own 4-suit deals: against
/// the earlier 12/20/6/2/−1 they decided 97 of deals 41..140 instead of 95,
/// and 11 of the 15 hard deals of 1..300 instead of 7, 10 s each.
pub fn score(position: &Position) -> i32 {
    position.runs_removed() as i32 * RUN_REMOVED
        + (0..PILES)
            .map(|pile| pile_score(position, pile))
            .sum::<i32>()
}

/// The part of [`score`] that one pile holds. The score is the runs removed
/// plus the sum of these, so a move, which changes two piles, changes only
/// two of them.
pub fn pile_score(position: &Position, pile: usize) -> i32 {
    if position.is_empty_pile(pile) {
        return EMPTY_PILE;
    }
    let (runs, out_of_order) = position.pile_links(pile);
    position.face_down_count(pile) as i32 * FACE_DOWN
        + runs as i32 * SAME_SUIT_PAIR
        + out_of_order as i32 * OUT_OF_ORDER_PAIR
}

/// [`score`] of `child`, the position a move from pile `from` to pile `to`
/// made of `parent`, from the parent's score and pile scores: only the two
/// piles and the runs removed changed.
pub fn child_score(
    parent_score: i32,
    parent_piles: &[i32; PILES],
    parent: &Position,
    child: &Position,
    from: usize,
    to: usize,
) -> i32 {
    parent_score - parent_piles[from] - parent_piles[to]
        + pile_score(child, from)
        + pile_score(child, to)
        + (child.runs_removed() as i32 - parent.runs_removed() as i32) * RUN_REMOVED
}

/// [`score`] of the position the next deal makes of `position`, without
/// playing it: each pile gains one pair (its top card and the card dealt
/// on it) and an empty pile stops being empty. `None` when the deal may
/// remove a run or turns up an unknown card; the caller then plays it.
pub fn score_after_deal(game: &Game, position: &Position, score: i32) -> Option<i32> {
    let row = game.next_row(position)?;
    let mut after = score;
    for (pile, slot) in row.iter().enumerate() {
        let CardSlot::Known(card) = *slot else {
            return None;
        };
        match position.card_from_top(pile, 0) {
            None if position.is_empty_pile(pile) => after -= EMPTY_PILE,
            None => {}
            Some(top) => {
                if card.continues_run(top) {
                    after += SAME_SUIT_PAIR;
                    if position.run_length(pile) + 1 >= 13 {
                        return None;
                    }
                } else if card.rank() + 1 != top.rank() {
                    after += OUT_OF_ORDER_PAIR;
                }
            }
        }
    }
    Some(after)
}

/// Whether a move is worth trying in a probe. Probes may skip moves (they
/// prove nothing); the exhaustive pass never asks this. Skipped: moving a
/// whole pile onto an empty pile, splitting a same-suit run onto a card of
/// another suit, and moving a run from a card one rank higher onto another
/// card of another suit (a lateral move that uncovers nothing new and joins
/// no suit). `runs` are the run lengths of the piles
/// ([`Position::run_lengths`]), computed once per position.
pub fn promising(position: &Position, runs: &[u8; PILES], mv: Move) -> bool {
    promising_at(position, &position.starts(), runs, mv)
}

/// [`promising`], with where each pile's face-up cards start in the
/// position ([`Position::starts`]) computed once for all its moves.
#[inline]
pub fn promising_at(
    position: &Position,
    starts: &[u8; PILES + 1],
    runs: &[u8; PILES],
    mv: Move,
) -> bool {
    let Move::Shift { from, to, count } = mv else {
        return true;
    };
    let (from, to, count) = (from as usize, to as usize, count as usize);
    let run = runs[from] as usize;
    let card = |pile: usize, depth: usize| position.card_from_top_at(starts, pile, depth);
    let Some(deepest) = card(from, count - 1) else {
        return false;
    };
    let uncovers = count == position.face_up_count(from);
    match card(to, 0) {
        None => count == run && !(uncovers && position.face_down_count(from) == 0),
        Some(target) if target.suit() == deepest.suit() => true,
        Some(_) if count < run => false,
        Some(_) if uncovers => true,
        Some(_) => card(from, count).is_none_or(|below| below.rank() != deepest.rank() + 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::SuitCount;
    use crate::deal::{Rules, numbered};
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        /// The shortcuts the searches take give exactly the full score: a
        /// move's child from its two piles, a deal's position without
        /// playing the deal.
        #[test]
        fn shortcut_scores_equal_the_full_score(
            number in 0u64..1_000_000,
            suits in prop::sample::select(vec![SuitCount::One, SuitCount::Two, SuitCount::Four]),
            relaxed in any::<bool>(),
            choices in prop::collection::vec(any::<prop::sample::Index>(), 1..400),
        ) {
            let rules = if relaxed { Rules::Relaxed } else { Rules::Standard };
            let game = Game::new(&numbered::deal(number, suits, rules)).unwrap();
            let mut position = game.start().clone();
            let mut moves = Vec::new();
            for choice in choices {
                moves.clear();
                game.moves(&position, &mut moves);
                if moves.is_empty() {
                    break;
                }
                let parent = score(&position);
                let piles: [i32; PILES] = std::array::from_fn(|pile| pile_score(&position, pile));
                for &mv in &moves {
                    let after = game.apply(&position, mv).position;
                    match mv {
                        Move::Shift { from, to, .. } => {
                            let child = child_score(parent, &piles, &position, &after, from as usize, to as usize);
                            prop_assert_eq!(child, score(&after));
                        }
                        Move::Deal => {
                            if let Some(dealt) = score_after_deal(&game, &position, parent) {
                                prop_assert_eq!(dealt, score(&after));
                            }
                        }
                    }
                }
                position = game.apply(&position, moves[choice.index(moves.len())]).position;
            }
        }
    }
}
