//! The command line: one module per subcommand, each with its clap `Args`
//! struct and a `run` function that returns the process exit code.
//!
//! Exit codes follow the SPEC: 0 success (consistent, winnable, all moves
//! legal), 1 the negative answer (inconsistent, unwinnable, illegal move),
//! 2 bad usage or bad input, 3 undecided.

mod analyze;
mod batch;
mod check;
mod convert;
mod deal;
mod graph;
mod queens;
mod quiz;
mod replay;
mod show;

use std::io::Write;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Exit code for bad usage or bad input, everywhere.
pub const EXIT_BAD_INPUT: u8 = 2;

#[derive(Debug, Parser)]
#[command(
    name = "spider",
    version,
    about = "Can this Spider Solitaire deal still be won, and how?"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Two-deck consistency check of a deal file (exit 0 consistent, 1 not).
    Check(check::Args),
    /// Convert a deal file (CLIPS facts or YAML) to the YAML deal format.
    Convert(convert::Args),
    /// Decide a deal: winnable, unwinnable or undecided, with a winning line.
    Analyze(analyze::Args),
    /// The move graph of a stage of a deal, as DOT or as statistics.
    Graph(graph::Args),
    /// Write the deal file of a numbered deal (own generator or PySol numbers).
    Deal(deal::Args),
    /// Decide many numbered deals in parallel and summarize.
    Batch(batch::Args),
    /// Check a move list against a deal, move by move.
    Replay(replay::Args),
    /// Count the solutions of the N-queens puzzle with the search engine.
    Queens(queens::Args),
    /// Solve a self-referential multiple-choice quiz with the search engine.
    Quiz(quiz::Args),
}

/// Parses the command line, runs the subcommand and returns its exit code.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            let _ = err.print();
            return match err.kind() {
                clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion => {
                    ExitCode::SUCCESS
                }
                _ => ExitCode::from(EXIT_BAD_INPUT),
            };
        }
    };
    let result = match cli.command {
        Command::Check(args) => check::run(args),
        Command::Convert(args) => convert::run(args),
        Command::Analyze(args) => analyze::run(args),
        Command::Graph(args) => graph::run(args),
        Command::Deal(args) => deal::run(args),
        Command::Batch(args) => batch::run(args),
        Command::Replay(args) => replay::run(args),
        Command::Queens(args) => queens::run(args),
        Command::Quiz(args) => quiz::run(args),
    };
    match result {
        Ok(code) => code,
        Err(err) => {
            if is_broken_pipe(&err) {
                return ExitCode::SUCCESS;
            }
            let _ = std::io::stdout().flush();
            eprintln!("spider: error: {err:#}");
            ExitCode::from(EXIT_BAD_INPUT)
        }
    }
}

/// A cancel flag that Ctrl-C sets, so a long run can stop cleanly and
/// report what it has. A second Ctrl-C exits at once (code 130).
pub(crate) fn cancel_on_ctrl_c() -> std::sync::Arc<std::sync::atomic::AtomicBool> {
    use std::sync::atomic::Ordering;
    let cancel = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let flag = std::sync::Arc::clone(&cancel);
    // Only one handler per process; a command runs once, so this is it.
    let _ = ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    });
    cancel
}

/// A spinner on stderr for long runs; indicatif draws nothing when stderr
/// is not a terminal.
pub(crate) fn spinner() -> indicatif::ProgressBar {
    let spinner = indicatif::ProgressBar::new_spinner();
    spinner.enable_steady_tick(std::time::Duration::from_millis(200));
    spinner
}

/// Search statistics for `--json` output (elapsed time in seconds).
pub(crate) fn stats_json(stats: &spider_analyzer::explore::Stats) -> serde_json::Value {
    serde_json::json!({
        "positions": stats.positions,
        "expanded": stats.expanded,
        "moves": stats.moves,
        "duplicates": stats.duplicates,
        "max_depth": stats.max_depth,
        "elapsed_seconds": stats.elapsed.as_secs_f64(),
        "positions_per_second": stats.positions_per_second(),
    })
}

/// A reader that went away (`spider graph ... | head`) is not an error.
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// A number of seconds from a flag: finite and not negative.
pub(crate) fn seconds(flag: &str, value: f64) -> anyhow::Result<std::time::Duration> {
    if value.is_finite() && (0.0..1e9).contains(&value) {
        Ok(std::time::Duration::from_secs_f64(value))
    } else {
        anyhow::bail!("{flag} must be a number of seconds, 0 or more, got {value}")
    }
}
