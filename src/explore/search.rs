//! The search loop: one generic, monomorphized loop for every order, with the
//! frontier (stack, queue or heap) and the optional graph recorder as type
//! parameters so that the hot path pays only for what a search uses.

use std::collections::hash_map::Entry as MapEntry;
use std::collections::{BinaryHeap, HashMap, VecDeque};
use std::mem::size_of;
use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use petgraph::graph::{Edge, Node, NodeIndex};

use super::graph::{GraphNode, MoveGraph, PetGraph};
use super::{NodeKind, Problem};

/// How often (in expanded states) time, memory and the cancel flag are checked.
const CHECK_EVERY: u64 = 1024;
/// How often (in expanded states) the progress callback is called.
const PROGRESS_EVERY: u64 = 1 << 16;

/// The order in which states are expanded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Order {
    /// Last generated, first expanded; successors in the order the problem
    /// gives them. Needs the least memory; the line to a goal is the current
    /// branch, so no parent links are stored.
    #[default]
    DepthFirst,
    /// First generated, first expanded: the first goal found is one with the
    /// fewest moves.
    BreadthFirst,
    /// Smallest [`Problem::heuristic`] first (greedy best-first).
    BestFirst,
    /// Smallest cost so far + heuristic first (A*): with a consistent
    /// heuristic the first goal found is a cheapest one.
    AStar,
}

/// When the search stops, apart from limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Stop {
    /// At the first goal expanded, with the line of moves to it.
    #[default]
    FirstGoal,
    /// Only when the space is exhausted: every goal is counted.
    Exhaust,
}

/// Resource limits. `None` means no limit.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Most positions to store (distinct states with deduplication, generated
    /// states without).
    pub max_positions: Option<u64>,
    /// Most wall-clock time to run.
    pub time: Option<Duration>,
    /// Most bytes for the engine's own tables and frontier, as estimated by
    /// [`Stats::memory_bytes`] (heap memory owned by states and keys is not
    /// counted).
    pub max_memory: Option<u64>,
    /// Set to `true` (by a Ctrl-C handler, another thread...) to stop the
    /// search at the next check.
    pub cancel: Option<Arc<AtomicBool>>,
}

/// What stopped a search before it finished.
/// The most positions a search numbers (ids are `u32`), less room for
/// the children of one more expansion: a search stops at it as at a
/// position limit, so no id ever wraps.
const MAX_NODE_IDS: u64 = u32::MAX as u64 - (1 << 16);

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    /// [`Limits::max_positions`] was reached.
    Positions,
    /// [`Limits::time`] ran out.
    Time,
    /// [`Limits::max_memory`] was reached.
    Memory,
    /// The machine's available memory fell below the floor of
    /// [`memory::machine_low`](super::memory::machine_low).
    MachineMemory,
    /// The cancel flag was set.
    Cancelled,
    /// The goal callback returned [`ControlFlow::Break`].
    Callback,
    /// The disk-backed search reached its limit of disk bytes.
    Disk,
}

impl std::fmt::Display for StopReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Positions => "position limit reached",
            Self::Time => "time limit reached",
            Self::Memory => "memory limit reached",
            Self::MachineMemory => "the machine's free memory ran low",
            Self::Cancelled => "cancelled",
            Self::Callback => "stopped by the goal callback",
            Self::Disk => "disk limit reached",
        })
    }
}

/// How a search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum End {
    /// A goal was found and [`Stop::FirstGoal`] was asked for.
    GoalFound,
    /// Every reachable state was examined (with deduplication off: every
    /// path of the tree).
    Exhausted,
    /// A limit stopped the search: the space was not fully examined.
    Stopped(StopReason),
}

/// Statistics of a search, also passed to the progress callback.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct Stats {
    /// Positions stored: distinct states with deduplication, generated states
    /// (the start included) without.
    pub positions: u64,
    /// States whose successors were generated.
    pub expanded: u64,
    /// Moves (edges) generated.
    pub moves: u64,
    /// Generated states that were already stored (deduplication only).
    pub duplicates: u64,
    /// Goal states met.
    pub goals: u64,
    /// Leaf states met.
    pub leaves: u64,
    /// Dead ends met ([`NodeKind::Dead`]).
    pub dead: u64,
    /// The largest number of moves from the start of any state examined (in
    /// the order's own lines, which are shortest only for breadth-first).
    pub max_depth: u32,
    /// Wall-clock time so far.
    pub elapsed: Duration,
    /// Estimated bytes held by the engine: the deduplication table, parent
    /// links, the frontier and the recorded graph. Heap memory owned by
    /// states and keys themselves is not counted.
    pub memory_bytes: u64,
    /// The part of `memory_bytes` taken by the deduplication table
    /// (buckets × entry size, control bytes included).
    pub table_bytes: u64,
}

impl Stats {
    /// Positions stored per second of wall-clock time.
    pub fn positions_per_second(&self) -> f64 {
        let secs = self.elapsed.as_secs_f64();
        if secs > 0.0 {
            self.positions as f64 / secs
        } else {
            0.0
        }
    }
}

/// A goal found by a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Goal<S, M> {
    /// The goal state.
    pub state: S,
    /// The moves from the start to it.
    pub line: Vec<M>,
}

/// The result of a search.
#[derive(Clone, Debug)]
pub struct Outcome<S, M> {
    /// Why the search ended.
    pub end: End,
    /// What it did.
    pub stats: Stats,
    /// The first goal found, if any (also with [`Stop::Exhaust`]).
    pub first_goal: Option<Goal<S, M>>,
}

type ProgressCallback<'a> = Box<dyn FnMut(&Stats) + 'a>;

/// The outcome of a search of problem `P`.
pub type ProblemOutcome<P> = Outcome<<P as Problem>::State, <P as Problem>::Move>;

type GoalCallback<'a, S, M> = Box<dyn FnMut(&S, &[M]) -> ControlFlow<()> + 'a>;

/// A search over a [`Problem`], configured with builder methods and started
/// with [`run`](Search::run) or [`run_with_graph`](Search::run_with_graph).
///
/// Defaults: depth-first, deduplication on, stop at the first goal, no
/// limits.
pub struct Search<'a, P: Problem> {
    problem: &'a P,
    order: Order,
    dedup: bool,
    stop: Stop,
    limits: Limits,
    on_progress: Option<ProgressCallback<'a>>,
    on_goal: Option<GoalCallback<'a, P::State, P::Move>>,
}

impl<'a, P: Problem> Search<'a, P> {
    /// A search of `problem` with the defaults.
    pub fn new(problem: &'a P) -> Self {
        Self {
            problem,
            order: Order::default(),
            dedup: true,
            stop: Stop::default(),
            limits: Limits::default(),
            on_progress: None,
            on_goal: None,
        }
    }

    /// Sets the search order.
    pub fn order(mut self, order: Order) -> Self {
        self.order = order;
        self
    }

    /// Turns exact deduplication on (the default) or off. Off is much faster
    /// for problems whose states are all distinct (a tree, such as N-queens),
    /// and wrong (possibly endless) for problems with cycles. Recording the
    /// graph always deduplicates.
    pub fn dedup(mut self, dedup: bool) -> Self {
        self.dedup = dedup;
        self
    }

    /// Sets when the search stops.
    pub fn stop(mut self, stop: Stop) -> Self {
        self.stop = stop;
        self
    }

    /// Sets the resource limits.
    pub fn limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// Calls `f` with the statistics so far every 65,536 expanded states (for
    /// a progress bar).
    pub fn on_progress(mut self, f: impl FnMut(&Stats) + 'a) -> Self {
        self.on_progress = Some(Box::new(f));
        self
    }

    /// Calls `f` with every goal met and the line of moves to it (to list
    /// solutions). Returning [`ControlFlow::Break`] stops the search with
    /// [`StopReason::Callback`].
    pub fn on_goal(mut self, f: impl FnMut(&P::State, &[P::Move]) -> ControlFlow<()> + 'a) -> Self {
        self.on_goal = Some(Box::new(f));
        self
    }

    /// Runs the search.
    pub fn run(self) -> Outcome<P::State, P::Move> {
        self.dispatch(&mut NoGraph)
    }

    /// Runs the search and records the move graph: one node per distinct
    /// state (labelled by `label`), one edge per move generated. Goals and
    /// leaves are nodes without outgoing edges. Deduplication is on whatever
    /// [`dedup`](Search::dedup) says.
    pub fn run_with_graph<L>(
        self,
        label: impl FnMut(&P::State) -> L,
    ) -> (ProblemOutcome<P>, MoveGraph<L, P::Move>) {
        let mut recorder = GraphRecorder {
            graph: PetGraph::default(),
            label,
        };
        let outcome = self.dispatch(&mut recorder);
        (outcome, MoveGraph::from_graph(recorder.graph))
    }

    fn dispatch<R: Recorder<P::State, P::Move>>(
        self,
        recorder: &mut R,
    ) -> Outcome<P::State, P::Move> {
        match self.order {
            Order::DepthFirst => self.explore_depth_first(recorder),
            Order::BreadthFirst => self.explore(Fifo(VecDeque::new()), recorder),
            Order::BestFirst | Order::AStar => self.explore(
                Heap {
                    heap: BinaryHeap::new(),
                    seq: 0,
                },
                recorder,
            ),
        }
    }

    /// Handles a goal met: counts it, reports it, keeps the first one, and
    /// says whether the search ends here. `line` is only called when the
    /// line is needed.
    fn goal_met(
        &mut self,
        stats: &mut Stats,
        first_goal: &mut Option<Goal<P::State, P::Move>>,
        state: &P::State,
        line: impl FnOnce() -> Vec<P::Move>,
    ) -> Option<End> {
        stats.goals += 1;
        if first_goal.is_none() || self.on_goal.is_some() {
            let line = line();
            let flow = match &mut self.on_goal {
                Some(f) => f(state, &line),
                None => ControlFlow::Continue(()),
            };
            if first_goal.is_none() {
                *first_goal = Some(Goal {
                    state: state.clone(),
                    line,
                });
            }
            if flow.is_break() {
                return Some(End::Stopped(StopReason::Callback));
            }
        }
        (self.stop == Stop::FirstGoal).then_some(End::GoalFound)
    }

    /// The periodic checks before expanding a state: position limit, then
    /// every [`CHECK_EVERY`] expansions time, cancel flag, memory and
    /// progress. `memory` gives (total, table) bytes.
    #[inline]
    fn before_expanding(
        &mut self,
        stats: &mut Stats,
        check_at: &mut u64,
        started: Instant,
        memory: impl Fn() -> (u64, u64),
    ) -> Option<End> {
        // Node ids are 32-bit: stop (as at a position limit) before they
        // could wrap, with room for one expansion's children.
        if self
            .limits
            .max_positions
            .is_some_and(|max| stats.positions >= max)
            || stats.positions >= MAX_NODE_IDS
        {
            return Some(End::Stopped(StopReason::Positions));
        }
        stats.expanded += 1;
        if stats.expanded >= *check_at {
            *check_at += CHECK_EVERY;
            stats.elapsed = started.elapsed();
            if let Some(reason) = self.check_limits(stats, &memory) {
                return Some(End::Stopped(reason));
            }
            if stats.expanded.is_multiple_of(PROGRESS_EVERY)
                && let Some(progress) = &mut self.on_progress
            {
                (stats.memory_bytes, stats.table_bytes) = memory();
                progress(stats);
            }
        }
        None
    }

    /// Depth-first search. The successors of every state on the current
    /// branch wait in one flat vector, level after level, so the problem
    /// appends straight into it and nothing is copied; the line to the
    /// current state is read off the levels when a goal needs it.
    fn explore_depth_first<R>(mut self, recorder: &mut R) -> Outcome<P::State, P::Move>
    where
        R: Recorder<P::State, P::Move>,
    {
        let problem = self.problem;
        let started = Instant::now();
        let dedup = self.dedup || R::ON;
        let mut table: HashMap<P::Key, u32, ahash::RandomState> = HashMap::default();
        // The children of the state expanded at depth d are
        // `items[levels[d].start..]`; the one being explored is
        // `items[levels[d].next - 1]`.
        let mut items: Vec<(P::Move, P::State)> = Vec::new();
        let mut ids: Vec<u32> = Vec::new(); // node id of each item (deduplication only)
        let mut levels: Vec<Level> = Vec::new();
        let mut stats = Stats::default();
        let mut first_goal = None;
        let mut check_at = CHECK_EVERY;
        let mut next_id: u32 = 1;

        let mut current = problem.start();
        let mut current_id: u32 = 0;
        let mut kind = problem.kind(&current);
        if dedup {
            table.insert(problem.key(&current), 0);
        }
        recorder.node(&current, kind);
        stats.positions = 1;

        let end = 'search: loop {
            stats.max_depth = stats.max_depth.max(levels.len() as u32);
            match kind {
                NodeKind::Inner => {
                    let memory = || {
                        let table_bytes = table_bytes(table.capacity(), size_of::<(P::Key, u32)>());
                        let other = items.capacity() * size_of::<(P::Move, P::State)>()
                            + ids.capacity() * size_of::<u32>()
                            + levels.capacity() * size_of::<Level>();
                        (table_bytes + other as u64 + recorder.bytes(), table_bytes)
                    };
                    if let Some(end) =
                        self.before_expanding(&mut stats, &mut check_at, started, memory)
                    {
                        break 'search end;
                    }
                    let base = items.len();
                    problem.successors(&current, &mut items);
                    stats.moves += (items.len() - base) as u64;
                    if dedup {
                        let mut kept = base;
                        for i in base..items.len() {
                            let (mv, state) = &items[i];
                            match table.entry(problem.key(state)) {
                                MapEntry::Occupied(seen) => {
                                    stats.duplicates += 1;
                                    recorder.edge(current_id, *seen.get(), mv);
                                }
                                MapEntry::Vacant(slot) => {
                                    slot.insert(next_id);
                                    if R::ON {
                                        recorder.node(state, problem.kind(state));
                                        recorder.edge(current_id, next_id, mv);
                                    }
                                    ids.push(next_id);
                                    next_id += 1;
                                    items.swap(kept, i);
                                    kept += 1;
                                }
                            }
                        }
                        stats.positions += (kept - base) as u64;
                        items.truncate(kept);
                    } else {
                        stats.positions += (items.len() - base) as u64;
                    }
                    if items.len() > base {
                        // A dead end pushes no level: nothing to back up from.
                        levels.push(Level {
                            start: base,
                            next: base,
                        });
                    }
                }
                NodeKind::Leaf => stats.leaves += 1,
                NodeKind::Dead => stats.dead += 1,
                NodeKind::Goal => {
                    let line = || {
                        levels
                            .iter()
                            .map(|level| items[level.next - 1].0.clone())
                            .collect()
                    };
                    if let Some(end) = self.goal_met(&mut stats, &mut first_goal, &current, line) {
                        break 'search end;
                    }
                }
            }
            // On to the next state: the next sibling, else back up.
            loop {
                let Some(level) = levels.last_mut() else {
                    break 'search End::Exhausted;
                };
                if level.next < items.len() {
                    let i = level.next;
                    level.next += 1;
                    current = items[i].1.clone();
                    if dedup {
                        current_id = ids[i];
                    }
                    kind = problem.kind(&current);
                    break;
                }
                items.truncate(level.start);
                if dedup {
                    ids.truncate(level.start);
                }
                levels.pop();
            }
        };

        stats.elapsed = started.elapsed();
        let table_bytes = table_bytes(table.capacity(), size_of::<(P::Key, u32)>());
        let other = items.capacity() * size_of::<(P::Move, P::State)>()
            + ids.capacity() * size_of::<u32>()
            + levels.capacity() * size_of::<Level>();
        stats.memory_bytes = table_bytes + other as u64 + recorder.bytes();
        stats.table_bytes = table_bytes;
        Outcome {
            end,
            stats,
            first_goal,
        }
    }

    /// Breadth-first, best-first and A*: one loop, monomorphized per
    /// frontier and recorder. Lines are recovered from parent links.
    fn explore<F, R>(mut self, mut frontier: F, recorder: &mut R) -> Outcome<P::State, P::Move>
    where
        F: Frontier<Frame<P::State>>,
        R: Recorder<P::State, P::Move>,
    {
        let problem = self.problem;
        let started = Instant::now();
        let dedup = self.dedup || R::ON;
        let astar = self.order == Order::AStar;
        let mut table: HashMap<P::Key, u32, ahash::RandomState> = HashMap::default();
        let mut parents: Vec<Option<(u32, P::Move)>> = Vec::new();
        let mut best_cost: Vec<u64> = Vec::new();
        let mut closed: Vec<bool> = Vec::new();
        let mut out: Vec<(P::Move, P::State)> = Vec::new();
        let mut stats = Stats::default();
        let mut first_goal = None;
        let mut check_at = CHECK_EVERY;

        let start = problem.start();
        let kind = problem.kind(&start);
        if dedup {
            table.insert(problem.key(&start), 0);
        }
        recorder.node(&start, kind);
        parents.push(None);
        if astar {
            best_cost.push(0);
        }
        if F::PRIORITY {
            closed.push(false);
        }
        let mut next_id: u32 = 1;
        stats.positions = 1;
        let priority = if F::PRIORITY {
            problem.heuristic(&start)
        } else {
            0
        };
        frontier.push(
            Frame {
                state: start,
                id: 0,
                depth: 0,
                kind,
            },
            priority,
        );

        let end = loop {
            let Some(frame) = frontier.pop() else {
                break End::Exhausted;
            };
            let id = frame.id as usize;
            if F::PRIORITY {
                if closed[id] {
                    continue; // a stale heap entry: the state was reached more cheaply
                }
                closed[id] = true;
            }
            stats.max_depth = stats.max_depth.max(frame.depth);
            match frame.kind {
                NodeKind::Inner => {}
                NodeKind::Leaf => {
                    stats.leaves += 1;
                    continue;
                }
                NodeKind::Dead => {
                    stats.dead += 1;
                    continue;
                }
                NodeKind::Goal => {
                    let line = || line_from_parents(&parents, frame.id);
                    match self.goal_met(&mut stats, &mut first_goal, &frame.state, line) {
                        Some(end) => break end,
                        None => continue,
                    }
                }
            }

            let memory = || memory(&table, &parents, &best_cost, &closed, &frontier, recorder);
            if let Some(end) = self.before_expanding(&mut stats, &mut check_at, started, memory) {
                break end;
            }

            out.clear();
            problem.successors(&frame.state, &mut out);
            stats.moves += out.len() as u64;
            let parent_cost = if astar { best_cost[id] } else { 0 };
            let depth = frame.depth + 1;
            for (mv, state) in out.drain(..) {
                let cost = if astar {
                    parent_cost + problem.cost(&frame.state, &mv)
                } else {
                    0
                };
                if dedup {
                    match table.entry(problem.key(&state)) {
                        MapEntry::Occupied(seen) => {
                            stats.duplicates += 1;
                            let seen = *seen.get();
                            recorder.edge(frame.id, seen, &mv);
                            let seen_ix = seen as usize;
                            if astar && !closed[seen_ix] && cost < best_cost[seen_ix] {
                                // A cheaper way to a state still open: reopen it.
                                best_cost[seen_ix] = cost;
                                let priority = cost + problem.heuristic(&state);
                                let kind = problem.kind(&state);
                                parents[seen_ix] = Some((frame.id, mv));
                                frontier.push(
                                    Frame {
                                        state,
                                        id: seen,
                                        depth,
                                        kind,
                                    },
                                    priority,
                                );
                            }
                            continue;
                        }
                        MapEntry::Vacant(slot) => {
                            slot.insert(next_id);
                        }
                    }
                }
                let child = next_id;
                next_id += 1;
                stats.positions += 1;
                let kind = problem.kind(&state);
                recorder.node(&state, kind);
                recorder.edge(frame.id, child, &mv);
                let priority = match self.order {
                    Order::BestFirst => problem.heuristic(&state),
                    Order::AStar => cost + problem.heuristic(&state),
                    _ => 0,
                };
                if astar {
                    best_cost.push(cost);
                }
                if F::PRIORITY {
                    closed.push(false);
                }
                parents.push(Some((frame.id, mv)));
                frontier.push(
                    Frame {
                        state,
                        id: child,
                        depth,
                        kind,
                    },
                    priority,
                );
            }
        };

        stats.elapsed = started.elapsed();
        let (total, table_bytes) =
            memory(&table, &parents, &best_cost, &closed, &frontier, recorder);
        stats.memory_bytes = total;
        stats.table_bytes = table_bytes;
        Outcome {
            end,
            stats,
            first_goal,
        }
    }

    /// The limit that is exceeded, if any. `memory` is only evaluated when a
    /// memory limit is set.
    fn check_limits(&self, stats: &Stats, memory: impl Fn() -> (u64, u64)) -> Option<StopReason> {
        if let Some(cancel) = &self.limits.cancel
            && cancel.load(Ordering::Relaxed)
        {
            return Some(StopReason::Cancelled);
        }
        if let Some(time) = self.limits.time
            && stats.elapsed >= time
        {
            return Some(StopReason::Time);
        }
        if let Some(max) = self.limits.max_memory
            && memory().0 >= max
        {
            return Some(StopReason::Memory);
        }
        if super::memory::machine_low() {
            return Some(StopReason::MachineMemory);
        }
        None
    }
}

/// A level of the depth-first branch: the successors of one state.
struct Level {
    /// Where its successors start in the item vector.
    start: usize,
    /// The next successor to explore.
    next: usize,
}

/// The moves from the start to node `id`, following parent links.
fn line_from_parents<M: Clone>(parents: &[Option<(u32, M)>], mut id: u32) -> Vec<M> {
    let mut line = Vec::new();
    while let Some((parent, mv)) = &parents[id as usize] {
        line.push(mv.clone());
        id = *parent;
    }
    line.reverse();
    line
}

/// Estimated bytes held by the engine, and the part held by the table.
fn memory<K, M, T, F: Frontier<T>, S, R: Recorder<S, M>>(
    table: &HashMap<K, u32, ahash::RandomState>,
    parents: &Vec<Option<(u32, M)>>,
    best_cost: &Vec<u64>,
    closed: &Vec<bool>,
    frontier: &F,
    recorder: &R,
) -> (u64, u64) {
    let table_bytes = table_bytes(table.capacity(), size_of::<(K, u32)>());
    let total = table_bytes
        + (parents.capacity() * size_of::<Option<(u32, M)>>()) as u64
        + (best_cost.capacity() * size_of::<u64>()) as u64
        + closed.capacity() as u64
        + (frontier.capacity() * F::ITEM_BYTES) as u64
        + recorder.bytes();
    (total, table_bytes)
}

/// Bytes of a hashbrown table able to hold `capacity` entries of
/// `entry_bytes` each: a power-of-two number of buckets kept at most 7/8
/// full, each with one control byte.
pub(crate) fn table_bytes(capacity: usize, entry_bytes: usize) -> u64 {
    if capacity == 0 {
        return 0;
    }
    let buckets = if capacity < 8 {
        (capacity + 1).next_power_of_two()
    } else {
        (capacity * 8 / 7).next_power_of_two()
    };
    (buckets * (entry_bytes + 1)) as u64
}

/// A state waiting in the frontier.
struct Frame<S> {
    state: S,
    id: u32,
    depth: u32,
    kind: NodeKind,
}

/// The container of states waiting to be expanded.
trait Frontier<T> {
    /// Ordered by priority: entries may be stale and are checked on pop.
    const PRIORITY: bool;
    /// Bytes per entry, for the memory estimate.
    const ITEM_BYTES: usize;
    fn push(&mut self, item: T, priority: u64);
    fn pop(&mut self) -> Option<T>;
    fn capacity(&self) -> usize;
}

struct Fifo<T>(VecDeque<T>);

impl<T> Frontier<T> for Fifo<T> {
    const PRIORITY: bool = false;
    const ITEM_BYTES: usize = size_of::<T>();
    #[inline]
    fn push(&mut self, item: T, _priority: u64) {
        self.0.push_back(item);
    }
    #[inline]
    fn pop(&mut self) -> Option<T> {
        self.0.pop_front()
    }
    fn capacity(&self) -> usize {
        self.0.capacity()
    }
}

/// A min-heap on priority; among equal priorities the newest entry first,
/// which dives like depth-first instead of spreading like breadth-first.
struct Heap<T> {
    heap: BinaryHeap<Prioritized<T>>,
    seq: u64,
}

struct Prioritized<T> {
    priority: u64,
    seq: u64,
    item: T,
}

impl<T> PartialEq for Prioritized<T> {
    fn eq(&self, other: &Self) -> bool {
        self.priority == other.priority && self.seq == other.seq
    }
}

impl<T> Eq for Prioritized<T> {}

impl<T> PartialOrd for Prioritized<T> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl<T> Ord for Prioritized<T> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        other
            .priority
            .cmp(&self.priority)
            .then(self.seq.cmp(&other.seq))
    }
}

impl<T> Frontier<T> for Heap<T> {
    const PRIORITY: bool = true;
    const ITEM_BYTES: usize = size_of::<Prioritized<T>>();
    fn push(&mut self, item: T, priority: u64) {
        self.seq += 1;
        self.heap.push(Prioritized {
            priority,
            seq: self.seq,
            item,
        });
    }
    fn pop(&mut self) -> Option<T> {
        self.heap.pop().map(|entry| entry.item)
    }
    fn capacity(&self) -> usize {
        self.heap.capacity()
    }
}

/// Where new nodes and edges go: nowhere, or into a petgraph `Graph`.
trait Recorder<S, M> {
    /// Whether anything is recorded (graph recording forces deduplication).
    const ON: bool;
    /// A new distinct state; called in id order, so id = node index.
    fn node(&mut self, state: &S, kind: NodeKind);
    /// A move from node `from` to node `to`.
    fn edge(&mut self, from: u32, to: u32, mv: &M);
    /// Bytes held, for the memory estimate.
    fn bytes(&self) -> u64;
}

struct NoGraph;

impl<S, M> Recorder<S, M> for NoGraph {
    const ON: bool = false;
    #[inline(always)]
    fn node(&mut self, _state: &S, _kind: NodeKind) {}
    #[inline(always)]
    fn edge(&mut self, _from: u32, _to: u32, _mv: &M) {}
    fn bytes(&self) -> u64 {
        0
    }
}

struct GraphRecorder<L, M, F> {
    graph: PetGraph<L, M>,
    label: F,
}

impl<S, L, M: Clone, F: FnMut(&S) -> L> Recorder<S, M> for GraphRecorder<L, M, F> {
    const ON: bool = true;
    fn node(&mut self, state: &S, kind: NodeKind) {
        let label = (self.label)(state);
        self.graph.add_node(GraphNode { kind, label });
    }
    fn edge(&mut self, from: u32, to: u32, mv: &M) {
        self.graph.add_edge(
            NodeIndex::new(from as usize),
            NodeIndex::new(to as usize),
            mv.clone(),
        );
    }
    fn bytes(&self) -> u64 {
        let (nodes, edges) = self.graph.capacity();
        (nodes * size_of::<Node<GraphNode<L>, u32>>() + edges * size_of::<Edge<M, u32>>()) as u64
    }
}
