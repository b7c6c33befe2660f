//! What the blind-play examples share: a game of the study, as `spider
//! batch --hidden` plays it (own deals, standard rules, the default player
//! and seed), with `CHECK=0` in the environment for HOP without its check
//! of the card to turn up.

use spider_analyzer::cards::SuitCount;
use spider_analyzer::deal::numbered::deal;
use spider_analyzer::deal::{Deal, Rules};
use spider_analyzer::unknown::blind::{DEFAULT_CHECK, HiddenSettings};

/// The suit count an example's SUITS argument names (1, 2, else 4).
pub fn suits(suits: u64) -> SuitCount {
    match suits {
        1 => SuitCount::One,
        2 => SuitCount::Two,
        _ => SuitCount::Four,
    }
}

/// Own deal `number` of `suits` suits and the settings of its game in the
/// study.
pub fn game(suits: SuitCount, number: u64) -> (Deal, HiddenSettings) {
    let settings = HiddenSettings {
        check: std::env::var("CHECK")
            .ok()
            .and_then(|c| c.parse().ok())
            .unwrap_or(DEFAULT_CHECK),
        ..HiddenSettings::default()
    };
    (
        deal(number, suits, Rules::Standard),
        settings.for_deal(number),
    )
}
