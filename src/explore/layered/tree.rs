//! Trees (no deduplication: N-queens, the quiz) searched breadth-first,
//! then depth-first in parallel; and the line to a goal found again.

use super::*;

impl<'a, P: PackedProblem> Layered<'a, P>
where
    P::State: Send,
    P::Move: Send,
{
    /// A tree (deduplication off): breadth-first until every thread has
    /// work, then depth-first from each state of that frontier in parallel.
    pub(super) fn run_tree(self, pool: Pool) -> LayeredOutcome<P::State> {
        let problem = self.problem;
        let started = Instant::now();
        let threads = pool.threads();
        let mut stats = LayeredStats {
            threads,
            positions: 1,
            ..LayeredStats::default()
        };
        let mut goal = None;
        let mut frontier = vec![(problem.start(), 0u32)];
        let mut out = Vec::new();
        let mut counts = TreeCounts::default();
        // Breadth-first to a frontier of a few hundred states per thread.
        while !frontier.is_empty() && frontier.len() < 256 * threads {
            let mut next = Vec::new();
            for (state, depth) in frontier {
                counts.max_depth = counts.max_depth.max(depth);
                match problem.kind(&state) {
                    NodeKind::Inner => {}
                    NodeKind::Leaf => {
                        counts.leaves += 1;
                        continue;
                    }
                    NodeKind::Dead => {
                        counts.dead += 1;
                        continue;
                    }
                    NodeKind::Goal => {
                        counts.goals += 1;
                        if goal.is_none() {
                            goal = Some(FoundGoal {
                                fingerprint: problem.fingerprint(&state),
                                state,
                                depth,
                            });
                        }
                        continue;
                    }
                }
                counts.expanded += 1;
                out.clear();
                problem.successors(&state, &mut out);
                counts.moves += out.len() as u64;
                next.extend(out.drain(..).map(|(_, s)| (s, depth + 1)));
            }
            stats.positions += next.len() as u64;
            frontier = next;
            if goal.is_some() && self.stop == Stop::FirstGoal {
                frontier.clear();
            }
        }
        let found = Mutex::new(goal);
        let stop_flag =
            AtomicBool::new(self.stop == Stop::FirstGoal && found.lock().unwrap().is_some());
        let stopped: Mutex<Option<StopReason>> = Mutex::new(None);
        let generated = AtomicU64::new(0);
        let (limits, cancel, stop) = (&self.limits, self.cancel, self.stop);
        let total = pool.install(|| {
            frontier
                .into_par_iter()
                .map(|(state, depth)| {
                    let mut counts = TreeCounts::default();
                    let mut stack = vec![(state, depth)];
                    let mut out = Vec::new();
                    let mut since_check = 0u32;
                    while let Some((state, depth)) = stack.pop() {
                        counts.max_depth = counts.max_depth.max(depth);
                        match problem.kind(&state) {
                            NodeKind::Inner => {}
                            NodeKind::Leaf => {
                                counts.leaves += 1;
                                continue;
                            }
                            NodeKind::Dead => {
                                counts.dead += 1;
                                continue;
                            }
                            NodeKind::Goal => {
                                counts.goals += 1;
                                let mut found = found.lock().unwrap();
                                if found.is_none() {
                                    *found = Some(FoundGoal {
                                        fingerprint: problem.fingerprint(&state),
                                        state,
                                        depth,
                                    });
                                }
                                if stop == Stop::FirstGoal {
                                    stop_flag.store(true, Ordering::Relaxed);
                                }
                                continue;
                            }
                        }
                        since_check += 1;
                        if since_check == 1 << 16 {
                            since_check = 0;
                            let so_far = generated.fetch_add(counts.generated, Ordering::Relaxed)
                                + counts.generated;
                            counts.reported += counts.generated;
                            counts.generated = 0;
                            if let Some(reason) = exceeded(limits, cancel, so_far, started, 0) {
                                stopped.lock().unwrap().get_or_insert(reason);
                                stop_flag.store(true, Ordering::Relaxed);
                            }
                        }
                        if stop_flag.load(Ordering::Relaxed) {
                            break;
                        }
                        counts.expanded += 1;
                        out.clear();
                        problem.successors(&state, &mut out);
                        counts.moves += out.len() as u64;
                        counts.generated += out.len() as u64;
                        // Reversed, so that the first successor is expanded first.
                        stack.extend(out.drain(..).rev().map(|(_, s)| (s, depth + 1)));
                    }
                    counts.reported += counts.generated;
                    counts
                })
                .reduce(TreeCounts::default, TreeCounts::add)
        });
        let counts = counts.add(total);
        stats.positions += counts.reported;
        stats.expanded = counts.expanded;
        stats.moves = counts.moves;
        stats.goals = counts.goals;
        stats.leaves = counts.leaves;
        stats.dead = counts.dead;
        stats.max_depth = counts.max_depth;
        stats.elapsed = started.elapsed();
        let goal = found.into_inner().unwrap();
        let end = match stopped.into_inner().unwrap() {
            Some(reason) => End::Stopped(reason),
            None if goal.is_some() && self.stop == Stop::FirstGoal => End::GoalFound,
            None => End::Exhausted,
        };
        LayeredOutcome { end, stats, goal }
    }

    /// A line of moves from the start to the state with fingerprint
    /// `target`: a second search, one thread, layer by layer, that keeps a
    /// parent link (32 bytes and the move) for every state it stores and
    /// stops when it meets the target. `None` if the target is not
    /// reachable (or a limit of this search stopped it first).
    pub fn line_to(&self, target: u128) -> Option<Vec<P::Move>> {
        let problem = self.problem;
        let started = Instant::now();
        let start = problem.start();
        let start_fp = problem.fingerprint(&start);
        let mut parents: HashMap<u128, Option<(u128, P::Move)>, ahash::RandomState> =
            HashMap::default();
        parents.insert(start_fp, None);
        let line = |parents: &HashMap<u128, Option<(u128, P::Move)>, ahash::RandomState>| {
            let mut line = Vec::new();
            let mut at = target;
            while let Some(Some((parent, mv))) = parents.get(&at) {
                line.push(mv.clone());
                at = *parent;
            }
            line.reverse();
            line
        };
        if start_fp == target {
            return Some(Vec::new());
        }
        let mut pending: BTreeMap<u64, Vec<P::State>> = BTreeMap::new();
        pending.insert(problem.layer(&start), vec![start]);
        let mut out = Vec::new();
        let mut checks = 0u32;
        while let Some((layer, entries)) = pending.pop_first() {
            let mut queue = std::collections::VecDeque::from(entries);
            while let Some(state) = queue.pop_front() {
                if problem.kind(&state) != NodeKind::Inner {
                    continue;
                }
                checks += 1;
                if checks.is_multiple_of(4096) {
                    let probe = LayeredStats {
                        positions: parents.len() as u64,
                        ..LayeredStats::default()
                    };
                    if self.exceeded(&probe, started, 0).is_some() {
                        return None;
                    }
                }
                let from = problem.fingerprint(&state);
                out.clear();
                problem.successors(&state, &mut out);
                for (mv, next) in out.drain(..) {
                    let fp = problem.fingerprint(&next);
                    if parents.contains_key(&fp) {
                        continue;
                    }
                    parents.insert(fp, Some((from, mv)));
                    if fp == target {
                        return Some(line(&parents));
                    }
                    let next_layer = problem.layer(&next);
                    if next_layer == layer {
                        queue.push_back(next);
                    } else {
                        pending.entry(next_layer).or_default().push(next);
                    }
                }
            }
        }
        None
    }
}
