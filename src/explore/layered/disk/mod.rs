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
//!    (in one process, a part's states wait for step 3 in a file, in
//!    blocks as they are held, when they pass its share of the memory budget, and are read
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

mod files;
mod frontier;
mod launcher;
mod resume;
mod round;
mod run;
mod seen;
#[cfg(test)]
mod tests;

use files::*;
use frontier::*;
use launcher::*;
use resume::*;
use round::*;
use seen::*;

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
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
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
