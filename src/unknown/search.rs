//! The search over the reveals: the blind player that plans over the
//! cards not yet seen.
//!
//! At each card to turn up it weighs a few candidate lines by how games
//! go on after them, played out by the fast policy ([`super::playout`]),
//! never by what a player who saw every card could do. Step by step:
//!
//! 1. The moves that turn up nothing are as good as known: the policy's
//!    line search ([`super::playout::lines`], within `lookahead`
//!    positions, learned weights) keeps, for each way of turning up cards
//!    (a pile's face-down card, or the deal), the best line to it. The
//!    best [`CANDIDATES`] of them are the candidates.
//! 2. It draws completions of the cards not seen (each card of a
//!    completion is drawn from the unseen cards, uniformly) and, for each
//!    candidate and completion, plays the candidate's line and then the
//!    policy to the end of the game. The policy scores its moves on the
//!    masked game, so a card comes into play only when it turns up: these
//!    are chance nodes that draw each card as it turns up, not plans that
//!    know it in advance (no averaging over clairvoyance). The same
//!    completions serve every candidate (common random numbers).
//! 3. Successive halving spends the work: every candidate gets a share of
//!    the playouts, the worse half by mean outcome (1 a win, else runs
//!    removed and cards turned up) is dropped, the rest get more, until
//!    one is left or the playouts of the decision (`think`) are spent.
//! 4. The best line is played to its card; then the player decides again.
//!    When every card has been seen, the solver plays the game out as a
//!    player who sees every card would.
//!
//! The chance it shows is the share of the chosen line's playouts won:
//! what the policy makes of the game after the line, an estimate of the
//! player's own odds (the player plays better than its policy, so it is
//! calibrated on recorded games before it is shown: [`super::chance`]).
//!
//! Its budget is work (playouts and positions), never time, and its draws
//! are seeded by the game's seed and the position as seen: the same seed
//! plays the same moves on any machine and any number of threads, and two
//! deals that differ only in cards not yet seen are played alike until one
//! of those cards turns up.

use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use crate::cards::Card;
use crate::deal::numbered::SplitMix64;
use crate::game::{Game, Move};
use crate::solve::SolveError;
use crate::stats::Interval;

use super::playout::{Outcome, Scratch, Weights, completed_game, lines, play_out, shipped};
use super::policy::{Choice, Course, HiddenSettings, Policy, PolicyStats};
use super::sample::draw;
use super::view::View;

/// The most candidate lines weighed at a decision.
pub const CANDIDATES: usize = 6;
/// Positions of the policy's line search inside each playout.
pub const PLAYOUT_POSITIONS: usize = super::playout::LINE_POSITIONS;
/// Positions of the search for the candidate lines at default settings.
pub const CANDIDATE_POSITIONS: usize = 5_000;

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::new(Scratch::default());
}

/// The player (see the module docs).
pub struct Search {
    settings: HiddenSettings,
    weights: Option<Weights>,
    course: Course,
    /// The estimate of the line being played, shown with each of its moves.
    estimate: Option<Interval>,
    /// The positions met since the last card turned up, as keys of the
    /// games of their views' deals ([`Search::frame_key`]).
    met: Vec<u128>,
}

/// What the playouts of one candidate made.
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    playouts: usize,
    won: usize,
    score: f64,
}

impl Tally {
    fn mean(&self) -> f64 {
        self.score / self.playouts.max(1) as f64
    }
}

impl Search {
    pub fn new(settings: HiddenSettings) -> Search {
        Search {
            settings,
            weights: None,
            course: Course::default(),
            estimate: None,
            met: Vec::new(),
        }
    }

    /// The key of `view` in the game of its own deal (the frame every
    /// decision searches in: its stock rows counted from the view's).
    /// Between two cards turned up no row is dealt, so these keys compare.
    fn frame_key(view: &View) -> u128 {
        let game = Game::new(&view.deal()).expect("a view's deal is a deal");
        game.key(game.start())
    }

    /// The seed of a decision: the game's seed mixed with the position as
    /// seen, so that the draws depend on nothing hidden.
    fn decision_seed(&self, view: &View) -> u64 {
        let key = view.key();
        let mut rng = SplitMix64::new(self.settings.seed ^ (key as u64) ^ ((key >> 64) as u64));
        rng.next_u64()
    }

    /// Weighs `candidates` from `view` (see the module docs); returns each
    /// one's tally, in the candidates' order.
    fn weigh(
        &self,
        view: &View,
        masked: &Game,
        candidates: &[Vec<Move>],
        cancel: &AtomicBool,
    ) -> Vec<Tally> {
        let weights = self.weights.unwrap_or_else(|| shipped(view.suits()));
        let deal = view.deal();
        let unseen = view.unseen();
        let think = self.settings.samples.max(1);
        let mut rng = SplitMix64::new(self.decision_seed(view));
        let mut tallies = vec![Tally::default(); candidates.len()];
        let mut alive: Vec<usize> = (0..candidates.len()).collect();
        // Rounds of successive halving: ceil(log2(candidates)) rounds, each
        // giving the candidates alive an equal share of its playouts.
        let rounds = (usize::BITS - (candidates.len().max(2) - 1).leading_zeros()) as usize;
        let mut games: Vec<Game> = Vec::new();
        let mut spent = 0;
        for round in 0..rounds {
            let share = (think - spent) / (rounds - round) / alive.len();
            let share = share.max(1);
            let wanted = tallies[alive[0]].playouts + share;
            while games.len() < wanted {
                let fill: Vec<Card> = draw(&unseen, &mut rng);
                games.push(completed_game(&deal, &fill).expect("a completion of the view"));
            }
            let work: Vec<(usize, usize)> = alive
                .iter()
                .flat_map(|&c| (tallies[c].playouts..wanted).map(move |i| (c, i)))
                .collect();
            let outcomes: Vec<(usize, Outcome)> = work
                .par_iter()
                .map(|&(c, i)| {
                    if cancel.load(Ordering::Relaxed) {
                        return (c, Outcome::lost());
                    }
                    (
                        c,
                        self.play_line(masked, &games[i], &candidates[c], &weights),
                    )
                })
                .collect();
            spent += outcomes.len();
            for (c, outcome) in outcomes {
                let t = &mut tallies[c];
                t.playouts += 1;
                t.won += outcome.won as usize;
                t.score += outcome.score();
            }
            if alive.len() == 1 || spent >= think {
                break;
            }
            alive.sort_by(|&a, &b| {
                tallies[b]
                    .mean()
                    .total_cmp(&tallies[a].mean())
                    .then(a.cmp(&b))
            });
            alive.truncate(alive.len().div_ceil(2));
            alive.sort();
        }
        tallies
    }

    /// Plays `line` from the view on `real` (a completion), then the
    /// policy to the end of the game.
    fn play_line(&self, masked: &Game, real: &Game, line: &[Move], weights: &Weights) -> Outcome {
        let start = masked.start();
        let mut position = start.clone();
        for &mv in line {
            position = real.apply(&position, mv).position;
        }
        let after = SCRATCH.with_borrow_mut(|scratch| {
            play_out(
                masked,
                real,
                &position,
                weights,
                PLAYOUT_POSITIONS,
                &[],
                scratch,
            )
        });
        // Counted from the view, not from the line's end.
        Outcome {
            runs_removed: after.runs_removed
                + (position.runs_removed() - start.runs_removed()) as u8,
            face_down_start: start.face_down_total() as u8,
            moves: after.moves + line.len() as u32,
            ..after
        }
    }
}

impl Outcome {
    /// A playout that never ran (the decision was cancelled).
    fn lost() -> Outcome {
        Outcome {
            won: false,
            runs_removed: 0,
            face_down_left: 0,
            face_down_start: 0,
            moves: 0,
        }
    }
}

impl Policy for Search {
    fn choose(&mut self, view: &View, cancel: &AtomicBool) -> Result<Option<Choice>, SolveError> {
        if !self.course.begin(view, &self.settings.limits, cancel)? {
            return Ok(None);
        }
        if self.met.is_empty() {
            self.met.push(Search::frame_key(view));
        }
        if let Some(choice) = self.course.next() {
            return Ok(Some(Choice {
                win_estimate: self.estimate,
                ..choice
            }));
        }
        self.estimate = None;
        let weights = self.weights.unwrap_or_else(|| shipped(view.suits()));
        self.weights = Some(weights);
        let masked = Game::new(&view.deal()).expect("a view's deal is a deal");
        let met = self.met.clone();
        let budget = self.settings.lookahead.max(1);
        let candidates = SCRATCH.with_borrow_mut(|scratch| {
            lines(
                &masked,
                masked.start(),
                &weights,
                budget,
                &met,
                true,
                CANDIDATES,
                scratch,
            )
        });
        if candidates.is_empty() {
            self.course.stats.gave_up = true;
            return Ok(None);
        }
        self.course.stats.decisions += 1;
        let tallies = self.weigh(view, &masked, &candidates, cancel);
        let best = (0..candidates.len())
            .max_by(|&a, &b| {
                let (ta, tb) = (&tallies[a], &tallies[b]);
                // The most played first (successive halving kept it), then
                // the best mean; ties to the earlier (better-scored) line.
                ta.playouts
                    .cmp(&tb.playouts)
                    .then(ta.mean().total_cmp(&tb.mean()))
                    .then(b.cmp(&a))
            })
            .expect("at least one candidate");
        let estimate = |t: &Tally| Interval::of(t.won, t.playouts);
        let mut order: Vec<usize> = (0..candidates.len()).filter(|&c| c != best).collect();
        order.sort_by(|&a, &b| tallies[b].mean().total_cmp(&tallies[a].mean()));
        let alternatives = order
            .iter()
            .map(|&c| (candidates[c][0], estimate(&tallies[c])))
            .collect();
        self.course.plan = candidates[best].clone();
        self.estimate = estimate(&tallies[best]);
        Ok(Some(Choice {
            mv: self.course.plan[0],
            win_estimate: estimate(&tallies[best]),
            alternatives,
            checked: false,
        }))
    }

    fn observe(&mut self, mv: Move, view_after: &View, turned: &[Card]) {
        self.course.observe(mv, view_after, turned);
        if turned.is_empty() {
            self.met.push(Search::frame_key(view_after));
        } else {
            self.met.clear();
        }
    }

    fn stats(&self) -> PolicyStats {
        self.course.stats
    }
}
