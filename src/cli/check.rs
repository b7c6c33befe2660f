//! `spider check FILE`: is the deal two decks, no more and no less?
//!
//! The first thing to run on a hand-typed deal: it names every card that
//! appears too often (with where), every missing card, and whether the
//! missing cards are exactly what the `XX` slots can be.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use spider_analyzer::deal::{check, load};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The deal file (YAML, or CLIPS facts).
    file: PathBuf,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
}

/// Prints the report; exit 0 consistent, 1 inconsistent (2 bad input, by the
/// dispatcher).
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let deal = load(&args.file)?;
    let report = check::check(&deal);
    let mut out = std::io::stdout().lock();
    if args.json {
        serde_json::to_writer_pretty(&mut out, &report)?;
        writeln!(out)?;
    } else {
        write!(out, "{}: {report}", args.file.display())?;
    }
    out.flush()?;
    Ok(if report.consistent {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
