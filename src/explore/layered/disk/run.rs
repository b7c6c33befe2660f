//! The driver: the search on disk layer by layer and round by round,
//! in one process or through the launcher, its budgets, limits and
//! manifests.

use super::*;

impl<'a, P: PackedProblem> Layered<'a, P>
where
    P::State: Send,
    P::Move: Send,
{
    /// The memory budget of the search on disk: the bytes of output files
    /// held in memory (see [`MEMORY_FILES`]), and the measure of what else
    /// it holds (the frontiers that wait in memory, the inputs of the
    /// running tasks).
    pub(super) fn disk_budget(&self) -> u64 {
        self.disk_memory.unwrap_or_else(|| {
            self.limits
                .max_memory
                .map_or(MEMORY_FILES, |max| (max / 8).min(MEMORY_FILES))
        })
    }

    /// The most bytes the current layer's seen sets may take in memory
    /// before they are dropped and its earlier rounds looked up on disk
    /// ([`DiskOptions::seen_memory`]).
    pub(super) fn seen_budget(&self, options: &DiskOptions) -> u64 {
        options.seen_memory.unwrap_or_else(|| {
            self.limits
                .max_memory
                .map_or(SEEN_MEMORY, |max| (max / 4).max(1))
        })
    }

    /// The search with its states on disk (see the module's documentation).
    pub(in crate::explore::layered) fn run_disk(
        mut self,
        pool: Pool,
    ) -> Result<LayeredOutcome<P::State>, CheckpointError> {
        let (options, id) = self.disk.clone().expect("run_disk with disk options");
        if self.run_disk_task(&options, &id)? {
            // A task of a round: its result is written; this process has
            // nothing else to do.
            std::process::exit(0);
        }
        let dir = options.dir.clone();
        let problem = self.problem;
        let started = Instant::now();
        let mut stats = LayeredStats {
            threads: pool.threads(),
            ..LayeredStats::default()
        };
        // Frontiers left by a run cut short are read by no one.
        let _ = fs::remove_dir_all(dir.join("frontier"));
        for sub in ["blocks", "seen", "results", "frontier"] {
            let path = dir.join(sub);
            fs::create_dir_all(&path).map_err(io_error(&path))?;
        }
        let manifest_path = dir.join("disk-manifest.json");
        let mut manifest = match fs::read_to_string(&manifest_path) {
            Ok(text) => {
                let manifest: DiskManifest = serde_json::from_str(&text)
                    .map_err(|e| damaged(&manifest_path, e.to_string()))?;
                if manifest.version != DISK_VERSION {
                    return Err(CheckpointError::OtherSearch {
                        path: dir.clone(),
                        found: format!(
                            "disk format {} of another version of spider, which this one \
                             (format {DISK_VERSION}) cannot read",
                            manifest.version
                        ),
                    });
                }
                if manifest.id != id {
                    return Err(CheckpointError::OtherSearch {
                        path: dir.clone(),
                        found: manifest.id,
                    });
                }
                stats.layers = manifest.layers.clone();
                for layer in &manifest.layers {
                    stats.add_layer(layer);
                }
                stats.max_depth = manifest.max_depth;
                stats.resumed_layers = stats.layers.len();
                if let Some((_, restore)) = &mut self.note {
                    restore(&manifest.note);
                }
                manifest
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                // A new search: the start state's file.
                let start = problem.start();
                let layer = problem.layer(&start);
                let mut record = 0u16.to_le_bytes().to_vec();
                problem.pack(&start, &mut record);
                let mut writer = BlockWriter::new(problem, &dir, "start.blk".into(), START, None);
                writer.push(layer, problem.fingerprint(&start), &record)?;
                let (name, info) = writer.finish()?.expect("one record");
                DiskManifest {
                    version: DISK_VERSION,
                    id: id.clone(),
                    layers: Vec::new(),
                    max_depth: 0,
                    note: String::new(),
                    current: None,
                    pending: BTreeMap::from([(layer, vec![name.clone()])]),
                    files: BTreeMap::from([(name, info)]),
                    packs: 0,
                }
            }
            Err(e) => return Err(io_error(&manifest_path)(e)),
        };
        let mut goal: Option<FoundGoal<P::State>> = None;
        let mut seen: Vec<FpTable> = Vec::new();
        let budget = self.disk_budget();
        let mut unsaved = Unsaved {
            written: Vec::new(),
            doomed: Vec::new(),
            holes: Vec::new(),
            memory: Some(MemFiles::new(budget)),
            runs: (0..PARTS).map(|_| Vec::new()).collect(),
            runs_from: 0,
            seen_disk: 0,
        };
        let mut last_manifest = Instant::now();
        let keep_leaves = self.on_leaf.is_some();
        // The current layer's rounds before this one are on disk only
        // (see [`page_in`]).
        let mut old_before = 0;
        let seen_budget = self.seen_budget(&options);
        if let Some(current) = &mut manifest.current {
            stats.positions += current.here.positions;
            // The layer's seen runs so far go back into memory if their
            // tables fit the budget (a table takes about 1.4 times a
            // run's bytes); else they are merged, one a part, and looked
            // up on disk.
            let mut bytes = 0;
            for part in 0..PARTS {
                for (_, _, path) in seen_runs(&dir, current.layer, part, current.step, true)? {
                    bytes += fs::metadata(&path).map_err(io_error(&path))?.len();
                }
            }
            unsaved.seen_disk = bytes;
            if bytes * 7 / 5 > seen_budget {
                for part in 0..PARTS {
                    let (removed, written, _) =
                        compact_runs(&dir, current.layer, part, 0, current.step)?;
                    unsaved.seen_disk = (unsaved.seen_disk + written).saturating_sub(removed);
                }
                old_before = current.step;
                seen = (0..PARTS).map(|_| FpTable::default()).collect();
                stats.seen_dropped += 1;
            } else {
                seen = (0..PARTS)
                    .map(|part| load_seen(&dir, current.layer, part, 0, current.step))
                    .collect::<Result<_, _>>()?;
            }
            unsaved.runs_from = current.step;
        }
        let end = 'search: loop {
            let mut current = match manifest.current.take() {
                Some(current) => current,
                None => {
                    let Some((layer, inputs)) = manifest.pending.pop_first() else {
                        break End::Exhausted;
                    };
                    seen = (0..PARTS).map(|_| FpTable::default()).collect();
                    old_before = 0;
                    unsaved.seen_disk = 0;
                    unsaved.runs_from = 0;
                    let path = seen_dir(&dir, layer);
                    fs::create_dir_all(&path).map_err(io_error(&path))?;
                    Current {
                        layer,
                        step: 0,
                        here: LayerStats {
                            layer,
                            ..LayerStats::default()
                        },
                        inputs,
                        done: Vec::new(),
                        split: false,
                    }
                }
            };
            let layer = current.layer;
            let inputs_of = |manifest: &DiskManifest, current: &Current| {
                (current.inputs.iter())
                    .map(|name| (name.clone(), manifest.files[name].clone()))
                    .collect()
            };
            let mut round = Round {
                id: id.clone(),
                layer,
                step: current.step,
                files: inputs_of(&manifest, &current),
                old_before,
            };
            // A small round runs here, as in one process: starting its
            // tasks would take longer than the round. A round launched
            // reads its inputs and seen runs from the disk: what is held
            // in memory is written first (with a manifest).
            // A round resumed with some parts done runs here too.
            let launcher = options
                .launcher
                .as_ref()
                .filter(|_| round.records() >= options.launch_from && current.done.is_empty());
            // A large round in one process goes in waves of parts, and
            // records the parts finished as it goes: everything held is
            // written first, so that the manifest that records them
            // describes what is on the disk. (A split round is one.)
            let waves = launcher.is_none() && (round.records() >= WAVES_FROM || current.split);
            if (launcher.is_some() && unsaved.bytes() > 0) || waves {
                manifest.current = Some(current);
                self.save_disk_manifest(&dir, &mut manifest, &stats, &mut unsaved)?;
                last_manifest = Instant::now();
                current = manifest.current.take().expect("just put");
                // Its inputs held in memory are in a pack now.
                round.files = inputs_of(&manifest, &current);
            }
            // A round split in waves (see below) starts with the layer's
            // seen sets on disk: each wave's parts look the layer's earlier
            // rounds up there, so that only the wave's own tables are held.
            if current.split && launcher.is_none() && seen.iter().any(|t| !t.is_empty()) {
                (current, old_before) = self.drop_seen(
                    &dir,
                    &mut manifest,
                    &mut stats,
                    &mut unsaved,
                    &mut seen,
                    current,
                    old_before,
                )?;
                last_manifest = Instant::now();
                round.files = inputs_of(&manifest, &current);
                round.old_before = old_before;
            }
            let held = seen.iter().map(FpTable::bytes).sum::<u64>() + unsaved.bytes();
            let guard = RoundGuard {
                limits: Some(&self.limits),
                cancel: self.cancel,
                started,
                held,
                grown: AtomicU64::new(0),
                peak: AtomicU64::new(0),
                split_from: (!current.split && launcher.is_none())
                    .then(|| {
                        (options.split_from).or_else(|| {
                            (self.limits.max_memory).map(|max| max.saturating_sub(held) / 2)
                        })
                    })
                    .flatten(),
                records: round.records(),
                read: AtomicU64::new(0),
                fresh: AtomicU64::new(0),
                split: AtomicBool::new(false),
                reason: std::sync::OnceLock::new(),
            };
            let stopping = || guard.stop().is_some();
            let mut runs: Vec<Vec<Run>> = Vec::new();
            // Every part's frontier waits for the others' in one process: in
            // memory up to a part's share of a quarter of the budget (held
            // as it is, not compressed), else in a file.
            let hold = Some(budget / (4 * PARTS as u64));
            // The tasks running at once read their inputs in chunks of up
            // to another quarter of the budget, shared.
            let inputs = budget / (4 * pool.threads().min(PARTS) as u64);
            // The parts a search stopped in this round finished: their
            // files as the manifest knows them (in a pack now, maybe).
            let done: Vec<TaskOut> = std::mem::take(&mut current.done)
                .into_iter()
                .map(|mut out| {
                    if let Some((name, info)) = &mut out.file {
                        *info = manifest.files[name.as_str()].clone();
                    }
                    out
                })
                .collect();
            // The room left under the limit of positions, if any.
            let room = (self.limits.max_positions).map(|max| max.saturating_sub(stats.positions));
            let mut held_back = false;
            // The most bytes a wave of a split round held in its seen sets
            // and frontiers at once.
            let mut split_peak = 0;
            // Whether the seen sets hold the round's new states after it
            // (a split round's go wave by wave).
            let mut seen_kept = !current.split;
            let outs: Vec<TaskOut> = match launcher {
                None => {
                    // Every part's new states first, then every part's
                    // successors, looked up in every part's seen set (most
                    // same-layer duplicates are of states new in the same
                    // round: a card moved on again). A round whose seen
                    // sets outgrow the memory left is split instead: its
                    // parts run a wave (one a thread) at a time, each
                    // wave's successors looked up in the wave's seen sets
                    // only (the others are written, and counted as
                    // duplicates where the next round reads them, as a task
                    // in a process of its own does), and each wave's seen
                    // sets go to the disk before the next wave.
                    let memory = unsaved.memory.as_ref();
                    let group = if current.split {
                        pool.threads().min(PARTS)
                    } else {
                        PARTS
                    };
                    let mut outs = Vec::with_capacity(PARTS);
                    // With a limit of positions, a part starts while the
                    // round's new states before it (in part order) leave
                    // room: the parts past the limit are left for the
                    // resumed round, as parts cut short are, so that a
                    // search stops at most a part past its limit, not a
                    // round.
                    let mut before: u64 = done.iter().map(|d| d.new).sum();
                    // A part stopped while it read its inputs stops the
                    // round: the parts not finished before are cut short.
                    let mut cut = false;
                    for first in (0..PARTS).step_by(group) {
                        let parts = first..(first + group).min(PARTS);
                        if cut {
                            for part in parts {
                                runs.push(Vec::new());
                                outs.push(TaskOut {
                                    part,
                                    stopped: true,
                                    ..TaskOut::default()
                                });
                            }
                            continue;
                        }
                        let firsts = pool.install(|| {
                            seen[parts.clone()]
                                .par_iter_mut()
                                .enumerate()
                                .with_max_len(1)
                                .map(|(i, seen)| {
                                    dedup_task(
                                        &dir,
                                        memory,
                                        &round,
                                        first + i,
                                        seen,
                                        hold,
                                        inputs,
                                        problem,
                                        &guard,
                                    )
                                })
                                .collect::<Result<Vec<_>, _>>()
                        })?;
                        cut = firsts.iter().any(|(out, _, _)| out.stopped);
                        let known: Vec<Option<&FpTable>> = (0..PARTS)
                            .map(|part| parts.contains(&part).then(|| &seen[part]))
                            .collect();
                        if current.split {
                            let frontiers: u64 =
                                firsts.iter().map(|(o, _, _)| o.frontier_bytes).sum();
                            let wave = &seen[parts.clone()];
                            let tables: u64 = wave.iter().map(FpTable::bytes).sum();
                            split_peak = split_peak.max(frontiers + tables);
                            if tables > stats.peak_table_bytes {
                                stats.peak_table_bytes = tables;
                                stats.peak_table_positions =
                                    wave.iter().map(|t| t.len() as u64).sum();
                            }
                        }
                        let mut todo = Vec::new();
                        for (mut out, frontier, run) in firsts {
                            if current.split && !run.is_empty() {
                                // Its run goes to the disk now, with
                                // its seen set.
                                let path = seen_path(&dir, layer, out.part, round.step, round.step);
                                out.seen_file_bytes = write_run(&path, &merged(run))?;
                                runs.push(Vec::new());
                            } else {
                                runs.push(run);
                            }
                            if let Some(done) = done.iter().find(|d| d.part == out.part) {
                                // Expanded before the stop: the same
                                // states, read again only to be seen.
                                drop(frontier);
                                outs.push(TaskOut {
                                    seen_file_bytes: out.seen_file_bytes,
                                    ..done.clone()
                                });
                            } else if cut {
                                outs.push(TaskOut {
                                    stopped: true,
                                    ..out
                                });
                            } else if room.is_some_and(|room| before >= room) {
                                held_back = true;
                                outs.push(TaskOut {
                                    stopped: true,
                                    ..out
                                });
                            } else {
                                before += out.new;
                                todo.push((out, frontier));
                            }
                        }
                        // A large round expands a wave of parts at a time,
                        // one a thread, and after each wave reports its
                        // progress and (at most every few seconds) records
                        // the parts finished, so that a crash keeps them
                        // too.
                        let wave = if waves { pool.threads() } else { PARTS };
                        let last_group = parts.end == PARTS;
                        let mut todo = todo.into_iter();
                        loop {
                            let batch: Vec<_> = todo.by_ref().take(wave).collect();
                            if batch.is_empty() {
                                break;
                            }
                            let expanded = pool.install(|| {
                                batch
                                    .into_par_iter()
                                    .with_max_len(1)
                                    .map(|(out, frontier)| {
                                        expand_task(
                                            problem,
                                            &dir,
                                            memory,
                                            &round,
                                            out,
                                            frontier,
                                            &known,
                                            keep_leaves,
                                            &stopping,
                                        )
                                    })
                                    .collect::<Result<Vec<_>, CheckpointError>>()
                            })?;
                            let stopped = expanded.iter().any(|o| o.stopped);
                            outs.extend(expanded);
                            if stopped {
                                let left = todo.by_ref().map(|(out, _)| TaskOut {
                                    stopped: true,
                                    ..out
                                });
                                outs.extend(left);
                                cut = true;
                                break;
                            }
                            if todo.len() == 0 && last_group {
                                // The last wave: the round's end reports it.
                                break;
                            }
                            let finished: Vec<&TaskOut> =
                                outs.iter().filter(|o| !o.stopped).collect();
                            if let Some(progress) = &mut self.on_progress {
                                let mut s = stats.clone();
                                s.add_counts(&current.here);
                                s.layers.push(current.here.clone());
                                s.positions += finished.iter().map(|o| o.new).sum::<u64>();
                                s.elapsed = started.elapsed();
                                (s.queued, s.queued_across) = queued(problem, &manifest);
                                progress(&s);
                            }
                            if last_manifest.elapsed() >= MANIFEST_EVERY || cfg!(test) {
                                save_parts(&dir, &mut manifest, &current, &finished, memory)?;
                                last_manifest = Instant::now();
                            }
                        }
                        drop(known);
                        if current.split {
                            // The wave's seen sets go; their runs are on
                            // the disk.
                            for table in &mut seen[parts] {
                                guard.shrink(table.bytes());
                                *table = FpTable::default();
                            }
                            crate::explore::memory::trim_freed_memory();
                        }
                    }
                    outs.sort_by_key(|o| o.part);
                    outs
                }
                Some(launcher) => {
                    let outs = launch(&dir, &round, launcher)?;
                    // The tasks wrote their seen runs; they are read back
                    // into the seen sets unless these would then pass
                    // their budget (at 20 bytes a state, [`FpTable`]), and
                    // so be dropped after the round anyway: then they are
                    // dropped without.
                    let new: u64 = outs.iter().map(|o| o.new).sum();
                    let tables: u64 = seen.iter().map(FpTable::bytes).sum();
                    if tables + new * 20 > seen_budget {
                        seen_kept = false;
                    } else {
                        read_back(&dir, &round, &outs, &mut seen)?;
                    }
                    outs
                }
            };
            if guard.split.load(Ordering::Relaxed) && guard.reason.get().is_none() {
                // The round's seen sets would outgrow the memory left: it
                // runs again split, from the start (nothing of this try is
                // kept, the parts it finished before are kept still).
                drop(outs);
                drop(runs);
                // The seen sets, which the try added to, go to the disk as
                // the split round starts (above).
                current.done = done;
                current.split = true;
                stats.rounds_split += 1;
                manifest.current = Some(current);
                continue 'search;
            }
            if outs.iter().any(|o| o.stopped) {
                // The parts cut short are dropped; the parts finished are
                // kept, with their files (to be written with the
                // manifest), for the resumed round.
                for out in &outs {
                    if out.stopped {
                        // Its file, if it went to the disk, is read by no
                        // one: the resumed round writes it again.
                        let name = output_name(layer, current.step, out.part);
                        let _ = fs::remove_file(blocks_path(&dir, &name));
                    } else if let Some((name, info)) = &out.file {
                        let in_memory = unsaved.memory.as_ref().and_then(|m| m.get(name));
                        if !manifest.files.contains_key(name) && in_memory.is_none() {
                            unsaved.written.push(blocks_path(&dir, name));
                        }
                        manifest
                            .files
                            .entry(name.clone())
                            .or_insert_with(|| info.clone());
                    }
                }
                // The parts kept are counted when the round ends; they are
                // reported now, with the layer's rounds before them, as a
                // stop between rounds reports the layer so far (in its
                // first round, with its entries: every part's new states,
                // which every part, kept or not, has read).
                let mut here = current.here.clone();
                if current.step == 0 {
                    here.entries = outs.iter().map(|o| o.new).sum();
                    here.entries_across =
                        Some(outs.iter().map(|o| o.new_across(problem, layer)).sum());
                }
                current.done = outs.into_iter().filter(|o| !o.stopped).collect();
                let mut kept = 0;
                for out in &current.done {
                    kept += out.new;
                    out.count_into(&mut here);
                }
                here.positions += kept;
                manifest.current = Some(current);
                // The memory the round's seen sets reached counts too.
                stats.peak_memory_bytes = stats.peak_memory_bytes.max(guard.peak());
                let reason = match guard.reason.get() {
                    Some(&reason) => reason,
                    None if held_back => StopReason::Positions,
                    None => StopReason::Cancelled,
                };
                self.save_disk_manifest(&dir, &mut manifest, &stats, &mut unsaved)?;
                stats.positions += kept;
                stats.add_counts(&here);
                stats.layers.push(here);
                break 'search End::Stopped(reason);
            }
            // Past their budget, the seen sets go: the layer's rounds so
            // far are looked up on disk from the next round on, and only
            // this round's new states stay at hand (the successors met
            // again soonest: a card moved on again, a move's reverse).
            // (A split round's seen sets went wave by wave: its runs are on
            // disk, and none of it stays at hand.)
            let evict = !seen_kept || seen.iter().map(FpTable::bytes).sum::<u64>() > seen_budget;
            let last_round: Vec<Vec<Run>> = if evict { runs.clone() } else { Vec::new() };
            for (part, run) in runs.into_iter().enumerate() {
                unsaved.runs[part].extend(run);
            }
            if launcher.is_some() {
                // Its tasks wrote their seen runs; the runs held are of
                // the rounds after it.
                unsaved.runs_from = current.step + 1;
            }
            // The round is done: its counts.
            let here = &mut current.here;
            let mut new = 0;
            let mut across = 0;
            let mut task_memory = 0;
            let mut frontiers = 0;
            let mut frontier_files = 0;
            for out in &outs {
                new += out.new;
                across += out.new_across(problem, layer);
                for (&producer, &n) in &out.dups {
                    // The current layer's are added to the totals with
                    // the layer; a finished layer's now.
                    if producer == layer {
                        here.duplicates += n;
                    } else if let Some(l) =
                        stats.layers.iter_mut().rev().find(|l| l.layer == producer)
                    {
                        l.duplicates += n;
                        stats.duplicates += n;
                    }
                }
                out.count_into(here);
                stats.max_depth = stats.max_depth.max(out.max_depth);
                task_memory = task_memory.max(out.memory);
                frontiers += out.frontier_bytes;
                frontier_files += out.frontier_file_bytes;
                unsaved.seen_disk += out.seen_file_bytes;
                if out.seen_file_bytes > 0 {
                    let path = seen_path(&dir, layer, out.part, current.step, current.step);
                    unsaved.written.push(path);
                }
                if goal.is_none()
                    && let Some((fp, depth, packed)) = &out.goal
                {
                    goal = Some(FoundGoal {
                        state: problem.unpack(packed),
                        fingerprint: u128::from_str_radix(fp, 16).unwrap_or_default(),
                        depth: *depth,
                    });
                }
            }
            here.positions += new;
            stats.positions += new;
            if current.step == 0 {
                here.entries = new;
                here.entries_across = Some(across);
            }
            if new > 0 {
                here.steps += 1;
            }
            // Its files: the next round's inputs and the later layers'.
            for name in std::mem::take(&mut current.inputs) {
                let info = manifest.files.get_mut(&name).expect("an input is known");
                info.targets.remove(&layer);
                if info.targets.is_empty() {
                    let info = manifest.files.remove(&name).expect("just found");
                    if let Some(memory) = &unsaved.memory {
                        memory.forget_fps(&name);
                    }
                    if unsaved.memory.as_ref().is_some_and(|m| m.remove(&name)) {
                        // Never written.
                    } else if let Some((pack, base)) = info.pack {
                        // A pack goes with the last file in it; until
                        // then, the bytes of the files in it no layer
                        // reads are given back.
                        let in_pack = |f: &FileInfo| f.pack.as_ref().is_some_and(|p| p.0 == pack);
                        if !manifest.files.values().any(in_pack) {
                            unsaved.doomed.push(blocks_path(&dir, &pack));
                        } else {
                            unsaved
                                .holes
                                .push((blocks_path(&dir, &pack), base, info.bytes));
                        }
                    } else {
                        unsaved.doomed.push(blocks_path(&dir, &name));
                    }
                }
            }
            let mut leaves = Vec::new();
            for out in outs {
                if let Some((name, info)) = out.file {
                    for &target in &info.targets {
                        if target == layer {
                            current.inputs.push(name.clone());
                        } else {
                            assert!(
                                target > layer,
                                "a move led from layer {layer} to layer {target}: \
                                 Problem::layer must never go down"
                            );
                            manifest
                                .pending
                                .entry(target)
                                .or_default()
                                .push(name.clone());
                        }
                    }
                    let in_memory = unsaved.memory.as_ref().and_then(|m| m.get(&name));
                    if in_memory.is_none() {
                        unsaved.written.push(blocks_path(&dir, &name));
                    }
                    manifest.files.insert(name, info);
                }
                leaves.extend(out.leaf_records);
            }
            current.step += 1;
            let seen_bytes: u64 = seen.iter().map(FpTable::bytes).sum();
            let seen_len: u64 = seen.iter().map(|s| s.len() as u64).sum();
            if seen_bytes > stats.peak_table_bytes {
                stats.peak_table_bytes = seen_bytes;
                stats.peak_table_positions = seen_len;
            }
            // The files in memory and the fingerprints kept beside them.
            let held = unsaved.bytes();
            let fps_held = unsaved.memory.as_ref().map_or(0, MemFiles::fp_bytes);
            // The seen sets, what waits to be written, the frontiers (all
            // held from the first half of the round to the second), the
            // tasks running at once.
            // (Of a split round, the seen sets and frontiers of one wave.)
            let waiting = if current.split {
                split_peak
            } else {
                seen_bytes + frontiers
            };
            let memory = waiting + held + fps_held + task_memory * pool.threads().min(PARTS) as u64;
            stats.peak_memory_bytes = stats.peak_memory_bytes.max(memory);
            let finished = new == 0;
            // The next round is split again only if it outgrows the
            // memory left too.
            current.split = false;
            if evict && !finished {
                (current, old_before) = self.drop_seen(
                    &dir,
                    &mut manifest,
                    &mut stats,
                    &mut unsaved,
                    &mut seen,
                    current,
                    old_before,
                )?;
                last_manifest = Instant::now();
                for (part, runs) in last_round.iter().enumerate() {
                    for run in runs {
                        for fp in run.to_vec() {
                            seen[part].insert(fp);
                        }
                    }
                }
            }
            crate::explore::memory::trim_freed_memory();
            let snapshot = |stats: &LayeredStats, here: &LayerStats| {
                let mut s = stats.clone();
                s.add_counts(here);
                s.layers.push(here.clone());
                s.elapsed = started.elapsed();
                s
            };
            if finished {
                stats.add_counts(&current.here);
                stats.layers.push(current.here);
                unsaved.doomed.push(seen_dir(&dir, layer));
                seen.clear();
                unsaved.seen_disk = 0;
                unsaved.runs.iter_mut().for_each(Vec::clear);
            } else {
                manifest.current = Some(current);
            }
            // What the directory holds, with the frontier files of the
            // round (deleted now, they were held with its files).
            let on_disk = manifest.files.values().map(|f| f.bytes).sum::<u64>()
                + unsaved.seen_disk
                + frontier_files;
            // The checks, as the in-memory search makes them.
            let stop = 'check: {
                if let Some(on_leaf) = &mut self.on_leaf {
                    for (packed, depth) in &leaves {
                        if on_leaf(&problem.unpack(packed), *depth).is_break() {
                            break 'check Some(End::Stopped(StopReason::Callback));
                        }
                    }
                }
                if goal.is_some() && self.stop == Stop::FirstGoal {
                    break 'check Some(End::GoalFound);
                }
                if let Some(reason) = self.exceeded(&stats, started, memory) {
                    break 'check Some(End::Stopped(reason));
                }
                if options.max_bytes.is_some_and(|max| on_disk > max) {
                    break 'check Some(End::Stopped(StopReason::Disk));
                }
                None
            };
            if let Some(progress) = &mut self.on_progress {
                let mut s = match &manifest.current {
                    Some(c) => snapshot(&stats, &c.here),
                    None => {
                        let mut s = stats.clone();
                        s.elapsed = started.elapsed();
                        s
                    }
                };
                (s.queued, s.queued_across) = queued(problem, &manifest);
                progress(&s);
            }
            if stop.is_some() || last_manifest.elapsed() >= MANIFEST_EVERY || held > budget {
                self.save_disk_manifest(&dir, &mut manifest, &stats, &mut unsaved)?;
                last_manifest = Instant::now();
            }
            if let Some(end) = stop {
                if let Some(c) = &manifest.current {
                    stats = snapshot(&stats, &c.here);
                }
                break 'search end;
            }
        };
        if end == End::Exhausted {
            self.save_disk_manifest(&dir, &mut manifest, &stats, &mut unsaved)?;
        }
        (stats.queued, stats.queued_across) = queued(problem, &manifest);
        stats.elapsed = started.elapsed();
        Ok(LayeredOutcome { end, stats, goal })
    }
}
