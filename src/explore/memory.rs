//! A guard on the machine's free memory.
//!
//! A search's memory limit (`Limits::max_memory`) holds its own estimate
//! of what it uses. That cannot see other programs, nor memory the
//! estimate does not count, and when the machine runs out the operating
//! system kills the process: no report, no verdict, nothing saved. So
//! every search also stops, as on its memory limit, when the memory the
//! machine still has available falls below a floor ([`machine_low`]):
//! 5 % of the machine's memory, at least 256 MiB, or the number of bytes
//! in the environment variable `SPIDER_MEMORY_FLOOR`.
//!
//! The available memory is what Linux reports as `MemAvailable` in
//! `/proc/meminfo`, and, inside a control group with a memory limit, at
//! most what that limit leaves. Elsewhere (no `/proc`), the guard never
//! fires.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// How often the machine's memory is read again; in between,
/// [`machine_low`] answers from the last reading.
const READ_EVERY: Duration = Duration::from_millis(100);

/// When the last reading was taken, in milliseconds since [`epoch`], plus
/// one (0: never).
static LAST_READ: AtomicU64 = AtomicU64::new(0);
/// The last reading's answer.
static LOW: AtomicBool = AtomicBool::new(false);

fn epoch() -> Instant {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    *EPOCH.get_or_init(Instant::now)
}

/// Whether the machine's available memory is below the floor, so that a
/// search should stop now. Cheap: it reads the operating system's figures
/// at most every 100 ms, from whichever thread asks first.
pub fn machine_low() -> bool {
    let now = epoch().elapsed().as_millis() as u64 + 1;
    let last = LAST_READ.load(Ordering::Relaxed);
    if last != 0 && now.saturating_sub(last) < READ_EVERY.as_millis() as u64 {
        return LOW.load(Ordering::Relaxed);
    }
    if LAST_READ
        .compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed)
        .is_err()
    {
        // Another thread is reading.
        return LOW.load(Ordering::Relaxed);
    }
    let low = match (available(), floor()) {
        (Some(available), Some(floor)) => available < floor,
        _ => false,
    };
    LOW.store(low, Ordering::Relaxed);
    low
}

/// The largest block glibc's allocator takes from its heaps; every block
/// above it gets a mapping of its own, given back whole when freed.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const OWN_MAPPING_FROM: i32 = 1 << 20;

/// Makes the allocator give the memory of large freed blocks back to the
/// operating system at once, so that what the process holds (its resident
/// memory, what the machine and a memory limit see) stays near what the
/// search holds. Call it once, before the work starts; the binary does.
///
/// Why: glibc's `malloc` gives a block of more than 128 KiB a mapping of
/// its own, returned on `free`, but after such a block is freed it raises
/// that threshold to the block's size (up to 32 MiB), so that later blocks
/// of a few megabytes come from its heaps, whose freed memory goes back
/// only from the top. The search on disk allocates and frees such blocks
/// all the time (a part's seen table as it grows, the runs and candidates
/// of a look-up, the merges), and the holes they left stayed resident: on
/// `r1-g5004`'s last stage (280 M positions, `--disk-seen-memory 512M`,
/// one thread) 2.52 GB at most against 1.85 GB with the threshold held at
/// 128 KiB. Held there, every block of a quarter megabyte (the files'
/// blocks, a frontier's) took fresh pages: 12 times the page faults and
/// 2.4 times the system time. Held at 1 MiB, those stay in the heaps, where
/// they are used again, and what is larger is mapped (`docs/engine.md`,
/// *Seen sets past their budget*). Setting it also turns the raising off.
/// Elsewhere this does nothing.
pub fn give_freed_memory_back() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `mallopt` only sets a parameter of the allocator; glibc takes
    // its own lock, and any value is valid for `M_MMAP_THRESHOLD` up to
    // 32 MiB.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, OWN_MAPPING_FROM);
    }
}

/// Gives the pages of the memory freed so far back to the operating
/// system, wherever they lie in the allocator's heaps (glibc's
/// `malloc_trim`); cheap next to a round of the search on disk, which
/// calls it after each. Elsewhere this does nothing.
pub fn trim_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `malloc_trim` only hands free pages of the allocator's own
    // heaps back to the system (under its lock); no live block is touched.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// The free memory below which searches stop: `SPIDER_MEMORY_FLOOR` bytes,
/// or 5 % of the machine's memory and at least 256 MiB.
fn floor() -> Option<u64> {
    static FLOOR: OnceLock<Option<u64>> = OnceLock::new();
    *FLOOR.get_or_init(|| {
        if let Some(bytes) = std::env::var("SPIDER_MEMORY_FLOOR")
            .ok()
            .and_then(|text| text.trim().parse().ok())
        {
            return Some(bytes);
        }
        let total = machine_total()?;
        Some((total / 20).max(256 << 20))
    })
}

/// The memory still available to this process: the machine's, and at most
/// what its control group's limit leaves.
fn available() -> Option<u64> {
    let machine = meminfo("MemAvailable:")?;
    Some(match group_room() {
        Some(room) => machine.min(room),
        None => machine,
    })
}

/// The machine's memory in bytes (`MemTotal` of `/proc/meminfo`), where
/// it can be read.
pub fn machine_total() -> Option<u64> {
    meminfo("MemTotal:")
}

/// One figure of `/proc/meminfo`, in bytes.
fn meminfo(field: &str) -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|line| line.starts_with(field))?;
    let kib: u64 = line[field.len()..]
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    kib.checked_mul(1024)
}

/// What the memory limit of this process's control group leaves, when it
/// has one (cgroup v2, then v1). The group's usage counts the page cache,
/// which the system takes back before it kills anything, so the inactive
/// part of the file cache counts as room (as `docker stats` does).
fn group_room() -> Option<u64> {
    let read = |path: &str| -> Option<u64> {
        std::fs::read_to_string(path)
            .ok()?
            .trim()
            .parse::<u64>()
            .ok()
    };
    let stat = |path: &str, field: &str| -> u64 {
        std::fs::read_to_string(path)
            .ok()
            .and_then(|text| {
                text.lines()
                    .find_map(|line| line.strip_prefix(field)?.trim().parse().ok())
            })
            .unwrap_or(0)
    };
    let (limit, used, cache) = match read("/sys/fs/cgroup/memory.max") {
        Some(limit) => (
            limit,
            read("/sys/fs/cgroup/memory.current")?,
            stat("/sys/fs/cgroup/memory.stat", "inactive_file "),
        ),
        None => (
            read("/sys/fs/cgroup/memory/memory.limit_in_bytes")?,
            read("/sys/fs/cgroup/memory/memory.usage_in_bytes")?,
            stat("/sys/fs/cgroup/memory/memory.stat", "total_inactive_file "),
        ),
    };
    // An unlimited group reports "max" (v2, not a number) or a huge number
    // (v1).
    (limit < 1 << 60).then(|| limit.saturating_sub(used.saturating_sub(cache)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// This process's resident memory, from `/proc/self/statm`.
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    fn resident() -> u64 {
        let statm = std::fs::read_to_string("/proc/self/statm").expect("/proc/self/statm");
        let pages: u64 = statm.split_whitespace().nth(1).unwrap().parse().unwrap();
        // SAFETY: `sysconf` reads a constant of the system.
        let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
        pages * page as u64
    }

    #[test]
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    fn large_blocks_freed_go_back_to_the_system() {
        give_freed_memory_back();
        // A block of 2 MiB freed: without the setting, glibc would now
        // take blocks of that size from its heap.
        drop(std::hint::black_box(vec![1u8; 2 << 20]));
        // 80 MiB freed below a live block. The other tests of this process
        // allocate meanwhile and move the resident size (CI saw 57 MiB of
        // the 80 come back while they ran), so half of it is asked for, in
        // one of three tries: without the setting no try gives anything
        // back (the blocks stay in the heap, below `keep`).
        let mut seen = Vec::new();
        for _ in 0..3 {
            let blocks: Vec<Vec<u8>> = (0..40).map(|i| vec![i as u8 + 1; 2 << 20]).collect();
            let keep = std::hint::black_box(vec![7u8; 4096]);
            let full = resident();
            drop(std::hint::black_box(blocks));
            let after = resident();
            assert_eq!(keep[0], 7);
            if full.saturating_sub(after) >= 40 << 20 {
                return;
            }
            seen.push((full, after));
        }
        panic!("resident bytes with the blocks and after freeing them, in each try: {seen:?}");
    }

    #[test]
    fn the_machine_figures_are_read() {
        if std::path::Path::new("/proc/meminfo").exists() {
            let total = meminfo("MemTotal:").expect("MemTotal is in /proc/meminfo");
            let available = available().expect("MemAvailable is in /proc/meminfo");
            assert!(total > 0 && available <= total);
        }
    }
}
