//! What the room test proves where the last row is dealt, tried harder.
//! A breadth-first search of the stage before the last deal (no deal, up to
//! CAP positions expanded), then the dead-end test on each position the
//! last deal leads to (one in EVERY), with the room test's in-search effort
//! (`Effort::ENTRY`, 2,000 relaxed states, giving up once two piles are
//! emptied) and with more: a larger budget, never giving up on emptied
//! piles, and the effort of the position analyzed (`Effort::START`).
//! Prints, for each effort, how many of those positions it proves lost and
//! the seconds it took.
//!
//! ```text
//! cargo run --release --example dealt_effort -- CAP EVERY benches/ladder/r1-g5016.yaml
//! ```
use std::collections::HashSet;
use std::time::Instant;

use spider_analyzer::deal::load;
use spider_analyzer::game::{Game, Move, Position};
use spider_analyzer::solve::prune::dead_end_as_hard_as;
use spider_analyzer::solve::room::Effort;

/// The first relaxation's budget of states inside the search and at the
/// start (`SLOT_SEARCH_BUDGET`, `SLOT_SEARCH_BUDGET_AT_START`).
const SLOTS: u32 = 200;
const SLOTS_AT_START: u32 = 100_000;

fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(cap), Some(every)) = (args.next(), args.next()) else {
        eprintln!("usage: dealt_effort CAP EVERY FILE...");
        std::process::exit(2);
    };
    let cap: usize = cap.parse().expect("CAP is a number");
    let every: usize = every.parse().expect("EVERY is a number");
    let alone = Effort {
        remembers: false,
        ..Effort::ENTRY
    };
    let efforts = [
        ("entry", SLOTS, Effort::ENTRY),
        (
            "20k",
            SLOTS,
            Effort {
                budget: 20_000,
                ..alone
            },
        ),
        (
            "no-give-up",
            SLOTS,
            Effort {
                emptied_enough: 11,
                ..alone
            },
        ),
        (
            "20k-no-give-up",
            SLOTS,
            Effort {
                budget: 20_000,
                emptied_enough: 11,
                ..alone
            },
        ),
        ("start", SLOTS_AT_START, Effort::START),
    ];
    for path in args {
        let deal = load(path.as_ref()).expect("a deal file");
        let game = Game::new(&deal).expect("a valid deal");
        let (expanded, dealt) = dealt_positions(&game, cap, every);
        let mut line = format!(
            "{path}: {expanded} positions before the deal expanded, {} dealt tested:",
            dealt.len()
        );
        for (name, slots, effort) in efforts {
            let clock = Instant::now();
            let lost = dealt
                .iter()
                .filter(|position| dead_end_as_hard_as(&game, position, slots, effort).is_some())
                .count();
            line += &format!(" {name} {lost} ({:.2} s)", clock.elapsed().as_secs_f64());
        }
        println!("{line}");
    }
}

/// The positions the last deal leads to from the first `cap` positions of
/// the stage before it, one in `every`, and how many were expanded.
fn dealt_positions(game: &Game, cap: usize, every: usize) -> (usize, Vec<Position>) {
    let mut seen = HashSet::new();
    seen.insert(game.start().clone());
    let mut queue = vec![game.start().clone()];
    let mut next = 0;
    let mut moves = Vec::new();
    let mut dealt = Vec::new();
    while next < queue.len() && next < cap {
        let position = queue[next].clone();
        next += 1;
        moves.clear();
        game.moves(&position, &mut moves);
        for &mv in &moves {
            let to = game.apply(&position, mv).position;
            if mv == Move::Deal {
                if game.rows_left(&to) == 0 && next % every == 0 {
                    dealt.push(to);
                }
            } else if seen.insert(to.clone()) {
                queue.push(to);
            }
        }
    }
    (next, dealt)
}
