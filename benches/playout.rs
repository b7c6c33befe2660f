//! The fast playout policy alone (`src/unknown/playout.rs`): whole blind
//! games from the start of numbered deals, one core, with the shipped
//! weights and with the weights it started from (the lookahead's value),
//! on the same deals. Prints, per suit count, the share won with its 95 %
//! interval and the CPU a game (median and mean).
//!
//! `cargo bench --bench playout` (own deals 30001..30200 at 1, 2 and 4
//! suits: deals the weights were not trained on; about a minute);
//! `PLAYOUT_DEALS=N`, `PLAYOUT_FIRST=N`, `PLAYOUT_SUITS=1,2`,
//! `PLAYOUT_BUDGET=N` (positions of the line search a decision).

use std::time::Instant;

use spider_analyzer::cards::SuitCount;
use spider_analyzer::stats::Interval;
use spider_analyzer::unknown::playout::{LINE_POSITIONS, shipped, starting_weights};
use spider_analyzer::unknown::train::own_tables;

fn env<T: std::str::FromStr>(name: &str) -> Option<T> {
    std::env::var(name).ok().and_then(|v| v.trim().parse().ok())
}

fn main() {
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let deals: u64 = env("PLAYOUT_DEALS").unwrap_or(200);
    let first: u64 = env("PLAYOUT_FIRST").unwrap_or(30_001);
    let budget: usize = env("PLAYOUT_BUDGET").unwrap_or(LINE_POSITIONS);
    let suits: Vec<usize> = std::env::var("PLAYOUT_SUITS")
        .ok()
        .map(|v| v.split(',').filter_map(|s| s.trim().parse().ok()).collect())
        .unwrap_or(vec![1, 2, 4]);
    println!(
        "own deals {first}..{}, line search {budget} positions, one core",
        first + deals - 1
    );
    for s in suits {
        let Some(suits) = SuitCount::from_count(s) else {
            continue;
        };
        let tables = own_tables(first..=first + deals - 1, suits);
        for (name, weights) in [
            ("shipped", shipped(suits)),
            ("starting", starting_weights(suits)),
        ] {
            let mut times = Vec::new();
            let mut won = 0;
            for table in &tables {
                let start = Instant::now();
                won += table.play(&weights, budget).won as usize;
                times.push(start.elapsed().as_secs_f64() * 1000.0);
            }
            let mean = times.iter().sum::<f64>() / times.len() as f64;
            times.sort_by(f64::total_cmp);
            let median = times[times.len() / 2];
            let share = Interval::of(won, tables.len()).expect("some deals");
            println!(
                "{s} suit(s), {name:>8} weights: won {won} of {} ({:.1} %, 95 % CI {:.1}–{:.1} %), {median:.2} ms a game (median), {mean:.2} ms (mean)",
                tables.len(),
                share.share * 100.0,
                share.low * 100.0,
                share.high * 100.0,
            );
        }
    }
}
