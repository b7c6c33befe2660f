//! The layered search with its states on disk: proofs that outgrow memory.
//!
//! With [`Layered::disk`] the search keeps on disk what the in-memory
//! search keeps in its pending buffers and frontiers, and removes
//! duplicates in bulk when it reads them back (delayed duplicate detection:
//! Korf, "Linear-time disk-based implicit graph search", JACM 2008). A
//! layer runs as *rounds*, one per breadth-first step, each of [`PARTS`]
//! *tasks*; task `p` of round `s` of layer `L`:
//!
//! 1. reads every record sent to part `p` of `L` (round 0: by earlier
//!    layers; round `s`: by round `s - 1` of `L`), computes their
//!    fingerprints (the files hold none), and keeps the first record of
//!    each state not in part `p`'s seen set (the one the in-memory search
//!    would have kept: files and records are read in the order they were
//!    generated, and each fingerprint is inserted in the seen set as it is
//!    read; see [`dedup_task`]);
//! 2. keeps the new fingerprints in the seen set (an [`FpTable`] in memory,
//!    the table of the search in memory) and keeps them as a sorted run
//!    ([`Run`], written to disk for a resumed search);
//! 3. expands the new states in the order the in-memory search would
//!    (in one process, a part's states wait for step 3 in a file, in LZ4
//!    blocks, when they pass its share of the memory budget, and are read
//!    back a block at a time), and writes every successor (its depth and
//!    its state in the problem's form for the files,
//!    [`PackedProblem::write_record`]: Spider's in 0.69 times the bytes) to
//!    one output file, in Zstandard blocks keyed by target layer and part;
//!    but a same-layer successor already in a seen set is
//!    counted as a duplicate and neither built nor written (the task that
//!    reads it would drop it: nine in ten same-layer successors are such,
//!    mostly states new in the same round, a card moved on again, or a
//!    move's reverse). In one process, every task does steps 1 and 2
//!    before any does step 3, which then looks up every part's seen set; a
//!    task in a process of its own looks up its own part's only.
//!
//! The layer ends with the first round that finds nothing new. Only the
//! current layer's seen sets are in memory; everything else is on disk, and
//! a file is deleted once every layer it feeds has read it (inside a pack,
//! its bytes are given back to the file system, [`free_range`]). In one process,
//! output files are kept in memory up to [`MEMORY_FILES`] bytes and written
//! only when a manifest is (together, as one pack), so that a file read by
//! the next round is seldom written at all: a search of many small rounds
//! otherwise spent most of its time creating and deleting files.
//!
//! The same rounds run three ways, with the same counts: in one process
//! (the tasks of a round on every core), or through a launcher command
//! that starts the tasks as separate processes, on this machine or as a
//! job array on a cluster sharing the directory (see [`DiskOptions`]);
//! with a launcher, a round that reads few records still runs in this
//! process, which writes what it holds in memory before a round it
//! launches.
//! After every round, at most every few seconds, a manifest records the
//! search's state; a search stopped by a limit, Ctrl-C or a crash resumes
//! from it, at the round after the last one recorded, and counts what an
//! uninterrupted search counts. A search stopped inside a round by a
//! limit or Ctrl-C (in one process) also keeps the parts of the round
//! that finished, with their output files: the resumed round reads its
//! inputs again for every part, to rebuild the seen sets, and expands the
//! other parts only; so a round longer than any one run still ends, over
//! several. A limit of positions stops the search at the first part whose
//! new states pass it (in part order), leaving the parts after it for the
//! resumed round. A round of [`WAVES_FROM`] records or more expands its
//! parts in waves, one part a thread, and after a wave reports its
//! progress and, at most every few seconds, records the parts finished
//! (their files written, with a manifest): a crash inside it loses only
//! the parts since.
//!
//! A round whose seen sets would outgrow the memory left runs *split*:
//! its parts a wave at a time (one a thread), each wave's successors
//! looked up in the wave's seen sets only, and each wave's seen sets
//! written as runs and dropped before the next, so that a round larger
//! than memory goes through ([`RoundGuard::splits`]).
//!
//! **Counts.** Positions, steps and entries per layer, expansions, moves,
//! goals, leaves and dead ends are those of the in-memory search, and so
//! are the depths (the same record is kept for each state). Duplicates are
//! counted when their target is read, and charged to the layer that made
//! them, as the in-memory search charges them; so the counts of a finished
//! search are the same layer by layer, those of a stopped one may not be.
//! A stopped search's positions may differ too: the in-memory search
//! stops between batches, this one between parts of a round (it reports
//! the layer so far with the parts kept, which the resumed round counts
//! again when it ends).

use std::collections::BTreeSet;
use std::process::Command;
use std::sync::Arc;

use super::*;
use crate::explore::sortedfp::Run;

/// Where and how the layered search keeps its states on disk.
#[derive(Clone, Debug)]
pub struct DiskOptions {
    /// The directory (shared by every machine with a launcher).
    pub dir: PathBuf,
    /// The most bytes the search may keep there: it stops (resumably) after
    /// the round that passes them.
    pub max_bytes: Option<u64>,
    /// A shell command that runs the tasks of a round and returns when
    /// they are finished: `{tasks}` in it is replaced by the parts to run,
    /// comma-separated (`0,1,...,15`), `{command}` by this process's own
    /// command line, quoted for the shell. Each task is that command run
    /// with `SPIDER_DISK_PART` (or, under Slurm, `SLURM_ARRAY_TASK_ID`)
    /// set to its part; the launcher passes the environment on, which
    /// holds `SPIDER_DISK_ROUND`, the round's file. Tasks that leave no
    /// result are launched again, up to three times. `None`: every task in
    /// this process.
    pub launcher: Option<String>,
    /// With a launcher, the fewest records a round reads for its tasks to
    /// go to the launcher: a smaller round runs in this process, as
    /// without a launcher (see [`LAUNCH_FROM`]).
    pub launch_from: u64,
    /// The most bytes the current layer's seen sets may take in memory.
    /// Past it, between two rounds, they are dropped (but for the last
    /// round's new states), and from then on each task looks the states it
    /// reads up in the layer's earlier rounds on disk, in bulk, before its
    /// pass over them (`page_in`), so that the memory a search takes does
    /// not grow with its largest layer. `None`: a quarter of
    /// [`Limits::max_memory`], or `SEEN_MEMORY` without one. Counts and
    /// verdicts do not depend on it.
    pub seen_memory: Option<u64>,
    /// How much a round's seen sets may grow before the round runs split,
    /// a wave of parts at a time, each wave's seen sets dropped before the
    /// next (`RoundGuard::splits`). `None`: half of what the memory
    /// limit leaves when the round begins (never without a limit). Counts
    /// and verdicts do not depend on it.
    pub split_from: Option<u64>,
}

/// The fewest records a round reads for its tasks to go to the launcher
/// by default. Launching a round of a few records cost 0.08-0.12 s of CPU
/// (16 processes on this machine), the time the driver takes for about
/// 160,000 records (0.62 µs a record); on the unwon game's stage 1 the
/// rounds below this many are 96 of 144 and read 2.2 % of the records
/// (figures in docs/engine.md). On a cluster, where a launch waits for the
/// scheduler, a larger value (`--disk-launch-from`) suits.
pub const LAUNCH_FROM: u64 = 100_000;

/// Format of the disk manifest (2: packs, seen runs named by the rounds
/// they cover; 3: records without their fingerprints; 4: Spider's layer
/// keys hold the pairs out of order, [`crate::game::layer_of`]; 5: records
/// in the problem's form for the files, [`PackedProblem::write_record`],
/// their depth as a LEB128 number and no length; files at Zstandard level
/// 3).
const DISK_VERSION: u32 = 5;
/// Raw bytes of records gathered before a block is compressed and written.
const BLOCK_BYTES: usize = if cfg!(test) { 1 << 12 } else { 1 << 18 };
/// The most bytes of output files and seen runs kept in memory between two
/// manifests (an eighth of the memory limit if that is less): past it,
/// files go to the disk as they are made, and the next manifest is written
/// after the round.
const MEMORY_FILES: u64 = 32 << 20;

/// The seen sets' memory budget without a memory limit (with one: a
/// quarter of it), [`DiskOptions::seen_memory`].
const SEEN_MEMORY: u64 = 2 << 30;
/// The "layer" that produced the start state.
const START: u64 = u64::MAX;
/// The manifest is written after a round at most this often (and at the
/// end of a run).
const MANIFEST_EVERY: Duration = Duration::from_secs(5);
/// The fewest records a round reads for it to expand its parts in waves,
/// recording those finished as it goes (a round of a million records
/// takes seconds; of fewer, a crash loses little).
const WAVES_FROM: u64 = if cfg!(test) { 200 } else { 1_000_000 };
/// The environment variable that makes a process a task of a round.
pub const ROUND_ENV: &str = "SPIDER_DISK_ROUND";
/// The environment variable that gives a task its part.
pub const PART_ENV: &str = "SPIDER_DISK_PART";

/// A block of an output file: records for one part of one layer.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
struct BlockInfo {
    target: u64,
    part: u16,
    offset: u64,
    len: u32,
    raw: u32,
    count: u32,
}

/// An output file: who wrote it, which layers still read it, its blocks.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
struct FileInfo {
    producer: u64,
    targets: BTreeSet<u64>,
    bytes: u64,
    blocks: Vec<BlockInfo>,
    /// Where the file is when it was written with others into a pack: the
    /// pack's name and where in it the file starts (`None`: in a file of
    /// its own, or still in memory).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pack: Option<(String, u64)>,
}

/// The layer being searched: the next round and its inputs.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
struct Current {
    layer: u64,
    step: u32,
    here: LayerStats,
    inputs: Vec<String>,
    /// The parts of round `step` finished by a search stopped in it: what
    /// each did (its output file is in the manifest's files). The resumed
    /// round reads its inputs again for every part (to rebuild the seen
    /// sets) but expands only the other parts.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    done: Vec<TaskOut>,
    /// Round `step` runs its parts a wave at a time, each wave's seen sets
    /// dropped before the next (its seen sets outgrew the memory left, see
    /// [`RoundGuard::split_from`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    split: bool,
}

/// What `disk-manifest.json` holds.
#[derive(serde::Serialize, serde::Deserialize)]
struct DiskManifest {
    version: u32,
    id: String,
    layers: Vec<LayerStats>,
    max_depth: u32,
    note: String,
    current: Option<Current>,
    /// Layers waiting, with the files that feed them, in the order written.
    pending: BTreeMap<u64, Vec<String>>,
    files: BTreeMap<String, FileInfo>,
    /// Packs written so far (the next one's number).
    packs: u64,
}

/// What the driver wrote, or holds to write, since the last manifest.
struct Unsaved {
    /// Files written, to be synced before the manifest is written.
    written: Vec<PathBuf>,
    /// Files no layer reads any more, deleted once it is written.
    doomed: Vec<PathBuf>,
    /// Files in a pack that no layer reads any more while others in it
    /// are still read: the pack, where the file starts and its bytes,
    /// freed once the manifest is written ([`free_range`]).
    holes: Vec<(PathBuf, u64, u64)>,
    /// The output files in memory (of the rounds run in this process).
    memory: Option<MemFiles>,
    /// The current layer's seen runs not written yet, per part (of the
    /// rounds run in this process), of the rounds from `runs_from` on.
    runs: Vec<Vec<Run>>,
    runs_from: u32,
    /// Bytes of the current layer's seen runs on disk.
    seen_disk: u64,
}

impl Unsaved {
    /// Bytes held to be written.
    fn bytes(&self) -> u64 {
        self.memory.as_ref().map_or(0, MemFiles::bytes)
            + self.runs.iter().flatten().map(Run::bytes).sum::<u64>()
    }
}

/// What a round's tasks are given (`round.json` for tasks in other
/// processes).
#[derive(Clone, serde::Serialize, serde::Deserialize)]
struct Round {
    id: String,
    layer: u64,
    step: u32,
    files: Vec<(String, FileInfo)>,
    /// The layer's rounds before this one are looked up on disk, not in
    /// the seen sets in memory (see [`page_in`]).
    #[serde(default)]
    old_before: u32,
}

impl Round {
    /// The records the round's tasks read, all parts together.
    fn records(&self) -> u64 {
        self.files
            .iter()
            .flat_map(|(_, info)| &info.blocks)
            .filter(|block| block.target == self.layer)
            .map(|block| u64::from(block.count))
            .sum()
    }
}

/// What a task did.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
struct TaskOut {
    part: usize,
    inputs: u64,
    /// The chunks the inputs were read in.
    #[serde(default)]
    chunks: u64,
    new: u64,
    /// The new states by the layer that made their first record.
    #[serde(default)]
    news: BTreeMap<u64, u64>,
    /// Duplicates by the layer that made them.
    dups: BTreeMap<u64, u64>,
    expanded: u64,
    moves: u64,
    goals: u64,
    leaves: u64,
    dead: u64,
    max_depth: u32,
    /// The first goal: fingerprint (hex), depth, packed state.
    goal: Option<(String, u32, Vec<u8>)>,
    /// Leaves (packed) and their depths, when the search keeps them.
    leaf_records: Vec<(Vec<u8>, u32)>,
    file: Option<(String, FileInfo)>,
    /// Bytes of the seen run written.
    seen_file_bytes: u64,
    /// The most bytes the task held at once, its seen set and its
    /// frontier apart.
    memory: u64,
    /// Bytes of the task's frontier (every part's is held from the first
    /// half of a round to the second, in one process).
    frontier_bytes: u64,
    /// Bytes of the file the task's frontier waited in, if it did.
    #[serde(default)]
    frontier_file_bytes: u64,
    stopped: bool,
}

impl TaskOut {
    /// Adds what the task expanded and found to its layer's counts.
    fn count_into(&self, here: &mut LayerStats) {
        here.expanded += self.expanded;
        here.moves += self.moves;
        here.goals += self.goals;
        here.leaves += self.leaves;
        here.dead += self.dead;
    }

    /// Its new states whose first record came from another whole layer
    /// (the layer's entries from across, in its first round).
    fn new_across<P: Problem>(&self, problem: &P, layer: u64) -> u64 {
        (self.news.iter())
            .filter(|&(&producer, _)| is_across(problem, producer, layer))
            .map(|(_, &n)| n)
            .sum()
    }
}

/// Whether a record that layer `producer` made for layer `target` came
/// from another whole layer ([`Problem::whole_layer`]; the start's does).
fn is_across<P: Problem>(problem: &P, producer: u64, target: u64) -> bool {
    producer == START || problem.whole_layer(producer) != problem.whole_layer(target)
}

/// The records waiting in the pending layers, and of them those that came
/// from another whole layer ([`is_across`]). Records, not states: a
/// layer's duplicates go only when it reads them (but Spider's moves from
/// one whole layer to another, a card turned up, a run removed or a deal,
/// seldom meet: none did in the first 1.6 million positions of
/// `benches/ladder/r1-g5004.yaml`'s proof, nor in the first 9.1 million of
/// `r0-g5005.yaml`'s).
fn queued<P: Problem>(problem: &P, manifest: &DiskManifest) -> (u64, u64) {
    let mut all = 0;
    let mut across = 0;
    for (&target, names) in &manifest.pending {
        for name in names {
            let file = &manifest.files[name];
            let count: u64 = file
                .blocks
                .iter()
                .filter(|b| b.target == target)
                .map(|b| u64::from(b.count))
                .sum();
            all += count;
            if is_across(problem, file.producer, target) {
                across += count;
            }
        }
    }
    (all, across)
}

fn blocks_path(dir: &Path, name: &str) -> PathBuf {
    dir.join("blocks").join(name)
}

fn seen_dir(dir: &Path, layer: u64) -> PathBuf {
    dir.join("seen").join(format!("L{layer:016x}"))
}

/// The seen run of `part` that holds the states new in rounds
/// `first..=last`.
fn seen_path(dir: &Path, layer: u64, part: usize, first: u32, last: u32) -> PathBuf {
    seen_dir(dir, layer).join(format!("p{part:02}-s{first:05}-{last:05}.run"))
}

/// The rounds a seen run's file covers, and its part, from its name.
fn seen_name(name: &str) -> Option<(usize, u32, u32)> {
    let rest = name.strip_prefix('p')?.strip_suffix(".run")?;
    let (part, rest) = rest.split_once("-s")?;
    let (first, last) = rest.split_once('-')?;
    Some((part.parse().ok()?, first.parse().ok()?, last.parse().ok()?))
}

fn result_path(dir: &Path, part: usize) -> PathBuf {
    dir.join("results").join(format!("p{part:02}.json"))
}

fn damaged(path: &Path, what: impl Into<String>) -> CheckpointError {
    CheckpointError::Damaged {
        path: path.to_path_buf(),
        what: what.into(),
    }
}

/// Output files kept in memory, in one process: a file read by the next
/// round and then by no one never reaches the disk, and those still read
/// when a manifest is written go to the disk together, as one pack (see
/// [`Layered::save_disk_manifest`]); a search of many small rounds would
/// otherwise spend its time creating and deleting files. Past `budget`
/// bytes, files are written to the disk as they are made.
struct MemFiles {
    files: Mutex<HashMap<String, Arc<Vec<u8>>>>,
    bytes: AtomicU64,
    budget: u64,
}

impl MemFiles {
    fn new(budget: u64) -> MemFiles {
        MemFiles {
            files: Mutex::new(HashMap::new()),
            bytes: AtomicU64::new(0),
            budget,
        }
    }

    fn get(&self, name: &str) -> Option<Arc<Vec<u8>>> {
        self.files.lock().expect("not poisoned").get(name).cloned()
    }

    /// Forgets file `name`; whether it was here.
    fn remove(&self, name: &str) -> bool {
        match self.files.lock().expect("not poisoned").remove(name) {
            Some(data) => {
                self.bytes.fetch_sub(data.len() as u64, Ordering::Relaxed);
                true
            }
            None => false,
        }
    }

    /// Every file, by name, forgotten.
    fn take_all(&self) -> BTreeMap<String, Arc<Vec<u8>>> {
        let files = std::mem::take(&mut *self.files.lock().expect("not poisoned"));
        self.bytes.store(0, Ordering::Relaxed);
        files.into_iter().collect()
    }

    fn bytes(&self) -> u64 {
        self.bytes.load(Ordering::Relaxed)
    }
}

/// Where a [`BlockWriter`] writes.
enum Sink<'m> {
    /// Nothing yet.
    None,
    /// Into memory, counted in the [`MemFiles`] it will join.
    Memory(&'m MemFiles, Vec<u8>),
    File(BufWriter<fs::File>),
}

/// Writes one task's successors: records gathered per (target layer,
/// part), compressed a block at a time.
struct BlockWriter<'m> {
    records: &'m dyn Records,
    name: String,
    path: PathBuf,
    out: Sink<'m>,
    open: BTreeMap<(u64, u16), (Vec<u8>, u32)>,
    info: FileInfo,
}

/// The Zstandard level of the files. On the unwon game's stage 1, level 3
/// packs Spider's compact records into 12.2 bytes where level 1 takes 13.2
/// (4.5 and 4.2 times smaller than raw, blocks of 256 KiB), for about 2 %
/// more CPU in all; see `docs/engine.md`.
const FILE_LEVEL: i32 = 3;

thread_local! {
    /// Each thread's Zstandard contexts for the files (made once: a
    /// context costs more to make than a block to compress).
    static FILE_ZSTD: std::cell::RefCell<(
        Option<zstd::bulk::Compressor<'static>>,
        Option<zstd::bulk::Decompressor<'static>>,
    )> = const { std::cell::RefCell::new((None, None)) };
    /// Each thread's buffer for the blocks it packs.
    static FILE_BUFFER: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
    /// Each thread's buffer for a frontier's block in the files' form.
    static FRONTIER_BUFFER: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
    /// Each thread's buffers of blocks flushed, for the next blocks its
    /// writers fill (a block's buffer grown from nothing for each block
    /// was a quarter of the search's page faults on disk).
    static BLOCK_POOL: std::cell::RefCell<Vec<Vec<u8>>> = const { std::cell::RefCell::new(Vec::new()) };
    /// Each thread's buffers for [`read_blocks`]: a block packed, unpacked,
    /// its records decoded, and where each starts.
    static READ_BUFFERS: std::cell::Cell<ReadBuffers> = std::cell::Cell::new(ReadBuffers::default());
}

/// Buffers of blocks that a thread keeps for the next: at most this many.
const POOLED_BLOCKS: usize = 64;

/// A buffer for a block, from the thread's pool.
fn pooled_block() -> Vec<u8> {
    BLOCK_POOL
        .with_borrow_mut(Vec::pop)
        .unwrap_or_else(|| Vec::with_capacity(BLOCK_BYTES + (BLOCK_BYTES >> 3)))
}

/// Gives `buf` back to the thread's pool, emptied.
fn pool_block(mut buf: Vec<u8>) {
    buf.clear();
    BLOCK_POOL.with_borrow_mut(|pool| {
        if pool.len() < POOLED_BLOCKS {
            pool.push(buf);
        }
    });
}

/// See [`READ_BUFFERS`].
#[derive(Default)]
struct ReadBuffers {
    packed: Vec<u8>,
    raw: Vec<u8>,
    decoded: Vec<u8>,
    found: Vec<(u128, usize, usize)>,
}

impl<'m> BlockWriter<'m> {
    /// A writer of file `name`, kept in `memory` while it has room.
    fn new(
        records: &'m dyn Records,
        dir: &Path,
        name: String,
        producer: u64,
        memory: Option<&'m MemFiles>,
    ) -> BlockWriter<'m> {
        BlockWriter {
            records,
            path: blocks_path(dir, &name),
            name,
            out: match memory {
                Some(files) => Sink::Memory(files, Vec::new()),
                None => Sink::None,
            },
            open: BTreeMap::new(),
            info: FileInfo {
                producer,
                targets: BTreeSet::new(),
                bytes: 0,
                blocks: Vec::new(),
                pack: None,
            },
        }
    }

    /// Bytes held in memory.
    fn memory(&self) -> u64 {
        self.open
            .values()
            .map(|(b, _)| b.capacity() as u64)
            .sum::<u64>()
            + (1 << 16)
    }

    /// Adds `record` (its depth in two bytes, then the packed state), of
    /// the state of fingerprint `fp`, to the records for layer `target`,
    /// in the files' form ([`write_file_record`]). The fingerprint is not
    /// written: the reader computes it again (the files take 0.57 times
    /// the bytes without).
    fn push(&mut self, target: u64, fp: u128, record: &[u8]) -> Result<(), CheckpointError> {
        let key = (target, part_of(fp) as u16);
        let (buf, count) = self.open.entry(key).or_insert_with(|| (pooled_block(), 0));
        write_file_record(self.records, record, buf);
        *count += 1;
        if buf.len() >= BLOCK_BYTES {
            let (buf, count) = self.open.remove(&key).expect("just filled");
            self.flush(key, &buf, count)?;
            pool_block(buf);
        }
        Ok(())
    }

    fn flush(
        &mut self,
        (target, part): (u64, u16),
        raw: &[u8],
        count: u32,
    ) -> Result<(), CheckpointError> {
        let path = &self.path;
        let out = &mut self.out;
        let len = with_compressed(Codec::Zstd, raw, |packed| {
            let len = packed.len() as u64;
            if let Sink::Memory(files, data) = out {
                if files.bytes.fetch_add(len, Ordering::Relaxed) + len <= files.budget {
                    data.extend_from_slice(packed);
                    return Ok(len);
                }
                // No more room: to the disk, what is here and the rest.
                files
                    .bytes
                    .fetch_sub(len + data.len() as u64, Ordering::Relaxed);
                let mut file = BufWriter::with_capacity(
                    1 << 16,
                    fs::File::create(path).map_err(io_error(path))?,
                );
                file.write_all(data).map_err(io_error(path))?;
                *out = Sink::File(file);
            }
            if matches!(out, Sink::None) {
                let file = fs::File::create(path).map_err(io_error(path))?;
                *out = Sink::File(BufWriter::with_capacity(1 << 16, file));
            }
            if let Sink::File(file) = out {
                file.write_all(packed).map_err(io_error(path))?;
            }
            Ok(len)
        })?;
        self.info.blocks.push(BlockInfo {
            target,
            part,
            offset: self.info.bytes,
            len: len as u32,
            raw: raw.len() as u32,
            count,
        });
        self.info.bytes += len;
        self.info.targets.insert(target);
        Ok(())
    }

    /// Writes what is left; the file's name and description, if it holds
    /// anything.
    fn finish(mut self) -> Result<Option<(String, FileInfo)>, CheckpointError> {
        for (key, (buf, count)) in std::mem::take(&mut self.open) {
            self.flush(key, &buf, count)?;
            pool_block(buf);
        }
        if self.info.blocks.is_empty() {
            return Ok(None);
        }
        match std::mem::replace(&mut self.out, Sink::None) {
            Sink::None => unreachable!("a block was written"),
            Sink::Memory(files, data) => {
                files
                    .files
                    .lock()
                    .expect("not poisoned")
                    .insert(self.name.clone(), Arc::new(data));
            }
            Sink::File(out) => {
                out.into_inner()
                    .map_err(|e| e.into_error())
                    .map_err(io_error(&self.path))?;
            }
        }
        Ok(Some((self.name, self.info)))
    }
}

/// What the files need of a problem: the form its states take there
/// ([`PackedProblem::write_record`]) and their fingerprints.
trait Records: Sync {
    /// The fingerprint of the packed state `packed`.
    fn fingerprint_of(&self, packed: &[u8]) -> u128;
    /// See [`PackedProblem::write_record`].
    fn write(&self, packed: &[u8], out: &mut Vec<u8>);
    /// See [`PackedProblem::read_record`].
    fn read(&self, record: &[u8], out: &mut Vec<u8>) -> Option<usize>;
}

impl<P: PackedProblem> Records for P
where
    P::State: Send,
{
    fn fingerprint_of(&self, packed: &[u8]) -> u128 {
        self.fingerprint(&self.unpack(packed))
    }

    fn write(&self, packed: &[u8], out: &mut Vec<u8>) {
        self.write_record(packed, out);
    }

    fn read(&self, record: &[u8], out: &mut Vec<u8>) -> Option<usize> {
        self.read_record(record, out)
    }
}

/// Appends `record` (its depth in two bytes, then the packed state) in the
/// form the files hold it: the depth as a LEB128 number, then the state in
/// the problem's form ([`PackedProblem::write_record`]). No length: the
/// problem's form tells where it ends.
fn write_file_record(records: &dyn Records, record: &[u8], out: &mut Vec<u8>) {
    write_varint(u64::from(u16::from_le_bytes([record[0], record[1]])), out);
    records.write(&record[2..], out);
}

/// Appends the record whose file form ([`write_file_record`]) starts
/// `bytes` to `out` as the search holds it (its depth in two bytes, then
/// the packed state); how many bytes of `bytes` it took, `None` if they do
/// not start with one.
fn read_file_record(records: &dyn Records, bytes: &[u8], out: &mut Vec<u8>) -> Option<usize> {
    let (depth, at) = read_varint(bytes)?;
    out.extend_from_slice(&u16::try_from(depth).ok()?.to_le_bytes());
    Some(at + records.read(&bytes[at..], out)?)
}

/// Records a block's fingerprints are computed ahead of the one handed
/// on: [`read_blocks`] passes the fingerprint that many records later, so
/// that its seen set's line can be fetched in time.
const READ_AHEAD: usize = 16;

/// Calls `f` with every record (fingerprint, record, and the fingerprint
/// of the record [`READ_AHEAD`] places later in the block, if any) of the
/// blocks of `info` that hold part `part` of `layer`, in the order
/// written, the fingerprints computed by `fingerprint`; the file is read
/// from `memory` if it is there.
#[allow(clippy::too_many_arguments)]
fn read_blocks(
    dir: &Path,
    memory: Option<&MemFiles>,
    name: &str,
    info: &FileInfo,
    layer: u64,
    part: usize,
    records: &dyn Records,
    mut f: impl FnMut(u128, &[u8], Option<u128>) -> Result<(), CheckpointError>,
) -> Result<(), CheckpointError> {
    let (path, base) = match &info.pack {
        Some((pack, base)) => (blocks_path(dir, pack), *base),
        None => (blocks_path(dir, name), 0),
    };
    let in_memory = memory.and_then(|m| m.get(name));
    let mut buffers = READ_BUFFERS.take();
    let result = read_blocks_with(
        &mut buffers,
        &path,
        base,
        in_memory.as_deref().map(Vec::as_slice),
        info,
        layer,
        part,
        records,
        &mut f,
    );
    READ_BUFFERS.set(buffers);
    result
}

/// [`read_blocks`] with the thread's buffers.
#[allow(clippy::too_many_arguments)]
fn read_blocks_with(
    buffers: &mut ReadBuffers,
    path: &Path,
    base: u64,
    in_memory: Option<&[u8]>,
    info: &FileInfo,
    layer: u64,
    part: usize,
    records: &dyn Records,
    f: &mut impl FnMut(u128, &[u8], Option<u128>) -> Result<(), CheckpointError>,
) -> Result<(), CheckpointError> {
    let ReadBuffers {
        packed,
        raw,
        // The block's records as the search holds them (depth, packed
        // state), one after another.
        decoded,
        // The block's records: fingerprint, where the record starts in
        // `decoded`, its length.
        found,
    } = buffers;
    let mut file = None;
    for block in &info.blocks {
        if block.target != layer || block.part as usize != part {
            continue;
        }
        let packed: &[u8] = match in_memory {
            Some(data) => data
                .get(block.offset as usize..(block.offset + u64::from(block.len)) as usize)
                .ok_or_else(|| damaged(path, "a block past the end"))?,
            None => {
                use std::io::Seek;
                let file = match &mut file {
                    Some(file) => file,
                    None => file.insert(fs::File::open(path).map_err(io_error(path))?),
                };
                file.seek(std::io::SeekFrom::Start(base + block.offset))
                    .map_err(io_error(path))?;
                packed.resize(block.len as usize, 0);
                file.read_exact(packed).map_err(io_error(path))?;
                packed
            }
        };
        decompress_block(Codec::Zstd, packed, block.raw as usize, raw).map_err(io_error(path))?;
        let mut at = 0;
        decoded.clear();
        found.clear();
        while at < raw.len() {
            let start = decoded.len();
            at += read_file_record(records, &raw[at..], decoded)
                .ok_or_else(|| damaged(path, "a record out of shape"))?;
            let fp = records.fingerprint_of(&decoded[start + 2..]);
            if part_of(fp) != part {
                return Err(damaged(path, "a record of another part"));
            }
            found.push((fp, start, decoded.len() - start));
        }
        if found.len() != block.count as usize {
            return Err(damaged(path, "a block of the wrong length"));
        }
        for (i, &(fp, at, len)) in found.iter().enumerate() {
            let ahead = found.get(i + READ_AHEAD).map(|r| r.0);
            f(fp, &decoded[at..at + len], ahead)?;
        }
    }
    Ok(())
}

/// Bytes a record read by a task was counted as holding besides its own
/// when the task sorted its inputs a chunk at a time: an index entry and,
/// if it was new, its fingerprint in the chunk's run. The chunks are still
/// measured so (they decide when the frontier goes to its file, and so
/// where its blocks end, and how the new fingerprints are cut into runs),
/// so that the frontier and its blocks are what they were.
const INPUT_INDEX: u64 = 48;

/// A chunk of a task's inputs, as it was when the chunk's records were held
/// and sorted: what they would hold, and the new fingerprints met in it.
#[derive(Default)]
struct Chunk {
    inputs: u64,
    held: u64,
    new_fps: Vec<u128>,
}

impl Chunk {
    /// Counts the input `record`.
    fn push(&mut self, record: &[u8]) {
        self.inputs += 1;
        self.held += record.len() as u64 + INPUT_INDEX;
    }

    /// Bytes the chunk's records would take, and would take to be sorted.
    fn held(&self) -> u64 {
        self.held
    }

    /// Bytes allocated.
    fn capacity(&self) -> u64 {
        (self.new_fps.capacity() * size_of::<u128>()) as u64
    }

    /// Ends the chunk: its new fingerprints, sorted, go to a run of
    /// `runs`, and the frontier its new states joined may go to its file.
    fn sift(
        &mut self,
        runs: &mut Vec<Run>,
        frontier: &mut FrontierWriter<'_>,
    ) -> Result<(), CheckpointError> {
        if !self.new_fps.is_empty() {
            self.new_fps.sort_unstable();
            runs.push(Run::from_sorted(&self.new_fps));
            self.new_fps.clear();
        }
        self.inputs = 0;
        self.held = 0;
        frontier.spill()
    }
}

/// Records a task reads between two questions to the [`RoundGuard`].
const GUARD_EVERY: u32 = if cfg!(test) { 16 } else { 4096 };

/// What stops a round part way; its tasks ask between units of work.
///
/// Between rounds the search checks its memory estimate against its
/// limit, and drops a layer's seen sets past their budget; inside a round
/// the seen sets grow by every new state its tasks read. A layer's first
/// round reads all its entries at once, and after a large stage these can
/// outgrow the machine: on `r1-g5016` (one thread, 2026-12-03) the layer
/// after the one the last row was dealt into had 641 M entry records,
/// and the process grew about 15 MB a second while it read them, to 15.7
/// GB resident against an estimate of 4.58 GB (docs/engine.md). So the
/// guard also counts the memory the search held when the round began and
/// what the seen sets grew by since, against the memory limit, and asks
/// the machine's free memory ([`crate::explore::memory::machine_low`]).
/// A round stopped so is not kept (its parts run again from their inputs
/// when the search resumes), so the counts stay those of a search never
/// stopped. Before the memory limit is reached, the guard tells a round
/// whose seen sets outgrow the memory left to run split
/// ([`RoundGuard::splits`]): its first try is dropped the same way, and
/// the round runs again a wave of parts at a time, each wave's seen sets
/// dropped before the next.
struct RoundGuard<'a> {
    /// `None` for a task run as a process of its own, which never stops
    /// (its launcher reruns a task that fails).
    limits: Option<&'a Limits>,
    cancel: Option<&'a AtomicBool>,
    started: Instant,
    /// The search's memory estimate when the round began.
    held: u64,
    /// Bytes the tasks' seen sets grew by since (less the seen sets a
    /// split round dropped), and the most they were.
    grown: AtomicU64,
    peak: AtomicU64,
    /// The seen sets' growth, whole or foreseen, from which the round
    /// runs split instead ([`RoundGuard::splits`]); `None`: never.
    split_from: Option<u64>,
    /// The records the round's tasks read in all, and those read and the
    /// new states met so far (counted at each question).
    records: u64,
    read: AtomicU64,
    fresh: AtomicU64,
    /// Whether the round is to run split.
    split: AtomicBool,
    /// Why it stopped, the first time it told a task to.
    reason: std::sync::OnceLock<StopReason>,
}

impl RoundGuard<'_> {
    /// The guard of a task run as a process of its own: it never stops.
    fn never() -> RoundGuard<'static> {
        RoundGuard {
            limits: None,
            cancel: None,
            started: Instant::now(),
            held: 0,
            grown: AtomicU64::new(0),
            peak: AtomicU64::new(0),
            split_from: None,
            records: 0,
            read: AtomicU64::new(0),
            fresh: AtomicU64::new(0),
            split: AtomicBool::new(false),
            reason: std::sync::OnceLock::new(),
        }
    }

    /// Why the round should stop now, if it should: its time is up, it
    /// was cancelled, or the machine's memory runs low. (Asked while the
    /// states are expanded too.)
    fn stop(&self) -> Option<StopReason> {
        let limits = self.limits?;
        let reason = out_of_time(limits, self.cancel, self.started).or_else(|| {
            crate::explore::memory::machine_low().then_some(StopReason::MachineMemory)
        })?;
        Some(*self.reason.get_or_init(|| reason))
    }

    /// [`RoundGuard::stop`], or the memory limit passed: asked where the
    /// seen sets grow, while the inputs are read (expanding adds nothing
    /// to them, and a round read in full is kept rather than stopped: the
    /// check between rounds stops the search after it).
    fn stop_reading(&self) -> Option<StopReason> {
        let limits = self.limits?;
        self.stop().or_else(|| {
            let max = limits.max_memory?;
            (self.memory() >= max).then(|| *self.reason.get_or_init(|| StopReason::Memory))
        })
    }

    /// Whether the round should run split: its seen sets, which end up
    /// holding every new state of the round, grew past
    /// [`RoundGuard::split_from`], or will at the rate of new states of
    /// the records read so far (once a sixty-fourth of them is; at most
    /// 20 bytes a state, [`FpTable`]). A task's inputs are the records of
    /// its part, and the parts are fingerprints taken at random, so the
    /// new states among some of them, scaled up to all the round's
    /// records, foresee the whole round's; new states become rarer as the
    /// sets fill, so the foresight errs high, which only splits a round
    /// that might have fitted. The round is then run again
    /// split, a wave of parts at a time (the first try's work is lost,
    /// its counts are never kept): the earlier it is seen, the less is
    /// read twice.
    fn splits(&self) -> bool {
        if self.split.load(Ordering::Relaxed) {
            return true;
        }
        let Some(from) = self.split_from else {
            return false;
        };
        let grown = self.grown.load(Ordering::Relaxed);
        let read = self.read.load(Ordering::Relaxed).max(1);
        let fresh = self.fresh.load(Ordering::Relaxed);
        let foreseen = if read >= self.records / 64 {
            (u128::from(fresh) * 20 * u128::from(self.records) / u128::from(read)) as u64
        } else {
            0
        };
        let splits = grown.max(foreseen) >= from;
        if splits {
            self.split.store(true, Ordering::Relaxed);
        }
        splits
    }

    /// A task's seen set grew by `bytes` while it read `records` records,
    /// `fresh` of them new states.
    fn grow(&self, bytes: u64, records: u32, fresh: u32) {
        let grown = self.grown.fetch_add(bytes, Ordering::Relaxed) + bytes;
        self.peak.fetch_max(grown, Ordering::Relaxed);
        self.read.fetch_add(u64::from(records), Ordering::Relaxed);
        self.fresh.fetch_add(u64::from(fresh), Ordering::Relaxed);
    }

    /// A wave of a split round dropped seen sets of `bytes`.
    fn shrink(&self, bytes: u64) {
        let _ = (self.grown).fetch_update(Ordering::Relaxed, Ordering::Relaxed, |grown| {
            Some(grown.saturating_sub(bytes))
        });
    }

    /// The memory held when the round began, and what the seen sets grew
    /// by since.
    fn memory(&self) -> u64 {
        self.held + self.grown.load(Ordering::Relaxed)
    }

    /// The most [`RoundGuard::memory`] was.
    fn peak(&self) -> u64 {
        self.held + self.peak.load(Ordering::Relaxed)
    }
}

/// The first half of task `part` of `round`: reads and deduplicates its
/// inputs against `seen` (the part's seen set), and adds the new states to
/// it; the task's counts so far, the states to expand, in the in-memory
/// search's order (written to a file if they pass `hold` bytes), and
/// their runs, sorted, one a chunk (with `memory`, in one process, for the
/// driver to write; without, written now). The inputs are read from
/// `memory` if they are there.
///
/// One pass over the inputs in the order they were generated keeps, for
/// each state not in `seen`, the first record of it met (and so its
/// depth), as one sort of all the inputs by fingerprint, ties as met,
/// would: each record's fingerprint is inserted in `seen` as it is read
/// (its line fetched [`READ_AHEAD`] records before), and the insert tells
/// whether it is new. The frontier is put in the in-memory search's order
/// (by shard, then as generated): each new state is appended to its
/// shard's, and the shards follow one another. The inputs are still
/// measured in chunks of about `budget` bytes, as when they were held and
/// sorted a chunk at a time: each chunk's new fingerprints make a run,
/// and the frontier may go to its file after a chunk, so that its blocks
/// end where they did (and the states are expanded in the same units).
#[allow(clippy::too_many_arguments)]
fn dedup_task(
    dir: &Path,
    memory: Option<&MemFiles>,
    round: &Round,
    part: usize,
    seen: &mut FpTable,
    hold: Option<u64>,
    budget: u64,
    records: &dyn Records,
    guard: &RoundGuard,
) -> Result<(TaskOut, Frontier, Vec<Run>), CheckpointError> {
    let layer = round.layer;
    let mut out = TaskOut {
        part,
        ..TaskOut::default()
    };
    let mut chunk = Chunk::default();
    let mut dups = vec![0u64; round.files.len()];
    let mut news = vec![0u64; round.files.len()];
    let mut runs = Vec::new();
    let mut frontier = FrontierWriter::new(records, frontier_path(dir, part), hold, budget);
    // 0. The layer's rounds no longer in `seen` (past its memory budget):
    // the states among the inputs that they hold are found first, so that
    // the pass below takes them for duplicates. They are held for this
    // task only, not added to `seen`, which then grows by the round's new
    // states alone.
    let (old, old_bytes) = page_in(dir, memory, round, part, seen, records)?;
    let mut chunk_bytes = old_bytes;
    let mut sift = |chunk: &mut Chunk, frontier: &mut FrontierWriter| {
        if chunk.inputs == 0 {
            return Ok(());
        }
        out.inputs += chunk.inputs;
        out.chunks += 1;
        chunk_bytes = chunk.capacity().max(chunk_bytes);
        chunk.sift(&mut runs, frontier)
    };
    // 1. The inputs, in the order they were generated: the first record
    // of a state not in `seen` is new (the state is added), the others are
    // duplicates. Its fingerprint goes to its chunk's run, its record to
    // its shard's states in the frontier, as met. Every few thousand
    // records the table's growth is counted against the round's guard,
    // which may stop the task (then the rest of the round is not read).
    let mut table_bytes = seen.bytes();
    let mut stopped = false;
    let mut since_check = 0u32;
    let mut fresh = 0u32;
    for (k, (name, info)) in round.files.iter().enumerate() {
        if stopped {
            break;
        }
        read_blocks(
            dir,
            memory,
            name,
            info,
            layer,
            part,
            records,
            |fp, record, ahead| {
                if stopped {
                    return Ok(());
                }
                since_check += 1;
                if since_check >= GUARD_EVERY {
                    since_check = 0;
                    let now = seen.bytes();
                    guard.grow(now.saturating_sub(table_bytes), GUARD_EVERY, fresh);
                    table_bytes = now;
                    fresh = 0;
                    if guard.stop_reading().is_some() || guard.splits() {
                        stopped = true;
                        return Ok(());
                    }
                }
                if let Some(ahead) = ahead {
                    seen.prefetch(ahead);
                }
                chunk.push(record);
                if !old.contains(fp) && seen.insert(fp) {
                    chunk.new_fps.push(fp);
                    frontier.push(fp, record);
                    news[k] += 1;
                    fresh += 1;
                } else {
                    dups[k] += 1;
                }
                if chunk.held() >= budget {
                    sift(&mut chunk, &mut frontier)?;
                }
                Ok(())
            },
        )?;
    }
    guard.grow(seen.bytes().saturating_sub(table_bytes), since_check, fresh);
    if stopped {
        // Nothing of the round is kept: the frontier's file goes with its
        // writer, and the round runs again from its inputs when resumed.
        out.stopped = true;
        return Ok((out, Frontier::Memory(Arena::default()), Vec::new()));
    }
    sift(&mut chunk, &mut frontier)?;
    drop(chunk);
    let old_held = old.bytes();
    drop(old);
    for (k, n) in dups.into_iter().enumerate() {
        if n > 0 {
            *out.dups.entry(round.files[k].1.producer).or_default() += n;
        }
    }
    for (k, n) in news.into_iter().enumerate() {
        if n > 0 {
            *out.news.entry(round.files[k].1.producer).or_default() += n;
        }
    }
    out.new = runs.iter().map(|r| r.len() as u64).sum();
    // 2. The new states, to be expanded.
    let spilled = frontier.peak;
    let frontier = frontier.finish()?;
    out.memory = chunk_bytes + old_held;
    out.frontier_bytes = match &frontier {
        Frontier::Memory(arena) => arena.bytes(),
        Frontier::File(file) => {
            out.memory += spilled;
            out.frontier_file_bytes = file.end;
            0
        }
    };
    let mut kept = Vec::new();
    if memory.is_some() {
        kept = runs;
    } else if !runs.is_empty() {
        let path = seen_path(dir, layer, part, round.step, round.step);
        out.seen_file_bytes = write_run(&path, &merged(runs))?;
    }
    Ok((out, frontier, kept))
}

/// One run of the fingerprints of `runs`.
fn merged(mut runs: Vec<Run>) -> Run {
    if runs.len() == 1 {
        return runs.pop().expect("one run");
    }
    let mut all: Vec<u128> = runs.drain(..).flat_map(|r| r.to_vec()).collect();
    all.sort_unstable();
    Run::from_sorted(&all)
}

/// States in a block of a frontier's file, at most [`EXPAND_CHUNK`] (256
/// in the unit tests, so that small searches write files of many blocks).
const FRONTIER_BLOCK: usize = if cfg!(test) { 256 } else { EXPAND_CHUNK };

/// Shards in a part (see [`shard_of`]).
const PART_SHARDS: usize = SHARDS / PARTS;

/// Where part `part`'s frontier waits between the two halves of a round
/// when it passes its share of the memory budget.
fn frontier_path(dir: &Path, part: usize) -> PathBuf {
    dir.join("frontier").join(format!("p{part:02}.blk"))
}

/// A task's new states, to be expanded in the in-memory search's order.
enum Frontier {
    /// Held in memory (a small frontier, or a task in a process of its
    /// own, which expands right away).
    Memory(Arena),
    /// Written to a file, to be read back a chunk at a time.
    File(FrontierFile),
}

/// A task's new states as the chunks of its inputs give them, put in the
/// in-memory search's order (by shard, then as met): held by shard, in
/// blocks of up to [`FRONTIER_BLOCK`] states, until the task has read its
/// inputs; in a file if they pass `hold` bytes then. While the task reads
/// on, they are written to that file after any chunk that leaves more than
/// `hold` bytes held, or the task's `budget` if that is more: blocks of
/// the states of one shard in one chunk would be small, and compressed
/// less.
struct FrontierWriter<'r> {
    records: &'r dyn Records,
    path: PathBuf,
    hold: Option<u64>,
    budget: u64,
    /// Per shard of the part, the blocks held: each state its length in
    /// two bytes, then its record; and the states in the block.
    shards: Vec<Vec<(Vec<u8>, u32)>>,
    held: u64,
    /// The most bytes held after a chunk.
    peak: u64,
    file: Option<FrontierFile>,
}

impl<'r> FrontierWriter<'r> {
    fn new(
        records: &'r dyn Records,
        path: PathBuf,
        hold: Option<u64>,
        budget: u64,
    ) -> FrontierWriter<'r> {
        FrontierWriter {
            records,
            path,
            hold,
            budget,
            shards: (0..PART_SHARDS).map(|_| Vec::new()).collect(),
            held: 0,
            peak: 0,
            file: None,
        }
    }

    fn push(&mut self, fp: u128, record: &[u8]) {
        let blocks = &mut self.shards[shard_of(fp) % PART_SHARDS];
        if blocks
            .last()
            .is_none_or(|&(_, count)| count as usize >= FRONTIER_BLOCK)
        {
            blocks.push(Default::default());
        }
        let (raw, count) = blocks.last_mut().expect("a block");
        raw.extend_from_slice(&(record.len() as u16).to_le_bytes());
        raw.extend_from_slice(record);
        *count += 1;
        self.held += record.len() as u64 + 2;
    }

    /// After a chunk: past `hold` bytes and the budget, the blocks held go
    /// to the file.
    fn spill(&mut self) -> Result<(), CheckpointError> {
        self.peak = self.peak.max(self.held);
        if self
            .hold
            .is_some_and(|hold| self.held > hold.max(self.budget))
        {
            self.write_held()?;
        }
        Ok(())
    }

    fn write_held(&mut self) -> Result<(), CheckpointError> {
        let file = match &mut self.file {
            Some(file) => file,
            None => self.file.insert(FrontierFile::create(self.path.clone())?),
        };
        for (shard, blocks) in self.shards.iter_mut().enumerate() {
            for (raw, count) in blocks.drain(..) {
                file.push(self.records, shard, &raw, count)?;
            }
        }
        self.held = 0;
        Ok(())
    }

    /// The frontier: in memory if it never passed `hold`, else in the
    /// file.
    fn finish(mut self) -> Result<Frontier, CheckpointError> {
        if self.file.is_none() && self.hold.is_none_or(|hold| self.held <= hold) {
            let mut arena = Arena::default();
            for blocks in &mut self.shards {
                for (raw, count) in blocks.drain(..) {
                    read_states(&self.path, &raw, count, &mut arena)?;
                }
            }
            return Ok(Frontier::Memory(arena));
        }
        self.write_held()?;
        let mut file = self.file.take().expect("written");
        file.finish()?;
        Ok(Frontier::File(file))
    }
}

/// Adds to `arena` the `count` states of the raw block `raw` (each its
/// length in two bytes, then its record), of the frontier at `path`.
fn read_states(
    path: &Path,
    raw: &[u8],
    count: u32,
    arena: &mut Arena,
) -> Result<(), CheckpointError> {
    let before = arena.len();
    let mut at = 0;
    while at < raw.len() {
        let len = raw
            .get(at..at + 2)
            .map(|b| u16::from_le_bytes([b[0], b[1]]) as usize)
            .ok_or_else(|| damaged(path, "a state cut short"))?;
        let record = raw
            .get(at + 2..at + 2 + len)
            .ok_or_else(|| damaged(path, "a state cut short"))?;
        arena.push(record);
        at += 2 + len;
    }
    if arena.len() - before != count as usize {
        return Err(damaged(path, "a block of the wrong length"));
    }
    Ok(())
}

/// A block of a frontier's file.
struct FrontierBlock {
    /// The shard (within the part) its states are of.
    shard: usize,
    offset: u64,
    len: u32,
    raw: u32,
    count: u32,
}

/// A frontier on disk: LZ4 blocks of up to [`FRONTIER_BLOCK`] states in the
/// files' form ([`write_file_record`]), read back by shard, and each
/// shard's in the order written. The file is deleted when the frontier is
/// dropped (expanded, or left by a round cut short), and no run reads
/// another's, so its format is free to change: LZ4 rather than the output
/// files' Zstandard took about 4 % less CPU on the unwon game's stage 1,
/// for a file about 1.5 times as large while it lasts (`docs/engine.md`).
struct FrontierFile {
    path: PathBuf,
    /// The writer, until the file is finished.
    out: Option<BufWriter<fs::File>>,
    /// Bytes written.
    end: u64,
    /// In the order they are read once the file is finished.
    blocks: Vec<FrontierBlock>,
}

impl FrontierFile {
    fn create(path: PathBuf) -> Result<FrontierFile, CheckpointError> {
        let file = fs::File::create(&path).map_err(io_error(&path))?;
        Ok(FrontierFile {
            out: Some(BufWriter::with_capacity(1 << 16, file)),
            path,
            end: 0,
            blocks: Vec::new(),
        })
    }

    /// Writes the block of `count` states `held` (each its length in two
    /// bytes, then its record) of shard `shard`, in the files' form
    /// ([`write_file_record`]), packed.
    fn push(
        &mut self,
        records: &dyn Records,
        shard: usize,
        held: &[u8],
        count: u32,
    ) -> Result<(), CheckpointError> {
        let path = &self.path;
        let out = self.out.as_mut().expect("a file being written");
        let mut raw = FRONTIER_BUFFER.take();
        raw.clear();
        let mut at = 0;
        while at < held.len() {
            let len = u16::from_le_bytes([held[at], held[at + 1]]) as usize;
            write_file_record(records, &held[at + 2..at + 2 + len], &mut raw);
            at += 2 + len;
        }
        let written = with_compressed(FRONTIER_CODEC, &raw, |packed| {
            out.write_all(packed).map_err(io_error(path))?;
            Ok(packed.len() as u64)
        });
        let raw_len = raw.len();
        FRONTIER_BUFFER.set(raw);
        let len = written?;
        self.blocks.push(FrontierBlock {
            shard,
            offset: self.end,
            len: len as u32,
            raw: raw_len as u32,
            count,
        });
        self.end += len;
        Ok(())
    }

    /// Writes what is left, and puts the blocks in the order they are read
    /// (by shard; a shard's as written: the sort is stable).
    fn finish(&mut self) -> Result<(), CheckpointError> {
        if let Some(out) = self.out.take() {
            out.into_inner()
                .map_err(|e| e.into_error())
                .map_err(io_error(&self.path))?;
        }
        self.blocks.sort_by_key(|b| b.shard);
        Ok(())
    }

    /// Block `k`'s states into `arena` (emptied first), read from `file`
    /// (opened the first time).
    fn read_block(
        &self,
        records: &dyn Records,
        file: &mut Option<fs::File>,
        k: usize,
        arena: &mut Arena,
    ) -> Result<(), CheckpointError> {
        use std::io::Seek;
        let path = &self.path;
        let file = match file {
            Some(file) => file,
            None => file.insert(fs::File::open(path).map_err(io_error(path))?),
        };
        let block = &self.blocks[k];
        file.seek(std::io::SeekFrom::Start(block.offset))
            .map_err(io_error(path))?;
        let mut packed = vec![0; block.len as usize];
        file.read_exact(&mut packed).map_err(io_error(path))?;
        let mut raw = Vec::new();
        decompress_block(FRONTIER_CODEC, &packed, block.raw as usize, &mut raw)
            .map_err(io_error(path))?;
        *arena = Arena::default();
        let mut record = Vec::new();
        let mut at = 0;
        while at < raw.len() {
            record.clear();
            at += read_file_record(records, &raw[at..], &mut record)
                .ok_or_else(|| damaged(path, "a state out of shape"))?;
            arena.push(&record);
        }
        if arena.len() != block.count as usize {
            return Err(damaged(path, "a block of the wrong length"));
        }
        Ok(())
    }
}

impl Drop for FrontierFile {
    fn drop(&mut self) {
        self.out = None;
        let _ = fs::remove_file(&self.path);
    }
}

/// How a frontier's file is packed: LZ4, its blocks read back once in the
/// same round. Zstandard took a third fewer bytes there but 1.5 % more CPU,
/// and the directory's largest size was the same (it comes when no
/// frontier waits in a file).
const FRONTIER_CODEC: Codec = Codec::Lz4;

/// How a block is packed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Codec {
    /// Zstandard at [`FILE_LEVEL`]: the output files, which may wait on
    /// the disk for many rounds (Spider's raw records were about 3.4 times
    /// smaller at level 1, packed
    /// at about 330 MB/s and unpacked at 1.1 GB/s on this machine).
    Zstd,
    /// LZ4: a frontier's file, read back in the same round and deleted
    /// (about 2.2 times smaller, packed at about 500 MB/s and unpacked at
    /// 4 GB/s; see `docs/engine.md`).
    Lz4,
}

/// Calls `f` with `raw` packed by `codec` (in the thread's buffer, with
/// its Zstandard context), and returns what it returns.
fn with_compressed<T>(
    codec: Codec,
    raw: &[u8],
    f: impl FnOnce(&[u8]) -> Result<T, CheckpointError>,
) -> Result<T, CheckpointError> {
    let mut packed = FILE_BUFFER.take();
    let len = match codec {
        Codec::Zstd => FILE_ZSTD.with_borrow_mut(|(compressor, _)| {
            packed.clear();
            packed.reserve(zstd::zstd_safe::compress_bound(raw.len()));
            compressor
                .get_or_insert_with(|| {
                    zstd::bulk::Compressor::new(FILE_LEVEL).expect("a compression context")
                })
                .compress_to_buffer(raw, &mut packed)
                .expect("room for the worst case")
        }),
        Codec::Lz4 => {
            let most = lz4_flex::block::get_maximum_output_size(raw.len());
            if packed.len() < most {
                packed.resize(most, 0);
            }
            lz4_flex::block::compress_into(raw, &mut packed).expect("room for the worst case")
        }
    };
    let result = f(&packed[..len]);
    FILE_BUFFER.set(packed);
    result
}

/// Unpacks `packed`, of `raw` bytes packed by `codec`, into `out`.
fn decompress_block(
    codec: Codec,
    packed: &[u8],
    raw: usize,
    out: &mut Vec<u8>,
) -> std::io::Result<()> {
    let bad = |what: String| std::io::Error::new(std::io::ErrorKind::InvalidData, what);
    let len = match codec {
        Codec::Zstd => FILE_ZSTD.with_borrow_mut(|(_, decompressor)| {
            out.clear();
            out.reserve(raw);
            decompressor
                .get_or_insert_with(|| {
                    zstd::bulk::Decompressor::new().expect("a decompression context")
                })
                .decompress_to_buffer(packed, out)
        })?,
        Codec::Lz4 => {
            out.resize(raw, 0);
            lz4_flex::block::decompress_into(packed, out).map_err(|e| bad(e.to_string()))?
        }
    };
    if len != raw {
        return Err(bad(format!("a block of {len} bytes, not {raw}")));
    }
    out.truncate(len);
    Ok(())
}

/// Writes `run` to `path` (whole or not at all: a file beside it, renamed
/// once written); its bytes.
fn write_run(path: &Path, run: &Run) -> Result<u64, CheckpointError> {
    write_file_atomically(path, |out| run.write_to(out))?;
    Ok(fs::metadata(path).map_err(io_error(path))?.len())
}

/// Frontier states expanded at a time by [`expand_task`]: their
/// same-layer successors are looked up in the seen sets together.
const EXPAND_CHUNK: usize = 16 * UNIT;

/// Same-layer successors looked up ahead of the one being looked up: its
/// seen set's line is fetched that many lookups before it is read.
const LOOKUP_AHEAD: usize = 16;

/// The second half of a task: expands `frontier` (what [`dedup_task`]
/// left) and writes every successor but the same-layer ones already in
/// `known` (the seen sets of the parts, those at hand, with the round's
/// new states): each is a duplicate the reading task would drop, so it is
/// counted here and not written.
#[allow(clippy::too_many_arguments)]
fn expand_task<P: PackedProblem>(
    problem: &P,
    dir: &Path,
    files: Option<&MemFiles>,
    round: &Round,
    mut out: TaskOut,
    mut frontier: Frontier,
    known: &[Option<&FpTable>],
    keep_leaves: bool,
    stopping: &(dyn Fn() -> bool + Sync),
) -> Result<TaskOut, CheckpointError>
where
    P::State: Send,
{
    let layer = round.layer;
    let part = out.part;
    let mut memory = out.memory;
    let mut writer = BlockWriter::new(
        problem,
        dir,
        output_name(layer, round.step, part),
        layer,
        files,
    );
    let mut scratch = Vec::new();
    let mut units: Vec<UnitOut<P::State>> = Vec::new();
    let mut drop_same: Vec<bool> = Vec::new();
    let mut lookups: Vec<(u128, u32)> = Vec::new();
    let mut filtered = 0u64;
    // The next state (in memory) or block (on disk) to expand, and the
    // block read last.
    let mut next = 0;
    let mut reader = None;
    let mut read = Arena::default();
    loop {
        let (arena, mut from, chunk_end) = match &mut frontier {
            Frontier::Memory(arena) => {
                // Nothing reads the states before `next` again.
                arena.free_before(next);
                if next >= arena.len() {
                    break;
                }
                let from = next;
                next = arena.len().min(from + EXPAND_CHUNK);
                (&*arena, from, next)
            }
            Frontier::File(file) => {
                if next >= file.blocks.len() {
                    break;
                }
                file.read_block(problem, &mut reader, next, &mut read)?;
                next += 1;
                (&read, 0, read.len())
            }
        };
        let arenas = std::slice::from_ref(arena);
        units.clear();
        while from < chunk_end {
            if stopping() {
                out.stopped = true;
                return Ok(out);
            }
            let to = chunk_end.min(from + UNIT);
            units.push(expand_unit(
                problem,
                layer,
                arenas,
                &[(0, from, to)],
                keep_leaves,
            ));
            from = to;
        }
        let units_bytes: usize = units
            .iter()
            .map(|u| (u.same.items.capacity() + u.later.items.capacity()) * size_of::<Entry>())
            .sum();
        // The chunk's same-layer successors, in the order they are
        // written: those already seen are not. They are looked up a part
        // at a time (each unit's are sorted by shard, so a part's are a
        // slice of each unit's), so that one part's seen set is in the
        // cache at a time, not every part's at once.
        drop_same.clear();
        drop_same.resize(units.iter().map(|u| u.same.len()).sum(), false);
        lookups.clear();
        for part in (0..PARTS).filter(|&part| known[part].is_some()) {
            let mut base = 0;
            for unit in &units {
                let starts = &unit.same.starts;
                let from = starts[part * PART_SHARDS] as usize;
                let to = starts[(part + 1) * PART_SHARDS] as usize;
                lookups.extend(
                    unit.same.items[from..to]
                        .iter()
                        .zip(base + from..)
                        .map(|(e, k)| (e.fp, k as u32)),
                );
                base += unit.same.len();
            }
        }
        for (i, &(fp, k)) in lookups.iter().enumerate() {
            if let Some(&(ahead, _)) = lookups.get(i + LOOKUP_AHEAD)
                && let Some(table) = known[part_of(ahead)]
            {
                table.prefetch(ahead);
            }
            if let Some(table) = known[part_of(fp)] {
                drop_same[k as usize] = table.contains(fp);
            }
        }
        let mut same_at = 0;
        for unit in units.drain(..) {
            out.expanded += unit.expanded;
            out.moves += unit.moves;
            out.goals += unit.goals;
            out.leaves += unit.leaves;
            out.dead += unit.dead;
            out.max_depth = out.max_depth.max(unit.max_depth);
            if out.goal.is_none()
                && let Some(goal) = unit.goal
            {
                let mut packed = Vec::new();
                problem.pack(&goal.state, &mut packed);
                out.goal = Some((format!("{:032x}", goal.fingerprint), goal.depth, packed));
            }
            for (state, depth) in unit.leaf_states {
                let mut packed = Vec::new();
                problem.pack(&state, &mut packed);
                out.leaf_records.push((packed, depth));
            }
            for e in &unit.same.items {
                let dropped = drop_same[same_at];
                same_at += 1;
                if dropped {
                    filtered += 1;
                    continue;
                }
                write_successor(problem, arena, e, &mut writer, &mut scratch)?;
            }
            for e in &unit.later.items {
                write_successor(problem, arena, e, &mut writer, &mut scratch)?;
            }
        }
        let scratch_bytes = units_bytes
            + drop_same.capacity()
            + lookups.capacity() * size_of::<(u128, u32)>()
            + read.bytes() as usize;
        memory = memory.max(writer.memory() + scratch_bytes as u64);
    }
    if filtered > 0 {
        *out.dups.entry(layer).or_default() += filtered;
    }
    out.memory = memory;
    out.file = writer.finish()?;
    Ok(out)
}

/// The name of the file of successors that part `part` of round `step`
/// of layer `layer` writes.
fn output_name(layer: u64, step: u32, part: usize) -> String {
    format!("L{layer:016x}-s{step:05}-p{part:02}.blk")
}

/// Builds the successor `e` of a frontier state and writes it.
fn write_successor<P: PackedProblem>(
    problem: &P,
    frontier: &Arena,
    e: &Entry,
    writer: &mut BlockWriter,
    scratch: &mut Vec<u8>,
) -> Result<(), CheckpointError>
where
    P::State: Send,
{
    let parent = frontier.slice(e.parent as usize, e.parent_len as usize);
    let depth = u16::from_le_bytes([parent[0], parent[1]]).saturating_add(1);
    scratch.clear();
    scratch.extend_from_slice(&depth.to_le_bytes());
    problem.successor_packed(&parent[2..], e.token, scratch);
    writer.push(e.layer, e.fp, scratch)
}

/// Shell-quotes `arg`.
fn shell_quote(arg: &str) -> String {
    if !arg.is_empty()
        && arg
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./=:,+@%".contains(&b))
    {
        arg.to_string()
    } else {
        format!("'{}'", arg.replace('\'', "'\\''"))
    }
}

/// This process's command line, quoted for the shell.
fn own_command() -> String {
    let exe = std::env::current_exe()
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_else(|_| std::env::args().next().unwrap_or_default());
    std::iter::once(exe)
        .chain(std::env::args().skip(1))
        .map(|a| shell_quote(&a))
        .collect::<Vec<_>>()
        .join(" ")
}

impl<'a, P: PackedProblem> Layered<'a, P>
where
    P::State: Send,
    P::Move: Send,
{
    /// The memory budget of the search on disk: the bytes of output files
    /// held in memory (see [`MEMORY_FILES`]), and the measure of what else
    /// it holds (the frontiers that wait in memory, the inputs of the
    /// running tasks).
    fn disk_budget(&self) -> u64 {
        self.disk_memory.unwrap_or_else(|| {
            self.limits
                .max_memory
                .map_or(MEMORY_FILES, |max| (max / 8).min(MEMORY_FILES))
        })
    }

    /// The most bytes the current layer's seen sets may take in memory
    /// before they are dropped and its earlier rounds looked up on disk
    /// ([`DiskOptions::seen_memory`]).
    fn seen_budget(&self, options: &DiskOptions) -> u64 {
        options.seen_memory.unwrap_or_else(|| {
            self.limits
                .max_memory
                .map_or(SEEN_MEMORY, |max| (max / 4).max(1))
        })
    }

    /// Runs the round task this process was started for, if it was (by a
    /// search's launcher: [`ROUND_ENV`] names the round's file in this
    /// search's directory), and returns `true`; `false` otherwise.
    fn run_disk_task(&self, options: &DiskOptions, id: &str) -> Result<bool, CheckpointError> {
        let Ok(round_path) = std::env::var(ROUND_ENV) else {
            return Ok(false);
        };
        let round_path = PathBuf::from(round_path);
        if round_path.parent() != Some(options.dir.as_path()) {
            return Ok(false);
        }
        let text = fs::read_to_string(&round_path).map_err(io_error(&round_path))?;
        let round: Round =
            serde_json::from_str(&text).map_err(|e| damaged(&round_path, e.to_string()))?;
        if round.id != id {
            return Err(CheckpointError::OtherSearch {
                path: options.dir.clone(),
                found: round.id,
            });
        }
        let part = std::env::var(PART_ENV)
            .or_else(|_| std::env::var("SLURM_ARRAY_TASK_ID"))
            .ok()
            .and_then(|p| p.trim().parse::<usize>().ok())
            .filter(|&p| p < PARTS)
            .ok_or_else(|| {
                damaged(
                    &round_path,
                    format!("a task needs its part (0 to {}) in {PART_ENV}", PARTS - 1),
                )
            })?;
        let keep_leaves = self.on_leaf.is_some();
        let mut seen = load_seen(
            &options.dir,
            round.layer,
            part,
            round.old_before,
            round.step,
        )?;
        // A task on its own: its inputs in chunks of up to a quarter of the
        // budget, and its frontier, which it expands right away, in memory.
        let (out, frontier, _) = dedup_task(
            &options.dir,
            None,
            &round,
            part,
            &mut seen,
            None,
            self.disk_budget() / 4,
            self.problem,
            &RoundGuard::never(),
        )?;
        // Only this part's seen set is at hand.
        let mut known = vec![None; PARTS];
        known[part] = Some(&seen);
        let out = expand_task(
            self.problem,
            &options.dir,
            None,
            &round,
            out,
            frontier,
            &known,
            keep_leaves,
            &|| false,
        )?;
        let path = result_path(&options.dir, part);
        write_file_atomically(&path, |w| {
            serde_json::to_writer(&mut *w, &out)?;
            Ok(())
        })?;
        Ok(true)
    }

    /// The search with its states on disk (see the module's documentation).
    pub(super) fn run_disk(
        mut self,
        pool: Pool,
    ) -> Result<LayeredOutcome<P::State>, CheckpointError> {
        let (options, id) = self.disk.clone().expect("run_disk with disk options");
        if self.run_disk_task(&options, &id)? {
            // A task of a round: its result is written; this process has
            // nothing else to do.
            std::process::exit(0);
        }
        let dir = options.dir.clone();
        let problem = self.problem;
        let started = Instant::now();
        let mut stats = LayeredStats {
            threads: pool.threads(),
            ..LayeredStats::default()
        };
        // Frontiers left by a run cut short are read by no one.
        let _ = fs::remove_dir_all(dir.join("frontier"));
        for sub in ["blocks", "seen", "results", "frontier"] {
            let path = dir.join(sub);
            fs::create_dir_all(&path).map_err(io_error(&path))?;
        }
        let manifest_path = dir.join("disk-manifest.json");
        let mut manifest = match fs::read_to_string(&manifest_path) {
            Ok(text) => {
                let manifest: DiskManifest = serde_json::from_str(&text)
                    .map_err(|e| damaged(&manifest_path, e.to_string()))?;
                if manifest.version != DISK_VERSION {
                    return Err(CheckpointError::OtherSearch {
                        path: dir.clone(),
                        found: format!(
                            "disk format {} of another version of spider, which this one \
                             (format {DISK_VERSION}) cannot read",
                            manifest.version
                        ),
                    });
                }
                if manifest.id != id {
                    return Err(CheckpointError::OtherSearch {
                        path: dir.clone(),
                        found: manifest.id,
                    });
                }
                stats.layers = manifest.layers.clone();
                for layer in &manifest.layers {
                    stats.add_layer(layer);
                }
                stats.max_depth = manifest.max_depth;
                stats.resumed_layers = stats.layers.len();
                if let Some((_, restore)) = &mut self.note {
                    restore(&manifest.note);
                }
                manifest
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                // A new search: the start state's file.
                let start = problem.start();
                let layer = problem.layer(&start);
                let mut record = 0u16.to_le_bytes().to_vec();
                problem.pack(&start, &mut record);
                let mut writer = BlockWriter::new(problem, &dir, "start.blk".into(), START, None);
                writer.push(layer, problem.fingerprint(&start), &record)?;
                let (name, info) = writer.finish()?.expect("one record");
                DiskManifest {
                    version: DISK_VERSION,
                    id: id.clone(),
                    layers: Vec::new(),
                    max_depth: 0,
                    note: String::new(),
                    current: None,
                    pending: BTreeMap::from([(layer, vec![name.clone()])]),
                    files: BTreeMap::from([(name, info)]),
                    packs: 0,
                }
            }
            Err(e) => return Err(io_error(&manifest_path)(e)),
        };
        let mut goal: Option<FoundGoal<P::State>> = None;
        let mut seen: Vec<FpTable> = Vec::new();
        let budget = self.disk_budget();
        let mut unsaved = Unsaved {
            written: Vec::new(),
            doomed: Vec::new(),
            holes: Vec::new(),
            memory: Some(MemFiles::new(budget)),
            runs: (0..PARTS).map(|_| Vec::new()).collect(),
            runs_from: 0,
            seen_disk: 0,
        };
        let mut last_manifest = Instant::now();
        let keep_leaves = self.on_leaf.is_some();
        // The current layer's rounds before this one are on disk only
        // (see [`page_in`]).
        let mut old_before = 0;
        let seen_budget = self.seen_budget(&options);
        if let Some(current) = &mut manifest.current {
            stats.positions += current.here.positions;
            // The layer's seen runs so far go back into memory if their
            // tables fit the budget (a table takes about 1.4 times a
            // run's bytes); else they are merged, one a part, and looked
            // up on disk.
            let mut bytes = 0;
            for part in 0..PARTS {
                for (_, _, path) in seen_runs(&dir, current.layer, part, current.step, true)? {
                    bytes += fs::metadata(&path).map_err(io_error(&path))?.len();
                }
            }
            unsaved.seen_disk = bytes;
            if bytes * 7 / 5 > seen_budget {
                for part in 0..PARTS {
                    let (removed, written, _) =
                        compact_runs(&dir, current.layer, part, 0, current.step)?;
                    unsaved.seen_disk = (unsaved.seen_disk + written).saturating_sub(removed);
                }
                old_before = current.step;
                seen = (0..PARTS).map(|_| FpTable::default()).collect();
                stats.seen_dropped += 1;
            } else {
                seen = (0..PARTS)
                    .map(|part| load_seen(&dir, current.layer, part, 0, current.step))
                    .collect::<Result<_, _>>()?;
            }
            unsaved.runs_from = current.step;
        }
        let end = 'search: loop {
            let mut current = match manifest.current.take() {
                Some(current) => current,
                None => {
                    let Some((layer, inputs)) = manifest.pending.pop_first() else {
                        break End::Exhausted;
                    };
                    seen = (0..PARTS).map(|_| FpTable::default()).collect();
                    old_before = 0;
                    unsaved.seen_disk = 0;
                    unsaved.runs_from = 0;
                    let path = seen_dir(&dir, layer);
                    fs::create_dir_all(&path).map_err(io_error(&path))?;
                    Current {
                        layer,
                        step: 0,
                        here: LayerStats {
                            layer,
                            ..LayerStats::default()
                        },
                        inputs,
                        done: Vec::new(),
                        split: false,
                    }
                }
            };
            let layer = current.layer;
            let inputs_of = |manifest: &DiskManifest, current: &Current| {
                (current.inputs.iter())
                    .map(|name| (name.clone(), manifest.files[name].clone()))
                    .collect()
            };
            let mut round = Round {
                id: id.clone(),
                layer,
                step: current.step,
                files: inputs_of(&manifest, &current),
                old_before,
            };
            // A small round runs here, as in one process: starting its
            // tasks would take longer than the round. A round launched
            // reads its inputs and seen runs from the disk: what is held
            // in memory is written first (with a manifest).
            // A round resumed with some parts done runs here too.
            let launcher = options
                .launcher
                .as_ref()
                .filter(|_| round.records() >= options.launch_from && current.done.is_empty());
            // A large round in one process goes in waves of parts, and
            // records the parts finished as it goes: everything held is
            // written first, so that the manifest that records them
            // describes what is on the disk. (A split round is one.)
            let waves = launcher.is_none() && (round.records() >= WAVES_FROM || current.split);
            if (launcher.is_some() && unsaved.bytes() > 0) || waves {
                manifest.current = Some(current);
                self.save_disk_manifest(&dir, &mut manifest, &stats, &mut unsaved)?;
                last_manifest = Instant::now();
                current = manifest.current.take().expect("just put");
                // Its inputs held in memory are in a pack now.
                round.files = inputs_of(&manifest, &current);
            }
            // A round split in waves (see below) starts with the layer's
            // seen sets on disk: each wave's parts look the layer's earlier
            // rounds up there, so that only the wave's own tables are held.
            if current.split && launcher.is_none() && seen.iter().any(|t| !t.is_empty()) {
                (current, old_before) = self.drop_seen(
                    &dir,
                    &mut manifest,
                    &mut stats,
                    &mut unsaved,
                    &mut seen,
                    current,
                    old_before,
                )?;
                last_manifest = Instant::now();
                round.files = inputs_of(&manifest, &current);
                round.old_before = old_before;
            }
            let held = seen.iter().map(FpTable::bytes).sum::<u64>() + unsaved.bytes();
            let guard = RoundGuard {
                limits: Some(&self.limits),
                cancel: self.cancel,
                started,
                held,
                grown: AtomicU64::new(0),
                peak: AtomicU64::new(0),
                split_from: (!current.split && launcher.is_none())
                    .then(|| {
                        (options.split_from).or_else(|| {
                            (self.limits.max_memory).map(|max| max.saturating_sub(held) / 2)
                        })
                    })
                    .flatten(),
                records: round.records(),
                read: AtomicU64::new(0),
                fresh: AtomicU64::new(0),
                split: AtomicBool::new(false),
                reason: std::sync::OnceLock::new(),
            };
            let stopping = || guard.stop().is_some();
            let mut runs: Vec<Vec<Run>> = Vec::new();
            // Every part's frontier waits for the others' in one process: in
            // memory up to a part's share of a quarter of the budget (held
            // as it is, not compressed), else in a file.
            let hold = Some(budget / (4 * PARTS as u64));
            // The tasks running at once read their inputs in chunks of up
            // to another quarter of the budget, shared.
            let inputs = budget / (4 * pool.threads().min(PARTS) as u64);
            // The parts a search stopped in this round finished: their
            // files as the manifest knows them (in a pack now, maybe).
            let done: Vec<TaskOut> = std::mem::take(&mut current.done)
                .into_iter()
                .map(|mut out| {
                    if let Some((name, info)) = &mut out.file {
                        *info = manifest.files[name.as_str()].clone();
                    }
                    out
                })
                .collect();
            // The room left under the limit of positions, if any.
            let room = (self.limits.max_positions).map(|max| max.saturating_sub(stats.positions));
            let mut held_back = false;
            // The most bytes a wave of a split round held in its seen sets
            // and frontiers at once.
            let mut split_peak = 0;
            // Whether the seen sets hold the round's new states after it
            // (a split round's go wave by wave).
            let mut seen_kept = !current.split;
            let outs: Vec<TaskOut> = match launcher {
                None => {
                    // Every part's new states first, then every part's
                    // successors, looked up in every part's seen set (most
                    // same-layer duplicates are of states new in the same
                    // round: a card moved on again). A round whose seen
                    // sets outgrow the memory left is split instead: its
                    // parts run a wave (one a thread) at a time, each
                    // wave's successors looked up in the wave's seen sets
                    // only (the others are written, and counted as
                    // duplicates where the next round reads them, as a task
                    // in a process of its own does), and each wave's seen
                    // sets go to the disk before the next wave.
                    let memory = unsaved.memory.as_ref();
                    let group = if current.split {
                        pool.threads().min(PARTS)
                    } else {
                        PARTS
                    };
                    let mut outs = Vec::with_capacity(PARTS);
                    // With a limit of positions, a part starts while the
                    // round's new states before it (in part order) leave
                    // room: the parts past the limit are left for the
                    // resumed round, as parts cut short are, so that a
                    // search stops at most a part past its limit, not a
                    // round.
                    let mut before: u64 = done.iter().map(|d| d.new).sum();
                    // A part stopped while it read its inputs stops the
                    // round: the parts not finished before are cut short.
                    let mut cut = false;
                    for first in (0..PARTS).step_by(group) {
                        let parts = first..(first + group).min(PARTS);
                        if cut {
                            for part in parts {
                                runs.push(Vec::new());
                                outs.push(TaskOut {
                                    part,
                                    stopped: true,
                                    ..TaskOut::default()
                                });
                            }
                            continue;
                        }
                        let firsts = pool.install(|| {
                            seen[parts.clone()]
                                .par_iter_mut()
                                .enumerate()
                                .with_max_len(1)
                                .map(|(i, seen)| {
                                    dedup_task(
                                        &dir,
                                        memory,
                                        &round,
                                        first + i,
                                        seen,
                                        hold,
                                        inputs,
                                        problem,
                                        &guard,
                                    )
                                })
                                .collect::<Result<Vec<_>, _>>()
                        })?;
                        cut = firsts.iter().any(|(out, _, _)| out.stopped);
                        let known: Vec<Option<&FpTable>> = (0..PARTS)
                            .map(|part| parts.contains(&part).then(|| &seen[part]))
                            .collect();
                        if current.split {
                            let frontiers: u64 =
                                firsts.iter().map(|(o, _, _)| o.frontier_bytes).sum();
                            let wave = &seen[parts.clone()];
                            let tables: u64 = wave.iter().map(FpTable::bytes).sum();
                            split_peak = split_peak.max(frontiers + tables);
                            if tables > stats.peak_table_bytes {
                                stats.peak_table_bytes = tables;
                                stats.peak_table_positions =
                                    wave.iter().map(|t| t.len() as u64).sum();
                            }
                        }
                        let mut todo = Vec::new();
                        for (mut out, frontier, run) in firsts {
                            if current.split && !run.is_empty() {
                                // Its run goes to the disk now, with
                                // its seen set.
                                let path = seen_path(&dir, layer, out.part, round.step, round.step);
                                out.seen_file_bytes = write_run(&path, &merged(run))?;
                                runs.push(Vec::new());
                            } else {
                                runs.push(run);
                            }
                            if let Some(done) = done.iter().find(|d| d.part == out.part) {
                                // Expanded before the stop: the same
                                // states, read again only to be seen.
                                drop(frontier);
                                outs.push(TaskOut {
                                    seen_file_bytes: out.seen_file_bytes,
                                    ..done.clone()
                                });
                            } else if cut {
                                outs.push(TaskOut {
                                    stopped: true,
                                    ..out
                                });
                            } else if room.is_some_and(|room| before >= room) {
                                held_back = true;
                                outs.push(TaskOut {
                                    stopped: true,
                                    ..out
                                });
                            } else {
                                before += out.new;
                                todo.push((out, frontier));
                            }
                        }
                        // A large round expands a wave of parts at a time,
                        // one a thread, and after each wave reports its
                        // progress and (at most every few seconds) records
                        // the parts finished, so that a crash keeps them
                        // too.
                        let wave = if waves { pool.threads() } else { PARTS };
                        let last_group = parts.end == PARTS;
                        let mut todo = todo.into_iter();
                        loop {
                            let batch: Vec<_> = todo.by_ref().take(wave).collect();
                            if batch.is_empty() {
                                break;
                            }
                            let expanded = pool.install(|| {
                                batch
                                    .into_par_iter()
                                    .with_max_len(1)
                                    .map(|(out, frontier)| {
                                        expand_task(
                                            problem,
                                            &dir,
                                            memory,
                                            &round,
                                            out,
                                            frontier,
                                            &known,
                                            keep_leaves,
                                            &stopping,
                                        )
                                    })
                                    .collect::<Result<Vec<_>, CheckpointError>>()
                            })?;
                            let stopped = expanded.iter().any(|o| o.stopped);
                            outs.extend(expanded);
                            if stopped {
                                let left = todo.by_ref().map(|(out, _)| TaskOut {
                                    stopped: true,
                                    ..out
                                });
                                outs.extend(left);
                                cut = true;
                                break;
                            }
                            if todo.len() == 0 && last_group {
                                // The last wave: the round's end reports it.
                                break;
                            }
                            let finished: Vec<&TaskOut> =
                                outs.iter().filter(|o| !o.stopped).collect();
                            if let Some(progress) = &mut self.on_progress {
                                let mut s = stats.clone();
                                s.add_counts(&current.here);
                                s.layers.push(current.here.clone());
                                s.positions += finished.iter().map(|o| o.new).sum::<u64>();
                                s.elapsed = started.elapsed();
                                (s.queued, s.queued_across) = queued(problem, &manifest);
                                progress(&s);
                            }
                            if last_manifest.elapsed() >= MANIFEST_EVERY || cfg!(test) {
                                save_parts(&dir, &mut manifest, &current, &finished, memory)?;
                                last_manifest = Instant::now();
                            }
                        }
                        drop(known);
                        if current.split {
                            // The wave's seen sets go; their runs are on
                            // the disk.
                            for table in &mut seen[parts] {
                                guard.shrink(table.bytes());
                                *table = FpTable::default();
                            }
                            crate::explore::memory::trim_freed_memory();
                        }
                    }
                    outs.sort_by_key(|o| o.part);
                    outs
                }
                Some(launcher) => {
                    let outs = launch(&dir, &round, launcher)?;
                    // The tasks wrote their seen runs; they are read back
                    // into the seen sets unless these would then pass
                    // their budget (at 20 bytes a state, [`FpTable`]), and
                    // so be dropped after the round anyway: then they are
                    // dropped without.
                    let new: u64 = outs.iter().map(|o| o.new).sum();
                    let tables: u64 = seen.iter().map(FpTable::bytes).sum();
                    if tables + new * 20 > seen_budget {
                        seen_kept = false;
                    } else {
                        read_back(&dir, &round, &outs, &mut seen)?;
                    }
                    outs
                }
            };
            if guard.split.load(Ordering::Relaxed) && guard.reason.get().is_none() {
                // The round's seen sets would outgrow the memory left: it
                // runs again split, from the start (nothing of this try is
                // kept, the parts it finished before are kept still).
                drop(outs);
                drop(runs);
                // The seen sets, which the try added to, go to the disk as
                // the split round starts (above).
                current.done = done;
                current.split = true;
                stats.rounds_split += 1;
                manifest.current = Some(current);
                continue 'search;
            }
            if outs.iter().any(|o| o.stopped) {
                // The parts cut short are dropped; the parts finished are
                // kept, with their files (to be written with the
                // manifest), for the resumed round.
                for out in &outs {
                    if out.stopped {
                        // Its file, if it went to the disk, is read by no
                        // one: the resumed round writes it again.
                        let name = output_name(layer, current.step, out.part);
                        let _ = fs::remove_file(blocks_path(&dir, &name));
                    } else if let Some((name, info)) = &out.file {
                        let in_memory = unsaved.memory.as_ref().and_then(|m| m.get(name));
                        if !manifest.files.contains_key(name) && in_memory.is_none() {
                            unsaved.written.push(blocks_path(&dir, name));
                        }
                        manifest
                            .files
                            .entry(name.clone())
                            .or_insert_with(|| info.clone());
                    }
                }
                // The parts kept are counted when the round ends; they are
                // reported now, with the layer's rounds before them, as a
                // stop between rounds reports the layer so far (in its
                // first round, with its entries: every part's new states,
                // which every part, kept or not, has read).
                let mut here = current.here.clone();
                if current.step == 0 {
                    here.entries = outs.iter().map(|o| o.new).sum();
                    here.entries_across =
                        Some(outs.iter().map(|o| o.new_across(problem, layer)).sum());
                }
                current.done = outs.into_iter().filter(|o| !o.stopped).collect();
                let mut kept = 0;
                for out in &current.done {
                    kept += out.new;
                    out.count_into(&mut here);
                }
                here.positions += kept;
                manifest.current = Some(current);
                // The memory the round's seen sets reached counts too.
                stats.peak_memory_bytes = stats.peak_memory_bytes.max(guard.peak());
                let reason = match guard.reason.get() {
                    Some(&reason) => reason,
                    None if held_back => StopReason::Positions,
                    None => StopReason::Cancelled,
                };
                self.save_disk_manifest(&dir, &mut manifest, &stats, &mut unsaved)?;
                stats.positions += kept;
                stats.add_counts(&here);
                stats.layers.push(here);
                break 'search End::Stopped(reason);
            }
            // Past their budget, the seen sets go: the layer's rounds so
            // far are looked up on disk from the next round on, and only
            // this round's new states stay at hand (the successors met
            // again soonest: a card moved on again, a move's reverse).
            // (A split round's seen sets went wave by wave: its runs are on
            // disk, and none of it stays at hand.)
            let evict = !seen_kept || seen.iter().map(FpTable::bytes).sum::<u64>() > seen_budget;
            let last_round: Vec<Vec<Run>> = if evict { runs.clone() } else { Vec::new() };
            for (part, run) in runs.into_iter().enumerate() {
                unsaved.runs[part].extend(run);
            }
            if launcher.is_some() {
                // Its tasks wrote their seen runs; the runs held are of
                // the rounds after it.
                unsaved.runs_from = current.step + 1;
            }
            // The round is done: its counts.
            let here = &mut current.here;
            let mut new = 0;
            let mut across = 0;
            let mut task_memory = 0;
            let mut frontiers = 0;
            let mut frontier_files = 0;
            for out in &outs {
                new += out.new;
                across += out.new_across(problem, layer);
                for (&producer, &n) in &out.dups {
                    // The current layer's are added to the totals with
                    // the layer; a finished layer's now.
                    if producer == layer {
                        here.duplicates += n;
                    } else if let Some(l) =
                        stats.layers.iter_mut().rev().find(|l| l.layer == producer)
                    {
                        l.duplicates += n;
                        stats.duplicates += n;
                    }
                }
                out.count_into(here);
                stats.max_depth = stats.max_depth.max(out.max_depth);
                task_memory = task_memory.max(out.memory);
                frontiers += out.frontier_bytes;
                frontier_files += out.frontier_file_bytes;
                unsaved.seen_disk += out.seen_file_bytes;
                if out.seen_file_bytes > 0 {
                    let path = seen_path(&dir, layer, out.part, current.step, current.step);
                    unsaved.written.push(path);
                }
                if goal.is_none()
                    && let Some((fp, depth, packed)) = &out.goal
                {
                    goal = Some(FoundGoal {
                        state: problem.unpack(packed),
                        fingerprint: u128::from_str_radix(fp, 16).unwrap_or_default(),
                        depth: *depth,
                    });
                }
            }
            here.positions += new;
            stats.positions += new;
            if current.step == 0 {
                here.entries = new;
                here.entries_across = Some(across);
            }
            if new > 0 {
                here.steps += 1;
            }
            // Its files: the next round's inputs and the later layers'.
            for name in std::mem::take(&mut current.inputs) {
                let info = manifest.files.get_mut(&name).expect("an input is known");
                info.targets.remove(&layer);
                if info.targets.is_empty() {
                    let info = manifest.files.remove(&name).expect("just found");
                    if unsaved.memory.as_ref().is_some_and(|m| m.remove(&name)) {
                        // Never written.
                    } else if let Some((pack, base)) = info.pack {
                        // A pack goes with the last file in it; until
                        // then, the bytes of the files in it no layer
                        // reads are given back.
                        let in_pack = |f: &FileInfo| f.pack.as_ref().is_some_and(|p| p.0 == pack);
                        if !manifest.files.values().any(in_pack) {
                            unsaved.doomed.push(blocks_path(&dir, &pack));
                        } else {
                            unsaved
                                .holes
                                .push((blocks_path(&dir, &pack), base, info.bytes));
                        }
                    } else {
                        unsaved.doomed.push(blocks_path(&dir, &name));
                    }
                }
            }
            let mut leaves = Vec::new();
            for out in outs {
                if let Some((name, info)) = out.file {
                    for &target in &info.targets {
                        if target == layer {
                            current.inputs.push(name.clone());
                        } else {
                            assert!(
                                target > layer,
                                "a move led from layer {layer} to layer {target}: \
                                 Problem::layer must never go down"
                            );
                            manifest
                                .pending
                                .entry(target)
                                .or_default()
                                .push(name.clone());
                        }
                    }
                    let in_memory = unsaved.memory.as_ref().and_then(|m| m.get(&name));
                    if in_memory.is_none() {
                        unsaved.written.push(blocks_path(&dir, &name));
                    }
                    manifest.files.insert(name, info);
                }
                leaves.extend(out.leaf_records);
            }
            current.step += 1;
            let seen_bytes: u64 = seen.iter().map(FpTable::bytes).sum();
            let seen_len: u64 = seen.iter().map(|s| s.len() as u64).sum();
            if seen_bytes > stats.peak_table_bytes {
                stats.peak_table_bytes = seen_bytes;
                stats.peak_table_positions = seen_len;
            }
            let held = unsaved.bytes();
            // The seen sets, what waits to be written, the frontiers (all
            // held from the first half of the round to the second), the
            // tasks running at once.
            // (Of a split round, the seen sets and frontiers of one wave.)
            let waiting = if current.split {
                split_peak
            } else {
                seen_bytes + frontiers
            };
            let memory = waiting + held + task_memory * pool.threads().min(PARTS) as u64;
            stats.peak_memory_bytes = stats.peak_memory_bytes.max(memory);
            let finished = new == 0;
            // The next round is split again only if it outgrows the
            // memory left too.
            current.split = false;
            if evict && !finished {
                (current, old_before) = self.drop_seen(
                    &dir,
                    &mut manifest,
                    &mut stats,
                    &mut unsaved,
                    &mut seen,
                    current,
                    old_before,
                )?;
                last_manifest = Instant::now();
                for (part, runs) in last_round.iter().enumerate() {
                    for run in runs {
                        for fp in run.to_vec() {
                            seen[part].insert(fp);
                        }
                    }
                }
            }
            crate::explore::memory::trim_freed_memory();
            let snapshot = |stats: &LayeredStats, here: &LayerStats| {
                let mut s = stats.clone();
                s.add_counts(here);
                s.layers.push(here.clone());
                s.elapsed = started.elapsed();
                s
            };
            if finished {
                stats.add_counts(&current.here);
                stats.layers.push(current.here);
                unsaved.doomed.push(seen_dir(&dir, layer));
                seen.clear();
                unsaved.seen_disk = 0;
                unsaved.runs.iter_mut().for_each(Vec::clear);
            } else {
                manifest.current = Some(current);
            }
            // What the directory holds, with the frontier files of the
            // round (deleted now, they were held with its files).
            let on_disk = manifest.files.values().map(|f| f.bytes).sum::<u64>()
                + unsaved.seen_disk
                + frontier_files;
            // The checks, as the in-memory search makes them.
            let stop = 'check: {
                if let Some(on_leaf) = &mut self.on_leaf {
                    for (packed, depth) in &leaves {
                        if on_leaf(&problem.unpack(packed), *depth).is_break() {
                            break 'check Some(End::Stopped(StopReason::Callback));
                        }
                    }
                }
                if goal.is_some() && self.stop == Stop::FirstGoal {
                    break 'check Some(End::GoalFound);
                }
                if let Some(reason) = self.exceeded(&stats, started, memory) {
                    break 'check Some(End::Stopped(reason));
                }
                if options.max_bytes.is_some_and(|max| on_disk > max) {
                    break 'check Some(End::Stopped(StopReason::Disk));
                }
                None
            };
            if let Some(progress) = &mut self.on_progress {
                let mut s = match &manifest.current {
                    Some(c) => snapshot(&stats, &c.here),
                    None => {
                        let mut s = stats.clone();
                        s.elapsed = started.elapsed();
                        s
                    }
                };
                (s.queued, s.queued_across) = queued(problem, &manifest);
                progress(&s);
            }
            if stop.is_some() || last_manifest.elapsed() >= MANIFEST_EVERY || held > budget {
                self.save_disk_manifest(&dir, &mut manifest, &stats, &mut unsaved)?;
                last_manifest = Instant::now();
            }
            if let Some(end) = stop {
                if let Some(c) = &manifest.current {
                    stats = snapshot(&stats, &c.here);
                }
                break 'search end;
            }
        };
        if end == End::Exhausted {
            self.save_disk_manifest(&dir, &mut manifest, &stats, &mut unsaved)?;
        }
        (stats.queued, stats.queued_across) = queued(problem, &manifest);
        stats.elapsed = started.elapsed();
        Ok(LayeredOutcome { end, stats, goal })
    }

    /// Drops the current layer's seen sets `seen` from memory (they are
    /// left empty): what is held is written, with a manifest, each
    /// part's runs of the rounds from `old_before` to the one before
    /// `current`'s are merged into one file, and the returned round is the
    /// new `old_before`, before which the layer's rounds are looked up on
    /// disk ([`page_in`]).
    #[allow(clippy::too_many_arguments)]
    fn drop_seen(
        &mut self,
        dir: &Path,
        manifest: &mut DiskManifest,
        stats: &mut LayeredStats,
        unsaved: &mut Unsaved,
        seen: &mut Vec<FpTable>,
        current: Current,
        old_before: u32,
    ) -> Result<(Current, u32), CheckpointError> {
        *seen = (0..PARTS).map(|_| FpTable::default()).collect();
        manifest.current = Some(current);
        self.save_disk_manifest(dir, manifest, stats, unsaved)?;
        let current = manifest.current.take().expect("just put");
        for part in 0..PARTS {
            let (removed, written, merging) =
                compact_runs(dir, current.layer, part, old_before, current.step)?;
            unsaved.seen_disk = (unsaved.seen_disk + written).saturating_sub(removed);
            stats.peak_memory_bytes = stats.peak_memory_bytes.max(merging);
        }
        stats.seen_dropped += 1;
        let step = current.step;
        Ok((current, step))
    }

    /// Writes what is held in memory (the files still read, as one pack;
    /// the current layer's new seen runs, one a part), syncs the files
    /// written since the last manifest, writes the manifest, then deletes
    /// the files no layer reads any more.
    fn save_disk_manifest(
        &mut self,
        dir: &Path,
        manifest: &mut DiskManifest,
        stats: &LayeredStats,
        unsaved: &mut Unsaved,
    ) -> Result<(), CheckpointError> {
        if let Some(memory) = &unsaved.memory {
            let files: Vec<(String, Arc<Vec<u8>>)> = memory
                .take_all()
                .into_iter()
                .filter(|(name, _)| manifest.files.contains_key(name))
                .collect();
            if !files.is_empty() {
                let pack = format!("pack{:08}.blk", manifest.packs);
                manifest.packs += 1;
                let path = blocks_path(dir, &pack);
                let mut out = BufWriter::new(fs::File::create(&path).map_err(io_error(&path))?);
                let mut base = 0;
                for (name, data) in files {
                    out.write_all(&data).map_err(io_error(&path))?;
                    let info = manifest.files.get_mut(&name).expect("kept above");
                    info.pack = Some((pack.clone(), base));
                    base += data.len() as u64;
                }
                out.flush().map_err(io_error(&path))?;
                unsaved.written.push(path);
            }
        }
        if let Some(current) = &manifest.current
            && current.step > unsaved.runs_from
        {
            for (part, runs) in unsaved.runs.iter_mut().enumerate() {
                if runs.is_empty() {
                    continue;
                }
                let run = merged(std::mem::take(runs));
                let path = seen_path(
                    dir,
                    current.layer,
                    part,
                    unsaved.runs_from,
                    current.step - 1,
                );
                unsaved.seen_disk += write_run(&path, &run)?;
                unsaved.written.push(path);
            }
            unsaved.runs_from = current.step;
        }
        let (written, doomed) = (&mut unsaved.written, &mut unsaved.doomed);
        for path in written.drain(..) {
            if let Ok(file) = fs::File::open(&path) {
                file.sync_all().map_err(io_error(&path))?;
            }
        }
        manifest.layers = stats.layers.clone();
        if let Some(current) = &manifest.current
            && manifest.layers.last().map(|l| l.layer) == Some(current.layer)
        {
            manifest.layers.pop();
        }
        manifest.max_depth = stats.max_depth;
        manifest.note = match &mut self.note {
            Some((save, _)) => save(),
            None => String::new(),
        };
        write_file_atomically(&dir.join("disk-manifest.json"), |out| {
            serde_json::to_writer(&mut *out, &*manifest)?;
            Ok(())
        })?;
        for path in doomed.drain(..) {
            let _ = if path.is_dir() {
                fs::remove_dir_all(&path)
            } else {
                fs::remove_file(&path)
            };
        }
        for (path, from, len) in unsaved.holes.drain(..) {
            free_range(&path, from, len);
        }
        Ok(())
    }
}

/// Gives the `len` bytes of the file at `path` from `from` back to the file
/// system (a hole: they read as zeros, the file keeps its length), where
/// it can (Linux: `fallocate` with `FALLOC_FL_PUNCH_HOLE`; ext4, XFS, Btrfs
/// and tmpfs do). A pack lives as long as the last file in it, so without
/// this the files in it already read kept their bytes: on the unwon game's
/// stage 1, a third of the packs' bytes at times (`docs/engine.md`).
/// Best effort: where it cannot, the bytes stay until the pack goes.
fn free_range(path: &Path, from: u64, len: u64) {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        if let Ok(file) = fs::OpenOptions::new().write(true).open(path)
            && let (Ok(from), Ok(len)) = (i64::try_from(from), i64::try_from(len))
        {
            // SAFETY: `fallocate` only reads its arguments; the descriptor
            // is open for writing for the call's length.
            let _ = unsafe {
                libc::fallocate(
                    file.as_raw_fd(),
                    libc::FALLOC_FL_PUNCH_HOLE | libc::FALLOC_FL_KEEP_SIZE,
                    from,
                    len,
                )
            };
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (path, from, len);
}

/// Records in the manifest the parts of round `current` finished so far,
/// inside the round: their output files held in memory are written (each
/// in a file of its own) and synced, and the manifest, which describes
/// everything else as it was before the round, is written with them.
fn save_parts(
    dir: &Path,
    manifest: &mut DiskManifest,
    current: &Current,
    finished: &[&TaskOut],
    memory: Option<&MemFiles>,
) -> Result<(), CheckpointError> {
    for out in finished {
        let Some((name, info)) = &out.file else {
            continue;
        };
        if manifest.files.contains_key(name) {
            continue;
        }
        let path = blocks_path(dir, name);
        let file = match memory.and_then(|m| m.get(name)) {
            Some(data) => {
                let mut file = fs::File::create(&path).map_err(io_error(&path))?;
                file.write_all(&data).map_err(io_error(&path))?;
                file
            }
            None => fs::File::open(&path).map_err(io_error(&path))?,
        };
        file.sync_all().map_err(io_error(&path))?;
        if let Some(memory) = memory {
            memory.remove(name);
        }
        manifest.files.insert(name.clone(), info.clone());
    }
    manifest.current = Some(Current {
        done: finished.iter().map(|&o| o.clone()).collect(),
        ..current.clone()
    });
    let written = write_file_atomically(&dir.join("disk-manifest.json"), |out| {
        serde_json::to_writer(&mut *out, &*manifest)?;
        Ok(())
    });
    manifest.current = None;
    written
}

/// Part `part`'s seen runs in `layer` of the rounds before `step`, by the
/// first round each covers: their rounds and files. With `drop_later`,
/// the runs of rounds from `step` on are deleted: at the start of a
/// resumed search or of a task, they were written after the last manifest
/// (by a search stopped before it wrote the next one) or by a failed run
/// of the task. (Anywhere else they are the rounds since, still needed.)
fn seen_runs(
    dir: &Path,
    layer: u64,
    part: usize,
    step: u32,
    drop_later: bool,
) -> Result<Vec<(u32, u32, PathBuf)>, CheckpointError> {
    let folder = seen_dir(dir, layer);
    let mut runs = Vec::new();
    match fs::read_dir(&folder) {
        Ok(entries) => {
            for entry in entries {
                let entry = entry.map_err(io_error(&folder))?;
                let name = entry.file_name();
                let Some((p, first, last)) = name.to_str().and_then(seen_name) else {
                    continue;
                };
                if p != part {
                    continue;
                }
                if last < step {
                    runs.push((first, last, entry.path()));
                } else if drop_later {
                    let _ = fs::remove_file(entry.path());
                }
            }
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(io_error(&folder)(e)),
    }
    runs.sort();
    Ok(runs)
}

fn read_run(path: &Path) -> Result<Run, CheckpointError> {
    let file = fs::File::open(path).map_err(io_error(path))?;
    Run::read_from(&mut BufReader::new(file)).map_err(io_error(path))
}

/// Part `part`'s seen set in `layer` before round `step`, of the rounds
/// from `from` on (those before are looked up on disk, [`page_in`]).
fn load_seen(
    dir: &Path,
    layer: u64,
    part: usize,
    from: u32,
    step: u32,
) -> Result<FpTable, CheckpointError> {
    let mut seen = FpTable::default();
    for (first, _, path) in seen_runs(dir, layer, part, step, true)? {
        if first >= from {
            for fp in read_run(&path)?.to_vec() {
                seen.insert(fp);
            }
        }
    }
    Ok(seen)
}

/// Merges part `part`'s seen runs in `layer` of rounds `from..before` into
/// one file (the rounds `from..=before - 1`), so that [`page_in`] reads one
/// run for them, not one a manifest; the runs merged are deleted once it
/// is written. A crash in between leaves both, which only repeats
/// fingerprints (lookups and a later merge take them as one). Returns the
/// bytes removed from the disk, the bytes written, and the most bytes
/// held while merging.
fn compact_runs(
    dir: &Path,
    layer: u64,
    part: usize,
    from: u32,
    before: u32,
) -> Result<(u64, u64, u64), CheckpointError> {
    let pieces: Vec<(u32, u32, PathBuf)> = seen_runs(dir, layer, part, before, false)?
        .into_iter()
        .filter(|&(first, _, _)| first >= from)
        .collect();
    if pieces.len() < 2 || before == 0 {
        return Ok((0, 0, 0));
    }
    let mut all = Vec::new();
    let mut removed = 0;
    let mut held = 0;
    for (_, _, path) in &pieces {
        removed += fs::metadata(path).map_err(io_error(path))?.len();
        let run = read_run(path)?;
        held = held.max(run.bytes());
        all.extend(run.to_vec());
    }
    all.sort_unstable();
    all.dedup();
    let run = Run::from_sorted(&all);
    held += (all.capacity() * size_of::<u128>()) as u64 + run.bytes();
    drop(all);
    let path = seen_path(dir, layer, part, from, before - 1);
    let written = write_run(&path, &run)?;
    for (_, _, piece) in pieces {
        if piece != path {
            let _ = fs::remove_file(piece);
        }
    }
    Ok((removed, written, held))
}

/// Pass 0 of a task when its layer's rounds before `round.old_before` are
/// on disk only (the seen sets outgrew their memory budget,
/// [`DiskOptions::seen_memory`]): every input state not in `seen` is looked up
/// in those rounds' runs, in bulk (the candidates sorted, each run read
/// once and decoded only where a candidate falls). Returns the ones found,
/// and the most bytes held besides them while looking them up. Then `seen`
/// and the set returned together hold every input state that the whole
/// seen set holds, and the pass that follows, which takes a state of
/// either for a duplicate, keeps the same records as a search with the
/// whole set in memory: the counts do not change. The states found are not
/// added to `seen`: they are in the layer's runs already, and a later
/// round that meets them again finds them there, so `seen` grows by each
/// round's new states alone. (Before any drop the set returned is empty,
/// and a look-up in it returns at once.)
fn page_in(
    dir: &Path,
    memory: Option<&MemFiles>,
    round: &Round,
    part: usize,
    seen: &FpTable,
    records: &dyn Records,
) -> Result<(FpTable, u64), CheckpointError> {
    let mut found = FpTable::default();
    if round.old_before == 0 {
        return Ok((found, 0));
    }
    let old: Vec<PathBuf> = seen_runs(dir, round.layer, part, round.old_before, false)?
        .into_iter()
        .map(|(_, _, path)| path)
        .collect();
    if old.is_empty() {
        return Ok((found, 0));
    }
    let mut candidates = Vec::new();
    for (name, info) in &round.files {
        read_blocks(
            dir,
            memory,
            name,
            info,
            round.layer,
            part,
            records,
            |fp, _, ahead| {
                if let Some(ahead) = ahead {
                    seen.prefetch(ahead);
                }
                if !seen.contains(fp) {
                    candidates.push(fp);
                }
                Ok(())
            },
        )?;
    }
    candidates.sort_unstable();
    candidates.dedup();
    let mut held = vec![false; candidates.len()];
    let mut run_bytes = 0;
    for path in old {
        let run = read_run(&path)?;
        run_bytes = run_bytes.max(run.bytes());
        run.mark_held(&candidates, &mut held);
    }
    for (&fp, &held) in candidates.iter().zip(&held) {
        if held {
            found.insert(fp);
        }
    }
    let looking = (candidates.capacity() * size_of::<u128>() + held.capacity()) as u64 + run_bytes;
    Ok((found, looking))
}

/// Runs the tasks of `round` through the launcher, and reads their
/// results (the tasks extended the seen sets on disk: [`read_back`]).
fn launch(dir: &Path, round: &Round, launcher: &str) -> Result<Vec<TaskOut>, CheckpointError> {
    let round_path = dir.join("round.json");
    for part in 0..PARTS {
        let _ = fs::remove_file(result_path(dir, part));
    }
    write_file_atomically(&round_path, |out| {
        serde_json::to_writer(&mut *out, round)?;
        Ok(())
    })?;
    // `{command}` runs a script holding this process's command line, so
    // that it has no quotes of its own to clash with the launcher's (as in
    // `sbatch --wrap "{command}"`, where the command line, launcher
    // included, would sit inside double quotes).
    let task_script = dir.join("task.sh");
    write_file_atomically(&task_script, |out| {
        writeln!(out, "exec {}", own_command())?;
        Ok(())
    })?;
    let command = format!("sh {}", shell_quote(&task_script.to_string_lossy()));
    let mut results: Vec<Option<TaskOut>> = vec![None; PARTS];
    for _attempt in 0..4 {
        let missing: Vec<String> = (0..PARTS)
            .filter(|&p| results[p].is_none())
            .map(|p| p.to_string())
            .collect();
        if missing.is_empty() {
            break;
        }
        let script = launcher
            .replace("{tasks}", &missing.join(","))
            .replace("{command}", &command);
        // A launcher that fails leaves results missing: they are launched
        // again below. What it prints (`sbatch`: "Submitted batch job N")
        // goes to standard error: standard output is the search's report.
        let _ = Command::new("sh")
            .arg("-c")
            .arg(&script)
            .env(ROUND_ENV, &round_path)
            .env_remove(PART_ENV)
            .stdout(std::io::stderr())
            .status();
        for (part, result) in results.iter_mut().enumerate() {
            if result.is_some() {
                continue;
            }
            let path = result_path(dir, part);
            if let Ok(text) = fs::read_to_string(&path)
                && let Ok(out) = serde_json::from_str::<TaskOut>(&text)
                && out.part == part
            {
                *result = Some(out);
            }
        }
    }
    let outs: Vec<TaskOut> = results
        .into_iter()
        .enumerate()
        .map(|(part, r)| {
            r.ok_or_else(|| damaged(&result_path(dir, part), "a task failed four times"))
        })
        .collect::<Result<_, _>>()?;
    Ok(outs)
}

/// Adds the new states of a launched `round`, from the seen runs its tasks
/// wrote, to the seen sets.
fn read_back(
    dir: &Path,
    round: &Round,
    outs: &[TaskOut],
    seen: &mut [FpTable],
) -> Result<(), CheckpointError> {
    for (part, seen) in seen.iter_mut().enumerate() {
        if outs[part].new > 0 {
            let path = seen_path(dir, round.layer, part, round.step, round.step);
            let file = fs::File::open(&path).map_err(io_error(&path))?;
            let run = Run::read_from(&mut BufReader::new(file)).map_err(io_error(&path))?;
            for fp in run.to_vec() {
                seen.insert(fp);
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deal::{Rules, pysol};
    use crate::game::Game;
    use crate::solve::stage::{Scope, StageProblem};

    /// What must not change: every layer's statistics, the totals, the
    /// deepest line.
    fn figures(stats: &LayeredStats) -> (Vec<LayerStats>, [u64; 7], u32) {
        (
            stats.layers.clone(),
            [
                stats.positions,
                stats.expanded,
                stats.moves,
                stats.duplicates,
                stats.goals,
                stats.leaves,
                stats.dead,
            ],
            stats.max_depth,
        )
    }

    fn on_disk(dir: &Path) -> DiskOptions {
        DiskOptions {
            dir: dir.to_path_buf(),
            max_bytes: None,
            launcher: None,
            launch_from: LAUNCH_FROM,
            seen_memory: None,
            split_from: None,
        }
    }

    /// A grid walk with two moves a step and states reached many ways,
    /// a layer per `a + b / 7` so that layers hold several steps.
    struct Walk;
    impl crate::explore::Problem for Walk {
        type State = (u16, u16);
        type Key = (u16, u16);
        type Move = u8;
        fn start(&self) -> (u16, u16) {
            (0, 0)
        }
        fn key(&self, s: &(u16, u16)) -> (u16, u16) {
            *s
        }
        fn successors(&self, &(a, b): &(u16, u16), out: &mut Vec<(u8, (u16, u16))>) {
            if a < 60 {
                out.push((0, (a + 1, b)));
            }
            if b < 300 {
                out.push((1, (a, b + 1)));
            }
            if b >= 2 {
                out.push((2, (a, b - 2)));
            }
        }
        fn kind(&self, s: &(u16, u16)) -> NodeKind {
            match s {
                (60, 300) => NodeKind::Goal,
                (a, b) if (a * 7 + b) % 97 == 5 => NodeKind::Dead,
                (a, b) if (a + b * 3) % 89 == 1 => NodeKind::Leaf,
                _ => NodeKind::Inner,
            }
        }
        fn layer(&self, &(a, _): &(u16, u16)) -> u64 {
            u64::from(a / 3)
        }
    }
    impl PackedProblem for Walk {
        fn pack(&self, s: &(u16, u16), out: &mut Vec<u8>) {
            out.extend(s.0.to_le_bytes());
            out.extend(s.1.to_le_bytes());
        }
        fn unpack(&self, b: &[u8]) -> (u16, u16) {
            (
                u16::from_le_bytes([b[0], b[1]]),
                u16::from_le_bytes([b[2], b[3]]),
            )
        }
    }

    /// A puzzle's search counts the same on disk as in memory, layer by
    /// layer, on one thread or two, with the same goal at the same depth,
    /// and leaves no file. At the default memory budget the frontiers stay
    /// in memory and a task reads its inputs in one chunk; with a budget of
    /// 4 KiB (64 bytes a part) small frontiers stay in memory and the rest
    /// go to files, read back a chunk at a time, and a task reads its
    /// inputs in chunks of 10 to 20 records (512 bytes or 1 KiB); with none,
    /// every frontier goes to a file, and so does every output file, and
    /// the inputs are read one record a chunk.
    #[test]
    fn the_search_on_disk_counts_what_the_search_in_memory_counts() {
        let memory = Layered::new(&Walk).stop(Stop::Exhaust).run().unwrap();
        assert!(memory.stats.layers.len() > 10 && memory.stats.goals == 1);
        assert!(memory.stats.layers.iter().any(|l| l.steps > 3));
        // The seen sets in memory, dropped after every round (a budget of
        // 1 byte: then every task looks its inputs up on disk first), or
        // now and then (a budget of a fraction of the largest table: the
        // rounds since the last drop in memory, the earlier ones on disk).
        let some = (memory.stats.peak_table_bytes / 16).max(1);
        for (budget, jobs, seen) in [
            (None, 1, None),
            (None, 2, None),
            (Some(4 << 10), 1, None),
            (Some(4 << 10), 2, None),
            (Some(0), 2, None),
            (None, 1, Some(1)),
            (None, 2, Some(1)),
            (Some(4 << 10), 2, Some(1)),
            (None, 2, Some(some)),
            (Some(4 << 10), 1, Some(some)),
        ] {
            let dir = tempfile::tempdir().unwrap();
            let mut search = Layered::new(&Walk).stop(Stop::Exhaust).jobs(Some(jobs));
            if let Some(budget) = budget {
                search = search.disk_memory(budget);
            }
            let options = DiskOptions {
                seen_memory: seen,
                ..on_disk(dir.path())
            };
            let disk = search.disk(options, "walk").run().unwrap();
            assert_eq!(disk.end, End::Exhausted);
            assert_eq!(
                figures(&disk.stats),
                figures(&memory.stats),
                "{budget:?}, {jobs} threads, seen sets of {seen:?} bytes"
            );
            // With a budget of 1 byte, dropped after every round of a layer
            // but its last (which finds nothing new); with a larger one,
            // some of the time.
            let steps: u64 = memory.stats.layers.iter().map(|l| u64::from(l.steps)).sum();
            match seen {
                None => assert_eq!(disk.stats.seen_dropped, 0),
                Some(1) => assert_eq!(disk.stats.seen_dropped, steps),
                Some(_) => assert!(
                    (1..steps / 2).contains(&disk.stats.seen_dropped),
                    "dropped {} times in {steps} rounds",
                    disk.stats.seen_dropped
                ),
            }
            assert_eq!(
                disk.goal.unwrap().depth,
                memory.goal.as_ref().unwrap().depth
            );
            for sub in ["blocks", "frontier"] {
                let left = fs::read_dir(dir.path().join(sub)).map_or(0, |d| d.count());
                assert_eq!(left, 0, "{sub} ({budget:?}, {jobs} threads)");
            }
        }
    }

    /// A layer of many rounds whose states jump back to states met many
    /// rounds before (depth `d` to `d / 2`): the search on disk with its
    /// seen sets dropped now and then, a manifest after every round (a
    /// memory budget of 0), must find them on disk, in the runs merged and
    /// in the rounds since the last drop, to count what the search in
    /// memory counts.
    struct Jumps;
    impl crate::explore::Problem for Jumps {
        type State = (u16, u16);
        type Key = (u16, u16);
        type Move = u8;
        fn start(&self) -> (u16, u16) {
            (0, 0)
        }
        fn key(&self, s: &(u16, u16)) -> (u16, u16) {
            *s
        }
        fn successors(&self, &(d, i): &(u16, u16), out: &mut Vec<(u8, (u16, u16))>) {
            if d < 150 {
                out.push((0, (d + 1, i)));
                out.push((1, (d + 1, (i + 1) % 50)));
            }
            out.push((2, (d / 2, (i * 7) % 50)));
        }
        fn kind(&self, _: &(u16, u16)) -> NodeKind {
            NodeKind::Inner
        }
        fn layer(&self, _: &(u16, u16)) -> u64 {
            0
        }
    }
    impl PackedProblem for Jumps {
        fn pack(&self, s: &(u16, u16), out: &mut Vec<u8>) {
            Walk.pack(s, out);
        }
        fn unpack(&self, b: &[u8]) -> (u16, u16) {
            Walk.unpack(b)
        }
    }

    #[test]
    fn dropped_seen_sets_find_states_met_again_many_rounds_later() {
        let memory = Layered::new(&Jumps).stop(Stop::Exhaust).run().unwrap();
        let steps = u64::from(memory.stats.layers[0].steps);
        assert!(steps > 100, "{steps} rounds");
        let table = memory.stats.peak_table_bytes;
        for (share, jobs) in [(8, 1), (8, 2), (3, 2)] {
            let dir = tempfile::tempdir().unwrap();
            let options = DiskOptions {
                seen_memory: Some(table / share),
                ..on_disk(dir.path())
            };
            let disk = Layered::new(&Jumps)
                .stop(Stop::Exhaust)
                .jobs(Some(jobs))
                .disk_memory(0)
                .disk(options, "jumps")
                .run()
                .unwrap();
            assert_eq!(
                figures(&disk.stats),
                figures(&memory.stats),
                "a budget of 1/{share} of the table, {jobs} threads"
            );
            let dropped = disk.stats.seen_dropped;
            assert!((2..steps / 2).contains(&dropped), "dropped {dropped} times");
            // The states found on disk are not added to the tables, which
            // grow by each round's new states alone: 8 drops at an eighth
            // of the table, 2 at a third. A build that added them dropped
            // the tables 11 and 3 times.
            let most = if share == 8 { 8 } else { 2 };
            assert!(
                dropped <= most,
                "dropped {dropped} times at 1/{share}, {jobs} threads"
            );
        }
    }

    /// The states of a frontier, in the order they are expanded.
    fn frontier_states(frontier: &Frontier) -> Vec<Vec<u8>> {
        let states = |arena: &Arena| (0..arena.len()).map(|i| arena.get(i).to_vec()).collect();
        match frontier {
            Frontier::Memory(arena) => states(arena),
            Frontier::File(file) => {
                let (mut reader, mut arena, mut all) = (None, Arena::default(), Vec::new());
                for k in 0..file.blocks.len() {
                    file.read_block(&Walk, &mut reader, k, &mut arena).unwrap();
                    let block: Vec<Vec<u8>> = states(&arena);
                    all.extend(block);
                }
                all
            }
        }
    }

    /// A task's first half keeps, chunk by chunk, what one pass over its
    /// inputs in the order sent keeps: the first record of each state not
    /// seen before (and so its depth), the others counted as duplicates of
    /// the layer that sent them, the frontier in the in-memory search's
    /// order (by shard, then as sent), the new fingerprints in runs.
    /// Whether the inputs fit in one chunk, take many (about 76 records
    /// each) or one a record, and the frontier stays in memory, goes to a
    /// file after the chunks that pass 1 KiB, or after each.
    #[test]
    fn a_task_reading_its_inputs_in_chunks_keeps_what_one_pass_keeps() {
        use crate::explore::Problem;
        use std::collections::HashSet;
        let dir = tempfile::tempdir().unwrap();
        for sub in ["blocks", "frontier"] {
            fs::create_dir_all(dir.path().join(sub)).unwrap();
        }
        let layer = 7;
        let state = |n: u32| ((n % 256) as u16, (n / 256) as u16);
        // 80,000 states (more than a frontier block in most shards), sent
        // 180,000 times at various depths by three layers.
        let mut sent: Vec<(u64, u128, Vec<u8>)> = Vec::new();
        let mut files = Vec::new();
        for (k, producer) in [5u64, 6, 7].into_iter().enumerate() {
            let name = format!("f{k}.blk");
            let mut writer = BlockWriter::new(&Walk, dir.path(), name, producer, None);
            for i in 0..60_000u32 {
                let s = state((i * 7_919 + k as u32 * 31_337) % 80_000);
                let mut record = ((i % 50) as u16).to_le_bytes().to_vec();
                Walk.pack(&s, &mut record);
                let fp = Walk.fingerprint(&s);
                writer.push(layer, fp, &record).unwrap();
                sent.push((producer, fp, record));
            }
            files.push(writer.finish().unwrap().unwrap());
        }
        let round = Round {
            id: "walk".into(),
            layer,
            step: 1,
            files,
            old_before: 0,
        };
        // One state in ten was seen before.
        let before: Vec<u128> = (0..80_000)
            .step_by(10)
            .map(|n| Walk.fingerprint(&state(n)))
            .collect();
        let no_files = MemFiles::new(0);
        for part in 0..PARTS {
            let seen_before = || {
                let mut seen = FpTable::default();
                for &fp in before.iter().filter(|&&fp| part_of(fp) == part) {
                    seen.insert(fp);
                }
                seen
            };
            let mut known: HashSet<u128> = before.iter().copied().collect();
            let mut dups: BTreeMap<u64, u64> = BTreeMap::new();
            let mut kept = Vec::new();
            let mut new_fps = Vec::new();
            let sent_here = sent.iter().filter(|(_, fp, _)| part_of(*fp) == part);
            for (producer, fp, record) in sent_here.clone() {
                if known.insert(*fp) {
                    kept.push((shard_of(*fp), record.clone()));
                    new_fps.push(*fp);
                } else {
                    *dups.entry(*producer).or_default() += 1;
                }
            }
            kept.sort_by_key(|&(shard, _)| shard);
            let expected: Vec<Vec<u8>> = kept.into_iter().map(|(_, record)| record).collect();
            new_fps.sort_unstable();
            for (budget, hold) in [
                (u64::MAX, None),
                (u64::MAX, Some(0)),
                (4 << 10, Some(1 << 10)),
                (4 << 10, None),
                (0, Some(0)),
            ] {
                let what = format!("part {part}, budget {budget}, hold {hold:?}");
                let mut seen = seen_before();
                let (out, frontier, runs) = dedup_task(
                    dir.path(),
                    Some(&no_files),
                    &round,
                    part,
                    &mut seen,
                    hold,
                    budget,
                    &Walk,
                    &RoundGuard::never(),
                )
                .unwrap();
                assert_eq!(out.inputs, sent_here.clone().count() as u64, "{what}");
                let chunks = match budget {
                    u64::MAX => 1,
                    0 => out.inputs,
                    _ => out.inputs / 80,
                };
                assert!(out.chunks >= chunks, "{what}: {} chunks", out.chunks);
                assert_eq!(out.dups, dups, "{what}");
                assert_eq!(out.new, new_fps.len() as u64, "{what}");
                let mut fps: Vec<u128> = runs.iter().flat_map(Run::to_vec).collect();
                fps.sort_unstable();
                assert_eq!(fps, new_fps, "{what}");
                assert_eq!(seen.len(), seen_before().len() + new_fps.len(), "{what}");
                assert_eq!(
                    matches!(frontier, Frontier::File(_)),
                    hold.is_some(),
                    "{what}"
                );
                assert_eq!(frontier_states(&frontier), expected, "{what}");
                drop(frontier);
                let left = fs::read_dir(dir.path().join("frontier")).unwrap().count();
                assert_eq!(left, 0, "{what}");
            }
        }
    }

    /// The frontier files of a round count against the disk limit with the
    /// files it leaves: given as its limit what the first round leaves, a
    /// search whose frontiers go to files stops after that round, one whose
    /// frontiers stay in memory goes on.
    #[test]
    fn frontier_files_count_against_the_disk_limit() {
        let run = |dir: &Path, budget: Option<u64>, max_bytes: u64| {
            let mut search = Layered::new(&Walk).stop(Stop::Exhaust).jobs(Some(1));
            if let Some(budget) = budget {
                search = search.disk_memory(budget);
            }
            let options = DiskOptions {
                max_bytes: Some(max_bytes),
                ..on_disk(dir)
            };
            search.disk(options, "walk").run().unwrap()
        };
        let dir = tempfile::tempdir().unwrap();
        let first = run(dir.path(), None, 0);
        assert_eq!(first.end, End::Stopped(StopReason::Disk));
        assert_eq!(first.stats.positions, 1);
        let manifest: DiskManifest =
            serde_json::from_slice(&fs::read(dir.path().join("disk-manifest.json")).unwrap())
                .unwrap();
        let left: u64 = manifest.files.values().map(|f| f.bytes).sum();
        assert!(left > 0);
        for (budget, stops_at_once) in [(None, false), (Some(0), true)] {
            let dir = tempfile::tempdir().unwrap();
            let outcome = run(dir.path(), budget, left);
            assert_eq!(outcome.end, End::Stopped(StopReason::Disk), "{budget:?}");
            assert_eq!(outcome.stats.positions == 1, stops_at_once, "{budget:?}");
        }
    }

    /// Both codecs give back the bytes packed, through the threads'
    /// buffers reused from block to block (a block smaller than the one
    /// before, and a codec after the other), and a block damaged or of
    /// another length is an error, not wrong records.
    #[test]
    fn blocks_packed_by_either_codec_unpack_to_the_same_bytes() {
        let big: Vec<u8> = (0..300_000u32)
            .map(|i| ((i % 251) ^ (i / 977)) as u8)
            .collect();
        let small: Vec<u8> = (0..1_000u32).map(|i| (i % 7) as u8).collect();
        let mut out = Vec::new();
        for codec in [Codec::Zstd, Codec::Lz4, Codec::Zstd] {
            for raw in [&big, &small, &big] {
                let packed = with_compressed(codec, raw, |p| Ok(p.to_vec())).unwrap();
                assert!(packed.len() < raw.len(), "{codec:?}");
                decompress_block(codec, &packed, raw.len(), &mut out).unwrap();
                assert_eq!(&out, raw, "{codec:?}");
                // Told the wrong length, or given a block cut short.
                assert!(decompress_block(codec, &packed, raw.len() + 1, &mut out).is_err());
                let cut = &packed[..packed.len() / 2];
                assert!(decompress_block(codec, cut, raw.len(), &mut out).is_err());
            }
        }
    }

    /// A frontier passes the budget in several blocks of a file (the
    /// solver's proof of PySol 3, 30,000 positions, with no budget at
    /// all), and a search stopped and resumed so counts the same.
    #[test]
    fn frontiers_in_files_of_many_blocks_count_the_same() {
        use crate::solve::exhaustive::ExhaustiveProblem;
        let deal = pysol::deal(3, Rules::Standard).unwrap();
        let game = Game::new(&deal).unwrap();
        let problem = ExhaustiveProblem::new(&game);
        let limits = |max| Limits {
            max_positions: Some(max),
            ..Limits::default()
        };
        let memory = Layered::new(&problem)
            .stop(Stop::Exhaust)
            .limits(limits(30_000))
            .run()
            .unwrap();
        let dir = tempfile::tempdir().unwrap();
        let mut last = None;
        for max in [15_000, 30_000] {
            last = Some(
                Layered::new(&problem)
                    .stop(Stop::Exhaust)
                    .jobs(Some(2))
                    .limits(limits(max))
                    .disk_memory(0)
                    .disk(on_disk(dir.path()), "pysol 3")
                    .run()
                    .unwrap(),
            );
        }
        let disk = last.unwrap();
        assert!(disk.stats.resumed_layers > 0);
        let finished = (memory.stats.layers.len() - 1).min(disk.stats.layers.len() - 1);
        assert!(finished > 3);
        let strip = |l: &LayerStats| LayerStats {
            duplicates: 0,
            ..l.clone()
        };
        for k in 0..finished {
            assert_eq!(
                strip(&disk.stats.layers[k]),
                strip(&memory.stats.layers[k]),
                "layer {k}"
            );
        }
        let left = fs::read_dir(dir.path().join("frontier")).unwrap().count();
        assert_eq!(left, 0);
    }

    /// Split layers count, per whole layer, the positions and the entries
    /// from other whole layers that the search in whole layers counts as
    /// its layers' positions and entries (PySol 3's proof, up to 30,000
    /// positions), on disk as in memory: what the estimate of the positions
    /// left reads (`solve::search::proof_progress`).
    #[test]
    fn split_layers_count_the_entries_of_whole_layers() {
        use crate::solve::exhaustive::ExhaustiveProblem;
        let deal = pysol::deal(3, Rules::Standard).unwrap();
        let game = Game::new(&deal).unwrap();
        let limits = Limits {
            max_positions: Some(30_000),
            ..Limits::default()
        };
        let whole = ExhaustiveProblem::new(&game);
        let memory = Layered::new(&whole)
            .stop(Stop::Exhaust)
            .limits(limits.clone())
            .run()
            .unwrap();
        // (whole layer, positions, entries from other whole layers), for
        // the whole layers finished (a later one begun).
        let per_whole = |stats: &LayeredStats| {
            let mut out: Vec<(u64, u64, u64)> = Vec::new();
            for l in &stats.layers {
                let key = whole.whole_layer(l.layer);
                let across = l.entries_across.expect("counted");
                match out.last_mut() {
                    Some(last) if last.0 == key => {
                        last.1 += l.positions;
                        last.2 += across;
                    }
                    _ => out.push((key, l.positions, across)),
                }
            }
            out.pop();
            out
        };
        let reference: Vec<_> = memory
            .stats
            .layers
            .iter()
            .map(|l| (l.layer, l.positions, l.entries))
            .collect();
        let reference = &reference[..reference.len() - 1];
        assert_eq!(per_whole(&memory.stats), reference);
        assert!(reference.len() > 3, "{reference:?}");
        let split = ExhaustiveProblem::new(&game).split_layers(true);
        let in_memory = Layered::new(&split)
            .stop(Stop::Exhaust)
            .limits(limits.clone())
            .run()
            .unwrap();
        let dir = tempfile::tempdir().unwrap();
        let from_disk = Layered::new(&split)
            .stop(Stop::Exhaust)
            .jobs(Some(2))
            .limits(limits)
            .disk(on_disk(dir.path()), "pysol 3 split")
            .run()
            .unwrap();
        for stats in [&in_memory.stats, &from_disk.stats] {
            assert!(stats.layers.len() > reference.len() + 3);
            // Some split layers had entries from their own whole layer.
            assert!(
                stats
                    .layers
                    .iter()
                    .any(|l| l.entries_across.unwrap() < l.entries)
            );
            let counted = per_whole(stats);
            let common = counted.len().min(reference.len());
            assert!(common > 3);
            assert_eq!(counted[..common], reference[..common]);
            assert!(stats.queued_across <= stats.queued);
        }
    }

    /// A Spider stage search (50,810 positions in its first layer) counts
    /// the same on disk as in memory, with the same leaves at the same
    /// depths.
    #[test]
    #[ignore = "slow: runs with `cargo test -- --ignored` (CI runs it)"]
    fn a_spider_stage_on_disk_counts_what_the_search_in_memory_counts() {
        let deal = pysol::deal(14934, Rules::Standard).unwrap();
        let game = Game::new(&deal).unwrap();
        let problem = StageProblem::new(&game, Scope::Stage(2));
        let leaves = |disk: Option<&Path>, seen: Option<u64>| {
            let mut leaves = Vec::new();
            let mut search = Layered::new(&problem)
                .stop(Stop::Exhaust)
                .jobs(Some(2))
                .on_leaf(|state, depth| {
                    leaves.push((problem.fingerprint(state), depth));
                    ControlFlow::Continue(())
                });
            if let Some(dir) = disk {
                let options = DiskOptions {
                    seen_memory: seen,
                    ..on_disk(dir)
                };
                search = search.disk(options, "stage");
            }
            let outcome = search.run().unwrap();
            leaves.sort_unstable();
            (figures(&outcome.stats), leaves)
        };
        let memory = leaves(None, None);
        assert_eq!(memory.0.1[0], 50_810);
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(leaves(Some(dir.path()), None), memory);
        // With the seen sets dropped after every round.
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(leaves(Some(dir.path()), Some(1)), memory);
    }

    /// The grid walk on disk in `dir`, stopped by a limit of 5,000
    /// positions inside a layer.
    fn walk_stopped_after_5000(dir: &Path) {
        let stopped = Layered::new(&Walk)
            .stop(Stop::Exhaust)
            .limits(Limits {
                max_positions: Some(5_000),
                ..Limits::default()
            })
            .disk(on_disk(dir), "walk")
            .run()
            .unwrap();
        assert_eq!(stopped.end, End::Stopped(StopReason::Positions));
    }

    /// A fan: a chain of `FAN_LAYERS` layers of one state each, every one
    /// of which also leads to `fan` states of the last layer, so that the
    /// last layer's first round reads `FAN_LAYERS * fan` entries written
    /// by small rounds.
    struct Fan(u16);
    const FAN_LAYERS: u16 = 200;
    impl crate::explore::Problem for Fan {
        type State = (u16, u32);
        type Key = (u16, u32);
        type Move = u16;
        fn start(&self) -> (u16, u32) {
            (0, 0)
        }
        fn key(&self, s: &(u16, u32)) -> (u16, u32) {
            *s
        }
        fn successors(&self, &(a, _): &(u16, u32), out: &mut Vec<(u16, (u16, u32))>) {
            let fan = self.0;
            if a < FAN_LAYERS {
                if a + 1 < FAN_LAYERS {
                    out.push((fan, (a + 1, 0)));
                }
                let first = u32::from(a) * u32::from(fan);
                out.extend((0..fan).map(|j| (j, (FAN_LAYERS, first + u32::from(j)))));
            }
        }
        fn kind(&self, _: &(u16, u32)) -> NodeKind {
            NodeKind::Inner
        }
        fn layer(&self, &(a, _): &(u16, u32)) -> u64 {
            u64::from(a)
        }
    }
    impl PackedProblem for Fan {
        fn pack(&self, s: &(u16, u32), out: &mut Vec<u8>) {
            out.extend(s.0.to_le_bytes());
            out.extend(s.1.to_le_bytes());
        }
        fn unpack(&self, b: &[u8]) -> (u16, u32) {
            (
                u16::from_le_bytes([b[0], b[1]]),
                u32::from_le_bytes([b[2], b[3], b[4], b[5]]),
            )
        }
    }

    /// A fan's searches, in memory and on disk (one thread, every file on
    /// disk, so that the chain holds little), and the memory the search
    /// on disk takes before the last layer.
    struct FanRuns {
        fan: Fan,
        memory: LayeredOutcome<(u16, u32)>,
        whole: LayeredOutcome<(u16, u32)>,
        before: u64,
    }

    impl FanRuns {
        fn new(fan: u16) -> FanRuns {
            let fan = Fan(fan);
            let memory = Layered::new(&fan).stop(Stop::Exhaust).run().unwrap();
            let last = u64::from(FAN_LAYERS);
            assert_eq!(memory.stats.positions, last + last * u64::from(fan.0));
            let mut runs = FanRuns {
                fan,
                memory,
                whole: LayeredOutcome {
                    end: End::Exhausted,
                    stats: LayeredStats::default(),
                    goal: None,
                },
                before: 0,
            };
            runs.whole = runs.on_disk(tempfile::tempdir().unwrap().path(), Limits::default());
            assert_eq!(figures(&runs.whole.stats), figures(&runs.memory.stats));
            assert_eq!(runs.whole.stats.rounds_split, 0);
            let chain = Limits {
                max_positions: Some(last),
                ..Limits::default()
            };
            let stopped = runs.on_disk(tempfile::tempdir().unwrap().path(), chain);
            assert_eq!(stopped.end, End::Stopped(StopReason::Positions));
            runs.before = stopped.stats.peak_memory_bytes;
            let peak = runs.whole.stats.peak_memory_bytes;
            assert!(peak > 2 * runs.before, "{} then {peak}", runs.before);
            runs
        }

        fn on_disk(&self, dir: &Path, limits: Limits) -> LayeredOutcome<(u16, u32)> {
            Layered::new(&self.fan)
                .stop(Stop::Exhaust)
                .jobs(Some(1))
                .limits(limits)
                .disk(on_disk(dir), "fan")
                .disk_memory(0)
                .run()
                .unwrap()
        }
    }

    /// A layer's first round whose seen sets outgrow the memory left runs
    /// split, a part at a time (one thread), and the search ends within
    /// the limit with the counts of the search in memory, where before the
    /// limit stopped it inside the round (docs/engine.md).
    #[test]
    fn a_first_round_past_the_memory_limit_runs_split() {
        let fan = FanRuns::new(100);
        // Above all the chain holds, the last layer's seen sets pass it
        // (the whole search's peak); split, each part's fit.
        let limit = fan.before + 1;
        let limited = Limits {
            max_memory: Some(limit),
            ..Limits::default()
        };
        let split = fan.on_disk(tempfile::tempdir().unwrap().path(), limited);
        assert_eq!(split.end, End::Exhausted);
        assert_eq!(split.stats.rounds_split, 1);
        assert!(split.stats.peak_memory_bytes <= limit);
        assert_eq!(figures(&split.stats), figures(&fan.memory.stats));
    }

    /// With a limit that not even one part's seen set fits, the search stops
    /// inside the split round, on its memory limit: the memory reported is
    /// at least the limit, the round is not kept, and the search resumed
    /// without a limit counts what the search in memory counts.
    #[test]
    fn a_split_round_past_the_memory_limit_stops_inside_it_and_resumes() {
        let fan = FanRuns::new(1500);
        let part = fan.whole.stats.peak_table_bytes / PARTS as u64;
        assert!(part > fan.before, "{part} and {}", fan.before);
        let limit = fan.before + 1;
        let dir = tempfile::tempdir().unwrap();
        let limited = Limits {
            max_memory: Some(limit),
            ..Limits::default()
        };
        let stopped = fan.on_disk(dir.path(), limited);
        assert_eq!(stopped.end, End::Stopped(StopReason::Memory));
        assert_eq!(stopped.stats.rounds_split, 1);
        // The chain done; of the last layer, nothing kept.
        assert_eq!(stopped.stats.positions, u64::from(FAN_LAYERS));
        assert!(stopped.stats.peak_memory_bytes >= limit);
        // Stopped in the last layer's first round, not after it, which
        // runs split when resumed.
        let manifest: DiskManifest =
            serde_json::from_slice(&fs::read(dir.path().join("disk-manifest.json")).unwrap())
                .unwrap();
        let current = manifest.current.expect("stopped inside a layer");
        let at = (current.layer, current.step, current.split);
        assert_eq!(at, (u64::from(FAN_LAYERS), 0, true));
        let resumed = fan.on_disk(dir.path(), Limits::default());
        assert_eq!(resumed.end, End::Exhausted);
        assert_eq!(resumed.stats.rounds_split, 0);
        assert_eq!(figures(&resumed.stats), figures(&fan.memory.stats));
    }

    /// Rounds split count what the search in memory counts, layer by layer,
    /// on one thread or two, at any memory budget, with the same goal at
    /// the same depth, and leave no file: every round whose tasks read
    /// more than a few records runs split (from a growth of 1 byte), or
    /// the largest only (from a sixteenth of the largest table). And the
    /// states met again many rounds later are found on disk.
    #[test]
    fn split_rounds_count_what_the_search_in_memory_counts() {
        let memory = Layered::new(&Walk).stop(Stop::Exhaust).run().unwrap();
        let some = (memory.stats.peak_table_bytes / 16).max(1);
        for (budget, jobs, from) in [
            (None, 1, 1),
            (None, 2, 1),
            (Some(0), 2, 1),
            (Some(4 << 10), 1, some),
            (None, 2, some),
        ] {
            let dir = tempfile::tempdir().unwrap();
            let mut search = Layered::new(&Walk).stop(Stop::Exhaust).jobs(Some(jobs));
            if let Some(budget) = budget {
                search = search.disk_memory(budget);
            }
            let options = DiskOptions {
                split_from: Some(from),
                ..on_disk(dir.path())
            };
            let disk = search.disk(options, "walk").run().unwrap();
            let what = format!("{budget:?}, {jobs} threads, split from {from} bytes");
            assert_eq!(disk.end, End::Exhausted, "{what}");
            assert_eq!(figures(&disk.stats), figures(&memory.stats), "{what}");
            assert!(disk.stats.rounds_split > 0, "{what}");
            assert_eq!(
                disk.goal.unwrap().depth,
                memory.goal.as_ref().unwrap().depth
            );
            for sub in ["blocks", "frontier"] {
                let left = fs::read_dir(dir.path().join(sub)).map_or(0, |d| d.count());
                assert_eq!(left, 0, "{sub} ({what})");
            }
        }
        let memory = Layered::new(&Jumps).stop(Stop::Exhaust).run().unwrap();
        for jobs in [1, 2] {
            let dir = tempfile::tempdir().unwrap();
            let options = DiskOptions {
                split_from: Some(1),
                ..on_disk(dir.path())
            };
            let disk = (Layered::new(&Jumps).stop(Stop::Exhaust).jobs(Some(jobs)))
                .disk_memory(0)
                .disk(options, "jumps")
                .run()
                .unwrap();
            assert!(disk.stats.rounds_split > 10, "{}", disk.stats.rounds_split);
            assert_eq!(figures(&disk.stats), figures(&memory.stats));
        }
    }

    /// A directory written by an earlier disk format is refused, and the
    /// message names its format.
    #[test]
    fn a_directory_of_an_older_disk_format_is_refused_with_its_format() {
        let dir = tempfile::tempdir().unwrap();
        walk_stopped_after_5000(dir.path());
        let path = dir.path().join("disk-manifest.json");
        let mut manifest: serde_json::Value =
            serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
        assert_eq!(manifest["version"], DISK_VERSION);
        manifest["version"] = 4.into();
        fs::write(&path, serde_json::to_vec(&manifest).unwrap()).unwrap();
        let err = Layered::new(&Walk)
            .stop(Stop::Exhaust)
            .disk(on_disk(dir.path()), "walk")
            .run()
            .unwrap_err();
        let text = err.to_string();
        assert!(matches!(err, CheckpointError::OtherSearch { .. }), "{text}");
        assert!(text.contains("disk format 4 of another version"), "{text}");
    }

    #[test]
    fn a_freed_range_reads_as_zeros_or_as_it_was_and_the_rest_is_kept() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("pack");
        let bytes: Vec<u8> = (0..3 << 16).map(|i| (i % 251) as u8 + 1).collect();
        fs::write(&path, &bytes).unwrap();
        free_range(&path, 1 << 16, 1 << 16);
        let after = fs::read(&path).unwrap();
        assert_eq!(after.len(), bytes.len());
        assert_eq!(after[..1 << 16], bytes[..1 << 16]);
        assert_eq!(after[2 << 16..], bytes[2 << 16..]);
        let middle = &after[1 << 16..2 << 16];
        assert!(middle.iter().all(|&b| b == 0) || middle == &bytes[1 << 16..2 << 16]);
        // A file gone already is no error.
        free_range(&dir.path().join("gone"), 0, 10);
    }

    #[test]
    fn records_in_the_files_form_read_back_as_written() {
        // The default form (the depth, a length, then the bytes), with
        // depths of one byte and more; Spider's compact form has tests of
        // its own (`game::tests`).
        let walk = [
            [0u8, 0, 7, 1, 9, 9].as_slice(),
            &[200, 1, 3, 0, 0, 0],
            &[255, 255],
        ];
        let mut files = Vec::new();
        for record in walk {
            write_file_record(&Walk, record, &mut files);
        }
        let mut back = Vec::new();
        let mut at = 0;
        while at < files.len() {
            at += read_file_record(&Walk, &files[at..], &mut back).unwrap();
        }
        assert_eq!(back, walk.concat());
        assert_eq!(read_file_record(&Walk, &files[..1], &mut Vec::new()), None);
    }

    /// A search stopped part-way leaves the files it held in memory on
    /// disk as a pack, and resumes from it; a seen run written after the
    /// last manifest (as a crash between the two leaves it) is not read.
    #[test]
    fn a_resumed_search_on_disk_reads_its_pack_and_drops_later_runs() {
        use crate::explore::Problem;
        let memory = Layered::new(&Walk).stop(Stop::Exhaust).run().unwrap();
        let dir = tempfile::tempdir().unwrap();
        walk_stopped_after_5000(dir.path());
        let packs = fs::read_dir(dir.path().join("blocks"))
            .unwrap()
            .filter(|e| {
                let name = e.as_ref().unwrap().file_name();
                name.to_string_lossy().starts_with("pack")
            })
            .count();
        assert!(packs > 0);
        let manifest: DiskManifest =
            serde_json::from_slice(&fs::read(dir.path().join("disk-manifest.json")).unwrap())
                .unwrap();
        let current = manifest.current.expect("stopped inside a layer");
        // Every state of the layer, as if a later round had seen them.
        let mut stale: Vec<u128> = (0..=60u16)
            .flat_map(|a| (0..=300u16).map(move |b| (a, b)))
            .filter(|s| Walk.layer(s) == current.layer)
            .map(|s| Walk.fingerprint(&s))
            .collect();
        stale.sort_unstable();
        for part in 0..PARTS {
            let fps: Vec<u128> = stale
                .iter()
                .copied()
                .filter(|&fp| part_of(fp) == part)
                .collect();
            let path = seen_path(dir.path(), current.layer, part, current.step, current.step);
            write_run(&path, &Run::from_sorted(&fps)).unwrap();
        }
        let resumed = Layered::new(&Walk)
            .stop(Stop::Exhaust)
            .disk(on_disk(dir.path()), "walk")
            .run()
            .unwrap();
        assert_eq!(resumed.end, End::Exhausted);
        assert!(resumed.stats.resumed_layers > 0);
        assert_eq!(figures(&resumed.stats), figures(&memory.stats));
        let blocks = fs::read_dir(dir.path().join("blocks")).unwrap().count();
        assert_eq!(blocks, 0);
    }

    /// [`Walk`], which raises a flag (the search's Ctrl-C) once it has
    /// expanded `left` states, a search stopped inside a round; or, with
    /// `crash`, panics (the process dies, with what it held in memory).
    struct Halting<'a> {
        flag: &'a AtomicBool,
        left: AtomicU64,
        crash: bool,
    }
    impl crate::explore::Problem for Halting<'_> {
        type State = (u16, u16);
        type Key = (u16, u16);
        type Move = u8;
        fn start(&self) -> (u16, u16) {
            Walk.start()
        }
        fn key(&self, s: &(u16, u16)) -> (u16, u16) {
            *s
        }
        fn successors(&self, s: &(u16, u16), out: &mut Vec<(u8, (u16, u16))>) {
            if self.left.fetch_sub(1, Ordering::Relaxed) == 1 {
                assert!(!self.crash, "a crash");
                self.flag.store(true, Ordering::Relaxed);
            }
            Walk.successors(s, out)
        }
        fn kind(&self, s: &(u16, u16)) -> NodeKind {
            Walk.kind(s)
        }
        fn layer(&self, s: &(u16, u16)) -> u64 {
            Walk.layer(s)
        }
    }
    impl PackedProblem for Halting<'_> {
        fn pack(&self, s: &(u16, u16), out: &mut Vec<u8>) {
            Walk.pack(s, out)
        }
        fn unpack(&self, b: &[u8]) -> (u16, u16) {
            Walk.unpack(b)
        }
    }

    /// A search stopped inside a round keeps the parts of it that
    /// finished, with their files, and the resumed round expands only the
    /// others: stopped every 700 expansions (a round's parts hold at most
    /// 36 states), on two threads, the search resumes to the counts of one
    /// run, with its output files in memory (written as a pack at the
    /// stop) or on the disk, and leaves no file.
    #[test]
    fn a_search_stopped_inside_a_round_keeps_the_parts_it_finished() {
        let memory = Layered::new(&Walk).stop(Stop::Exhaust).run().unwrap();
        for budget in [None, Some(0)] {
            let dir = tempfile::tempdir().unwrap();
            let (mut runs, mut kept) = (0, 0);
            let stats = loop {
                runs += 1;
                assert!(runs < 200, "no progress");
                let flag = AtomicBool::new(false);
                let halting = Halting {
                    flag: &flag,
                    left: AtomicU64::new(700),
                    crash: false,
                };
                let mut search = Layered::new(&halting)
                    .stop(Stop::Exhaust)
                    .jobs(Some(2))
                    .cancel_flag(&flag);
                if let Some(budget) = budget {
                    search = search.disk_memory(budget);
                }
                let outcome = search.disk(on_disk(dir.path()), "walk").run().unwrap();
                if outcome.end == End::Exhausted {
                    break outcome.stats;
                }
                assert_eq!(outcome.end, End::Stopped(StopReason::Cancelled));
                let manifest: DiskManifest = serde_json::from_slice(
                    &fs::read(dir.path().join("disk-manifest.json")).unwrap(),
                )
                .unwrap();
                let current = manifest.current.expect("stopped inside a layer");
                for out in &current.done {
                    assert!(!out.stopped);
                    if let Some((name, info)) = &out.file {
                        // The file is known and on the disk.
                        let known = &manifest.files[name];
                        assert_eq!(known.blocks, info.blocks);
                        let path = match &known.pack {
                            Some((pack, _)) => blocks_path(dir.path(), pack),
                            None => blocks_path(dir.path(), name),
                        };
                        assert!(path.exists(), "{}", path.display());
                    }
                }
                kept += current.done.len();
            };
            assert!(runs > 10 && kept > 10, "{runs} runs, {kept} parts kept");
            assert_eq!(figures(&stats), figures(&memory.stats), "budget {budget:?}");
            for sub in ["blocks", "frontier"] {
                let left = fs::read_dir(dir.path().join(sub)).map_or(0, |d| d.count());
                assert_eq!(left, 0, "{sub} ({budget:?})");
            }
        }
    }

    /// A search on disk that crashes inside a large round resumes from the
    /// parts of it recorded as they finished (a round of 200 records or
    /// more goes in waves of parts, recorded after each wave in the tests):
    /// crashed after 1,000 expansions, then 2,000, 3,000 and so on (what
    /// a run did since the last manifest is lost), the search resumes to
    /// the counts of one run.
    #[test]
    fn a_search_on_disk_that_crashes_inside_a_round_keeps_the_parts_recorded() {
        let memory = Layered::new(&Walk).stop(Stop::Exhaust).run().unwrap();
        let dir = tempfile::tempdir().unwrap();
        let (mut runs, mut kept) = (0, 0);
        let stats = loop {
            runs += 1;
            assert!(runs < 100, "no progress");
            let flag = AtomicBool::new(false);
            let crashing = Halting {
                flag: &flag,
                left: AtomicU64::new(1_000 * runs),
                crash: true,
            };
            let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                Layered::new(&crashing)
                    .stop(Stop::Exhaust)
                    .jobs(Some(2))
                    .disk(on_disk(dir.path()), "walk")
                    .run()
                    .unwrap()
            }));
            let Err(_) = run else {
                break run.unwrap().stats;
            };
            // None before the first manifest.
            if let Ok(text) = fs::read(dir.path().join("disk-manifest.json")) {
                let manifest: DiskManifest = serde_json::from_slice(&text).unwrap();
                kept += manifest.current.map_or(0, |c| c.done.len());
            }
        };
        assert!(runs > 5 && kept > 5, "{runs} runs, {kept} parts kept");
        assert_eq!(figures(&stats), figures(&memory.stats));
    }

    /// A search on disk with a limit of positions stops inside a round,
    /// at the first part that passes it, not at the end of the round, and
    /// the parts it did not start are left for the resumed round: stopped
    /// every 300 positions, it passes each limit by less than 40 (a round
    /// of [`Walk`] finds up to 296 states, 36 in its largest part; the
    /// most measured was 32), and resumes to the counts of one run.
    #[test]
    fn a_limit_of_positions_stops_a_search_on_disk_inside_a_round() {
        let memory = Layered::new(&Walk).stop(Stop::Exhaust).run().unwrap();
        let dir = tempfile::tempdir().unwrap();
        let (mut max, mut over) = (0, Vec::new());
        let stats = loop {
            max += 300;
            assert!(max < 30_000, "no progress");
            let outcome = Layered::new(&Walk)
                .stop(Stop::Exhaust)
                .jobs(Some(2))
                .limits(Limits {
                    max_positions: Some(max),
                    ..Limits::default()
                })
                .disk(on_disk(dir.path()), "walk")
                .run()
                .unwrap();
            if outcome.end == End::Exhausted {
                break outcome.stats;
            }
            assert_eq!(outcome.end, End::Stopped(StopReason::Positions));
            assert!(outcome.stats.positions >= max);
            over.push(outcome.stats.positions - max);
            // What it reports is what the manifest holds: the layers
            // finished, the current one's rounds and the parts kept.
            let manifest: DiskManifest =
                serde_json::from_slice(&fs::read(dir.path().join("disk-manifest.json")).unwrap())
                    .unwrap();
            let current = manifest.current.expect("stopped inside a layer");
            let finished = manifest.layers.iter();
            let sum = |f: fn(&LayerStats) -> u64, g: fn(&TaskOut) -> u64| {
                finished.clone().map(f).sum::<u64>()
                    + f(&current.here)
                    + current.done.iter().map(g).sum::<u64>()
            };
            let stats = &outcome.stats;
            assert_eq!(stats.positions, sum(|l| l.positions, |o| o.new));
            assert_eq!(stats.dead, sum(|l| l.dead, |o| o.dead));
            assert_eq!(stats.expanded, sum(|l| l.expanded, |o| o.expanded));
            assert_eq!(stats.layers.last().map(|l| l.layer), Some(current.layer));
        };
        assert!(over.len() > 50);
        assert!(over.iter().all(|&o| o < 40), "{over:?}");
        assert_eq!(figures(&stats), figures(&memory.stats));
    }

    /// The solver's exhaustive pass (dead ends, the `XX` leaves) counts
    /// the same on disk, and a disk search stopped twice by a position
    /// limit resumes to the same counts as an uninterrupted one. The quick
    /// run stops every 10,000 positions up to 30,000;
    /// [`a_long_search_on_disk_stopped_and_resumed_counts_the_same`] every
    /// 40,000 up to 120,000.
    #[test]
    fn a_search_on_disk_stopped_and_resumed_counts_the_same() {
        disk_search_resumed(10_000, None, None);
    }

    #[test]
    #[ignore = "slow: runs with `cargo test -- --ignored` (CI runs it)"]
    fn a_long_search_on_disk_stopped_and_resumed_counts_the_same() {
        disk_search_resumed(40_000, None, None);
    }

    /// The search of [`a_search_on_disk_stopped_and_resumed_counts_the_same`],
    /// stopped every `step` positions up to three steps.
    /// The same with the seen sets dropped after every round (a budget of
    /// 1 byte): each task looks its inputs up on disk first, and a resumed
    /// search merges the layer's seen runs and looks them up there; and
    /// dropped now and then (a sixteenth of the largest table of the search
    /// in memory), with a manifest after every round (a memory budget of 4
    /// KiB), so that the rounds since a drop are on disk too when the next
    /// round looks the earlier ones up.
    #[test]
    fn a_search_on_disk_with_its_seen_sets_dropped_resumes_to_the_same_counts() {
        disk_search_resumed(10_000, Some(u64::MAX), None);
        disk_search_resumed(10_000, Some(16), None);
    }

    /// The same with every round that reads more than a few records per
    /// part run split (a growth of 1 byte: each round's first try stops at
    /// its first question to the guard, and the round runs again a wave of
    /// parts at a time), stopped inside split rounds and resumed.
    #[test]
    fn a_search_on_disk_with_its_rounds_split_resumes_to_the_same_counts() {
        disk_search_resumed(10_000, None, Some(1));
    }

    /// The disk search of PySol 3's proof, stopped every `step` positions;
    /// with `seen_share`, its seen sets' budget is that share (1/n) of the
    /// largest table of the search in memory (`u64::MAX`: 1 byte); with
    /// `split_from`, its rounds split from that growth of their seen sets.
    fn disk_search_resumed(step: u64, seen_share: Option<u64>, split_from: Option<u64>) {
        use crate::solve::exhaustive::ExhaustiveProblem;
        let deal = pysol::deal(3, Rules::Standard).unwrap();
        let game = Game::new(&deal).unwrap();
        let problem = ExhaustiveProblem::new(&game);
        let limit = Limits {
            max_positions: Some(3 * step),
            ..Limits::default()
        };
        // The in-memory search stopped part-way is the reference for the
        // layers it finished.
        let memory = Layered::new(&problem)
            .stop(Stop::Exhaust)
            .limits(limit.clone())
            .run()
            .unwrap();
        let finished = memory.stats.layers.len() - 1;
        assert!(finished > 3, "{finished} layers");
        let seen = seen_share.map(|n| (memory.stats.peak_table_bytes / n).max(1));
        let dir = tempfile::tempdir().unwrap();
        let mut runs = 0;
        let mut dropped = 0;
        let mut split = 0;
        let stats = loop {
            runs += 1;
            let options = DiskOptions {
                seen_memory: seen,
                split_from,
                ..on_disk(dir.path())
            };
            let mut search = Layered::new(&problem)
                .stop(Stop::Exhaust)
                .jobs(Some(2))
                .limits(Limits {
                    max_positions: Some(step * runs),
                    ..Limits::default()
                });
            if seen.is_some() {
                search = search.disk_memory(4 << 10);
            }
            let outcome = search.disk(options, "pysol 3").run().unwrap();
            assert_eq!(outcome.end, End::Stopped(StopReason::Positions));
            if runs > 1 {
                assert!(outcome.stats.resumed_layers > 0);
            }
            dropped += outcome.stats.seen_dropped;
            split += outcome.stats.rounds_split;
            if outcome.stats.positions >= 3 * step {
                break outcome.stats;
            }
            assert!(runs < 6);
        };
        assert!(runs >= 3);
        assert_eq!(
            seen.is_some() || split_from.is_some(),
            dropped > 0,
            "dropped {dropped} times"
        );
        assert_eq!(split_from.is_some(), split > 0, "{split} rounds split");
        // Finished layers the in-memory search finished too count the
        // same (duplicates apart: they are charged when read).
        let strip = |l: &LayerStats| LayerStats {
            duplicates: 0,
            ..l.clone()
        };
        let common = finished.min(stats.layers.len() - 1);
        assert!(common > 3);
        for k in 0..common {
            assert_eq!(
                strip(&stats.layers[k]),
                strip(&memory.stats.layers[k]),
                "layer {k}"
            );
        }
    }
}
