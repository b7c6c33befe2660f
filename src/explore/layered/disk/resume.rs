//! Resuming: what is held in memory written and synced with the
//! manifest, after a round and at most every few seconds, so that the
//! same command continues a stopped search; the bytes of packs already
//! read given back.

use super::*;

impl<'a, P: PackedProblem> Layered<'a, P>
where
    P::State: Send,
    P::Move: Send,
{
    /// Writes what is held in memory (the files still read, as one pack;
    /// the current layer's new seen runs, one a part), syncs the files
    /// written since the last manifest, writes the manifest, then deletes
    /// the files no layer reads any more.
    pub(super) fn save_disk_manifest(
        &mut self,
        dir: &Path,
        manifest: &mut DiskManifest,
        stats: &LayeredStats,
        unsaved: &mut Unsaved,
    ) -> Result<(), CheckpointError> {
        if let Some(memory) = &unsaved.memory {
            let files: Vec<(String, Arc<Vec<u8>>)> = memory
                .take_all()
                .into_iter()
                .filter(|(name, _)| {
                    let kept = manifest.files.contains_key(name);
                    if !kept {
                        memory.forget_fps(name);
                    }
                    kept
                })
                .collect();
            if !files.is_empty() {
                let pack = format!("pack{:08}.blk", manifest.packs);
                manifest.packs += 1;
                let path = blocks_path(dir, &pack);
                let mut out = BufWriter::new(fs::File::create(&path).map_err(io_error(&path))?);
                let mut base = 0;
                for (name, data) in files {
                    out.write_all(&data).map_err(io_error(&path))?;
                    let info = manifest.files.get_mut(&name).expect("kept above");
                    info.pack = Some((pack.clone(), base));
                    base += data.len() as u64;
                }
                out.flush().map_err(io_error(&path))?;
                unsaved.written.push(path);
            }
        }
        if let Some(current) = &manifest.current
            && current.step > unsaved.runs_from
        {
            for (part, runs) in unsaved.runs.iter_mut().enumerate() {
                if runs.is_empty() {
                    continue;
                }
                let run = merged(std::mem::take(runs));
                let path = seen_path(
                    dir,
                    current.layer,
                    part,
                    unsaved.runs_from,
                    current.step - 1,
                );
                unsaved.seen_disk += write_run(&path, &run)?;
                unsaved.written.push(path);
            }
            unsaved.runs_from = current.step;
        }
        let (written, doomed) = (&mut unsaved.written, &mut unsaved.doomed);
        for path in written.drain(..) {
            if let Ok(file) = fs::File::open(&path) {
                file.sync_all().map_err(io_error(&path))?;
            }
        }
        manifest.layers = stats.layers.clone();
        if let Some(current) = &manifest.current
            && manifest.layers.last().map(|l| l.layer) == Some(current.layer)
        {
            manifest.layers.pop();
        }
        manifest.max_depth = stats.max_depth;
        manifest.note = match &mut self.note {
            Some((save, _)) => save(),
            None => String::new(),
        };
        write_file_atomically(&dir.join("disk-manifest.json"), |out| {
            serde_json::to_writer(&mut *out, &*manifest)?;
            Ok(())
        })?;
        for path in doomed.drain(..) {
            let _ = if path.is_dir() {
                fs::remove_dir_all(&path)
            } else {
                fs::remove_file(&path)
            };
        }
        for (path, from, len) in unsaved.holes.drain(..) {
            free_range(&path, from, len);
        }
        Ok(())
    }
}

/// Gives the `len` bytes of the file at `path` from `from` back to the file
/// system (a hole: they read as zeros, the file keeps its length), where
/// it can (Linux: `fallocate` with `FALLOC_FL_PUNCH_HOLE`; ext4, XFS, Btrfs
/// and tmpfs do). A pack lives as long as the last file in it, so without
/// this the files in it already read kept their bytes: on the unwon game's
/// stage 1, a third of the packs' bytes at times (`docs/engine.md`).
/// Best effort: where it cannot, the bytes stay until the pack goes.
pub(super) fn free_range(path: &Path, from: u64, len: u64) {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        if let Ok(file) = fs::OpenOptions::new().write(true).open(path)
            && let (Ok(from), Ok(len)) = (i64::try_from(from), i64::try_from(len))
        {
            // SAFETY: `fallocate` only reads its arguments; the descriptor
            // is open for writing for the call's length.
            let _ = unsafe {
                libc::fallocate(
                    file.as_raw_fd(),
                    libc::FALLOC_FL_PUNCH_HOLE | libc::FALLOC_FL_KEEP_SIZE,
                    from,
                    len,
                )
            };
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (path, from, len);
}

/// Records in the manifest the parts of round `current` finished so far,
/// inside the round: their output files held in memory are written (each
/// in a file of its own) and synced, and the manifest, which describes
/// everything else as it was before the round, is written with them.
pub(super) fn save_parts(
    dir: &Path,
    manifest: &mut DiskManifest,
    current: &Current,
    finished: &[&TaskOut],
    memory: Option<&MemFiles>,
) -> Result<(), CheckpointError> {
    for out in finished {
        let Some((name, info)) = &out.file else {
            continue;
        };
        if manifest.files.contains_key(name) {
            continue;
        }
        let path = blocks_path(dir, name);
        let file = match memory.and_then(|m| m.get(name)) {
            Some(data) => {
                let mut file = fs::File::create(&path).map_err(io_error(&path))?;
                file.write_all(&data).map_err(io_error(&path))?;
                file
            }
            None => fs::File::open(&path).map_err(io_error(&path))?,
        };
        file.sync_all().map_err(io_error(&path))?;
        if let Some(memory) = memory {
            memory.remove(name);
        }
        manifest.files.insert(name.clone(), info.clone());
    }
    manifest.current = Some(Current {
        done: finished.iter().map(|&o| o.clone()).collect(),
        ..current.clone()
    });
    let written = write_file_atomically(&dir.join("disk-manifest.json"), |out| {
        serde_json::to_writer(&mut *out, &*manifest)?;
        Ok(())
    });
    manifest.current = None;
    written
}
