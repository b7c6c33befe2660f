//! Rounds past the memory limit run split.

use super::*;

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
    let split = fan.on_disk(crate::scratch::scratch_dir().path(), limited);
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
    let dir = crate::scratch::scratch_dir();
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
        serde_json::from_slice(&fs::read(dir.path().join("disk-manifest.json")).unwrap()).unwrap();
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
/// states met again many rounds later are found on disk. The quick run
/// takes three settings and two threads for the states met again;
/// [`split_rounds_count_what_the_search_in_memory_counts_in_every_setting`]
/// five, and one thread and two.
#[test]
fn split_rounds_count_what_the_search_in_memory_counts() {
    split_rounds_counted(
        &[(None, 1, u64::MAX), (Some(0), 2, u64::MAX), (None, 2, 16)],
        &[2],
    );
}

#[test]
#[ignore = "slow: runs with `cargo test -- --ignored` (CI runs it)"]
fn split_rounds_count_what_the_search_in_memory_counts_in_every_setting() {
    split_rounds_counted(
        &[
            (None, 1, u64::MAX),
            (None, 2, u64::MAX),
            (Some(0), 2, u64::MAX),
            (Some(4 << 10), 1, 16),
            (None, 2, 16),
        ],
        &[1, 2],
    );
}

/// [`split_rounds_count_what_the_search_in_memory_counts`] for [`Walk`]
/// in each of `settings` (the memory budget, the threads, and the growth
/// rounds split from as a share, 1/n, of the largest table of the search
/// in memory: `u64::MAX` is 1 byte), and for [`Jumps`] on each of
/// `jumps_threads`.
fn split_rounds_counted(settings: &[(Option<u64>, usize, u64)], jumps_threads: &[usize]) {
    let memory = Layered::new(&Walk).stop(Stop::Exhaust).run().unwrap();
    for &(budget, jobs, share) in settings {
        let from = (memory.stats.peak_table_bytes / share).max(1);
        let dir = crate::scratch::scratch_dir();
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
    for &jobs in jumps_threads {
        let dir = crate::scratch::scratch_dir();
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
