//! Playing a deal without seeing it: at each step the player knows only the
//! face-up cards (and which cards are still unseen), picks a move by the
//! hint ([`super::hint`], hindsight optimisation), and plays it in the real
//! deal, which turns up the real cards. How often that wins, beside how
//! often the deal can be won with every card known, is the study of
//! `spider batch --hidden`.
//!
//! The player, step by step:
//!
//! 1. When it has no plan: it writes the position as it sees it (every
//!    face-down and stock card `XX`, the candidates being the cards not yet
//!    seen), draws `samples` completions uniformly, and solves each with
//!    its cards known, under the per-solve limits. The winning lines found
//!    are its *plans*.
//! 2. It plays the first move that most plans start with (ties as in the
//!    hint: toward moves that turn up a card, then same-suit builds, the
//!    deal last). Plans that do not start with it are dropped; the others
//!    move on by one.
//! 3. A move that turns up a card brings news the plans did not know: they
//!    are all dropped, and the next step samples again (with the card now
//!    seen). A move that turns up nothing keeps the plans: they are still
//!    winning lines of completions that agree with everything seen.
//! 4. With no plan (no sampled completion was won within the limits), it
//!    plays the legal move whose resulting position the solver's heuristic
//!    scores best, among those not reached before in this game; with none,
//!    the game is lost. Every 20 such moves in a row it samples again from
//!    where it stands; after 200 it gives up.
//!
//! It stops when the game is won, when no move is left, or after
//! `max_moves` moves. This is the cheap form of the hint (first moves
//! only, [`super::hint::Method::FirstMoves`]); it peeks at nothing: the
//! samples are drawn from the cards not yet seen, whatever the real deal
//! holds.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::deal::check;
use crate::deal::numbered::SplitMix64;
use crate::deal::{Deal, ShapeError};
use crate::game::Move;

use super::hint::{Play, kind};
use super::sample::draw;
use crate::solve::{Limits, SolveError, Verdict, analyze_unshortened, score};

/// Moves without a plan after which the player samples again.
const UNPLANNED_RESAMPLE: usize = 20;
/// Moves without a plan in a row after which the game is given up.
const UNPLANNED_GIVE_UP: usize = 200;

/// How the hidden player plays.
#[derive(Clone, Debug)]
pub struct HiddenSettings {
    /// Completions drawn at each decision.
    pub samples: usize,
    /// Limits of each solve of a sampled completion.
    pub limits: Limits,
    /// The game is given up after this many moves.
    pub max_moves: usize,
    /// Seeds the samples of the game (with the deal's number mixed in by
    /// the caller, so each game has its own).
    pub seed: u64,
}

/// How a game played without seeing ended.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct HiddenGame {
    pub won: bool,
    /// Moves played (deals included).
    pub moves: usize,
    /// Times the player sampled and solved.
    pub decisions: usize,
    /// Moves played with no plan (by the heuristic).
    pub unplanned_moves: usize,
    pub runs_removed: usize,
    /// Face-down cards left at the end.
    pub face_down_left: usize,
    pub seconds: f64,
    /// `won`, `no move left`, `no progress` (200 moves in a row without a
    /// plan), `move limit` or `cancelled`.
    pub ended: &'static str,
}

/// Plays `deal` (every card known to the referee) as a player who sees
/// only the face-up cards.
pub fn play_hidden(
    deal: &Deal,
    settings: &HiddenSettings,
    cancel: &AtomicBool,
) -> Result<HiddenGame, SolveError> {
    let start = Instant::now();
    let mut play = Play::new(deal)?;
    let mut rng = SplitMix64::new(settings.seed);
    let mut plans: Vec<Vec<Move>> = Vec::new();
    let mut seen = HashSet::new();
    seen.insert(play.game().key(play.position()));
    let (mut moves, mut decisions, mut unplanned, mut unplanned_run) = (0, 0, 0, 0);
    // Whether the plans are up to date with what has been seen.
    let mut fresh = false;
    let ended = loop {
        if play.position().is_won() {
            break "won";
        }
        if cancel.load(Ordering::Relaxed) {
            break "cancelled";
        }
        if moves >= settings.max_moves {
            break "move limit";
        }
        // Lost in moves without a plan: sample again from here (the
        // position has changed, a solver may now find a win), and give up
        // when that keeps failing.
        if plans.is_empty() && fresh && unplanned_run >= UNPLANNED_RESAMPLE {
            if unplanned_run >= UNPLANNED_GIVE_UP {
                break "no progress";
            }
            if unplanned_run % UNPLANNED_RESAMPLE == 0 {
                fresh = false;
            }
        }
        if plans.is_empty() && !fresh {
            plans = sample_plans(&play, settings, &mut rng, cancel)?;
            decisions += 1;
            fresh = true;
        }
        let legal = play.moves();
        let chosen = if plans.is_empty() {
            unplanned += 1;
            unplanned_run += 1;
            legal
                .iter()
                .copied()
                .map(|mv| {
                    let mut next = play.clone();
                    next.apply(mv);
                    (mv, next)
                })
                .filter(|(_, next)| !seen.contains(&next.game().key(next.position())))
                .max_by_key(|(mv, next)| (score(next.position()), kind(play.position(), *mv)))
                .map(|(mv, _)| mv)
        } else {
            unplanned_run = 0;
            let votes = |mv: Move| plans.iter().filter(|p| p[0] == mv).count();
            legal
                .iter()
                .copied()
                .filter(|&mv| votes(mv) > 0)
                .max_by_key(|&mv| (votes(mv), kind(play.position(), mv)))
        };
        let Some(mv) = chosen else {
            break "no move left";
        };
        plans.retain(|p| p[0] == mv);
        for plan in &mut plans {
            plan.remove(0);
        }
        plans.retain(|p| !p.is_empty());
        let turned = play.apply(mv);
        moves += 1;
        seen.insert(play.game().key(play.position()));
        if turned > 0 {
            plans.clear();
            fresh = false;
        }
    };
    Ok(HiddenGame {
        won: play.position().is_won(),
        moves,
        decisions,
        unplanned_moves: unplanned,
        runs_removed: play.position().runs_removed(),
        face_down_left: play.position().face_down_total(),
        seconds: start.elapsed().as_secs_f64(),
        ended,
    })
}

/// The winning lines of `settings.samples` completions of the position as
/// the player sees it, each solved with its cards known.
fn sample_plans(
    play: &Play,
    settings: &HiddenSettings,
    rng: &mut SplitMix64,
    cancel: &AtomicBool,
) -> Result<Vec<Vec<Move>>, SolveError> {
    let view = play.hidden_view()?;
    let candidates = check::check(&view).candidates();
    if candidates.len() != view.unknown_places().len() {
        return Err(SolveError::Shape(ShapeError(format!(
            "the position as seen has {} unknown cards but {} unseen cards",
            view.unknown_places().len(),
            candidates.len()
        ))));
    }
    let mut plans = Vec::new();
    for _ in 0..settings.samples {
        let filled = view.with_unknowns_filled(&draw(&candidates, rng))?;
        let analysis = analyze_unshortened(&filled, &settings.limits, cancel)?;
        if analysis.verdict == Verdict::Winnable
            && let Some(line) = analysis.line
            && !line.is_empty()
        {
            plans.push(line);
        }
    }
    Ok(plans)
}
