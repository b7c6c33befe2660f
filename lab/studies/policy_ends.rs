//! How the fast policy's blind games end: for own deals FIRST..=LAST of
//! SUITS suits, one line a game: won, cards face down left, runs removed,
//! moves (BUDGET= the line search's positions; START=1 plays the weights
//! the training starts from, the lookahead's value, instead of the
//! shipped ones).
use spider_analyzer::unknown::playout::{LINE_POSITIONS, shipped, starting_weights};
use spider_analyzer::unknown::train::own_tables;

mod study;

fn main() {
    let [suits, first, last] = study::three_args("policy_ends SUITS FIRST LAST");
    let budget = study::setting("BUDGET", LINE_POSITIONS);
    let suits = study::suits(suits);
    let weights = if study::setting("START", 0) == 1 {
        starting_weights(suits)
    } else {
        shipped(suits)
    };
    for (i, table) in own_tables(first..=last, suits).iter().enumerate() {
        let o = table.play(&weights, budget);
        println!(
            "{}\t{}\t{}\t{}\t{}",
            first + i as u64,
            u8::from(o.won),
            o.face_down_left,
            o.runs_removed,
            o.moves
        );
    }
}
