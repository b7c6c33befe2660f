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

mod disk;
use super::{End, Limits, NodeKind, Problem, Stop, StopReason};
pub use disk::{DiskOptions, LAUNCH_FROM, PART_ENV, ROUND_ENV};

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

/// What the search did in one layer.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct LayerStats {
    /// The layer's key ([`Problem::layer`]).
    pub layer: u64,
    /// Distinct states of the layer.
    pub positions: u64,
    /// States whose successors were generated.
    pub expanded: u64,
    /// Moves generated from the layer's states (into any layer).
    pub moves: u64,
    /// Generated states of this layer that were already stored.
    pub duplicates: u64,
    /// Goal states.
    pub goals: u64,
    /// Leaf states (Spider: reveals).
    pub leaves: u64,
    /// Dead ends ([`NodeKind::Dead`]).
    pub dead: u64,
    /// Breadth-first steps inside the layer.
    pub steps: u32,
    /// States the layer began with: those that moves from earlier layers
    /// (or the start) led to.
    #[serde(default)]
    pub entries: u64,
    /// Of the entries, those that came from another whole layer
    /// ([`Problem::whole_layer`]; the start is one): all of them when the
    /// layers are whole. A state that came from both counts here. `None`
    /// in a checkpoint written before it was counted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entries_across: Option<u64>,
}

/// Statistics of a layered search.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct LayeredStats {
    /// Distinct states over all layers (with deduplication off: generated
    /// states, the start included).
    pub positions: u64,
    /// States expanded.
    pub expanded: u64,
    /// Moves generated.
    pub moves: u64,
    /// Generated states already stored.
    pub duplicates: u64,
    /// Goals met.
    pub goals: u64,
    /// Leaves met.
    pub leaves: u64,
    /// Dead ends met.
    pub dead: u64,
    /// The most moves from the start of any state (along the lines the
    /// search found, which are shortest within a layer).
    pub max_depth: u32,
    /// Every layer finished or started, in the order searched.
    pub layers: Vec<LayerStats>,
    /// Wall-clock time (of this run, when resumed).
    pub elapsed: Duration,
    /// Threads used.
    pub threads: usize,
    /// The largest estimate of the engine's memory: tables, the packed
    /// frontier and the pending buffers.
    pub peak_memory_bytes: u64,
    /// The largest size of the fingerprint tables, in bytes.
    pub peak_table_bytes: u64,
    /// Fingerprints in the tables when they were largest.
    pub peak_table_positions: u64,
    /// Layers finished in an earlier run and read from the checkpoint.
    pub resumed_layers: usize,
    /// On disk: the times the current layer's seen sets passed their
    /// budget ([`DiskOptions::seen_memory`]) and were dropped, its rounds so
    /// far to be looked up on disk (in this run, when resumed).
    pub seen_dropped: u64,
    /// On disk: the rounds whose seen sets outgrew the memory left, run
    /// again split, a wave of parts at a time ([`DiskOptions::split_from`]).
    pub rounds_split: u64,
    /// States waiting in later layers, not yet begun (deduplicated per
    /// layer; on disk, records: a layer's duplicates go when it reads
    /// them), when these statistics were taken.
    pub queued: u64,
    /// Of them, those that came from another whole layer
    /// ([`Problem::whole_layer`]): all of them when the layers are whole.
    pub queued_across: u64,
}

impl LayeredStats {
    /// Bytes per stored state in the fingerprint tables at their largest.
    pub fn table_bytes_per_position(&self) -> f64 {
        self.peak_table_bytes as f64 / self.peak_table_positions.max(1) as f64
    }

    /// Distinct states per second of wall-clock time.
    pub fn positions_per_second(&self) -> f64 {
        self.positions as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// Adds a layer read back from a checkpoint: its positions and its
    /// [counts](Self::add_counts).
    fn add_layer(&mut self, layer: &LayerStats) {
        self.positions += layer.positions;
        self.add_counts(layer);
    }

    /// Adds a layer's counts of expansions, moves, duplicates, goals,
    /// leaves and dead ends (its positions are counted as they come).
    fn add_counts(&mut self, layer: &LayerStats) {
        self.expanded += layer.expanded;
        self.moves += layer.moves;
        self.duplicates += layer.duplicates;
        self.goals += layer.goals;
        self.leaves += layer.leaves;
        self.dead += layer.dead;
    }
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

/// Why a checkpoint could not be used.
#[derive(Debug, thiserror::Error)]
pub enum CheckpointError {
    /// Reading or writing the directory failed.
    #[error("checkpoint {path}: {}", crate::text::io_reason(error))]
    Io {
        path: PathBuf,
        /// Said in the message, so not a `source` (said once).
        error: std::io::Error,
    },
    /// The directory holds the checkpoint of another search.
    #[error(
        "checkpoint {path} belongs to another search ({found}); use another directory or remove it"
    )]
    OtherSearch { path: PathBuf, found: String },
    /// A file of the directory is not what the search wrote.
    #[error("checkpoint {path}: damaged ({what})")]
    Damaged { path: PathBuf, what: String },
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

    /// A tree (deduplication off): breadth-first until every thread has
    /// work, then depth-first from each state of that frontier in parallel.
    fn run_tree(self, pool: Pool) -> LayeredOutcome<P::State> {
        let problem = self.problem;
        let started = Instant::now();
        let threads = pool.threads();
        let mut stats = LayeredStats {
            threads,
            positions: 1,
            ..LayeredStats::default()
        };
        let mut goal = None;
        let mut frontier = vec![(problem.start(), 0u32)];
        let mut out = Vec::new();
        let mut counts = TreeCounts::default();
        // Breadth-first to a frontier of a few hundred states per thread.
        while !frontier.is_empty() && frontier.len() < 256 * threads {
            let mut next = Vec::new();
            for (state, depth) in frontier {
                counts.max_depth = counts.max_depth.max(depth);
                match problem.kind(&state) {
                    NodeKind::Inner => {}
                    NodeKind::Leaf => {
                        counts.leaves += 1;
                        continue;
                    }
                    NodeKind::Dead => {
                        counts.dead += 1;
                        continue;
                    }
                    NodeKind::Goal => {
                        counts.goals += 1;
                        if goal.is_none() {
                            goal = Some(FoundGoal {
                                fingerprint: problem.fingerprint(&state),
                                state,
                                depth,
                            });
                        }
                        continue;
                    }
                }
                counts.expanded += 1;
                out.clear();
                problem.successors(&state, &mut out);
                counts.moves += out.len() as u64;
                next.extend(out.drain(..).map(|(_, s)| (s, depth + 1)));
            }
            stats.positions += next.len() as u64;
            frontier = next;
            if goal.is_some() && self.stop == Stop::FirstGoal {
                frontier.clear();
            }
        }
        let found = Mutex::new(goal);
        let stop_flag =
            AtomicBool::new(self.stop == Stop::FirstGoal && found.lock().unwrap().is_some());
        let stopped: Mutex<Option<StopReason>> = Mutex::new(None);
        let generated = AtomicU64::new(0);
        let (limits, cancel, stop) = (&self.limits, self.cancel, self.stop);
        let total = pool.install(|| {
            frontier
                .into_par_iter()
                .map(|(state, depth)| {
                    let mut counts = TreeCounts::default();
                    let mut stack = vec![(state, depth)];
                    let mut out = Vec::new();
                    let mut since_check = 0u32;
                    while let Some((state, depth)) = stack.pop() {
                        counts.max_depth = counts.max_depth.max(depth);
                        match problem.kind(&state) {
                            NodeKind::Inner => {}
                            NodeKind::Leaf => {
                                counts.leaves += 1;
                                continue;
                            }
                            NodeKind::Dead => {
                                counts.dead += 1;
                                continue;
                            }
                            NodeKind::Goal => {
                                counts.goals += 1;
                                let mut found = found.lock().unwrap();
                                if found.is_none() {
                                    *found = Some(FoundGoal {
                                        fingerprint: problem.fingerprint(&state),
                                        state,
                                        depth,
                                    });
                                }
                                if stop == Stop::FirstGoal {
                                    stop_flag.store(true, Ordering::Relaxed);
                                }
                                continue;
                            }
                        }
                        since_check += 1;
                        if since_check == 1 << 16 {
                            since_check = 0;
                            let so_far = generated.fetch_add(counts.generated, Ordering::Relaxed)
                                + counts.generated;
                            counts.reported += counts.generated;
                            counts.generated = 0;
                            if let Some(reason) = exceeded(limits, cancel, so_far, started, 0) {
                                stopped.lock().unwrap().get_or_insert(reason);
                                stop_flag.store(true, Ordering::Relaxed);
                            }
                        }
                        if stop_flag.load(Ordering::Relaxed) {
                            break;
                        }
                        counts.expanded += 1;
                        out.clear();
                        problem.successors(&state, &mut out);
                        counts.moves += out.len() as u64;
                        counts.generated += out.len() as u64;
                        // Reversed, so that the first successor is expanded first.
                        stack.extend(out.drain(..).rev().map(|(_, s)| (s, depth + 1)));
                    }
                    counts.reported += counts.generated;
                    counts
                })
                .reduce(TreeCounts::default, TreeCounts::add)
        });
        let counts = counts.add(total);
        stats.positions += counts.reported;
        stats.expanded = counts.expanded;
        stats.moves = counts.moves;
        stats.goals = counts.goals;
        stats.leaves = counts.leaves;
        stats.dead = counts.dead;
        stats.max_depth = counts.max_depth;
        stats.elapsed = started.elapsed();
        let goal = found.into_inner().unwrap();
        let end = match stopped.into_inner().unwrap() {
            Some(reason) => End::Stopped(reason),
            None if goal.is_some() && self.stop == Stop::FirstGoal => End::GoalFound,
            None => End::Exhausted,
        };
        LayeredOutcome { end, stats, goal }
    }

    /// A line of moves from the start to the state with fingerprint
    /// `target`: a second search, one thread, layer by layer, that keeps a
    /// parent link (32 bytes and the move) for every state it stores and
    /// stops when it meets the target. `None` if the target is not
    /// reachable (or a limit of this search stopped it first).
    pub fn line_to(&self, target: u128) -> Option<Vec<P::Move>> {
        let problem = self.problem;
        let started = Instant::now();
        let start = problem.start();
        let start_fp = problem.fingerprint(&start);
        let mut parents: HashMap<u128, Option<(u128, P::Move)>, ahash::RandomState> =
            HashMap::default();
        parents.insert(start_fp, None);
        let line = |parents: &HashMap<u128, Option<(u128, P::Move)>, ahash::RandomState>| {
            let mut line = Vec::new();
            let mut at = target;
            while let Some(Some((parent, mv))) = parents.get(&at) {
                line.push(mv.clone());
                at = *parent;
            }
            line.reverse();
            line
        };
        if start_fp == target {
            return Some(Vec::new());
        }
        let mut pending: BTreeMap<u64, Vec<P::State>> = BTreeMap::new();
        pending.insert(problem.layer(&start), vec![start]);
        let mut out = Vec::new();
        let mut checks = 0u32;
        while let Some((layer, entries)) = pending.pop_first() {
            let mut queue = std::collections::VecDeque::from(entries);
            while let Some(state) = queue.pop_front() {
                if problem.kind(&state) != NodeKind::Inner {
                    continue;
                }
                checks += 1;
                if checks.is_multiple_of(4096) {
                    let probe = LayeredStats {
                        positions: parents.len() as u64,
                        ..LayeredStats::default()
                    };
                    if self.exceeded(&probe, started, 0).is_some() {
                        return None;
                    }
                }
                let from = problem.fingerprint(&state);
                out.clear();
                problem.successors(&state, &mut out);
                for (mv, next) in out.drain(..) {
                    let fp = problem.fingerprint(&next);
                    if parents.contains_key(&fp) {
                        continue;
                    }
                    parents.insert(fp, Some((from, mv)));
                    if fp == target {
                        return Some(line(&parents));
                    }
                    let next_layer = problem.layer(&next);
                    if next_layer == layer {
                        queue.push_back(next);
                    } else {
                        pending.entry(next_layer).or_default().push(next);
                    }
                }
            }
        }
        None
    }
}

/// How many shards one rayon task takes when `items` are spread over the
/// shards: all of them when there are few items (one task, no scheduling
/// cost: small layers and steps are many), a few when there are many.
fn shards_per_task(items: usize) -> usize {
    if items < 16_384 { SHARDS } else { 4 }
}

/// The pool a search runs its parallel parts in: its own, or the current
/// one.
#[derive(Clone, Copy)]
struct Pool<'p>(Option<&'p rayon::ThreadPool>);

impl Pool<'_> {
    fn install<R: Send>(self, f: impl FnOnce() -> R + Send) -> R {
        match self.0 {
            Some(pool) => pool.install(f),
            None => f(),
        }
    }

    fn threads(self) -> usize {
        match self.0 {
            Some(pool) => pool.current_num_threads(),
            None => rayon::current_num_threads(),
        }
    }
}

/// The limit that is exceeded, if any.
fn exceeded(
    limits: &Limits,
    cancel: Option<&AtomicBool>,
    positions: u64,
    started: Instant,
    memory: u64,
) -> Option<StopReason> {
    if let Some(reason) = out_of_time(limits, cancel, started) {
        return Some(reason);
    }
    if limits.max_positions.is_some_and(|max| positions >= max) {
        return Some(StopReason::Positions);
    }
    if limits.max_memory.is_some_and(|max| memory >= max) {
        return Some(StopReason::Memory);
    }
    if super::memory::machine_low() {
        return Some(StopReason::MachineMemory);
    }
    None
}

/// Whether the search is cancelled or its time is up: the part of
/// [`exceeded`] that holds for the whole search at once, so that a unit of
/// work can ask it before it starts.
fn out_of_time(
    limits: &Limits,
    cancel: Option<&AtomicBool>,
    started: Instant,
) -> Option<StopReason> {
    let cancelled = cancel.is_some_and(|c| c.load(Ordering::Relaxed))
        || limits
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed));
    if cancelled {
        return Some(StopReason::Cancelled);
    }
    if limits.time.is_some_and(|t| started.elapsed() >= t) {
        return Some(StopReason::Time);
    }
    None
}

/// Counters of one depth-first worker of a tree search.
#[derive(Default)]
struct TreeCounts {
    expanded: u64,
    moves: u64,
    goals: u64,
    leaves: u64,
    dead: u64,
    max_depth: u32,
    /// States generated and not yet added to the shared count.
    generated: u64,
    /// States generated and added to the shared count.
    reported: u64,
}

impl TreeCounts {
    fn add(self, other: TreeCounts) -> TreeCounts {
        TreeCounts {
            expanded: self.expanded + other.expanded,
            moves: self.moves + other.moves,
            goals: self.goals + other.goals,
            leaves: self.leaves + other.leaves,
            dead: self.dead + other.dead,
            max_depth: self.max_depth.max(other.max_depth),
            generated: self.generated + other.generated,
            reported: self.reported + other.reported,
        }
    }
}

/// What one work unit produced.
struct UnitOut<S> {
    /// Successors in the same layer, by shard.
    same: ByShard<Entry>,
    /// Successors in later layers, by shard.
    later: ByShard<Entry>,
    expanded: u64,
    moves: u64,
    goals: u64,
    leaves: u64,
    dead: u64,
    max_depth: u32,
    goal: Option<FoundGoal<S>>,
    leaf_states: Vec<(S, u32)>,
}

impl<S> UnitOut<S> {
    /// A unit that expanded nothing.
    fn empty() -> Self {
        UnitOut {
            same: ByShard::default(),
            later: ByShard::default(),
            expanded: 0,
            moves: 0,
            goals: 0,
            leaves: 0,
            dead: 0,
            max_depth: 0,
            goal: None,
            leaf_states: Vec::new(),
        }
    }
}

/// A successor not built yet: its fingerprint and layer, and how to build
/// it (the parent's place in the frontier and the problem's token).
#[derive(Clone, Copy)]
struct Entry {
    fp: u128,
    layer: u64,
    /// The parent's record: its offset in its shard's frontier arena, its
    /// length and the shard.
    parent: u32,
    parent_len: u16,
    parent_shard: u16,
    token: u32,
}

/// Items sorted by the shard of their fingerprint: shard `s`'s at
/// `starts[s]..starts[s + 1]`.
struct ByShard<T> {
    items: Vec<T>,
    starts: Box<[u32; SHARDS + 1]>,
}

impl<T> Default for ByShard<T> {
    fn default() -> Self {
        ByShard {
            items: Vec::new(),
            starts: Box::new([0; SHARDS + 1]),
        }
    }
}

impl ByShard<Entry> {
    /// Sorts `entries` by shard (a counting sort, stable).
    fn sort(entries: &[Entry]) -> ByShard<Entry> {
        let mut starts = Box::new([0u32; SHARDS + 1]);
        for e in entries {
            starts[shard_of(e.fp) + 1] += 1;
        }
        for shard in 0..SHARDS {
            starts[shard + 1] += starts[shard];
        }
        let mut at = starts.clone();
        let mut items = vec![
            Entry {
                fp: 0,
                layer: 0,
                parent: 0,
                parent_len: 0,
                parent_shard: 0,
                token: 0
            };
            entries.len()
        ];
        for &e in entries {
            let shard = shard_of(e.fp);
            items[at[shard] as usize] = e;
            at[shard] += 1;
        }
        ByShard { items, starts }
    }

    fn len(&self) -> usize {
        self.items.len()
    }

    fn shard(&self, shard: usize) -> &[Entry] {
        &self.items[self.starts[shard] as usize..self.starts[shard + 1] as usize]
    }
}

/// Calls `each` on every item in order, having called `prefetch` on the
/// item a few places ahead: the table lines of a batch's successors are
/// fetched while earlier ones are being inserted.
#[inline]
fn for_each_prefetched<'e, C>(
    context: &mut C,
    items: impl Iterator<Item = &'e Entry> + Clone,
    prefetch: impl Fn(&C, &Entry),
    mut each: impl FnMut(&mut C, &'e Entry),
) {
    const AHEAD: usize = 16;
    let mut ahead = items.clone();
    for e in ahead.by_ref().take(AHEAD) {
        prefetch(context, e);
    }
    for e in items {
        if let Some(next) = ahead.next() {
            prefetch(context, next);
        }
        each(context, e);
    }
}

/// Builds the successor `entry` stands for and appends its record (depth,
/// packed state) to `arena`.
#[inline]
fn build<P: PackedProblem>(problem: &P, frontier: &[Arena], entry: &Entry, arena: &mut Arena)
where
    P::State: Send,
{
    let parent = frontier[entry.parent_shard as usize]
        .slice(entry.parent as usize, entry.parent_len as usize);
    let depth = u16::from_le_bytes([parent[0], parent[1]]).saturating_add(1);
    arena.push_with(|bytes| {
        bytes.extend_from_slice(&depth.to_le_bytes());
        problem.successor_packed(&parent[2..], entry.token, bytes);
    });
}

/// Expands the frontier states `segments` (shard, from, to) list: notes
/// each successor's fingerprint, layer and token, sorted by shard; builds
/// none of them.
fn expand_unit<P: PackedProblem>(
    problem: &P,
    layer: u64,
    frontier: &[Arena],
    segments: &[(usize, usize, usize)],
    keep_leaves: bool,
) -> UnitOut<P::State>
where
    P::State: Send,
{
    let mut unit = UnitOut::empty();
    // Scratch reused by every unit this thread expands (no allocation, no
    // fresh pages per unit).
    let (mut out, mut same, mut later) = SCRATCH.take();
    out.clear();
    same.clear();
    later.clear();
    for (shard, i) in segments
        .iter()
        .flat_map(|&(shard, from, to)| (from..to).map(move |i| (shard, i)))
    {
        let (offset, record) = frontier[shard].get_at(i);
        let depth = u16::from_le_bytes([record[0], record[1]]) as u32;
        unit.max_depth = unit.max_depth.max(depth);
        out.clear();
        match problem.expand_packed(&record[2..], &mut out) {
            NodeKind::Inner => {}
            NodeKind::Leaf => {
                unit.leaves += 1;
                if keep_leaves {
                    unit.leaf_states.push((problem.unpack(&record[2..]), depth));
                }
                continue;
            }
            NodeKind::Dead => {
                unit.dead += 1;
                continue;
            }
            NodeKind::Goal => {
                unit.goals += 1;
                if unit.goal.is_none() {
                    let state = problem.unpack(&record[2..]);
                    unit.goal = Some(FoundGoal {
                        fingerprint: problem.fingerprint(&state),
                        state,
                        depth,
                    });
                }
                continue;
            }
        }
        unit.expanded += 1;
        unit.moves += out.len() as u64;
        for s in &out {
            let entry = Entry {
                fp: s.fingerprint,
                layer: s.layer,
                parent: offset as u32,
                parent_len: record.len() as u16,
                parent_shard: shard as u16,
                token: s.token,
            };
            if s.layer == layer {
                same.push(entry);
            } else {
                later.push(entry);
            }
        }
    }
    unit.same = ByShard::sort(&same);
    unit.later = ByShard::sort(&later);
    SCRATCH.set((out, same, later));
    unit
}

thread_local! {
    /// [`expand_unit`]'s scratch: successors of one state, then the unit's
    /// same-layer and later-layer entries before they are sorted.
    static SCRATCH: std::cell::Cell<(Vec<Successor>, Vec<Entry>, Vec<Entry>)> =
        const { std::cell::Cell::new((Vec::new(), Vec::new(), Vec::new())) };
}

/// The states waiting for later layers: per shard, per layer.
type Pending = Vec<BTreeMap<u64, Bucket>>;

/// Adds a state to layer `layer`'s pending buffer, unless it is there;
/// `across` when it came from another whole layer.
fn pending_push(pending: &mut Pending, layer: u64, fp: u128, record: &[u8], across: bool) {
    let bucket = pending[shard_of(fp)].entry(layer).or_default();
    if bucket.push(fp, record) && across {
        bucket.across += 1;
    }
}

/// States waiting in the pending layers, and of them those that came from
/// another whole layer.
fn queued(pending: &Pending) -> (u64, u64) {
    pending
        .iter()
        .flat_map(BTreeMap::values)
        .map(|bucket| (bucket.arena.len() as u64, bucket.across))
        .fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
}

/// The lowest pending layer with its buckets, one per shard.
fn pending_pop(pending: &mut Pending) -> Option<(u64, Vec<Bucket>)> {
    let layer = pending
        .iter()
        .filter_map(|shard| shard.first_key_value().map(|(&layer, _)| layer))
        .min()?;
    let buckets = pending
        .iter_mut()
        .map(|shard| shard.remove(&layer).unwrap_or_default())
        .collect();
    Some((layer, buckets))
}

#[inline]
fn shard_of(fp: u128) -> usize {
    (fp >> 120) as usize
}

/// Estimated bytes held by the engine.
fn memory(tables: &[FpTable], frontier: &[Arena], next: &[Arena], pending_bytes: u64) -> u64 {
    tables.iter().map(FpTable::bytes).sum::<u64>()
        + frontier.iter().chain(next).map(Arena::bytes).sum::<u64>()
        + pending_bytes
}

/// Bytes a pending bucket takes: its table and its records.
fn bucket_bytes(bucket: &Bucket) -> u64 {
    bucket.table.bytes() + bucket.arena.bytes()
}

/// The most bytes a record is expected to take: a Spider position with
/// every card face up (22 + 104), its reveals, the move back and the
/// depth.
const RECORD_ROOM: usize = 160;

/// Zstandard contexts of a thread and room for one compressed chunk (see
/// [`Arena::compact`]).
type ZstdScratch = (
    Option<zstd::bulk::Compressor<'static>>,
    Option<zstd::bulk::Decompressor<'static>>,
    Vec<u8>,
);

thread_local! {
    static ZSTD: std::cell::RefCell<ZstdScratch> = const { std::cell::RefCell::new((None, None, Vec::new())) };
}

/// The Zstandard level of the waiting states: 2 compressed a 256 KiB chunk
/// of Spider records 6.8 times at 590 MB/s (`zstd -b1 -e3`), level 1 6.1
/// times at 560 MB/s, LZ4 3.2 times at 1,000 MB/s; see `docs/engine.md`.
const ZSTD_LEVEL: i32 = 2;

/// Bytes in a full chunk of an [`Arena`] (4 KiB in the unit tests, so
/// that small searches fill, compress and free many chunks).
const CHUNK: usize = if cfg!(test) { 1 << 12 } else { 1 << 18 };

/// Packed records one after another, in chunks of [`CHUNK`] bytes, and
/// where each record ends.
///
/// A record never spans two chunks. Only the last chunk grows (by
/// doubling, up to [`CHUNK`]); then a new one starts. So growing copies at
/// most a chunk, however large the arena, and an arena wastes less than a
/// chunk. (A single vector grown by an eighth at a time, as before
/// 2026-11-25, copied everything it held about eight times over, 6 % of the
/// exhaustive pass's time: the C library remaps rather than copies only
/// allocations above its mmap threshold, which rises to 32 MiB once such
/// blocks are freed.)
///
/// Full chunks of records that wait (the next frontier, the pending
/// layers) can be compressed ([`Arena::compact`]) and are decompressed
/// just before their records are read ([`Arena::thaw`]): a chunk is then
/// either in `chunks` (readable) or in `packed`, never both.
#[derive(Default)]
struct Arena {
    chunks: Vec<Vec<u8>>,
    /// Zstandard frames of the chunks compressed (empty where a chunk is
    /// not).
    packed: Vec<Box<[u8]>>,
    /// The chunks below this one are compressed or freed.
    compacted: usize,
    /// Where each record ends, as an offset in which chunk `k` starts at
    /// `k * CHUNK` (see [`Arena::slice`]).
    ends: Vec<u32>,
}

impl Arena {
    fn len(&self) -> usize {
        self.ends.len()
    }

    fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    fn get(&self, i: usize) -> &[u8] {
        self.get_at(i).1
    }

    /// Record `i` and its offset (for [`Arena::slice`]).
    fn get_at(&self, i: usize) -> (usize, &[u8]) {
        let end = self.ends[i] as usize;
        let mut from = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        if end > from {
            // A record that did not fit at the end of a chunk starts the
            // next one.
            from = from.max((end - 1) / CHUNK * CHUNK);
        }
        (from, self.slice(from, end - from))
    }

    /// The `len` bytes at `offset` (within one chunk).
    #[inline]
    fn slice(&self, offset: usize, len: usize) -> &[u8] {
        if len == 0 {
            return &[];
        }
        let within = offset % CHUNK;
        &self.chunks[offset / CHUNK][within..within + len]
    }

    /// The offset the next record would start at, if it fits in the last
    /// chunk.
    fn end(&self) -> usize {
        self.chunks
            .last()
            .map_or(0, |last| (self.chunks.len() - 1) * CHUNK + last.len())
    }

    /// Asks the processor to fetch the start of the record at `offset`.
    #[inline]
    fn prefetch(&self, offset: usize) {
        #[cfg(target_arch = "x86_64")]
        if let Some(byte) = self
            .chunks
            .get(offset / CHUNK)
            .and_then(|chunk| chunk.get(offset % CHUNK))
        {
            // SAFETY: a prefetch is only a hint; the address is in bounds.
            unsafe {
                std::arch::x86_64::_mm_prefetch(
                    byte as *const u8 as *const i8,
                    std::arch::x86_64::_MM_HINT_T0,
                )
            };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = offset;
    }

    fn push(&mut self, record: &[u8]) {
        self.push_with(|bytes| bytes.extend_from_slice(record));
    }

    /// Appends the record `write` writes (room is made for
    /// [`RECORD_ROOM`] bytes; a longer one moves to a chunk of its own).
    ///
    /// # Panics
    /// If a record is longer than a chunk.
    fn push_with(&mut self, write: impl FnOnce(&mut Vec<u8>)) {
        self.make_room(RECORD_ROOM);
        let last = self.chunks.last_mut().expect("make_room leaves a chunk");
        let before = last.len();
        write(last);
        if last.len() > CHUNK {
            let record = last.split_off(before);
            last.shrink_to(CHUNK);
            assert!(
                record.len() <= CHUNK,
                "a record of {} bytes is longer than an arena's chunk",
                record.len()
            );
            let mut chunk = Vec::with_capacity(CHUNK);
            chunk.extend_from_slice(&record);
            self.chunks.push(chunk);
        }
        self.ends.push(self.end() as u32);
    }

    /// Room in the last chunk for a record of up to `bytes` bytes.
    #[inline]
    fn make_room(&mut self, bytes: usize) {
        match self.chunks.last_mut() {
            Some(last) if last.len() + bytes <= CHUNK => {
                if last.capacity() - last.len() < bytes {
                    let room = (last.capacity() * 2).clamp(last.len() + bytes, CHUNK);
                    last.reserve_exact(room - last.len());
                }
            }
            Some(_) => self.chunks.push(Vec::with_capacity(CHUNK)),
            None => self.chunks.push(Vec::with_capacity(bytes.max(1 << 12))),
        }
        if self.ends.capacity() == self.ends.len() {
            let grow = (self.ends.capacity() / 8).max(1 << 10);
            self.ends.reserve_exact(grow);
        }
    }

    fn bytes(&self) -> u64 {
        (self.chunks.iter().map(Vec::capacity).sum::<usize>()
            + self.packed.iter().map(|p| p.len()).sum::<usize>()
            + self.ends.capacity() * 4) as u64
    }

    /// Where record `i` starts (as [`Arena::get_at`] gives it), without
    /// reading it.
    fn start_of(&self, i: usize) -> usize {
        let end = self.ends[i] as usize;
        let from = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        if end > from {
            from.max((end - 1) / CHUNK * CHUNK)
        } else {
            from
        }
    }

    /// Compresses every full chunk not compressed yet (all but the last,
    /// which records are still written to). Records in them cannot be read
    /// until [`Arena::thaw`] brings them back.
    fn compact(&mut self) {
        let full = self.chunks.len().saturating_sub(1);
        if self.packed.len() < full {
            self.packed.resize_with(full, Default::default);
        }
        for k in self.compacted..full {
            let chunk = std::mem::take(&mut self.chunks[k]);
            if !chunk.is_empty() {
                // Compressed into scratch room for the worst case, then
                // copied into a block of its own size: a block shrunk in
                // place would leave a hole too small for the next one.
                ZSTD.with_borrow_mut(|(compressor, _, room)| {
                    let compressor = compressor.get_or_insert_with(|| {
                        zstd::bulk::Compressor::new(ZSTD_LEVEL).expect("a compression context")
                    });
                    room.clear();
                    room.reserve(zstd::zstd_safe::compress_bound(CHUNK));
                    compressor
                        .compress_to_buffer(&chunk, room)
                        .expect("room for the worst case");
                    self.packed[k] = room.as_slice().into();
                });
            }
        }
        self.compacted = self.compacted.max(full);
    }

    /// Decompresses the chunks that hold records `from..to`, so they can
    /// be read.
    fn thaw(&mut self, from: usize, to: usize) {
        if from >= to || self.packed.is_empty() {
            return;
        }
        let first = self.start_of(from) / CHUNK;
        let last = self.start_of(to - 1) / CHUNK;
        for k in first..=last.min(self.packed.len().saturating_sub(1)) {
            if !self.packed[k].is_empty() {
                let packed = std::mem::take(&mut self.packed[k]);
                self.chunks[k] = ZSTD.with_borrow_mut(|(_, decompressor, _)| {
                    decompressor
                        .get_or_insert_with(|| {
                            zstd::bulk::Decompressor::new().expect("a decompression context")
                        })
                        .decompress(&packed, CHUNK)
                        .expect("an arena's chunks decompress as they were compressed")
                });
            }
        }
    }

    /// Frees the chunks that hold only records before record `i` (all of
    /// them when `i` is the length): those records can no longer be read.
    fn free_before(&mut self, i: usize) {
        let chunks = if i >= self.len() {
            self.chunks.len()
        } else {
            self.start_of(i) / CHUNK
        };
        for chunk in &mut self.chunks[..chunks] {
            *chunk = Vec::new();
        }
        for packed in self.packed.iter_mut().take(chunks) {
            *packed = Box::default();
        }
    }
}

/// One shard of a pending layer: the fingerprints met so far (the table
/// the layer will start with) and the records of those states.
#[derive(Default)]
struct Bucket {
    table: FpTable,
    arena: Arena,
    /// States that came from another whole layer
    /// ([`LayerStats::entries_across`]).
    across: u64,
}

impl Bucket {
    /// Adds the state unless it is already there; whether it was new.
    fn push(&mut self, fp: u128, record: &[u8]) -> bool {
        let new = self.table.insert(fp);
        if new {
            self.arena.push(record);
        }
        new
    }
}

// ---------------------------------------------------------------------------
// Checkpoint files.

/// What `manifest.json` holds.
#[derive(serde::Serialize, serde::Deserialize)]
struct Manifest {
    /// The format.
    version: u32,
    /// The search (`Layered::checkpoint`'s `id`).
    id: String,
    /// Every finished layer, in order.
    layers: Vec<LayerStats>,
    max_depth: u32,
    /// The caller's note ([`Layered::checkpoint_note`]).
    #[serde(default)]
    note: String,
}

/// 2: fingerprints are Spider's sum-of-piles keys
/// ([`crate::game::Position::sum_key`]); a manifest has a note. 3: each
/// layer file is split into [`PARTS`] parts by fingerprint. 4: Spider's
/// layer keys hold the pairs out of order ([`crate::game::layer_of`]).
const MANIFEST_VERSION: u32 = 4;

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> CheckpointError + '_ {
    move |error| CheckpointError::Io {
        path: path.to_path_buf(),
        error,
    }
}

fn read_manifest(dir: &Path, id: &str) -> Result<Option<Manifest>, CheckpointError> {
    let path = dir.join("manifest.json");
    let text = match fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io_error(&path)(e)),
    };
    let manifest: Manifest = serde_json::from_str(&text).map_err(|e| CheckpointError::Damaged {
        path: path.clone(),
        what: e.to_string(),
    })?;
    if manifest.version != MANIFEST_VERSION {
        return Err(CheckpointError::OtherSearch {
            path: dir.to_path_buf(),
            found: format!("format {} of another version of spider", manifest.version),
        });
    }
    if manifest.id != id {
        return Err(CheckpointError::OtherSearch {
            path: dir.to_path_buf(),
            found: manifest.id,
        });
    }
    Ok(Some(manifest))
}

/// Writes `bytes` to `path` through a temporary file, synced, then renamed.
fn write_file_atomically(
    path: &Path,
    write: impl FnOnce(&mut BufWriter<fs::File>) -> std::io::Result<()>,
) -> Result<(), CheckpointError> {
    let tmp = path.with_extension("tmp");
    let result = (|| {
        let mut out = BufWriter::new(fs::File::create(&tmp)?);
        write(&mut out)?;
        let file = out.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        fs::rename(&tmp, path)
    })();
    result.map_err(io_error(path))
}

fn write_manifest(
    dir: &Path,
    id: &str,
    stats: &LayeredStats,
    note: String,
) -> Result<(), CheckpointError> {
    let manifest = Manifest {
        version: MANIFEST_VERSION,
        id: id.to_string(),
        layers: stats.layers.clone(),
        max_depth: stats.max_depth,
        note,
    };
    write_file_atomically(&dir.join("manifest.json"), |out| {
        serde_json::to_writer(&mut *out, &manifest)?;
        Ok(())
    })
}

/// Parts of a layer file: a record goes to the part given by the top
/// `PART_BITS` bits of its fingerprint, so part `p` of every layer file
/// holds only the states of fingerprint part `p` (the unit of work for
/// machines sharing one search, see `docs/engine.md`).
pub const PARTS: usize = 1 << PART_BITS;
const PART_BITS: u32 = 4;

/// The part of the layer files a fingerprint belongs to.
pub fn part_of(fp: u128) -> usize {
    (fp >> (128 - PART_BITS)) as usize
}

/// Part `part` of the file of `layer`'s successors for later layers.
fn spill_path(dir: &Path, layer: u64, part: usize) -> PathBuf {
    dir.join(format!("layer-{layer:016x}-part-{part:02x}.out"))
}

/// The files of the successors one layer sent to later layers, one per
/// part, written as they come and renamed into place when the layer is
/// finished.
struct SpillWriter {
    parts: Vec<(PathBuf, PathBuf, BufWriter<fs::File>)>,
}

impl SpillWriter {
    fn create(dir: &Path, layer: u64) -> Result<SpillWriter, CheckpointError> {
        let mut parts = Vec::with_capacity(PARTS);
        for part in 0..PARTS {
            let path = spill_path(dir, layer, part);
            let tmp = path.with_extension("tmp");
            let file = fs::File::create(&tmp).map_err(io_error(&tmp))?;
            parts.push((path, tmp, BufWriter::with_capacity(1 << 16, file)));
        }
        Ok(SpillWriter { parts })
    }

    /// One record, in its part's file: target layer (8 bytes), fingerprint
    /// (16), length (4), the record.
    fn write(&mut self, layer: u64, fp: u128, record: &[u8]) -> Result<(), CheckpointError> {
        let (_, tmp, out) = &mut self.parts[part_of(fp)];
        let result = (|| {
            out.write_all(&layer.to_le_bytes())?;
            out.write_all(&fp.to_le_bytes())?;
            out.write_all(&(record.len() as u32).to_le_bytes())?;
            out.write_all(record)
        })();
        result.map_err(io_error(tmp))
    }

    /// Syncs every part and renames it into place (the manifest, written
    /// after, is what makes the layer count as finished).
    fn finish(self) -> Result<(), CheckpointError> {
        for (path, tmp, out) in self.parts {
            let result = (|| {
                let file = out.into_inner().map_err(|e| e.into_error())?;
                file.sync_all()?;
                fs::rename(&tmp, &path)
            })();
            result.map_err(io_error(&tmp))?;
        }
        Ok(())
    }
}

/// Reads the files of `layer` (every part), calling `f` with each record.
fn read_spill(
    dir: &Path,
    layer: u64,
    mut f: impl FnMut(u64, u128, &[u8]),
) -> Result<(), CheckpointError> {
    for part in 0..PARTS {
        read_spill_part(dir, layer, part, &mut f)?;
    }
    Ok(())
}

/// Reads part `part` of the file of `layer`, calling `f` with each record.
pub fn read_spill_part(
    dir: &Path,
    layer: u64,
    part: usize,
    mut f: impl FnMut(u64, u128, &[u8]),
) -> Result<(), CheckpointError> {
    let path = spill_path(dir, layer, part);
    let file = fs::File::open(&path).map_err(io_error(&path))?;
    let mut input = BufReader::with_capacity(1 << 16, file);
    let mut head = [0u8; 28];
    let mut record = Vec::new();
    loop {
        match input.read_exact(&mut head) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => return Ok(()),
            Err(e) => return Err(io_error(&path)(e)),
        }
        let target = u64::from_le_bytes(head[..8].try_into().unwrap());
        let fp = u128::from_le_bytes(head[8..24].try_into().unwrap());
        let len = u32::from_le_bytes(head[24..].try_into().unwrap()) as usize;
        if len > 1 << 16 || target <= layer || part_of(fp) != part {
            return Err(CheckpointError::Damaged {
                path,
                what: "a record out of shape".into(),
            });
        }
        record.resize(len, 0);
        input.read_exact(&mut record).map_err(io_error(&path))?;
        f(target, fp, &record);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_read_back_as_written_and_a_cut_one_is_refused() {
        for value in [
            0,
            1,
            127,
            128,
            300,
            16_383,
            16_384,
            u64::from(u32::MAX),
            u64::MAX,
        ] {
            let mut bytes = Vec::new();
            write_varint(value, &mut bytes);
            assert_eq!(
                bytes.len(),
                (64 - value.leading_zeros() as usize).div_ceil(7).max(1)
            );
            bytes.push(0x55);
            assert_eq!(read_varint(&bytes), Some((value, bytes.len() - 1)));
            assert_eq!(read_varint(&bytes[..bytes.len() - 2]), None);
        }
        // Past 64 bits.
        assert_eq!(
            read_varint(&[0xff; 9].iter().copied().chain([2]).collect::<Vec<_>>()),
            None
        );
    }

    /// Records of every length up to past [`RECORD_ROOM`], empty ones
    /// among them, come back as written across many chunks, by index and
    /// by offset; growing never costs more than a chunk of waste.
    #[test]
    fn an_arena_gives_back_every_record() {
        let mut arena = Arena::default();
        let mut written = Vec::new();
        let mut x = 12345u64;
        for i in 0..40_000usize {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let len = match i % 500 {
                0 => 0,
                1 => RECORD_ROOM + 1 + (x >> 60) as usize * 20,
                _ => 1 + (x >> 33) as usize % RECORD_ROOM,
            };
            let record: Vec<u8> = (0..len).map(|k| (x >> (k % 7 * 8)) as u8).collect();
            if i % 2 == 0 {
                arena.push(&record);
            } else {
                arena.push_with(|bytes| bytes.extend_from_slice(&record));
            }
            written.push(record);
        }
        assert!(arena.chunks.len() > 10, "{} chunks", arena.chunks.len());
        assert_eq!(arena.len(), written.len());
        for (i, record) in written.iter().enumerate() {
            let (offset, got) = arena.get_at(i);
            assert_eq!(got, &record[..], "{i}");
            assert_eq!(arena.slice(offset, record.len()), &record[..], "{i}");
        }
        let held: usize = written.iter().map(Vec::len).sum();
        let waste = arena.bytes() as usize - held - arena.ends.capacity() * 4;
        assert!(waste < CHUNK + arena.chunks.len() * RECORD_ROOM, "{waste}");
    }

    /// Compressed while it is written, as the next frontier and the
    /// pending layers are, an arena gives back every record once thawed a
    /// range at a time, in order, as the search reads a frontier; freed
    /// behind, it lets its memory go.
    #[test]
    fn a_compressed_arena_gives_back_every_record() {
        let mut arena = Arena::default();
        let mut written = Vec::new();
        let mut x = 99u64;
        for i in 0..20_000usize {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            // Spider-like records: a shared head, then a few random bytes.
            let len = 20 + (x >> 58) as usize;
            let mut record: Vec<u8> = (0..len).map(|k| (k % 13) as u8).collect();
            record[(x >> 40) as usize % len] = (x >> 8) as u8;
            arena.push(&record);
            written.push(record);
            if i % 700 == 0 {
                arena.compact();
            }
        }
        let plain = arena.end() as u64;
        arena.compact();
        let chunks = arena.chunks.len();
        assert!(chunks > 50, "{chunks} chunks");
        assert!(arena.chunks[..chunks - 1].iter().all(Vec::is_empty));
        assert!(
            arena.bytes() * 3 < plain,
            "{} bytes held for {plain}",
            arena.bytes()
        );
        let mut from = 0;
        let mut step = 1;
        while from < written.len() {
            let to = (from + step).min(written.len());
            arena.thaw(from, to);
            for (i, record) in written.iter().enumerate().take(to).skip(from) {
                assert_eq!(arena.get(i), &record[..], "{i}");
            }
            arena.free_before(to);
            from = to;
            step = step * 3 % 1_000 + 1;
        }
        assert!(arena.bytes() as usize <= arena.ends.capacity() * 4 + CHUNK);
    }

    /// Counts, layer by layer, do not depend on keeping the waiting states
    /// compressed, on one thread or two.
    #[test]
    #[ignore = "slow: runs with `cargo test -- --ignored` (CI runs it)"]
    fn compressing_the_waiting_states_changes_no_count() {
        use crate::deal::{Rules, pysol};
        use crate::game::Game;
        use crate::solve::exhaustive::ExhaustiveProblem;
        let deal = pysol::deal(3, Rules::Standard).unwrap();
        let game = Game::new(&deal).unwrap();
        let problem = ExhaustiveProblem::new(&game);
        let run = |compress_above: u64, jobs: usize| {
            let outcome = Layered::new(&problem)
                .stop(Stop::Exhaust)
                .limits(Limits {
                    max_positions: Some(300_000),
                    ..Limits::default()
                })
                .jobs(Some(jobs))
                .compress_above(compress_above)
                .run()
                .unwrap();
            let figures: Vec<_> = outcome
                .stats
                .layers
                .iter()
                .map(|l| (l.layer, l.positions, l.moves, l.dead, l.expanded))
                .collect();
            (
                outcome.stats.positions,
                figures,
                outcome.stats.peak_memory_bytes,
            )
        };
        let (positions, plain, plain_memory) = run(u64::MAX, 1);
        assert!(positions >= 300_000, "{positions}");
        assert!(plain.len() > 3, "{plain:?}");
        for jobs in [1, 2] {
            let (_, compressed, memory) = run(0, jobs);
            assert_eq!(compressed, plain, "{jobs} threads");
            assert!(memory < plain_memory, "{memory} against {plain_memory}");
        }
    }

    /// A search that keeps its waiting states compressed writes the same
    /// checkpoints (they are written before a chunk is compressed) and,
    /// stopped and resumed, counts what an uninterrupted plain one does.
    #[test]
    fn a_compressed_search_resumes_with_the_same_counts() {
        use crate::deal::{Rules, pysol};
        use crate::game::Game;
        use crate::solve::stage::{Scope, StageProblem};
        let deal = pysol::deal(14934, Rules::Standard).unwrap();
        let game = Game::new(&deal).unwrap();
        let problem = StageProblem::new(&game, Scope::Stage(2));
        let figures = |stats: &LayeredStats| -> Vec<_> {
            stats
                .layers
                .iter()
                .map(|l| (l.layer, l.positions, l.moves, l.entries))
                .collect()
        };
        let whole = Layered::new(&problem)
            .stop(Stop::Exhaust)
            .jobs(Some(1))
            .compress_above(u64::MAX)
            .run()
            .unwrap();
        assert_eq!(whole.stats.positions, 50_810);
        let dir = tempfile::tempdir().unwrap();
        let mut runs = 0;
        let stats = loop {
            runs += 1;
            let outcome = Layered::new(&problem)
                .stop(Stop::Exhaust)
                .jobs(Some(2))
                .limits(Limits {
                    max_positions: (runs < 3).then(|| whole.stats.positions * runs / 3),
                    ..Limits::default()
                })
                .compress_above(0)
                .checkpoint(dir.path(), "compressed")
                .run()
                .unwrap();
            if outcome.end == End::Exhausted {
                break outcome.stats;
            }
            assert!(runs < 3);
        };
        assert!(stats.resumed_layers > 0);
        assert_eq!(figures(&stats), figures(&whole.stats));
    }
}
