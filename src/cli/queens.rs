//! `spider queens N`: count the N-queens solutions with the search engine,
//! a check that the engine explores exactly and a measure of its speed.

use std::io::Write;
use std::process::ExitCode;

use spider_analyzer::explore::{End, Limits};
use spider_analyzer::puzzles::queens::{Column, Queens};
use spider_analyzer::text::count as counted;

/// Arguments of `spider queens`.
#[derive(Debug, clap::Args)]
// `--time-limit -1` reaches the flag's reader, which names the range.
#[command(allow_negative_numbers = true)]
#[command(after_help = super::exit_codes!(
    "0  at least one solution",
    "1  no solution (N = 2 or 3)",
    "2  bad usage (N outside 1 to 16)",
    "3  stopped by the memory limit or Ctrl-C: the count printed is partial",
))]
pub struct Args {
    /// The board size (1 to 16).
    #[arg(value_parser = super::flags::whole_usize(1, 16))]
    pub n: usize,
    /// List every solution, not just the first.
    #[arg(long)]
    pub all: bool,
    /// Machine-readable output.
    #[arg(long)]
    pub json: bool,
    /// Stop the search when its memory estimate reaches this, like `512M`
    /// or `4G` (exit 3, the count so far printed); `auto` is half the
    /// machine's memory, as for every search; 0 for no limit. The search
    /// goes depth first and holds only the row it is on and the choices
    /// left above it, so it needs little memory (`--all` also keeps every
    /// solution found).
    #[arg(long, value_name = "SIZE", default_value = "auto", value_parser = super::flags::memory_limit)]
    pub memory_limit: super::flags::MemoryLimit,
}

/// Counts and prints the solutions. Exit 0 when there is at least one, 1 when
/// there is none, 3 when interrupted (the count is then partial).
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let queens = Queens::new(args.n)?;
    let cancel = super::cancel_on_ctrl_c();
    let spinner = super::spinner();
    let mut all: Vec<Vec<Column>> = Vec::new();
    let mut search = queens
        .search()
        .limits(Limits {
            max_memory: args.memory_limit.per_search(1),
            cancel: Some(cancel),
            ..Limits::default()
        })
        .on_progress(|stats| {
            spinner.set_message(format!(
                "{}, {}",
                counted(stats.positions, "position"),
                counted(stats.goals, "solution")
            ))
        });
    if args.all {
        search = search.on_goal(|_, line| {
            all.push(line.to_vec());
            std::ops::ControlFlow::Continue(())
        });
    }
    let outcome = search.run();
    spinner.finish_and_clear();
    let count = outcome.stats.goals;
    let first: Option<Vec<Column>> = outcome.first_goal.map(|goal| goal.line);
    let complete = matches!(outcome.end, End::Exhausted);
    let stopped = match outcome.end {
        End::Stopped(reason) => Some(super::stopped_why(reason, &args.memory_limit)),
        _ => None,
    };

    let mut out = std::io::stdout().lock();
    if args.json {
        let cols = |line: &[Column]| line.iter().map(|c| c.0 as usize + 1).collect::<Vec<_>>();
        let mut json = serde_json::json!({
            "n": args.n,
            "solutions": count,
            "complete": complete,
            "stopped_by": stopped,
            "first": first.as_deref().map(cols),
            "stats": super::stats_json(&outcome.stats),
        });
        if args.all {
            json["all"] = all.iter().map(|line| cols(line)).collect();
        }
        serde_json::to_writer_pretty(&mut out, &json)?;
        writeln!(out)?;
    } else {
        writeln!(
            out,
            "{n}-queens: {solutions}{partial} ({positions} in {secs:.3} s)",
            n = args.n,
            solutions = counted(count, "solution"),
            partial = match &stopped {
                None => String::new(),
                Some(why) => format!(" so far (stopped: {why})"),
            },
            positions = counted(outcome.stats.positions, "position"),
            secs = outcome.stats.elapsed.as_secs_f64(),
        )?;
        if args.all {
            for (i, line) in all.iter().enumerate() {
                writeln!(
                    out,
                    "\nSolution {} (columns by row: {}):",
                    i + 1,
                    columns(line)
                )?;
                write!(out, "{}", queens.board(line))?;
            }
        } else if let Some(line) = &first {
            writeln!(out, "\nFirst solution (columns by row: {}):", columns(line))?;
            write!(out, "{}", queens.board(line))?;
        }
    }
    Ok(match (complete, count) {
        (false, _) => ExitCode::from(3),
        (true, 0) => ExitCode::from(1),
        (true, _) => ExitCode::SUCCESS,
    })
}

fn columns(line: &[Column]) -> String {
    line.iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}
