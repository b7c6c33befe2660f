//! A blind player's lookahead: the moves that turn up nothing are as good
//! as known, so a player can search them all before committing to one that
//! turns up a card.
//!
//! From the position as the player sees it (every face-down and stock card
//! `XX`), [`best_line`] searches, breadth first, every line of moves that
//! turns up no card (each position once), up to a number of positions. The
//! moves that end such a line by turning up a card, a face-down card
//! uncovered or a row dealt, are its *leaves*: what lies beyond them is not
//! known. Each leaf is valued by [`value`] of the position it reaches (runs
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

use crate::deal::PILES;
use crate::deal::{Deal, ShapeError};
use crate::game::{Game, Move, Position};

/// What a position is worth to a player who cannot see the hidden cards:
/// [`crate::solve::score`]'s measure (runs removed above all, then
/// face-down cards left, empty piles, same-suit pairs, pairs out of order),
/// with a pair that holds an unknown card counted as out of order: a deal
/// puts ten cards nobody knows on the piles, ten breaks until they turn up.
pub fn value(position: &Position) -> i32 {
    const RUN_REMOVED: i32 = 400;
    const FACE_DOWN: i32 = -12;
    const EMPTY_PILE: i32 = 40;
    const SAME_SUIT_PAIR: i32 = 10;
    const BREAK: i32 = -3;
    let mut total = position.runs_removed() as i32 * RUN_REMOVED;
    for pile in 0..PILES {
        if position.is_empty_pile(pile) {
            total += EMPTY_PILE;
            continue;
        }
        total += position.face_down_count(pile) as i32 * FACE_DOWN;
        let up: Vec<Option<crate::cards::Card>> = position.face_up(pile).collect();
        for pair in up.windows(2) {
            total += match (pair[0], pair[1]) {
                (Some(below), Some(above)) if above.rank() + 1 == below.rank() => {
                    if above.suit() == below.suit() {
                        SAME_SUIT_PAIR
                    } else {
                        0
                    }
                }
                _ => BREAK,
            };
        }
    }
    total
}

/// The best line found by [`best_line`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The moves, the last of which turns up a card (or wins); empty when
    /// no move leads anywhere new.
    pub moves: Vec<Move>,
    /// [`value`] of the position the line reaches.
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
    let found = lines(view, max_positions, avoid)?;
    Ok(found.leaves.into_iter().next().or(found.inner))
}

/// What [`lines`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lines {
    /// For each set of places a card can be turned up from (the piles a
    /// move uncovers, or the deal), the best line that ends by turning them
    /// up, best first (equal values: the one found first, the shortest).
    /// A line that wins comes alone.
    pub leaves: Vec<Line>,
    /// The line to the best position that turns up nothing, scores higher
    /// than the start and is not in `avoid`.
    pub inner: Option<Line>,
}

/// Searches, breadth first, every line of moves from `view` (a deal whose
/// face-down and stock cards are all `XX`) that turns up no card, up to
/// `max_positions` positions, and keeps the best line to each way of
/// turning up cards (see [`Lines`]).
pub fn lines(
    view: &Deal,
    max_positions: usize,
    avoid: &HashSet<u128>,
) -> Result<Lines, ShapeError> {
    let game = Game::new(view)?;
    let start = game.start().clone();
    // Every position reached, with its parent and the move from it.
    let mut tree: Vec<(u32, Move, Position)> = vec![(u32::MAX, Move::Deal, start.clone())];
    let mut seen: HashSet<u128> = HashSet::from([game.key(&start)]);
    let mut queue = VecDeque::from([0u32]);
    // The best leaf of each way of turning up cards: (value, order found,
    // node, move), in the order the ways were first found.
    let mut leaves: Vec<(u32, (i32, usize, u32, Move))> = Vec::new();
    let mut found = 0usize;
    // Only a position better than the start is worth a line that turns
    // up nothing: anything else wanders.
    let mut best_inner: Option<(i32, u32)> = None;
    let start_value = value(&start);
    let mut moves = Vec::new();
    while let Some(at) = queue.pop_front() {
        let position = tree[at as usize].2.clone();
        moves.clear();
        game.moves(&position, &mut moves);
        skip_other_empty_piles(&position, &mut moves);
        for &mv in &moves {
            let step = game.apply(&position, mv);
            if step.position.is_won() {
                let line = Line {
                    moves: line_to(&tree, at, Some(mv)),
                    value: value(&step.position),
                    turns_up: true,
                };
                return Ok(Lines {
                    leaves: vec![line],
                    inner: None,
                });
            }
            if !step.reveals.is_empty() {
                let value = value(&step.position);
                let way = step.reveals.places();
                found += 1;
                match leaves.iter_mut().find(|(w, _)| *w == way) {
                    // Strictly better only: the first (shortest) line wins ties.
                    Some((_, best)) if value > best.0 => *best = (value, found, at, mv),
                    Some(_) => {}
                    None => leaves.push((way, (value, found, at, mv))),
                }
                continue;
            }
            let key = game.key(&step.position);
            if tree.len() >= max_positions || !seen.insert(key) {
                continue;
            }
            let value = value(&step.position);
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
    let mut best: Vec<(i32, usize, u32, Move)> = leaves.into_iter().map(|(_, b)| b).collect();
    best.sort_by_key(|&(value, order, ..)| (std::cmp::Reverse(value), order));
    Ok(Lines {
        leaves: best
            .into_iter()
            .map(|(value, _, at, mv)| Line {
                moves: line_to(&tree, at, Some(mv)),
                value,
                turns_up: true,
            })
            .collect(),
        inner: best_inner.map(|(value, at)| Line {
            moves: line_to(&tree, at, None),
            value,
            turns_up: false,
        }),
    })
}

/// Drops from `moves` those into an empty pile after the first: every
/// empty pile is worth the same to a player who cannot see the cards. An
/// empty pile holds nothing, and what the deals will put on it is as
/// unknown as what they will put on any other (the unseen cards are
/// equally likely in every place), so a run moved into empty pile `j`
/// rather than `i` reaches the same position with piles `i` and `j`
/// swapped: the same lines from it, the same values, the same chances.
/// Searching one of them keeps every choice and spares the copies, which
/// late in a game, with several empty piles, would take most of the
/// lookahead's positions.
fn skip_other_empty_piles(position: &Position, moves: &mut Vec<Move>) {
    let Some(first) = (0..PILES).find(|&pile| position.is_empty_pile(pile)) else {
        return;
    };
    moves.retain(|&mv| match mv {
        Move::Shift { to, .. } => to as usize == first || !position.is_empty_pile(to as usize),
        Move::Deal => true,
    });
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

    /// With three empty piles, the moves into the second and third are
    /// dropped and every other move is kept.
    #[test]
    fn runs_go_into_the_first_empty_pile_only() {
        let text = "\
suits: 1
piles:
  - face_up: [KS, QS]
  - face_up: []
  - face_up: [5S, 4S, 3S, 2S]
  - face_up: []
  - face_down: [XX]
    face_up: [9S]
  - face_up: []
  - face_up: [4S]
  - face_up: [JS, 10S]
  - face_up: [8S]
  - face_up: [7S, 6S]
stock:
  - [XX, XX, XX, XX, XX, XX, XX, XX, XX, XX]
removed: [S, S, S, S, S]
";
        let deal = yaml::from_str(text, Path::new("t.yaml")).unwrap();
        let game = Game::new(&deal).unwrap();
        let mut all = Vec::new();
        game.moves(game.start(), &mut all);
        let mut kept = all.clone();
        skip_other_empty_piles(game.start(), &mut kept);
        let into = |mv: &Move, pile: u8| matches!(mv, Move::Shift { to, .. } if *to == pile);
        assert!(all.iter().any(|mv| into(mv, 3)) && all.iter().any(|mv| into(mv, 5)));
        let expected: Vec<Move> = all
            .iter()
            .copied()
            .filter(|mv| !into(mv, 3) && !into(mv, 5))
            .collect();
        assert_eq!(kept, expected);
        assert!(kept.iter().any(|mv| into(mv, 1)));
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
        assert_eq!(line.value, value(&position));
        // Turning up pile 1's card at once (5S onto 6S) is worth less.
        let at_once = game.apply(game.start(), game_move(&game, "1-2/1")).position;
        assert!(line.value >= value(&at_once));
    }
}
