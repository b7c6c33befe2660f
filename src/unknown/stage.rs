//! The player that rates each card it could turn up by how the stage ends:
//! rollouts over the reveals, each to the next deal.
//!
//! The lookahead ([`super::lookahead`]) values a line by the position it
//! reaches as it turns up its card, and the card by what any unseen card
//! is worth on average. What decides a game, most of all at 4 suits, is
//! how the piles stand when no card is left to turn up and the next row
//! must be dealt: every card turned up before it, and the arrangement the
//! row falls on. [`Stage`] asks that of each line, honestly:
//!
//! 1. The moves that turn up nothing are as good as known: it searches
//!    them ([`super::lookahead::lines`], within `lookahead` positions) and
//!    keeps the best line to each place a card can be turned up from. When
//!    the best of them deals, it deals (a deal spends a row: weighed
//!    against a card it needs a price nobody knows, so, as in
//!    [`super::deeper`], the deal is the lookahead's call alone). When one
//!    line alone turns up a card, it plays it.
//! 2. Else it draws `samples` completions of the unseen cards and, for each
//!    of the best [`CANDIDATES`] lines and each completion (the same
//!    completions for every line: common random numbers), plays a *stage
//!    rollout* against a referee holding that completion: the line, then
//!    the lookahead player within [`BASE_LOOKAHEAD`] positions, line after
//!    line, until that player would deal (or, with no row left, until it
//!    has no line). The player in the rollout reads only views, so each
//!    card of the completion comes into play only when it turns up. The
//!    rollouts go one completion at a time for every line, and stop after
//!    the completion whose rollouts bring the lookahead's searches of the
//!    decision to [`MOST_LINES_A_DECISION`]: a budget in work that bounds
//!    the slowest moves, the same on any machine (the lines keep the same
//!    completions, the first ones drawn).
//! 3. A rollout is worth [`super::rollout::WON`] when the game is won in
//!    it; else, where it stopped before a deal, the value the lookahead
//!    gives the line to that deal (the piles as the row will find them,
//!    the ten cards dealt unknown); else the value of where it stopped.
//!    Every rollout of a decision with rows left stops before the same
//!    row, so the ends compare like with like. The line with the best mean
//!    is played, to its card; then it decides again with what turned up.
//! 4. Once every card has been seen, it plays the solver's winning line.
//!
//! It is one step of policy iteration (Bertsekas's rollout algorithm) on
//! the lookahead player, cut where the stage ends; [`super::rollout`]
//! cuts its rollouts after three reveals, which ends them at different
//! rows. It peeks at nothing: it reads only views, and the completions are
//! drawn from the cards not yet seen.

use std::collections::HashSet;
use std::sync::atomic::AtomicBool;

use crate::cards::Card;
use crate::deal::numbered::SplitMix64;
use crate::deal::{Deal, ShapeError};
use crate::game::Move;
use crate::solve::{Limits, SolveError, Verdict, analyze_unshortened};

use super::lookahead::{Line, lines, value};
use super::policy::{Choice, Course, HiddenSettings, Policy, PolicyStats, Ready};
use super::referee::Referee;
use super::rollout::{ENDGAME_POSITIONS, WON, rate_by_rollouts};
use super::view::View;

/// The most lines rolled out at a decision: the lookahead's best, each to
/// another place.
pub const CANDIDATES: usize = 4;
/// Positions of the lookahead in a rollout's lines.
pub const BASE_LOOKAHEAD: usize = 5_000;
/// The most lines a rollout plays past its own (a guard; with no row
/// left, the rest of the game).
pub const MOST_LINES: usize = 60;
/// The rollouts of a decision stop after the completion whose rollouts
/// bring the lookahead's searches of the decision to this many (each
/// within [`BASE_LOOKAHEAD`] positions, about 12 ms of one thread each):
/// a budget in work, the same on any machine ([`rate_by_rollouts`]). Most
/// decisions of a 2-suit game take under 250 searches and are not cut;
/// the budget bounds the few that would take several times that.
pub const MOST_LINES_A_DECISION: usize = 600;
/// Mixed into the seed of the player's draws.
const STAGE_SEED: u64 = 0x57a6_e5ee_d000_0001;

/// The stage-rollout player (see the module docs).
#[derive(Clone, Debug)]
pub struct Stage {
    settings: HiddenSettings,
    rng: SplitMix64,
    course: Course,
}

impl Stage {
    pub fn new(settings: HiddenSettings) -> Stage {
        Stage {
            rng: SplitMix64::new(settings.seed ^ STAGE_SEED),
            settings,
            course: Course::default(),
        }
    }
}

impl Policy for Stage {
    fn choose(&mut self, view: &View, cancel: &AtomicBool) -> Result<Option<Choice>, SolveError> {
        let found = match self.course.lines(view, &self.settings, cancel)? {
            Ready::Choice(choice) => return Ok(choice),
            Ready::Lines(found) => found,
        };
        let mut candidates: Vec<Line> = found.leaves;
        let deals_first = candidates
            .first()
            .is_some_and(|line| line.moves.last() == Some(&Move::Deal));
        if candidates.is_empty() || deals_first {
            // Nothing to turn up (arrange toward the best position), or the
            // lookahead deals: its call.
            let line = candidates.into_iter().next().or(found.inner);
            let Some(line) = line else {
                return Ok(None);
            };
            self.course.stats.unplanned_moves += line.moves.len();
            return Ok(self.course.play(line.moves));
        }
        candidates.retain(|line| line.moves.last() != Some(&Move::Deal));
        candidates.truncate(CANDIDATES);
        if candidates.len() == 1 {
            self.course.stats.unplanned_moves += candidates[0].moves.len();
            let line = candidates.remove(0);
            return Ok(self.course.play(line.moves));
        }
        self.course.stats.decisions += 1;
        let samples = self.settings.samples.max(1);
        let seen = &self.course.seen;
        let rated = rate_by_rollouts(
            view,
            &candidates,
            samples,
            MOST_LINES_A_DECISION,
            &mut self.rng,
            |deal, line| {
                let end = stage_rollout(deal, line, seen, cancel)?;
                Ok((end.worth, end.lines))
            },
        )?;
        // A rollout ends with the stage: the share of them won is no chance
        // to win the game, so none is given.
        let mut choice = self
            .course
            .play(candidates[rated[0].line].moves.clone())
            .expect("a candidate line has moves");
        choice.alternatives = rated[1..]
            .iter()
            .map(|r| (candidates[r.line].moves[0], None))
            .collect();
        Ok(Some(choice))
    }

    fn observe(&mut self, mv: Move, view_after: &View, turned: &[Card]) {
        self.course.observe(mv, view_after, turned);
    }

    fn stats(&self) -> PolicyStats {
        self.course.stats
    }
}

/// Where a [`stage_rollout`] stopped, and what that is worth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StageEnd {
    /// Step 3 of the module docs: [`WON`], the value of the line to the
    /// deal, or the value of the last position.
    pub worth: i64,
    /// Whether the game was won in the rollout.
    pub won: bool,
    /// The stock rows dealt at the end (those of the start, since the
    /// rollout stops before a deal, unless the line rolled out deals).
    pub rows_dealt: usize,
    /// The cards face down at the end.
    pub face_down: usize,
    /// The lookahead's searches it made (each within [`BASE_LOOKAHEAD`]
    /// positions; a solve once nothing is hidden counts as its positions'
    /// worth of them): its work.
    pub lines: usize,
}

/// One stage rollout (step 2 of the module docs): `line`, then the
/// lookahead player on `deal` (every card known to the referee, none to
/// the player) until it would deal; what the end is worth (step 3).
/// `seen` are the positions the game has been through, which the
/// rollout's player avoids as the game's does.
pub fn stage_rollout(
    deal: &Deal,
    line: &[Move],
    seen: &HashSet<u128>,
    cancel: &AtomicBool,
) -> Result<StageEnd, SolveError> {
    let shape = |e: String| SolveError::Shape(ShapeError(e));
    let mut referee = Referee::new(deal).map_err(|e| shape(e.to_string()))?;
    let mut seen = seen.clone();
    for &mv in line {
        referee.play(mv).map_err(|e| shape(e.to_string()))?;
        seen.insert(referee.view().key());
    }
    let suits = deal.suits;
    let mut searches = 0usize;
    let end = |referee: &Referee, worth: Option<i64>, lines: usize| {
        let position = referee.view().position();
        let won = referee.is_won();
        StageEnd {
            worth: if won {
                WON
            } else {
                worth.unwrap_or_else(|| value(position, suits) as i64)
            },
            won,
            rows_dealt: position.rows_dealt(),
            face_down: position.face_down_total(),
            lines,
        }
    };
    for _ in 0..MOST_LINES {
        if referee.is_won() {
            break;
        }
        let view = referee.view();
        if view.hidden_count() == 0 {
            // Nothing hidden: what a player who sees every card can do.
            let limits = Limits {
                max_positions: Some(ENDGAME_POSITIONS),
                shorten_positions: 0,
                ..Limits::default()
            };
            let analysis = analyze_unshortened(&view.deal(), &limits, cancel)?;
            // The solve's positions, in searches of the lookahead's.
            searches += (ENDGAME_POSITIONS as usize).div_ceil(BASE_LOOKAHEAD);
            let mut stopped = end(&referee, None, searches);
            if analysis.verdict == Verdict::Winnable {
                stopped.won = true;
                stopped.worth = WON;
            }
            return Ok(stopped);
        }
        let found = lines(&view.deal(), BASE_LOOKAHEAD, &seen)?;
        searches += 1;
        let Some(next) = found.leaves.into_iter().next().or(found.inner) else {
            break;
        };
        if next.moves.is_empty() {
            break;
        }
        if next.moves.last() == Some(&Move::Deal) {
            // The stage ends: the piles as the row will find them.
            return Ok(end(&referee, Some(next.value as i64), searches));
        }
        for &mv in &next.moves {
            referee.play(mv).map_err(|e| shape(e.to_string()))?;
            seen.insert(referee.view().key());
        }
    }
    Ok(end(&referee, None, searches))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::SuitCount;
    use crate::deal::Rules;
    use crate::deal::numbered::deal;

    /// A rollout from a fresh deal plays the lookahead player until it
    /// would deal the first row: it stops with every row still in the
    /// stock and some cards turned up, and the same rollout ends the same.
    #[test]
    fn a_stage_rollout_stops_before_the_next_deal() {
        let cancel = AtomicBool::new(false);
        for suits in [SuitCount::One, SuitCount::Two, SuitCount::Four] {
            let real = deal(3, suits, Rules::Standard);
            let end = stage_rollout(&real, &[], &HashSet::new(), &cancel).unwrap();
            assert!(!end.won, "{suits:?}");
            assert_eq!(end.rows_dealt, 0, "{suits:?}");
            assert!(end.face_down < 44, "{suits:?}: nothing turned up");
            assert!(end.lines >= 1, "{suits:?}: no search counted");
            let again = stage_rollout(&real, &[], &HashSet::new(), &cancel).unwrap();
            assert_eq!(again, end, "{suits:?}");
        }
    }

    /// With every card face up and the stock spent, the rollout is the
    /// solver's game: a won position is worth [`WON`].
    #[test]
    fn with_nothing_hidden_a_stage_rollout_is_the_solvers() {
        use crate::deal::yaml;
        use std::path::Path;
        let text = "suits: 1
piles:
  - face_up: [KS, QS, JS, 10S, 9S, 8S, 7S, 6S, 5S, 4S, 3S]
  - face_up: [2S]
  - face_up: [AS]
  - face_up: []
  - face_up: []
  - face_up: []
  - face_up: []
  - face_up: []
  - face_up: []
  - face_up: []
stock: []
removed: [S, S, S, S, S, S, S]
";
        let position = yaml::from_str(text, Path::new("t.yaml")).unwrap();
        let end = stage_rollout(&position, &[], &HashSet::new(), &AtomicBool::new(false)).unwrap();
        assert!(end.won);
        assert_eq!(end.worth, WON);
        assert_eq!(end.face_down, 0);
    }
}
