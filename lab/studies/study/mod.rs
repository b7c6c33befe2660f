//! What the blind-play examples share: a game of the study, as `spider
//! batch --hidden` plays it (own deals, standard rules, the default player
//! and seed), with `PLAYER=hop`, `lookahead` or `search` in the
//! environment for another player and `CHECK=0` for HOP without its check
//! of the card to turn up.

use spider_analyzer::cards::SuitCount;
use spider_analyzer::deal::numbered::deal;
use spider_analyzer::deal::{Deal, Rules};
use spider_analyzer::unknown::blind::{DEFAULT_CHECK, HiddenSettings};
use spider_analyzer::unknown::policy::Player;

/// The example's three whole-number arguments, named in `usage` (for
/// example "blind_at SUITS NUMBER K"); stops with the usage otherwise.
pub fn three_args(usage: &str) -> [u64; 3] {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().unwrap_or_else(|_| panic!("usage: {usage}")))
        .collect();
    args.try_into().unwrap_or_else(|_| panic!("usage: {usage}"))
}

/// The whole number in the environment variable `name`, else `default`.
#[allow(dead_code)] // each example includes this module; not every one reads a setting
pub fn setting(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The suit count an example's SUITS argument names (1, 2, else 4).
pub fn suits(suits: u64) -> SuitCount {
    match suits {
        1 => SuitCount::One,
        2 => SuitCount::Two,
        _ => SuitCount::Four,
    }
}

/// Own deal `number` of `suits` suits and the settings of its game in the
/// study: the default player for the suits (`PLAYER=hop`, `lookahead` or
/// `search` names another) at its default budgets.
#[allow(dead_code)] // each example includes this module; not every one plays a study game
pub fn game(suits: SuitCount, number: u64) -> (Deal, HiddenSettings) {
    let defaults = HiddenSettings::for_suits(suits);
    let settings = HiddenSettings {
        player: std::env::var("PLAYER")
            .ok()
            .map(|name| Player::named(&name).expect("PLAYER: hop, lookahead or search"))
            .unwrap_or(defaults.player),
        check: std::env::var("CHECK")
            .ok()
            .and_then(|c| c.parse().ok())
            .unwrap_or(DEFAULT_CHECK),
        ..defaults
    };
    (
        deal(number, suits, Rules::Standard),
        settings.for_deal(number),
    )
}
