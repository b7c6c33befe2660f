//! The exhaustive pass, the proof: the layered engine run on the stage
//! problem with the reductions, its progress, and the note its checkpoint
//! keeps.

use super::*;

impl<'a> Search<'a> {
    /// The exhaustive pass: the layered search of every position reachable
    /// from the start (see [`crate::solve::exhaustive`]), on the current rayon
    /// pool, under what is left of the limits and the pass's cap. A win's
    /// line is recovered by a second search that keeps parent links.
    pub(super) fn exhaustive(&mut self) -> Outcome {
        let mut reductions = self.limits.reductions;
        reductions.room = reductions.room.for_pass(self.pass_cap);
        // The test of the first empty pile takes 8 to 90 times the CPU a
        // position where rows are left (docs/proofs.md, *The first empty
        // pile*): only in the last pass, which runs after the guided
        // passes, so that it never holds them up.
        reductions.first_empty &= self.pass_cap.is_none();
        // The pass on disk splits its layers (a smaller seen set in
        // memory); the same positions are examined either way.
        let on_disk = self.limits.disk.is_some() && self.pass_cap.is_none();
        // A search resumed from a checkpoint or from disk would start with
        // nothing learned, and could then examine other positions than the
        // search that was not stopped: no learned conflicts where it saves
        // (the rounds on disk may also run as other processes). Where it
        // was tried on disk, in one process with what a round learned made
        // visible to the next, `r1-g5010`'s rounds took 1.6 times as long
        // (docs/proofs.md, Learned conflicts).
        let learns = self.limits.checkpoint.is_none() && !on_disk;
        reductions.learn &= learns;
        // The same for the states the first empty pile's test learns
        // (`first_empty::Learned`).
        let problem = ExhaustiveProblem::with_reductions(self.game, reductions)
            .split_layers(on_disk)
            .first_empty_learns(learns);
        let time = self
            .limits
            .time_limit
            .map(|limit| limit.saturating_sub(self.started.elapsed()));
        let left = self
            .limits
            .max_positions
            .map(|max| max.saturating_sub(self.positions));
        let cap = self.pass_cap;
        let max_positions = match (left, cap) {
            (Some(left), Some(cap)) => Some(left.min(cap)),
            (left, cap) => left.or(cap),
        };
        let limits = crate::explore::Limits {
            max_positions,
            time,
            max_memory: self.limits.memory_limit,
            cancel: None,
        };
        let game = self.game;
        let reveal_target = self.reveal_target;
        let reveals = RefCell::new(std::mem::take(&mut self.reveals));
        let progress = self.progress;
        let (before, started) = (self.positions, self.started);
        let (best_removed, fewest_face_down) = (self.best_removed, self.fewest_face_down);
        let mut search = Layered::new(&problem)
            .limits(limits.clone())
            .cancel_flag(self.cancel)
            .on_leaf(|visit, depth| {
                let step = &visit.step;
                let mut reveals = reveals.borrow_mut();
                for place in game.revealed_places(step) {
                    let fewest = reveals.entry(place).or_insert(depth as usize);
                    *fewest = (*fewest).min(depth as usize);
                }
                if reveals.len() >= reveal_target {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            })
            .on_progress(|stats| {
                progress(&Progress {
                    positions: before + stats.positions,
                    elapsed: started.elapsed(),
                    pass: "exhaustive",
                    stage: stats
                        .layers
                        .last()
                        .map_or(0, |l| LayerKey::decode(l.layer).rows_dealt),
                    best_runs_removed: best_removed,
                    fewest_face_down,
                    proof: Some(proof_progress(stats, true)),
                })
            });
        // Only the last pass, the proof, is saved: the capped passes are
        // short, and they test other entries (`RoomTest::for_pass`), so
        // their layers are not the last pass's.
        let disk = self.limits.disk.clone().filter(|_| self.pass_cap.is_none());
        if let Some(dir) = self
            .limits
            .checkpoint
            .as_ref()
            .filter(|_| self.pass_cap.is_none())
            .or(disk.as_ref().map(|d| &d.dir))
        {
            // The search is this game, with these reductions.
            let id = format!(
                "spider analyze, exhaustive pass, game {:032x}, {}",
                crate::explore::fingerprint_of(&format!("{game:?}")),
                checkpoint_settings(&reductions)
            );
            search = match disk {
                Some(options) => search.disk(options, id),
                None => search.checkpoint(dir, id),
            };
            search = search.checkpoint_note(
                || checkpoint_note(&reveals.borrow(), &problem.fewest_per_pile()),
                |note| {
                    let (restored, fewest) = read_checkpoint_note(note);
                    let mut reveals = reveals.borrow_mut();
                    for (place, depth) in restored {
                        let known = reveals.entry(place).or_insert(depth);
                        *known = (*known).min(depth);
                    }
                    if let Some(fewest) = fewest {
                        problem.note_fewest_per_pile(fewest);
                    }
                },
            );
        }
        let outcome = search.run();
        self.reveals = reveals.into_inner();
        let outcome = match outcome {
            Ok(outcome) => outcome,
            Err(error) => {
                self.checkpoint_error = Some(error);
                return Outcome::Stopped;
            }
        };
        let stats = &outcome.stats;
        self.proof = Some(proof_progress(
            stats,
            !matches!(outcome.end, End::Exhausted),
        ));
        self.positions += stats.positions;
        self.dead_ends += stats.dead;
        self.exhaustive_memory = stats.peak_memory_bytes;
        for (fewest, seen) in self
            .fewest_per_pile
            .iter_mut()
            .zip(problem.fewest_per_pile())
        {
            *fewest = (*fewest).min(seen);
        }
        for layer in stats.layers.iter().filter(|l| l.positions > l.leaves) {
            let key = LayerKey::decode(layer.layer);
            self.best_removed = self.best_removed.max(key.runs_removed);
            self.fewest_face_down = self.fewest_face_down.min(key.face_down);
        }
        match outcome.end {
            End::Exhausted => Outcome::Exhausted,
            End::GoalFound => {
                let goal = outcome.goal.expect("a goal found comes with its state");
                // Time and Ctrl-C only: the line search keeps parent links,
                // so it may store more than the pass's cap allowed.
                let line = Layered::new(&problem)
                    .limits(crate::explore::Limits {
                        time: limits.time,
                        ..crate::explore::Limits::default()
                    })
                    .cancel_flag(self.cancel)
                    .line_to(goal.fingerprint);
                match line {
                    Some(line) => Outcome::Won(line),
                    None => {
                        self.stopped = Some(if self.cancel.load(Ordering::Relaxed) {
                            StopReason::Cancelled
                        } else {
                            StopReason::Time
                        });
                        Outcome::Stopped
                    }
                }
            }
            End::Stopped(reason) => {
                let positions = stats.positions;
                if reason == EngineStop::Positions
                    && cap.is_some_and(|cap| positions >= cap)
                    && left.is_none_or(|left| cap.is_some_and(|cap| cap <= left))
                {
                    self.capped = true;
                    if let Some(proof) = self.proof.as_mut() {
                        proof.cap = cap;
                    }
                    return Outcome::Stopped;
                }
                self.stopped = Some(match reason {
                    EngineStop::Positions => StopReason::Positions,
                    EngineStop::Time => StopReason::Time,
                    EngineStop::Memory => StopReason::Memory,
                    EngineStop::MachineMemory => StopReason::MachineMemory,
                    EngineStop::Cancelled => StopReason::Cancelled,
                    EngineStop::Callback => StopReason::UnknownCards,
                    EngineStop::Disk => StopReason::Disk,
                });
                Outcome::Stopped
            }
        }
    }
}

/// How far a layered search got: `running` when its last layer is not
/// finished. The estimate of what is left is made per whole layer
/// ([`crate::game::whole_layer_of`]), whatever layers the search split: it
/// multiplies the entries of the current whole layer and the queued
/// positions by the growth of the whole layers so far (positions per
/// entry), the higher of the finished ones' and the current one's (which
/// only grows). A whole layer's entries are those that came from another
/// whole layer ([`LayerStats::entries_across`]), and so are the queued
/// positions counted: a split layer's entries from a split layer of the
/// same whole layer, and the positions queued there, are the whole layer's
/// growth, which the search in whole layers finds in the layer itself.
/// Counted per split layer, the growth was far too low (docs/engine.md).
pub(super) fn proof_progress(
    stats: &crate::explore::layered::LayeredStats,
    running: bool,
) -> ProofProgress {
    let (finished, current) = match stats.layers.split_last() {
        Some((last, rest)) if running => (rest, Some(last)),
        _ => (&stats.layers[..], None),
    };
    // Whole layers: positions and entries from another whole layer.
    let whole_of = |l: &LayerStats| crate::game::whole_layer_key(l.layer);
    let across = |l: &LayerStats| l.entries_across.unwrap_or(l.entries);
    let (done_layers, now_layers): (Vec<&LayerStats>, Vec<&LayerStats>) = match current {
        Some(current) => stats
            .layers
            .iter()
            .partition(|l| whole_of(l) != whole_of(current)),
        None => (stats.layers.iter().collect(), Vec::new()),
    };
    let totals = |layers: &[&LayerStats]| {
        (
            layers.iter().map(|l| l.positions).sum::<u64>(),
            layers.iter().map(|l| across(l)).sum::<u64>(),
        )
    };
    let growth = |(positions, entries): (u64, u64)| positions as f64 / entries.max(1) as f64;
    let done = growth(totals(&done_layers));
    let (now_positions, now_entries) = totals(&now_layers);
    let now = current.map_or(0.0, |_| growth((now_positions, now_entries)));
    let rate = growth((stats.positions, 1)) / stats.elapsed.as_secs_f64().max(1e-3);
    let g = done.max(now).max(1.0);
    let rest_of_layer = current.map_or(0.0, |_| {
        (now_entries as f64 * g - now_positions as f64).max(0.0)
    });
    ProofProgress {
        layers_finished: finished.len(),
        layer: current.map(|l| LayerKey::decode(l.layer)),
        positions: stats.positions,
        dead_ends: stats.dead,
        queued: stats.queued,
        estimate_left: (rest_of_layer + stats.queued_across as f64 * g) as u64,
        rate,
        threads: stats.threads,
        seen_dropped: stats.seen_dropped,
        rounds_split: stats.rounds_split,
        cap: None,
    }
}

/// The solver's note in an exhaustive pass's checkpoint: a line per `XX`
/// slot turned up (`d PILE INDEX DEPTH` for a face-down card, `s ROW PILE
/// DEPTH` for a stock card) and one with the fewest face-down cards on
/// each pile (`fewest N N ...`).
pub(super) fn checkpoint_note(reveals: &BTreeMap<Place, usize>, fewest: &[u8; PILES]) -> String {
    let mut note = String::new();
    for (place, depth) in reveals {
        match *place {
            Place::FaceDown { pile, index } => {
                note.push_str(&format!("d {pile} {index} {depth}\n"))
            }
            Place::Stock { row, pile } => note.push_str(&format!("s {row} {pile} {depth}\n")),
            _ => {}
        }
    }
    note.push_str("fewest");
    for n in fewest {
        note.push_str(&format!(" {n}"));
    }
    note.push('\n');
    note
}

/// What [`checkpoint_note`] wrote (lines it does not know are skipped).
pub(super) fn read_checkpoint_note(note: &str) -> (Vec<(Place, usize)>, Option<[u8; PILES]>) {
    let mut reveals = Vec::new();
    let mut fewest = None;
    for line in note.lines() {
        let mut words = line.split_whitespace();
        let kind = words.next();
        let numbers: Vec<usize> = words.filter_map(|w| w.parse().ok()).collect();
        match (kind, numbers.as_slice()) {
            (Some("d"), &[pile, index, depth]) => {
                reveals.push((Place::FaceDown { pile, index }, depth))
            }
            (Some("s"), &[row, pile, depth]) => reveals.push((Place::Stock { row, pile }, depth)),
            (Some("fewest"), counts) if counts.len() == PILES => {
                fewest = Some(std::array::from_fn(|pile| counts[pile].min(255) as u8))
            }
            _ => {}
        }
    }
    (reveals, fewest)
}

/// The reductions as a checkpoint names them: as `Debug` writes them,
/// without the dead-end test's deal rule when it is off
/// ([`Reductions::deals_fill`], added on 2026-11-27), so that a checkpoint
/// written before the rule existed, which searched without it, still
/// resumes.
pub(super) fn checkpoint_settings(reductions: &Reductions) -> String {
    let mut settings = format!("{reductions:?}");
    if !reductions.first_empty {
        settings = settings.replace(", first_empty: false", "");
    }
    if reductions.deals_fill || reductions.first_empty {
        settings
    } else {
        settings.replace(", deals_fill: false", "")
    }
}
