//! The staged search.
//!
//! Deals cannot be undone, so the positions of a game fall into *stages*:
//! stage `s` is everything reachable with `s` rows dealt, and a deal is the
//! only way from one stage to the next. The search explores one stage from an
//! entry position, then deals from the most promising positions of that stage
//! first (best score first, see [`super::heuristic`]) and explores each
//! resulting stage the same way, depth-first over stages.
//!
//! Three kinds of pass:
//!
//! - A *probe* explores each stage best-first up to a budget of expansions
//!   and deals only from the best few positions, depth-first over stages.
//! - A *beam* goes stage by stage instead: it explores the best few entries
//!   of a stage best-first up to a budget each, deals from every position it
//!   met, and keeps the best few dealt positions, over all entries, as the
//!   entries of the next stage. Where a probe spends most of its effort
//!   varying the last stages, a beam weighs early choices against each
//!   other. A beam may *look ahead*: it then judges more dealt positions
//!   than it keeps by a short exploration of each, and keeps those whose
//!   exploration went best.
//! - The *exhaustive* pass examines every position reachable from the
//!   start, with the layered search of the generic explorer (every core,
//!   about 20 bytes a stored position, see [`super::exhaustive`]). When it
//!   ends without a win the deal is unwinnable.
//!
//! Probes and beams skip moves that rarely help and positions that score
//! badly: they can find a win fast but can prove nothing. A probe or beam
//! may charge for every move made (`move_cost`): it then ranks a position
//! by its score less that cost times the moves that reached it, which
//! finds shorter lines. Any pass may be
//! given a cap on the positions it examines (`pass_cap`); a capped pass that
//! reaches it gives up without a verdict and leaves the deal to the next
//! pass, so an exhaustive pass that stopped at its cap proves nothing
//! either.
//!
//! Why the exhaustive pass keeps every win (deduplication, the move back
//! to the parent not played, piles merged once the stock is empty) is in
//! [`super::exhaustive`]. Positions that turn up an unknown card (reveals)
//! are leaves: nothing is known beyond them, and the verdict says so.

use std::cell::RefCell;
use std::collections::{BTreeMap, BinaryHeap};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use std::ops::ControlFlow;

use crate::deal::{PILES, Place};
use crate::explore::fptable::KeySet;
use crate::explore::layered::{LayerStats, Layered};
use crate::explore::{End, StopReason as EngineStop};
use crate::game::{Game, LayerKey, Move, Position};

use super::exhaustive::ExhaustiveProblem;
use super::prune::Reductions;

#[cfg(doc)]
use super::heuristic::promising;
use super::heuristic::{
    barred_empty_piles_cost, child_score, pile_score, promising_at, score, score_after_deal,
    split_targets,
};
use super::{Limits, Progress, ProofProgress, StopReason};

mod beams;
mod proof;
#[cfg(test)]
mod tests;

use beams::*;

/// How a pass explores each stage.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Pass {
    /// Best-first up to `budget` expansions per stage; deal from the best
    /// `width` positions only.
    Probe {
        budget: usize,
        width: usize,
        move_cost: i32,
        /// Go on with the moves [`promising`] skips in a stage those moves
        /// leave [nearly empty](NEARLY_EMPTY).
        thorough: bool,
    },
    /// A beam over stages: explore each of the `width` best entries of a
    /// stage best-first up to `budget` expansions, deal from every position
    /// met, and keep the `width` best dealt positions (over all entries) as
    /// the entries of the next stage. Incomplete, like a probe.
    ///
    /// With a `lookahead`, the beam first keeps [`LOOKAHEAD_POOL`] times
    /// `width` dealt positions by their score, explores each best-first up
    /// to `lookahead` expansions, and keeps the `width` whose exploration
    /// met the best score: a dealt position is judged by what can be made
    /// of it, not by how it looks.
    Beam {
        budget: usize,
        width: usize,
        move_cost: i32,
        lookahead: usize,
        /// As for a probe.
        thorough: bool,
    },
    /// A beam over single moves (see [`super::improve`]): `width`
    /// positions kept per depth and stage, ranked by the breaks that keep
    /// a position from being won, the way the beam solvers of KDE's lineage
    /// rank them. It plays favoured moves and deals only, like a beam that
    /// is not thorough, unless `thorough`: then every move. The rank adds
    /// a lower bound on the moves still needed to the breaks, unless
    /// `breaks_only`. It proves nothing.
    MoveBeam {
        width: usize,
        thorough: bool,
        breaks_only: bool,
    },
    /// Every position of every stage.
    Exhaustive,
}

impl Pass {
    /// Whether the pass may play moves [`promising`] does not favour: the
    /// exhaustive pass and thorough probes and beams. The others search a
    /// part of the lines made of favoured moves and deals only.
    pub fn goes_beyond_favoured(self) -> bool {
        match self {
            Pass::Probe { thorough, .. }
            | Pass::Beam { thorough, .. }
            | Pass::MoveBeam { thorough, .. } => thorough,
            Pass::Exhaustive => true,
        }
    }

    /// What a probe or beam charges for each move made, against the score:
    /// positions reached in fewer moves come first, which makes the lines
    /// found shorter (and wins some deals sooner, others later).
    fn move_cost(self) -> i32 {
        match self {
            Pass::Probe { move_cost, .. } | Pass::Beam { move_cost, .. } => move_cost,
            Pass::MoveBeam { .. } | Pass::Exhaustive => 0,
        }
    }
}

/// How a stage (and everything after it) ended.
pub(super) enum Outcome {
    Won(Vec<Move>),
    Exhausted,
    Stopped,
}

/// A position of the stage being explored, with the move that reached it
/// from its parent (an index into the same stage).
struct Node {
    position: Position,
    parent: u32,
    mv: Move,
    depth: u16,
    /// The position's [`score`].
    score: i32,
}

/// Which of a position's moves a probe or beam expands: first only the
/// [`promising`] ones; in a thorough pass, the others too once the
/// promising moves of the whole stage have run dry, [nearly
/// empty](NEARLY_EMPTY). Some positions need a
/// lateral move or a split run to get anywhere (a stage of 15 positions
/// by the promising moves alone can hold more than a million), and a
/// stage that ran dry would otherwise leave its budget unspent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Moves {
    Promising,
    Skipped,
}

/// A thorough pass turns to the skipped moves only in a stage whose
/// promising moves ran dry at fewer positions than its budget divided by
/// this: a stage they left nearly empty, where the skipped moves are the
/// way on. In a stage that merely ran dry late, the skipped moves mostly
/// cost time: measured on the ladder's and PySol's hard positions (one core,
/// 10 M positions each), going on in every dry stage won the same
/// positions but PySol 93 at 4.4 M positions, r3-g5001 at 7.0 M, r3-g5011
/// at 2.9 M; only in nearly empty stages, at 6.1 M, 6.7 M and 2.5 M.
const NEARLY_EMPTY: usize = 4;

/// With a lookahead, a beam judges this many times its width of dealt
/// positions by exploring them before it keeps its width.
const LOOKAHEAD_POOL: usize = 5;

/// Memory a stored stage position costs, for the memory estimate.
const NODE_BYTES: u64 = std::mem::size_of::<Node>() as u64;
/// Memory a position kept by a move beam costs until the pass ends, for
/// the memory estimate: its key in the beam's seen set (8 bytes at up to
/// 80 % load, doubled while growing) and its parent link (8 bytes).
const MOVE_BEAM_BYTES: u64 = 32;
pub(super) struct Search<'a> {
    game: &'a Game,
    limits: &'a Limits,
    cancel: &'a AtomicBool,
    progress: &'a dyn Fn(&Progress),
    started: Instant,
    visited: KeySet,
    /// Stage positions held by the stages on the current line.
    nodes_alive: u64,
    /// Positions kept by the move beam running (see [`MOVE_BEAM_BYTES`]).
    move_beam_kept: u64,
    /// Distinct positions examined, over all passes.
    pub positions: u64,
    next_report: u64,
    /// Each unknown slot turned up, with the length of the first line found
    /// to turn it up.
    pub reveals: BTreeMap<Place, usize>,
    pub stopped: Option<StopReason>,
    /// Stop once this many unknown slots have been turned up.
    pub reveal_target: usize,
    /// The largest memory estimate seen, in bytes.
    pub peak_memory: u64,
    pub pass_name: &'static str,
    /// The most new positions the next pass may examine before it gives up
    /// (sets `capped`) and leaves the deal to the passes after it.
    pub pass_cap: Option<u64>,
    /// The last pass gave up at its `pass_cap`.
    pub capped: bool,
    pass_first: u64,
    /// Positions the exhaustive pass proved lost by the dead-end test
    /// ([`super::prune::dead_end`]) and did not expand, over all passes.
    pub dead_ends: u64,
    /// The fewest face-down cards on each pile in any position examined.
    pub fewest_per_pile: [u8; PILES],
    /// How far the last exhaustive pass got.
    pub proof: Option<ProofProgress>,
    /// The layered search's peak memory in the exhaustive pass running.
    exhaustive_memory: u64,
    /// Why the exhaustive pass's checkpoint could not be used.
    pub checkpoint_error: Option<crate::explore::layered::CheckpointError>,
    best_removed: usize,
    fewest_face_down: usize,
    /// The beam running has left something out: a stage stopped at its
    /// budget with positions still to expand, a dealt position did not
    /// make the cut, or a card turned up that is not known.
    cut: bool,
    /// When a beam ended without a win having left nothing out: the
    /// positions it examined. It then searched every line made of the
    /// moves [`promising`] favours and of deals (see [`Search::run`]).
    pub favoured_exhausted: Option<u64>,
}

impl<'a> Search<'a> {
    pub fn new(
        game: &'a Game,
        limits: &'a Limits,
        cancel: &'a AtomicBool,
        progress: &'a dyn Fn(&Progress),
    ) -> Search<'a> {
        Search {
            game,
            limits,
            cancel,
            progress,
            started: Instant::now(),
            visited: KeySet::default(),
            nodes_alive: 0,
            move_beam_kept: 0,
            positions: 0,
            next_report: 1 << 16,
            reveals: BTreeMap::new(),
            stopped: None,
            reveal_target: usize::MAX,
            peak_memory: 0,
            pass_name: "",
            pass_cap: None,
            capped: false,
            pass_first: 0,
            dead_ends: 0,
            fewest_per_pile: std::array::from_fn(|pile| game.start().face_down_count(pile) as u8),
            exhaustive_memory: 0,
            proof: None,
            checkpoint_error: None,
            best_removed: game.start().runs_removed(),
            fewest_face_down: game.start().face_down_total(),
            cut: false,
            favoured_exhausted: None,
        }
    }

    /// Runs one pass from the start of the game.
    pub fn run(&mut self, pass: Pass) -> Outcome {
        self.pass_name = match pass {
            Pass::Probe { .. } => "probe",
            Pass::Beam { .. } => "beam",
            Pass::MoveBeam { .. } => "move beam",
            Pass::Exhaustive => "exhaustive",
        };
        // A fresh set, not a cleared one: a cleared set keeps its capacity,
        // and after a large pass its few entries would spread over a table
        // far bigger than the caches.
        self.visited = KeySet::default();
        self.capped = false;
        self.pass_first = self.positions;
        if pass == Pass::Exhaustive {
            let outcome = self.exhaustive();
            self.peak_memory = self.peak_memory.max(self.exhaustive_memory);
            self.exhaustive_memory = 0;
            return outcome;
        }
        let start = self.game.start().clone();
        self.visited.insert(self.key(&start));
        self.positions += 1;
        let outcome = match pass {
            Pass::Beam {
                budget,
                width,
                move_cost,
                lookahead,
                thorough,
            } => {
                self.cut = false;
                let outcome = self.beam(start, budget, width, move_cost, lookahead, thorough);
                if matches!(outcome, Outcome::Exhausted) && !self.cut {
                    self.favoured_exhausted = Some(self.positions - self.pass_first);
                }
                outcome
            }
            Pass::MoveBeam {
                width,
                thorough,
                breaks_only,
            } => self.move_beam(width, thorough, breaks_only),
            _ => self.solve_stage(start, pass, &mut Vec::new()),
        };
        self.peak_memory = self.peak_memory.max(self.memory_estimate());
        outcome
    }

    /// The key under which a probe or beam deduplicates `position`:
    /// [`Game::key64`] (the sum of pile hashes in 64 bits, which
    /// [`Game::preview_shift`] gives for a move's successor without
    /// building it), except that without the symmetry reduction the order
    /// of the piles always counts. Two positions with one key (about one
    /// pair in 10^4 over a pass of 10^8 positions) only cost a probe or
    /// beam a position it skips: they prove nothing, and every win they
    /// find is replayed. The exhaustive pass keeps its own 128-bit keys.
    fn key(&self, position: &Position) -> u64 {
        position.sum_key64(self.unordered(position))
    }

    /// Whether [`Search::key`] ignores the order of some piles of
    /// `position` (and of every position a move makes of it).
    fn unordered(&self, position: &Position) -> bool {
        self.limits.reductions.symmetry && self.game.rows_left(position) == 0
    }

    /// The most runs removed in any position examined so far.
    pub fn best_runs_removed(&self) -> usize {
        self.best_removed
    }

    /// The fewest face-down cards in any position examined so far.
    pub fn fewest_face_down(&self) -> usize {
        self.fewest_face_down
    }

    pub fn elapsed(&self) -> std::time::Duration {
        self.started.elapsed()
    }

    /// A snapshot for progress displays.
    pub fn progress(&self, stage: usize) -> Progress {
        let elapsed = self.started.elapsed();
        Progress {
            positions: self.positions,
            elapsed,
            pass: self.pass_name,
            stage,
            best_runs_removed: self.best_removed,
            fewest_face_down: self.fewest_face_down,
            proof: None,
        }
    }

    /// Explores the stage of `entry`, then deals from its positions, best
    /// first, and solves each next stage.
    fn solve_stage(&mut self, entry: Position, pass: Pass, line: &mut Vec<Move>) -> Outcome {
        let stage = entry.rows_dealt();
        let rows_left = self.game.rows_left(&entry);
        let nodes = match self.explore_stage(entry, pass, line.len()) {
            Ok(Explored::Won(nodes)) => {
                line.extend(path_to(&nodes, nodes.len() - 1));
                self.nodes_alive -= nodes.len() as u64;
                return Outcome::Won(std::mem::take(line));
            }
            Ok(Explored::All(nodes)) => nodes,
            Err(Stopped) => return Outcome::Stopped,
        };
        let outcome = if rows_left == 0 {
            Outcome::Exhausted
        } else {
            self.deal_from(&nodes, stage, pass, line)
        };
        self.nodes_alive -= nodes.len() as u64;
        outcome
    }

    /// Deals from the positions of a stage, best first, and solves each
    /// next stage.
    fn deal_from(
        &mut self,
        nodes: &[Node],
        stage: usize,
        pass: Pass,
        line: &mut Vec<Move>,
    ) -> Outcome {
        let mut candidates: Vec<(i32, u32)> = nodes
            .iter()
            .enumerate()
            .filter(|(_, node)| self.game.check(&node.position, Move::Deal).is_ok())
            .map(|(index, node)| {
                let rank = node.score - pass.move_cost() * node.depth as i32;
                (rank, index as u32)
            })
            .collect();
        // Best score first; among equals, the position found first (fewer
        // moves into the stage).
        candidates.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        if let Pass::Probe { width, .. } = pass {
            candidates.truncate(width);
        }
        for (_, index) in candidates {
            let node = &nodes[index as usize];
            let step = self.game.apply(&node.position, Move::Deal);
            if !step.reveals.is_empty() {
                let length = line.len() + node.depth as usize + 1;
                if self.record_reveals(&step, length).is_err() {
                    return Outcome::Stopped;
                }
                continue;
            }
            if !self.visited.insert(self.key(&step.position)) {
                continue;
            }
            if self.count_position(&step.position, stage).is_err() {
                return Outcome::Stopped;
            }
            let mark = line.len();
            line.extend(path_to(nodes, index as usize));
            line.push(Move::Deal);
            if step.position.is_won() {
                return Outcome::Won(std::mem::take(line));
            }
            match self.solve_stage(step.position, pass, line) {
                Outcome::Exhausted => line.truncate(mark),
                done => return done,
            }
        }
        Outcome::Exhausted
    }

    /// Every position of the stage reachable from `entry` without dealing
    /// (or, for a probe, the best-first part of it within the budget). The
    /// entry must already be in the visited set.
    fn explore_stage(
        &mut self,
        entry: Position,
        pass: Pass,
        prefix: usize,
    ) -> Result<Explored, Stopped> {
        let stage = entry.rows_dealt();
        let (budget, thorough) = match pass {
            Pass::Probe {
                budget, thorough, ..
            }
            | Pass::Beam {
                budget, thorough, ..
            } => (budget, thorough),
            Pass::MoveBeam { .. } => unreachable!("a move beam explores no stage"),
            Pass::Exhaustive => unreachable!("the exhaustive pass is the layered search's"),
        };
        let entry_score = score(&entry);
        let mut nodes = vec![Node {
            position: entry,
            parent: u32::MAX,
            mv: Move::Deal,
            depth: 0,
            score: entry_score,
        }];
        self.nodes_alive += 1;
        let mut moves = Vec::new();
        let mut keyed: Vec<(Move, u8, u8, u64)> = Vec::new();
        let mut frontier = BinaryHeap::new();
        let mut expansions = 0;
        frontier.push((entry_score, std::cmp::Reverse(0u32), Moves::Promising));
        // The positions where `promising` skipped a move, each with its
        // rank: when the promising moves run dry before the budget does,
        // these are expanded again with the moves skipped (see `Moves`).
        let mut skipped: Vec<(i32, u32)> = Vec::new();
        let mut piles = [0i32; PILES];
        loop {
            if expansions == budget {
                self.cut |= !frontier.is_empty();
                break;
            }
            let (index, which) = match frontier.pop() {
                Some((_, std::cmp::Reverse(index), which)) => (index as usize, which),
                None if thorough && !skipped.is_empty() && nodes.len() * NEARLY_EMPTY < budget => {
                    for (rank, index) in skipped.drain(..) {
                        frontier.push((rank, std::cmp::Reverse(index), Moves::Skipped));
                    }
                    continue;
                }
                None => break,
            };
            expansions += 1;
            let position = nodes[index].position.clone();
            let parent_score = nodes[index].score;
            let depth = nodes[index].depth + 1;
            moves.clear();
            let runs = self.game.moves(&position, &mut moves);
            // The parent's pile scores, computed when a child first needs
            // them (bit `pile` of `scored`): most moves touch few piles.
            let mut scored = 0u16;
            // Each successor's key comes from the two piles its move
            // changes, so a successor already visited is never built.
            let hashes = position.pile_hashes(self.unordered(&position));
            let back = self.move_back(&nodes, index);
            let parent_rank = parent_score - pass.move_cost() * (depth as i32 - 1);
            let mut skipped_here = false;
            let starts = position.starts();
            let splits = split_targets(self.game, &position);
            // First the moves this pass plays and their successors' keys,
            // each key's place in the visited set fetched ahead: looking a
            // key up is a cache miss once the stage is large, and the
            // misses of one position's moves then overlap.
            keyed.clear();
            for &mv in &moves {
                let Move::Shift { from, to, count } = mv else {
                    continue;
                };
                if Some(mv) == back {
                    continue;
                }
                if (which == Moves::Promising)
                    != promising_at(&position, &starts, &runs, splits, mv)
                {
                    if thorough && which == Moves::Promising && !skipped_here {
                        skipped_here = true;
                        skipped.push((parent_rank, index as u32));
                    }
                    continue;
                }
                let key = self
                    .game
                    .preview_shift(
                        &position,
                        &hashes,
                        from as usize,
                        to as usize,
                        count as usize,
                    )
                    .key64();
                self.visited.prefetch(key);
                keyed.push((mv, from, to, key));
            }
            for &(mv, from, to, key) in &keyed {
                if self.visited.contains(key) {
                    continue;
                }
                let step = self.game.apply(&position, mv);
                if !step.reveals.is_empty() {
                    self.cut = true;
                    if self.record_reveals(&step, prefix + depth as usize).is_err() {
                        self.nodes_alive -= nodes.len() as u64;
                        return Err(Stopped);
                    }
                    continue;
                }
                debug_assert_eq!(key, self.key(&step.position));
                self.visited.insert(key);
                let won = step.position.is_won();
                let counted = self.count_position(&step.position, stage);
                for pile in [from as usize, to as usize] {
                    if scored & 1 << pile == 0 {
                        piles[pile] = pile_score(&position, pile);
                        scored |= 1 << pile;
                    }
                }
                let child = child_score(
                    parent_score,
                    &piles,
                    &position,
                    &step.position,
                    from as usize,
                    to as usize,
                );
                debug_assert_eq!(child, score(&step.position));
                let mut rank = child - pass.move_cost() * depth as i32;
                if splits != 0 {
                    rank -= barred_empty_piles_cost(&step.position);
                }
                frontier.push((
                    rank,
                    std::cmp::Reverse(nodes.len() as u32),
                    Moves::Promising,
                ));
                nodes.push(Node {
                    position: step.position,
                    parent: index as u32,
                    mv,
                    depth,
                    score: child,
                });
                self.nodes_alive += 1;
                if won {
                    return Ok(Explored::Won(nodes));
                }
                if counted.is_err() {
                    self.nodes_alive -= nodes.len() as u64;
                    return Err(Stopped);
                }
            }
        }
        Ok(Explored::All(nodes))
    }

    /// The move that takes `nodes[index]` straight back to its parent, when
    /// there is one: the move that reached it, reversed, if that move
    /// turned no card up and removed no run. Its child is the parent
    /// itself, already in the visited set, so skipping it without playing
    /// it skips exactly what deduplication would (an eighth to a third of
    /// the duplicates a search meets, measured on hard 4-suit deals).
    fn move_back(&self, nodes: &[Node], index: usize) -> Option<Move> {
        let node = &nodes[index];
        let Move::Shift { from, to, count } = node.mv else {
            return None;
        };
        let parent = &nodes.get(node.parent as usize)?.position;
        let same = parent.face_down_count(from as usize)
            == node.position.face_down_count(from as usize)
            && parent.runs_removed() == node.position.runs_removed();
        same.then_some(Move::Shift {
            from: to,
            to: from,
            count,
        })
    }

    fn record_reveals(&mut self, step: &crate::game::Step, length: usize) -> Result<(), Stopped> {
        for place in self.game.revealed_places(step) {
            let fewest = self.reveals.entry(place).or_insert(length);
            *fewest = (*fewest).min(length);
        }
        if self.reveals.len() >= self.reveal_target {
            return self.stop(StopReason::UnknownCards);
        }
        Ok(())
    }

    /// Counts a new position and checks the limits.
    fn count_position(&mut self, position: &Position, stage: usize) -> Result<(), Stopped> {
        self.positions += 1;
        self.best_removed = self.best_removed.max(position.runs_removed());
        self.fewest_face_down = self.fewest_face_down.min(position.face_down_total());
        for (pile, fewest) in self.fewest_per_pile.iter_mut().enumerate() {
            *fewest = (*fewest).min(position.face_down_count(pile) as u8);
        }
        if self
            .limits
            .max_positions
            .is_some_and(|max| self.positions >= max)
        {
            return self.stop(StopReason::Positions);
        }
        if self
            .pass_cap
            .is_some_and(|cap| self.positions - self.pass_first >= cap)
        {
            self.capped = true;
            return Err(Stopped);
        }
        if self.positions & 0xfff == 0 {
            if self.cancel.load(Ordering::Relaxed) {
                return self.stop(StopReason::Cancelled);
            }
            if self
                .limits
                .time_limit
                .is_some_and(|limit| self.started.elapsed() >= limit)
            {
                return self.stop(StopReason::Time);
            }
            let memory = self.memory_estimate();
            self.peak_memory = self.peak_memory.max(memory);
            if self
                .limits
                .memory_limit
                .is_some_and(|limit| memory >= limit)
            {
                return self.stop(StopReason::Memory);
            }
            if crate::explore::memory::machine_low() {
                return self.stop(StopReason::MachineMemory);
            }
            if self.positions >= self.next_report {
                self.next_report = self.positions + (1 << 16);
                (self.progress)(&self.progress(stage));
            }
        }
        Ok(())
    }

    /// Bytes the search holds: the visited set, the stage positions on
    /// the current line and what a move beam keeps.
    pub fn memory_estimate(&self) -> u64 {
        self.visited.bytes() + self.nodes_alive * NODE_BYTES + self.move_beam_kept * MOVE_BEAM_BYTES
    }

    fn stop(&mut self, reason: StopReason) -> Result<(), Stopped> {
        self.stopped = Some(reason);
        Err(Stopped)
    }
}

/// A limit stopped the search.
struct Stopped;

/// The moves from the stage's entry to `nodes[index]`.
fn path_to(nodes: &[Node], mut index: usize) -> Vec<Move> {
    let mut moves = Vec::with_capacity(nodes[index].depth as usize);
    while nodes[index].parent != u32::MAX {
        moves.push(nodes[index].mv);
        index = nodes[index].parent as usize;
    }
    moves.reverse();
    moves
}
