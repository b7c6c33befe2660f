//! The ladder of stuck players' positions (`benches/ladder/`: PySol games
//! 5001..5020 played by an imperfect player, captured with 3, 2, 1 and 0
//! stock rows left), each decided on one core with the default flags of
//! `spider analyze`. Prints each position's verdict, time and positions,
//! then per rung the share decided within 10 s and within the limit.
//!
//! `cargo bench --bench ladder` (60 s per position: up to 80 minutes);
//! `LADDER_SECONDS=10` for the 10 s figure alone; `LADDER_POSITIONS=N` for
//! a budget of N positions per position instead of seconds (the default
//! budget of `spider analyze` is 20,000,000: the same verdicts on any
//! machine), `LADDER_RUNGS=0,1` for
//! some rungs, `LADDER_REDUCTIONS=none` for the plain search
//! (`everywhere`: the dead-end test on every position; `room`: the room
//! test on every entry; `counts`: the room test without the make-way
//! rule; `learn`: with the learned conflicts; `fill`: with the dead-end
//! test's deal rule, the rows left using up the empty piles;
//! `first-empty`: with the test of the first empty pile where rows are
//! left),
//! `LADDER_DIR` for
//! another ladder made the same way from other games, which the solver
//! was never tuned on (`cargo run --release --example ladder -- 6001 6020
//! DIR`).

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use spider_analyzer::deal::load;
use spider_analyzer::solve::{Limits, Reductions, Verdict, analyze};

fn main() {
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let seconds: u64 = std::env::var("LADDER_SECONDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(60);
    let rungs: Vec<usize> = std::env::var("LADDER_RUNGS")
        .ok()
        .map(|v| v.split(',').filter_map(|r| r.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![3, 2, 1, 0]);
    let reductions = match std::env::var("LADDER_REDUCTIONS").as_deref() {
        Ok("none") => Reductions::NONE,
        Ok("everywhere") => Reductions {
            dead_ends_everywhere: true,
            ..Reductions::DEFAULT
        },
        Ok("room") => Reductions::ALL,
        Ok("counts") => Reductions {
            make_way: false,
            ..Reductions::DEFAULT
        },
        Ok("learn") => Reductions {
            learn: true,
            ..Reductions::DEFAULT
        },
        Ok("fill") => Reductions {
            deals_fill: true,
            ..Reductions::DEFAULT
        },
        Ok("first-empty") => Reductions {
            first_empty: true,
            ..Reductions::DEFAULT
        },
        _ => Reductions::DEFAULT,
    };
    let positions_budget: Option<u64> = std::env::var("LADDER_POSITIONS")
        .ok()
        .and_then(|v| v.parse().ok());
    let limits = Limits {
        time_limit: positions_budget
            .is_none()
            .then(|| Duration::from_secs(seconds)),
        max_positions: positions_budget,
        memory_limit: Some(4 << 30),
        reductions,
        ..Limits::default()
    };
    // One core: the exhaustive pass runs on rayon's pool, so give it one
    // thread, as `benches/solve.rs` does.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a one-thread pool");
    let dir = std::env::var_os("LADDER_DIR").map_or_else(
        || std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/ladder"),
        std::path::PathBuf::from,
    );
    // `rR-gN.yaml` for every game N in the folder, in the order of N.
    let entries = std::fs::read_dir(&dir).unwrap_or_else(|error| {
        eprintln!("ladder: {}: {error}", dir.display());
        std::process::exit(2);
    });
    let mut games: Vec<u64> = entries
        .filter_map(|entry| {
            let name = entry.ok()?.file_name().into_string().ok()?;
            let (_, game) = name
                .strip_prefix('r')?
                .strip_suffix(".yaml")?
                .split_once("-g")?;
            game.parse().ok()
        })
        .collect();
    games.sort_unstable();
    games.dedup();
    println!("rung  game  verdict     seconds  positions  dead ends");
    let mut table = Vec::new();
    for rung in rungs {
        let (mut positions, mut within_10, mut within_limit) = (0, 0, 0);
        for &game in &games {
            let path = dir.join(format!("r{rung}-g{game}.yaml"));
            let Ok(deal) = load(&path) else { continue };
            let started = Instant::now();
            let analysis = pool
                .install(|| analyze(&deal, &limits, &AtomicBool::new(false)))
                .expect("a valid deal");
            let elapsed = started.elapsed().as_secs_f64();
            positions += 1;
            if analysis.verdict != Verdict::Undecided {
                within_limit += 1;
                within_10 += (elapsed <= 10.0) as usize;
            }
            println!(
                "r{rung}    {game}  {:<10} {elapsed:>8.2} {:>10} {:>10}",
                analysis.verdict.to_string(),
                analysis.positions,
                analysis.dead_ends
            );
        }
        table.push((rung, positions, within_10, within_limit));
    }
    let limit = match positions_budget {
        Some(budget) => format!("{budget} positions"),
        None => format!("{seconds} s"),
    };
    println!("\n| stock rows left | positions | decided within 10 s | decided within {limit} |");
    println!("|---|---|---|---|");
    for (rung, positions, within_10, within_limit) in table {
        println!("| {rung} | {positions} | {within_10} | {within_limit} |");
    }
}
