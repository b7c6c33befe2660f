//! Stopped, crashed and resumed searches count what one run counts.

use super::*;

/// A directory written by an earlier disk format is refused, and the
/// message names its format.
#[test]
fn a_directory_of_an_older_disk_format_is_refused_with_its_format() {
    let dir = crate::scratch::scratch_dir();
    walk_stopped_after_5000(dir.path());
    let path = dir.path().join("disk-manifest.json");
    let mut manifest: serde_json::Value =
        serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
    assert_eq!(manifest["version"], DISK_VERSION);
    manifest["version"] = 4.into();
    fs::write(&path, serde_json::to_vec(&manifest).unwrap()).unwrap();
    let err = Layered::new(&Walk)
        .stop(Stop::Exhaust)
        .disk(on_disk(dir.path()), "walk")
        .run()
        .unwrap_err();
    let text = err.to_string();
    assert!(matches!(err, CheckpointError::OtherSearch { .. }), "{text}");
    assert!(text.contains("disk format 4 of another version"), "{text}");
}

/// A search stopped part-way leaves the files it held in memory on
/// disk as a pack, and resumes from it; a seen run written after the
/// last manifest (as a crash between the two leaves it) is not read.
#[test]
fn a_resumed_search_on_disk_reads_its_pack_and_drops_later_runs() {
    use crate::explore::Problem;
    let memory = Layered::new(&Walk).stop(Stop::Exhaust).run().unwrap();
    let dir = crate::scratch::scratch_dir();
    walk_stopped_after_5000(dir.path());
    let packs = fs::read_dir(dir.path().join("blocks"))
        .unwrap()
        .filter(|e| {
            let name = e.as_ref().unwrap().file_name();
            name.to_string_lossy().starts_with("pack")
        })
        .count();
    assert!(packs > 0);
    let manifest: DiskManifest =
        serde_json::from_slice(&fs::read(dir.path().join("disk-manifest.json")).unwrap()).unwrap();
    let current = manifest.current.expect("stopped inside a layer");
    // Every state of the layer, as if a later round had seen them.
    let mut stale: Vec<u128> = (0..=60u16)
        .flat_map(|a| (0..=300u16).map(move |b| (a, b)))
        .filter(|s| Walk.layer(s) == current.layer)
        .map(|s| Walk.fingerprint(&s))
        .collect();
    stale.sort_unstable();
    for part in 0..PARTS {
        let fps: Vec<u128> = stale
            .iter()
            .copied()
            .filter(|&fp| part_of(fp) == part)
            .collect();
        let path = seen_path(dir.path(), current.layer, part, current.step, current.step);
        write_run(&path, &Run::from_sorted(&fps)).unwrap();
    }
    let resumed = Layered::new(&Walk)
        .stop(Stop::Exhaust)
        .disk(on_disk(dir.path()), "walk")
        .run()
        .unwrap();
    assert_eq!(resumed.end, End::Exhausted);
    assert!(resumed.stats.resumed_layers > 0);
    assert_eq!(figures(&resumed.stats), figures(&memory.stats));
    let blocks = fs::read_dir(dir.path().join("blocks")).unwrap().count();
    assert_eq!(blocks, 0);
}

/// A search stopped inside a round keeps the parts of it that
/// finished, with their files, and the resumed round expands only the
/// others: stopped every 700 expansions (a round's parts hold at most
/// 36 states), on two threads, the search resumes to the counts of one
/// run, with its output files in memory (written as a pack at the
/// stop) or on the disk, and leaves no file.
#[test]
fn a_search_stopped_inside_a_round_keeps_the_parts_it_finished() {
    let memory = Layered::new(&Walk).stop(Stop::Exhaust).run().unwrap();
    for budget in [None, Some(0)] {
        let dir = crate::scratch::scratch_dir();
        let (mut runs, mut kept) = (0, 0);
        let stats = loop {
            runs += 1;
            assert!(runs < 200, "no progress");
            let flag = AtomicBool::new(false);
            let halting = Halting {
                flag: &flag,
                left: AtomicU64::new(700),
                crash: false,
            };
            let mut search = Layered::new(&halting)
                .stop(Stop::Exhaust)
                .jobs(Some(2))
                .cancel_flag(&flag);
            if let Some(budget) = budget {
                search = search.disk_memory(budget);
            }
            let outcome = search.disk(on_disk(dir.path()), "walk").run().unwrap();
            if outcome.end == End::Exhausted {
                break outcome.stats;
            }
            assert_eq!(outcome.end, End::Stopped(StopReason::Cancelled));
            let manifest: DiskManifest =
                serde_json::from_slice(&fs::read(dir.path().join("disk-manifest.json")).unwrap())
                    .unwrap();
            let current = manifest.current.expect("stopped inside a layer");
            for out in &current.done {
                assert!(!out.stopped);
                if let Some((name, info)) = &out.file {
                    // The file is known and on the disk.
                    let known = &manifest.files[name];
                    assert_eq!(known.blocks, info.blocks);
                    let path = match &known.pack {
                        Some((pack, _)) => blocks_path(dir.path(), pack),
                        None => blocks_path(dir.path(), name),
                    };
                    assert!(path.exists(), "{}", path.display());
                }
            }
            kept += current.done.len();
        };
        assert!(runs > 10 && kept > 10, "{runs} runs, {kept} parts kept");
        assert_eq!(figures(&stats), figures(&memory.stats), "budget {budget:?}");
        for sub in ["blocks", "frontier"] {
            let left = fs::read_dir(dir.path().join(sub)).map_or(0, |d| d.count());
            assert_eq!(left, 0, "{sub} ({budget:?})");
        }
    }
}

/// A search on disk that crashes inside a large round resumes from the
/// parts of it recorded as they finished (a round of 200 records or
/// more goes in waves of parts, recorded after each wave in the tests):
/// crashed after 1,000 expansions, then 2,000, 3,000 and so on (what
/// a run did since the last manifest is lost), the search resumes to
/// the counts of one run.
#[test]
fn a_search_on_disk_that_crashes_inside_a_round_keeps_the_parts_recorded() {
    let memory = Layered::new(&Walk).stop(Stop::Exhaust).run().unwrap();
    let dir = crate::scratch::scratch_dir();
    let (mut runs, mut kept) = (0, 0);
    let stats = loop {
        runs += 1;
        assert!(runs < 100, "no progress");
        let flag = AtomicBool::new(false);
        let crashing = Halting {
            flag: &flag,
            left: AtomicU64::new(1_000 * runs),
            crash: true,
        };
        let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            Layered::new(&crashing)
                .stop(Stop::Exhaust)
                .jobs(Some(2))
                .disk(on_disk(dir.path()), "walk")
                .run()
                .unwrap()
        }));
        let Err(_) = run else {
            break run.unwrap().stats;
        };
        // None before the first manifest.
        if let Ok(text) = fs::read(dir.path().join("disk-manifest.json")) {
            let manifest: DiskManifest = serde_json::from_slice(&text).unwrap();
            kept += manifest.current.map_or(0, |c| c.done.len());
        }
    };
    assert!(runs > 5 && kept > 5, "{runs} runs, {kept} parts kept");
    assert_eq!(figures(&stats), figures(&memory.stats));
}

/// A search on disk with a limit of positions stops inside a round,
/// at the first part that passes it, not at the end of the round, and
/// the parts it did not start are left for the resumed round: stopped
/// every 300 positions, it passes each limit by less than 40 (a round
/// of [`Walk`] finds up to 296 states, 36 in its largest part; the
/// most measured was 32), and resumes to the counts of one run.
#[test]
fn a_limit_of_positions_stops_a_search_on_disk_inside_a_round() {
    let memory = Layered::new(&Walk).stop(Stop::Exhaust).run().unwrap();
    let dir = crate::scratch::scratch_dir();
    let (mut max, mut over) = (0, Vec::new());
    let stats = loop {
        max += 300;
        assert!(max < 30_000, "no progress");
        let outcome = Layered::new(&Walk)
            .stop(Stop::Exhaust)
            .jobs(Some(2))
            .limits(Limits {
                max_positions: Some(max),
                ..Limits::default()
            })
            .disk(on_disk(dir.path()), "walk")
            .run()
            .unwrap();
        if outcome.end == End::Exhausted {
            break outcome.stats;
        }
        assert_eq!(outcome.end, End::Stopped(StopReason::Positions));
        assert!(outcome.stats.positions >= max);
        over.push(outcome.stats.positions - max);
        // What it reports is what the manifest holds: the layers
        // finished, the current one's rounds and the parts kept.
        let manifest: DiskManifest =
            serde_json::from_slice(&fs::read(dir.path().join("disk-manifest.json")).unwrap())
                .unwrap();
        let current = manifest.current.expect("stopped inside a layer");
        let finished = manifest.layers.iter();
        let sum = |f: fn(&LayerStats) -> u64, g: fn(&TaskOut) -> u64| {
            finished.clone().map(f).sum::<u64>()
                + f(&current.here)
                + current.done.iter().map(g).sum::<u64>()
        };
        let stats = &outcome.stats;
        assert_eq!(stats.positions, sum(|l| l.positions, |o| o.new));
        assert_eq!(stats.dead, sum(|l| l.dead, |o| o.dead));
        assert_eq!(stats.expanded, sum(|l| l.expanded, |o| o.expanded));
        assert_eq!(stats.layers.last().map(|l| l.layer), Some(current.layer));
    };
    assert!(over.len() > 50);
    assert!(over.iter().all(|&o| o < 40), "{over:?}");
    assert_eq!(figures(&stats), figures(&memory.stats));
}

/// The solver's exhaustive pass (dead ends, the `XX` leaves) counts
/// the same on disk, and a disk search stopped twice by a position
/// limit resumes to the same counts as an uninterrupted one. The quick
/// run stops every 10,000 positions up to 30,000;
/// [`a_long_search_on_disk_stopped_and_resumed_counts_the_same`] every
/// 40,000 up to 120,000.
#[test]
fn a_search_on_disk_stopped_and_resumed_counts_the_same() {
    disk_search_resumed(10_000, None, None);
}

#[test]
#[ignore = "slow: runs with `cargo test -- --ignored` (CI runs it)"]
fn a_long_search_on_disk_stopped_and_resumed_counts_the_same() {
    disk_search_resumed(40_000, None, None);
}

/// The search of [`a_search_on_disk_stopped_and_resumed_counts_the_same`],
/// stopped every `step` positions up to three steps.
/// The same with the seen sets dropped after every round (a budget of
/// 1 byte): each task looks its inputs up on disk first, and a resumed
/// search merges the layer's seen runs and looks them up there; and
/// dropped now and then (a sixteenth of the largest table of the search
/// in memory), with a manifest after every round (a memory budget of 4
/// KiB), so that the rounds since a drop are on disk too when the next
/// round looks the earlier ones up.
/// The quick run stops every 5,000 positions;
/// [`a_search_on_disk_with_its_seen_sets_dropped_resumes_to_the_same_counts_over_30000`]
/// every 10,000.
#[test]
fn a_search_on_disk_with_its_seen_sets_dropped_resumes_to_the_same_counts() {
    disk_search_resumed(5_000, Some(u64::MAX), None);
    disk_search_resumed(5_000, Some(16), None);
}

#[test]
#[ignore = "slow: runs with `cargo test -- --ignored` (CI runs it)"]
fn a_search_on_disk_with_its_seen_sets_dropped_resumes_to_the_same_counts_over_30000() {
    disk_search_resumed(10_000, Some(u64::MAX), None);
    disk_search_resumed(10_000, Some(16), None);
}

/// The same with every round that reads more than a few records per
/// part run split (a growth of 1 byte: each round's first try stops at
/// its first question to the guard, and the round runs again a wave of
/// parts at a time), stopped inside split rounds and resumed. The quick
/// run stops every 5,000 positions;
/// [`a_search_on_disk_with_its_rounds_split_resumes_to_the_same_counts_over_30000`]
/// every 10,000.
#[test]
fn a_search_on_disk_with_its_rounds_split_resumes_to_the_same_counts() {
    disk_search_resumed(5_000, None, Some(1));
}

#[test]
#[ignore = "slow: runs with `cargo test -- --ignored` (CI runs it)"]
fn a_search_on_disk_with_its_rounds_split_resumes_to_the_same_counts_over_30000() {
    disk_search_resumed(10_000, None, Some(1));
}
