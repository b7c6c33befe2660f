//! Where waiting states are packed: arenas of chunks, compressed past a
//! threshold and thawed before they are read, and the pending layers' buckets.

use crate::explore::fptable::FpTable;

/// The most bytes a record is expected to take: a Spider position with
/// every card face up (22 + 104), its reveals, the move back and the
/// depth.
pub(super) const RECORD_ROOM: usize = 160;

/// Zstandard contexts of a thread and room for one compressed chunk (see
/// [`Arena::compact`]).
pub(super) type ZstdScratch = (
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
pub(super) const ZSTD_LEVEL: i32 = 2;

/// Bytes in a full chunk of an [`Arena`] (4 KiB in the unit tests, so
/// that small searches fill, compress and free many chunks).
pub(super) const CHUNK: usize = if cfg!(test) { 1 << 12 } else { 1 << 18 };

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
pub(super) struct Arena {
    pub(super) chunks: Vec<Vec<u8>>,
    /// Zstandard frames of the chunks compressed (empty where a chunk is
    /// not).
    pub(super) packed: Vec<Box<[u8]>>,
    /// The chunks below this one are compressed or freed.
    pub(super) compacted: usize,
    /// Where each record ends, as an offset in which chunk `k` starts at
    /// `k * CHUNK` (see [`Arena::slice`]).
    pub(super) ends: Vec<u32>,
}

impl Arena {
    pub(super) fn len(&self) -> usize {
        self.ends.len()
    }

    pub(super) fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    pub(super) fn get(&self, i: usize) -> &[u8] {
        self.get_at(i).1
    }

    /// Record `i` and its offset (for [`Arena::slice`]).
    pub(super) fn get_at(&self, i: usize) -> (usize, &[u8]) {
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
    pub(super) fn slice(&self, offset: usize, len: usize) -> &[u8] {
        if len == 0 {
            return &[];
        }
        let within = offset % CHUNK;
        &self.chunks[offset / CHUNK][within..within + len]
    }

    /// The offset the next record would start at, if it fits in the last
    /// chunk.
    pub(super) fn end(&self) -> usize {
        self.chunks
            .last()
            .map_or(0, |last| (self.chunks.len() - 1) * CHUNK + last.len())
    }

    /// Asks the processor to fetch the start of the record at `offset`.
    #[inline]
    pub(super) fn prefetch(&self, offset: usize) {
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

    pub(super) fn push(&mut self, record: &[u8]) {
        self.push_with(|bytes| bytes.extend_from_slice(record));
    }

    /// Appends the record `write` writes (room is made for
    /// [`RECORD_ROOM`] bytes; a longer one moves to a chunk of its own).
    ///
    /// # Panics
    /// If a record is longer than a chunk.
    pub(super) fn push_with(&mut self, write: impl FnOnce(&mut Vec<u8>)) {
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
    pub(super) fn make_room(&mut self, bytes: usize) {
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

    pub(super) fn bytes(&self) -> u64 {
        (self.chunks.iter().map(Vec::capacity).sum::<usize>()
            + self.packed.iter().map(|p| p.len()).sum::<usize>()
            + self.ends.capacity() * 4) as u64
    }

    /// Where record `i` starts (as [`Arena::get_at`] gives it), without
    /// reading it.
    pub(super) fn start_of(&self, i: usize) -> usize {
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
    pub(super) fn compact(&mut self) {
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
    pub(super) fn thaw(&mut self, from: usize, to: usize) {
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
    pub(super) fn free_before(&mut self, i: usize) {
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
pub(super) struct Bucket {
    pub(super) table: FpTable,
    pub(super) arena: Arena,
    /// States that came from another whole layer
    /// ([`LayerStats::entries_across`]).
    pub(super) across: u64,
}

impl Bucket {
    /// Adds the state unless it is already there; whether it was new.
    pub(super) fn push(&mut self, fp: u128, record: &[u8]) -> bool {
        let new = self.table.insert(fp);
        if new {
            self.arena.push(record);
        }
        new
    }
}

// ---------------------------------------------------------------------------
// Checkpoint files.
