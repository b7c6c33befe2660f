//! The blind player's flags, the same in `play`, `hint` and `batch
//! --hidden` (where the old `--hidden-*` spellings stay as hidden
//! aliases), and the one way its chance to win is printed.

use std::sync::LazyLock;

use spider_analyzer::cards::SuitCount;
use spider_analyzer::solve::Limits;
use spider_analyzer::stats::{Interval, estimate_text};
use spider_analyzer::unknown::blind::{HiddenSettings, Player};
use spider_analyzer::unknown::lookahead::FEATURES;
use spider_analyzer::unknown::playout::shipped_odds;

/// `--player`'s help: the players by name, from [`Player::NAMES`].
static PLAYER_HELP: LazyLock<String> = LazyLock::new(|| {
    format!(
        "The blind player: {} (default: `{}`; see docs/unknown-cards.md)",
        Player::NAMES
            .iter()
            .map(|n| format!("`{n}`"))
            .collect::<Vec<_>>()
            .join(", "),
        Player::default_for(SuitCount::Four),
    )
});

/// The blind player and its budgets (all in work: the same moves on any
/// machine).
#[derive(Debug, Clone, clap::Args)]
pub struct PlayerArgs {
    #[arg(long, value_name = "NAME", value_parser = super::flags::player, alias = "hidden-player", help = PLAYER_HELP.as_str())]
    pub player: Option<Player>,
    /// The blind player's completions sampled at each decision (hop: the
    /// completions solved; lookahead, live: the completions solved after
    /// the move for its chance; search: the playouts of a decision;
    /// default: 48 for search, 3 for the others).
    #[arg(long, value_name = "N", alias = "hidden-samples", value_parser = super::flags::whole_usize(1, super::flags::MAX_SAMPLES))]
    pub player_samples: Option<usize>,
    /// The blind player's budget for each solve of a sampled completion,
    /// in positions (default: 50000 at 4 suits, 100000 at 1 and 2).
    #[arg(long, value_name = "N", alias = "hidden-max-positions", value_parser = super::flags::whole(1, super::flags::MAX_COUNT))]
    pub solve_positions: Option<u64>,
    /// With no solved plan, play the best line of moves that turn up
    /// nothing before one that does, searched within N positions (0: the
    /// move whose position scores best).
    #[arg(long, value_name = "N", alias = "hidden-lookahead", default_value_t = spider_analyzer::unknown::blind::DEFAULT_LOOKAHEAD)]
    pub lookahead: usize,
    /// (lookahead) With at most one stock row left, search the lines
    /// within N positions instead (default: 20 times --lookahead at 4
    /// suits, 1000000 at its default; at 1 and 2 suits, --lookahead's to
    /// the end).
    #[arg(long, value_name = "N", value_parser = super::flags::whole_usize(1, super::flags::MAX_COUNT as usize))]
    pub late_lookahead: Option<usize>,
    /// (hop) With at most one stock row left, check each card the plans
    /// turn up against the lookahead's lines to a card, on N sampled
    /// completions solved after each (0: no check).
    #[arg(long, value_name = "N", alias = "hidden-check", default_value_t = spider_analyzer::unknown::blind::DEFAULT_CHECK, value_parser = super::flags::whole_usize(0, super::flags::MAX_SAMPLES))]
    pub check: usize,
}

impl PlayerArgs {
    /// The settings these flags give at `suits`, with the game's seed,
    /// move limit and threads.
    pub fn settings(
        &self,
        suits: SuitCount,
        seed: u64,
        max_moves: usize,
        jobs: Option<usize>,
    ) -> HiddenSettings {
        let player = self.player.unwrap_or(Player::default_for(suits));
        HiddenSettings {
            player,
            samples: self.player_samples.unwrap_or(player.default_samples()),
            limits: Limits {
                max_positions: Some(self.solve_positions.unwrap_or(
                    spider_analyzer::unknown::policy::default_solve_positions(suits),
                )),
                memory_limit: super::flags::MemoryLimit::Auto
                    .per_search(super::flags::threads(jobs)),
                ..Limits::default()
            },
            max_moves,
            lookahead: self.lookahead,
            late_lookahead: self.late_lookahead.or(
                spider_analyzer::unknown::policy::default_late_lookahead(suits, self.lookahead),
            ),
            check: self.check,
            seed,
        }
    }
}

/// How the chance printed beside a move is worded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChanceForm {
    /// `about 63 % (95 % CI 53–72 %; from …)` or a share of sampled
    /// completions in the words of every share, or why there is none.
    Long,
    /// `63 %` or `?`, for a move log.
    Short,
}

/// The chance to win shown beside a move: every place that prints it goes
/// through here, in the words of every share and interval
/// ([`spider_analyzer::stats`]). Where a chance model of the player at the
/// deal's suit count ships ([`spider_analyzer::unknown::odds`]), it is the
/// player's odds from the position it moved in (`counts`), a model's
/// estimate from the player's own recorded games won from positions like
/// it, with its 95 % interval, and the player's own estimate beside it,
/// named for what it is. Else, for HOP, the share of sampled completions
/// won with every card known, an upper bound of a blind player's chance
/// (said once before the first move: [`what_chances_mean`]); for the
/// search player, the share of its playouts won, calibrated on its own
/// recorded games where a calibration ships
/// ([`spider_analyzer::unknown::chance`]).
pub fn chance(
    estimate: Option<Interval>,
    counts: Option<&[f64; FEATURES]>,
    player: Player,
    suits: SuitCount,
    form: ChanceForm,
) -> String {
    if let Some(counts) = counts
        && let Some(model) = shipped_odds(suits, player.to_string().as_str())
    {
        let odds = model.chance_of(counts);
        return match form {
            ChanceForm::Short => format!("{:.0} %", odds.chance * 100.0),
            ChanceForm::Long => {
                let beside = match estimate {
                    Some(raw) if player == Player::Search => {
                        format!("; its playouts after this move won {raw}")
                    }
                    Some(raw) => format!(
                        "; with every card known, {raw} of the sampled completions are won within --solve-positions each (an upper bound only where those solves finish)"
                    ),
                    None => String::new(),
                };
                let from = format!(
                    "from the {} of this player's recorded games that passed positions like it",
                    odds.games
                );
                format!(
                    "{}{beside}",
                    estimate_text(odds.chance, odds.low, odds.high, &from)
                )
            }
        };
    }
    if player == Player::Search
        && let Some(raw) = estimate
        && let Some(calibration) = spider_analyzer::unknown::playout::shipped_calibration(suits)
    {
        let shown = calibration.chance(raw.share) * 100.0;
        return match form {
            ChanceForm::Short => format!("{shown:.0} %"),
            ChanceForm::Long => format!(
                "about {shown:.0} % (its playouts' share calibrated on its recorded games); its playouts after this move won {raw}"
            ),
        };
    }
    match (estimate, form) {
        (Some(i), ChanceForm::Short) => format!("{:.0} %", i.share * 100.0),
        (None, ChanceForm::Short) => "?".into(),
        (Some(i), ChanceForm::Long) => i.to_string(),
        (None, _) if player == Player::Hop => "not known (the lookahead's move: no move starts enough sampled wins, one at 1 and 2 suits, two at 4)".into(),
        (None, _) => format!("not known (the {player} player samples no completion to solve)"),
    }
}

/// The player's odds from what `view` shows, for a hint: `None` where no
/// chance model of the player at the view's suit count ships.
pub(crate) fn odds_line(
    view: &spider_analyzer::unknown::view::View,
    player: Player,
    estimate: Option<Interval>,
) -> Option<String> {
    shipped_odds(view.suits(), player.to_string().as_str())?;
    Some(format!(
        "  your chance to win from here, playing the blind player's moves: {}",
        chance(
            estimate,
            Some(&spider_analyzer::unknown::odds::counts_of(view)),
            player,
            view.suits(),
            ChanceForm::Long
        )
    ))
}

/// Why the player gives up while legal moves remain.
pub(crate) fn gave_up_why(settings: &HiddenSettings) -> String {
    let late = settings.late_search().map_or(String::new(), |late| {
        format!("; {late} with one stock row left or none")
    });
    format!(
        "the player gives up with legal moves left: no line within its lookahead ({} positions{late}) turns up a card or leaves a better position without going back to one already played through",
        settings.lookahead
    )
}

/// The line that says, before the first move, what the chances printed
/// mean: the player's odds from its recorded games where a chance model
/// ships ([`spider_analyzer::unknown::odds`]), else shares of sampled
/// completions won with every card known, so an upper bound of what a
/// player who cannot see them wins; with the default player, beside the
/// share of fresh deals it wins blind in the report studies (docs/unknown-cards.md: own 1-suit and 2-suit deals
/// 101..200, PySol 101..200 at 4 suits).
pub(crate) fn what_chances_mean(suits: SuitCount, player: Player) -> String {
    if player == Player::Search {
        return match spider_analyzer::unknown::playout::shipped_calibration(suits) {
            Some(c) => format!(
                "chances: the search player's own odds from here, the share of its playouts won calibrated on its recorded games ({}; docs/unknown-cards.md)",
                c.fitted_on
            ),
            None => format!(
                "chances: the share of the search player's playouts won after its line, by its fast policy (a lower bound of its odds, not yet calibrated at {} suits; docs/unknown-cards.md)",
                suits.count()
            ),
        };
    }
    // Games won of the 100 fresh deals of the report study.
    let won_blind = match suits {
        SuitCount::One => 88,
        SuitCount::Two => 62,
        SuitCount::Four => 18,
    };
    let study = if player == Player::default_for(suits)
        && let Some(share) = Interval::of(won_blind, 100)
    {
        format!(
            "; played blind, this player wins {share} of fresh {}-suit deals",
            suits.count()
        )
    } else {
        String::new()
    };
    if let Some(model) = shipped_odds(suits, player.to_string().as_str()) {
        return format!(
            "chances: this player's odds from here, the share of its own recorded games won from positions like this ({}){study} (docs/unknown-cards.md)",
            model.fitted_on
        );
    }
    format!(
        "chances: the share of sampled completions of the cards not seen that are won with every card known, an upper bound of yours, since you cannot see them{study} (docs/unknown-cards.md)"
    )
}
