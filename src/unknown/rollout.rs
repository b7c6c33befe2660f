//! The player that draws a hidden card only when it turns up: policy
//! rollouts over the reveals.
//!
//! Hindsight optimisation ([`super::blind::Hop`]) solves each sampled
//! completion with every card known, so its plans rely on cards no player
//! could know yet: it "averages over clairvoyance" (Bjarnason, Fern and
//! Tadepalli, ICAPS 2009), and a move that needs a lucky card rates as well
//! as a safe one. [`Rollout`] never lets a plan see a card before it turns
//! up. Step by step:
//!
//! 1. The moves that turn up nothing are as good as known: from the view it
//!    searches them all ([`super::lookahead::lines`], within `lookahead`
//!    positions) and keeps, for each way of turning up cards (a pile's
//!    face-down card, or the deal), the best line to it. These are the
//!    *candidates*, at most [`CANDIDATES`] of them, best scored first.
//! 2. It draws `samples` completions of the unseen cards. For each
//!    candidate and each completion it plays a *rollout*: the candidate's
//!    line, then the base player (the lookahead's best line, again and
//!    again, within [`ROLLOUT_LOOKAHEAD`] positions) for [`DEPTH`] more
//!    reveals, against a referee that holds the completion. The base
//!    player reads only views, so each card of the completion comes into
//!    play only when it turns up: drawing it then from the unseen cards or
//!    drawing every card first is the same draw. The same completions
//!    serve every candidate (common random numbers: a candidate is not
//!    preferred for luckier cards). When nothing is hidden any more, the
//!    rollout's game is decided by the solver, as a player who sees every
//!    card would.
//! 3. A rollout is worth [`WON`] when won, else the lookahead's
//!    [`value`] of where it stopped plus [`ROW_DEALT`] for each stock row
//!    dealt. The candidate with the best mean is played, its whole line to
//!    the reveal; then the player decides again with what turned up.
//!
//! This is one step of policy iteration (Bertsekas's rollout algorithm),
//! which plays at least as well as its base player when the rollouts value
//! the candidates truly. Here they do not: rollouts to the end of the game
//! are too noisy for the few that fit the budget, and rollouts cut after a
//! few reveals are biased by their end value; measured, it wins fewer
//! games than its base player (the `lookahead` player; figures in
//! docs/unknown-cards.md). It peeks at nothing: it reads only views, and
//! the completions are drawn from the cards not yet seen.

use std::collections::HashSet;
use std::sync::atomic::AtomicBool;

use rayon::prelude::*;

use crate::cards::Card;
use crate::deal::ShapeError;
use crate::deal::numbered::SplitMix64;
use crate::game::{Move, Position};
use crate::solve::{Limits, SolveError, Verdict, analyze_unshortened};
use crate::stats::Interval;

use super::lookahead::{Line, best_line, value};
use super::policy::{Choice, Course, HiddenSettings, Policy, PolicyStats, Ready};
use super::referee::Referee;
use super::sample::draw;
use super::view::View;

/// The most candidate lines rolled out at a decision.
pub const CANDIDATES: usize = 6;
/// Positions of the base player's lookahead in a rollout.
pub const ROLLOUT_LOOKAHEAD: usize = 300;
/// The value of a rollout that wins: more than any score.
pub const WON: i64 = 100_000;
/// Reveals a rollout plays past its candidate line (a deal counts as one)
/// before it is valued. Rollouts to the end of the game vary so much
/// (a run removed or not is 400 points) that a few of them rate the
/// candidates at random; three reveals keep the spread within a few cards.
pub const DEPTH: usize = 3;
/// The value of a stock row dealt, in a rollout's end value: rollouts that
/// stop after a few reveals end with different rows left, and a row dealt
/// is ten cards of the stock spent. Without it, the rollouts after a deal
/// (ten new cards to build with) outscore every other line, and the player
/// deals as soon as it can.
pub const ROW_DEALT: i64 = -100;
/// Moves after which a rollout stops (a guard: the base player avoids
/// positions it has been through, so it ends long before).
const ROLLOUT_MOVES: usize = 2_000;
/// Positions the solver may take for a rollout's game with nothing hidden.
pub const ENDGAME_POSITIONS: u64 = 20_000;

/// The rollout player (see the module docs).
#[derive(Clone, Debug)]
pub struct Rollout {
    settings: HiddenSettings,
    rng: SplitMix64,
    course: Course,
}

impl Rollout {
    pub fn new(settings: HiddenSettings) -> Rollout {
        Rollout {
            rng: SplitMix64::new(settings.seed),
            settings,
            course: Course::default(),
        }
    }
}

impl Policy for Rollout {
    fn choose(&mut self, view: &View, cancel: &AtomicBool) -> Result<Option<Choice>, SolveError> {
        let found = match self.course.lines(view, &self.settings, cancel)? {
            Ready::Choice(choice) => return Ok(choice),
            Ready::Lines(found) => found,
        };
        let mut candidates: Vec<Line> = found.leaves;
        candidates.truncate(CANDIDATES);
        if candidates.is_empty() {
            // Nothing can be turned up: arrange toward the best position.
            let Some(inner) = found.inner else {
                return Ok(None);
            };
            self.course.stats.unplanned_moves += inner.moves.len();
            return Ok(self.course.play(inner.moves));
        }
        self.course.stats.decisions += 1;
        let samples = self.settings.samples.max(1);
        let rated = rate_by_rollouts(
            view,
            &candidates,
            samples,
            usize::MAX,
            &mut self.rng,
            |deal, line| Ok((rollout(deal, line, cancel)?, 0)),
        )?;
        let best = rated[0].line;
        self.course.plan = candidates[best].moves.clone();
        let estimate = |r: &Rated| Interval::of(r.wins, r.rollouts);
        Ok(Some(Choice {
            mv: self.course.plan[0],
            win_estimate: estimate(&rated[0]),
            alternatives: rated[1..]
                .iter()
                .map(|r| (candidates[r.line].moves[0], estimate(r)))
                .collect(),
            checked: false,
        }))
    }

    fn observe(&mut self, mv: Move, view_after: &View, turned: &[Card]) {
        self.course.observe(mv, view_after, turned);
    }

    fn stats(&self) -> PolicyStats {
        self.course.stats
    }
}

/// A candidate line rated by its rollouts ([`rate_by_rollouts`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rated {
    /// Its index among the candidates.
    pub line: usize,
    /// The mean worth of its rollouts.
    pub mean: f64,
    /// Its rollouts worth [`WON`] or more: games won.
    pub wins: usize,
    /// Its rollouts (every line of a rating has as many).
    pub rollouts: usize,
}

/// Rates each of `candidates` (lines from `view`) by up to `samples`
/// rollouts, `rollout(deal, line)` on a deal that fills the cards `view`
/// has not seen with a completion drawn from `rng`: the same completions
/// for every line (common random numbers: a line is not preferred for
/// luckier cards), each drawn from the unseen cards only. A rollout gives
/// its worth and the work it took (in any unit the caller counts); the
/// rollouts run in rounds, one completion a round for every line, and
/// after a round whose total work reaches `most_work` no more rounds are
/// played, so every line keeps the same completions. The work of a
/// rollout does not depend on the threads, so neither does the number of
/// rounds: the rating is the same on any machine. The rollouts of a round
/// run in parallel on the current rayon pool; the completions are drawn
/// first, in order. Best mean first; equal means keep the candidates'
/// order.
pub fn rate_by_rollouts(
    view: &View,
    candidates: &[Line],
    samples: usize,
    most_work: usize,
    rng: &mut SplitMix64,
    rollout: impl Fn(&crate::deal::Deal, &[Move]) -> Result<(i64, usize), SolveError> + Sync,
) -> Result<Vec<Rated>, SolveError> {
    let unseen = view.unseen();
    let fills: Vec<Vec<Card>> = (0..samples).map(|_| draw(&unseen, rng)).collect();
    let masked = view.deal();
    // values[c]: the worths of candidate c's rollouts, round by round.
    let mut values: Vec<Vec<i64>> = vec![Vec::new(); candidates.len()];
    let mut work = 0usize;
    for fill in &fills {
        let deal = masked.with_unknowns_filled(fill)?;
        let round = candidates
            .par_iter()
            .map(|line| rollout(&deal, &line.moves))
            .collect::<Result<Vec<(i64, usize)>, SolveError>>()?;
        for (mine, (worth, cost)) in values.iter_mut().zip(round) {
            mine.push(worth);
            work = work.saturating_add(cost);
        }
        if work >= most_work {
            break;
        }
    }
    let mut rated: Vec<Rated> = values
        .iter()
        .enumerate()
        .map(|(c, mine)| Rated {
            line: c,
            mean: mine.iter().sum::<i64>() as f64 / mine.len() as f64,
            wins: mine.iter().filter(|&&v| v >= WON).count(),
            rollouts: mine.len(),
        })
        .collect();
    rated.sort_by(|a, b| b.mean.total_cmp(&a.mean).then(a.line.cmp(&b.line)));
    Ok(rated)
}

/// One rollout: `line` then the base player on `deal` (every card known
/// to the referee, none to the player) for [`DEPTH`] more reveals; worth
/// [`WON`] when won, else the score where it stopped.
fn rollout(
    deal: &crate::deal::Deal,
    line: &[Move],
    cancel: &AtomicBool,
) -> Result<i64, SolveError> {
    let end = play_out(deal, line, DEPTH, ROLLOUT_LOOKAHEAD, cancel)?;
    let position = &end.position;
    Ok(if end.won {
        WON
    } else {
        value(position, deal.suits) as i64 + position.rows_dealt() as i64 * ROW_DEALT
    })
}

/// Where [`play_out`] stopped.
#[derive(Clone, Debug)]
pub struct PlayedOut {
    /// Whether the game was won (once nothing was hidden, by the solver's
    /// line within [`ENDGAME_POSITIONS`]).
    pub won: bool,
    /// The last position, as the player saw it.
    pub position: Position,
}

/// Plays `line` on `deal` (every card known to the referee, none to the
/// player), then the base player, the lookahead's best line within
/// `lookahead` positions again and again, until `reveals` more lines have
/// turned up cards (a deal counts as one; `usize::MAX` plays to the end),
/// the base player has no line, or nothing is hidden any more, where the
/// solver decides the rest as a player who sees every card would. The
/// base player reads only views: each card of `deal` comes into play only
/// when it turns up.
pub fn play_out(
    deal: &crate::deal::Deal,
    line: &[Move],
    reveals: usize,
    lookahead: usize,
    cancel: &AtomicBool,
) -> Result<PlayedOut, SolveError> {
    let shape = |e: String| SolveError::Shape(ShapeError(e));
    let mut referee = Referee::new(deal).map_err(|e| shape(e.to_string()))?;
    let mut seen: HashSet<u128> = HashSet::from([referee.view().key()]);
    let mut played = 0usize;
    let mut turned = 0usize;
    for &mv in line {
        referee.play(mv).map_err(|e| shape(e.to_string()))?;
        seen.insert(referee.view().key());
        played += 1;
    }
    while !referee.is_won() && played < ROLLOUT_MOVES && turned < reveals {
        let view = referee.view();
        if view.hidden_count() == 0 {
            // Nothing hidden: what a player who sees every card can do.
            let limits = Limits {
                max_positions: Some(ENDGAME_POSITIONS),
                shorten_positions: 0,
                ..Limits::default()
            };
            let analysis = analyze_unshortened(&view.deal(), &limits, cancel)?;
            return Ok(PlayedOut {
                won: analysis.verdict == Verdict::Winnable,
                position: view.position().clone(),
            });
        }
        let Some(next) = best_line(&view.deal(), lookahead, &seen)? else {
            break;
        };
        if next.moves.is_empty() {
            break;
        }
        if next.turns_up {
            turned += 1;
        }
        for &mv in &next.moves {
            referee.play(mv).map_err(|e| shape(e.to_string()))?;
            seen.insert(referee.view().key());
            played += 1;
        }
    }
    Ok(PlayedOut {
        won: referee.is_won(),
        position: referee.view().position().clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::SuitCount;
    use crate::deal::Rules;
    use crate::deal::numbered::deal;

    /// The rounds stop after the one whose work reaches the budget: every
    /// line keeps the same completions, the first ones drawn, so the
    /// rating is the one of that many samples with no budget.
    #[test]
    fn a_rating_stops_after_the_round_that_spends_its_work() {
        use std::hash::{Hash, Hasher};
        let real = deal(2, SuitCount::Two, Rules::Standard);
        let view = Referee::new(&real).unwrap().view().clone();
        let candidates = super::super::lookahead::lines(&view.deal(), 5_000, &HashSet::new())
            .unwrap()
            .leaves;
        assert!(candidates.len() >= 2);
        // A worth that depends on the completion and the line; 10 units of
        // work a rollout.
        let rollout = |deal: &crate::deal::Deal, line: &[Move]| {
            let mut h = std::collections::hash_map::DefaultHasher::new();
            format!("{deal:?}").hash(&mut h);
            line.hash(&mut h);
            Ok(((h.finish() % 1000) as i64, 10))
        };
        let rate = |samples, most_work| {
            let mut rng = SplitMix64::new(7);
            rate_by_rollouts(&view, &candidates, samples, most_work, &mut rng, rollout).unwrap()
        };
        let all = rate(6, usize::MAX);
        assert!(all.iter().all(|r| r.rollouts == 6));
        // 10 work a rollout, one a line in a round: the round that reaches
        // 2.5 rounds' work is the third.
        let budget = candidates.len() * 25;
        let capped = rate(6, budget);
        assert!(capped.iter().all(|r| r.rollouts == 3));
        assert_eq!(capped, rate(3, usize::MAX));
        assert_ne!(capped, all);
        // A budget spent by the first round still rates every line once.
        assert!(rate(6, 1).iter().all(|r| r.rollouts == 1));
    }

    #[test]
    fn a_play_out_stops_after_the_reveals_asked_or_plays_the_game_to_its_end() {
        let cancel = AtomicBool::new(false);
        let real = deal(1, SuitCount::One, Rules::Standard);
        let none = play_out(&real, &[], 0, 5_000, &cancel).unwrap();
        assert!(!none.won);
        assert_eq!(none.position.face_down_total(), 44);
        assert_eq!(none.position.rows_dealt(), 0);

        // One line to a card: one card turned up, or one row dealt.
        let one = play_out(&real, &[], 1, 5_000, &cancel).unwrap();
        let down = one.position.face_down_total();
        let dealt = one.position.rows_dealt();
        assert!(
            (down, dealt) == (43, 0) || (down, dealt) == (44, 1),
            "{down}, {dealt}"
        );

        // To the end: the base player wins this 1-suit deal, and the same
        // deal plays the same game again.
        let all = play_out(&real, &[], usize::MAX, 5_000, &cancel).unwrap();
        assert!(all.won);
        let again = play_out(&real, &[], usize::MAX, 5_000, &cancel).unwrap();
        assert_eq!(again.position, all.position);
    }
}
