//! The position a blind game of own deal NUMBER (SUITS suits, the study's
//! player and seed) reaches after K moves, as the player sees it (every
//! face-down and stock card `XX`), as YAML on standard output; the moves
//! and the real position go to standard error. `CHECK=0` plays HOP
//! without its check of the card to turn up (the player before it).
//!
//! ```text
//! CHECK=0 cargo run --release --example blind_at -- 1 9 67 > seen.yaml
//! ```
use std::sync::atomic::AtomicBool;

use spider_analyzer::deal::yaml;
use spider_analyzer::unknown::blind::play_blind;
use spider_analyzer::unknown::referee::Referee;

mod study;

fn main() {
    let [suits, number, k] = study::three_args("blind_at SUITS NUMBER K");
    let (real, settings) = study::game(study::suits(suits), number);
    let cancel = AtomicBool::new(false);
    let mut referee = Referee::new(&real).unwrap();
    let mut player = settings.new_player();
    play_blind(
        &mut referee,
        player.as_mut(),
        k as usize,
        &cancel,
        &mut |m| eprintln!("{} {}", m.number, m.mv),
    )
    .unwrap();
    print!("{}", yaml::to_string(&referee.view().deal()));
    eprintln!(
        "real:\n{}",
        yaml::to_string(&referee.game().deal_at(referee.position()).unwrap())
    );
}
