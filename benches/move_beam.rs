//! Move beams alone, outside `spider analyze`'s schedule: the pass that
//! wins most of the ladder's positions decided between 10 and 60 s. Each
//! beam runs `MOVE_BEAM_RUNS` times (default 3), one after the other on
//! one core; the bench prints whether it won, the line's length, the
//! positions it kept and the median seconds, so two builds compare by
//! their medians and positions (the same positions mean the same search).
//!
//! `cargo bench --bench move_beam` runs the default set of ladder
//! positions; `MOVE_BEAMS=FILE:WIDTH[:thorough][:breaks],...` runs others
//! (`thorough` plays every move, `breaks` ranks by the breaks alone).

use std::path::{Path, PathBuf};
use std::time::Instant;

use spider_analyzer::deal::load;
use spider_analyzer::solve::move_beam_alone;

/// Beams that win or stall within seconds, plain and thorough: a won
/// line's search and a search that gives up both count.
const DEFAULT: &str = "r1-g5003.yaml:32000:thorough,r1-g5014.yaml:32000,\
r1-g5010.yaml:8000:thorough,r2-g5001.yaml:16000,r2-g5007.yaml:2000";

fn main() {
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let runs: usize = std::env::var("MOVE_BEAM_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3)
        .max(1);
    let list = std::env::var("MOVE_BEAMS").unwrap_or_else(|_| DEFAULT.to_string());
    let ladder = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/ladder");
    for item in list
        .split(',')
        .map(str::trim)
        .filter(|item| !item.is_empty())
    {
        let mut parts = item.split(':');
        let file = parts.next().unwrap_or_default();
        let width = parts.next().and_then(|w| w.parse::<usize>().ok());
        let flags: Vec<&str> = parts.collect();
        let Some(width) =
            width.filter(|_| flags.iter().all(|f| ["thorough", "breaks"].contains(f)))
        else {
            fail(&format!(
                "`{item}`: expected FILE:WIDTH[:thorough][:breaks]"
            ));
        };
        let path = if Path::new(file).exists() {
            PathBuf::from(file)
        } else {
            ladder.join(file)
        };
        let deal = load(&path).unwrap_or_else(|error| fail(&error.to_string()));
        let (thorough, breaks) = (flags.contains(&"thorough"), flags.contains(&"breaks"));
        let mut seconds = Vec::new();
        let mut outcome = String::new();
        for _ in 0..runs {
            let started = Instant::now();
            let (line, kept) = move_beam_alone(&deal, width, thorough, breaks, 0)
                .unwrap_or_else(|error| fail(&error.to_string()));
            seconds.push(started.elapsed().as_secs_f64());
            outcome = match line {
                Some(line) => format!("won in {} moves, {kept} positions kept", line.len()),
                None => format!("no win, {kept} positions kept"),
            };
        }
        seconds.sort_by(f64::total_cmp);
        println!(
            "{item}: {outcome}, median {:.2} s of {runs} ({})",
            seconds[runs / 2],
            seconds
                .iter()
                .map(|s| format!("{s:.2}"))
                .collect::<Vec<_>>()
                .join(" ")
        );
    }
}

fn fail(message: &str) -> ! {
    eprintln!("move_beam: {message}");
    std::process::exit(2);
}
