//! The command line: one module per subcommand, each with its clap `Args`
//! struct and a `run` function that returns the process exit code.
//!
//! Exit codes, the same in every command: 0 success (consistent, winnable, all moves
//! legal), 1 the negative answer (inconsistent, unwinnable, illegal move),
//! 2 bad usage or bad input, 3 undecided.

mod analyze;
mod batch;
mod budget;
mod check;
mod companion;
mod completions;
mod convert;
mod deal;
mod flags;
mod graph;
mod hidden;
mod hint;
mod input;
mod known;
pub(crate) mod output;
mod play;
mod player;
mod prompt;
mod queens;
mod quiz;
mod replay;
mod reveals;
mod show;
mod train;
mod verify;

use std::io::Write;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Exit code for bad usage or bad input, everywhere.
pub const EXIT_BAD_INPUT: u8 = 2;

/// Exit code when Ctrl-C stops a run at once (a second Ctrl-C, or one while
/// nothing can be cut short cleanly, such as reading the input).
pub const EXIT_INTERRUPTED: u8 = 130;

/// The exit codes of a command, for the end of its `--help`: the table
/// every command shares (the one in docs/commands.md, word for word),
/// then what each code means for this command.
macro_rules! exit_codes {
    ($($line:literal),* $(,)?) => {
        concat!(
            "Exit status, the same in every command:\n",
            "  0    success: the positive answer\n",
            "  1    the negative answer\n",
            "  2    bad usage or bad input (the message names the file, line and column), or an output refused: nothing written\n",
            "  3    no answer yet: a limit or Ctrl-C stopped the work first, or (play) the input ended first\n",
            "  130  stopped at once by Ctrl-C (a second one, or one while reading or writing)\n",
            "For this command:\n",
            $("  ", $line, "\n",)*
        )
    };
}
pub(crate) use exit_codes;

#[derive(Debug, Parser)]
#[command(
    name = "spider",
    version,
    about = "Can this Spider Solitaire deal still be won, and how?",
    after_help = exit_codes!(
        "0  success: consistent, winnable, every move legal, file written",
        "1  the negative answer: inconsistent, unwinnable, an illegal move",
        "2  bad usage or bad input (the message names the file, line and column)",
        "3  undecided: a limit (time, positions, memory) or Ctrl-C stopped the search",
    )
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
    /// The move to play now, for a player who cannot see the XX cards.
    Hint(hint::Args),
    /// A companion for a live game: the move to play, then it follows what you did; or --blind, a whole game played blind.
    Play(play::Args),
    /// Count the solutions of the N-queens puzzle with the search engine.
    Queens(queens::Args),
    /// Solve a self-referential multiple-choice quiz with the search engine.
    Quiz(quiz::Args),
    /// Learn the blind playout policy's weights from blind games and write the weights file.
    Train(train::Args),
}

/// Parses the command line, runs the subcommand and returns its exit code.
pub fn main() -> ExitCode {
    // From the very start, so Ctrl-C stops any phase, reading the input
    // included, even when the shell started us with SIGINT ignored.
    install_ctrl_c_handler();
    spider_analyzer::explore::memory::give_freed_memory_back();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            return match err.kind() {
                clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion => {
                    let _ = err.print();
                    ExitCode::SUCCESS
                }
                _ => {
                    // Every error starts the same way, the command line's
                    // as the others: `spider: error: ...`.
                    let text = err.render().to_string();
                    let text = text.strip_prefix("error: ").unwrap_or(&text);
                    eprint!("spider: error: {text}");
                    ExitCode::from(EXIT_BAD_INPUT)
                }
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
        Command::Hint(args) => hint::run(args),
        Command::Play(args) => play::run(args),
        Command::Queens(args) => queens::run(args),
        Command::Quiz(args) => quiz::run(args),
        Command::Train(args) => train::run(args),
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

/// Set by Ctrl-C; read by the searches, which stop cleanly and report.
static CANCEL: std::sync::LazyLock<std::sync::Arc<std::sync::atomic::AtomicBool>> =
    std::sync::LazyLock::new(Default::default);

/// Whether a phase is running that watches [`CANCEL`] and reports what it
/// has when it is set; otherwise Ctrl-C exits at once.
static CANCEL_WATCHED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Ctrl-C: while a search watches the cancel flag, the first sets it (the
/// search stops and reports); a second, or any while nothing watches the
/// flag (reading the input, writing the output), exits at once with 130.
fn install_ctrl_c_handler() {
    use std::sync::atomic::Ordering;
    let _ = ctrlc::set_handler(|| {
        let watched = CANCEL_WATCHED.load(Ordering::SeqCst);
        if !watched
            && let Ok(note) = CTRL_C_NOTE.try_lock()
            && let Some(note) = note.as_ref()
        {
            eprintln!("\n{note}");
        }
        // No flush of stdout here: the main thread may hold its lock while
        // blocked on a full pipe, and Ctrl-C must still end the program.
        if !watched || CANCEL.swap(true, Ordering::SeqCst) {
            std::process::exit(i32::from(EXIT_INTERRUPTED));
        }
    });
}

/// What to say on standard error when Ctrl-C ends the program at once
/// (the live game's prompt: what was saved).
static CTRL_C_NOTE: std::sync::Mutex<Option<String>> = std::sync::Mutex::new(None);

/// While `read` runs (a prompt waiting for the player), Ctrl-C exits at
/// once with 130, writing `note` on standard error first; afterwards it
/// sets the cancel flag again, as [`cancel_on_ctrl_c`] arranged.
pub(crate) fn at_prompt<T>(note: String, read: impl FnOnce() -> T) -> T {
    use std::sync::atomic::Ordering;
    *CTRL_C_NOTE.lock().unwrap_or_else(|e| e.into_inner()) = Some(note);
    let watched = CANCEL_WATCHED.swap(false, Ordering::SeqCst);
    let value = read();
    CANCEL_WATCHED.store(watched, Ordering::SeqCst);
    *CTRL_C_NOTE.lock().unwrap_or_else(|e| e.into_inner()) = None;
    value
}

/// The cancel flag that Ctrl-C sets, for a long run that stops cleanly and
/// reports what it has. From this call on, the first Ctrl-C sets the flag
/// instead of exiting; a second Ctrl-C exits at once (code 130).
pub(crate) fn cancel_on_ctrl_c() -> std::sync::Arc<std::sync::atomic::AtomicBool> {
    CANCEL_WATCHED.store(true, std::sync::atomic::Ordering::SeqCst);
    std::sync::Arc::clone(&CANCEL)
}

/// A spinner on stderr for long runs; indicatif draws nothing when stderr
/// is not a terminal.
pub(crate) fn spinner() -> indicatif::ProgressBar {
    let spinner = indicatif::ProgressBar::new_spinner();
    spinner.enable_steady_tick(std::time::Duration::from_millis(200));
    spinner
}

/// The progress of a long run whose standard error is not a terminal (a
/// run in the background, its standard error in a file), where a terminal
/// shows the spinner: the message, with the time so far, at most every
/// `every` (the first after as long; `analyze --progress-every`).
pub(crate) struct ProgressLog {
    started: std::time::Instant,
    every: Option<std::time::Duration>,
    next: std::sync::Mutex<std::time::Duration>,
}

impl ProgressLog {
    /// A log every `every` (`None`: none) if standard error is not a
    /// terminal.
    pub(crate) fn new(every: Option<std::time::Duration>) -> ProgressLog {
        use std::io::IsTerminal;
        let every = every.filter(|_| !std::io::stderr().is_terminal());
        ProgressLog {
            started: std::time::Instant::now(),
            every,
            next: std::sync::Mutex::new(every.unwrap_or_default()),
        }
    }

    /// Writes `message` if a line is due.
    pub(crate) fn note(&self, message: &str) {
        let Some(every) = self.every else {
            return;
        };
        let elapsed = self.started.elapsed();
        let mut next = self.next.lock().unwrap_or_else(|e| e.into_inner());
        if elapsed >= *next {
            let after = spider_analyzer::text::duration(elapsed.as_secs_f64());
            eprintln!("after {after}: {message}");
            *next = elapsed + every;
        }
    }
}

/// Why a search of `spider queens` or `spider quiz` stopped, in words; the
/// memory limit with its size and flag.
pub(crate) fn stopped_why(
    reason: spider_analyzer::explore::StopReason,
    memory_limit: &flags::MemoryLimit,
) -> String {
    use spider_analyzer::explore::StopReason;
    match (reason, memory_limit.per_search(1)) {
        (StopReason::Memory, Some(bytes)) => format!(
            "the memory limit was reached: --memory-limit {}",
            flags::show_size(bytes)
        ),
        (StopReason::Cancelled, _) => "interrupted".to_owned(),
        (other, _) => other.to_string(),
    }
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

/// A reader that went away (`spider graph ... | head`) is not an error: the
/// program ends quietly, as ripgrep does.
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            || matches!(
                cause.downcast_ref::<spider_analyzer::batch::BatchError>(),
                Some(spider_analyzer::batch::BatchError::Io { error, .. })
                    if error.kind() == std::io::ErrorKind::BrokenPipe
            )
            || cause
                .downcast_ref::<serde_json::Error>()
                .and_then(serde_json::Error::io_error_kind)
                == Some(std::io::ErrorKind::BrokenPipe)
    })
}
