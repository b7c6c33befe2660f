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
//! A beam ranks the positions of a depth by an estimate of the moves still
//! needed: twice a lower bound of them ([`moves_needed`], which counts the
//! pairs of cards a move must part) plus the breaks. The same bound prunes
//! the positions that cannot beat the best line. Beams of doubling width
//! run until the time is up; every line found is cut by [`super::shorten`]
//! and kept only when it replays, wins and is shorter.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::cards::{Card, KING};
use crate::deal::PILES;
use crate::explore::fptable::KeySet;
use crate::game::{Game, Move, Position};

use super::heuristic::{promising_at, split_targets};
use super::shorten;

/// How many times [`moves_needed`] counts in a beam's rank, beside the
/// breaks. Measured on PySol 1..12 with 3 s (sum of the twelve lines): 0
/// (breaks alone) 1,712 moves, 1 1,604, 2 1,608, 4 1,628, 8 1,667; on own
/// 2-suit deals 1..12, 1 1,230, 2 1,232, 4 1,222.
const BOUND_WEIGHT: i32 = 2;
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
fn chaos(game: &Game, position: &Position, piles: &[PileStat; PILES]) -> i32 {
    chaos_of(game.rows_left(position), piles)
}

/// [`chaos`] of a position with `rows_left` stock rows and `piles`.
fn chaos_of(rows_left: usize, piles: &[PileStat; PILES]) -> i32 {
    11 * rows_left as i32 + piles.iter().map(|pile| pile.chaos).sum::<i32>()
}

/// What one pile holds of [`chaos`] and of [`moves_needed`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct PileStat {
    /// The pile's part of [`chaos`].
    chaos: i32,
    /// Cuts the pile needs: pairs of cards one on the other that no run
    /// removed can hold together (a face-down card and the card on it; a
    /// face-up card and one on it that does not continue its run), so a
    /// move must part them, or the removal of a run whose king is the
    /// upper card.
    cuts: i32,
    /// Those of `cuts` whose upper card is (or may be) a king.
    king_cuts: i32,
}

/// For each pile of a game, how many of its face-down cards above the
/// lowest are (or may be) kings, with each number of face-down cards left.
struct Kings(Vec<Vec<i32>>);

impl Kings {
    fn of(game: &Game) -> Kings {
        Kings(
            (0..PILES)
                .map(|pile| {
                    let mut counts = vec![0];
                    let mut count = 0;
                    for (index, slot) in game.face_down_cards(pile).iter().enumerate() {
                        if index > 0 && slot.known().is_none_or(|card| card.rank() == KING) {
                            count += 1;
                        }
                        counts.push(count);
                    }
                    counts
                })
                .collect(),
        )
    }

    /// Kings above the lowest of `down` face-down cards on `pile`.
    fn above(&self, pile: usize, down: usize) -> i32 {
        self.0[pile][down]
    }
}

/// The [`PileStat`] of `pile`.
fn pile_stat(position: &Position, pile: usize, kings: &Kings) -> PileStat {
    pile_stat_of(
        pile,
        position.face_down_count(pile),
        position.face_up(pile),
        kings,
    )
}

/// The [`PileStat`] of pile `pile` holding `down` face-down cards and the
/// face-up cards `face_up`, bottom first.
fn pile_stat_of(
    pile: usize,
    down: usize,
    face_up: impl Iterator<Item = Option<Card>>,
    kings: &Kings,
) -> PileStat {
    let mut stat = PileStat {
        chaos: 2 * down as i32,
        cuts: down as i32,
        king_cuts: kings.above(pile, down),
    };
    let is_king = |card: Option<Card>| card.is_none_or(|card| card.rank() == KING);
    let mut below: Option<Option<Card>> = None;
    // Bottom first: each card is judged against the card on it.
    for card in face_up {
        match below {
            Some(below) => {
                let (chaos, cut) = match (below, card) {
                    (Some(below), Some(card)) if card.continues_run(below) => (0, false),
                    (Some(below), Some(card)) if card.rank() > below.rank() => (2, true),
                    (Some(_), Some(_)) => (1, true),
                    // An unknown card may continue the run.
                    _ => (1, false),
                };
                stat.chaos += chaos;
                if cut {
                    stat.cuts += 1;
                    stat.king_cuts += i32::from(is_king(card));
                }
            }
            // The lowest face-up card, on a face-down one.
            None if down > 0 => stat.king_cuts += i32::from(is_king(card)),
            None => {}
        }
        below = Some(card);
    }
    stat.chaos += i32::from(below.is_some());
    stat
}

/// The fewest moves that may still win from `position`, whose piles have
/// `piles`. Every cut needs a move of its own (a move parts one pair of
/// cards, at the deepest card it takes; a deal parts none), but for those
/// the removal of a run parts: one per run left, each with a king as the
/// upper card. Each deal is a move. And a move turns up at most two
/// face-down cards (one on the pile it takes from, one where a run it
/// completes is removed).
fn moves_needed(game: &Game, position: &Position, piles: &[PileStat; PILES]) -> usize {
    moves_needed_of(
        game.rows_left(position),
        position.runs_removed(),
        position.face_down_total(),
        piles,
    )
}

/// [`moves_needed`] of a position with `rows_left` stock rows, `runs_removed`,
/// `face_down` cards face down and `piles`.
fn moves_needed_of(
    rows_left: usize,
    runs_removed: usize,
    face_down: usize,
    piles: &[PileStat; PILES],
) -> usize {
    let cuts: i32 = piles.iter().map(|pile| pile.cuts).sum();
    let king_cuts: i32 = piles.iter().map(|pile| pile.king_cuts).sum();
    // Eight runs win.
    let runs_left = 8 - runs_removed as i32;
    let cuts = (cuts - king_cuts.min(runs_left)).max(0) as usize;
    cuts.max(face_down.div_ceil(2)) + rows_left
}

/// A winning line no longer than `line` (which must win from the start of
/// `game`), searched by beams that keep at most `budget` positions in all
/// (work, so the same line on any machine), or until `deadline` or
/// `cancel`. Returns `line` itself when nothing shorter was found.
///
/// Each beam is twice as wide as the one before and bounded by the best
/// line so far. Measured on PySol 1..8 with 3 s: widths from 50 doubling
/// gave 1,148 moves in all, from 100 tripling 1,190; beams from the
/// positions where the line dealt (a smaller problem), once a whole-game
/// beam no longer fits in the time left, 1,171.
pub fn improve(
    game: &Game,
    line: &[Move],
    budget: u64,
    deadline: Option<Instant>,
    cancel: &AtomicBool,
) -> Vec<Move> {
    let mut best = line.to_vec();
    let mut width = FIRST_WIDTH;
    let kept = std::cell::Cell::new(0u64);
    let mut count = |_: &Position| {
        kept.set(kept.get() + 1);
        kept.get() < budget
    };
    while width <= MAX_WIDTH
        && kept.get() < budget
        && deadline.is_none_or(|deadline| Instant::now() < deadline)
        && !cancel.load(Ordering::Relaxed)
    {
        let beam = Beam {
            width,
            shorter_than: best.len(),
            bound_weight: BOUND_WEIGHT,
            favoured_only: true,
            stalled_depths: usize::MAX,
        };
        if let Ok(found) = move_beam(game, game.start(), beam, deadline, cancel, &mut count) {
            keep_if_shorter(game, &mut best, found);
        }
        width *= 2;
    }
    best
}

/// A line to the best position a move beam of `width` reaches from the
/// start within `moves` moves, for showing a deal that has no win (see
/// [`move_beam`] for "best"). It ranks by breaks alone.
pub fn best_reached(game: &Game, width: usize, moves: usize) -> Vec<Move> {
    let beam = Beam {
        width,
        shorter_than: moves,
        bound_weight: 0,
        favoured_only: true,
        stalled_depths: usize::MAX,
    };
    let cancel = AtomicBool::new(false);
    match move_beam(game, game.start(), beam, None, &cancel, &mut |_| true) {
        Ok(line) | Err(line) => line,
    }
}

/// The longest line a move beam looking for a first win plays: wins take
/// 100 to 300 moves; a beam that has not won by far more will not.
const WIN_MOVES: usize = 2_000;

/// A move beam looking for a first win gives up once this many depths
/// have passed since it last kept a better position (more runs removed,
/// fewer cards face down, or fewer breaks). A beam that wins keeps finding
/// better positions all along: on the 15 first wins measured (ladder and
/// PySol, widths 500 to 128,000, thorough or not) the longest stretch
/// without one was 21 depths. A beam that will not win stops improving
/// early and then wanders through shuffles up to [`WIN_MOVES`]: the
/// thorough beams of widths 1,000 and 4,000 on `r1-g5020` last improved at
/// depths 45 and 59 and went on to depths 1,944 and 1,578 (3 and 12 s).
/// Giving up never loses a verdict: the beam only ever finds wins.
const STALLED_DEPTHS: usize = 100;

/// How many times [`moves_needed`] counts beside the breaks in the rank of
/// a move beam that looks for a first win. Measured on the 25 ladder
/// positions undecided within 10 s (one core, widths doubling from 500,
/// 10 s each): breaks alone won 4 of them, once the bound 6 (`r1-g5006`,
/// never won before, at width 4,000 in 1.0 s; `r3-g5002`), twice the
/// bound 4; on PySol 950 (20 s) breaks alone won nothing, once and twice
/// the bound won at width 16,000 (10.3 and 13.2 s), and `r1-g5014` only
/// once the bound did (width 32,000).
const WIN_BOUND_WEIGHT: i32 = 1;

/// A win found by a move beam of `width` positions per depth and stage
/// from the start of `game`, ranked by breaks and [`moves_needed`] (see
/// [`WIN_BOUND_WEIGHT`]), as the beam solvers of KDE's lineage rank
/// them, or `None`. `count` is called with every
/// position the beam keeps and stops it by returning `false`. Like the
/// stage beams it plays only the moves [`promising`] favours, and deals,
/// unless `thorough`: then every move. It can find a win, never prove
/// there is none.
pub(super) fn win_by_move_beam(
    game: &Game,
    width: usize,
    thorough: bool,
    breaks_only: bool,
    cancel: &AtomicBool,
    count: &mut dyn FnMut(&Position) -> bool,
) -> Option<Vec<Move>> {
    let beam = Beam {
        width,
        shorter_than: WIN_MOVES,
        bound_weight: if breaks_only { 0 } else { WIN_BOUND_WEIGHT },
        favoured_only: !thorough,
        stalled_depths: STALLED_DEPTHS,
    };
    // The caller's `count` checks the limits.
    move_beam(game, game.start(), beam, None, cancel, count).ok()
}

/// Replaces `best` by `found`, cut by [`shorten::shorten`], when that is
/// shorter and wins.
fn keep_if_shorter(game: &Game, best: &mut Vec<Move>, found: Vec<Move>) {
    let found = shorten::shorten(game, &found);
    if found.len() < best.len() && super::verify(game, &found).is_ok() {
        *best = found;
    }
}

/// The shape of one move beam.
#[derive(Clone, Copy, Debug)]
struct Beam {
    /// Positions kept per depth and stage.
    width: usize,
    /// Only lines shorter than this are wanted.
    shorter_than: usize,
    /// The rank of a position is this many times [`moves_needed`] plus
    /// [`chaos`] (lower first).
    bound_weight: i32,
    /// Play only the moves [`promising`] favours.
    favoured_only: bool,
    /// Give up once this many depths have passed without a better
    /// position kept (see [`STALLED_DEPTHS`]); `usize::MAX` never does.
    stalled_depths: usize,
}

/// A position kept in a move beam: its index in the tree, the position and
/// its [`PileStat`]s.
type Kept = (u32, Position, [PileStat; PILES]);

/// A child met at a depth: its parent's index in the level, the move and
/// the position's key. Only the children kept are played again and
/// stored: most are dropped, and writing them all would cost more than
/// playing the kept ones twice.
type Child = (u32, Move, u64);

/// A beam over single moves of `beam.width` positions per depth and stage,
/// from `start`: a winning line shorter than `beam.shorter_than`, or else
/// the line to the best position it kept (most runs removed, then fewest
/// cards face down, then fewest breaks). It never plays a move that turns
/// up an unknown card. `count` is called with every position kept; when it
/// returns `false` the beam stops there.
fn move_beam(
    game: &Game,
    start: &Position,
    beam: Beam,
    deadline: Option<Instant>,
    cancel: &AtomicBool,
    count: &mut dyn FnMut(&Position) -> bool,
) -> Result<Vec<Move>, Vec<Move>> {
    let stop = || {
        deadline.is_some_and(|deadline| Instant::now() >= deadline)
            || cancel.load(Ordering::Relaxed)
    };
    let kings = Kings::of(game);
    // The rank of a child with `rows_left` stock rows, `needed` moves at
    // least still to make (`moves_needed`) and `piles`.
    let rank = |rows_left: usize, needed: usize, piles: &[PileStat; PILES]| {
        beam.bound_weight * needed as i32 + chaos_of(rows_left, piles)
    };
    // Every position kept, with its parent and the move that reached it.
    let mut tree: Vec<(u32, Move)> = vec![(u32::MAX, Move::Deal)];
    // 64-bit keys: a collision can only drop a position from the beam, and
    // every line found is replayed.
    let mut seen = KeySet::default();
    seen.insert(game.key64(start));
    let start = start.clone();
    let piles = pile_stats(&start, &kings);
    let mut level: Vec<Kept> = vec![(0, start, piles)];
    let mut kept: Vec<Kept> = Vec::new();
    let mut next: Vec<Child> = Vec::new();
    // Stage, rank and index in `next` of each child: sorted, not `next`.
    let mut order: Vec<(u8, i32, u32)> = Vec::new();
    // The indices in `next` of the children kept, best first.
    let mut chosen: Vec<u32> = Vec::new();
    // Positions met at this depth: only those kept join `seen`, so a
    // position dropped from the beam may come back by a better line.
    let mut this_depth = KeySet::default();
    let mut moves = Vec::new();
    // Each move of a level: the parent's place in it, the move, and the
    // successor's key when a shift (see below).
    let mut keyed: Vec<(u32, Move, Option<u64>)> = Vec::new();
    let mut depth = 0;
    // How far ahead a set's slot is fetched.
    const AHEAD: usize = 16;
    // The best position kept: most runs removed, fewest cards face down,
    // fewest breaks; and its index in the tree.
    let mut best = ((0, 0, i32::MIN), 0);
    // The depth at which `best` last changed.
    let mut improved_at = 0;
    let best_line = |tree: &[(u32, Move)], best: (_, usize)| line_to(tree, best.1);
    while !level.is_empty() {
        depth += 1;
        if depth >= beam.shorter_than || depth - improved_at > beam.stalled_depths {
            return Err(best_line(&tree, best));
        }
        this_depth.clear();
        // First every move of the level and its successor's key, from the
        // parent's pile hashes and the two piles a shift touches (a deal's
        // key is taken from the position it builds); then the candidates
        // in that order, each one's place in the sets fetched a few
        // candidates ahead, and only the successors not met yet built.
        // The same children, in the same order, as building each one and
        // keying it (`preview_shift` gives exactly `key64`'s key: a shift
        // leaves the rows left as they are).
        keyed.clear();
        for (at, (_, position, _)) in level.iter().enumerate() {
            if at % 256 == 0 && stop() {
                return Err(best_line(&tree, best));
            }
            moves.clear();
            let runs = game.moves(position, &mut moves);
            let hashes = position.pile_hashes(game.rows_left(position) == 0);
            let starts = position.starts();
            let splits = if beam.favoured_only {
                split_targets(game, position)
            } else {
                0
            };
            for &mv in &moves {
                if beam.favoured_only && !promising_at(position, &starts, &runs, splits, mv) {
                    continue;
                }
                let key = match mv {
                    Move::Shift { from, to, count } => Some(
                        game.preview_shift(
                            position,
                            &hashes,
                            from as usize,
                            to as usize,
                            count as usize,
                        )
                        .key64(),
                    ),
                    Move::Deal => None,
                };
                keyed.push((at as u32, mv, key));
            }
        }
        let prefetch = |seen: &KeySet, this_depth: &KeySet, key: Option<u64>| {
            if let Some(key) = key {
                seen.prefetch(key);
                this_depth.prefetch(key);
            }
        };
        for &(_, _, key) in keyed.iter().take(AHEAD) {
            prefetch(&seen, &this_depth, key);
        }
        for (j, &(at, mv, key)) in keyed.iter().enumerate() {
            if let Some(&(_, _, ahead)) = keyed.get(j + AHEAD) {
                prefetch(&seen, &this_depth, ahead);
            }
            if j % 4096 == 4095 && stop() {
                return Err(best_line(&tree, best));
            }
            if key.is_some_and(|key| seen.contains(key) || this_depth.contains(key)) {
                continue;
            }
            let (index, position, piles) = &level[at as usize];
            // A shift is ranked from the two piles it changes, and only
            // the children kept are built (below): most are dropped.
            let (child_key, rows_dealt, needed, rank) = match (mv, key) {
                (Move::Shift { from, to, count }, Some(key)) => {
                    let (from, to) = (from as usize, to as usize);
                    let shifted = game.shifted_piles(position, from, to, count as usize);
                    if shifted.turns_up_unknown() {
                        continue;
                    }
                    if shifted.is_won() {
                        tree.push((*index, mv));
                        return Ok(line_to(&tree, tree.len() - 1));
                    }
                    let mut child_piles = *piles;
                    for (which, pile) in [from, to].into_iter().enumerate() {
                        child_piles[pile] = pile_stat_of(
                            pile,
                            shifted.face_down(which),
                            shifted.face_up(which),
                            &kings,
                        );
                    }
                    let rows_left = game.rows_left(position);
                    let needed = moves_needed_of(
                        rows_left,
                        shifted.runs_removed(),
                        shifted.face_down_total(),
                        &child_piles,
                    );
                    let rank = rank(rows_left, needed, &child_piles);
                    (key, position.rows_dealt(), needed, rank)
                }
                _ => {
                    let step = game.apply(position, mv);
                    if !step.reveals.is_empty() {
                        continue;
                    }
                    let child = step.position;
                    if child.is_won() {
                        tree.push((*index, mv));
                        return Ok(line_to(&tree, tree.len() - 1));
                    }
                    let child_piles = child_stats(&child, mv, piles, &kings);
                    let needed = moves_needed(game, &child, &child_piles);
                    let key = game.key64(&child);
                    let rank = rank(game.rows_left(&child), needed, &child_piles);
                    (key, child.rows_dealt(), needed, rank)
                }
            };
            if depth + needed >= beam.shorter_than {
                continue;
            }
            // A shift's key was looked up in `seen` above, and nothing joins
            // `seen` before the level is chosen: only a deal's is new here.
            if (key.is_none() && seen.contains(child_key)) || !this_depth.insert(child_key) {
                continue;
            }
            order.push((rows_dealt as u8, rank, next.len() as u32));
            next.push((at, mv, child_key));
        }
        // The best `width` of each stage (positions that dealt sooner look
        // worse than those that did not, yet the win may need them), in
        // order: what sorting them all and taking the first `width` of
        // each stage gives (no two entries are equal: each has its own
        // index), without sorting the many that are dropped. (The loops
        // fetch ahead by hand, as `layered::for_each_prefetched` does:
        // these return from the beam on a win or the deadline.)
        chosen.clear();
        let mut rest = &mut order[..];
        while !rest.is_empty() && beam.width > 0 {
            let stage = rest.iter().map(|&(dealt, ..)| dealt).min().unwrap_or(0);
            let mut here = 0;
            for i in 0..rest.len() {
                if rest[i].0 == stage {
                    rest.swap(i, here);
                    here += 1;
                }
            }
            let (this, tail) = rest.split_at_mut(here);
            if this.len() > beam.width {
                this.select_nth_unstable(beam.width - 1);
            }
            let this = &mut this[..here.min(beam.width)];
            this.sort_unstable();
            chosen.extend(this.iter().map(|&(.., at)| at));
            rest = tail;
        }
        kept.clear();
        for (j, &at) in chosen.iter().enumerate() {
            if let Some(&ahead) = chosen.get(j + AHEAD) {
                seen.prefetch(next[ahead as usize].2);
            }
            let (parent, mv, child_key) = next[at as usize];
            let (parent_index, parent_position, parent_piles) = &level[parent as usize];
            let child = game.apply(parent_position, mv).position;
            // The key ranked by is the built child's (see `preview_shift`).
            debug_assert_eq!(child_key, game.key64(&child));
            let piles = child_stats(&child, mv, parent_piles, &kings);
            seen.insert(child_key);
            tree.push((*parent_index, mv));
            let goodness = (
                child.runs_removed(),
                usize::MAX - child.face_down_total(),
                -chaos(game, &child, &piles),
            );
            if goodness > best.0 {
                best = (goodness, tree.len() - 1);
                improved_at = depth;
            }
            if !count(&child) {
                return Err(best_line(&tree, best));
            }
            kept.push((tree.len() as u32 - 1, child, piles));
        }
        std::mem::swap(&mut level, &mut kept);
        order.clear();
        next.clear();
    }
    Err(best_line(&tree, best))
}

/// [`pile_stat`] of every pile.
fn pile_stats(position: &Position, kings: &Kings) -> [PileStat; PILES] {
    std::array::from_fn(|pile| pile_stat(position, pile, kings))
}

/// The [`PileStat`]s of `child`, made by `mv` from a position with `piles`.
fn child_stats(
    child: &Position,
    mv: Move,
    piles: &[PileStat; PILES],
    kings: &Kings,
) -> [PileStat; PILES] {
    match mv {
        Move::Shift { from, to, .. } => {
            let mut child_piles = *piles;
            child_piles[from as usize] = pile_stat(child, from as usize, kings);
            child_piles[to as usize] = pile_stat(child, to as usize, kings);
            child_piles
        }
        Move::Deal => pile_stats(child, kings),
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
        let piles = pile_stats(start, &Kings::of(&game));
        // 44 face-down cards, ten single face-up cards, five rows left.
        assert_eq!(chaos(&game, start, &piles), 2 * 44 + 10 + 11 * 5);
    }

    #[test]
    fn the_moves_needed_at_the_start_count_cuts_less_kings() {
        let deal = numbered::deal(1, SuitCount::Four, Rules::Standard);
        let game = Game::new(&deal).unwrap();
        let start = game.start();
        // Each face-down card has a card on it to move off, but for a king
        // on it, which the removal of its run may take away instead.
        let mut kings_on_cards = 0;
        for pile in 0..PILES {
            let down = game.face_down_cards(pile);
            kings_on_cards += down[1..]
                .iter()
                .filter(|slot| slot.known().unwrap().rank() == KING)
                .count();
            kings_on_cards += usize::from(start.card_from_top(pile, 0).unwrap().rank() == KING);
        }
        let piles = pile_stats(start, &Kings::of(&game));
        assert_eq!(
            piles.iter().map(|pile| pile.king_cuts).sum::<i32>(),
            kings_on_cards as i32
        );
        assert_eq!(
            moves_needed(&game, start, &piles),
            44 - kings_on_cards.min(8) + 5
        );
    }

    /// The quick run checks the one-suit deal;
    /// [`the_moves_needed_never_exceed_the_moves_a_win_took_at_every_suit_count`]
    /// one, two and four suits.
    #[test]
    fn the_moves_needed_never_exceed_the_moves_a_win_took() {
        moves_needed_within_wins(&[(1, SuitCount::One)]);
    }

    #[test]
    #[ignore = "slow: runs with `cargo test -- --ignored` (CI runs it)"]
    fn the_moves_needed_never_exceed_the_moves_a_win_took_at_every_suit_count() {
        moves_needed_within_wins(&[
            (1, SuitCount::One),
            (2, SuitCount::Two),
            (3, SuitCount::Four),
        ]);
    }

    /// Along a won line of each numbered deal of `deals` (standard
    /// rules), the moves needed never exceed the moves left.
    fn moves_needed_within_wins(deals: &[(u64, SuitCount)]) {
        for &(number, suits) in deals {
            let deal = numbered::deal(number, suits, Rules::Standard);
            let game = Game::new(&deal).unwrap();
            // A line shortened a little: the shorter the line, the
            // stricter the check.
            let limits = Limits {
                shorten_positions: 200_000,
                ..Limits::default()
            };
            let line = analyze(&deal, &limits, &AtomicBool::new(false))
                .unwrap()
                .line
                .unwrap();
            let kings = Kings::of(&game);
            let positions = shorten::walk(&game, game.start(), &line).unwrap();
            for (index, position) in positions.iter().enumerate() {
                let needed = moves_needed(&game, position, &pile_stats(position, &kings));
                assert!(
                    needed <= line.len() - index,
                    "deal {number}, {suits:?}: {needed} moves needed after {index} of {}",
                    line.len()
                );
            }
        }
    }

    #[test]
    fn a_stalled_move_beam_gives_up_with_the_best_line_it_had() {
        // A thorough move beam of width 20 from `r1-g5020` keeps better
        // positions up to depth 14, then only shuffles until it dies out
        // at depth 40. Told to give up after 10 depths without a better
        // position, it gives up at depth 25 with the same best line, having
        // kept fewer positions.
        let path = format!(
            "{}/benches/ladder/r1-g5020.yaml",
            env!("CARGO_MANIFEST_DIR")
        );
        let game = Game::new(&crate::deal::load(path.as_ref()).unwrap()).unwrap();
        let run = |stalled_depths| {
            let beam = Beam {
                width: 20,
                shorter_than: WIN_MOVES,
                bound_weight: WIN_BOUND_WEIGHT,
                favoured_only: false,
                stalled_depths,
            };
            let mut kept = 0;
            let best = move_beam(
                &game,
                game.start(),
                beam,
                None,
                &AtomicBool::new(false),
                &mut |_| {
                    kept += 1;
                    true
                },
            );
            (best.expect_err("no win at this width"), kept)
        };
        let (best, kept) = run(usize::MAX);
        let (best_stalled, kept_stalled) = run(10);
        assert_eq!(best_stalled, best);
        assert_eq!(best.len(), 14);
        // Up to 20 positions a depth for each number of rows dealt: 1,097
        // in depths 1 to 39, 803 in depths 1 to 24.
        assert_eq!((kept, kept_stalled), (1_097, 803));
    }

    #[test]
    fn a_won_line_gets_shorter_and_still_wins() {
        let deal = numbered::deal(3, SuitCount::One, Rules::Standard);
        let game = Game::new(&deal).unwrap();
        // The first line found, not shortened yet.
        let limits = Limits {
            shorten_positions: 0,
            ..Limits::default()
        };
        let first = analyze(&deal, &limits, &AtomicBool::new(false))
            .unwrap()
            .line
            .unwrap();
        let shorter = improve(&game, &first, 200_000, None, &AtomicBool::new(false));
        assert!(
            shorter.len() < first.len(),
            "{} moves, then {}",
            first.len(),
            shorter.len()
        );
        verify(&game, &shorter).unwrap();
        // Cancelled at once: the line comes back as it was.
        let kept = improve(&game, &first, 200_000, None, &AtomicBool::new(true));
        assert_eq!(kept, first);
        // The same budget gives the same line, however fast the machine.
        assert_eq!(
            improve(&game, &first, 200_000, None, &AtomicBool::new(false)),
            shorter
        );
        // No budget: the first line.
        assert_eq!(
            improve(&game, &first, 0, None, &AtomicBool::new(false)),
            first
        );
    }
}
