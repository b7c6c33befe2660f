//! A round's task: reading its part's inputs and keeping the first
//! record of each new state ([`dedup_task`]), under a guard of time and
//! memory that can split the round; then expanding the new states and
//! writing their successors ([`expand_task`]).

use super::*;

/// Bytes a record read by a task was counted as holding besides its own
/// when the task sorted its inputs a chunk at a time: an index entry and,
/// if it was new, its fingerprint in the chunk's run. The chunks are still
/// measured so (they decide when the frontier goes to its file, and so
/// where its blocks end, and how the new fingerprints are cut into runs),
/// so that the frontier and its blocks are what they were.
pub(super) const INPUT_INDEX: u64 = 48;

/// A chunk of a task's inputs, as it was when the chunk's records were held
/// and sorted: what they would hold, and the new fingerprints met in it.
#[derive(Default)]
pub(super) struct Chunk {
    pub(super) inputs: u64,
    pub(super) held: u64,
    pub(super) new_fps: Vec<u128>,
}

impl Chunk {
    /// Counts the input `record`.
    pub(super) fn push(&mut self, record: &[u8]) {
        self.inputs += 1;
        self.held += record.len() as u64 + INPUT_INDEX;
    }

    /// Bytes the chunk's records would take, and would take to be sorted.
    pub(super) fn held(&self) -> u64 {
        self.held
    }

    /// Bytes allocated.
    pub(super) fn capacity(&self) -> u64 {
        (self.new_fps.capacity() * size_of::<u128>()) as u64
    }

    /// Ends the chunk: its new fingerprints, sorted, go to a run of
    /// `runs`, and the frontier its new states joined may go to its file.
    pub(super) fn sift(
        &mut self,
        runs: &mut Vec<Run>,
        frontier: &mut FrontierWriter,
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
pub(super) const GUARD_EVERY: u32 = if cfg!(test) { 16 } else { 4096 };

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
pub(super) struct RoundGuard<'a> {
    /// `None` for a task run as a process of its own, which never stops
    /// (its launcher reruns a task that fails).
    pub(super) limits: Option<&'a Limits>,
    pub(super) cancel: Option<&'a AtomicBool>,
    pub(super) started: Instant,
    /// The search's memory estimate when the round began.
    pub(super) held: u64,
    /// Bytes the tasks' seen sets grew by since (less the seen sets a
    /// split round dropped), and the most they were.
    pub(super) grown: AtomicU64,
    pub(super) peak: AtomicU64,
    /// The seen sets' growth, whole or foreseen, from which the round
    /// runs split instead ([`RoundGuard::splits`]); `None`: never.
    pub(super) split_from: Option<u64>,
    /// The records the round's tasks read in all, and those read and the
    /// new states met so far (counted at each question).
    pub(super) records: u64,
    pub(super) read: AtomicU64,
    pub(super) fresh: AtomicU64,
    /// Whether the round is to run split.
    pub(super) split: AtomicBool,
    /// Why it stopped, the first time it told a task to.
    pub(super) reason: std::sync::OnceLock<StopReason>,
}

impl RoundGuard<'_> {
    /// The guard of a task run as a process of its own: it never stops.
    pub(super) fn never() -> RoundGuard<'static> {
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
    pub(super) fn stop(&self) -> Option<StopReason> {
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
    pub(super) fn stop_reading(&self) -> Option<StopReason> {
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
    pub(super) fn splits(&self) -> bool {
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
    pub(super) fn grow(&self, bytes: u64, records: u32, fresh: u32) {
        let grown = self.grown.fetch_add(bytes, Ordering::Relaxed) + bytes;
        self.peak.fetch_max(grown, Ordering::Relaxed);
        self.read.fetch_add(u64::from(records), Ordering::Relaxed);
        self.fresh.fetch_add(u64::from(fresh), Ordering::Relaxed);
    }

    /// A wave of a split round dropped seen sets of `bytes`.
    pub(super) fn shrink(&self, bytes: u64) {
        let _ = (self.grown).fetch_update(Ordering::Relaxed, Ordering::Relaxed, |grown| {
            Some(grown.saturating_sub(bytes))
        });
    }

    /// The memory held when the round began, and what the seen sets grew
    /// by since.
    pub(super) fn memory(&self) -> u64 {
        self.held + self.grown.load(Ordering::Relaxed)
    }

    /// The most [`RoundGuard::memory`] was.
    pub(super) fn peak(&self) -> u64 {
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
pub(super) fn dedup_task(
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
    let mut frontier = FrontierWriter::new(frontier_path(dir, part), hold, budget);
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
pub(super) fn merged(mut runs: Vec<Run>) -> Run {
    if runs.len() == 1 {
        return runs.pop().expect("one run");
    }
    let mut all: Vec<u128> = runs.drain(..).flat_map(|r| r.to_vec()).collect();
    all.sort_unstable();
    Run::from_sorted(&all)
}

/// Frontier states expanded at a time by [`expand_task`]: their
/// same-layer successors are looked up in the seen sets together.
pub(super) const EXPAND_CHUNK: usize = 16 * UNIT;

/// Same-layer successors looked up ahead of the one being looked up: its
/// seen set's line is fetched that many lookups before it is read.
pub(super) const LOOKUP_AHEAD: usize = 16;

/// The second half of a task: expands `frontier` (what [`dedup_task`]
/// left) and writes every successor but the same-layer ones already in
/// `known` (the seen sets of the parts, those at hand, with the round's
/// new states): each is a duplicate the reading task would drop, so it is
/// counted here and not written.
#[allow(clippy::too_many_arguments)]
pub(super) fn expand_task<P: PackedProblem>(
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
                file.read_block(&mut reader, next, &mut read)?;
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
pub(super) fn output_name(layer: u64, step: u32, part: usize) -> String {
    format!("L{layer:016x}-s{step:05}-p{part:02}.blk")
}

/// Builds the successor `e` of a frontier state and writes it.
pub(super) fn write_successor<P: PackedProblem>(
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
