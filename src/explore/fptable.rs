//! Sets of fingerprints: the one table every search of the project
//! deduplicates in.
//!
//! A state is stored as its fingerprint, already the output of a good hash,
//! in open addressing over cache lines: a lookup touches one line (one cache
//! miss, which [`FpSet::prefetch`] can start ahead of time), never a
//! separate control array. 0 marks an empty slot, so the fingerprint 0 is
//! stored as 1. A fingerprint's home line comes from its high bits scaled
//! to the number of lines (which need not be a power of two); a probe scans
//! that line, then the next ones, until it meets the fingerprint or an
//! empty slot.
//!
//! Two flavours share the code: [`FpTable`], 128-bit fingerprints four to a
//! line, filled to 95 % and grown by 18 % (the exact search, where memory
//! is the wall), and [`KeySet`], 64-bit keys eight to a line, filled to
//! 80 % and doubled (the guided passes, where a collision only skips a
//! position and time is what counts).

use std::mem::size_of;

/// A fingerprint type: its empty value and the bits its home comes from.
pub trait Fingerprint: Copy + Eq + Default + Ord + From<u8> {
    /// A cache line of slots.
    type Line: Copy + Default + AsRef<[Self]> + AsMut<[Self]>;
    /// 64 well-mixed bits of the fingerprint.
    fn home_bits(self) -> u64;
}

/// `N` slots in one cache line.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
pub struct Line<T, const N: usize>([T; N]);

impl<T: Copy + Default, const N: usize> Default for Line<T, N> {
    fn default() -> Self {
        Line([T::default(); N])
    }
}

impl<T, const N: usize> AsRef<[T]> for Line<T, N> {
    fn as_ref(&self) -> &[T] {
        &self.0
    }
}

impl<T, const N: usize> AsMut<[T]> for Line<T, N> {
    fn as_mut(&mut self) -> &mut [T] {
        &mut self.0
    }
}

impl Fingerprint for u128 {
    type Line = Line<u128, 4>;
    fn home_bits(self) -> u64 {
        (self >> 56) as u64
    }
}

impl Fingerprint for u64 {
    type Line = Line<u64, 8>;
    fn home_bits(self) -> u64 {
        self
    }
}

/// A set of fingerprints (see the module docs).
pub struct FpSet<K: Fingerprint> {
    lines: Vec<K::Line>,
    len: usize,
    /// Grow when an insert would fill more than this share of the slots.
    max_load: f64,
    /// The most fingerprints the lines hold before they grow: `max_load`
    /// of their slots, kept so that an insert does not compute it.
    limit: usize,
    /// Then multiply the lines by this.
    growth: f64,
}

/// The exact search's table of 128-bit fingerprints. At most 95 % full, then
/// grown by 18 %, it holds 16 / 0.95 to 16 × 1.18 / 0.95 bytes per
/// fingerprint: 16.8 to 19.9, never more than 20 once it holds a few
/// hundred (a test checks it after every insert). Measured against 90 %
/// full and grown by a fifth (17.8 to 21.3 bytes): no slower (`graph
/// deals/unwon-2017.yaml --stage 1 --count -j 1`, three runs each in turn,
/// median 17.0 CPU seconds now against 17.3 before; the first 4.1 M
/// positions of `r1-g5010`'s proof, 19.3 s against 20.1 s). Grown by an
/// eighth instead (at 90 %), it cost 7 %: eight re-insertions of everything
/// where this needs five and a half.
pub type FpTable = FpSet<u128>;

/// The guided passes' visited set of 64-bit keys: at most 80 % full, then
/// doubled (about two re-insertions of everything, against five and a half
/// for [`FpTable`]'s growth), 10 to 20 bytes a key. Fuller, the probes for
/// keys not in the set grow long: at 90 % the beams ran 6-10 % slower on
/// PySol 950's first 12 M positions than with hashbrown's set.
pub type KeySet = FpSet<u64>;

impl Default for FpSet<u128> {
    fn default() -> Self {
        FpSet::with_growth(0.95, 1.18)
    }
}

impl Default for FpSet<u64> {
    fn default() -> Self {
        FpSet::with_growth(0.80, 2.0)
    }
}

impl<K: Fingerprint> FpSet<K> {
    /// An empty set that grows by `growth` once more than `max_load` of its
    /// slots would be taken.
    pub fn with_growth(max_load: f64, growth: f64) -> Self {
        debug_assert!(max_load > 0.0 && max_load < 1.0 && growth > 1.0);
        FpSet {
            lines: Vec::new(),
            len: 0,
            max_load,
            limit: 0,
            growth,
        }
    }

    fn slots_per_line() -> usize {
        size_of::<K::Line>() / size_of::<K>()
    }

    /// Fingerprints held.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bytes held.
    pub fn bytes(&self) -> u64 {
        (self.lines.len() * size_of::<K::Line>()) as u64
    }

    #[inline]
    fn home(&self, fp: K) -> usize {
        ((fp.home_bits() as u128 * self.lines.len() as u128) >> 64) as usize
    }

    /// Asks the processor to fetch `fp`'s home line into the cache.
    #[inline]
    pub fn prefetch(&self, fp: K) {
        #[cfg(target_arch = "x86_64")]
        if !self.lines.is_empty() {
            let line = &self.lines[self.home(fp.max(K::from(1)))] as *const K::Line as *const i8;
            // SAFETY: a prefetch is only a hint; the address is in bounds.
            unsafe { std::arch::x86_64::_mm_prefetch(line, std::arch::x86_64::_MM_HINT_T0) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = fp;
    }

    /// Whether `fp` is in the set.
    #[inline]
    pub fn contains(&self, fp: K) -> bool {
        if self.lines.is_empty() {
            return false;
        }
        let fp = fp.max(K::from(1));
        let empty = K::default();
        let mut i = self.home(fp);
        loop {
            for &slot in self.lines[i].as_ref() {
                if slot == fp {
                    return true;
                }
                if slot == empty {
                    return false;
                }
            }
            i += 1;
            if i == self.lines.len() {
                i = 0;
            }
        }
    }

    /// Empties the set, keeping its lines.
    pub fn clear(&mut self) {
        self.lines.fill(K::Line::default());
        self.len = 0;
    }

    /// Inserts `fp`; `false` if it was already there.
    pub fn insert(&mut self, fp: K) -> bool {
        if self.len >= self.limit {
            self.grow();
        }
        let fp = fp.max(K::from(1));
        let empty = K::default();
        let mut i = self.home(fp);
        loop {
            for slot in self.lines[i].as_mut() {
                if *slot == fp {
                    return false;
                }
                if *slot == empty {
                    *slot = fp;
                    self.len += 1;
                    return true;
                }
            }
            i += 1;
            if i == self.lines.len() {
                i = 0;
            }
        }
    }

    /// Multiplies the lines by `growth` and puts every fingerprint back.
    ///
    /// The old lines are read in order and a fingerprint's home only grows
    /// with its high bits, so the new lines are written nearly in order:
    /// each fingerprint goes to the first empty slot from its home, without
    /// the duplicate test and the load test of [`insert`](Self::insert)
    /// (the fingerprints are distinct, and the new lines have room for all).
    /// Measured on `graph deals/unwon-2017.yaml --stage 1 --count -j 1`
    /// (2026-11-26, three runs each in turn): 8.04 CPU seconds (median)
    /// against 8.27 with `insert` and its tests. Growth itself costs more:
    /// with the lines doubled instead the same run took 6.9 s against 8.1,
    /// but at 32.6 bytes a fingerprint, over the 20 of [`FpTable`].
    fn grow(&mut self) {
        let lines = ((self.lines.len() as f64 * self.growth) as usize).max(self.lines.len() + 1);
        let old = std::mem::replace(&mut self.lines, new_lines::<K>(lines));
        self.limit = ((lines * Self::slots_per_line()) as f64 * self.max_load) as usize;
        let empty = K::default();
        for line in &old {
            for &fp in line.as_ref() {
                if fp == empty {
                    break;
                }
                let mut i = self.home(fp);
                'placed: loop {
                    for slot in self.lines[i].as_mut() {
                        if *slot == empty {
                            *slot = fp;
                            break 'placed;
                        }
                    }
                    i += 1;
                    if i == lines {
                        i = 0;
                    }
                }
            }
        }
    }
}

/// A huge page (Linux, x86-64): 2 MiB.
const HUGE_PAGE: usize = 2 << 20;

/// `n` empty lines; on Linux, those of a table of a huge page or more are
/// asked for in huge pages (`madvise`, the whole huge pages inside the
/// allocation; the kernel gives them only when asked, where transparent
/// huge pages are set to `madvise`, as on this machine). A lookup that
/// misses the cache in a large table misses the TLB too, and a huge page
/// covers 512 times the lines of a small one. Measured on the search on
/// disk (`graph deals/unwon-2017.yaml --stage 1 --count -j 1 --disk DIR`,
/// whose seen sets reach 3 MiB a part; 2026-11-29, three runs each in
/// turn): 16.9 s of CPU against 17.3 s (median), the same counts. The
/// in-memory search's 256 shards are each below a huge page there; they
/// pass it from about half a gigabyte of table.
fn new_lines<K: Fingerprint>(n: usize) -> Vec<K::Line> {
    let bytes = n * size_of::<K::Line>();
    if bytes < HUGE_PAGE {
        return vec![K::Line::default(); n];
    }
    let mut lines: Vec<K::Line> = Vec::with_capacity(n);
    #[cfg(target_os = "linux")]
    {
        let start = lines.as_mut_ptr() as usize;
        let from = start.next_multiple_of(HUGE_PAGE);
        let to = (start + bytes) / HUGE_PAGE * HUGE_PAGE;
        if to > from {
            // SAFETY: the range lies inside the allocation just made, and
            // the advice changes how its pages are backed, not its
            // contents. Its result is only advice: ignored.
            unsafe {
                libc::madvise(from as *mut libc::c_void, to - from, libc::MADV_HUGEPAGE);
            }
        }
    }
    lines.resize(n, K::Line::default());
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Inserts `keys` (their index beside each) into `set` and into a hash
    /// set, checking that both answer alike (0 and 1 share a slot) and that
    /// `set` never holds more than `most_bytes` a key once it holds 500.
    fn keeps_every_key_once<K>(mut set: FpSet<K>, keys: Vec<K>, most_bytes: f64, absent: K)
    where
        K: Fingerprint + std::hash::Hash + std::fmt::Debug,
    {
        let mut reference = std::collections::HashSet::new();
        for (i, &key) in keys.iter().enumerate() {
            assert_eq!(
                set.insert(key),
                reference.insert(key.max(K::from(1))),
                "{i}"
            );
            if set.len() >= 500 {
                let per = set.bytes() as f64 / set.len() as f64;
                assert!(
                    per <= most_bytes + 1e-9,
                    "{per} bytes a key at {}",
                    set.len()
                );
            }
        }
        assert_eq!(set.len(), reference.len());
        assert!(reference.iter().all(|&key| set.contains(key)));
        assert!(!set.contains(absent));
    }

    /// Pseudo-random keys, with a few tiny and huge ones and repeats.
    fn keys<K>(
        n: u32,
        next: impl Fn(K) -> K,
        small: impl Fn(u32) -> K,
        big: impl Fn(u32) -> K,
    ) -> Vec<K>
    where
        K: Fingerprint,
    {
        let mut x = K::from(7);
        (0..n)
            .map(|i| {
                x = next(x);
                match i % 1000 {
                    0 => small(i / 1000 % 150),
                    1 => big(i / 1000 % 100),
                    2 => small(3),
                    _ => x,
                }
            })
            .collect()
    }

    /// Past about 110,000 fingerprints the lines pass a huge page, so the
    /// lines asked for in huge pages ([`new_lines`]) are tested too.
    #[test]
    fn the_table_keeps_every_fingerprint_once() {
        let keys = keys(
            200_000,
            |x: u128| {
                x.wrapping_mul(0x2545_f491_4f6c_dd1d_0000_0000_0000_0001)
                    .wrapping_add(0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c834)
            },
            u128::from,
            |i| u128::MAX - u128::from(i),
        );
        keeps_every_key_once(FpTable::default(), keys, 20.0, 12345678901234567890123);
    }

    /// The 64-bit flavour, within its 20 bytes a key.
    #[test]
    fn the_key_set_keeps_every_key_once() {
        let keys = keys(
            300_000,
            |x: u64| {
                x.wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407)
            },
            u64::from,
            |i| u64::MAX - u64::from(i),
        );
        keeps_every_key_once(KeySet::default(), keys, 20.0, 0x1234_5678_9abc_def0);
    }
}
