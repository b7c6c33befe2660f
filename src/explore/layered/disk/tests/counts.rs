//! The search on disk counts what the search in memory counts.

use super::*;

/// A puzzle's search counts the same on disk as in memory, layer by
/// layer, on one thread or two, with the same goal at the same depth,
/// and leaves no file. At the default memory budget the frontiers stay
/// in memory and a task reads its inputs in one chunk; with a budget of
/// 4 KiB (64 bytes a part) small frontiers stay in memory and the rest
/// go to files, read back a chunk at a time, and a task reads its
/// inputs in chunks of 10 to 20 records (512 bytes or 1 KiB); with none,
/// every frontier goes to a file, and so does every output file, and
/// the inputs are read one record a chunk. The quick run takes each
/// budget, seen-set budget and thread count once;
/// [`the_search_on_disk_counts_what_the_search_in_memory_counts_in_every_setting`]
/// ten settings.
#[test]
fn the_search_on_disk_counts_what_the_search_in_memory_counts() {
    walk_on_disk_counted(&[
        (None, 1, None),
        (Some(4 << 10), 2, None),
        (Some(0), 2, None),
        (None, 2, Some(u64::MAX)),
        (Some(4 << 10), 1, Some(16)),
    ]);
}

#[test]
#[ignore = "slow: runs with `cargo test -- --ignored` (CI runs it)"]
fn the_search_on_disk_counts_what_the_search_in_memory_counts_in_every_setting() {
    walk_on_disk_counted(&[
        (None, 1, None),
        (None, 2, None),
        (Some(4 << 10), 1, None),
        (Some(4 << 10), 2, None),
        (Some(0), 2, None),
        (None, 1, Some(u64::MAX)),
        (None, 2, Some(u64::MAX)),
        (Some(4 << 10), 2, Some(u64::MAX)),
        (None, 2, Some(16)),
        (Some(4 << 10), 1, Some(16)),
    ]);
}

/// [`the_search_on_disk_counts_what_the_search_in_memory_counts`] in
/// each of `settings`: the memory budget, the threads, and the seen
/// sets' budget as a share (1/n) of the largest table of the search in
/// memory (`u64::MAX`: 1 byte).
fn walk_on_disk_counted(settings: &[(Option<u64>, usize, Option<u64>)]) {
    let memory = Layered::new(&Walk).stop(Stop::Exhaust).run().unwrap();
    assert!(memory.stats.layers.len() > 10 && memory.stats.goals == 1);
    assert!(memory.stats.layers.iter().any(|l| l.steps > 3));
    // The seen sets in memory, dropped after every round (a budget of
    // 1 byte: then every task looks its inputs up on disk first), or
    // now and then (a budget of a fraction of the largest table: the
    // rounds since the last drop in memory, the earlier ones on disk).
    for &(budget, jobs, share) in settings {
        let seen = share.map(|n| (memory.stats.peak_table_bytes / n).max(1));
        let dir = crate::scratch::scratch_dir();
        let mut search = Layered::new(&Walk).stop(Stop::Exhaust).jobs(Some(jobs));
        if let Some(budget) = budget {
            search = search.disk_memory(budget);
        }
        let options = DiskOptions {
            seen_memory: seen,
            ..on_disk(dir.path())
        };
        let disk = search.disk(options, "walk").run().unwrap();
        assert_eq!(disk.end, End::Exhausted);
        assert_eq!(
            figures(&disk.stats),
            figures(&memory.stats),
            "{budget:?}, {jobs} threads, seen sets of {seen:?} bytes"
        );
        // With a budget of 1 byte, dropped after every round of a layer
        // but its last (which finds nothing new); with a larger one,
        // some of the time.
        let steps: u64 = memory.stats.layers.iter().map(|l| u64::from(l.steps)).sum();
        match seen {
            None => assert_eq!(disk.stats.seen_dropped, 0),
            Some(1) => assert_eq!(disk.stats.seen_dropped, steps),
            Some(_) => assert!(
                (1..steps / 2).contains(&disk.stats.seen_dropped),
                "dropped {} times in {steps} rounds",
                disk.stats.seen_dropped
            ),
        }
        assert_eq!(
            disk.goal.unwrap().depth,
            memory.goal.as_ref().unwrap().depth
        );
        for sub in ["blocks", "frontier"] {
            let left = fs::read_dir(dir.path().join(sub)).map_or(0, |d| d.count());
            assert_eq!(left, 0, "{sub} ({budget:?}, {jobs} threads)");
        }
    }
}

#[test]
fn dropped_seen_sets_find_states_met_again_many_rounds_later() {
    let memory = Layered::new(&Jumps).stop(Stop::Exhaust).run().unwrap();
    let steps = u64::from(memory.stats.layers[0].steps);
    assert!(steps > 100, "{steps} rounds");
    let table = memory.stats.peak_table_bytes;
    for (share, jobs) in [(8, 1), (8, 2), (3, 2)] {
        let dir = crate::scratch::scratch_dir();
        let options = DiskOptions {
            seen_memory: Some(table / share),
            ..on_disk(dir.path())
        };
        let disk = Layered::new(&Jumps)
            .stop(Stop::Exhaust)
            .jobs(Some(jobs))
            .disk_memory(0)
            .disk(options, "jumps")
            .run()
            .unwrap();
        assert_eq!(
            figures(&disk.stats),
            figures(&memory.stats),
            "a budget of 1/{share} of the table, {jobs} threads"
        );
        let dropped = disk.stats.seen_dropped;
        assert!((2..steps / 2).contains(&dropped), "dropped {dropped} times");
        // The states found on disk are not added to the tables, which
        // grow by each round's new states alone: 8 drops at an eighth
        // of the table, 2 at a third. A build that added them dropped
        // the tables 11 and 3 times.
        let most = if share == 8 { 8 } else { 2 };
        assert!(
            dropped <= most,
            "dropped {dropped} times at 1/{share}, {jobs} threads"
        );
    }
}

/// Split layers count, per whole layer, the positions and the entries
/// from other whole layers that the search in whole layers counts as
/// its layers' positions and entries (PySol 3's proof, up to 30,000
/// positions), on disk as in memory: what the estimate of the positions
/// left reads (`solve::search::proof_progress`).
#[test]
fn split_layers_count_the_entries_of_whole_layers() {
    use crate::solve::exhaustive::ExhaustiveProblem;
    let deal = pysol::deal(3, Rules::Standard).unwrap();
    let game = Game::new(&deal).unwrap();
    let limits = Limits {
        max_positions: Some(30_000),
        ..Limits::default()
    };
    let whole = ExhaustiveProblem::new(&game);
    let memory = Layered::new(&whole)
        .stop(Stop::Exhaust)
        .limits(limits.clone())
        .run()
        .unwrap();
    // (whole layer, positions, entries from other whole layers), for
    // the whole layers finished (a later one begun).
    let per_whole = |stats: &LayeredStats| {
        let mut out: Vec<(u64, u64, u64)> = Vec::new();
        for l in &stats.layers {
            let key = whole.whole_layer(l.layer);
            let across = l.entries_across.expect("counted");
            match out.last_mut() {
                Some(last) if last.0 == key => {
                    last.1 += l.positions;
                    last.2 += across;
                }
                _ => out.push((key, l.positions, across)),
            }
        }
        out.pop();
        out
    };
    let reference: Vec<_> = memory
        .stats
        .layers
        .iter()
        .map(|l| (l.layer, l.positions, l.entries))
        .collect();
    let reference = &reference[..reference.len() - 1];
    assert_eq!(per_whole(&memory.stats), reference);
    assert!(reference.len() > 3, "{reference:?}");
    let split = ExhaustiveProblem::new(&game).split_layers(true);
    let in_memory = Layered::new(&split)
        .stop(Stop::Exhaust)
        .limits(limits.clone())
        .run()
        .unwrap();
    let dir = crate::scratch::scratch_dir();
    let from_disk = Layered::new(&split)
        .stop(Stop::Exhaust)
        .jobs(Some(2))
        .limits(limits)
        .disk(on_disk(dir.path()), "pysol 3 split")
        .run()
        .unwrap();
    for stats in [&in_memory.stats, &from_disk.stats] {
        assert!(stats.layers.len() > reference.len() + 3);
        // Some split layers had entries from their own whole layer.
        assert!(
            stats
                .layers
                .iter()
                .any(|l| l.entries_across.unwrap() < l.entries)
        );
        let counted = per_whole(stats);
        let common = counted.len().min(reference.len());
        assert!(common > 3);
        assert_eq!(counted[..common], reference[..common]);
        assert!(stats.queued_across <= stats.queued);
    }
}

/// A Spider stage search (50,810 positions in its first layer) counts
/// the same on disk as in memory, with the same leaves at the same
/// depths.
#[test]
#[ignore = "slow: runs with `cargo test -- --ignored` (CI runs it)"]
fn a_spider_stage_on_disk_counts_what_the_search_in_memory_counts() {
    let deal = pysol::deal(14934, Rules::Standard).unwrap();
    let game = Game::new(&deal).unwrap();
    let problem = StageProblem::new(&game, Scope::Stage(2));
    let leaves = |disk: Option<&Path>, seen: Option<u64>| {
        let mut leaves = Vec::new();
        let mut search = Layered::new(&problem)
            .stop(Stop::Exhaust)
            .jobs(Some(2))
            .on_leaf(|state, depth| {
                leaves.push((problem.fingerprint(state), depth));
                ControlFlow::Continue(())
            });
        if let Some(dir) = disk {
            let options = DiskOptions {
                seen_memory: seen,
                ..on_disk(dir)
            };
            search = search.disk(options, "stage");
        }
        let outcome = search.run().unwrap();
        leaves.sort_unstable();
        (figures(&outcome.stats), leaves)
    };
    let memory = leaves(None, None);
    assert_eq!(memory.0.1[0], 50_810);
    let dir = crate::scratch::scratch_dir();
    assert_eq!(leaves(Some(dir.path()), None), memory);
    // With the seen sets dropped after every round.
    let dir = crate::scratch::scratch_dir();
    assert_eq!(leaves(Some(dir.path()), Some(1)), memory);
}
