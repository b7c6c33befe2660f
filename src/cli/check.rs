//! `spider check FILE`: is the deal two decks, no more and no less?
//!
//! The first thing to run on a hand-typed deal: it names every card that
//! appears too often (with where), every missing card, and whether the
//! missing cards are exactly what the `XX` slots can be.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use spider_analyzer::deal::check;

#[derive(Debug, clap::Args)]
// `--time-limit -1` reaches the flag's reader, which names the range.
#[command(allow_negative_numbers = true)]
#[command(after_help = super::exit_codes!(
    "0  consistent",
    "1  inconsistent: cards appear too often, or the missing cards do not fill the XX slots",
    "2  bad usage or bad input (the message names the file, line and column)",
))]
pub struct Args {
    /// The deal file (YAML, or CLIPS facts); `-` reads standard input.
    file: PathBuf,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
}

/// Prints the report; exit 0 consistent, 1 inconsistent (2 bad input, by the
/// dispatcher).
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let deal = super::input::load_deal(&args.file)?;
    let report = check::check(&deal);
    let mut out = std::io::stdout().lock();
    if args.json {
        serde_json::to_writer_pretty(&mut out, &report)?;
        writeln!(out)?;
    } else {
        write!(out, "{}: {report}", super::input::name(&args.file))?;
    }
    out.flush()?;
    Ok(if report.consistent {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
