//! Look-ups on disk: the current layer's seen sets written as sorted runs,
//! merged when the sets pass their budget and dropped from memory, and a
//! task's inputs looked up in the runs of the rounds dropped.

use super::*;

impl<'a, P: PackedProblem> Layered<'a, P>
where
    P::State: Send,
    P::Move: Send,
{
    /// Drops the current layer's seen sets `seen` from memory (they are
    /// left empty): what is held is written, with a manifest, each
    /// part's runs of the rounds from `old_before` to the one before
    /// `current`'s are merged into one file, and the returned round is the
    /// new `old_before`, before which the layer's rounds are looked up on
    /// disk ([`page_in`]).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn drop_seen(
        &mut self,
        dir: &Path,
        manifest: &mut DiskManifest,
        stats: &mut LayeredStats,
        unsaved: &mut Unsaved,
        seen: &mut Vec<FpTable>,
        current: Current,
        old_before: u32,
    ) -> Result<(Current, u32), CheckpointError> {
        *seen = (0..PARTS).map(|_| FpTable::default()).collect();
        manifest.current = Some(current);
        self.save_disk_manifest(dir, manifest, stats, unsaved)?;
        let current = manifest.current.take().expect("just put");
        for part in 0..PARTS {
            let (removed, written, merging) =
                compact_runs(dir, current.layer, part, old_before, current.step)?;
            unsaved.seen_disk = (unsaved.seen_disk + written).saturating_sub(removed);
            stats.peak_memory_bytes = stats.peak_memory_bytes.max(merging);
        }
        stats.seen_dropped += 1;
        let step = current.step;
        Ok((current, step))
    }
}

/// Part `part`'s seen runs in `layer` of the rounds before `step`, by the
/// first round each covers: their rounds and files. With `drop_later`,
/// the runs of rounds from `step` on are deleted: at the start of a
/// resumed search or of a task, they were written after the last manifest
/// (by a search stopped before it wrote the next one) or by a failed run
/// of the task. (Anywhere else they are the rounds since, still needed.)
pub(super) fn seen_runs(
    dir: &Path,
    layer: u64,
    part: usize,
    step: u32,
    drop_later: bool,
) -> Result<Vec<(u32, u32, PathBuf)>, CheckpointError> {
    let folder = seen_dir(dir, layer);
    let mut runs = Vec::new();
    match fs::read_dir(&folder) {
        Ok(entries) => {
            for entry in entries {
                let entry = entry.map_err(io_error(&folder))?;
                let name = entry.file_name();
                let Some((p, first, last)) = name.to_str().and_then(seen_name) else {
                    continue;
                };
                if p != part {
                    continue;
                }
                if last < step {
                    runs.push((first, last, entry.path()));
                } else if drop_later {
                    let _ = fs::remove_file(entry.path());
                }
            }
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(io_error(&folder)(e)),
    }
    runs.sort();
    Ok(runs)
}

pub(super) fn read_run(path: &Path) -> Result<Run, CheckpointError> {
    let file = fs::File::open(path).map_err(io_error(path))?;
    Run::read_from(&mut BufReader::new(file)).map_err(io_error(path))
}

/// Part `part`'s seen set in `layer` before round `step`, of the rounds
/// from `from` on (those before are looked up on disk, [`page_in`]).
pub(super) fn load_seen(
    dir: &Path,
    layer: u64,
    part: usize,
    from: u32,
    step: u32,
) -> Result<FpTable, CheckpointError> {
    let mut seen = FpTable::default();
    for (first, _, path) in seen_runs(dir, layer, part, step, true)? {
        if first >= from {
            for fp in read_run(&path)?.to_vec() {
                seen.insert(fp);
            }
        }
    }
    Ok(seen)
}

/// Merges part `part`'s seen runs in `layer` of rounds `from..before` into
/// one file (the rounds `from..=before - 1`), so that [`page_in`] reads one
/// run for them, not one a manifest; the runs merged are deleted once it
/// is written. A crash in between leaves both, which only repeats
/// fingerprints (lookups and a later merge take them as one). Returns the
/// bytes removed from the disk, the bytes written, and the most bytes
/// held while merging.
pub(super) fn compact_runs(
    dir: &Path,
    layer: u64,
    part: usize,
    from: u32,
    before: u32,
) -> Result<(u64, u64, u64), CheckpointError> {
    let pieces: Vec<(u32, u32, PathBuf)> = seen_runs(dir, layer, part, before, false)?
        .into_iter()
        .filter(|&(first, _, _)| first >= from)
        .collect();
    if pieces.len() < 2 || before == 0 {
        return Ok((0, 0, 0));
    }
    let mut all = Vec::new();
    let mut removed = 0;
    let mut held = 0;
    for (_, _, path) in &pieces {
        removed += fs::metadata(path).map_err(io_error(path))?.len();
        let run = read_run(path)?;
        held = held.max(run.bytes());
        all.extend(run.to_vec());
    }
    all.sort_unstable();
    all.dedup();
    let run = Run::from_sorted(&all);
    held += (all.capacity() * size_of::<u128>()) as u64 + run.bytes();
    drop(all);
    let path = seen_path(dir, layer, part, from, before - 1);
    let written = write_run(&path, &run)?;
    for (_, _, piece) in pieces {
        if piece != path {
            let _ = fs::remove_file(piece);
        }
    }
    Ok((removed, written, held))
}

/// Pass 0 of a task when its layer's rounds before `round.old_before` are
/// on disk only (the seen sets outgrew their memory budget,
/// [`DiskOptions::seen_memory`]): every input state not in `seen` is looked up
/// in those rounds' runs, in bulk (the candidates sorted, each run read
/// once and decoded only where a candidate falls). Returns the ones found,
/// and the most bytes held besides them while looking them up. Then `seen`
/// and the set returned together hold every input state that the whole
/// seen set holds, and the pass that follows, which takes a state of
/// either for a duplicate, keeps the same records as a search with the
/// whole set in memory: the counts do not change. The states found are not
/// added to `seen`: they are in the layer's runs already, and a later
/// round that meets them again finds them there, so `seen` grows by each
/// round's new states alone. (Before any drop the set returned is empty,
/// and a look-up in it returns at once.)
pub(super) fn page_in(
    dir: &Path,
    memory: Option<&MemFiles>,
    round: &Round,
    part: usize,
    seen: &FpTable,
    records: &dyn Records,
) -> Result<(FpTable, u64), CheckpointError> {
    let mut found = FpTable::default();
    if round.old_before == 0 {
        return Ok((found, 0));
    }
    let old: Vec<PathBuf> = seen_runs(dir, round.layer, part, round.old_before, false)?
        .into_iter()
        .map(|(_, _, path)| path)
        .collect();
    if old.is_empty() {
        return Ok((found, 0));
    }
    let mut candidates = Vec::new();
    for (name, info) in &round.files {
        read_blocks(
            dir,
            memory,
            name,
            info,
            round.layer,
            part,
            records,
            |fp, _, ahead| {
                if let Some(ahead) = ahead {
                    seen.prefetch(ahead);
                }
                if !seen.contains(fp) {
                    candidates.push(fp);
                }
                Ok(())
            },
        )?;
    }
    candidates.sort_unstable();
    candidates.dedup();
    let mut held = vec![false; candidates.len()];
    let mut run_bytes = 0;
    for path in old {
        let run = read_run(&path)?;
        run_bytes = run_bytes.max(run.bytes());
        run.mark_held(&candidates, &mut held);
    }
    for (&fp, &held) in candidates.iter().zip(&held) {
        if held {
            found.insert(fp);
        }
    }
    let looking = (candidates.capacity() * size_of::<u128>() + held.capacity()) as u64 + run_bytes;
    Ok((found, looking))
}
