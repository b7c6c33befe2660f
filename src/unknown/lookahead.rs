//! A blind player's lookahead: the moves that turn up nothing are as good
//! as known, so a player can search them all before committing to one that
//! turns up a card.
//!
//! From the position as the player sees it (every face-down and stock card
//! `XX`), [`best_line`] searches, breadth first, every line of moves that
//! turns up no card (each position once), up to a number of positions. The
//! moves that end such a line by turning up a card, a face-down card
//! uncovered or a row dealt, are its *leaves*: what lies beyond them is not
//! known. Each leaf is valued by [`score`] of the position it reaches (runs
//! removed above all, then face-down cards left, empty piles, same-suit
//! runs; an unknown card face up counts as a break), and the line to the
//! best leaf is the one to play: arrange what can be arranged, then turn up
//! the card that leaves the best position, and deal only when no card can
//! be turned up to a better position (a deal puts ten unknown cards on the
//! piles: ten breaks). This is what strong players describe (turn up cards
//! as soon as possible, keep same-suit runs, keep piles empty, deal last),
//! searched exactly within what can be seen.
//!
//! It reads only the position it is given, which holds no hidden card.

use std::collections::{HashSet, VecDeque};

use crate::deal::{Deal, ShapeError};
use crate::game::{Game, Move, Position};
use crate::solve::score;

/// The best line found by [`best_line`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The moves, the last of which turns up a card (or wins); empty when
    /// no move leads anywhere new.
    pub moves: Vec<Move>,
    /// [`score`] of the position the line reaches.
    pub value: i32,
    /// Whether the line ends by turning up a card (or a win), rather than
    /// at the best position that turns up nothing.
    pub turns_up: bool,
}

/// The line to play from `view` (a deal whose face-down and stock cards are
/// all `XX`): the best leaf within `max_positions` positions reached
/// without turning up a card, or, when no move turns up a card, the line to
/// the best position that scores higher than the start and is not in
/// `avoid` (keys of [`Game::key`] already played through). `None` when no
/// line leads anywhere better.
pub fn best_line(
    view: &Deal,
    max_positions: usize,
    avoid: &HashSet<u128>,
) -> Result<Option<Line>, ShapeError> {
    let game = Game::new(view)?;
    let start = game.start().clone();
    // Every position reached, with its parent and the move from it.
    let mut tree: Vec<(u32, Move, Position)> = vec![(u32::MAX, Move::Deal, start.clone())];
    let mut seen: HashSet<u128> = HashSet::from([game.key(&start)]);
    let mut queue = VecDeque::from([0u32]);
    let mut best_leaf: Option<(i32, u32, Move)> = None;
    // Only a position better than the start is worth a line that turns
    // up nothing: anything else wanders.
    let mut best_inner: Option<(i32, u32)> = None;
    let start_value = score(&start);
    let mut moves = Vec::new();
    while let Some(at) = queue.pop_front() {
        let position = tree[at as usize].2.clone();
        moves.clear();
        game.moves(&position, &mut moves);
        for &mv in &moves {
            let step = game.apply(&position, mv);
            if step.position.is_won() {
                return Ok(Some(Line {
                    moves: line_to(&tree, at, Some(mv)),
                    value: score(&step.position),
                    turns_up: true,
                }));
            }
            if !step.reveals.is_empty() {
                let value = score(&step.position);
                // Strictly better only: the first (shortest) line wins ties.
                if best_leaf.is_none_or(|(best, ..)| value > best) {
                    best_leaf = Some((value, at, mv));
                }
                continue;
            }
            let key = game.key(&step.position);
            if tree.len() >= max_positions || !seen.insert(key) {
                continue;
            }
            let value = score(&step.position);
            tree.push((at, mv, step.position));
            let index = (tree.len() - 1) as u32;
            if value > start_value
                && !avoid.contains(&key)
                && best_inner.is_none_or(|(best, _)| value > best)
            {
                best_inner = Some((value, index));
            }
            queue.push_back(index);
        }
    }
    Ok(match (best_leaf, best_inner) {
        (Some((value, at, mv)), _) => Some(Line {
            moves: line_to(&tree, at, Some(mv)),
            value,
            turns_up: true,
        }),
        (None, Some((value, at))) => Some(Line {
            moves: line_to(&tree, at, None),
            value,
            turns_up: false,
        }),
        (None, None) => None,
    })
}

/// The moves from the start to node `at` of `tree`, then `last`.
fn line_to(tree: &[(u32, Move, Position)], mut at: u32, last: Option<Move>) -> Vec<Move> {
    let mut line: Vec<Move> = last.into_iter().collect();
    while at != 0 {
        let (parent, mv, _) = &tree[at as usize];
        line.push(*mv);
        at = *parent;
    }
    line.reverse();
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deal::yaml;
    use std::path::Path;

    fn game_move(game: &Game, text: &str) -> Move {
        let mut moves = Vec::new();
        game.moves(game.start(), &mut moves);
        moves
            .into_iter()
            .find(|mv| mv.to_string() == text)
            .expect("a legal move")
    }

    /// A position where a card can be turned up: the line ends by turning
    /// one up, every move before it turns up nothing, and it reaches a
    /// position at least as good as turning up at once (here it first
    /// gathers the spades into longer runs).
    #[test]
    fn turns_up_a_card_when_one_can_be() {
        let text = "\
suits: 1
piles:
  - face_down: [XX]
    face_up: [5S]
  - face_up: [6S]
  - face_down: [XX, XX]
    face_up: [KS]
  - face_up: [9S]
  - face_up: [QS]
  - face_up: [JS]
  - face_up: [10S]
  - face_up: [8S]
  - face_up: [7S]
  - face_up: [4S]
stock: []
removed: [S, S, S, S, S, S]
";
        let deal = yaml::from_str(text, Path::new("t.yaml")).unwrap();
        let line = best_line(&deal, 1000, &HashSet::new()).unwrap().unwrap();
        assert!(line.turns_up);
        let game = Game::new(&deal).unwrap();
        let mut position = game.start().clone();
        for (at, &mv) in line.moves.iter().enumerate() {
            game.check(&position, mv).unwrap();
            let step = game.apply(&position, mv);
            assert_eq!(step.reveals.is_empty(), at + 1 < line.moves.len(), "{at}");
            position = step.position;
        }
        assert_eq!(line.value, score(&position));
        // Turning up pile 1's card at once (5S onto 6S) is worth less.
        let at_once = game.apply(game.start(), game_move(&game, "1-2/1")).position;
        assert!(line.value >= score(&at_once));
    }
}
