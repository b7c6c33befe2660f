//! The files of the search on disk and their format: output files of
//! Zstandard blocks keyed by target layer and part, held in memory up to
//! their budget, records in the problem's form for the files, and the
//! codecs of a block.

use super::*;

/// Output files kept in memory, in one process: a file read by the next
/// round and then by no one never reaches the disk, and those still read
/// when a manifest is written go to the disk together, as one pack (see
/// [`Layered::save_disk_manifest`]); a search of many small rounds would
/// otherwise spend its time creating and deleting files. Past `budget`
/// bytes, files are written to the disk as they are made.
///
/// Beside a file in memory, the fingerprints of its records, in the order
/// written, while they fit in as many bytes again as the files' budget
/// (`fps`): the rounds that read the file then take them rather than
/// computing them again from the records (unpacking each state and hashing
/// its piles). They stay when the file goes to the disk in a pack with a
/// manifest, until no layer reads it; a file written to the disk as it is
/// made (past the files' budget) has none, nor has one read after a
/// resume.
pub(super) struct MemFiles {
    pub(super) files: Mutex<HashMap<String, Arc<Vec<u8>>>>,
    pub(super) bytes: AtomicU64,
    pub(super) budget: u64,
    pub(super) fps: Mutex<HashMap<String, Arc<Vec<u128>>>>,
    pub(super) fp_bytes: AtomicU64,
}

impl MemFiles {
    pub(super) fn new(budget: u64) -> MemFiles {
        MemFiles {
            files: Mutex::new(HashMap::new()),
            bytes: AtomicU64::new(0),
            budget,
            fps: Mutex::new(HashMap::new()),
            fp_bytes: AtomicU64::new(0),
        }
    }

    pub(super) fn get(&self, name: &str) -> Option<Arc<Vec<u8>>> {
        self.files.lock().expect("not poisoned").get(name).cloned()
    }

    /// The fingerprints of file `name`'s records, in the order written, if
    /// they were kept.
    pub(super) fn get_fps(&self, name: &str) -> Option<Arc<Vec<u128>>> {
        self.fps.lock().expect("not poisoned").get(name).cloned()
    }

    /// Takes room for `n` more fingerprints, if there is.
    fn take_fp_room(&self, n: usize) -> bool {
        let len = (n * size_of::<u128>()) as u64;
        if self.fp_bytes.fetch_add(len, Ordering::Relaxed) + len <= self.budget {
            return true;
        }
        self.fp_bytes.fetch_sub(len, Ordering::Relaxed);
        false
    }

    /// Gives back the room of `n` fingerprints.
    fn give_fp_room(&self, n: usize) {
        let len = (n * size_of::<u128>()) as u64;
        self.fp_bytes.fetch_sub(len, Ordering::Relaxed);
    }

    /// Forgets the fingerprints of file `name`.
    pub(super) fn forget_fps(&self, name: &str) {
        if let Some(fps) = self.fps.lock().expect("not poisoned").remove(name) {
            self.give_fp_room(fps.len());
        }
    }

    /// Bytes of the fingerprints kept.
    pub(super) fn fp_bytes(&self) -> u64 {
        self.fp_bytes.load(Ordering::Relaxed)
    }

    /// Forgets file `name`; whether it was here.
    pub(super) fn remove(&self, name: &str) -> bool {
        self.forget_fps(name);
        match self.files.lock().expect("not poisoned").remove(name) {
            Some(data) => {
                self.bytes.fetch_sub(data.len() as u64, Ordering::Relaxed);
                true
            }
            None => false,
        }
    }

    /// Every file, by name, forgotten.
    pub(super) fn take_all(&self) -> BTreeMap<String, Arc<Vec<u8>>> {
        let files = std::mem::take(&mut *self.files.lock().expect("not poisoned"));
        self.bytes.store(0, Ordering::Relaxed);
        files.into_iter().collect()
    }

    pub(super) fn bytes(&self) -> u64 {
        self.bytes.load(Ordering::Relaxed)
    }
}

/// Where a [`BlockWriter`] writes.
pub(super) enum Sink<'m> {
    /// Nothing yet.
    None,
    /// Into memory, counted in the [`MemFiles`] it will join.
    Memory(&'m MemFiles, Vec<u8>),
    File(BufWriter<fs::File>),
}

/// Writes one task's successors: records gathered per (target layer,
/// part), compressed a block at a time.
pub(super) struct BlockWriter<'m> {
    pub(super) records: &'m dyn Records,
    pub(super) name: String,
    pub(super) path: PathBuf,
    pub(super) out: Sink<'m>,
    pub(super) open: BTreeMap<(u64, u16), (Vec<u8>, Vec<u128>)>,
    pub(super) info: FileInfo,
    /// The fingerprints of the blocks written, in order, while the file
    /// is in memory and they have room there (see [`MemFiles`]).
    pub(super) fps: Option<Vec<u128>>,
    pub(super) memory: Option<&'m MemFiles>,
}

/// The Zstandard level of the files. On the unwon game's stage 1, level 3
/// packs Spider's compact records into 12.2 bytes where level 1 takes 13.2
/// (4.5 and 4.2 times smaller than raw, blocks of 256 KiB), for about 2 %
/// more CPU in all (with the frontier's files unpacked, 2.4 %, for 0.93
/// times the directory's largest size); see `docs/engine.md`.
pub(super) const FILE_LEVEL: i32 = 3;

thread_local! {
    /// Each thread's Zstandard contexts for the files (made once: a
    /// context costs more to make than a block to compress).
    static FILE_ZSTD: std::cell::RefCell<(
        Option<zstd::bulk::Compressor<'static>>,
        Option<zstd::bulk::Decompressor<'static>>,
    )> = const { std::cell::RefCell::new((None, None)) };
    /// Each thread's buffer for the blocks it packs.
    static FILE_BUFFER: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
    /// Each thread's buffers of blocks flushed, for the next blocks its
    /// writers fill (a block's buffer grown from nothing for each block
    /// was a quarter of the search's page faults on disk).
    static BLOCK_POOL: std::cell::RefCell<Vec<Vec<u8>>> = const { std::cell::RefCell::new(Vec::new()) };
    /// Each thread's buffers for [`read_blocks`]: a block packed, unpacked,
    /// its records decoded, and where each starts.
    static READ_BUFFERS: std::cell::Cell<ReadBuffers> = std::cell::Cell::new(ReadBuffers::default());
}

/// Buffers of blocks that a thread keeps for the next: at most this many.
pub(super) const POOLED_BLOCKS: usize = 64;

/// A buffer for a block, from the thread's pool.
pub(super) fn pooled_block() -> Vec<u8> {
    BLOCK_POOL
        .with_borrow_mut(Vec::pop)
        .unwrap_or_else(|| Vec::with_capacity(BLOCK_BYTES + (BLOCK_BYTES >> 3)))
}

/// Gives `buf` back to the thread's pool, emptied.
pub(super) fn pool_block(mut buf: Vec<u8>) {
    buf.clear();
    BLOCK_POOL.with_borrow_mut(|pool| {
        if pool.len() < POOLED_BLOCKS {
            pool.push(buf);
        }
    });
}

/// See [`READ_BUFFERS`].
#[derive(Default)]
pub(super) struct ReadBuffers {
    pub(super) packed: Vec<u8>,
    pub(super) raw: Vec<u8>,
    pub(super) decoded: Vec<u8>,
    pub(super) found: Vec<(u128, usize, usize)>,
}

impl<'m> BlockWriter<'m> {
    /// A writer of file `name`, kept in `memory` while it has room.
    pub(super) fn new(
        records: &'m dyn Records,
        dir: &Path,
        name: String,
        producer: u64,
        memory: Option<&'m MemFiles>,
    ) -> BlockWriter<'m> {
        if let Some(files) = memory {
            // A file written again (a round run again) starts afresh.
            files.forget_fps(&name);
        }
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
            fps: memory.map(|_| Vec::new()),
            memory,
        }
    }

    /// Bytes held in memory.
    pub(super) fn memory(&self) -> u64 {
        self.open
            .values()
            .map(|(b, fps)| (b.capacity() + fps.capacity() * size_of::<u128>()) as u64)
            .sum::<u64>()
            + (1 << 16)
    }

    /// Adds `record` (its depth in two bytes, then the packed state), of
    /// the state of fingerprint `fp`, to the records for layer `target`,
    /// in the files' form ([`write_file_record`]). The fingerprint is not
    /// written: the reader computes it again (the files take 0.57 times
    /// the bytes without).
    pub(super) fn push(
        &mut self,
        target: u64,
        fp: u128,
        record: &[u8],
    ) -> Result<(), CheckpointError> {
        let key = (target, part_of(fp) as u16);
        let (buf, fps) = self
            .open
            .entry(key)
            .or_insert_with(|| (pooled_block(), Vec::new()));
        write_file_record(self.records, record, buf);
        fps.push(fp);
        if buf.len() >= BLOCK_BYTES {
            let (buf, fps) = self.open.remove(&key).expect("just filled");
            self.flush(key, &buf, &fps)?;
            pool_block(buf);
        }
        Ok(())
    }

    pub(super) fn flush(
        &mut self,
        (target, part): (u64, u16),
        raw: &[u8],
        fps: &[u128],
    ) -> Result<(), CheckpointError> {
        let count = fps.len() as u32;
        let path = &self.path;
        let out = &mut self.out;
        let len = with_compressed(raw, |packed| {
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
        // The block's fingerprints are kept while the file is in memory
        // and they have room; else none of the file's are.
        if let (Some(kept), Some(files)) = (&mut self.fps, self.memory) {
            if matches!(self.out, Sink::Memory(..)) && files.take_fp_room(fps.len()) {
                kept.extend_from_slice(fps);
            } else {
                files.give_fp_room(kept.len());
                self.fps = None;
            }
        }
        Ok(())
    }

    /// Writes what is left; the file's name and description, if it holds
    /// anything.
    pub(super) fn finish(mut self) -> Result<Option<(String, FileInfo)>, CheckpointError> {
        for (key, (buf, fps)) in std::mem::take(&mut self.open) {
            self.flush(key, &buf, &fps)?;
            pool_block(buf);
        }
        if self.info.blocks.is_empty() {
            return Ok(None);
        }
        let name = std::mem::take(&mut self.name);
        let info = std::mem::take(&mut self.info);
        match std::mem::replace(&mut self.out, Sink::None) {
            Sink::None => unreachable!("a block was written"),
            Sink::Memory(files, mut data) => {
                // Both may be held for rounds: no room to spare (they grew
                // by doubling).
                data.shrink_to_fit();
                if let Some(mut fps) = self.fps.take() {
                    fps.shrink_to_fit();
                    files
                        .fps
                        .lock()
                        .expect("not poisoned")
                        .insert(name.clone(), Arc::new(fps));
                }
                files
                    .files
                    .lock()
                    .expect("not poisoned")
                    .insert(name.clone(), Arc::new(data));
            }
            Sink::File(out) => {
                out.into_inner()
                    .map_err(|e| e.into_error())
                    .map_err(io_error(&self.path))?;
            }
        }
        Ok(Some((name, info)))
    }
}

impl Drop for BlockWriter<'_> {
    /// A writer dropped unfinished (its task stopped) gives back the room
    /// its fingerprints took.
    fn drop(&mut self) {
        if let (Some(kept), Some(files)) = (&self.fps, self.memory) {
            files.give_fp_room(kept.len());
        }
    }
}

/// What the files need of a problem: the form its states take there
/// ([`PackedProblem::write_record`]) and their fingerprints.
pub(super) trait Records: Sync {
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
pub(super) fn write_file_record(records: &dyn Records, record: &[u8], out: &mut Vec<u8>) {
    write_varint(u64::from(u16::from_le_bytes([record[0], record[1]])), out);
    records.write(&record[2..], out);
}

/// Appends the record whose file form ([`write_file_record`]) starts
/// `bytes` to `out` as the search holds it (its depth in two bytes, then
/// the packed state); how many bytes of `bytes` it took, `None` if they do
/// not start with one.
pub(super) fn read_file_record(
    records: &dyn Records,
    bytes: &[u8],
    out: &mut Vec<u8>,
) -> Option<usize> {
    let (depth, at) = read_varint(bytes)?;
    out.extend_from_slice(&u16::try_from(depth).ok()?.to_le_bytes());
    Some(at + records.read(&bytes[at..], out)?)
}

/// Records a block's fingerprints are computed ahead of the one handed
/// on: [`read_blocks`] passes the fingerprint that many records later, so
/// that its seen set's line can be fetched in time.
pub(super) const READ_AHEAD: usize = 16;

/// Calls `f` with every record (fingerprint, record, and the fingerprint
/// of the record [`READ_AHEAD`] places later in the block, if any) of the
/// blocks of `info` that hold part `part` of `layer`, in the order
/// written, the fingerprints computed by `fingerprint`; the file is read
/// from `memory` if it is there.
#[allow(clippy::too_many_arguments)]
pub(super) fn read_blocks(
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
    let fps = memory.and_then(|m| m.get_fps(name));
    let mut buffers = READ_BUFFERS.take();
    let result = read_blocks_with(
        &mut buffers,
        &path,
        base,
        in_memory.as_deref().map(Vec::as_slice),
        fps.as_deref().map(Vec::as_slice),
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
pub(super) fn read_blocks_with(
    buffers: &mut ReadBuffers,
    path: &Path,
    base: u64,
    in_memory: Option<&[u8]>,
    fps: Option<&[u128]>,
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
    // The fingerprints kept beside the file in memory, if any: those of
    // the block are at `first`, after those of the blocks before it.
    let fps = fps.filter(|fps| {
        fps.len() as u64 == info.blocks.iter().map(|b| u64::from(b.count)).sum::<u64>()
    });
    let mut first = 0;
    for block in &info.blocks {
        let kept = fps.map(|fps| &fps[first..first + block.count as usize]);
        first += block.count as usize;
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
        decompress_block(packed, block.raw as usize, raw).map_err(io_error(path))?;
        let mut at = 0;
        decoded.clear();
        found.clear();
        while at < raw.len() {
            let start = decoded.len();
            at += read_file_record(records, &raw[at..], decoded)
                .ok_or_else(|| damaged(path, "a record out of shape"))?;
            let fp = match kept.and_then(|kept| kept.get(found.len())) {
                Some(&fp) => {
                    debug_assert_eq!(fp, records.fingerprint_of(&decoded[start + 2..]));
                    fp
                }
                None => records.fingerprint_of(&decoded[start + 2..]),
            };
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

/// Calls `f` with `raw` packed by Zstandard at [`FILE_LEVEL`] (in the
/// thread's buffer, with its context), and returns what it returns. The
/// output files may wait on the disk for many rounds; Spider's compact
/// records unpack at about 1.2 GB/s on this machine.
pub(super) fn with_compressed<T>(
    raw: &[u8],
    f: impl FnOnce(&[u8]) -> Result<T, CheckpointError>,
) -> Result<T, CheckpointError> {
    let mut packed = FILE_BUFFER.take();
    let len = FILE_ZSTD.with_borrow_mut(|(compressor, _)| {
        packed.clear();
        packed.reserve(zstd::zstd_safe::compress_bound(raw.len()));
        compressor
            .get_or_insert_with(|| {
                zstd::bulk::Compressor::new(FILE_LEVEL).expect("a compression context")
            })
            .compress_to_buffer(raw, &mut packed)
            .expect("room for the worst case")
    });
    let result = f(&packed[..len]);
    FILE_BUFFER.set(packed);
    result
}

/// Unpacks `packed`, of `raw` bytes packed by [`with_compressed`], into
/// `out`.
pub(super) fn decompress_block(
    packed: &[u8],
    raw: usize,
    out: &mut Vec<u8>,
) -> std::io::Result<()> {
    let bad = |what: String| std::io::Error::new(std::io::ErrorKind::InvalidData, what);
    let len = FILE_ZSTD.with_borrow_mut(|(_, decompressor)| {
        out.clear();
        out.reserve(raw);
        decompressor
            .get_or_insert_with(|| {
                zstd::bulk::Decompressor::new().expect("a decompression context")
            })
            .decompress_to_buffer(packed, out)
    })?;
    if len != raw {
        return Err(bad(format!("a block of {len} bytes, not {raw}")));
    }
    out.truncate(len);
    Ok(())
}

/// Writes `run` to `path` (whole or not at all: a file beside it, renamed
/// once written); its bytes.
pub(super) fn write_run(path: &Path, run: &Run) -> Result<u64, CheckpointError> {
    write_file_atomically(path, |out| run.write_to(out))?;
    Ok(fs::metadata(path).map_err(io_error(path))?.len())
}
