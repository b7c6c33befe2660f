//! Shortening a winning line. The searches find wins, not short ones; a line
//! often walks in a circle or moves the same cards twice where once would
//! do. Four edits remove such moves:
//!
//! - a *loop*: the line passes the same position twice; the moves between
//!   are dropped;
//! - a *detour*: `a→b` then, later, the same cards `b→c`; it becomes one
//!   move `a→c` where the second one was (or none, when `c` is `a`);
//! - a *spare move*: a move the rest of the line does not need;
//! - a *shorter ending*: after the last deal, a search that weighs the
//!   moves made against how promising a position looks may find a shorter
//!   way to the win than the one the solver took.
//!
//! Every edit is kept only when the whole edited line replays through the
//! rules and wins, so the result is always a winning line, never longer
//! than the one given.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

use crate::game::{Game, Move, Position};

use super::heuristic::{promising, score};

/// Positions the search for a shorter ending may expand, per weight.
const ENDING_BUDGET: usize = 20_000;
/// How much one move costs against the score (see [`score`]) in the
/// searches for a shorter ending; each weight is one search.
const MOVE_WEIGHTS: [i32; 3] = [2, 3, 4];

/// The positions along `line` from `start`: `positions[i]` is the position
/// before move `i`, the last one is after the line. `None` when a move is
/// illegal or turns up an unknown card.
pub(super) fn walk(game: &Game, start: &Position, line: &[Move]) -> Option<Vec<Position>> {
    let mut positions = Vec::with_capacity(line.len() + 1);
    positions.push(start.clone());
    for &mv in line {
        let position = positions.last().expect("the start is there");
        game.check(position, mv).ok()?;
        let step = game.apply(position, mv);
        if !step.reveals.is_empty() {
            return None;
        }
        positions.push(step.position);
    }
    Some(positions)
}

/// Whether `line` wins from `from`.
fn wins(game: &Game, from: &Position, line: &[Move]) -> bool {
    walk(game, from, line).is_some_and(|positions| positions.last().is_some_and(Position::is_won))
}

/// A line no longer than `line` that also wins from the start of `game`.
/// `line` must win.
pub fn shorten(game: &Game, line: &[Move]) -> Vec<Move> {
    let mut line = line.to_vec();
    shorten_ending(game, &mut line);
    loop {
        let before = line.len();
        cut_loops(game, &mut line);
        drop_moves(game, &mut line);
        if line.len() == before {
            return line;
        }
    }
}

/// Drops the moves between two visits of the same position.
fn cut_loops(game: &Game, line: &mut Vec<Move>) {
    let Some(positions) = walk(game, game.start(), line) else {
        return;
    };
    let mut last_seen = HashMap::new();
    for (index, position) in positions.iter().enumerate() {
        last_seen.insert(position.fingerprint(), index);
    }
    let mut kept = Vec::with_capacity(line.len());
    let mut index = 0;
    while index < line.len() {
        // Jump to the last visit of this position.
        let last = last_seen[&positions[index].fingerprint()];
        if last > index {
            index = last;
            continue;
        }
        kept.push(line[index]);
        index += 1;
    }
    *line = kept;
}

/// Removes detours and spare moves, one at a time, front to back.
fn drop_moves(game: &Game, line: &mut Vec<Move>) {
    let Some(mut positions) = walk(game, game.start(), line) else {
        return;
    };
    let mut index = 0;
    while index < line.len() {
        let Move::Shift { from, to, count } = line[index] else {
            index += 1;
            continue;
        };
        let before = positions[index].clone();
        let mut edited = None;
        // A detour: the next move off `to` that takes exactly these cards.
        if let Some(later) = (index + 1..line.len()).find(|&later| match line[later] {
            Move::Shift { from: source, .. } => source == to,
            Move::Deal => true,
        }) && let Move::Shift {
            to: target,
            count: moved,
            ..
        } = line[later]
            && moved == count
        {
            let mut candidate = line[index + 1..].to_vec();
            let at = later - index - 1;
            if target == from {
                candidate.remove(at);
            } else {
                candidate[at] = Move::Shift {
                    from,
                    to: target,
                    count,
                };
            }
            if wins(game, &before, &candidate) {
                edited = Some(candidate);
            }
        }
        // A spare move.
        if edited.is_none() && wins(game, &before, &line[index + 1..]) {
            edited = Some(line[index + 1..].to_vec());
        }
        match edited {
            Some(rest) => {
                line.truncate(index);
                line.extend(rest);
                let tail = walk(game, &before, &line[index..]).expect("the edited line wins");
                positions.truncate(index);
                positions.extend(tail);
            }
            None => index += 1,
        }
    }
}

/// Replaces the moves after the last deal with the shortest ending found by
/// best-first searches that charge for every move made.
fn shorten_ending(game: &Game, line: &mut Vec<Move>) {
    let last_deal = line
        .iter()
        .rposition(|&mv| mv == Move::Deal)
        .map_or(0, |i| i + 1);
    let Some(positions) = walk(game, game.start(), &line[..last_deal]) else {
        return;
    };
    let entry = positions.last().expect("the start is there");
    for weight in MOVE_WEIGHTS {
        let ending_length = line.len() - last_deal;
        if let Some(ending) = search_ending(game, entry, weight, ending_length)
            && wins(game, entry, &ending)
        {
            line.truncate(last_deal);
            line.extend(ending);
        }
    }
}

/// A winning line from `entry` without dealing, shorter than `shorter_than`
/// moves, found best-first by score less `weight` per move.
fn search_ending(
    game: &Game,
    entry: &Position,
    weight: i32,
    shorter_than: usize,
) -> Option<Vec<Move>> {
    struct Node {
        position: Position,
        parent: u32,
        mv: Move,
        depth: u32,
    }
    let mut nodes = vec![Node {
        position: entry.clone(),
        parent: u32::MAX,
        mv: Move::Deal,
        depth: 0,
    }];
    let mut seen = ahash::HashSet::default();
    seen.insert(game.key(entry));
    let mut frontier = BinaryHeap::from([(score(entry), Reverse(0u32))]);
    let mut moves = Vec::new();
    let mut expansions = 0;
    while let Some((_, Reverse(index))) = frontier.pop() {
        expansions += 1;
        if expansions > ENDING_BUDGET {
            return None;
        }
        let depth = nodes[index as usize].depth + 1;
        if depth as usize >= shorter_than {
            continue;
        }
        let position = nodes[index as usize].position.clone();
        moves.clear();
        let runs = game.moves(&position, &mut moves);
        for &mv in &moves {
            if mv == Move::Deal || !promising(game, &position, &runs, mv) {
                continue;
            }
            let step = game.apply(&position, mv);
            if !step.reveals.is_empty() || !seen.insert(game.key(&step.position)) {
                continue;
            }
            let won = step.position.is_won();
            let priority = score(&step.position) - weight * depth as i32;
            nodes.push(Node {
                position: step.position,
                parent: index,
                mv,
                depth,
            });
            if won {
                let mut at = nodes.len() - 1;
                let mut ending = Vec::with_capacity(depth as usize);
                while nodes[at].parent != u32::MAX {
                    ending.push(nodes[at].mv);
                    at = nodes[at].parent as usize;
                }
                ending.reverse();
                return Some(ending);
            }
            frontier.push((priority, Reverse(nodes.len() as u32 - 1)));
        }
    }
    None
}
