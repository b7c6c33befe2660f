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

    /// The exhaustive pass: the layered search of every position reachable
    /// from the start (see [`super::exhaustive`]), on the current rayon
    /// pool, under what is left of the limits and the pass's cap. A win's
    /// line is recovered by a second search that keeps parent links.
    fn exhaustive(&mut self) -> Outcome {
        let mut reductions = self.limits.reductions;
        reductions.room = reductions.room.for_pass(self.pass_cap);
        // The test of the first empty pile takes 8 to 90 times the CPU a
        // position where rows are left (docs/proofs.md, *The first empty
        // pile*): only in the last pass, which runs after the guided
        // passes, so that it never holds them up.
        reductions.first_empty &= self.pass_cap.is_none();
        // The pass on disk splits its layers (a smaller seen set in
        // memory); the same positions are examined either way.
        let on_disk = self.limits.disk.is_some() && self.pass_cap.is_none();
        // A search resumed from a checkpoint or from disk would start with
        // nothing learned, and could then examine other positions than the
        // search that was not stopped: no learned conflicts where it saves
        // (the rounds on disk may also run as other processes). Where it
        // was tried on disk, in one process with what a round learned made
        // visible to the next, `r1-g5010`'s rounds took 1.6 times as long
        // (docs/proofs.md, Learned conflicts).
        let learns = self.limits.checkpoint.is_none() && !on_disk;
        reductions.learn &= learns;
        // The same for the states the first empty pile's test learns
        // (`first_empty::Learned`).
        let problem = ExhaustiveProblem::with_reductions(self.game, reductions)
            .split_layers(on_disk)
            .first_empty_learns(learns);
        let time = self
            .limits
            .time_limit
            .map(|limit| limit.saturating_sub(self.started.elapsed()));
        let left = self
            .limits
            .max_positions
            .map(|max| max.saturating_sub(self.positions));
        let cap = self.pass_cap;
        let max_positions = match (left, cap) {
            (Some(left), Some(cap)) => Some(left.min(cap)),
            (left, cap) => left.or(cap),
        };
        let limits = crate::explore::Limits {
            max_positions,
            time,
            max_memory: self.limits.memory_limit,
            cancel: None,
        };
        let game = self.game;
        let reveal_target = self.reveal_target;
        let reveals = RefCell::new(std::mem::take(&mut self.reveals));
        let progress = self.progress;
        let (before, started) = (self.positions, self.started);
        let (best_removed, fewest_face_down) = (self.best_removed, self.fewest_face_down);
        let mut search = Layered::new(&problem)
            .limits(limits.clone())
            .cancel_flag(self.cancel)
            .on_leaf(|visit, depth| {
                let step = &visit.step;
                let mut reveals = reveals.borrow_mut();
                for place in game.revealed_places(step) {
                    let fewest = reveals.entry(place).or_insert(depth as usize);
                    *fewest = (*fewest).min(depth as usize);
                }
                if reveals.len() >= reveal_target {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            })
            .on_progress(|stats| {
                progress(&Progress {
                    positions: before + stats.positions,
                    elapsed: started.elapsed(),
                    pass: "exhaustive",
                    stage: stats
                        .layers
                        .last()
                        .map_or(0, |l| LayerKey::decode(l.layer).rows_dealt),
                    best_runs_removed: best_removed,
                    fewest_face_down,
                    proof: Some(proof_progress(stats, true)),
                })
            });
        // Only the last pass, the proof, is saved: the capped passes are
        // short, and they test other entries (`RoomTest::for_pass`), so
        // their layers are not the last pass's.
        let disk = self.limits.disk.clone().filter(|_| self.pass_cap.is_none());
        if let Some(dir) = self
            .limits
            .checkpoint
            .as_ref()
            .filter(|_| self.pass_cap.is_none())
            .or(disk.as_ref().map(|d| &d.dir))
        {
            // The search is this game, with these reductions.
            let id = format!(
                "spider analyze, exhaustive pass, game {:032x}, {}",
                crate::explore::fingerprint_of(&format!("{game:?}")),
                checkpoint_settings(&reductions)
            );
            search = match disk {
                Some(options) => search.disk(options, id),
                None => search.checkpoint(dir, id),
            };
            search = search.checkpoint_note(
                || checkpoint_note(&reveals.borrow(), &problem.fewest_per_pile()),
                |note| {
                    let (restored, fewest) = read_checkpoint_note(note);
                    let mut reveals = reveals.borrow_mut();
                    for (place, depth) in restored {
                        let known = reveals.entry(place).or_insert(depth);
                        *known = (*known).min(depth);
                    }
                    if let Some(fewest) = fewest {
                        problem.note_fewest_per_pile(fewest);
                    }
                },
            );
        }
        let outcome = search.run();
        self.reveals = reveals.into_inner();
        let outcome = match outcome {
            Ok(outcome) => outcome,
            Err(error) => {
                self.checkpoint_error = Some(error);
                return Outcome::Stopped;
            }
        };
        let stats = &outcome.stats;
        self.proof = Some(proof_progress(
            stats,
            !matches!(outcome.end, End::Exhausted),
        ));
        self.positions += stats.positions;
        self.dead_ends += stats.dead;
        self.exhaustive_memory = stats.peak_memory_bytes;
        for (fewest, seen) in self
            .fewest_per_pile
            .iter_mut()
            .zip(problem.fewest_per_pile())
        {
            *fewest = (*fewest).min(seen);
        }
        for layer in stats.layers.iter().filter(|l| l.positions > l.leaves) {
            let key = LayerKey::decode(layer.layer);
            self.best_removed = self.best_removed.max(key.runs_removed);
            self.fewest_face_down = self.fewest_face_down.min(key.face_down);
        }
        match outcome.end {
            End::Exhausted => Outcome::Exhausted,
            End::GoalFound => {
                let goal = outcome.goal.expect("a goal found comes with its state");
                // Time and Ctrl-C only: the line search keeps parent links,
                // so it may store more than the pass's cap allowed.
                let line = Layered::new(&problem)
                    .limits(crate::explore::Limits {
                        time: limits.time,
                        ..crate::explore::Limits::default()
                    })
                    .cancel_flag(self.cancel)
                    .line_to(goal.fingerprint);
                match line {
                    Some(line) => Outcome::Won(line),
                    None => {
                        self.stopped = Some(if self.cancel.load(Ordering::Relaxed) {
                            StopReason::Cancelled
                        } else {
                            StopReason::Time
                        });
                        Outcome::Stopped
                    }
                }
            }
            End::Stopped(reason) => {
                let positions = stats.positions;
                if reason == EngineStop::Positions
                    && cap.is_some_and(|cap| positions >= cap)
                    && left.is_none_or(|left| cap.is_some_and(|cap| cap <= left))
                {
                    self.capped = true;
                    if let Some(proof) = self.proof.as_mut() {
                        proof.cap = cap;
                    }
                    return Outcome::Stopped;
                }
                self.stopped = Some(match reason {
                    EngineStop::Positions => StopReason::Positions,
                    EngineStop::Time => StopReason::Time,
                    EngineStop::Memory => StopReason::Memory,
                    EngineStop::MachineMemory => StopReason::MachineMemory,
                    EngineStop::Cancelled => StopReason::Cancelled,
                    EngineStop::Callback => StopReason::UnknownCards,
                    EngineStop::Disk => StopReason::Disk,
                });
                Outcome::Stopped
            }
        }
    }

    /// The move beam pass (see [`Pass::MoveBeam`]): every position it
    /// keeps is counted, so the limits stop it as they stop the others.
    fn move_beam(&mut self, width: usize, thorough: bool, breaks_only: bool) -> Outcome {
        let (game, cancel) = (self.game, self.cancel);
        let mut stopped = false;
        let mut count = |position: &Position| {
            self.move_beam_kept += 1;
            stopped = self
                .count_position(position, position.rows_dealt())
                .is_err();
            !stopped
        };
        let won = super::improve::win_by_move_beam(
            game,
            width,
            thorough,
            breaks_only,
            cancel,
            &mut count,
        );
        self.peak_memory = self.peak_memory.max(self.memory_estimate());
        self.move_beam_kept = 0;
        match won {
            Some(line) => Outcome::Won(line),
            None if stopped || cancel.load(Ordering::Relaxed) => {
                if self.stopped.is_none() && !self.capped {
                    self.stopped = Some(StopReason::Cancelled);
                }
                Outcome::Stopped
            }
            None => Outcome::Exhausted,
        }
    }

    /// The beam pass: stage by stage, the `width` best entries (by the score
    /// of the position just dealt) are explored and dealt from.
    fn beam(
        &mut self,
        start: Position,
        budget: usize,
        width: usize,
        move_cost: i32,
        lookahead: usize,
        thorough: bool,
    ) -> Outcome {
        let probe = Pass::Probe {
            budget,
            width,
            move_cost,
            thorough,
        };
        // How many dealt positions compete for the next stage's entries.
        let pool = if lookahead > 0 {
            width * LOOKAHEAD_POOL
        } else {
            width
        };
        let mut entries = vec![(start, Vec::new())];
        while !entries.is_empty() {
            // Positions of different stages differ (in rows dealt), so the
            // beam needs only this stage's positions in its visited set: a
            // fresh set per stage stays small, and faster to look up.
            self.visited = KeySet::default();
            for (entry, _) in &entries {
                self.visited.insert(self.key(entry));
            }
            let stage = entries[0].0.rows_dealt();
            let rows_left = self.game.rows_left(&entries[0].0);
            // The best `width` dealt positions so far, worst on top, each
            // with its line; only these are kept, not the stages explored.
            let mut best: BinaryHeap<std::cmp::Reverse<Candidate>> = BinaryHeap::new();
            let mut order = 0u64;
            for (entry, entry_line) in &entries {
                let nodes = match self.explore_stage(entry.clone(), probe, 0) {
                    Ok(Explored::Won(nodes)) => {
                        let mut line = entry_line.clone();
                        line.extend(path_to(&nodes, nodes.len() - 1));
                        self.nodes_alive -= nodes.len() as u64;
                        return Outcome::Won(line);
                    }
                    Ok(Explored::All(nodes)) => nodes,
                    Err(Stopped) => return Outcome::Stopped,
                };
                for (index, node) in nodes.iter().enumerate() {
                    if rows_left == 0 || self.game.check(&node.position, Move::Deal).is_err() {
                        continue;
                    }
                    // Among equal scores, the one found first. Most dealt
                    // positions do not make the cut: score them without
                    // playing the deal, and play it only for those that do.
                    order += 1;
                    let length_cost = move_cost * (entry_line.len() as i32 + node.depth as i32);
                    let quick = score_after_deal(self.game, &node.position, node.score)
                        .map(|dealt| dealt - length_cost);
                    let falls_short = |dealt: i32| {
                        best.len() == pool
                            && best
                                .peek()
                                .is_some_and(|worst| (dealt, u64::MAX - order) <= worst.0.rank)
                    };
                    if quick.is_some_and(falls_short) {
                        self.cut = true;
                        continue;
                    }
                    let step = self.game.apply(&node.position, Move::Deal);
                    if !step.reveals.is_empty() {
                        self.cut = true;
                        let length = entry_line.len() + node.depth as usize + 1;
                        if self.record_reveals(&step, length).is_err() {
                            self.nodes_alive -= (nodes.len() + best.len()) as u64;
                            return Outcome::Stopped;
                        }
                        continue;
                    }
                    let dealt = quick.unwrap_or_else(|| score(&step.position) - length_cost);
                    debug_assert_eq!(dealt, score(&step.position) - length_cost);
                    if falls_short(dealt) {
                        self.cut = true;
                        continue;
                    }
                    let rank = (dealt, u64::MAX - order);
                    let mut line = entry_line.clone();
                    line.extend(path_to(&nodes, index));
                    line.push(Move::Deal);
                    best.push(std::cmp::Reverse(Candidate {
                        rank,
                        position: step.position,
                        line,
                    }));
                    self.nodes_alive += 1;
                    if best.len() > pool {
                        self.cut = true;
                        best.pop();
                        self.nodes_alive -= 1;
                    }
                }
                self.nodes_alive -= nodes.len() as u64;
            }
            self.nodes_alive -= best.len() as u64;
            let mut chosen: Vec<Candidate> = best.into_iter().map(|c| c.0).collect();
            chosen.sort_by_key(|c| std::cmp::Reverse(c.rank));
            let mut next = Vec::with_capacity(chosen.len());
            for Candidate { position, line, .. } in chosen {
                if !self.visited.insert(self.key(&position)) {
                    continue;
                }
                if self.count_position(&position, stage).is_err() {
                    return Outcome::Stopped;
                }
                if position.is_won() {
                    return Outcome::Won(line);
                }
                next.push((position, line));
            }
            if lookahead > 0 {
                match self.look_ahead(next, lookahead, move_cost, width, thorough) {
                    Ok(Looked::Won(line)) => return Outcome::Won(line),
                    Ok(Looked::Best(best)) => next = best,
                    Err(Stopped) => return Outcome::Stopped,
                }
            }
            entries = next;
        }
        Outcome::Exhausted
    }

    /// Judges each dealt position by a short best-first exploration of its
    /// stage (`budget` expansions, each in a visited set of its own so that
    /// one does not starve another): its value is the best score met, less
    /// `move_cost` per move of the line to it. Keeps the `width` best, in
    /// order, or returns the line of a win met on the way.
    fn look_ahead(
        &mut self,
        dealt: Vec<(Position, Vec<Move>)>,
        budget: usize,
        move_cost: i32,
        width: usize,
        thorough: bool,
    ) -> Result<Looked, Stopped> {
        let probe = Pass::Probe {
            budget,
            width,
            move_cost,
            thorough,
        };
        // A look stopped at its budget leaves nothing out: the positions
        // kept are explored in full in the next stage.
        let cut = self.cut;
        let mut valued = Vec::with_capacity(dealt.len());
        for (order, (position, line)) in dealt.into_iter().enumerate() {
            self.visited = KeySet::default();
            self.visited.insert(self.key(&position));
            let nodes = match self.explore_stage(position.clone(), probe, line.len())? {
                Explored::Won(nodes) => {
                    let mut won = line;
                    won.extend(path_to(&nodes, nodes.len() - 1));
                    self.nodes_alive -= nodes.len() as u64;
                    return Ok(Looked::Won(won));
                }
                Explored::All(nodes) => nodes,
            };
            self.nodes_alive -= nodes.len() as u64;
            let value = nodes
                .iter()
                .map(|node| node.score - move_cost * (line.len() as i32 + node.depth as i32))
                .max()
                .unwrap_or(i32::MIN);
            valued.push((value, std::cmp::Reverse(order), position, line));
        }
        // Best value first; among equals, the better dealt score (the
        // order the candidates came in).
        valued.sort_by_key(|entry| std::cmp::Reverse((entry.0, entry.1)));
        self.cut = cut || valued.len() > width;
        valued.truncate(width);
        Ok(Looked::Best(
            valued
                .into_iter()
                .map(|(_, _, position, line)| (position, line))
                .collect(),
        ))
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

/// How far a layered search got: `running` when its last layer is not
/// finished. The estimate of what is left is made per whole layer
/// ([`crate::game::whole_layer_of`]), whatever layers the search split: it
/// multiplies the entries of the current whole layer and the queued
/// positions by the growth of the whole layers so far (positions per
/// entry), the higher of the finished ones' and the current one's (which
/// only grows). A whole layer's entries are those that came from another
/// whole layer ([`LayerStats::entries_across`]), and so are the queued
/// positions counted: a split layer's entries from a split layer of the
/// same whole layer, and the positions queued there, are the whole layer's
/// growth, which the search in whole layers finds in the layer itself.
/// Counted per split layer, the growth was far too low (docs/engine.md).
fn proof_progress(stats: &crate::explore::layered::LayeredStats, running: bool) -> ProofProgress {
    let (finished, current) = match stats.layers.split_last() {
        Some((last, rest)) if running => (rest, Some(last)),
        _ => (&stats.layers[..], None),
    };
    // Whole layers: positions and entries from another whole layer.
    let whole_of = |l: &LayerStats| crate::game::whole_layer_key(l.layer);
    let across = |l: &LayerStats| l.entries_across.unwrap_or(l.entries);
    let (done_layers, now_layers): (Vec<&LayerStats>, Vec<&LayerStats>) = match current {
        Some(current) => stats
            .layers
            .iter()
            .partition(|l| whole_of(l) != whole_of(current)),
        None => (stats.layers.iter().collect(), Vec::new()),
    };
    let totals = |layers: &[&LayerStats]| {
        (
            layers.iter().map(|l| l.positions).sum::<u64>(),
            layers.iter().map(|l| across(l)).sum::<u64>(),
        )
    };
    let growth = |(positions, entries): (u64, u64)| positions as f64 / entries.max(1) as f64;
    let done = growth(totals(&done_layers));
    let (now_positions, now_entries) = totals(&now_layers);
    let now = current.map_or(0.0, |_| growth((now_positions, now_entries)));
    let rate = growth((stats.positions, 1)) / stats.elapsed.as_secs_f64().max(1e-3);
    let g = done.max(now).max(1.0);
    let rest_of_layer = current.map_or(0.0, |_| {
        (now_entries as f64 * g - now_positions as f64).max(0.0)
    });
    ProofProgress {
        layers_finished: finished.len(),
        layer: current.map(|l| LayerKey::decode(l.layer)),
        positions: stats.positions,
        dead_ends: stats.dead,
        queued: stats.queued,
        estimate_left: (rest_of_layer + stats.queued_across as f64 * g) as u64,
        rate,
        threads: stats.threads,
        seen_dropped: stats.seen_dropped,
        rounds_split: stats.rounds_split,
        cap: None,
    }
}

/// A limit stopped the search.
struct Stopped;

/// A position just dealt that a beam may take on, ranked by score (then by
/// the order it was found, earlier first), with the line to it.
struct Candidate {
    rank: (i32, u64),
    position: Position,
    line: Vec<Move>,
}

impl PartialEq for Candidate {
    fn eq(&self, other: &Self) -> bool {
        self.rank == other.rank
    }
}

impl Eq for Candidate {}

impl PartialOrd for Candidate {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Candidate {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.rank.cmp(&other.rank)
    }
}

/// What a beam's lookahead found: a win, or the dealt positions to keep.
enum Looked {
    Won(Vec<Move>),
    Best(Vec<(Position, Vec<Move>)>),
}

/// The positions of an explored stage; when a win was met, it is the last.
enum Explored {
    Won(Vec<Node>),
    All(Vec<Node>),
}

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

/// The solver's note in an exhaustive pass's checkpoint: a line per `XX`
/// slot turned up (`d PILE INDEX DEPTH` for a face-down card, `s ROW PILE
/// DEPTH` for a stock card) and one with the fewest face-down cards on
/// each pile (`fewest N N ...`).
fn checkpoint_note(reveals: &BTreeMap<Place, usize>, fewest: &[u8; PILES]) -> String {
    let mut note = String::new();
    for (place, depth) in reveals {
        match *place {
            Place::FaceDown { pile, index } => {
                note.push_str(&format!("d {pile} {index} {depth}\n"))
            }
            Place::Stock { row, pile } => note.push_str(&format!("s {row} {pile} {depth}\n")),
            _ => {}
        }
    }
    note.push_str("fewest");
    for n in fewest {
        note.push_str(&format!(" {n}"));
    }
    note.push('\n');
    note
}

/// What [`checkpoint_note`] wrote (lines it does not know are skipped).
fn read_checkpoint_note(note: &str) -> (Vec<(Place, usize)>, Option<[u8; PILES]>) {
    let mut reveals = Vec::new();
    let mut fewest = None;
    for line in note.lines() {
        let mut words = line.split_whitespace();
        let kind = words.next();
        let numbers: Vec<usize> = words.filter_map(|w| w.parse().ok()).collect();
        match (kind, numbers.as_slice()) {
            (Some("d"), &[pile, index, depth]) => {
                reveals.push((Place::FaceDown { pile, index }, depth))
            }
            (Some("s"), &[row, pile, depth]) => reveals.push((Place::Stock { row, pile }, depth)),
            (Some("fewest"), counts) if counts.len() == PILES => {
                fewest = Some(std::array::from_fn(|pile| counts[pile].min(255) as u8))
            }
            _ => {}
        }
    }
    (reveals, fewest)
}

/// The reductions as a checkpoint names them: as `Debug` writes them,
/// without the dead-end test's deal rule when it is off
/// ([`Reductions::deals_fill`], added on 2026-11-27), so that a checkpoint
/// written before the rule existed, which searched without it, still
/// resumes.
fn checkpoint_settings(reductions: &Reductions) -> String {
    let mut settings = format!("{reductions:?}");
    if !reductions.first_empty {
        settings = settings.replace(", first_empty: false", "");
    }
    if reductions.deals_fill || reductions.first_empty {
        settings
    } else {
        settings.replace(", deals_fill: false", "")
    }
}

#[cfg(test)]
mod tests {
    use super::super::heuristic::promising;
    use super::*;
    use crate::cards::SuitCount;
    use crate::deal::{Rules, numbered};
    use std::collections::HashSet;

    /// A checkpoint's name for the reductions is what it was before the
    /// deal rule existed, as long as the rule is off: checkpoints of
    /// earlier builds still resume. With the rule on it is another search.
    #[test]
    fn checkpoints_of_earlier_builds_still_resume() {
        use super::super::prune::RoomTest;
        assert_eq!(
            checkpoint_settings(&Reductions::DEFAULT),
            "Reductions { dead_ends: true, dead_ends_everywhere: false, room: Last, \
             symmetry: true, make_way: true, learn: false }"
        );
        let with = Reductions {
            deals_fill: true,
            room: RoomTest::Entries,
            ..Reductions::DEFAULT
        };
        assert!(checkpoint_settings(&with).ends_with(", learn: false, deals_fill: true }"));
    }

    /// The estimate of the positions left is made per whole layer: a
    /// search in split layers gives the one the same search in whole layers
    /// gives. Whole layers A, B (finished) and C (running): A met 1 entry
    /// and holds 10 positions, B 4 and 40, C 6 and 12 so far, and 5
    /// positions wait in later layers: growth 50 / 5 = 10 an entry, so 6 ×
    /// 10 − 12 = 48 left in C and 5 × 10 = 50 later, 98. Split: A in two
    /// parts (4 + 6 positions; the second met 3 entries, all from the
    /// first), B in two (25 + 15; 5 and 4 entries, 3 and 1 of them from
    /// A), C's first two parts (8 + 4; 4 and 2 entries, 4 and 1 from B),
    /// and a third part of C waits with 1 state from B and 2 from C: 8
    /// positions wait, 6 from other whole layers. C: 5 × 10 − 12 = 38
    /// left, and 6 × 10 = 60 later, 98 again. Counted per split layer as
    /// before, the growth was 58 / 17 and the estimate 30.
    #[test]
    fn the_estimate_left_is_made_per_whole_layer() {
        use crate::explore::layered::LayeredStats;
        // Layer keys: 40, 39 and 38 cards face down, `out_of_order` pairs
        // out of order (none: the whole layer's key).
        let key = |face_down: u64, out_of_order: u64| (255 - face_down) << 8 | (255 - out_of_order);
        let layer = |layer, entries, across, positions| LayerStats {
            layer,
            entries,
            entries_across: Some(across),
            positions,
            ..LayerStats::default()
        };
        let stats = |layers: Vec<LayerStats>, queued, queued_across| LayeredStats {
            positions: layers.iter().map(|l| l.positions).sum(),
            layers,
            queued,
            queued_across,
            elapsed: std::time::Duration::from_secs(1),
            ..LayeredStats::default()
        };
        let whole = stats(
            vec![
                layer(key(40, 0), 1, 1, 10),
                layer(key(39, 0), 4, 4, 40),
                layer(key(38, 0), 6, 6, 12),
            ],
            5,
            5,
        );
        let split = stats(
            vec![
                layer(key(40, 5), 1, 1, 4),
                layer(key(40, 3), 3, 0, 6),
                layer(key(39, 7), 5, 3, 25),
                layer(key(39, 2), 4, 1, 15),
                layer(key(38, 6), 4, 4, 8),
                layer(key(38, 4), 2, 1, 4),
            ],
            8,
            6,
        );
        // Whole layers read from a checkpoint written before the entries
        // from other whole layers were counted: all their entries are.
        let mut older = whole.clone();
        for l in &mut older.layers[..2] {
            l.entries_across = None;
        }
        assert_eq!(proof_progress(&older, true).estimate_left, 98);
        let (whole, split) = (proof_progress(&whole, true), proof_progress(&split, true));
        assert_eq!(whole.estimate_left, 98);
        assert_eq!(split.estimate_left, 98);
        assert_eq!((whole.queued, split.queued), (5, 8));
        assert_eq!((whole.layers_finished, split.layers_finished), (2, 5));
        assert_eq!(split.layer.unwrap().out_of_order, 4);
        // Finished: nothing is left but what is queued (none).
        let done = stats(vec![layer(key(40, 0), 1, 1, 10)], 0, 0);
        assert_eq!(proof_progress(&done, false).estimate_left, 0);
    }

    /// The solver's note in a checkpoint reads back as it was written:
    /// the reveals with their line lengths and the fewest face-down cards
    /// per pile (a resumed proof reports them as an uninterrupted one).
    #[test]
    fn the_checkpoint_note_reads_back() {
        let reveals = BTreeMap::from([
            (Place::FaceDown { pile: 3, index: 2 }, 17),
            (Place::Stock { row: 4, pile: 10 }, 250),
        ]);
        let fewest = [0, 1, 2, 3, 4, 5, 0, 0, 1, 5];
        let note = checkpoint_note(&reveals, &fewest);
        let (read, read_fewest) = read_checkpoint_note(&note);
        assert_eq!(read.into_iter().collect::<BTreeMap<_, _>>(), reveals);
        assert_eq!(read_fewest, Some(fewest));
        assert_eq!(read_checkpoint_note(""), (Vec::new(), None));
    }

    fn run(deal: &crate::deal::Deal, pass: Pass) -> Outcome {
        let game = Game::new(deal).unwrap();
        let limits = Limits::default();
        let cancel = AtomicBool::new(false);
        let mut search = Search::new(&game, &limits, &cancel, &|_| {});
        let outcome = search.run(pass);
        if let Outcome::Won(line) = &outcome {
            super::super::verify(&game, line).unwrap();
        }
        outcome
    }

    /// A position of the ladder corpus (`benches/ladder/NAME.yaml`).
    fn ladder(name: &str) -> crate::deal::Deal {
        let path = format!("{}/benches/ladder/{name}.yaml", env!("CARGO_MANIFEST_DIR"));
        crate::deal::load(path.as_ref()).unwrap()
    }

    #[test]
    fn a_beam_wins_fresh_deals() {
        for number in 1..=3 {
            let deal = numbered::deal(number, SuitCount::Two, Rules::Standard);
            let pass = Pass::Beam {
                budget: 2_000,
                width: 20,
                move_cost: 0,
                lookahead: 0,
                thorough: false,
            };
            assert!(matches!(run(&deal, pass), Outcome::Won(_)), "deal {number}");
        }
    }

    /// A ladder position (PySol 5007, two stock rows left) that the stage
    /// beams win only at their widest (about 43 M positions): a move beam
    /// of 2,000 wins it, its line replayed by the rules; one of 1,000 does
    /// not, and a position limit stops a move beam without a verdict.
    #[test]
    fn a_move_beam_wins_where_the_stage_beams_take_long() {
        let deal = ladder("r2-g5007");
        assert!(matches!(
            run(
                &deal,
                Pass::MoveBeam {
                    width: 2_000,
                    thorough: false,
                    breaks_only: false,
                }
            ),
            Outcome::Won(_)
        ));
        assert!(matches!(
            run(
                &deal,
                Pass::MoveBeam {
                    width: 1_000,
                    thorough: false,
                    breaks_only: false,
                }
            ),
            Outcome::Exhausted
        ));
        let game = Game::new(&deal).unwrap();
        let limits = Limits {
            max_positions: Some(10_000),
            ..Limits::default()
        };
        let cancel = AtomicBool::new(false);
        let mut search = Search::new(&game, &limits, &cancel, &|_| {});
        assert!(matches!(
            search.run(Pass::MoveBeam {
                width: 2_000,
                thorough: false,
                breaks_only: false,
            }),
            Outcome::Stopped
        ));
        assert_eq!(search.stopped, Some(StopReason::Positions));
        assert_eq!(search.positions, 10_000);
    }

    /// A ladder position (PySol 5013, one stock row left) that needs a move
    /// the favoured ones leave out: the thorough move beam of 500 wins it
    /// (the schedule's stage beams took 174 s), the favoured one does not.
    #[test]
    fn a_thorough_move_beam_plays_the_moves_the_others_skip() {
        let deal = ladder("r1-g5013");
        let beam = |thorough| Pass::MoveBeam {
            width: 500,
            thorough,
            breaks_only: false,
        };
        assert!(matches!(run(&deal, beam(true)), Outcome::Won(_)));
        assert!(matches!(run(&deal, beam(false)), Outcome::Exhausted));
    }

    /// `r0-g5005` (no stock left, 33 cards face down) was the one rung-0
    /// position of the ladder no pass decided. A thorough move beam of
    /// 4,000 wins it (one of 2,000 gives up at depth 139, having found no
    /// better position after depth 38), and no beam of favoured moves
    /// can: they reach two positions.
    #[test]
    #[ignore = "slow: runs with `cargo test -- --ignored` (CI runs it)"]
    fn a_wide_thorough_move_beam_wins_a_position_without_stock() {
        let deal = ladder("r0-g5005");
        let beam = |width, thorough| Pass::MoveBeam {
            width,
            thorough,
            breaks_only: false,
        };
        assert!(matches!(run(&deal, beam(4_000, true)), Outcome::Won(_)));
        assert!(matches!(run(&deal, beam(2_000, true)), Outcome::Exhausted));
        assert!(matches!(run(&deal, beam(4_000, false)), Outcome::Exhausted));
    }

    /// `r2-g5011` (two stock rows left, 39 cards face down) is won by a
    /// thorough move beam of 4,000 ranked by the breaks alone, and by
    /// neither the same beam ranked with the bound on the moves needed
    /// nor the narrower one by the breaks alone.
    #[test]
    #[ignore = "slow: runs with `cargo test -- --ignored` (CI runs it)"]
    fn a_move_beam_ranked_by_the_breaks_alone_wins_where_the_bound_misleads() {
        let deal = ladder("r2-g5011");
        let beam = |width, breaks_only| Pass::MoveBeam {
            width,
            thorough: true,
            breaks_only,
        };
        assert!(matches!(run(&deal, beam(4_000, true)), Outcome::Won(_)));
        assert!(matches!(run(&deal, beam(2_000, true)), Outcome::Exhausted));
        assert!(matches!(run(&deal, beam(4_000, false)), Outcome::Exhausted));
    }

    /// A stuck player's position (PySol 5006 with three stock rows left,
    /// from the ladder corpus) where the promising moves run dry after 15
    /// positions: only a lateral move opens the stage (to over a million
    /// positions). The plain beam 2,000 × 10 ends without a win; the same
    /// beam made thorough goes on with the skipped moves and wins. (The
    /// player's own line shows a win exists: it reaches the position two
    /// rows left, which the schedule wins.)
    #[test]
    fn a_thorough_beam_goes_on_where_the_promising_moves_run_dry() {
        let deal = ladder("r3-g5006");
        let beam = |thorough| Pass::Beam {
            budget: 2_000,
            width: 10,
            move_cost: 0,
            lookahead: 0,
            thorough,
        };
        assert!(matches!(run(&deal, beam(false)), Outcome::Exhausted));
        assert!(matches!(run(&deal, beam(true)), Outcome::Won(_)));
    }

    /// The positions reachable from the start by the moves probes and
    /// beams favour and by deals, counted by a plain breadth-first search
    /// under the beams' key (rows dealt apart). `None` if one is won.
    fn favoured_closure(game: &Game) -> Option<u64> {
        let mut seen = HashSet::new();
        let start = game.start().clone();
        seen.insert((start.rows_dealt(), game.key64(&start)));
        let mut queue = std::collections::VecDeque::from([start]);
        let mut moves = Vec::new();
        while let Some(position) = queue.pop_front() {
            moves.clear();
            let runs = game.moves(&position, &mut moves);
            for &mv in &moves {
                if mv != Move::Deal && !promising(game, &position, &runs, mv) {
                    continue;
                }
                let next = game.apply(&position, mv).position;
                if next.is_won() {
                    return None;
                }
                if seen.insert((next.rows_dealt(), game.key64(&next))) {
                    queue.push_back(next);
                }
            }
        }
        Some(seen.len() as u64)
    }

    /// A stuck player's position (PySol 5004 with one stock row left and
    /// 41 face-down cards) whose favoured moves reach few positions, none
    /// won. A narrow beam leaves dealt positions out and claims nothing; a
    /// wide one searches them all and says so, with exactly the count of a
    /// plain breadth-first search of those moves.
    #[test]
    fn a_beam_that_leaves_nothing_out_says_so() {
        let deal = ladder("r1-g5004");
        let game = Game::new(&deal).unwrap();
        let limits = Limits::default();
        let cancel = AtomicBool::new(false);
        let beam = |budget, width| Pass::Beam {
            budget,
            width,
            move_cost: 0,
            lookahead: 0,
            thorough: false,
        };
        let mut search = Search::new(&game, &limits, &cancel, &|_| {});
        assert!(matches!(search.run(beam(2_000, 10)), Outcome::Exhausted));
        assert_eq!(search.favoured_exhausted, None);
        let closure = favoured_closure(&game).expect("no favoured line wins");
        assert_eq!(closure, 25_718);
        let mut search = Search::new(&game, &limits, &cancel, &|_| {});
        assert!(matches!(
            search.run(beam(100_000, 100_000)),
            Outcome::Exhausted
        ));
        assert_eq!(search.favoured_exhausted, Some(closure));
    }

    /// PySol game 17 is one of the hard deals: the beam 1,000 × 200 ends
    /// without a win, while the same beam judging its dealt positions by a
    /// lookahead of 300 expansions wins it (in about a second, release
    /// build). The lookahead changes which positions the beam keeps.
    #[test]
    #[ignore = "slow: runs with `cargo test -- --ignored` (CI runs it)"]
    fn a_lookahead_beam_wins_where_the_plain_beam_does_not() {
        let deal = crate::deal::pysol::deal(17, Rules::Standard).unwrap();
        let beam = |lookahead| Pass::Beam {
            budget: 1_000,
            width: 200,
            move_cost: 0,
            lookahead,
            thorough: false,
        };
        assert!(matches!(run(&deal, beam(0)), Outcome::Exhausted));
        assert!(matches!(run(&deal, beam(300)), Outcome::Won(_)));
    }

    /// A small position with no ace at all, so it can never be won: the
    /// exhaustive pass must examine it to the end. Moving 5♠ off pile 1
    /// turns up a 6♥ it can go straight back onto, a move back that leads
    /// somewhere new; the stock row makes a second stage.
    fn aceless() -> crate::deal::Deal {
        aceless_with(["QH", "QD", "JS", "JC", "QH", "QD", "JS", "JC", "10H", "10D"])
    }

    /// [`aceless`] with `row` for its stock row.
    fn aceless_with(row: [&str; 10]) -> crate::deal::Deal {
        use crate::cards::{Card, CardSlot};
        use crate::deal::{Deal, Pile};
        let card = |text: &str| text.parse::<Card>().unwrap();
        let pile = |down: &[&str], up: &str| Pile {
            face_down: down.iter().map(|t| CardSlot::Known(card(t))).collect(),
            face_up: vec![card(up)],
        };
        Deal {
            suits: SuitCount::Four,
            rules: Rules::Standard,
            piles: vec![
                pile(&["2C", "6H"], "5S"),
                pile(&["KD"], "6S"),
                pile(&[], "KH"),
                pile(&[], "KS"),
                pile(&[], "KC"),
                pile(&[], "KD"),
                pile(&[], "KH"),
                pile(&[], "KS"),
                pile(&[], "KC"),
                pile(&[], "KD"),
            ],
            stock: vec![row.map(|t| CardSlot::Known(card(t)))],
            removed: Vec::new(),
        }
    }

    /// Every position reachable from the start by any legal moves, counted
    /// by plain breadth-first search over the same keys the search uses.
    fn reachable(game: &Game) -> u64 {
        let mut seen = std::collections::HashSet::new();
        let mut queue = std::collections::VecDeque::from([game.start().clone()]);
        seen.insert(game.key(game.start()));
        let mut moves = Vec::new();
        while let Some(position) = queue.pop_front() {
            moves.clear();
            game.moves(&position, &mut moves);
            for &mv in &moves {
                let next = game.apply(&position, mv).position;
                if seen.insert(game.key(&next)) {
                    queue.push_back(next);
                }
            }
        }
        seen.len() as u64
    }

    /// The exhaustive pass's shortcuts (deduplication, the move back to the
    /// parent not played) skip no position: it examines exactly the
    /// positions a plain search reaches. The quick run deals a row of five
    /// kings (2,625 positions: every kind of move, reveals and both
    /// stages); [`the_exhaustive_pass_examines_every_one_of_272_490_positions`]
    /// deals queens, jacks and tens.
    #[test]
    fn the_exhaustive_pass_examines_every_reachable_position() {
        let deal = aceless_with(["QH", "QD", "JS", "JC", "10H", "KD", "KS", "KC", "KH", "KD"]);
        assert_eq!(exhaustive_against_plain(&deal), 2_625);
    }

    #[test]
    #[ignore = "slow: runs with `cargo test -- --ignored` (CI runs it)"]
    fn the_exhaustive_pass_examines_every_one_of_272_490_positions() {
        assert_eq!(exhaustive_against_plain(&aceless()), 272_490);
    }

    /// The positions the exhaustive pass examines in `deal`, asserted
    /// equal to those a plain search reaches.
    fn exhaustive_against_plain(deal: &crate::deal::Deal) -> u64 {
        let game = Game::new(deal).unwrap();
        let limits = Limits::default();
        let cancel = AtomicBool::new(false);
        let mut search = Search::new(&game, &limits, &cancel, &|_| {});
        assert!(matches!(search.run(Pass::Exhaustive), Outcome::Exhausted));
        let expected = reachable(&game);
        assert_eq!(search.positions, expected);
        expected
    }

    #[test]
    fn a_capped_pass_gives_up_without_a_verdict() {
        let deal = numbered::deal(1, SuitCount::Four, Rules::Standard);
        let game = Game::new(&deal).unwrap();
        let limits = Limits::default();
        let cancel = AtomicBool::new(false);
        let mut search = Search::new(&game, &limits, &cancel, &|_| {});
        search.pass_cap = Some(1_000);
        assert!(matches!(search.run(Pass::Exhaustive), Outcome::Stopped));
        assert!(search.capped);
        assert_eq!(search.stopped, None);
        search.pass_cap = None;
        let probe = Pass::Probe {
            budget: 2_000,
            width: 2,
            move_cost: 0,
            thorough: false,
        };
        search.run(probe);
        assert!(!search.capped);
    }
}
