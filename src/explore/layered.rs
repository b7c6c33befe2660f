//! The exact layered search: every state once, on every core, in a few
//! bytes a state, resumable.
//!
//! Proving that no goal can be reached means examining every reachable
//! state, so this search is built for size rather than for lines:
//!
//! - **Layers.** [`Problem::layer`] gives each state a key that no move
//!   lowers (Spider: rows dealt, runs removed, cards turned up). States of
//!   different layers can never be equal, so the search finishes the layers
//!   in increasing order, breadth-first inside each, deduplicates within a
//!   layer only and drops a layer's table when it is finished. Successors
//!   that fall into later layers wait in those layers' *pending* buffers.
//! - **Every core.** Each breadth-first step expands its states in parallel
//!   (rayon); successors are partitioned by fingerprint into [`SHARDS`]
//!   shards and each shard is deduplicated by one thread, so no lock is
//!   taken. A successor is first only a fingerprint, a layer and a token
//!   ([`PackedProblem::expand_packed`]); the shard's thread inserts the
//!   fingerprint in its table and builds the state
//!   ([`PackedProblem::successor_packed`]) only when it is new, so a
//!   duplicate costs one table probe.
//! - **A few bytes a state.** A stored state is its 128-bit
//!   [`Problem::fingerprint`] in a compact open-addressing table ([`FpTable`]:
//!   16-byte slots, at most 95 % full, grown by 18 % at a time), 16.8 to
//!   19.9 bytes a state; the states waiting to be expanded are kept packed
//!   ([`PackedProblem::pack`]) in byte arenas of 256 KiB chunks, freed as
//!   the frontier is read and, once the search holds a quarter of its
//!   memory limit, compressed ([`Layered::compress_above`]).
//! - **Resumable.** With [`Layered::checkpoint`], the search writes at each
//!   layer boundary what it sent to later layers and a small manifest (each
//!   file written to a temporary name, synced, then renamed, so a crash
//!   never leaves a torn checkpoint); the same search started again on the
//!   same directory continues after the last finished layer and reaches the
//!   same counts. `docs/engine.md` describes the files and how several
//!   machines could share one search.
//!
//! A found goal comes with its state only: [`Layered::line_to`] recovers a
//! line of moves to it by a second, targeted search that keeps parent
//! links.
//!
//! Problems whose space is a tree (no state reached two ways: N-queens, the
//! quiz) skip deduplication: the search then goes breadth-first until there
//! is work for every core and depth-first from each state of that frontier,
//! in parallel.

use std::collections::{BTreeMap, HashMap};
use std::fs;
use std::io::{BufReader, BufWriter, Read, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use rayon::prelude::*;

pub use super::fptable::FpTable;

mod arena;
mod checkpoint;
mod disk;
mod expand;
mod stats;
#[cfg(test)]
mod tests;
mod tree;

use super::{End, Limits, NodeKind, Problem, Stop, StopReason};
use arena::*;
use checkpoint::*;
pub use checkpoint::{PARTS, part_of, read_spill_part};
pub use disk::{DiskOptions, LAUNCH_FROM, PART_ENV, ROUND_ENV};
use expand::*;
pub use stats::{CheckpointError, LayerStats, LayeredStats};

/// Fingerprint shards: successors are partitioned by the top 8 bits of
/// their fingerprint, and each shard is deduplicated by one thread.
pub const SHARDS: usize = 256;
/// Bytes held past which, without a memory limit, the states that wait are
/// kept compressed (see [`Layered::compress_above`]).
const DEFAULT_COMPRESS_ABOVE: u64 = 2 << 30;
/// States expanded by one work unit (one rayon task).
const UNIT: usize = 1024;
/// States expanded between two deduplications (and limit checks), at
/// most.
const BATCH: usize = 64 * UNIT;
/// A batch that takes longer than this is followed by batches of as many
/// units as would have fit in it (at most half as many, at least one), one
/// that takes less than a quarter of it by batches twice as large (up to
/// [`BATCH`]): where each state costs little, batches stay whole; where
/// the dead-end tests make a state cost tens of microseconds, a whole
/// batch took over a second, and the search overran its time limit or a
/// Ctrl-C by as much. Smaller batches find the same states in the same
/// order: a frontier is expanded in the same order whatever its batches.
/// (A unit that starts once the time is up expands nothing, so the batch
/// that meets the limit ends after a unit.)
///
/// Batches adapt only under a time limit. Without one, every batch has
/// [`BATCH`] states, so a search stopped by its position limit stops after
/// the same batch, with the same counts, on any machine under any load
/// (the limits are checked between batches). A Ctrl-C is still prompt:
/// units that start after it expand nothing.
const BATCH_TIME: Duration = Duration::from_millis(200);

/// A [`Problem`] whose states can be packed into bytes: the layered search
/// keeps the states waiting to be expanded packed, and writes them to its
/// checkpoints.
pub trait PackedProblem: Problem + Sync
where
    Self::State: Send,
{
    /// Appends the bytes of `state` to `out`.
    fn pack(&self, state: &Self::State, out: &mut Vec<u8>);
    /// The state `bytes` (as [`pack`](PackedProblem::pack) wrote them) hold.
    fn unpack(&self, bytes: &[u8]) -> Self::State;

    /// The kind of the packed state `bytes` and, when it is
    /// [`NodeKind::Inner`], its successors, appended to `out` as their
    /// fingerprint, layer and a token for
    /// [`successor_packed`](PackedProblem::successor_packed), in the order
    /// of [`Problem::successors`]. The search calls this for every state it
    /// expands and builds only the successors that are new, so a problem
    /// that can tell a successor's fingerprint without building it (Spider:
    /// [`crate::game::Game::preview`]) saves most of the work. The default
    /// unpacks the state and builds every successor.
    fn expand_packed(&self, bytes: &[u8], out: &mut Vec<Successor>) -> NodeKind {
        let state = self.unpack(bytes);
        let kind = self.kind(&state);
        if kind == NodeKind::Inner {
            let mut next = Vec::new();
            self.successors(&state, &mut next);
            for (token, (_, s)) in next.iter().enumerate() {
                out.push(Successor {
                    fingerprint: self.fingerprint(s),
                    layer: self.layer(s),
                    token: token as u32,
                });
            }
        }
        kind
    }

    /// Appends to `out` the packed successor `token` (as
    /// [`expand_packed`](PackedProblem::expand_packed) named it) of the
    /// packed state `bytes`.
    fn successor_packed(&self, bytes: &[u8], token: u32, out: &mut Vec<u8>) {
        let state = self.unpack(bytes);
        let mut next = Vec::new();
        self.successors(&state, &mut next);
        self.pack(&next[token as usize].1, out);
    }

    /// Appends the packed state `bytes` (as [`pack`](PackedProblem::pack)
    /// wrote them) in the form the files of the search on disk hold it
    /// ([`Layered::disk`]), which [`read_record`](PackedProblem::read_record)
    /// reads back: a problem whose states pack into fewer bytes for those
    /// files (Spider: [`crate::game::compact_step`]) saves disk. The default
    /// writes the length (a LEB128 number) and the bytes.
    fn write_record(&self, bytes: &[u8], out: &mut Vec<u8>) {
        write_varint(bytes.len() as u64, out);
        out.extend_from_slice(bytes);
    }

    /// Appends the packed state whose [`write_record`](PackedProblem::write_record)
    /// form starts `record` to `out`; how many bytes of `record` that form
    /// took, `None` if it is not one.
    fn read_record(&self, record: &[u8], out: &mut Vec<u8>) -> Option<usize> {
        let (len, at) = read_varint(record)?;
        let bytes = record.get(at..at.checked_add(usize::try_from(len).ok()?)?)?;
        out.extend_from_slice(bytes);
        Some(at + bytes.len())
    }

    /// Called by the search before each breadth-first step, when no state
    /// is being expanded. A problem that learns from the states it expands
    /// (Spider's learned conflicts, `solve::room::Learned`) makes what a
    /// step learned visible to the next one here, so that every expansion
    /// of a step sees the same whatever the threads. The default does
    /// nothing.
    fn between_steps(&self) {}
}

/// Appends `value` as LEB128: seven bits a byte, the lowest first, the top
/// bit set on every byte but the last.
pub fn write_varint(mut value: u64, out: &mut Vec<u8>) {
    while value >= 0x80 {
        out.push(value as u8 | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// The LEB128 number ([`write_varint`]) at the start of `bytes`, and its
/// bytes; `None` if they do not start with one of at most 64 bits.
pub fn read_varint(bytes: &[u8]) -> Option<(u64, usize)> {
    let mut value = 0u64;
    for (i, &b) in bytes.iter().enumerate().take(10) {
        let bits = u64::from(b & 0x7f);
        if i == 9 && b > 1 {
            return None;
        }
        value |= bits << (7 * i);
        if b & 0x80 == 0 {
            return Some((value, i + 1));
        }
    }
    None
}

/// A successor as [`PackedProblem::expand_packed`] reports it, before it
/// is built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Successor {
    /// Its [`Problem::fingerprint`].
    pub fingerprint: u128,
    /// Its [`Problem::layer`].
    pub layer: u64,
    /// What [`PackedProblem::successor_packed`] needs to build it.
    pub token: u32,
}

/// A goal the layered search met.
#[derive(Clone, Debug)]
pub struct FoundGoal<S> {
    /// The goal state.
    pub state: S,
    /// Its fingerprint, for [`Layered::line_to`].
    pub fingerprint: u128,
    /// Moves from the start along the line the search found.
    pub depth: u32,
}

/// The result of a layered search.
#[derive(Clone, Debug)]
pub struct LayeredOutcome<S> {
    /// Why the search ended.
    pub end: End,
    /// What it did.
    pub stats: LayeredStats,
    /// The first goal met (the first of the first breadth-first step that
    /// met one), also with [`Stop::Exhaust`].
    pub goal: Option<FoundGoal<S>>,
}

type LeafCallback<'a, S> = Box<dyn FnMut(&S, u32) -> ControlFlow<()> + 'a>;
type ProgressCallback<'a> = Box<dyn FnMut(&LayeredStats) + 'a>;
type NoteSave<'a> = Box<dyn FnMut() -> String + 'a>;
type NoteRestore<'a> = Box<dyn FnMut(&str) + 'a>;

/// A layered search over a [`PackedProblem`], configured with builder
/// methods and started with [`run`](Layered::run).
///
/// Defaults: deduplication on, stop at the first goal, no limits, the
/// current rayon pool's threads, no checkpoint.
///
/// ```
/// use spider_analyzer::explore::layered::{Layered, PackedProblem};
/// use spider_analyzer::explore::{End, NodeKind, Problem, Stop};
///
/// /// Pairs (a, b) with a, b < 100; a move adds 1 to either. The layer is
/// /// a + b: every move raises it.
/// struct Grid;
/// impl Problem for Grid {
///     type State = (u8, u8);
///     type Key = (u8, u8);
///     type Move = char;
///     fn start(&self) -> (u8, u8) { (0, 0) }
///     fn key(&self, s: &(u8, u8)) -> (u8, u8) { *s }
///     fn successors(&self, &(a, b): &(u8, u8), out: &mut Vec<(char, (u8, u8))>) {
///         if a < 99 { out.push(('a', (a + 1, b))); }
///         if b < 99 { out.push(('b', (a, b + 1))); }
///     }
///     fn kind(&self, s: &(u8, u8)) -> NodeKind {
///         if *s == (99, 99) { NodeKind::Goal } else { NodeKind::Inner }
///     }
///     fn layer(&self, &(a, b): &(u8, u8)) -> u64 { (a + b) as u64 }
/// }
/// impl PackedProblem for Grid {
///     fn pack(&self, s: &(u8, u8), out: &mut Vec<u8>) { out.extend([s.0, s.1]); }
///     fn unpack(&self, bytes: &[u8]) -> (u8, u8) { (bytes[0], bytes[1]) }
/// }
///
/// let outcome = Layered::new(&Grid).stop(Stop::Exhaust).run().unwrap();
/// assert_eq!(outcome.end, End::Exhausted);
/// assert_eq!(outcome.stats.positions, 100 * 100);
/// assert_eq!(outcome.stats.layers.len(), 199);
/// let goal = outcome.goal.unwrap();
/// let line = Layered::new(&Grid).line_to(goal.fingerprint).unwrap();
/// assert_eq!(line.len(), 198);
/// ```
pub struct Layered<'a, P: PackedProblem>
where
    P::State: Send,
{
    problem: &'a P,
    dedup: bool,
    stop: Stop,
    limits: Limits,
    cancel: Option<&'a AtomicBool>,
    jobs: Option<usize>,
    checkpoint: Option<(PathBuf, String)>,
    on_leaf: Option<LeafCallback<'a, P::State>>,
    on_progress: Option<ProgressCallback<'a>>,
    note: Option<(NoteSave<'a>, NoteRestore<'a>)>,
    compress_above: Option<u64>,
    batch_time: Duration,
    disk: Option<(DiskOptions, String)>,
    disk_memory: Option<u64>,
}

impl<'a, P: PackedProblem> Layered<'a, P>
where
    P::State: Send,
    P::Move: Send,
{
    /// A layered search of `problem` with the defaults.
    pub fn new(problem: &'a P) -> Self {
        Self {
            problem,
            dedup: true,
            stop: Stop::FirstGoal,
            limits: Limits::default(),
            cancel: None,
            jobs: None,
            checkpoint: None,
            on_leaf: None,
            on_progress: None,
            note: None,
            compress_above: None,
            batch_time: BATCH_TIME,
            disk: None,
            disk_memory: None,
        }
    }

    /// How long a batch of expansions may take before the next ones are
    /// made smaller (see `BATCH_TIME`, the default). The states found and
    /// the counts of a finished search do not depend on it: tests set it to
    /// zero, which makes every batch after the first one unit of 1,024
    /// states.
    pub fn batch_time(mut self, time: Duration) -> Self {
        self.batch_time = time;
        self
    }

    /// Keeps the states that wait to be expanded compressed (Zstandard, a
    /// chunk of 256 KiB at a time) once the search holds more than
    /// `bytes`. The default is a quarter of [`Limits::max_memory`], or 2
    /// GiB without one: small searches run at full speed, large ones hold
    /// about twice as many states before the memory limit stops them.
    /// Counts and verdicts do not depend on it.
    pub fn compress_above(mut self, bytes: u64) -> Self {
        self.compress_above = Some(bytes);
        self
    }

    /// Keeps the search's states on disk in `options.dir` instead of in
    /// memory, and continues from what the directory holds (see
    /// `disk` and `docs/engine.md`): the same counts as the
    /// search in memory, in a few bytes of memory per position of the
    /// current layer. `id` names the search, as for
    /// [`checkpoint`](Layered::checkpoint) (which it replaces: the
    /// directory is its own checkpoint). Deduplicated searches only.
    pub fn disk(mut self, options: DiskOptions, id: impl Into<String>) -> Self {
        self.disk = Some((options, id.into()));
        self
    }

    /// The most bytes a search on disk keeps in memory of what it would
    /// otherwise write: output files between two manifests, and the states
    /// that wait between the two halves of a round (a quarter of it: past a
    /// sixteenth of that, a part's new states go to a file and are read back
    /// a chunk at a time). The default is 32 MiB, or an eighth of [`Limits::max_memory`]
    /// if that is less. Counts and verdicts do not depend on it.
    pub fn disk_memory(mut self, bytes: u64) -> Self {
        self.disk_memory = Some(bytes);
        self
    }

    /// Deduplication on (the default) or off (for trees only: a problem
    /// with cycles would never end).
    pub fn dedup(mut self, dedup: bool) -> Self {
        self.dedup = dedup;
        self
    }

    /// When the search stops, apart from limits.
    pub fn stop(mut self, stop: Stop) -> Self {
        self.stop = stop;
        self
    }

    /// Resource limits. `max_positions` counts distinct states, `max_memory`
    /// the engine's own estimate ([`LayeredStats::peak_memory_bytes`]).
    /// Limits are checked between batches of at most 65,536 expansions
    /// (fewer where they are slow, see [`Layered::batch_time`]).
    pub fn limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// A cancel flag borrowed rather than shared (as the solver holds it).
    pub fn cancel_flag(mut self, cancel: &'a AtomicBool) -> Self {
        self.cancel = Some(cancel);
        self
    }

    /// At most `jobs` threads (a pool of its own); `None`: the current
    /// rayon pool.
    pub fn jobs(mut self, jobs: Option<usize>) -> Self {
        self.jobs = jobs;
        self
    }

    /// Writes the search's state to `dir` at every layer boundary, and
    /// continues from what `dir` holds. `id` names the search (the problem
    /// and its settings): a checkpoint of another search is refused.
    pub fn checkpoint(mut self, dir: impl Into<PathBuf>, id: impl Into<String>) -> Self {
        self.checkpoint = Some((dir.into(), id.into()));
        self
    }

    /// What the caller gathered alongside the search (from its
    /// [`on_leaf`](Layered::on_leaf) callback, say) kept in the checkpoint:
    /// `save` is called at every layer boundary and its text written to
    /// the manifest; `restore` is called with that text when a run
    /// resumes, before the search continues. Without a checkpoint neither
    /// is called.
    pub fn checkpoint_note(
        mut self,
        save: impl FnMut() -> String + 'a,
        restore: impl FnMut(&str) + 'a,
    ) -> Self {
        self.note = Some((Box::new(save), Box::new(restore)));
        self
    }

    /// Calls `f` with every leaf met (after deduplication, in a fixed order
    /// whatever the threads) and its depth; [`ControlFlow::Break`] stops the
    /// search with [`StopReason::Callback`]. Deduplicated searches only.
    pub fn on_leaf(mut self, f: impl FnMut(&P::State, u32) -> ControlFlow<()> + 'a) -> Self {
        self.on_leaf = Some(Box::new(f));
        self
    }

    /// Calls `f` with the statistics so far after every batch of 65,536
    /// expansions.
    pub fn on_progress(mut self, f: impl FnMut(&LayeredStats) + 'a) -> Self {
        self.on_progress = Some(Box::new(f));
        self
    }

    /// Runs the search. Fails only on checkpoint files.
    pub fn run(self) -> Result<LayeredOutcome<P::State>, CheckpointError> {
        let pool = self.jobs.map(|jobs| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(jobs.max(1))
                .build()
                .expect("a rayon pool of a few threads")
        });
        let pool = Pool(pool.as_ref());
        if self.dedup && self.disk.is_some() {
            self.run_disk(pool)
        } else if self.dedup {
            self.run_layers(pool)
        } else {
            Ok(self.run_tree(pool))
        }
    }

    fn exceeded(&self, stats: &LayeredStats, started: Instant, memory: u64) -> Option<StopReason> {
        exceeded(&self.limits, self.cancel, stats.positions, started, memory)
    }

    /// The deduplicated search, layer by layer.
    fn run_layers(mut self, pool: Pool) -> Result<LayeredOutcome<P::State>, CheckpointError> {
        let problem = self.problem;
        let started = Instant::now();
        let mut stats = LayeredStats {
            threads: pool.threads(),
            ..LayeredStats::default()
        };
        let mut pending: Pending = (0..SHARDS).map(|_| BTreeMap::new()).collect();
        let mut done_through: Option<u64> = None;

        let start = problem.start();
        let start_layer = problem.layer(&start);
        let mut scratch = Vec::new();
        if let Some((dir, id)) = &self.checkpoint {
            if let Some(manifest) = read_manifest(dir, id)? {
                stats.layers = manifest.layers;
                for layer in &stats.layers.clone() {
                    stats.add_layer(layer);
                }
                stats.max_depth = manifest.max_depth;
                stats.resumed_layers = stats.layers.len();
                done_through = stats.layers.last().map(|l| l.layer);
                if let Some((_, restore)) = &mut self.note {
                    restore(&manifest.note);
                }
                for layer in &stats.layers {
                    let producer = problem.whole_layer(layer.layer);
                    read_spill(dir, layer.layer, |target, fp, record| {
                        if Some(target) > done_through {
                            let across = problem.whole_layer(target) != producer;
                            pending_push(&mut pending, target, fp, record, across);
                        }
                    })?;
                }
            } else {
                fs::create_dir_all(dir).map_err(|error| CheckpointError::Io {
                    path: dir.clone(),
                    error,
                })?;
            }
        }
        if done_through.is_none_or(|done| start_layer > done) {
            scratch.clear();
            scratch.extend_from_slice(&0u16.to_le_bytes());
            problem.pack(&start, &mut scratch);
            let fp = problem.fingerprint(&start);
            pending_push(&mut pending, start_layer, fp, &scratch, true);
        }
        drop(start);
        let mut pending_bytes: u64 = pending
            .iter()
            .flat_map(BTreeMap::values)
            .map(bucket_bytes)
            .sum();

        let mut goal: Option<FoundGoal<P::State>> = None;
        let mut compressing = false;
        let compress_above = self.compress_above.unwrap_or_else(|| {
            self.limits
                .max_memory
                .map_or(DEFAULT_COMPRESS_ABOVE, |max| max / 4)
        });
        // Units per batch (see [`BATCH_TIME`]).
        let mut batch_units = BATCH / UNIT;
        let end = 'search: loop {
            let Some((layer, buckets)) = pending_pop(&mut pending) else {
                break End::Exhausted;
            };
            pending_bytes = pending_bytes.saturating_sub(buckets.iter().map(bucket_bytes).sum());
            let mut spill = match &self.checkpoint {
                Some((dir, _)) => Some(SpillWriter::create(dir, layer)?),
                None => None,
            };
            let mut here = LayerStats {
                layer,
                ..LayerStats::default()
            };
            // The layer's entries, deduplicated as they came: the tables
            // and the first frontier.
            here.entries_across = Some(buckets.iter().map(|b| b.across).sum());
            let (mut tables, mut frontier): (Vec<FpTable>, Vec<Arena>) =
                buckets.into_iter().map(|b| (b.table, b.arena)).unzip();
            let new = frontier.iter().map(|a| a.len() as u64).sum::<u64>();
            here.entries = new;
            here.positions += new;
            stats.positions += new;

            while frontier.iter().any(|a| !a.is_empty()) {
                problem.between_steps();
                here.steps += 1;
                let mut next: Vec<Arena> = (0..SHARDS).map(|_| Arena::default()).collect();
                // Work units over the frontier, in shard order.
                // Work units of up to UNIT states, in shard order; a unit
                // may span several shards' arenas (small steps are common).
                let mut units: Vec<Vec<(usize, usize, usize)>> = Vec::new();
                let mut filling = 0;
                for (shard, arena) in frontier.iter().enumerate() {
                    let mut from = 0;
                    while from < arena.len() {
                        if units.is_empty() || filling == UNIT {
                            units.push(Vec::new());
                            filling = 0;
                        }
                        let to = arena.len().min(from + UNIT - filling);
                        units
                            .last_mut()
                            .expect("just pushed")
                            .push((shard, from, to));
                        filling += to - from;
                        from = to;
                    }
                }
                let keep_leaves = self.on_leaf.is_some();
                let mut next_unit = 0;
                while next_unit < units.len() {
                    let batch_started = Instant::now();
                    let batch = &units[next_unit..units.len().min(next_unit + batch_units)];
                    next_unit += batch.len();
                    // Records kept compressed are brought back for the batch.
                    if compressing {
                        let mut ranges = vec![(usize::MAX, 0); SHARDS];
                        for &(shard, from, to) in batch.iter().flatten() {
                            ranges[shard].0 = ranges[shard].0.min(from);
                            ranges[shard].1 = ranges[shard].1.max(to);
                        }
                        pool.install(|| {
                            frontier
                                .par_iter_mut()
                                .zip(ranges)
                                .for_each(|(arena, (from, to))| {
                                    arena.thaw(from, to);
                                })
                        });
                    }
                    // A unit that starts once the time is up or the search
                    // is cancelled expands nothing: the search stops after
                    // this batch (the check below sees the same), so a
                    // slow batch overruns by a unit, not by the batch.
                    let (limits, cancel) = (&self.limits, self.cancel);
                    let stopping = || out_of_time(limits, cancel, started).is_some();
                    let mut outs: Vec<UnitOut<P::State>> = pool.install(|| {
                        batch
                            .par_iter()
                            .map(|segments| {
                                if stopping() {
                                    UnitOut::empty()
                                } else {
                                    expand_unit(problem, layer, &frontier, segments, keep_leaves)
                                }
                            })
                            .collect()
                    });
                    // Deduplicate each shard's same-layer successors and
                    // build the new ones, each shard by one thread.
                    let sames: Vec<ByShard<Entry>> = outs
                        .iter_mut()
                        .map(|o| std::mem::take(&mut o.same))
                        .collect();
                    let laters: Vec<ByShard<Entry>> = outs
                        .iter_mut()
                        .map(|o| std::mem::take(&mut o.later))
                        .collect();
                    let candidates: usize = sames.iter().map(ByShard::len).sum();
                    let (new, dups): (u64, u64) = pool.install(|| {
                        tables
                            .par_iter_mut()
                            .zip(next.par_iter_mut())
                            .enumerate()
                            .with_min_len(shards_per_task(candidates))
                            .map(|(shard, (table, next))| {
                                let mut fresh: Vec<&Entry> = Vec::new();
                                let entries = sames.iter().flat_map(|o| o.shard(shard));
                                for_each_prefetched(
                                    &mut (&mut *table, &mut fresh),
                                    entries,
                                    |(table, _), e| table.prefetch(e.fp),
                                    |(table, fresh), e| {
                                        if table.insert(e.fp) {
                                            fresh.push(e);
                                        }
                                    },
                                );
                                let new = fresh.len() as u64;
                                let dups = sames
                                    .iter()
                                    .map(|o| o.shard(shard).len() as u64)
                                    .sum::<u64>()
                                    - new;
                                for_each_prefetched(
                                    next,
                                    fresh.into_iter(),
                                    |_, e| {
                                        frontier[e.parent_shard as usize]
                                            .prefetch(e.parent as usize)
                                    },
                                    |next, e| build(problem, &frontier, e, next),
                                );
                                (new, dups)
                            })
                            .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
                    });
                    here.positions += new;
                    stats.positions += new;
                    here.duplicates += dups;
                    // Successors for later layers join their pending
                    // buffers, each shard by one thread.
                    let later_count: usize = laters.iter().map(ByShard::len).sum();
                    let spilling = spill.is_some();
                    let whole = problem.whole_layer(layer);
                    let (dups, to_spill) = pool.install(|| {
                        pending
                            .par_iter_mut()
                            .enumerate()
                            .with_min_len(shards_per_task(later_count))
                            .map(|(shard, pending)| {
                                let mut context = (pending, 0, Vec::new());
                                let entries = laters.iter().flat_map(|o| o.shard(shard));
                                for_each_prefetched(
                                    &mut context,
                                    entries,
                                    |(pending, ..), e| {
                                        if let Some(bucket) = pending.get(&e.layer) {
                                            bucket.table.prefetch(e.fp);
                                        }
                                    },
                                    |(pending, dups, to_spill), e| {
                                        assert!(
                                            e.layer > layer,
                                            "a move led from layer {layer} to layer {}: \
                                             Problem::layer must never go down",
                                            e.layer
                                        );
                                        let bucket = pending.entry(e.layer).or_default();
                                        let across = problem.whole_layer(e.layer) != whole;
                                        if bucket.table.insert(e.fp) {
                                            bucket.across += u64::from(across);
                                            build(problem, &frontier, e, &mut bucket.arena);
                                            let at = bucket.arena.len() - 1;
                                            if spilling {
                                                to_spill.push((e.layer, e.fp, at as u32));
                                            }
                                        } else {
                                            *dups += 1;
                                        }
                                    },
                                );
                                let (_, dups, to_spill) = context;
                                (dups, (shard, to_spill))
                            })
                            .fold(
                                || (0, Vec::new()),
                                |mut a, b| {
                                    a.0 += b.0;
                                    if !b.1.1.is_empty() {
                                        a.1.push(b.1);
                                    }
                                    a
                                },
                            )
                            .reduce(
                                || (0, Vec::new()),
                                |mut a, b| {
                                    a.1.extend(b.1);
                                    (a.0 + b.0, a.1)
                                },
                            )
                    });
                    here.duplicates += dups;
                    if let Some(spill) = &mut spill {
                        for (shard, records) in to_spill {
                            for (target, fp, at) in records {
                                let record = pending[shard][&target].arena.get(at as usize);
                                spill.write(target, fp, record)?;
                            }
                        }
                    }
                    // The frontier is expanded in shard order, each shard's
                    // records in order, and nothing reads a record again
                    // once its batch is done (its successors are built):
                    // the chunks behind the batch go now, so the frontier
                    // shrinks while the next one grows.
                    for &(shard, _, to) in batch.iter().flatten() {
                        frontier[shard].free_before(to);
                    }
                    // Past `compress_above` bytes, the records that wait
                    // (the next frontier, the later layers) are kept
                    // compressed, a full chunk at a time; the pending
                    // layers' bytes are counted afresh.
                    let compress = compressing;
                    pending_bytes = pool.install(|| {
                        pending
                            .par_iter_mut()
                            .map(|layers| {
                                layers
                                    .values_mut()
                                    .map(|bucket| {
                                        if compress {
                                            bucket.arena.compact();
                                        }
                                        bucket_bytes(bucket)
                                    })
                                    .sum::<u64>()
                            })
                            .sum()
                    });
                    if compress {
                        pool.install(|| next.par_iter_mut().for_each(Arena::compact));
                    }
                    let mut leaves = Vec::new();
                    for out in outs {
                        here.expanded += out.expanded;
                        here.moves += out.moves;
                        here.goals += out.goals;
                        here.leaves += out.leaves;
                        here.dead += out.dead;
                        stats.max_depth = stats.max_depth.max(out.max_depth);
                        if goal.is_none() {
                            goal = out.goal;
                        }
                        leaves.extend(out.leaf_states);
                    }
                    let memory = memory(&tables, &frontier, &next, pending_bytes);
                    let table_bytes: u64 = tables.iter().map(FpTable::bytes).sum();
                    if table_bytes > stats.peak_table_bytes {
                        stats.peak_table_bytes = table_bytes;
                        stats.peak_table_positions =
                            tables.iter().map(|t| t.len()).sum::<usize>() as u64;
                    }
                    stats.peak_memory_bytes = stats.peak_memory_bytes.max(memory);
                    compressing |= memory > compress_above;
                    let snapshot = |stats: &LayeredStats, here: &LayerStats| {
                        let mut s = stats.clone();
                        s.add_counts(here);
                        s.layers.push(here.clone());
                        s.elapsed = started.elapsed();
                        (s.queued, s.queued_across) = queued(&pending);
                        s
                    };
                    if let Some(on_leaf) = &mut self.on_leaf {
                        for (state, depth) in &leaves {
                            if on_leaf(state, *depth).is_break() {
                                stats = snapshot(&stats, &here);
                                break 'search End::Stopped(StopReason::Callback);
                            }
                        }
                    }
                    if goal.is_some() && self.stop == Stop::FirstGoal {
                        stats = snapshot(&stats, &here);
                        break 'search End::GoalFound;
                    }
                    if let Some(reason) = self.exceeded(&stats, started, memory) {
                        stats = snapshot(&stats, &here);
                        break 'search End::Stopped(reason);
                    }
                    if let Some(progress) = &mut self.on_progress {
                        progress(&snapshot(&stats, &here));
                    }
                    let took = batch_started.elapsed();
                    if self.limits.time.is_none() {
                        // Whole batches: the same stop on every machine.
                    } else if took > self.batch_time {
                        // As many units as would have taken the batch time.
                        let fit = batch_units as u128 * self.batch_time.as_nanos()
                            / took.as_nanos().max(1);
                        batch_units = (fit as usize).clamp(1, (batch_units / 2).max(1));
                    } else if took < self.batch_time / 4 {
                        batch_units = (batch_units * 2).min(BATCH / UNIT);
                    }
                }
                frontier = next;
            }
            // The layer is finished: its table goes.
            drop(tables);
            stats.add_counts(&here);
            stats.layers.push(here);
            (stats.queued, stats.queued_across) = queued(&pending);
            if let (Some(spill), Some((dir, id))) = (spill, &self.checkpoint) {
                spill.finish()?;
                let note = match &mut self.note {
                    Some((save, _)) => save(),
                    None => String::new(),
                };
                write_manifest(dir, id, &stats, note)?;
            }
        };
        stats.elapsed = started.elapsed();
        Ok(LayeredOutcome { end, stats, goal })
    }
}
