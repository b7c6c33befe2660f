//! What every blind player shares: the [`Policy`] interface (given a
//! [`View`], choose a move; be told what it turned up), the [`Choice`] it
//! makes, which [`Player`] plays and the [`HiddenSettings`] it plays with.
//! The players are in [`super::blind`] (hindsight optimisation and the
//! lookahead alone) and [`super::search`].

use std::sync::atomic::AtomicBool;

use std::collections::HashSet;

use crate::cards::{Card, SuitCount};
use crate::game::Move;
use crate::solve::{Limits, SolveError, Verdict, analyze_unshortened};
use crate::stats::Interval;

use super::view::View;

/// A player who sees only what a player sees.
pub trait Policy {
    /// The move to play in `view`, or `None` when the player has none (no
    /// legal move, or it gives up: see [`Policy::stats`]).
    fn choose(&mut self, view: &View, cancel: &AtomicBool) -> Result<Option<Choice>, SolveError>;
    /// `mv` was played from the last view chosen in, which led to
    /// `view_after`, turning up `turned` (pile order; empty when nothing
    /// turned up).
    fn observe(&mut self, mv: Move, view_after: &View, turned: &[Card]);
    /// What the player did so far.
    fn stats(&self) -> PolicyStats {
        PolicyStats::default()
    }
}

/// A move chosen, with the player's estimate of the chance to win after it.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    pub mv: Move,
    /// The estimated chance to win playing it (`None`: no estimate, e.g. a
    /// move chosen by the heuristic with no winning line found).
    pub win_estimate: Option<Interval>,
    /// Other moves considered, best first, with their estimates.
    pub alternatives: Vec<(Move, Option<Interval>)>,
    /// Whether the move starts a line that [`super::blind::Hop`]'s check
    /// chose over the card its plans would turn up (the estimate is then
    /// that line's share of the checked completions).
    pub checked: bool,
}

/// Counts a policy keeps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PolicyStats {
    /// Times it sampled and solved.
    pub decisions: usize,
    /// Moves chosen with no plan (by the heuristic).
    pub unplanned_moves: usize,
    /// Whether it gave up (no progress).
    pub gave_up: bool,
}

/// The course of a game for the players that play lines
/// ([`super::blind::Lookahead`]): the rest of the line chosen (moves that turn
/// up nothing, then the one that turns up cards or wins), the positions
/// the game has been through (keys of the views), and the counts.
#[derive(Clone, Debug, Default)]
pub(super) struct Course {
    pub plan: Vec<Move>,
    pub seen: HashSet<u128>,
    pub stats: PolicyStats,
}

impl Course {
    /// What such a player does first at each move: `false` when the game
    /// is won (no move to choose); else `view` is kept among the positions
    /// seen and, when no line is left and every card has been seen, the
    /// game is one of known cards: the solver's winning line within
    /// `limits`, if it finds one, becomes the line (a decision).
    pub fn begin(
        &mut self,
        view: &View,
        limits: &Limits,
        cancel: &AtomicBool,
    ) -> Result<bool, SolveError> {
        if view.is_won() {
            return Ok(false);
        }
        self.seen.insert(view.key());
        if self.plan.is_empty() && view.hidden_count() == 0 {
            self.stats.decisions += 1;
            let analysis = analyze_unshortened(&view.deal(), limits, cancel)?;
            if let (Verdict::Winnable, Some(line)) = (analysis.verdict, analysis.line) {
                self.plan = line;
            }
        }
        Ok(true)
    }

    /// The next move of the line, with no estimate.
    pub fn next(&self) -> Option<Choice> {
        Some(Choice {
            mv: *self.plan.first()?,
            win_estimate: None,
            alternatives: Vec::new(),
            checked: false,
        })
    }

    /// `mv` was played, leading to `view_after` and turning up `turned`:
    /// the line goes on when `mv` was its next move and turned up nothing
    /// (a line ends at its card: anything after it is news).
    pub fn observe(&mut self, mv: Move, view_after: &View, turned: &[Card]) {
        self.seen.insert(view_after.key());
        if self.plan.first() == Some(&mv) && turned.is_empty() {
            self.plan.remove(0);
        } else {
            self.plan.clear();
        }
    }
}

/// Which player plays blind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Player {
    /// [`super::blind::Hop`]: hindsight optimisation, every sample solved with its cards
    /// known; the only one whose chances are shares of winnable samples.
    Hop,
    /// [`super::blind::Lookahead`]: the lookahead alone (the line to the best reveal),
    /// no sample. The default ([`Player::default_for`]).
    Lookahead,
    /// [`super::search::Search`]: the search over the reveals, candidate
    /// lines weighed by playouts of the learned fast policy.
    Search,
}

impl Player {
    /// The player of `spider play`, `spider hint` and `batch --hidden` when
    /// none is named: the one that won the most where they were measured
    /// (docs/unknown-cards.md): the lookahead player at every suit count.
    /// At 2 suits it won 164 of 300 games against HOP's 144 over three
    /// ranges of deals, in half the seconds. At 1 suit, since its value
    /// was learned, 193 of own 41001..41100 and 42001..42100 against HOP's
    /// 179, and as many on 300 others (273 against 270), at 1.7 CPU
    /// seconds a game against 4.2. At 4 suits, since its search keeps
    /// same-suit runs whole (`lookahead::keep_runs_whole`), more games than
    /// HOP on every range of PySol deals they both played, at a tenth of
    /// the CPU (docs/unknown-cards.md).
    pub fn default_for(_suits: SuitCount) -> Player {
        Player::Lookahead
    }

    /// The samples a decision when none are named: the search player's
    /// playouts ([`DEFAULT_SEARCH_PLAYOUTS`]), else 3 (HOP's completions
    /// solved; the lookahead player's live chance).
    pub fn default_samples(self) -> usize {
        match self {
            Player::Search => DEFAULT_SEARCH_PLAYOUTS,
            Player::Hop | Player::Lookahead => 3,
        }
    }

    pub const NAMES: [&'static str; 3] = ["hop", "lookahead", "search"];

    /// The player named `name` ([`Player::NAMES`]).
    pub fn named(name: &str) -> Option<Player> {
        match name {
            "hop" => Some(Player::Hop),
            "lookahead" => Some(Player::Lookahead),
            "search" => Some(Player::Search),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Player::Hop => "hop",
            Player::Lookahead => "lookahead",
            Player::Search => "search",
        }
    }
}

impl std::fmt::Display for Player {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The positions a solve of a sampled completion may take at default
/// settings (`batch --hidden-max-positions`, `spider play
/// --max-positions`): 50,000 at 4 suits, 100,000 at 1 and 2. At 4 suits
/// most solves from the positions a blind player reaches run to their
/// budget, so the budget sets the seconds of a decision; on the report
/// deals (PySol 101..200, HOP at its defaults, one thread) 43 of 100
/// games had a move over 2 s at 100,000 (the slowest 4.9 s) and 9 at
/// 50,000 (the slowest 2.8 s), and both won 10 of 100 (5 and 5 games
/// differ), as 400,000 won 11: what the budget buys at 4 suits is time
/// only (docs/unknown-cards.md).
pub fn default_solve_positions(suits: SuitCount) -> u64 {
    match suits {
        SuitCount::Four => 50_000,
        SuitCount::One | SuitCount::Two => 100_000,
    }
}

/// The playouts of a decision of [`super::search::Search`] at default
/// settings (`--player-samples` of the `search` player).
pub const DEFAULT_SEARCH_PLAYOUTS: usize = 48;

/// The samples of [`super::blind::Hop`]'s check of the card to turn up at
/// default settings (`--hidden-check`, `--check`).
pub const DEFAULT_CHECK: usize = 10;

/// The positions of the lookahead's search at default settings
/// (`--hidden-lookahead`, `--lookahead`). Chosen on deals no report uses
/// (own 1001..1100 at 1 and 2 suits, PySol 1001..1100;
/// docs/unknown-cards.md): against 5,000, HOP won 50 of 100 2-suit games
/// against 46 (8 games won that 5,000 lost, 4 lost that it won), and the
/// lookahead player 83, 52 and 4 of 100 at 1, 2 and 4 suits against 81,
/// 43 and 2, at about a tenth of a second a search.
pub const DEFAULT_LOOKAHEAD: usize = 50_000;

/// The stock rows left (at most) from which the lookahead player searches
/// its lines within [`HiddenSettings::late_lookahead`]: late in the game,
/// where the loss analysis finds the games lost.
pub const LATE_ROWS: usize = 1;

/// How many times the lookahead's positions the lookahead player searches
/// late (with at most [`LATE_ROWS`] stock rows left) at 4 suits by
/// default: a million at the 50,000 of [`DEFAULT_LOOKAHEAD`], where it won
/// 114 of 500 PySol deals against 92 with the same 50,000 to the end (38
/// games only it won, 16 only the other; docs/unknown-cards.md).
pub const LATE_FACTOR: usize = 20;

/// The positions of the lookahead player's late search at default
/// settings (`--late-lookahead`) for deals of `suits` suits and a
/// lookahead of `lookahead` positions: [`LATE_FACTOR`] times it at 4
/// suits; none at 1 and 2 suits, where the lookahead keeps its budget to
/// the end.
pub fn default_late_lookahead(suits: SuitCount, lookahead: usize) -> Option<usize> {
    match suits {
        SuitCount::Four => Some(lookahead.saturating_mul(LATE_FACTOR)),
        SuitCount::One | SuitCount::Two => None,
    }
}

/// How the hidden player plays.
#[derive(Clone, Debug)]
pub struct HiddenSettings {
    /// Which player.
    pub player: Player,
    /// Completions drawn at each decision (for [`Player::Search`]: the
    /// playouts of a decision).
    pub samples: usize,
    /// Limits of each solve of a sampled completion.
    pub limits: Limits,
    /// The game is given up after this many moves.
    pub max_moves: usize,
    /// With no plan, play the line [`super::lookahead::best_line`] finds
    /// within this many positions that turn up nothing; 0 plays the move
    /// whose position scores best instead (the player of the first study).
    pub lookahead: usize,
    /// [`Player::Lookahead`]: with at most [`LATE_ROWS`] stock rows left,
    /// search the lines within this many positions instead of
    /// [`HiddenSettings::lookahead`] (`None`: the same budget to the end).
    pub late_lookahead: Option<usize>,
    /// [`Player::Hop`]: before turning up a card with at most
    /// [`super::blind::CHECK_ROWS`] stock rows left, weigh the plans' move
    /// against the lookahead's lines to a card on this many sampled
    /// completions (0: no check).
    pub check: usize,
    /// Seeds the samples of the game (with the deal's number mixed in by
    /// the caller, so each game has its own).
    pub seed: u64,
}

impl Default for HiddenSettings {
    /// The settings of `spider batch --hidden` and `spider play` at their
    /// defaults (limits without a memory limit, which the command line
    /// sets per thread): HOP, 3 samples a decision, 100,000 positions a
    /// solve (the default at 1 and 2 suits; the command line takes
    /// [`default_solve_positions`] for the deal's suits), 1000 moves, a lookahead of 50,000 positions, 10 samples a
    /// check, seed 1.
    fn default() -> HiddenSettings {
        HiddenSettings {
            player: Player::Hop,
            samples: 3,
            limits: Limits {
                max_positions: Some(100_000),
                shorten_positions: 0,
                ..Limits::default()
            },
            max_moves: 1000,
            lookahead: DEFAULT_LOOKAHEAD,
            late_lookahead: None,
            check: DEFAULT_CHECK,
            seed: 1,
        }
    }
}

impl HiddenSettings {
    /// The settings of `spider batch --hidden` at its defaults for deals
    /// of `suits` suits: [`Player::default_for`] those suits, each solve
    /// within [`default_solve_positions`], the rest as
    /// [`HiddenSettings::default`] but the late search of
    /// [`default_late_lookahead`] at the default lookahead.
    pub fn for_suits(suits: SuitCount) -> HiddenSettings {
        let defaults = HiddenSettings::default();
        let player = Player::default_for(suits);
        HiddenSettings {
            player,
            samples: player.default_samples(),
            limits: Limits {
                max_positions: Some(default_solve_positions(suits)),
                ..defaults.limits.clone()
            },
            late_lookahead: default_late_lookahead(suits, defaults.lookahead),
            ..defaults
        }
    }

    /// The late search's positions where it differs from the lookahead's
    /// (the lookahead player only): what a results file keeps and a
    /// message names.
    pub fn late_search(&self) -> Option<usize> {
        self.late_lookahead
            .filter(|&late| self.player == Player::Lookahead && late != self.lookahead)
    }

    /// The positions the lookahead player searches its lines within, with
    /// `rows_left` stock rows left: the late budget from [`LATE_ROWS`]
    /// rows on, else [`HiddenSettings::lookahead`]; at least one.
    pub fn lookahead_with(&self, rows_left: usize) -> usize {
        match self.late_lookahead {
            Some(late) if rows_left <= LATE_ROWS => late,
            _ => self.lookahead,
        }
        .max(1)
    }

    /// The settings of the game of deal `number` in a study: these, with
    /// the seed mixed with the number, so that each game draws its own
    /// samples and the same seed plays the same games.
    pub fn for_deal(&self, number: u64) -> HiddenSettings {
        HiddenSettings {
            seed: crate::deal::numbered::SplitMix64::new(self.seed ^ number).next_u64(),
            ..self.clone()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The defaults a study plays at each suit count: the lookahead player,
    /// its solves (once every card is seen) within 100,000 positions at 1
    /// and 2 suits and 50,000 at 4, its late search within a million
    /// positions at 4 suits only; everything else as
    /// [`HiddenSettings::default`].
    #[test]
    fn the_settings_for_each_suit_count_are_the_studys_defaults() {
        for (suits, player, positions, late) in [
            (SuitCount::One, Player::Lookahead, 100_000, None),
            (SuitCount::Two, Player::Lookahead, 100_000, None),
            (SuitCount::Four, Player::Lookahead, 50_000, Some(1_000_000)),
        ] {
            let settings = HiddenSettings::for_suits(suits);
            assert_eq!(settings.player, player, "{suits:?}");
            assert_eq!(settings.limits.max_positions, Some(positions), "{suits:?}");
            assert_eq!(settings.late_lookahead, late, "{suits:?}");
            let defaults = HiddenSettings::default();
            assert_eq!(settings.samples, defaults.samples);
            assert_eq!(settings.lookahead, defaults.lookahead);
            assert_eq!(settings.check, defaults.check);
            assert_eq!(settings.seed, defaults.seed);
            assert_eq!(settings.limits.shorten_positions, 0);
        }
    }

    /// The late budget holds from [`LATE_ROWS`] stock rows left on, the
    /// lookahead's before, and the lookahead's throughout without one.
    #[test]
    fn the_late_search_starts_with_one_stock_row_left() {
        let four = HiddenSettings::for_suits(SuitCount::Four);
        assert_eq!(
            [5, 2, 1, 0].map(|rows| four.lookahead_with(rows)),
            [50_000, 50_000, 1_000_000, 1_000_000]
        );
        let two = HiddenSettings::for_suits(SuitCount::Two);
        assert_eq!([5, 1, 0].map(|rows| two.lookahead_with(rows)), [50_000; 3]);
        let none = HiddenSettings {
            lookahead: 0,
            ..HiddenSettings::default()
        };
        assert_eq!(none.lookahead_with(3), 1);
        // What a results file keeps: the late budget where it differs,
        // for the lookahead player only.
        assert_eq!(four.late_search(), Some(1_000_000));
        assert_eq!(two.late_search(), None);
        let same = HiddenSettings {
            late_lookahead: Some(DEFAULT_LOOKAHEAD),
            ..four.clone()
        };
        assert_eq!(same.late_search(), None);
        let hop = HiddenSettings {
            player: Player::Hop,
            ..four.clone()
        };
        assert_eq!(hop.late_search(), None);
    }
}
