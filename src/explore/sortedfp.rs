//! A compact, sorted set of 128-bit fingerprints: the disk-backed layered
//! search ([`super::layered`] with a disk directory) writes each round's
//! new states as a [`Run`] for a resumed search to read back (its seen
//! sets in memory are tables: looking successors up one by one here cost
//! a block's decoding each).
//!
//! The set is built from sorted runs, each written once and never changed:
//! fingerprints in blocks of [`BLOCK`], a block's first fingerprint kept
//! whole in an index and the gaps to the next ones bit-packed at the width
//! of the block's largest gap. Fingerprints are good hashes, so in a set of
//! `n` the gaps are about `2^128 / n` and a fingerprint takes about
//! `128 - log2(n) + 2.5` bits, plus 0.4 bytes of index: 14.3 bytes a
//! fingerprint for a million, 12.8 for a billion (an open-addressing
//! [`super::fptable::FpTable`] takes 16.8 to 19.9). No fingerprint is ever
//! shortened, so the set answers exactly what a table would.
//!
//! Lookups come in bulk and sorted (the search removes duplicates in bulk):
//! [`SortedFps::retain_new`] walks the candidates and the runs together,
//! decoding a block only where a candidate falls. New fingerprints join as
//! a run of their own; runs of similar size are merged (as in a
//! log-structured merge tree), so a set holds a few dozen runs at most and
//! each fingerprint is re-encoded about `log2(n)` times over its life.

use std::io::{Read, Write};

/// Fingerprints in a block.
pub const BLOCK: usize = 64;

/// One sorted run: blocks of [`BLOCK`] fingerprints.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Run {
    /// The first fingerprint of each block.
    firsts: Vec<u128>,
    /// Where each block's gaps start in `data`.
    offsets: Vec<u64>,
    /// Per block: the width in bits of its gaps (one byte), then the
    /// `len - 1` gaps, bit-packed, least significant bits first.
    data: Vec<u8>,
    len: usize,
}

impl Run {
    /// A run of `fps`, which must be sorted and distinct.
    ///
    /// # Panics
    /// In debug builds, if they are not.
    pub fn from_sorted(fps: &[u128]) -> Run {
        debug_assert!(fps.windows(2).all(|w| w[0] < w[1]), "sorted and distinct");
        let blocks = fps.len().div_ceil(BLOCK);
        let mut run = Run {
            firsts: Vec::with_capacity(blocks),
            offsets: Vec::with_capacity(blocks),
            data: Vec::new(),
            len: fps.len(),
        };
        for block in fps.chunks(BLOCK) {
            run.firsts.push(block[0]);
            run.offsets.push(run.data.len() as u64);
            let widest = block.windows(2).map(|w| w[1] - w[0]).max().unwrap_or(0);
            let width = 128 - widest.leading_zeros();
            run.data.push(width as u8);
            let mut bits = BitWriter::new(&mut run.data);
            for w in block.windows(2) {
                bits.write(w[1] - w[0], width);
            }
            bits.finish();
        }
        run.data.shrink_to_fit();
        run
    }

    /// Fingerprints in the run.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the run holds none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bytes the run takes in memory.
    pub fn bytes(&self) -> u64 {
        (self.firsts.capacity() * 16 + self.offsets.capacity() * 8 + self.data.capacity()) as u64
    }

    /// Block `k`'s fingerprints, into `out` (cleared first).
    fn decode(&self, k: usize, out: &mut Vec<u128>) {
        out.clear();
        let count = if k + 1 == self.firsts.len() {
            self.len - k * BLOCK
        } else {
            BLOCK
        };
        let at = self.offsets[k] as usize;
        let width = u32::from(self.data[at]);
        let mut bits = BitReader::new(&self.data[at + 1..]);
        let mut fp = self.firsts[k];
        out.push(fp);
        for _ in 1..count {
            fp += bits.read(width);
            out.push(fp);
        }
    }

    /// Sets `held[i]` for each `sorted[i]` in the run (`sorted` sorted,
    /// `held` as long; entries already set are not looked up), walking
    /// each block only as far as the largest candidate in it.
    pub fn mark_held(&self, sorted: &[u128], held: &mut [bool]) {
        debug_assert_eq!(sorted.len(), held.len());
        let Some(&first) = self.firsts.first() else {
            return;
        };
        let blocks = self.firsts.len();
        let start = sorted.partition_point(|&fp| fp < first);
        // The block being walked: its index, the fingerprint reached,
        // how many of its fingerprints are left, its gaps' reader.
        let mut k = usize::MAX;
        let mut at = 0u128;
        let mut left = 0usize;
        let mut width = 0u32;
        let mut bits = BitReader::new(&[]);
        for (&fp, held) in sorted[start..].iter().zip(&mut held[start..]) {
            if *held {
                continue;
            }
            // The last block whose first fingerprint is at most fp
            // (blocks only move forward: the candidates are sorted):
            // galloping from the block after the current one.
            let from = k.wrapping_add(1);
            if k == usize::MAX || (from < blocks && self.firsts[from] <= fp) {
                let (mut lo, mut step) = (from, 1);
                while lo + step < blocks && self.firsts[lo + step] <= fp {
                    lo += step;
                    step *= 2;
                }
                let hi = (lo + step).min(blocks);
                k = lo + self.firsts[lo..hi].partition_point(|&f| f <= fp) - 1;
                let offset = self.offsets[k] as usize;
                width = u32::from(self.data[offset]);
                bits = BitReader::new(&self.data[offset + 1..]);
                at = self.firsts[k];
                left = if k + 1 == blocks {
                    self.len - k * BLOCK - 1
                } else {
                    BLOCK - 1
                };
            }
            while at < fp && left > 0 {
                at += bits.read(width);
                left -= 1;
            }
            *held = at == fp;
        }
    }

    /// Every fingerprint, in order.
    pub fn to_vec(&self) -> Vec<u128> {
        let mut all = Vec::with_capacity(self.len);
        let mut block = Vec::with_capacity(BLOCK);
        for k in 0..self.firsts.len() {
            self.decode(k, &mut block);
            all.extend_from_slice(&block);
        }
        all
    }

    /// Writes the run (its encoded form, as held in memory).
    pub fn write_to(&self, out: &mut impl Write) -> std::io::Result<()> {
        out.write_all(b"SFPRUN01")?;
        for n in [self.len, self.firsts.len(), self.data.len()] {
            out.write_all(&(n as u64).to_le_bytes())?;
        }
        for fp in &self.firsts {
            out.write_all(&fp.to_le_bytes())?;
        }
        for offset in &self.offsets {
            out.write_all(&offset.to_le_bytes())?;
        }
        out.write_all(&self.data)
    }

    /// Reads a run [`write_to`](Run::write_to) wrote.
    pub fn read_from(input: &mut impl Read) -> std::io::Result<Run> {
        let damaged = || std::io::Error::new(std::io::ErrorKind::InvalidData, "not a run");
        let mut magic = [0u8; 8];
        input.read_exact(&mut magic)?;
        if &magic != b"SFPRUN01" {
            return Err(damaged());
        }
        let mut word = [0u8; 8];
        let mut next = |input: &mut dyn Read| -> std::io::Result<usize> {
            input.read_exact(&mut word)?;
            Ok(u64::from_le_bytes(word) as usize)
        };
        let (len, blocks, data_len) = (next(input)?, next(input)?, next(input)?);
        if blocks != len.div_ceil(BLOCK) || data_len > len * 17 + blocks {
            return Err(damaged());
        }
        let mut firsts = Vec::with_capacity(blocks);
        let mut buf = [0u8; 16];
        for _ in 0..blocks {
            input.read_exact(&mut buf)?;
            firsts.push(u128::from_le_bytes(buf));
        }
        let mut offsets = Vec::with_capacity(blocks);
        for _ in 0..blocks {
            offsets.push(next(input)? as u64);
        }
        let mut data = vec![0; data_len];
        input.read_exact(&mut data)?;
        if offsets.iter().any(|&o| o as usize >= data_len.max(1)) {
            return Err(damaged());
        }
        Ok(Run {
            firsts,
            offsets,
            data,
            len,
        })
    }
}

/// A set of fingerprints as sorted runs (see the module's documentation).
#[derive(Clone, Debug, Default)]
pub struct SortedFps {
    runs: Vec<Run>,
    len: usize,
}

impl SortedFps {
    /// Fingerprints in the set.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bytes the set takes in memory.
    pub fn bytes(&self) -> u64 {
        self.runs.iter().map(Run::bytes).sum()
    }

    /// The runs, newest last.
    pub fn runs(&self) -> &[Run] {
        &self.runs
    }

    /// Keeps in `candidates` (sorted, distinct) those not in the set.
    pub fn retain_new(&self, candidates: &mut Vec<u128>) {
        let mut block = Vec::with_capacity(BLOCK);
        for run in &self.runs {
            if candidates.is_empty() {
                return;
            }
            let mut decoded = usize::MAX;
            let mut k = 0;
            candidates.retain(|&fp| {
                // The last block whose first fingerprint is at most fp
                // (blocks only move forward: the candidates are sorted).
                if run.firsts.is_empty() || fp < run.firsts[0] {
                    return true;
                }
                if k + 1 < run.firsts.len() && run.firsts[k + 1] <= fp {
                    k += run.firsts[k + 1..].partition_point(|&f| f <= fp);
                }
                if decoded != k {
                    run.decode(k, &mut block);
                    decoded = k;
                }
                block.binary_search(&fp).is_err()
            });
        }
    }

    /// Sets `held[i]` for each `sorted[i]` in the set (`sorted` sorted,
    /// `held` as long; entries already set are not looked up). The runs
    /// are walked newest first, each block only as far as the largest
    /// candidate in it.
    pub fn mark_held(&self, sorted: &[u128], held: &mut [bool]) {
        for run in self.runs.iter().rev() {
            run.mark_held(sorted, held);
        }
    }

    /// Whether `fp` is in the set.
    pub fn contains(&self, fp: u128) -> bool {
        let mut one = vec![fp];
        self.retain_new(&mut one);
        one.is_empty()
    }

    /// Adds `fps` (sorted, distinct, none in the set yet) as a run, and
    /// merges runs of similar size.
    pub fn add_sorted(&mut self, fps: &[u128]) {
        if fps.is_empty() {
            return;
        }
        self.add_run(Run::from_sorted(fps));
    }

    /// Adds a run (none of its fingerprints in the set yet), and merges
    /// runs of similar size.
    pub fn add_run(&mut self, run: Run) {
        self.len += run.len();
        self.runs.push(run);
        while self.runs.len() >= 2 {
            let n = self.runs.len();
            if self.runs[n - 2].len() > 2 * self.runs[n - 1].len() && n < 24 {
                break;
            }
            let newer = self.runs.pop().expect("two runs").to_vec();
            let older = self.runs.pop().expect("two runs").to_vec();
            let mut merged = Vec::with_capacity(newer.len() + older.len());
            let (mut i, mut j) = (0, 0);
            while i < older.len() && j < newer.len() {
                if older[i] < newer[j] {
                    merged.push(older[i]);
                    i += 1;
                } else {
                    merged.push(newer[j]);
                    j += 1;
                }
            }
            merged.extend_from_slice(&older[i..]);
            merged.extend_from_slice(&newer[j..]);
            self.runs.push(Run::from_sorted(&merged));
        }
    }
}

/// Writes values of a given width, least significant bits first.
struct BitWriter<'a> {
    out: &'a mut Vec<u8>,
    acc: u128,
    bits: u32,
}

impl<'a> BitWriter<'a> {
    fn new(out: &'a mut Vec<u8>) -> Self {
        BitWriter {
            out,
            acc: 0,
            bits: 0,
        }
    }

    fn write(&mut self, value: u128, width: u32) {
        if width > 64 {
            self.write64(value as u64, 64);
            self.write64((value >> 64) as u64, width - 64);
        } else {
            self.write64(value as u64, width);
        }
    }

    fn write64(&mut self, value: u64, width: u32) {
        if width == 0 {
            return;
        }
        let value = if width == 64 {
            value
        } else {
            value & ((1 << width) - 1)
        };
        self.acc |= u128::from(value) << self.bits;
        self.bits += width;
        while self.bits >= 8 {
            self.out.push(self.acc as u8);
            self.acc >>= 8;
            self.bits -= 8;
        }
    }

    fn finish(self) {
        if self.bits > 0 {
            self.out.push(self.acc as u8);
        }
    }
}

/// Reads what [`BitWriter`] wrote.
struct BitReader<'a> {
    data: &'a [u8],
    /// The next bit to read.
    at: usize,
}

impl<'a> BitReader<'a> {
    fn new(data: &'a [u8]) -> Self {
        BitReader { data, at: 0 }
    }

    /// The next `width` bits (at most 128): the 17 bytes that hold them
    /// read at once, shifted into place.
    #[inline]
    fn read(&mut self, width: u32) -> u128 {
        let byte = self.at / 8;
        let shift = (self.at % 8) as u32;
        let (low, high) = match self.data.get(byte..byte + 17) {
            Some(bytes) => (
                u128::from_le_bytes(bytes[..16].try_into().expect("16 bytes")),
                bytes[16],
            ),
            None => {
                // Near the end: what is left, zero-padded.
                let mut bytes = [0u8; 17];
                let left = self.data.len().saturating_sub(byte).min(17);
                bytes[..left].copy_from_slice(&self.data[byte..byte + left]);
                (
                    u128::from_le_bytes(bytes[..16].try_into().expect("16 bytes")),
                    bytes[16],
                )
            }
        };
        let value = if shift == 0 {
            low
        } else {
            (low >> shift) | (u128::from(high) << (128 - shift))
        };
        self.at += width as usize;
        match width {
            0 => 0,
            128 => value,
            _ => value & ((1u128 << width) - 1),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn random_fps(n: usize, seed: u64, spread: u32) -> Vec<u128> {
        let mut x = seed;
        let mut fps: Vec<u128> = (0..n)
            .map(|_| {
                let mut next = || {
                    x = x
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    x
                };
                ((u128::from(next()) << 64) | u128::from(next())) >> spread
            })
            .collect();
        fps.sort_unstable();
        fps.dedup();
        fps
    }

    /// Every fingerprint added is found (looked up in bulk or marked in
    /// place), none other is, whatever the
    /// spread of the gaps (from dense to 128-bit wide), the runs merged
    /// along the way; a run reads back as written; the set takes the bytes
    /// the module's documentation says.
    #[test]
    fn a_sorted_set_finds_what_it_holds_and_nothing_else() {
        for spread in [0, 1, 60, 100, 120] {
            let all = random_fps(20_000, 7 + u64::from(spread), spread);
            let held: Vec<u128> = all
                .iter()
                .copied()
                .enumerate()
                .filter(|(i, _)| i % 3 != 0)
                .map(|(_, f)| f)
                .collect();
            let absent: Vec<u128> = all
                .iter()
                .copied()
                .enumerate()
                .filter(|(i, _)| i % 3 == 0)
                .map(|(_, f)| f)
                .collect();
            let mut set = SortedFps::default();
            for batch in held.chunks(997) {
                let mut new = batch.to_vec();
                set.retain_new(&mut new);
                assert_eq!(new, batch, "spread {spread}");
                set.add_sorted(batch);
            }
            assert_eq!(set.len(), held.len());
            assert!(set.runs().len() < 12, "{} runs", set.runs().len());
            let mut probe = all.clone();
            set.retain_new(&mut probe);
            assert_eq!(probe, absent, "spread {spread}");
            assert!(set.contains(held[17]) && !set.contains(absent[5]));
            // The same answers marked in place, for every candidate or a
            // sparse few.
            for stride in [1, 7, 1000] {
                let probe: Vec<u128> = all.iter().copied().step_by(stride).collect();
                let mut marked = vec![false; probe.len()];
                set.mark_held(&probe, &mut marked);
                for (k, (fp, marked)) in probe.iter().zip(&marked).enumerate() {
                    let i = k * stride;
                    assert_eq!(*marked, i % 3 != 0, "spread {spread}, {fp:x}");
                }
            }
            for run in set.runs() {
                let mut bytes = Vec::new();
                run.write_to(&mut bytes).unwrap();
                assert_eq!(&Run::read_from(&mut &bytes[..]).unwrap(), run);
            }
            if spread == 0 {
                // 13,333 fingerprints spread over 2^128: gaps of about
                // 2^114.3, so about 117 bits and 0.4 bytes of index.
                let per = set.bytes() as f64 / set.len() as f64;
                assert!((14.0..15.5).contains(&per), "{per} bytes a fingerprint");
            }
        }
    }
}
