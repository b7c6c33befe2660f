//! The solver on a fixed set of deals: own-generator deals 1..=N for 1 and
//! 2 suits and PySol games 1..=N (4 suits), under standard rules, decided
//! one at a time on one core with the default budgets of `spider analyze`
//! (positions per deal, positions of shortening). Prints, per suit count, the decided
//! share, the median and 95th-percentile time, the median winning-line
//! length and the median time to the first win (the same summary `spider
//! batch` prints).
//!
//! `cargo bench --bench solve` (N = 100, 20 M positions per deal: the default budget); set
//! `SOLVE_BENCH_DEALS`, `SOLVE_BENCH_POSITIONS`, `SOLVE_BENCH_SECONDS` (a
//! time limit on top), `SOLVE_BENCH_SHORTEN` (positions of shortening) and
//! `SOLVE_BENCH_SUITS` (e.g. `4` or `1,2`) to change them.

use std::collections::HashSet;
use std::sync::Mutex;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use spider_analyzer::batch::{self, BatchConfig, DealList, Shard, Source, Summary};
use spider_analyzer::cards::SuitCount;
use spider_analyzer::deal::Rules;
use spider_analyzer::solve::{DEFAULT_MAX_POSITIONS, DEFAULT_SHORTEN_POSITIONS, Limits};

fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() {
    // `cargo test --benches` runs bench binaries with no arguments too;
    // only `cargo bench` passes `--bench`.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let deals = env_or("SOLVE_BENCH_DEALS", 100) as u128;
    // A budget in positions (the default of `analyze`), or, with
    // SOLVE_BENCH_SECONDS, a time limit as before.
    let seconds = std::env::var("SOLVE_BENCH_SECONDS")
        .ok()
        .and_then(|v| v.parse::<u64>().ok());
    let positions = env_or("SOLVE_BENCH_POSITIONS", DEFAULT_MAX_POSITIONS);
    let shorten_positions = env_or("SOLVE_BENCH_SHORTEN", DEFAULT_SHORTEN_POSITIONS);
    let wanted = std::env::var("SOLVE_BENCH_SUITS").unwrap_or_else(|_| "1,2,4".into());
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a one-thread pool");
    for suits in [SuitCount::One, SuitCount::Two, SuitCount::Four] {
        if !wanted
            .split(',')
            .any(|n| n.trim() == suits.count().to_string())
        {
            continue;
        }
        let source = match suits {
            SuitCount::Four => Source::Pysol,
            _ => Source::Own,
        };
        let config = BatchConfig {
            source,
            deals: DealList::range(1, deals),
            shard: Shard::WHOLE,
            suits,
            rules: Rules::Standard,
            limits: Limits {
                time_limit: seconds.map(Duration::from_secs),
                max_positions: Some(positions),
                memory_limit: Some(4 << 30),
                shorten_positions,
                ..Limits::default()
            },
        };
        let records = Mutex::new(Vec::new());
        let started = Instant::now();
        pool.install(|| {
            batch::run(
                &config,
                &HashSet::new(),
                &AtomicBool::new(false),
                &|record| {
                    records.lock().unwrap().push(record);
                    Ok(())
                },
            )
        })
        .expect("the batch runs");
        let records = records.into_inner().unwrap();
        let summary = Summary::of(
            &records,
            Some((started.elapsed().as_secs_f64(), records.len() as u64)),
        );
        println!(
            "== {}-suit {} deals 1..={deals}, standard rules, one core, {positions} positions{} per deal, {shorten_positions} positions of shortening ==\n{summary}",
            suits.count(),
            match source {
                Source::Pysol => "PySol",
                Source::Own => "own",
            },
            seconds.map_or(String::new(), |s| format!(" or {s} s"))
        );
    }
}
