//! Beams: move beams over single moves, stage beams over dealt positions,
//! and the lookahead that ranks what a beam keeps.

use super::*;

impl<'a> Search<'a> {
    /// The move beam pass (see [`Pass::MoveBeam`]): every position it
    /// keeps is counted, so the limits stop it as they stop the others.
    pub(super) fn move_beam(&mut self, width: usize, thorough: bool, breaks_only: bool) -> Outcome {
        let (game, cancel) = (self.game, self.cancel);
        let mut stopped = false;
        let mut count = |position: &Position| {
            self.move_beam_kept += 1;
            stopped = self
                .count_position(position, position.rows_dealt())
                .is_err();
            !stopped
        };
        let won = crate::solve::improve::win_by_move_beam(
            game,
            width,
            thorough,
            breaks_only,
            cancel,
            &mut count,
        );
        self.peak_memory = self.peak_memory.max(self.memory_estimate());
        self.move_beam_kept = 0;
        match won {
            Some(line) => Outcome::Won(line),
            None if stopped || cancel.load(Ordering::Relaxed) => {
                if self.stopped.is_none() && !self.capped {
                    self.stopped = Some(StopReason::Cancelled);
                }
                Outcome::Stopped
            }
            None => Outcome::Exhausted,
        }
    }

    /// The beam pass: stage by stage, the `width` best entries (by the score
    /// of the position just dealt) are explored and dealt from.
    pub(super) fn beam(
        &mut self,
        start: Position,
        budget: usize,
        width: usize,
        move_cost: i32,
        lookahead: usize,
        thorough: bool,
    ) -> Outcome {
        let probe = Pass::Probe {
            budget,
            width,
            move_cost,
            thorough,
        };
        // How many dealt positions compete for the next stage's entries.
        let pool = if lookahead > 0 {
            width * LOOKAHEAD_POOL
        } else {
            width
        };
        let mut entries = vec![(start, Vec::new())];
        while !entries.is_empty() {
            // Positions of different stages differ (in rows dealt), so the
            // beam needs only this stage's positions in its visited set: a
            // fresh set per stage stays small, and faster to look up.
            self.visited = KeySet::default();
            for (entry, _) in &entries {
                self.visited.insert(self.key(entry));
            }
            let stage = entries[0].0.rows_dealt();
            let rows_left = self.game.rows_left(&entries[0].0);
            // The best `width` dealt positions so far, worst on top, each
            // with its line; only these are kept, not the stages explored.
            let mut best: BinaryHeap<std::cmp::Reverse<Candidate>> = BinaryHeap::new();
            let mut order = 0u64;
            for (entry, entry_line) in &entries {
                let nodes = match self.explore_stage(entry.clone(), probe, 0) {
                    Ok(Explored::Won(nodes)) => {
                        let mut line = entry_line.clone();
                        line.extend(path_to(&nodes, nodes.len() - 1));
                        self.nodes_alive -= nodes.len() as u64;
                        return Outcome::Won(line);
                    }
                    Ok(Explored::All(nodes)) => nodes,
                    Err(Stopped) => return Outcome::Stopped,
                };
                for (index, node) in nodes.iter().enumerate() {
                    if rows_left == 0 || self.game.check(&node.position, Move::Deal).is_err() {
                        continue;
                    }
                    // Among equal scores, the one found first. Most dealt
                    // positions do not make the cut: score them without
                    // playing the deal, and play it only for those that do.
                    order += 1;
                    let length_cost = move_cost * (entry_line.len() as i32 + node.depth as i32);
                    let quick = score_after_deal(self.game, &node.position, node.score)
                        .map(|dealt| dealt - length_cost);
                    let falls_short = |dealt: i32| {
                        best.len() == pool
                            && best
                                .peek()
                                .is_some_and(|worst| (dealt, u64::MAX - order) <= worst.0.rank)
                    };
                    if quick.is_some_and(falls_short) {
                        self.cut = true;
                        continue;
                    }
                    let step = self.game.apply(&node.position, Move::Deal);
                    if !step.reveals.is_empty() {
                        self.cut = true;
                        let length = entry_line.len() + node.depth as usize + 1;
                        if self.record_reveals(&step, length).is_err() {
                            self.nodes_alive -= (nodes.len() + best.len()) as u64;
                            return Outcome::Stopped;
                        }
                        continue;
                    }
                    let dealt = quick.unwrap_or_else(|| score(&step.position) - length_cost);
                    debug_assert_eq!(dealt, score(&step.position) - length_cost);
                    if falls_short(dealt) {
                        self.cut = true;
                        continue;
                    }
                    let rank = (dealt, u64::MAX - order);
                    let mut line = entry_line.clone();
                    line.extend(path_to(&nodes, index));
                    line.push(Move::Deal);
                    best.push(std::cmp::Reverse(Candidate {
                        rank,
                        position: step.position,
                        line,
                    }));
                    self.nodes_alive += 1;
                    if best.len() > pool {
                        self.cut = true;
                        best.pop();
                        self.nodes_alive -= 1;
                    }
                }
                self.nodes_alive -= nodes.len() as u64;
            }
            self.nodes_alive -= best.len() as u64;
            let mut chosen: Vec<Candidate> = best.into_iter().map(|c| c.0).collect();
            chosen.sort_by_key(|c| std::cmp::Reverse(c.rank));
            let mut next = Vec::with_capacity(chosen.len());
            for Candidate { position, line, .. } in chosen {
                if !self.visited.insert(self.key(&position)) {
                    continue;
                }
                if self.count_position(&position, stage).is_err() {
                    return Outcome::Stopped;
                }
                if position.is_won() {
                    return Outcome::Won(line);
                }
                next.push((position, line));
            }
            if lookahead > 0 {
                match self.look_ahead(next, lookahead, move_cost, width, thorough) {
                    Ok(Looked::Won(line)) => return Outcome::Won(line),
                    Ok(Looked::Best(best)) => next = best,
                    Err(Stopped) => return Outcome::Stopped,
                }
            }
            entries = next;
        }
        Outcome::Exhausted
    }

    /// Judges each dealt position by a short best-first exploration of its
    /// stage (`budget` expansions, each in a visited set of its own so that
    /// one does not starve another): its value is the best score met, less
    /// `move_cost` per move of the line to it. Keeps the `width` best, in
    /// order, or returns the line of a win met on the way.
    pub(super) fn look_ahead(
        &mut self,
        dealt: Vec<(Position, Vec<Move>)>,
        budget: usize,
        move_cost: i32,
        width: usize,
        thorough: bool,
    ) -> Result<Looked, Stopped> {
        let probe = Pass::Probe {
            budget,
            width,
            move_cost,
            thorough,
        };
        // A look stopped at its budget leaves nothing out: the positions
        // kept are explored in full in the next stage.
        let cut = self.cut;
        let mut valued = Vec::with_capacity(dealt.len());
        for (order, (position, line)) in dealt.into_iter().enumerate() {
            self.visited = KeySet::default();
            self.visited.insert(self.key(&position));
            let nodes = match self.explore_stage(position.clone(), probe, line.len())? {
                Explored::Won(nodes) => {
                    let mut won = line;
                    won.extend(path_to(&nodes, nodes.len() - 1));
                    self.nodes_alive -= nodes.len() as u64;
                    return Ok(Looked::Won(won));
                }
                Explored::All(nodes) => nodes,
            };
            self.nodes_alive -= nodes.len() as u64;
            let value = nodes
                .iter()
                .map(|node| node.score - move_cost * (line.len() as i32 + node.depth as i32))
                .max()
                .unwrap_or(i32::MIN);
            valued.push((value, std::cmp::Reverse(order), position, line));
        }
        // Best value first; among equals, the better dealt score (the
        // order the candidates came in).
        valued.sort_by_key(|entry| std::cmp::Reverse((entry.0, entry.1)));
        self.cut = cut || valued.len() > width;
        valued.truncate(width);
        Ok(Looked::Best(
            valued
                .into_iter()
                .map(|(_, _, position, line)| (position, line))
                .collect(),
        ))
    }
}

/// A position just dealt that a beam may take on, ranked by score (then by
/// the order it was found, earlier first), with the line to it.
pub(super) struct Candidate {
    pub(super) rank: (i32, u64),
    pub(super) position: Position,
    pub(super) line: Vec<Move>,
}

impl PartialEq for Candidate {
    fn eq(&self, other: &Self) -> bool {
        self.rank == other.rank
    }
}

impl Eq for Candidate {}

impl PartialOrd for Candidate {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Candidate {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.rank.cmp(&other.rank)
    }
}

/// What a beam's lookahead found: a win, or the dealt positions to keep.
pub(super) enum Looked {
    Won(Vec<Move>),
    Best(Vec<(Position, Vec<Move>)>),
}

/// The positions of an explored stage; when a win was met, it is the last.
pub(super) enum Explored {
    Won(Vec<Node>),
    All(Vec<Node>),
}
