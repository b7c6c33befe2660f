//! The positions blind games pass through, as the player sees them, with
//! each game's outcome: the data to fit the lookahead's value to. For each
//! own deal FIRST..=LAST of SUITS suits, the study's game (the default
//! player for the suits; `PLAYER=` names another, `LOOKAHEAD=` its budget
//! of positions) is played, and after every move one line is printed:
//! the deal, the move's number, whether the game was won (1 or 0), the
//! cards face down and the runs removed at its end, then the counts of
//! `lookahead::features` of the position reached.
//!
//! ```text
//! LOOKAHEAD=5000 cargo run --release --example value_data -- 2 4001 4200 > data.tsv
//! ```
use std::sync::atomic::AtomicBool;

use spider_analyzer::unknown::blind::{play_hidden, positions_seen};
use spider_analyzer::unknown::lookahead::features;

mod study;

fn main() {
    let [suits, first, last] = study::three_args("value_data SUITS FIRST LAST");
    let cancel = AtomicBool::new(false);
    for number in first..=last {
        let (real, mut settings) = study::game(study::suits(suits), number);
        settings.lookahead = study::setting("LOOKAHEAD", settings.lookahead);
        let game = play_hidden(&real, &settings, &cancel).unwrap();
        let seen: Vec<_> = positions_seen(&real, &game.log)
            .unwrap()
            .iter()
            .map(features)
            .collect();
        for (at, counts) in seen.iter().enumerate() {
            let counts: Vec<String> = counts.iter().map(|c| c.to_string()).collect();
            println!(
                "{number}\t{at}\t{}\t{}\t{}\t{}",
                u8::from(game.won),
                game.face_down_left,
                game.runs_removed,
                counts.join("\t")
            );
        }
    }
}
