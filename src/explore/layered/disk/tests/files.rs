//! The files: codecs, records, frontiers in files, the disk limit, a
//! task's inputs read in chunks.

use super::*;

/// A task's first half keeps, chunk by chunk, what one pass over its
/// inputs in the order sent keeps: the first record of each state not
/// seen before (and so its depth), the others counted as duplicates of
/// the layer that sent them, the frontier in the in-memory search's
/// order (by shard, then as sent), the new fingerprints in runs.
/// Whether the inputs fit in one chunk, take many (about 76 records
/// each) or one a record, and the frontier stays in memory, goes to a
/// file after the chunks that pass 1 KiB, or after each.
#[test]
fn a_task_reading_its_inputs_in_chunks_keeps_what_one_pass_keeps() {
    use crate::explore::Problem;
    use std::collections::HashSet;
    let dir = crate::scratch::scratch_dir();
    for sub in ["blocks", "frontier"] {
        fs::create_dir_all(dir.path().join(sub)).unwrap();
    }
    let layer = 7;
    let state = |n: u32| ((n % 256) as u16, (n / 256) as u16);
    // 80,000 states (more than a frontier block in most shards), sent
    // 180,000 times at various depths by three layers.
    let mut sent: Vec<(u64, u128, Vec<u8>)> = Vec::new();
    let mut files = Vec::new();
    for (k, producer) in [5u64, 6, 7].into_iter().enumerate() {
        let name = format!("f{k}.blk");
        let mut writer = BlockWriter::new(&Walk, dir.path(), name, producer, None);
        for i in 0..60_000u32 {
            let s = state((i * 7_919 + k as u32 * 31_337) % 80_000);
            let mut record = ((i % 50) as u16).to_le_bytes().to_vec();
            Walk.pack(&s, &mut record);
            let fp = Walk.fingerprint(&s);
            writer.push(layer, fp, &record).unwrap();
            sent.push((producer, fp, record));
        }
        files.push(writer.finish().unwrap().unwrap());
    }
    let round = Round {
        id: "walk".into(),
        layer,
        step: 1,
        files,
        old_before: 0,
    };
    // One state in ten was seen before.
    let before: Vec<u128> = (0..80_000)
        .step_by(10)
        .map(|n| Walk.fingerprint(&state(n)))
        .collect();
    let no_files = MemFiles::new(0);
    for part in 0..PARTS {
        let seen_before = || {
            let mut seen = FpTable::default();
            for &fp in before.iter().filter(|&&fp| part_of(fp) == part) {
                seen.insert(fp);
            }
            seen
        };
        let mut known: HashSet<u128> = before.iter().copied().collect();
        let mut dups: BTreeMap<u64, u64> = BTreeMap::new();
        let mut kept = Vec::new();
        let mut new_fps = Vec::new();
        let sent_here = sent.iter().filter(|(_, fp, _)| part_of(*fp) == part);
        for (producer, fp, record) in sent_here.clone() {
            if known.insert(*fp) {
                kept.push((shard_of(*fp), record.clone()));
                new_fps.push(*fp);
            } else {
                *dups.entry(*producer).or_default() += 1;
            }
        }
        kept.sort_by_key(|&(shard, _)| shard);
        let expected: Vec<Vec<u8>> = kept.into_iter().map(|(_, record)| record).collect();
        new_fps.sort_unstable();
        for (budget, hold) in [
            (u64::MAX, None),
            (u64::MAX, Some(0)),
            (4 << 10, Some(1 << 10)),
            (4 << 10, None),
            (0, Some(0)),
        ] {
            let what = format!("part {part}, budget {budget}, hold {hold:?}");
            let mut seen = seen_before();
            let (out, frontier, runs) = dedup_task(
                dir.path(),
                Some(&no_files),
                &round,
                part,
                &mut seen,
                hold,
                budget,
                &Walk,
                &RoundGuard::never(),
            )
            .unwrap();
            assert_eq!(out.inputs, sent_here.clone().count() as u64, "{what}");
            let chunks = match budget {
                u64::MAX => 1,
                0 => out.inputs,
                _ => out.inputs / 80,
            };
            assert!(out.chunks >= chunks, "{what}: {} chunks", out.chunks);
            assert_eq!(out.dups, dups, "{what}");
            assert_eq!(out.new, new_fps.len() as u64, "{what}");
            let mut fps: Vec<u128> = runs.iter().flat_map(Run::to_vec).collect();
            fps.sort_unstable();
            assert_eq!(fps, new_fps, "{what}");
            assert_eq!(seen.len(), seen_before().len() + new_fps.len(), "{what}");
            assert_eq!(
                matches!(frontier, Frontier::File(_)),
                hold.is_some(),
                "{what}"
            );
            assert_eq!(frontier_states(&frontier), expected, "{what}");
            drop(frontier);
            let left = fs::read_dir(dir.path().join("frontier")).unwrap().count();
            assert_eq!(left, 0, "{what}");
        }
    }
}

/// The frontier files of a round count against the disk limit with the
/// files it leaves: given as its limit what the first round leaves, a
/// search whose frontiers go to files stops after that round, one whose
/// frontiers stay in memory goes on.
#[test]
fn frontier_files_count_against_the_disk_limit() {
    let run = |dir: &Path, budget: Option<u64>, max_bytes: u64| {
        let mut search = Layered::new(&Walk).stop(Stop::Exhaust).jobs(Some(1));
        if let Some(budget) = budget {
            search = search.disk_memory(budget);
        }
        let options = DiskOptions {
            max_bytes: Some(max_bytes),
            ..on_disk(dir)
        };
        search.disk(options, "walk").run().unwrap()
    };
    let dir = crate::scratch::scratch_dir();
    let first = run(dir.path(), None, 0);
    assert_eq!(first.end, End::Stopped(StopReason::Disk));
    assert_eq!(first.stats.positions, 1);
    let manifest: DiskManifest =
        serde_json::from_slice(&fs::read(dir.path().join("disk-manifest.json")).unwrap()).unwrap();
    let left: u64 = manifest.files.values().map(|f| f.bytes).sum();
    assert!(left > 0);
    for (budget, stops_at_once) in [(None, false), (Some(0), true)] {
        let dir = crate::scratch::scratch_dir();
        let outcome = run(dir.path(), budget, left);
        assert_eq!(outcome.end, End::Stopped(StopReason::Disk), "{budget:?}");
        assert_eq!(outcome.stats.positions == 1, stops_at_once, "{budget:?}");
    }
}

/// Blocks give back the bytes packed, through the threads' buffers
/// reused from block to block (a block smaller than the one before), and
/// a block damaged or of another length is an error, not wrong records.
#[test]
fn packed_blocks_unpack_to_the_same_bytes() {
    let big: Vec<u8> = (0..300_000u32)
        .map(|i| ((i % 251) ^ (i / 977)) as u8)
        .collect();
    let small: Vec<u8> = (0..1_000u32).map(|i| (i % 7) as u8).collect();
    let mut out = Vec::new();
    for raw in [&big, &small, &big, &small] {
        let packed = with_compressed(raw, |p| Ok(p.to_vec())).unwrap();
        assert!(packed.len() < raw.len());
        decompress_block(&packed, raw.len(), &mut out).unwrap();
        assert_eq!(&out, raw);
        // Told the wrong length, or given a block cut short.
        assert!(decompress_block(&packed, raw.len() + 1, &mut out).is_err());
        let cut = &packed[..packed.len() / 2];
        assert!(decompress_block(cut, raw.len(), &mut out).is_err());
    }
}

/// A frontier passes the budget in several blocks of a file (the
/// solver's proof of PySol 3, 30,000 positions, with no budget at
/// all), and a search stopped and resumed so counts the same.
#[test]
fn frontiers_in_files_of_many_blocks_count_the_same() {
    use crate::solve::exhaustive::ExhaustiveProblem;
    let deal = pysol::deal(3, Rules::Standard).unwrap();
    let game = Game::new(&deal).unwrap();
    let problem = ExhaustiveProblem::new(&game);
    let limits = |max| Limits {
        max_positions: Some(max),
        ..Limits::default()
    };
    let memory = Layered::new(&problem)
        .stop(Stop::Exhaust)
        .limits(limits(30_000))
        .run()
        .unwrap();
    let dir = crate::scratch::scratch_dir();
    let mut last = None;
    for max in [15_000, 30_000] {
        last = Some(
            Layered::new(&problem)
                .stop(Stop::Exhaust)
                .jobs(Some(2))
                .limits(limits(max))
                .disk_memory(0)
                .disk(on_disk(dir.path()), "pysol 3")
                .run()
                .unwrap(),
        );
    }
    let disk = last.unwrap();
    assert!(disk.stats.resumed_layers > 0);
    let finished = (memory.stats.layers.len() - 1).min(disk.stats.layers.len() - 1);
    assert!(finished > 3);
    let strip = |l: &LayerStats| LayerStats {
        duplicates: 0,
        ..l.clone()
    };
    for k in 0..finished {
        assert_eq!(
            strip(&disk.stats.layers[k]),
            strip(&memory.stats.layers[k]),
            "layer {k}"
        );
    }
    let left = fs::read_dir(dir.path().join("frontier")).unwrap().count();
    assert_eq!(left, 0);
}

#[test]
fn a_freed_range_reads_as_zeros_or_as_it_was_and_the_rest_is_kept() {
    let dir = crate::scratch::scratch_dir();
    let path = dir.path().join("pack");
    let bytes: Vec<u8> = (0..3 << 16).map(|i| (i % 251) as u8 + 1).collect();
    fs::write(&path, &bytes).unwrap();
    free_range(&path, 1 << 16, 1 << 16);
    let after = fs::read(&path).unwrap();
    assert_eq!(after.len(), bytes.len());
    assert_eq!(after[..1 << 16], bytes[..1 << 16]);
    assert_eq!(after[2 << 16..], bytes[2 << 16..]);
    let middle = &after[1 << 16..2 << 16];
    assert!(middle.iter().all(|&b| b == 0) || middle == &bytes[1 << 16..2 << 16]);
    // A file gone already is no error.
    free_range(&dir.path().join("gone"), 0, 10);
}

#[test]
fn records_in_the_files_form_read_back_as_written() {
    // The default form (the depth, a length, then the bytes), with
    // depths of one byte and more; Spider's compact form has tests of
    // its own (`game::tests`).
    let walk = [
        [0u8, 0, 7, 1, 9, 9].as_slice(),
        &[200, 1, 3, 0, 0, 0],
        &[255, 255],
    ];
    let mut files = Vec::new();
    for record in walk {
        write_file_record(&Walk, record, &mut files);
    }
    let mut back = Vec::new();
    let mut at = 0;
    while at < files.len() {
        at += read_file_record(&Walk, &files[at..], &mut back).unwrap();
    }
    assert_eq!(back, walk.concat());
    assert_eq!(read_file_record(&Walk, &files[..1], &mut Vec::new()), None);
}
