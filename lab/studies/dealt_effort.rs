//! What the room test proves where the last row is dealt, tried harder.
//! The explorer's breadth-first search of the stage before the last deal
//! (up to CAP positions), then the dead-end test on one in EVERY of the
//! positions the last deal leads to, with the room test's in-search effort
//! (`Effort::ENTRY`, 2,000 relaxed states, giving up once two piles are
//! emptied) and with more: a larger budget, never giving up on emptied
//! piles, both, and the test of the position analyzed
//! ([`dead_end_at_start`]).
//! Prints, for each effort, how many of those positions it proves lost and
//! the seconds it took.
//!
//! ```text
//! cargo run --release --example dealt_effort -- CAP EVERY benches/ladder/r1-g5016.yaml
//! ```
use std::time::Instant;

use spider_analyzer::deal::load;
use spider_analyzer::game::Game;
use spider_analyzer::solve::prune::{RoomRule, dead_end_as_hard_as, dead_end_at_start};
use spider_analyzer::solve::room::{BUDGET, Effort};
use spider_analyzer::solve::stage::dealt_from_the_first_stage;

fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(cap), Some(every)) = (args.next(), args.next()) else {
        eprintln!("usage: dealt_effort CAP EVERY FILE...");
        std::process::exit(2);
    };
    let cap: u64 = cap.parse().expect("CAP is a number");
    let every: usize = every.parse().expect("EVERY is a number");
    // `Effort::START` never gives up on emptied piles and keeps no memory.
    let efforts = [
        ("entry", Effort::ENTRY),
        (
            "20k",
            Effort {
                budget: 20_000,
                remembers: false,
                ..Effort::ENTRY
            },
        ),
        (
            "no-give-up",
            Effort {
                budget: BUDGET,
                ..Effort::START
            },
        ),
        (
            "20k-no-give-up",
            Effort {
                budget: 20_000,
                ..Effort::START
            },
        ),
    ];
    for path in args {
        let deal = load(path.as_ref()).expect("a deal file");
        let game = Game::new(&deal).expect("a valid deal");
        let (stage, dealt) = dealt_from_the_first_stage(&game, Some(cap));
        let dealt: Vec<_> = dealt
            .into_iter()
            .step_by(every.max(1))
            .filter(|position| game.rows_left(position) == 0)
            .collect();
        let mut line = format!(
            "{path}: {stage} positions before the deal, {} dealt tested:",
            dealt.len()
        );
        let mut count = |name: &str, lost: &dyn Fn(&spider_analyzer::game::Position) -> bool| {
            let clock = Instant::now();
            let lost = dealt.iter().filter(|position| lost(position)).count();
            line += &format!(" {name} {lost} ({:.2} s)", clock.elapsed().as_secs_f64());
        };
        for (name, effort) in efforts {
            count(name, &|position| {
                dead_end_as_hard_as(&game, position, effort).is_some()
            });
        }
        count("start", &|position| {
            dead_end_at_start(&game, position, RoomRule::MakeWay).is_some()
        });
        println!("{line}");
    }
}
