//! For a position as a player sees it (YAML, every hidden card `XX`): the
//! lookahead's best line to each card it can turn up, each valued by the
//! share of N sampled completions won after it (the same completions for
//! every line), beside the share won from the position itself.
//!
//! ```text
//! cargo run --release --example reveal_lines -- seen.yaml 20
//! ```
use std::collections::HashSet;
use std::io::Write;
use std::path::Path;
use std::sync::atomic::AtomicBool;

use rayon::prelude::*;
use spider_analyzer::deal::numbered::SplitMix64;
use spider_analyzer::deal::yaml;
use spider_analyzer::solve::Limits;
use spider_analyzer::unknown::lookahead::lines;
use spider_analyzer::unknown::sample::{draw, won_after};
use spider_analyzer::unknown::view::View;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let file = &args[0];
    let n: usize = args.get(1).map_or(20, |a| a.parse().unwrap());
    let text = std::fs::read_to_string(file).unwrap();
    let seen = yaml::from_str(&text, Path::new(file)).unwrap();
    let view = View::of(&seen).unwrap();
    let found = lines(&seen, 5000, &HashSet::new()).unwrap();
    let mut rng = SplitMix64::new(1);
    let fills: Vec<_> = (0..n).map(|_| draw(&view.unseen(), &mut rng)).collect();
    let limits = Limits {
        max_positions: Some(100_000),
        shorten_positions: 0,
        ..Limits::default()
    };
    let cancel = AtomicBool::new(false);
    let wins = |moves: &[spider_analyzer::game::Move]| -> usize {
        fills
            .par_iter()
            .filter(|fill| won_after(&seen, fill, moves, &limits, &cancel).unwrap())
            .count()
    };
    // A closed pipe (`| head`) ends the listing, not in a panic.
    let mut out = std::io::stdout().lock();
    if writeln!(out, "from here: {} of {n}", wins(&[])).is_err() {
        return;
    }
    for line in found.leaves.iter().chain(found.inner.iter()) {
        let text: Vec<String> = line.moves.iter().map(|m| m.to_string()).collect();
        let written = writeln!(
            out,
            "{:>3} of {n}  value {:>5}  {}{}",
            wins(&line.moves),
            line.value,
            text.join(" "),
            if line.turns_up {
                ""
            } else {
                "  (turns up nothing)"
            }
        );
        if written.is_err() {
            return;
        }
    }
    let _ = view;
}
