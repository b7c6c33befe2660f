//! How promising a position looks, for ordering the search. Only the order
//! in which positions are tried depends on it, never which positions the
//! exhaustive pass examines, so a poor score can cost time but never a
//! verdict.

use crate::cards::CardSlot;
use crate::deal::{PILES, Rules};
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
/// another suit, moving a run from a card one rank higher onto another
/// card of another suit (a lateral move that uncovers nothing new and joins
/// no suit), and splitting a run onto an empty pile, except its top card
/// onto the pile [`split_targets`] gives where empty piles bar a deal.
/// `runs` are the run lengths of the piles ([`Position::run_lengths`]),
/// computed once per position.
pub fn promising(game: &Game, position: &Position, runs: &[u8; PILES], mv: Move) -> bool {
    let starts = position.starts();
    promising_at(position, &starts, runs, split_targets(game, position), mv)
}

/// [`promising`], with where each pile's face-up cards start in the
/// position ([`Position::starts`]) and the empty piles a run may be split
/// onto ([`split_targets`], one bit a pile) computed once for all its
/// moves.
#[inline]
pub fn promising_at(
    position: &Position,
    starts: &[u8; PILES + 1],
    runs: &[u8; PILES],
    split_targets: u16,
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
        None if count < run => count == 1 && split_targets & 1 << to != 0,
        None => !(uncovers && position.face_down_count(from) == 0),
        Some(target) if target.suit() == deepest.suit() => true,
        Some(_) if count < run => false,
        Some(_) if uncovers => true,
        Some(_) => card(from, count).is_none_or(|below| below.rank() != deepest.rank() + 1),
    }
}

/// Cards on the table below which [`split_targets`] may split runs: see
/// there.
const FEW_CARDS: usize = 2 * PILES;

/// The empty piles (bit `p` for pile `p`) onto which [`promising`] lets
/// the top card of a longer run be split off: none, unless a deal is
/// barred by more empty piles than whole runs can fill; then the first
/// empty pile.
///
/// Under standard rules no row may be dealt while a pile is empty. The
/// favoured moves fill an empty pile only with a whole run that leaves
/// something behind: the top run of a pile with face-down cards, or a run
/// lying on another run. On a table with few cards and many empty piles
/// (late in a one-suit game: K Q, 5 4 3 2, 4 and J..4 with six piles
/// empty and five rows to deal) there are fewer such runs than empty
/// piles, no favoured line ever deals, and the probes and beams found no
/// win even where one is plain. There splitting runs is the only way on.
///
/// The count of runs that can fill a pile is a lower bound: on each pile
/// the runs of its face-up cards, one fewer on a pile without face-down
/// cards (its last run would empty it); cards turned up later are not
/// counted. With ten or more cards on the table, splits can always fill
/// every pile; with fewer, nothing can, and no split is favoured. Nor with
/// [`FEW_CARDS`] or more: there the favoured moves rearrange the piles
/// and remove runs until whole runs fill them, and splitting cost more
/// than it won (own 1-suit deals 1..200, 1 M positions each: all 200 won
/// either way, median 39,954 positions with no bound on the cards and
/// 35,211 with this one, against 31,960 without the rule).
///
/// One card at a time, onto the first empty pile only: while rows remain
/// the piles are not interchangeable (row entry `i` goes on pile `i`), but
/// every split of every run onto each of six empty piles would multiply
/// the positions of the stage at each step. Cards split off one at a time
/// can be joined again by favoured moves (a card onto the next rank of
/// its suit always is), so the piles can still take any shape. The
/// probes and beams also rank the positions met from such a position
/// lower for their empty piles ([`barred_empty_piles_cost`]).
///
/// In ordinary positions this costs a look at the ten piles' counts: no
/// empty pile, no stock left or relaxed rules answer at once, and a pile
/// with face-down cards already counts for one. It only steers the probes
/// and beams; the exhaustive pass plays every move.
pub fn split_targets(game: &Game, position: &Position) -> u16 {
    if game.rules() != Rules::Standard || game.rows_left(position) == 0 {
        return 0;
    }
    let cards = position.face_down_total() + position.face_up_total();
    if !(PILES..FEW_CARDS).contains(&cards) {
        return 0;
    }
    let empty = (0..PILES).filter(|&pile| position.is_empty_pile(pile));
    let Some(first) = empty.clone().next() else {
        return 0;
    };
    let empties = empty.count();
    let mut fillers = 0;
    for pile in 0..PILES {
        let down = position.face_down_count(pile);
        if position.face_up_count(pile) == 0 {
            continue;
        }
        // The pile's same-suit runs: its face-up cards less the links
        // that join one to the card below it in a run.
        let runs = position.face_up_count(pile) - position.pile_links(pile).0 as usize;
        fillers += runs - usize::from(down == 0);
        if fillers >= empties {
            return 0;
        }
    }
    1 << first
}

/// What a probe or beam takes off the rank of a position reached from one
/// whose empty piles bar a deal ([`split_targets`] not 0): twice
/// [`EMPTY_PILE`] for each empty pile, so that there an empty pile counts
/// against the position instead of for it. The score ranks empty piles
/// high, and best-first by score alone would play every way of gathering
/// the cards into fewer piles before one that fills them and deals.
pub fn barred_empty_piles_cost(position: &Position) -> i32 {
    let empties = (0..PILES)
        .filter(|&pile| position.is_empty_pile(pile))
        .count();
    2 * EMPTY_PILE * empties as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::SuitCount;
    use crate::deal::{Rules, numbered};
    use proptest::prelude::*;

    /// Own 1-suit deal 193 as a blind player left it: K Q, 5 4 3 2, 4 and
    /// J..4 on piles 1, 3, 7 and 10, the six other piles empty, five rows
    /// to deal.
    fn barred() -> Game {
        let path = format!(
            "{}/tests/data/empty-piles/n193-60.yaml",
            env!("CARGO_MANIFEST_DIR")
        );
        Game::new(&crate::deal::load(path.as_ref()).unwrap()).unwrap()
    }

    fn shift(from: u8, to: u8, count: u8) -> Move {
        Move::Shift { from, to, count }
    }

    /// Where no whole run can fill an empty pile and rows remain, the top
    /// card of a run may go onto the first empty pile (pile 2), and only
    /// there; longer splits and whole piles onto an empty pile stay out.
    #[test]
    fn a_card_is_split_into_the_first_empty_pile_where_empty_piles_bar_a_deal() {
        let game = barred();
        let position = game.start();
        assert_eq!(split_targets(&game, position), 1 << 1);
        let mut moves = Vec::new();
        let runs = game.moves(position, &mut moves);
        let favoured: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|&mv| promising(&game, position, &runs, mv))
            .collect();
        // Q off K Q, 2 off 5 4 3 2, 4 off J..4, onto pile 2; J..4 onto Q;
        // 3 2 onto either 4.
        for mv in [
            shift(0, 1, 1),
            shift(2, 1, 1),
            shift(9, 1, 1),
            shift(9, 0, 8),
            shift(2, 6, 2),
            shift(2, 9, 2),
        ] {
            assert!(favoured.contains(&mv), "{mv:?} is favoured");
        }
        for mv in [
            shift(0, 3, 1),
            shift(2, 1, 2),
            shift(9, 1, 7),
            shift(6, 1, 1),
        ] {
            assert!(moves.contains(&mv), "{mv:?} is legal");
            assert!(!favoured.contains(&mv), "{mv:?} is not favoured");
        }
        assert_eq!(favoured.len(), 6);
    }

    /// Nothing is split where whole runs can fill the empty piles, where
    /// fewer than ten cards are left to fill the piles, where no row is
    /// left, under relaxed rules, or where no pile is empty.
    #[test]
    fn nothing_is_split_where_empty_piles_bar_no_deal() {
        let path = format!(
            "{}/tests/data/empty-piles/n193-60.yaml",
            env!("CARGO_MANIFEST_DIR")
        );
        let barred = crate::deal::load(path.as_ref()).unwrap();
        let targets = |deal: &crate::deal::Deal| {
            let game = Game::new(deal).unwrap();
            split_targets(&game, game.start())
        };
        let cards = |text: &str| -> Vec<crate::cards::Card> {
            text.split(' ').map(|card| card.parse().unwrap()).collect()
        };
        assert_eq!(targets(&barred), 1 << 1);
        // J 9 7 5 10 8 6 4: eight runs, seven of which can each fill an
        // empty pile, for six empty piles.
        let mut deal = barred.clone();
        deal.piles[9].face_up = cards("JS 9S 7S 5S 10S 8S 6S 4S");
        assert_eq!(targets(&deal), 0);
        // Six of them, one short: splits again.
        deal.piles[9].face_up = cards("JS 9S 7S 5S 10S 8S");
        assert_eq!(targets(&deal), 1 << 1);
        // Twenty cards or more: the favoured moves are left to it (five
        // face-down cards under K Q, a stock row fewer to stay within
        // two decks).
        let mut deal = barred.clone();
        deal.stock.pop();
        deal.piles[0].face_down = vec![crate::cards::CardSlot::Unknown; 5];
        assert_eq!(targets(&deal), 0);
        deal.piles[0].face_down.pop();
        assert_eq!(targets(&deal), 1 << 1);
        // Nine cards on the table cannot fill ten piles.
        let mut deal = barred.clone();
        deal.piles[9].face_up = cards("JS 10S");
        assert_eq!(targets(&deal), 0);
        let mut deal = barred.clone();
        deal.stock.clear();
        assert_eq!(targets(&deal), 0);
        let mut deal = barred.clone();
        deal.rules = Rules::Relaxed;
        assert_eq!(targets(&deal), 0);
        for number in 1..20 {
            for suits in [SuitCount::One, SuitCount::Four] {
                assert_eq!(targets(&numbered::deal(number, suits, Rules::Standard)), 0);
            }
        }
    }

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
