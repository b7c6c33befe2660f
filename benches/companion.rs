//! A player's mid-game questions: `spider analyze` and `spider hint` with
//! their default flags on the two positions of tests/data/mid-game/ (PySol
//! game 5 as its player sees it, 94 `XX`; a 2-suit position after 14
//! moves, 77 `XX`), each run as a player runs it, on every core. Prints
//! each run's wall and CPU seconds (the CPU of the `spider` process, all
//! its threads), its exit code and the line with its answer. The budgets
//! are in positions, so the answers are the same on any machine; the
//! times are this machine's. docs/analyze.md quotes the figures.
//!
//! `cargo bench --bench companion` (about a minute and a half of CPU in
//! all); `COMPANION_JOBS=N` runs them on N threads (`-j N`);
//! `COMPANION_EVERY_MOVE=1` adds `hint --verify-moves 0` (every legal
//! move tried in every winnable completion, about 3 minutes of CPU more),
//! the choice the default `--verify-moves 2` is measured against.

use std::process::Command;
use std::time::Instant;

/// The CPU seconds (user and system) of this process's children waited
/// for so far, from `/proc/self/stat` (clock ticks of 10 ms).
fn children_cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let rest = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<f64>().ok());
    ticks(13)
        .zip(ticks(14))
        .map_or(0.0, |(u, s)| (u + s) / 100.0)
}

/// The lines of the answer: analyze's verdict, hint's sample and move,
/// and what both say of the completions left undecided.
fn answer(stdout: &str) -> String {
    stdout
        .lines()
        .filter(|l| {
            ["verdict:", "sample:", "move to play now:"]
                .iter()
                .any(|w| l.starts_with(w))
                || l.contains("undecided at")
        })
        .map(str::trim)
        .collect::<Vec<_>>()
        .join("\n      ")
}

fn main() {
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let jobs: Option<String> = std::env::var("COMPANION_JOBS").ok();
    let spider = env!("CARGO_BIN_EXE_spider");
    println!(
        "mid-game answers, default flags, {} (`spider analyze FILE`, `spider hint FILE`)",
        jobs.as_deref()
            .map_or("every core".to_string(), |j| format!("-j {j}"))
    );
    println!("case              command  exit  wall s  cpu s");
    for (case, file) in [
        (
            "pysol-5-as-seen",
            "tests/data/mid-game/pysol-5-as-seen.yaml",
        ),
        ("two-suit-77", "tests/data/mid-game/two-suit-77.yaml"),
    ] {
        let every_move = std::env::var_os("COMPANION_EVERY_MOVE").is_some();
        let mut commands: Vec<&[&str]> = vec![&["analyze"], &["hint"]];
        if every_move {
            commands.push(&["hint", "--verify-moves", "0"]);
        }
        for command in commands {
            let mut run = Command::new(spider);
            run.args(command).arg(file);
            if let Some(jobs) = &jobs {
                run.args(["-j", jobs]);
            }
            let cpu_before = children_cpu_seconds();
            let started = Instant::now();
            let output = run.output().expect("spider runs");
            let wall = started.elapsed().as_secs_f64();
            let cpu = children_cpu_seconds() - cpu_before;
            let stdout = String::from_utf8_lossy(&output.stdout);
            let command = command.join(" ");
            println!(
                "{case:<16}  {command:<7}  {:>4}  {wall:>6.1}  {cpu:>5.1}",
                output
                    .status
                    .code()
                    .map_or("-".to_string(), |c| c.to_string()),
            );
            println!("      {}", answer(&stdout));
        }
    }
}
