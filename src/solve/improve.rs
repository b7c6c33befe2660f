//! Spending the time left after the first win on a shorter line (anytime).
//!
//! The passes of [`super::search`] go stage by stage and find wins fast,
//! but their lines are long: they rank positions, not lines. Once a win is
//! known, its length bounds the search for a better one, and the time left
//! goes to *move beams*: breadth-first over single moves (a deal is one
//! move too), keeping the `width` best positions of each depth and stage
//! (a position that dealt sooner looks worse, yet the win may need it,
//! as coolo/spider's queue per stock row left says). The first
//! won position a beam meets is at the fewest moves that beam can reach,
//! so its line is the shortest it knows. This is the shape of the beam
//! solvers of KDE's lineage (coolo/spider, kpat's second solver), which
//! rank by breaks in same-suit runs and charge for every move; here a
//! level of the beam holds positions reached in the same number of moves,
//! so the charge is the depth itself.
//!
//! Each beam prunes the positions that cannot beat the best line: a move
//! turns up at most two face-down cards (one on each pile it touches) and
//! a deal none, so a position needs at least half its face-down cards plus
//! the rows left more moves. Beams of doubling width run until the time
//! is up; every line found is cut by [`super::shorten`] and kept only when it
//! replays, wins and is shorter.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::cards::Card;
use crate::deal::PILES;
use crate::game::{Game, Move, Position};

use super::heuristic::promising;
use super::shorten;

/// The width of the first beam; each next one is twice as wide.
const FIRST_WIDTH: usize = 50;
/// The widest beam (a bound on memory: positions kept per depth and stage).
const MAX_WIDTH: usize = 1 << 17;

/// Breaks: what keeps a position from being won, counted like the beam
/// solvers of KDE's lineage do (lower is better): eleven per stock row
/// left, and on each pile two per face-down card, one for the top card, and
/// for each face-up card below it, none when the card above continues its
/// run, two when the card above is higher (it can never join it), else
/// one. Measured on PySol 1..3 against the solver's own score less 30 per
/// row left: the first shorter lines came sooner and were shorter.
fn chaos(game: &Game, position: &Position, piles: &[i32; PILES]) -> i32 {
    11 * game.rows_left(position) as i32 + piles.iter().sum::<i32>()
}

/// The part of [`chaos`] that `pile` holds.
fn pile_chaos(position: &Position, pile: usize) -> i32 {
    let mut chaos = 2 * position.face_down_count(pile) as i32;
    let mut below: Option<Option<Card>> = None;
    // Bottom first: each card is judged against the card on it.
    for card in position.face_up(pile) {
        if let Some(below) = below {
            chaos += match (below, card) {
                (Some(below), Some(card)) if card.continues_run(below) => 0,
                (Some(below), Some(card)) if card.rank() > below.rank() => 2,
                _ => 1,
            };
        }
        below = Some(card);
    }
    chaos + i32::from(below.is_some())
}

/// [`pile_chaos`] of every pile.
fn pile_chaoses(position: &Position) -> [i32; PILES] {
    std::array::from_fn(|pile| pile_chaos(position, pile))
}

/// The fewest moves that may still win from `position`.
fn moves_needed(game: &Game, position: &Position) -> usize {
    position.face_down_total().div_ceil(2) + game.rows_left(position)
}

/// A winning line no longer than `line` (which must win from the start of
/// `game`), searched until `deadline` or `cancel`. Returns `line` itself
/// when nothing shorter was found.
///
/// Each beam is twice as wide as the one before and bounded by the best
/// line so far. Measured on PySol 1..8 with 3 s: widths from 50 doubling
/// gave 1,148 moves in all, from 100 tripling 1,190; beams from the
/// positions where the line dealt (a smaller problem), once a whole-game
/// beam no longer fits in the time left, 1,171.
pub fn improve(game: &Game, line: &[Move], deadline: Instant, cancel: &AtomicBool) -> Vec<Move> {
    let mut best = line.to_vec();
    let mut width = FIRST_WIDTH;
    while width <= MAX_WIDTH && Instant::now() < deadline && !cancel.load(Ordering::Relaxed) {
        if let Ok(found) = move_beam(game, game.start(), width, best.len(), deadline, cancel) {
            keep_if_shorter(game, &mut best, found);
        }
        width *= 2;
    }
    best
}

/// A line to the best position a move beam of `width` reaches from the
/// start within `moves` moves or by `deadline`, for showing a deal that
/// has no win (see [`move_beam`] for "best").
pub fn best_reached(game: &Game, width: usize, moves: usize, deadline: Instant) -> Vec<Move> {
    match move_beam(
        game,
        game.start(),
        width,
        moves,
        deadline,
        &AtomicBool::new(false),
    ) {
        Ok(line) | Err(line) => line,
    }
}

/// Replaces `best` by `found`, cut by [`shorten::shorten`], when that is
/// shorter and wins.
fn keep_if_shorter(game: &Game, best: &mut Vec<Move>, found: Vec<Move>) {
    let found = shorten::shorten(game, &found);
    if found.len() < best.len() && super::verify(game, &found).is_ok() {
        *best = found;
    }
}

/// A position kept in a move beam: its index in the tree, the position and
/// its [`pile_chaos`] values.
type Kept = (u32, Position, [i32; PILES]);

/// A child met at a depth: its parent's index in the level, the move and
/// the position's key. Only the children kept are played again and
/// stored: most are dropped, and writing them all would cost more than
/// playing the kept ones twice.
type Child = (u32, Move, u64);

/// A beam over single moves of `width` positions per depth and stage, from
/// `start`: a winning line shorter than `shorter_than`, or else the line to
/// the best position it kept (most runs removed, then fewest cards face
/// down, then fewest breaks). It never plays a move that turns up an
/// unknown card.
fn move_beam(
    game: &Game,
    start: &Position,
    width: usize,
    shorter_than: usize,
    deadline: Instant,
    cancel: &AtomicBool,
) -> Result<Vec<Move>, Vec<Move>> {
    // 64 bits of the key (the high half: the low half of a fingerprint was
    // seen to be zero): a collision can only drop a position from the beam,
    // and every line found is replayed.
    let key = |position: &Position| (game.key(position) >> 64) as u64;
    // Every position kept, with its parent and the move that reached it.
    let mut tree: Vec<(u32, Move)> = vec![(u32::MAX, Move::Deal)];
    let mut seen = ahash::HashSet::default();
    seen.insert(key(start));
    let start = start.clone();
    let piles = pile_chaoses(&start);
    let mut level: Vec<Kept> = vec![(0, start, piles)];
    let mut kept: Vec<Kept> = Vec::new();
    let mut next: Vec<Child> = Vec::new();
    // Stage, chaos and index in `next` of each child: sorted, not `next`.
    let mut order: Vec<(u8, i32, u32)> = Vec::new();
    // Positions met at this depth: only those kept join `seen`, so a
    // position dropped from the beam may come back by a better line.
    let mut this_depth = ahash::HashSet::default();
    let mut moves = Vec::new();
    let mut depth = 0;
    // The best position kept: most runs removed, fewest cards face down,
    // fewest breaks; and its index in the tree.
    let mut best = ((0, 0, i32::MIN), 0);
    let best_line = |tree: &[(u32, Move)], best: (_, usize)| line_to(tree, best.1);
    while !level.is_empty() {
        depth += 1;
        if depth >= shorter_than {
            return Err(best_line(&tree, best));
        }
        this_depth.clear();
        for (at, (index, position, piles)) in level.iter().enumerate() {
            if Instant::now() >= deadline || cancel.load(Ordering::Relaxed) {
                return Err(best_line(&tree, best));
            }
            moves.clear();
            let runs = game.moves(position, &mut moves);
            for &mv in &moves {
                if !promising(position, &runs, mv) {
                    continue;
                }
                let step = game.apply(position, mv);
                if !step.reveals.is_empty() {
                    continue;
                }
                let child = step.position;
                if child.is_won() {
                    tree.push((*index, mv));
                    return Ok(line_to(&tree, tree.len() - 1));
                }
                if depth + moves_needed(game, &child) >= shorter_than {
                    continue;
                }
                let child_key = key(&child);
                if seen.contains(&child_key) || !this_depth.insert(child_key) {
                    continue;
                }
                let chaos = chaos(game, &child, &child_piles(&child, mv, piles));
                order.push((child.rows_dealt() as u8, chaos, next.len() as u32));
                next.push((at as u32, mv, child_key));
            }
        }
        // The best `width` of each stage: positions that dealt sooner
        // look worse than those that did not, yet the win may need them.
        order.sort_unstable();
        kept.clear();
        let mut stage = u8::MAX;
        let mut in_stage = 0;
        for &(dealt, _, at) in &order {
            if dealt != stage {
                (stage, in_stage) = (dealt, 0);
            }
            if in_stage < width {
                in_stage += 1;
                let (parent, mv, child_key) = next[at as usize];
                let (parent_index, parent_position, parent_piles) = &level[parent as usize];
                let child = game.apply(parent_position, mv).position;
                let piles = child_piles(&child, mv, parent_piles);
                seen.insert(child_key);
                tree.push((*parent_index, mv));
                let goodness = (
                    child.runs_removed(),
                    usize::MAX - child.face_down_total(),
                    -chaos(game, &child, &piles),
                );
                if goodness > best.0 {
                    best = (goodness, tree.len() - 1);
                }
                kept.push((tree.len() as u32 - 1, child, piles));
            }
        }
        std::mem::swap(&mut level, &mut kept);
        order.clear();
        next.clear();
    }
    Err(best_line(&tree, best))
}

/// The [`pile_chaos`] values of `child`, made by `mv` from a position with
/// `piles`.
fn child_piles(child: &Position, mv: Move, piles: &[i32; PILES]) -> [i32; PILES] {
    match mv {
        Move::Shift { from, to, .. } => {
            let mut child_piles = *piles;
            child_piles[from as usize] = pile_chaos(child, from as usize);
            child_piles[to as usize] = pile_chaos(child, to as usize);
            child_piles
        }
        Move::Deal => pile_chaoses(child),
    }
}

/// The moves from the root of `tree` to `index`.
fn line_to(tree: &[(u32, Move)], mut index: usize) -> Vec<Move> {
    let mut line = Vec::new();
    while tree[index].0 != u32::MAX {
        line.push(tree[index].1);
        index = tree[index].0 as usize;
    }
    line.reverse();
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::SuitCount;
    use crate::deal::{Rules, numbered};
    use crate::solve::{Limits, analyze, verify};

    #[test]
    fn breaks_count_face_down_cards_tops_and_runs_broken() {
        let deal = numbered::deal(1, SuitCount::Four, Rules::Standard);
        let game = Game::new(&deal).unwrap();
        let start = game.start();
        // 44 face-down cards, ten single face-up cards, five rows left.
        assert_eq!(
            chaos(&game, start, &pile_chaoses(start)),
            2 * 44 + 10 + 11 * 5
        );
    }

    #[test]
    fn a_won_line_gets_shorter_and_still_wins() {
        let deal = numbered::deal(3, SuitCount::One, Rules::Standard);
        let game = Game::new(&deal).unwrap();
        let first = analyze(&deal, &Limits::default(), &AtomicBool::new(false))
            .unwrap()
            .line
            .unwrap();
        let deadline = Instant::now() + std::time::Duration::from_secs(2);
        let shorter = improve(&game, &first, deadline, &AtomicBool::new(false));
        assert!(
            shorter.len() < first.len(),
            "{} moves, then {}",
            first.len(),
            shorter.len()
        );
        verify(&game, &shorter).unwrap();
        // Cancelled at once: the line comes back as it was.
        let kept = improve(&game, &first, deadline, &AtomicBool::new(true));
        assert_eq!(kept, first);
    }
}
