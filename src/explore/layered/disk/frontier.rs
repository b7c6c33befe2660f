//! The frontier a task expands: its new states in memory, or past their
//! share of the budget in a file of blocks read back a block at a time.

use super::*;

/// States in a block of a frontier's file, at most [`EXPAND_CHUNK`] (256
/// in the unit tests, so that small searches write files of many blocks).
pub(super) const FRONTIER_BLOCK: usize = if cfg!(test) { 256 } else { EXPAND_CHUNK };

/// Shards in a part (see [`shard_of`]).
pub(super) const PART_SHARDS: usize = SHARDS / PARTS;

/// Where part `part`'s frontier waits between the two halves of a round
/// when it passes its share of the memory budget.
pub(super) fn frontier_path(dir: &Path, part: usize) -> PathBuf {
    dir.join("frontier").join(format!("p{part:02}.blk"))
}

/// A task's new states, to be expanded in the in-memory search's order.
pub(super) enum Frontier {
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
/// the states of one shard in one chunk would be small (and the blocks,
/// which decide the units the states are expanded in, are the ones they
/// were when the file was packed).
pub(super) struct FrontierWriter {
    pub(super) path: PathBuf,
    pub(super) hold: Option<u64>,
    pub(super) budget: u64,
    /// Per shard of the part, the blocks held: each state its length in
    /// two bytes, then its record; and the states in the block.
    pub(super) shards: Vec<Vec<(Vec<u8>, u32)>>,
    pub(super) held: u64,
    /// The most bytes held after a chunk.
    pub(super) peak: u64,
    pub(super) file: Option<FrontierFile>,
}

impl FrontierWriter {
    pub(super) fn new(path: PathBuf, hold: Option<u64>, budget: u64) -> FrontierWriter {
        FrontierWriter {
            path,
            hold,
            budget,
            shards: (0..PART_SHARDS).map(|_| Vec::new()).collect(),
            held: 0,
            peak: 0,
            file: None,
        }
    }

    pub(super) fn push(&mut self, fp: u128, record: &[u8]) {
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
    pub(super) fn spill(&mut self) -> Result<(), CheckpointError> {
        self.peak = self.peak.max(self.held);
        if self
            .hold
            .is_some_and(|hold| self.held > hold.max(self.budget))
        {
            self.write_held()?;
        }
        Ok(())
    }

    pub(super) fn write_held(&mut self) -> Result<(), CheckpointError> {
        let file = match &mut self.file {
            Some(file) => file,
            None => self.file.insert(FrontierFile::create(self.path.clone())?),
        };
        for (shard, blocks) in self.shards.iter_mut().enumerate() {
            for (raw, count) in blocks.drain(..) {
                file.push(shard, &raw, count)?;
            }
        }
        self.held = 0;
        Ok(())
    }

    /// The frontier: in memory if it never passed `hold`, else in the
    /// file.
    pub(super) fn finish(mut self) -> Result<Frontier, CheckpointError> {
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
pub(super) fn read_states(
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
pub(super) struct FrontierBlock {
    /// The shard (within the part) its states are of.
    pub(super) shard: usize,
    pub(super) offset: u64,
    pub(super) len: u32,
    pub(super) count: u32,
}

/// A frontier on disk: blocks of up to [`FRONTIER_BLOCK`] states as the
/// writer held them (each its length in two bytes, then its record: the
/// depth, then the packed state), read back by shard, and each shard's in
/// the order written. The file is deleted when the frontier is dropped
/// (expanded, or left by a round cut short), and no run reads another's,
/// so its format is free to change. The states go as they are, neither
/// put in the files' form nor packed: on the unwon game's stage 1, LZ4 on
/// the files' form took about 11 % of the search's CPU time (packing,
/// unpacking and the form's writing and reading), for a file about 2.9
/// times smaller while it lasts; the file lives one round, and the page
/// cache takes it (`docs/engine.md`).
pub(super) struct FrontierFile {
    pub(super) path: PathBuf,
    /// The writer, until the file is finished.
    pub(super) out: Option<BufWriter<fs::File>>,
    /// Bytes written.
    pub(super) end: u64,
    /// In the order they are read once the file is finished.
    pub(super) blocks: Vec<FrontierBlock>,
}

impl FrontierFile {
    pub(super) fn create(path: PathBuf) -> Result<FrontierFile, CheckpointError> {
        let file = fs::File::create(&path).map_err(io_error(&path))?;
        Ok(FrontierFile {
            out: Some(BufWriter::with_capacity(1 << 16, file)),
            path,
            end: 0,
            blocks: Vec::new(),
        })
    }

    /// Writes the block of `count` states `held` (each its length in two
    /// bytes, then its record) of shard `shard`, as it is.
    pub(super) fn push(
        &mut self,
        shard: usize,
        held: &[u8],
        count: u32,
    ) -> Result<(), CheckpointError> {
        let path = &self.path;
        let out = self.out.as_mut().expect("a file being written");
        out.write_all(held).map_err(io_error(path))?;
        self.blocks.push(FrontierBlock {
            shard,
            offset: self.end,
            len: held.len() as u32,
            count,
        });
        self.end += held.len() as u64;
        Ok(())
    }

    /// Writes what is left, and puts the blocks in the order they are read
    /// (by shard; a shard's as written: the sort is stable).
    pub(super) fn finish(&mut self) -> Result<(), CheckpointError> {
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
    pub(super) fn read_block(
        &self,
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
        let mut held = vec![0; block.len as usize];
        file.read_exact(&mut held).map_err(io_error(path))?;
        *arena = Arena::default();
        read_states(path, &held, block.count, arena)
    }
}

impl Drop for FrontierFile {
    fn drop(&mut self) {
        self.out = None;
        let _ = fs::remove_file(&self.path);
    }
}
