//! Playing a deal without seeing it. A player is a [`Policy`]: it is given
//! a [`View`] (what a player sees, no hidden card in it) and chooses a
//! move; it is told what the move turned up. [`play_blind`] drives a game:
//! the [`Referee`] holds the real deal, plays each chosen move on it and
//! hands the player the next view. How often that wins, beside how often
//! the deal can be won with every card known, is the study of `spider
//! batch --hidden`; `spider play` uses the same player.
//!
//! [`Hop`], the player by hindsight optimisation, step by step:
//!
//! 1. When it has no plan: it writes the position as it sees it (every
//!    face-down and stock card `XX`, the candidates being the cards not yet
//!    seen), draws `samples` completions uniformly, and solves each with
//!    its cards known, under the per-solve limits. The winning lines found
//!    are its *plans*.
//! 2. It plays the first move that most plans start with (ties as in the
//!    hint: toward moves that turn up a card, then same-suit builds, the
//!    deal last). Plans that do not start with it are dropped; the others
//!    move on by one. At 4 suits at least two plans must start with it
//!    ([`min_votes`]): the line of a lone sample is dropped, and the
//!    player goes on as with no plan (step 4).
//! 3. A move that turns up a card brings news the plans did not know: they
//!    are all dropped, and the next step samples again (with the card now
//!    seen). A move that turns up nothing keeps the plans: they are still
//!    winning lines of completions that agree with everything seen.
//! 4. With no plan (no sampled completion was won within the limits, or
//!    at 4 suits no move that two plans start with), it plays the
//!    lookahead's line ([`super::lookahead::best_line`]); with none, the
//!    legal move whose resulting position the solver's heuristic scores
//!    best, among those not reached before in this game; with none, the
//!    game is lost. Every 20 such moves in a row it samples again from
//!    where it stands; after 200 it gives up.
//! 5. Late in the game (at most [`CHECK_ROWS`] stock rows left), a move of
//!    the plans that turns up a card (or deals) is *checked* first. Each
//!    plan was solved with its sample's cards known, so it turns up a card
//!    at once when its sample holds a good one there: a gamble a player who
//!    cannot see the card should not take when a safer card can be turned
//!    up. The check plays that move, and the lookahead's best lines to a
//!    card ([`CHECK_LINES`] at most, [`super::lookahead::lines`]), on the
//!    same `check` sampled completions, and solves each from where it ends
//!    with that completion's cards known. A lookahead line won in at least
//!    [`check_margin`] more completions than the plans' move is played
//!    instead, to its end (the card it turns up). The lines' moves are
//!    chosen before the card they turn up is known, so their shares are
//!    honest about that card; the plans' move is not. (The losses study,
//!    `lab/studies/blind_losses.rs`, found HOP's games lost late, most often
//!    by such a card; `lab/studies/reveal_lines.rs` values the lines of a
//!    position.)
//!
//! It stops when the game is won, when no move is left, or after
//! `max_moves` moves. This is the cheap form of the hint (first moves
//! only, [`super::hint::Method::FirstMoves`]); it peeks at nothing: it
//! reads only the views it is given, and the samples are drawn from the
//! cards not yet seen.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use rayon::prelude::*;

use crate::cards::{Card, SuitCount};
use crate::deal::Deal;
use crate::deal::ShapeError;
use crate::deal::numbered::SplitMix64;
use crate::game::{Move, Position};
use crate::stats::Interval;

pub use super::policy::{
    Choice, DEFAULT_CHECK, DEFAULT_LOOKAHEAD, HiddenSettings, LATE_ROWS, Player, Policy,
    PolicyStats,
};

use super::hint::kind;
use super::referee::Referee;
use super::sample::{draw, won_after};
use super::view::View;
use crate::solve::{SolveError, Verdict, analyze_unshortened, score};

/// Moves without a plan after which the player samples again.
const UNPLANNED_RESAMPLE: usize = 20;
/// Moves without a plan in a row after which the game is given up.
const UNPLANNED_GIVE_UP: usize = 200;
/// Stock rows left at most when [`Hop`] checks the card it turns up (step
/// 5 of the module docs).
pub const CHECK_ROWS: usize = 1;
/// The lookahead's lines a check weighs against the plans' move.
pub const CHECK_LINES: usize = 3;
/// Mixed into the seed of the check's draws.
const CHECK_SEED: u64 = 0x0c4e_c6ed_ca4d_5eed;

/// The plans at least that must start with a move for [`Hop`] to play it
/// (step 2 of the module docs): two at 4 suits, one otherwise. At 4 suits
/// a solve of a sampled completion is seldom won within its budget (one
/// in three to four of those of the positions the blind player reaches,
/// at 100,000 positions), so a move only one plan starts with is most
/// often the line of the one sample that happened to be solved: a line
/// that counts on that sample's cards, which no player can see. The
/// lookahead's line, chosen before the card it turns up is known, is
/// honest about it. Measured on PySol games (docs/unknown-cards.md): 4 of
/// 40 tuning games won against none, 8 of 100 report games against 5 (a
/// direction, not a proof: 13 games differ); at 2 suits two plans won 10
/// of 40 tuning games against 13.
pub fn min_votes(suits: SuitCount) -> usize {
    if suits == SuitCount::Four { 2 } else { 1 }
}

/// The plans that start with `mv`.
fn votes_in(plans: &[Vec<Move>], mv: Move) -> usize {
    plans.iter().filter(|plan| plan[0] == mv).count()
}

/// The most plans that start with the same move.
fn most_votes(plans: &[Vec<Move>]) -> usize {
    plans
        .iter()
        .map(|plan| votes_in(plans, plan[0]))
        .max()
        .unwrap_or(0)
}

/// How many more of `samples` checked completions a lookahead line must
/// win than the plans' move to be played instead: a fifth of them, at
/// least one (fewer would swap moves on the noise of a few samples).
pub fn check_margin(samples: usize) -> usize {
    (samples / 5).max(1)
}

/// One move of a blind game.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct PlayedMove {
    /// 1-based.
    pub number: usize,
    #[serde(rename = "move", serialize_with = "as_string")]
    pub mv: Move,
    /// The move for people, in the position before it.
    pub words: String,
    /// The cards it turned up, pile order (see [`Referee::play`]).
    #[serde(serialize_with = "cards_as_strings")]
    pub turned: Vec<Card>,
    /// The player's estimated chance to win, when it had one.
    pub win_estimate: Option<Interval>,
    /// What the player counted in the position it chose the move in
    /// ([`super::lookahead::features`] of its view): what the chance shown
    /// to a player is read from ([`super::odds`]).
    #[serde(skip)]
    pub counts: [f64; super::lookahead::FEATURES],
    /// Wall seconds the player took to choose it (on the threads of the
    /// current pool: `-j`).
    pub seconds: f64,
}

fn as_string<S: serde::Serializer>(mv: &Move, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&mv.to_string())
}

fn cards_as_strings<S: serde::Serializer>(cards: &[Card], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(cards.iter().map(|c| c.to_string()))
}

/// How a game played without seeing ended.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct BlindGame {
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
    /// Wall seconds the game took.
    pub seconds: f64,
    /// CPU seconds the game took on the thread that played it
    /// ([`crate::clock::thread_cpu_seconds`]; `None` where that clock cannot
    /// be read). With a pool of one thread (`-j 1`) that is all of it; with
    /// more, the player's parallel solves may run in part on other threads.
    pub cpu_seconds: Option<f64>,
    /// Wall seconds of the move that took longest to choose.
    pub slowest_move_seconds: f64,
    /// `won`, `no move left`, `no progress` (200 moves in a row without a
    /// plan), `gave up` (legal moves remain, but the player found no line
    /// it would play: none that turns up a card or leaves a better
    /// position), `move limit` or `cancelled`.
    pub ended: &'static str,
    /// Every move played, in order.
    #[serde(skip)]
    pub log: Vec<PlayedMove>,
}

/// Plays the referee's deal with `policy` until it is won, the policy has
/// no move, `max_moves` moves were played or `cancel` is set; `on_move`
/// sees each move as it is played.
pub fn play_blind(
    referee: &mut Referee,
    policy: &mut dyn Policy,
    max_moves: usize,
    cancel: &AtomicBool,
    on_move: &mut dyn FnMut(&PlayedMove),
) -> Result<BlindGame, SolveError> {
    let start = Instant::now();
    let cpu_start = crate::clock::thread_cpu_seconds();
    let mut log = Vec::new();
    let ended = loop {
        if referee.is_won() {
            break "won";
        }
        if cancel.load(Ordering::Relaxed) {
            break "cancelled";
        }
        if log.len() >= max_moves {
            break "move limit";
        }
        let view = referee.view().clone();
        let chosen_at = Instant::now();
        let Some(choice) = policy.choose(&view, cancel)? else {
            if cancel.load(Ordering::Relaxed) {
                break "cancelled";
            }
            // A player with no move while legal moves remain gave up:
            // never "no move left" then.
            break if policy.stats().gave_up {
                "no progress"
            } else if view.moves().is_empty() {
                "no move left"
            } else {
                "gave up"
            };
        };
        let words = view.describe(choice.mv);
        let counts = super::odds::counts_of(&view);
        let turned = referee.play(choice.mv).map_err(|e| {
            SolveError::Shape(ShapeError(format!("the player's move {}: {e}", choice.mv)))
        })?;
        policy.observe(choice.mv, referee.view(), &turned);
        let played = PlayedMove {
            number: log.len() + 1,
            mv: choice.mv,
            words,
            turned,
            win_estimate: choice.win_estimate,
            counts,
            seconds: chosen_at.elapsed().as_secs_f64(),
        };
        on_move(&played);
        log.push(played);
    };
    let stats = policy.stats();
    let view = referee.view();
    Ok(BlindGame {
        won: referee.is_won(),
        moves: log.len(),
        decisions: stats.decisions,
        unplanned_moves: stats.unplanned_moves,
        runs_removed: view.position().runs_removed(),
        face_down_left: view.position().face_down_total(),
        seconds: start.elapsed().as_secs_f64(),
        cpu_seconds: cpu_start
            .zip(crate::clock::thread_cpu_seconds())
            .map(|(from, to)| (to - from).max(0.0)),
        slowest_move_seconds: log.iter().map(|m| m.seconds).fold(0.0, f64::max),
        ended,
        log,
    })
}

impl HiddenSettings {
    /// A fresh player of [`HiddenSettings::player`] with these settings.
    pub fn new_player(&self) -> Box<dyn Policy + Send> {
        match self.player {
            Player::Hop => Box::new(Hop::new(self.clone())),
            Player::Lookahead => Box::new(Lookahead::new(self.clone())),
            Player::Search => Box::new(super::search::Search::new(self.clone())),
        }
    }
}

/// Plays `deal` (every card known to the referee) with the player of
/// `settings`.
pub fn play_hidden(
    deal: &Deal,
    settings: &HiddenSettings,
    cancel: &AtomicBool,
) -> Result<BlindGame, SolveError> {
    let mut referee =
        Referee::new(deal).map_err(|e| SolveError::Shape(ShapeError(e.to_string())))?;
    let mut player = settings.new_player();
    play_blind(
        &mut referee,
        player.as_mut(),
        settings.max_moves,
        cancel,
        &mut |_| {},
    )
}

/// Every position a blind game of `deal` passed through, as its player
/// saw it (the cards not yet turned up are `XX`), the start first: `log`
/// played again on a fresh referee, since a referee's view is gone once
/// the next move is played.
pub fn positions_seen(deal: &Deal, log: &[PlayedMove]) -> Result<Vec<Position>, SolveError> {
    let shape = |e: String| SolveError::Shape(ShapeError(e));
    let mut referee = Referee::new(deal).map_err(|e| shape(e.to_string()))?;
    let mut seen = vec![referee.view().position().clone()];
    for played in log {
        referee.play(played.mv).map_err(|e| shape(e.to_string()))?;
        seen.push(referee.view().position().clone());
    }
    Ok(seen)
}

/// The player by hindsight optimisation (see the module docs).
#[derive(Clone, Debug)]
pub struct Hop {
    settings: HiddenSettings,
    rng: SplitMix64,
    /// The check's own draws, so that a check that keeps the plans' move
    /// leaves the plans' samples as they would be without it.
    check_rng: SplitMix64,
    /// Winning lines of sampled completions that agree with every move
    /// played since they were found.
    plans: Vec<Vec<Move>>,
    /// Completions drawn at the last decision (the plans' denominator).
    drawn: usize,
    /// Positions reached in this game (keys of the views).
    seen: HashSet<u128>,
    /// Whether the plans are up to date with what has been seen.
    fresh: bool,
    /// Whether the plan is the lookahead's line rather than solved wins.
    looked_ahead: bool,
    unplanned_run: usize,
    /// While the plan is a line chosen by a check of the card to turn up
    /// (played to its end without another check): its share of the
    /// checked completions.
    checked: Option<Interval>,
    stats: PolicyStats,
    /// The runs moved since the last card turned up.
    moved: Moved,
}

impl Hop {
    pub fn new(settings: HiddenSettings) -> Hop {
        Hop {
            rng: SplitMix64::new(settings.seed),
            check_rng: SplitMix64::new(settings.seed ^ CHECK_SEED),
            settings,
            plans: Vec::new(),
            drawn: 0,
            seen: HashSet::new(),
            fresh: false,
            looked_ahead: false,
            unplanned_run: 0,
            checked: None,
            stats: PolicyStats::default(),
            moved: Moved::default(),
        }
    }

    /// Step 5 of the module docs: checks `mv`, the move the plans chose,
    /// which turns up a card (or deals). Plays it, and each of the
    /// lookahead's best lines to a card ([`CHECK_LINES`] at most), on the
    /// same `check` sampled completions, and solves each from where it
    /// ends with that completion's cards known. Returns the lookahead line
    /// won in most, with its wins and the samples, when it is won in at
    /// least [`check_margin`] more than `mv`; `None` keeps `mv`.
    fn check_reveal(
        &mut self,
        view: &View,
        mv: Move,
        cancel: &AtomicBool,
    ) -> Result<Option<(Vec<Move>, usize, usize)>, SolveError> {
        let samples = self.settings.check;
        let masked = view.deal();
        let found = super::lookahead::lines(&masked, self.settings.lookahead.max(1), &self.seen)?;
        let mut lines: Vec<Vec<Move>> = vec![vec![mv]];
        for line in found.leaves.into_iter().take(CHECK_LINES) {
            if !line.moves.is_empty() && !lines.contains(&line.moves) {
                lines.push(line.moves);
            }
        }
        if lines.len() < 2 {
            return Ok(None);
        }
        let candidates = view.unseen();
        let fills: Vec<Vec<Card>> = (0..samples)
            .map(|_| draw(&candidates, &mut self.check_rng))
            .collect();
        let limits = &self.settings.limits;
        let jobs: Vec<(usize, usize)> = (0..lines.len())
            .flat_map(|l| (0..fills.len()).map(move |f| (l, f)))
            .collect();
        let won = jobs
            .par_iter()
            .map(|&(l, f)| won_after(&masked, &fills[f], &lines[l], limits, cancel))
            .collect::<Result<Vec<bool>, SolveError>>()?;
        let n = fills.len();
        let wins = |l: usize| (0..n).filter(|&f| won[l * n + f]).count();
        let best = (1..lines.len())
            .max_by_key(|&l| (wins(l), std::cmp::Reverse(l)))
            .expect("two lines");
        if wins(best) >= wins(0) + check_margin(n) {
            Ok(Some((lines[best].clone(), wins(best), n)))
        } else {
            Ok(None)
        }
    }

    /// The winning lines of `settings.samples` completions of `view`, each
    /// solved with its cards known (in parallel on the current rayon pool;
    /// the completions are drawn in order first, so the result does not
    /// depend on the threads).
    fn sample_plans(
        &mut self,
        view: &View,
        cancel: &AtomicBool,
    ) -> Result<Vec<Vec<Move>>, SolveError> {
        let masked = view.deal();
        let candidates = view.unseen();
        if candidates.len() != view.hidden_count() {
            return Err(SolveError::Shape(ShapeError(format!(
                "the position as seen has {} but {}",
                crate::text::count(view.hidden_count() as u64, "unknown card"),
                crate::text::count(candidates.len() as u64, "unseen card")
            ))));
        }
        let fills: Vec<Vec<Card>> = (0..self.settings.samples)
            .map(|_| draw(&candidates, &mut self.rng))
            .collect();
        let limits = &self.settings.limits;
        let lines = fills
            .par_iter()
            .map(|fill| {
                let filled = masked.with_unknowns_filled(fill)?;
                let analysis = analyze_unshortened(&filled, limits, cancel)?;
                Ok(match analysis.line {
                    Some(line) if analysis.verdict == Verdict::Winnable && !line.is_empty() => {
                        Some(line)
                    }
                    _ => None,
                })
            })
            .collect::<Result<Vec<_>, SolveError>>()?;
        self.drawn = fills.len();
        Ok(lines.into_iter().flatten().collect())
    }
}

/// Since the last card turned up (or run removed), each run moved: its
/// deepest card and the pile it left. A card is never moved back to the
/// pile it left before a card turns up: that shuffles it back and forth.
#[derive(Clone, Debug, Default)]
struct Moved {
    runs: Vec<(Card, u8)>,
    removed: usize,
}

impl Moved {
    /// `mv` was played, leading to `after` and turning up `turned`.
    fn note(&mut self, mv: Move, after: &View, turned: &[Card]) {
        if !turned.is_empty() || after.removed().len() != self.removed {
            self.runs.clear();
            self.removed = after.removed().len();
            return;
        }
        if let Move::Shift { from, to, count } = mv {
            let up = after.face_up(to as usize);
            if let Some(at) = up.len().checked_sub(count as usize) {
                self.runs.push((up[at], from));
            }
        }
    }

    /// Whether `mv` takes a card back to a pile it left.
    fn back(&self, view: &View, mv: Move) -> bool {
        match (mv, moved_card(view, mv)) {
            (Move::Shift { to, .. }, Some(card)) => self.runs.contains(&(card, to)),
            _ => false,
        }
    }
}

/// The deepest card of the run `mv` moves.
fn moved_card(view: &View, mv: Move) -> Option<Card> {
    let Move::Shift { from, count, .. } = mv else {
        return None;
    };
    let up = view.face_up(from as usize);
    up.len().checked_sub(count as usize).map(|at| up[at])
}

/// Whether `mv` leads back to a position the game has been through
/// (`seen`), turning up nothing, or takes a card back to the pile it left
/// since the last card turned up (`moved`): a card shuffled back and
/// forth.
fn leads_back(view: &View, mv: Move, seen: &HashSet<u128>, moved: &Moved) -> bool {
    let game = view.game();
    let step = game.apply(view.position(), mv);
    step.reveals.is_empty() && (seen.contains(&game.key(&step.position)) || moved.back(view, mv))
}

/// The heuristic's move when no line is played: the legal move to a
/// position not yet seen whose position the solver's heuristic scores
/// best; `None` when every move leads back.
fn fresh_move(view: &View, seen: &HashSet<u128>, moved: &Moved) -> Option<Move> {
    let (game, position) = (view.game(), view.position());
    view.moves()
        .into_iter()
        .filter(|&mv| !moved.back(view, mv))
        .map(|mv| (mv, game.apply(position, mv).position))
        .filter(|(_, next)| !seen.contains(&game.key(next)))
        .map(|(mv, next)| (mv, score(&next)))
        .max_by_key(|&(mv, s)| (s, kind(position, mv)))
        .map(|(mv, _)| mv)
}

impl Policy for Hop {
    fn choose(&mut self, view: &View, cancel: &AtomicBool) -> Result<Option<Choice>, SolveError> {
        if view.is_won() {
            return Ok(None);
        }
        self.seen.insert(view.key());
        // Lost in moves without a plan: sample again from here (the
        // position has changed, a solver may now find a win), and give up
        // when that keeps failing.
        if self.plans.is_empty() && self.fresh && self.unplanned_run >= UNPLANNED_RESAMPLE {
            if self.unplanned_run >= UNPLANNED_GIVE_UP {
                self.stats.gave_up = true;
                return Ok(None);
            }
            if self.unplanned_run.is_multiple_of(UNPLANNED_RESAMPLE) {
                self.fresh = false;
            }
        }
        if self.plans.is_empty() && !self.fresh {
            self.plans = self.sample_plans(view, cancel)?;
            self.stats.decisions += 1;
            self.fresh = true;
        }
        // Never back to a position the game has been through with nothing
        // turned up: a card shuffled back and forth.
        self.plans
            .retain(|p| !leads_back(view, p[0], &self.seen, &self.moved));
        // A move that too few plans start with is no vote: the lookahead's
        // line is played instead (step 2 of the module docs).
        if !self.looked_ahead
            && self.checked.is_none()
            && !self.plans.is_empty()
            && most_votes(&self.plans) < min_votes(view.suits())
        {
            self.plans.clear();
        }
        if self.plans.is_empty() && self.settings.lookahead > 0 {
            // The position as seen, every hidden card XX: the lookahead
            // reads nothing else.
            let line =
                super::lookahead::best_line(&view.deal(), self.settings.lookahead, &self.seen)?;
            if let Some(line) = line
                && !line.moves.is_empty()
                && !leads_back(view, line.moves[0], &self.seen, &self.moved)
            {
                self.stats.unplanned_moves += line.moves.len();
                self.unplanned_run = 0;
                self.looked_ahead = true;
                self.plans.push(line.moves);
            }
        }
        let legal = view.moves();
        let position = view.position();
        if self.plans.is_empty() {
            let Some(mv) = fresh_move(view, &self.seen, &self.moved) else {
                return Ok(None);
            };
            self.stats.unplanned_moves += 1;
            self.unplanned_run += 1;
            return Ok(Some(Choice {
                mv,
                win_estimate: None,
                alternatives: Vec::new(),
                checked: false,
            }));
        }
        if !self.looked_ahead {
            self.unplanned_run = 0;
        }
        let votes = |mv: Move| votes_in(&self.plans, mv);
        let mut ranked: Vec<Move> = legal.iter().copied().filter(|&mv| votes(mv) > 0).collect();
        // Stable: equal moves keep the order of `Game::moves`; max_by_key
        // took the last of equals, so reverse first to match it.
        ranked.reverse();
        ranked.sort_by_key(|&m| std::cmp::Reverse((votes(m), kind(position, m))));
        let Some(&mv) = ranked.first() else {
            return Ok(None);
        };
        if self.checked.is_none()
            && self.settings.check > 0
            && view.rows_left() <= CHECK_ROWS
            && (mv == Move::Deal || view.turns_up(mv).unwrap_or(0) > 0)
            && let Some((line, wins, n)) = self.check_reveal(view, mv, cancel)?
        {
            self.stats.decisions += 1;
            self.plans = vec![line];
            self.looked_ahead = true;
            self.checked = Interval::of(wins, n);
        }
        if self.checked.is_some() {
            return Ok(Some(Choice {
                mv: self.plans[0][0],
                win_estimate: self.checked,
                alternatives: Vec::new(),
                checked: true,
            }));
        }
        let votes = |mv: Move| votes_in(&self.plans, mv);
        // A lookahead line is no solved win: no estimate.
        let estimate = |mv: Move| {
            if self.looked_ahead {
                None
            } else {
                Interval::of(votes(mv), self.drawn)
            }
        };
        Ok(Some(Choice {
            mv,
            win_estimate: estimate(mv),
            alternatives: ranked[1..].iter().map(|&m| (m, estimate(m))).collect(),
            checked: false,
        }))
    }

    fn observe(&mut self, mv: Move, view_after: &View, turned: &[Card]) {
        self.moved.note(mv, view_after, turned);
        self.seen.insert(view_after.key());
        if turned.is_empty() {
            self.plans.retain(|p| p[0] == mv);
            for plan in &mut self.plans {
                plan.remove(0);
            }
            self.plans.retain(|p| !p.is_empty());
        } else {
            // News the plans did not know: sample again.
            self.plans.clear();
            self.fresh = false;
        }
        if self.plans.is_empty() {
            self.looked_ahead = false;
            self.checked = None;
        }
    }

    fn stats(&self) -> PolicyStats {
        self.stats
    }
}

/// The player that plays the lookahead's line and nothing else: the
/// moves that turn up nothing toward the best card to turn up
/// ([`super::lookahead::best_line`] within `lookahead` positions, or
/// `late_lookahead` from [`LATE_ROWS`] stock rows left on:
/// [`HiddenSettings::lookahead_with`]), no completion solved
/// until every card has been seen; then the solver's winning line, when it
/// finds one within the limits. [`Hop`] falls back on the same line when
/// no sample is won; the studies compare the two.
#[derive(Clone, Debug)]
pub struct Lookahead {
    settings: HiddenSettings,
    course: super::policy::Course,
}

impl Lookahead {
    pub fn new(settings: HiddenSettings) -> Lookahead {
        Lookahead {
            settings,
            course: super::policy::Course::default(),
        }
    }
}

impl Policy for Lookahead {
    fn choose(&mut self, view: &View, cancel: &AtomicBool) -> Result<Option<Choice>, SolveError> {
        if !self.course.begin(view, &self.settings.limits, cancel)? {
            return Ok(None);
        }
        if self
            .course
            .plan
            .first()
            .is_some_and(|&mv| leads_back(view, mv, &self.course.seen, &Moved::default()))
        {
            self.course.plan.clear();
        }
        if self.course.plan.is_empty() {
            let line = super::lookahead::best_line(
                &view.deal(),
                self.settings.lookahead_with(view.rows_left()),
                &self.course.seen,
            )?;
            match line {
                Some(line)
                    if !line.moves.is_empty()
                        && !leads_back(
                            view,
                            line.moves[0],
                            &self.course.seen,
                            &Moved::default(),
                        ) =>
                {
                    self.course.stats.unplanned_moves += line.moves.len();
                    self.course.plan = line.moves;
                }
                // No line, or only one back to where the game has been:
                // the player gives up (see `BlindGame::ended`).
                _ => return Ok(None),
            }
        }
        Ok(self.course.next())
    }

    fn observe(&mut self, mv: Move, view_after: &View, turned: &[Card]) {
        self.course.observe(mv, view_after, turned);
    }

    fn stats(&self) -> PolicyStats {
        self.course.stats
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shift(from: u8, to: u8) -> Move {
        Move::Shift { from, to, count: 1 }
    }

    /// At 4 suits a move needs two plans, at 1 and 2 suits one; the votes
    /// are those of the move most plans start with.
    #[test]
    fn a_lone_plan_is_no_vote_at_four_suits() {
        assert_eq!(min_votes(SuitCount::Four), 2);
        assert_eq!(min_votes(SuitCount::Two), 1);
        assert_eq!(min_votes(SuitCount::One), 1);
        let (a, b, c) = (shift(0, 1), shift(2, 3), Move::Deal);
        assert_eq!(most_votes(&[]), 0);
        assert_eq!(most_votes(&[vec![a, b], vec![b], vec![c]]), 1);
        assert_eq!(most_votes(&[vec![a, b], vec![b], vec![a, c]]), 2);
        assert_eq!(most_votes(&[vec![c], vec![c, a], vec![c]]), 3);
    }

    /// HOP holding one plan of three samples: at 4 suits it drops it and
    /// plays the lookahead's line (no estimate); at 2 suits it plays the
    /// plan's move, with its share of the samples.
    #[test]
    fn hop_plays_a_lone_plan_at_two_suits_only() {
        use crate::deal::Rules;
        use crate::deal::numbered;
        for (suits, lone_kept) in [(SuitCount::Four, false), (SuitCount::Two, true)] {
            let view = View::of(&numbered::deal(7, suits, Rules::Standard)).unwrap();
            // The plan starts with the legal move the lookahead would not
            // play first: the last one listed, the deal.
            let mv = *view.moves().last().unwrap();
            assert_eq!(mv, Move::Deal);
            let mut hop = Hop::new(HiddenSettings::default());
            hop.plans = vec![vec![mv]];
            hop.drawn = 3;
            hop.fresh = true;
            let choice = hop.choose(&view, &AtomicBool::new(false)).unwrap().unwrap();
            if lone_kept {
                assert_eq!(choice.mv, mv, "{suits:?}");
                assert_eq!(choice.win_estimate, Interval::of(1, 3));
            } else {
                assert_ne!(choice.mv, mv, "{suits:?}");
                assert_eq!(choice.win_estimate, None);
                assert!(hop.looked_ahead);
            }
        }
    }
    /// Every card on the table face up, four empty piles and four rows to
    /// deal (a position a 1-suit game of the lookahead player reached): the
    /// deal waits for the empty piles, and the line to it is deeper than
    /// the lookahead's 5,000 positions reach. The player fills the piles,
    /// one line at a time, each leaving fewer empty, and then deals; before
    /// it had no line and lost the game here.
    #[test]
    fn the_lookahead_player_fills_the_empty_piles_a_deal_waits_for() {
        use super::super::lookahead::lines;
        use super::super::referee::Referee;
        use crate::deal::yaml;
        use std::path::Path;
        let row = "  - [XX, XX, XX, XX, XX, XX, XX, XX, XX, XX]\n";
        let text = format!(
            "suits: 1
piles:
  - face_up: []
  - face_up: [QS, JS, 10S, 9S, 8S, 7S, 6S, 5S, 4S, 3S]
  - face_up: [9S, 8S]
  - face_up: []
  - face_up: []
  - face_up: [9S, 8S, 7S, 6S, 5S, 4S, 3S]
  - face_up: [5S, 4S, 3S]
  - face_up: [KS, QS, JS]
  - face_up: []
  - face_up: []
stock:
{row}{row}{row}{row}removed: [S, S, S]
"
        );
        let seen = yaml::from_str(&text, Path::new("t.yaml")).unwrap();
        let settings = HiddenSettings {
            player: Player::Lookahead,
            lookahead: 5000,
            ..HiddenSettings::default()
        };
        let found = lines(&seen, settings.lookahead, &HashSet::new()).unwrap();
        assert!(found.leaves.is_empty());
        let inner = found.inner.expect("a line that fills an empty pile");
        assert!(!inner.turns_up);
        let view = View::of(&seen).unwrap();
        let real = seen
            .with_unknowns_filled(&draw(&view.unseen(), &mut SplitMix64::new(1)))
            .unwrap();
        let mut referee = Referee::new(&real).unwrap();
        let mut player = Lookahead::new(settings);
        let empty = |view: &View| {
            (0..crate::deal::PILES)
                .filter(|&p| view.position().is_empty_pile(p))
                .count()
        };
        let cancel = AtomicBool::new(false);
        let mut moves = 0;
        loop {
            let view = referee.view().clone();
            let choice = player.choose(&view, &cancel).unwrap().expect("a move");
            if choice.mv == Move::Deal {
                assert_eq!(empty(&view), 0);
                break;
            }
            assert!(matches!(choice.mv, Move::Shift { .. }));
            let turned = referee.play(choice.mv).unwrap();
            assert!(turned.is_empty());
            assert!(empty(referee.view()) <= empty(&view));
            player.observe(choice.mv, referee.view(), &turned);
            moves += 1;
            assert!(moves <= 12, "no deal after {moves} moves");
        }
        assert!(moves >= 4);
    }

    /// The positions a game passed through are one more than its moves,
    /// start at the deal's (44 cards face down) and end where the game
    /// ended: its cards face down and runs removed.
    #[test]
    fn positions_seen_follow_the_game_to_its_end() {
        let real = crate::deal::numbered::deal(3, SuitCount::Two, crate::deal::Rules::Standard);
        let settings = HiddenSettings {
            player: Player::Lookahead,
            lookahead: 500,
            ..HiddenSettings::default()
        };
        let game = play_hidden(&real, &settings, &AtomicBool::new(false)).unwrap();
        let seen = positions_seen(&real, &game.log).unwrap();
        assert_eq!(seen.len(), game.log.len() + 1);
        assert_eq!(&seen[0], Referee::new(&real).unwrap().view().position());
        let last = seen.last().unwrap();
        assert_eq!(last.face_down_total(), game.face_down_left);
        assert_eq!(last.runs_removed(), game.runs_removed);
        assert_eq!(seen[0].face_down_total(), 44);
    }
}
