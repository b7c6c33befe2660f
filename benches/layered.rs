//! The layered engine's targets, each against today's other code in the
//! same run (a bench binary, not criterion: each workload is seconds to
//! minutes; `LAYERED_BENCH_RUNS` repetitions, 3 by default, medians
//! printed).
//!
//! 1. `spider graph deals/unwon-2017.yaml --stage 1 --count` against the
//!    same with `--stats --max-nodes 13000000` (the petgraph graph), run as
//!    child processes under `/usr/bin/time`: wall time and peak resident
//!    memory. Target: 3× faster in a quarter of the memory.
//! 2. Stage searches of 4-suit deals (complete ones, and the first
//!    `LAYERED_BENCH_POSITIONS` positions, 2 million by default, of the
//!    unwon game's stages 0-1) on 1 and 2 threads: positions per second,
//!    table bytes per stored position, the engine's peak estimate against
//!    the process's peak (VmHWM), and the breadth-first explorer of
//!    `src/explore/search.rs` on the same complete searches. Targets: 3 M
//!    positions/s per core, 20 bytes per position, 1.7× from 1 to 2
//!    threads.
//! 3. N-queens n = 14 through the engine (all threads) against the plain
//!    bitmask counter of `benches/explore.rs`. Target: within 2×.
//! 4. `compress`: the waiting states kept compressed from the start
//!    (`Layered::compress_above(0)`) against never, one thread, runs in
//!    turn: the time it costs and the memory it saves, on the unwon game's
//!    first stages and on a ladder position's exhaustive pass (the first
//!    `LAYERED_BENCH_POSITIONS` positions of each).
//!
//! Run: `cargo bench --bench layered` (about 10 minutes with 3 runs).

use std::hint::black_box;
use std::process::Command;
use std::time::Instant;

use spider_analyzer::deal::{Rules, load, pysol};
use spider_analyzer::explore::layered::{Layered, PackedProblem};
use spider_analyzer::explore::{Limits, Order, Search, Stop};
use spider_analyzer::game::Game;
use spider_analyzer::puzzles::queens::Queens;
use spider_analyzer::solve::stage::{Scope, StageProblem};

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(|a, b| a.total_cmp(b));
    values[values.len() / 2]
}

fn runs() -> usize {
    std::env::var("LAYERED_BENCH_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3)
}

/// The process's CPU time so far (user and system, all threads), in
/// seconds, from `/proc/self/stat` (clock ticks of 10 ms).
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // Fields after the command's closing parenthesis (the state first):
    // utime and stime are the 12th and 13th.
    let rest = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<f64>().ok());
    ticks(11)
        .zip(ticks(12))
        .map_or(0.0, |(u, s)| (u + s) / 100.0)
}

/// The load average (1, 5 and 15 minutes), as `/proc/loadavg` gives it.
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .unwrap_or_default()
        .split_whitespace()
        .take(3)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The process's peak resident memory so far, in bytes (VmHWM).
fn peak_rss() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|rest| {
            rest.trim()
                .trim_end_matches("kB")
                .trim()
                .parse::<u64>()
                .ok()
        })
        .map_or(0, |kb| kb * 1024)
}

/// Runs `spider` with `args` under `/usr/bin/time`: (seconds, peak KB,
/// CPU seconds: user and system).
fn timed_spider(args: &[&str]) -> (f64, u64, f64) {
    let spider = env!("CARGO_BIN_EXE_spider");
    let output = Command::new("/usr/bin/time")
        .args(["-f", "TIME %e %M %U %S"])
        .arg(spider)
        .args(args)
        .output()
        .expect("/usr/bin/time runs spider");
    assert!(output.status.success(), "spider {args:?} failed");
    let stderr = String::from_utf8_lossy(&output.stderr);
    let line = stderr
        .lines()
        .find_map(|l| l.strip_prefix("TIME "))
        .expect("time's line");
    let mut parts = line.split_whitespace();
    let secs = parts.next().unwrap().parse().unwrap();
    let kb = parts.next().unwrap().parse().unwrap();
    let cpu: f64 = parts.map(|p| p.parse::<f64>().unwrap()).sum();
    (secs, kb, cpu)
}

fn graph_count_against_stats() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/deals/unwon-2017.yaml");
    let (mut count_t, mut count_m, mut stats_t, mut stats_m) = (vec![], vec![], vec![], vec![]);
    let (mut count_cpu, mut one_cpu, mut stats_cpu) = (vec![], vec![], vec![]);
    for run in 0..runs() {
        let (t, m, cpu) = timed_spider(&["graph", file, "--stage", "1", "--count"]);
        println!(
            "  run {run}: --count {t:.1} s ({cpu:.1} s CPU), {:.0} MB; load average {}",
            m as f64 / 1024.0,
            load_average()
        );
        count_cpu.push(cpu);
        let (t1, _, cpu1) = timed_spider(&["graph", file, "--stage", "1", "--count", "-j", "1"]);
        println!("  run {run}: --count -j 1 {t1:.1} s ({cpu1:.1} s CPU)");
        one_cpu.push(cpu1);
        count_t.push(t);
        count_m.push(m as f64);
        let (t, m, cpu) = timed_spider(&[
            "graph",
            file,
            "--stage",
            "1",
            "--stats",
            "--max-nodes",
            "13000000",
        ]);
        println!(
            "  run {run}: --stats {t:.1} s ({cpu:.1} s CPU), {:.0} MB",
            m as f64 / 1024.0
        );
        stats_cpu.push(cpu);
        stats_t.push(t);
        stats_m.push(m as f64);
    }
    let (ct, cm, st, sm) = (
        median(count_t),
        median(count_m),
        median(stats_t),
        median(stats_m),
    );
    println!(
        "graph unwon-2017 --stage 1: --count {ct:.1} s {:.0} MB; --stats {st:.1} s {:.0} MB; \
         {:.2}x faster, {:.2} of the memory (targets: 3x, 0.25)",
        cm / 1024.0,
        sm / 1024.0,
        st / ct,
        cm / sm
    );
    let (cc, oc, sc) = (median(count_cpu), median(one_cpu), median(stats_cpu));
    println!(
        "  CPU time (user + system): --count {cc:.1} s (all threads), --count -j 1 {oc:.1} s, \
         --stats {sc:.1} s: --stats takes {:.2}x the CPU of --count -j 1 \
         ({:.2} M positions per CPU-second on one thread)",
        sc / oc,
        11_977_064.0 / oc / 1e6
    );
}

fn exhaustive_stage_searches() {
    let max: u64 = std::env::var("LAYERED_BENCH_POSITIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2_000_000);
    let unwon =
        load(concat!(env!("CARGO_MANIFEST_DIR"), "/deals/unwon-2017.yaml").as_ref()).unwrap();
    // Complete stage searches (the same positions for both engines), and
    // the first `max` positions of a large one.
    let workloads = [
        (
            "PySol 3, stage 0",
            pysol::deal(3, Rules::Standard).unwrap(),
            Scope::Stage(0),
            None,
        ),
        (
            "PySol 14934, stages 0-2",
            pysol::deal(14934, Rules::Standard).unwrap(),
            Scope::Stage(2),
            None,
        ),
        (
            "unwon-2017, stages 0-1, first positions",
            unwon,
            Scope::Stage(1),
            Some(max),
        ),
    ];
    for (name, deal, scope, cap) in workloads {
        let game = Game::new(&deal).unwrap();
        let problem = StageProblem::new(&game, scope);
        let limits = Limits {
            max_positions: cap,
            ..Limits::default()
        };
        let mut rates = [vec![], vec![]];
        let mut cpu_rates = [vec![], vec![]];
        let mut table = 0.0;
        let mut engine_peak = 0;
        let mut positions = 0;
        for _ in 0..runs() {
            for (i, jobs) in [1, 2].into_iter().enumerate() {
                let cpu = cpu_seconds();
                let outcome = Layered::new(&problem)
                    .stop(Stop::Exhaust)
                    .jobs(Some(jobs))
                    .limits(limits.clone())
                    .run()
                    .unwrap();
                let stats = outcome.stats;
                let cpu = cpu_seconds() - cpu;
                rates[i].push(stats.positions_per_second());
                // Ticks of 10 ms: only runs of a second or more say much.
                if cpu >= 1.0 {
                    cpu_rates[i].push(stats.positions as f64 / cpu);
                }
                table = stats.table_bytes_per_position();
                engine_peak = engine_peak.max(stats.peak_memory_bytes);
                positions = stats.positions;
            }
        }
        let hwm = peak_rss();
        let mut old_rates = vec![];
        let mut old_table = 0.0;
        if cap.is_none() {
            for _ in 0..runs() {
                let started = Instant::now();
                let old = Search::new(&problem)
                    .order(Order::BreadthFirst)
                    .stop(Stop::Exhaust)
                    .run();
                assert_eq!(old.stats.positions, positions);
                old_rates.push(old.stats.positions as f64 / started.elapsed().as_secs_f64());
                old_table = old.stats.table_bytes as f64 / old.stats.positions as f64;
            }
        }
        let (one, two) = (median(rates[0].clone()), median(rates[1].clone()));
        let per_cpu = |rates: &Vec<f64>| {
            if rates.is_empty() {
                "-".to_string()
            } else {
                format!("{:.2}", median(rates.clone()) / 1e6)
            }
        };
        println!(
            "{name}: per CPU-second (ticks of 10 ms): 1 thread {} M, 2 threads {} M; load average now {}",
            per_cpu(&cpu_rates[0]),
            per_cpu(&cpu_rates[1]),
            load_average()
        );
        println!(
            "{name}: {positions} positions; layered 1 thread {:.2} M/s, 2 threads {:.2} M/s ({:.2}x), \
             table {table:.1} bytes/position, engine peak {:.0} MB, process VmHWM so far {:.0} MB{}",
            one / 1e6,
            two / 1e6,
            two / one,
            engine_peak as f64 / 1e6,
            hwm as f64 / 1e6,
            if old_rates.is_empty() {
                String::new()
            } else {
                format!(
                    "; breadth-first explorer {:.2} M/s ({:.2}x the layered on 1 thread), table {old_table:.1} bytes/position",
                    median(old_rates.clone()) / 1e6,
                    median(old_rates) / one
                )
            }
        );
    }
}

/// What keeping the waiting states compressed costs and saves: the same
/// searches with compression from the start and without, one thread, in
/// turn.
fn compression() {
    use spider_analyzer::solve::exhaustive::ExhaustiveProblem;
    let max: u64 = std::env::var("LAYERED_BENCH_POSITIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2_000_000);
    let limits = Limits {
        max_positions: Some(max),
        ..Limits::default()
    };
    let unwon =
        load(concat!(env!("CARGO_MANIFEST_DIR"), "/deals/unwon-2017.yaml").as_ref()).unwrap();
    let ladder =
        load(concat!(env!("CARGO_MANIFEST_DIR"), "/benches/ladder/r2-g5009.yaml").as_ref())
            .unwrap();
    let report = |name: &str, run: &dyn Fn(u64) -> (f64, u64, u64)| {
        let mut times = [vec![], vec![]];
        let mut peaks = [0, 0];
        let mut counts = [0, 0];
        for _ in 0..runs() {
            for (i, above) in [u64::MAX, 0].into_iter().enumerate() {
                let (seconds, peak, positions) = run(above);
                times[i].push(seconds);
                peaks[i] = peak;
                counts[i] = positions;
            }
        }
        assert_eq!(counts[0], counts[1], "{name}: the same positions");
        let (plain, packed) = (median(times[0].clone()), median(times[1].clone()));
        println!(
            "{name}: {} positions; plain {plain:.2} s, engine peak {:.0} MB; compressed {packed:.2} s \
             ({:.2}x the time), engine peak {:.0} MB ({:.2}x the memory)",
            counts[0],
            peaks[0] as f64 / 1e6,
            packed / plain,
            peaks[1] as f64 / 1e6,
            peaks[1] as f64 / peaks[0] as f64
        );
    };
    let game = Game::new(&unwon).unwrap();
    let stage = StageProblem::new(&game, Scope::Stage(1));
    report("unwon-2017, stages 0-1, first positions", &|above| {
        compressed_run(&stage, &limits, above)
    });
    let game = Game::new(&ladder).unwrap();
    let exhaustive = ExhaustiveProblem::new(&game);
    report("r2-g5009, exhaustive pass, first positions", &|above| {
        compressed_run(&exhaustive, &limits, above)
    });
}

/// One thread's search of `problem` within `limits`, compressing past
/// `above` bytes: its seconds, the engine's peak estimate and positions.
fn compressed_run<P: PackedProblem>(problem: &P, limits: &Limits, above: u64) -> (f64, u64, u64)
where
    P::State: Send,
    P::Move: Send,
{
    let started = Instant::now();
    let stats = Layered::new(problem)
        .stop(Stop::Exhaust)
        .jobs(Some(1))
        .limits(limits.clone())
        .compress_above(above)
        .run()
        .unwrap()
        .stats;
    (
        started.elapsed().as_secs_f64(),
        stats.peak_memory_bytes,
        stats.positions,
    )
}

/// The plain bitmask N-queens counter, with an explicit stack (as in
/// `benches/explore.rs`).
fn baseline_queens(n: u32) -> u64 {
    let full = (1u32 << n) - 1;
    let mut stack = [(0u32, 0u32, 0u32, 0u32); 32];
    let mut depth = 0;
    let (mut cols, mut left, mut right) = (0u32, 0u32, 0u32);
    let mut free = full;
    let mut count = 0;
    loop {
        if free == 0 {
            if depth == 0 {
                return count;
            }
            depth -= 1;
            (cols, left, right, free) = stack[depth];
            continue;
        }
        let bit = free & free.wrapping_neg();
        free ^= bit;
        if cols | bit == full {
            count += 1;
            continue;
        }
        stack[depth] = (cols, left, right, free);
        depth += 1;
        cols |= bit;
        left = ((left | bit) << 1) & full;
        right = (right | bit) >> 1;
        free = full & !(cols | left | right);
    }
}

fn queens() {
    let queens = Queens::new(14).unwrap();
    let time = |f: &dyn Fn() -> u64| {
        let started = Instant::now();
        let count = f();
        (started.elapsed(), count)
    };
    let (mut engine, mut one, mut base) = (vec![], vec![], vec![]);
    for _ in 0..runs().max(3) {
        let (t, count) = time(&|| black_box(queens.count_parallel(None).stats.goals));
        assert_eq!(count, 365_596);
        engine.push(t.as_secs_f64());
        let (t, _) = time(&|| black_box(queens.count_parallel(Some(1)).stats.goals));
        one.push(t.as_secs_f64());
        let (t, count) = time(&|| baseline_queens(black_box(14)));
        assert_eq!(count, 365_596);
        base.push(t.as_secs_f64());
    }
    let (e, o, b) = (median(engine), median(one), median(base));
    println!(
        "queens 14: engine (all threads) {:.0} ms, engine (1 thread) {:.0} ms, bitmask counter {:.0} ms: \
         {:.2}x and {:.2}x the counter (target: within 2x)",
        e * 1e3,
        o * 1e3,
        b * 1e3,
        e / b,
        o / b
    );
}

fn main() {
    // `cargo bench` passes `--bench`; a filter picks one part.
    let filter: Option<String> = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    let wanted = |name: &str| filter.as_deref().is_none_or(|f| name.contains(f));
    let started = Instant::now();
    println!("load average at the start: {}", load_average());
    if wanted("queens") {
        queens();
    }
    if wanted("exhaustive") {
        exhaustive_stage_searches();
    }
    if wanted("graph") {
        graph_count_against_stats();
    }
    if wanted("compress") {
        compression();
    }
    println!(
        "bench done in {:.0} s; load average at the end: {}",
        started.elapsed().as_secs_f64(),
        load_average()
    );
}
