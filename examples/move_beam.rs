//! One move beam alone, to measure the pass outside `spider analyze`'s
//! schedule: it prints whether it won, the line's length, the positions
//! it kept and the seconds it took.
//!
//! ```text
//! cargo run --release --example move_beam -- FILE WIDTH [thorough] [breaks] [MAX]
//! ```
//!
//! `thorough` plays every move, not only the favoured ones; `breaks`
//! ranks by the breaks alone; MAX stops the beam after that many positions
//! kept.
use std::path::Path;
use std::time::Instant;

use spider_analyzer::deal::files;
use spider_analyzer::solve::move_beam_alone;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        fail("expected FILE WIDTH [thorough] [breaks] [MAX]");
    }
    let deal = files::load(Path::new(&args[1])).unwrap_or_else(|error| fail(&error.to_string()));
    let width: usize = args[2]
        .parse()
        .unwrap_or_else(|_| fail("WIDTH must be a whole number"));
    let rest = &args[3..];
    let thorough = rest.iter().any(|arg| arg == "thorough");
    let breaks = rest.iter().any(|arg| arg == "breaks");
    let max = match rest.iter().find(|arg| arg.parse::<u64>().is_ok()) {
        Some(max) => max.parse().expect("checked"),
        None => 0,
    };
    if let Some(bad) = rest
        .iter()
        .find(|arg| !matches!(arg.as_str(), "thorough" | "breaks") && arg.parse::<u64>().is_err())
    {
        fail(&format!("unexpected argument `{bad}`"));
    }
    let started = Instant::now();
    match move_beam_alone(&deal, width, thorough, breaks, max) {
        Ok((line, kept)) => println!(
            "{} {} positions kept, {:.2} s",
            match line {
                Some(line) => format!("won in {} moves,", line.len()),
                None => "no win,".to_string(),
            },
            kept,
            started.elapsed().as_secs_f64()
        ),
        Err(error) => fail(&error.to_string()),
    }
}

fn fail(message: &str) -> ! {
    eprintln!("move_beam: {message}");
    std::process::exit(2);
}
