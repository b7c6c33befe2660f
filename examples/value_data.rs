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

use spider_analyzer::unknown::blind::play_blind;
use spider_analyzer::unknown::lookahead::features;
use spider_analyzer::unknown::referee::Referee;

mod study;

fn main() {
    let [suits, first, last] = study::three_args("value_data SUITS FIRST LAST");
    let cancel = AtomicBool::new(false);
    for number in first..=last {
        let (real, mut settings) = study::game(study::suits(suits), number);
        if let Some(budget) = std::env::var("LOOKAHEAD").ok().and_then(|b| b.parse().ok()) {
            settings.lookahead = budget;
        }
        let mut referee = Referee::new(&real).unwrap();
        let mut player = settings.new_player();
        let mut seen = vec![features(referee.view().position())];
        let game = play_blind(
            &mut referee,
            player.as_mut(),
            settings.max_moves,
            &cancel,
            &mut |_| {},
        )
        .unwrap();
        // The referee's view after each move is gone once played: replay
        // the log on a fresh referee to read each position seen.
        let mut replay = Referee::new(&real).unwrap();
        for played in &game.log {
            replay.play(played.mv).unwrap();
            seen.push(features(replay.view().position()));
        }
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
