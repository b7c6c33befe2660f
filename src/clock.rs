//! The CPU time the calling thread has used, for the figures that the
//! issues ask in CPU seconds (a blind game's cost) on a machine shared with
//! other work, where wall seconds overstate it.

/// Seconds of CPU the calling thread has used so far (user and system),
/// from the operating system's per-thread clock (`CLOCK_THREAD_CPUTIME_ID`,
/// nanoseconds). `None` where the clock cannot be read.
///
/// A difference of two readings on the same thread is the CPU that thread
/// spent between them, whatever else the machine runs; work the thread hands
/// to other threads (a parallel solve) is not in it.
#[cfg(unix)]
pub fn thread_cpu_seconds() -> Option<f64> {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `clock_gettime` writes one `timespec` through the pointer,
    // which points to a live, properly aligned local; it reads nothing else.
    let status = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) };
    (status == 0).then_some(now.tv_sec as f64 + now.tv_nsec as f64 * 1e-9)
}

/// Seconds of CPU the calling thread has used: not read on this system.
#[cfg(not(unix))]
pub fn thread_cpu_seconds() -> Option<f64> {
    None
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn the_thread_clock_counts_work_and_not_sleep() {
        let start = thread_cpu_seconds().expect("the thread clock");
        std::thread::sleep(std::time::Duration::from_millis(200));
        let slept = thread_cpu_seconds().unwrap() - start;
        assert!(slept < 0.1, "asleep the thread spent {slept} s of CPU");
        // Some work: the clock must move, and never backwards.
        let mut x = 0u64;
        let before = thread_cpu_seconds().unwrap();
        while thread_cpu_seconds().unwrap() - before < 0.05 {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
        }
        std::hint::black_box(x);
        assert!(thread_cpu_seconds().unwrap() >= before + 0.05);
    }
}
