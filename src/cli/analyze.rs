//! `spider analyze [FILE]`: the main job. Can this deal still be won, and
//! how? Prints the consistency summary, the verdict, a winning line a person
//! can follow (replayed by the rules before it is printed), the unknown
//! cards the search turned up, and, when the deal has `XX` cards, the
//! verdict for every way to fill them.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::time::Duration;

use anyhow::Context;
use spider_analyzer::deal::{Deal, check, load, yaml};
use spider_analyzer::game::{Game, compact_line};
use spider_analyzer::solve::completions::{self, Completion, Completions};
use spider_analyzer::solve::{Analysis, Limits, Progress, Verdict, analyze_with_progress};

/// The deal analyzed when no file is given: the 2017 game its player could
/// not win in 20 hours, with its four never-seen cards.
const BUILT_IN: &str = include_str!("../../deals/unwon-2017.yaml");
const BUILT_IN_NAME: &str = "unwon-2017.yaml (built in)";

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The deal file (YAML, or CLIPS facts). Without it, the built-in unwon
    /// 2017 game is analyzed.
    file: Option<PathBuf>,
    /// Stop after this many positions (per deal or completion).
    #[arg(long, value_name = "N")]
    max_positions: Option<u64>,
    /// Stop after this many seconds (per deal or completion); 0 for no limit.
    #[arg(long, value_name = "SECS", default_value_t = 10.0)]
    time_limit: f64,
    /// After the first win, look this many seconds more for a shorter
    /// winning line (within --time-limit); 0 keeps the first line.
    #[arg(long, value_name = "SECS", default_value_t = spider_analyzer::solve::DEFAULT_SHORTEN_TIME.as_secs_f64())]
    shorten_time: f64,
    /// Stop when the search's memory estimate reaches this (per search), like
    /// `512M` or `4G`; 0 for no limit.
    #[arg(long, value_name = "SIZE", default_value = "4G", value_parser = parse_size)]
    memory_limit: u64,
    /// Decide every completion of the XX cards, however many there are (up
    /// to --max-completions). By default they are decided when there are at
    /// most 1000.
    #[arg(long, conflicts_with = "no_completions")]
    completions: bool,
    /// Do not decide the completions of the XX cards.
    #[arg(long)]
    no_completions: bool,
    /// The most completions --completions will decide.
    #[arg(long, value_name = "N", default_value_t = 100_000)]
    max_completions: u128,
    /// Threads for deciding completions (default: all cores).
    #[arg(long, value_name = "N")]
    jobs: Option<usize>,
    /// Do not print the winning line move by move (the compact line is
    /// still printed).
    #[arg(short, long)]
    quiet: bool,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
    /// Also write a page that plays the winning line (one self-contained
    /// HTML file; without a win it shows the position).
    #[arg(long, value_name = "OUT.html")]
    html: Option<PathBuf>,
    /// Replace the --html file if it exists.
    #[arg(long, requires = "html")]
    force: bool,
}

/// Reads a size in bytes with an optional K, M or G suffix (powers of 1024).
fn parse_size(text: &str) -> Result<u64, String> {
    let text = text.trim();
    let (number, unit) = match text.char_indices().find(|(_, c)| c.is_ascii_alphabetic()) {
        Some((at, _)) => (&text[..at], &text[at..]),
        None => (text, ""),
    };
    let shift = match unit
        .to_ascii_uppercase()
        .trim_end_matches("IB")
        .trim_end_matches('B')
    {
        "" => 0,
        "K" => 10,
        "M" => 20,
        "G" => 30,
        "T" => 40,
        _ => {
            return Err(format!(
                "`{text}` is not a size: expected a number with K, M or G"
            ));
        }
    };
    number
        .trim()
        .parse::<f64>()
        .ok()
        .filter(|n| n.is_finite() && *n >= 0.0)
        .map(|n| (n * (1u64 << shift) as f64) as u64)
        .ok_or_else(|| format!("`{text}` is not a size: expected a number with K, M or G"))
}

/// Exit 0 winnable, 1 unwinnable, 3 undecided. With completions: 0 when
/// every completion is winnable, 1 when every one is unwinnable, 3 otherwise.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let (deal, name) = match &args.file {
        Some(path) => (load(path)?, path.display().to_string()),
        None => (
            yaml::from_str(BUILT_IN, Path::new(BUILT_IN_NAME))?,
            BUILT_IN_NAME.to_string(),
        ),
    };
    let game = Game::new(&deal).with_context(|| name.clone())?;
    if let Some(path) = &args.html {
        let inputs: Vec<&Path> = args.file.iter().map(PathBuf::as_path).collect();
        spider_analyzer::html::check_target(path, args.force, &inputs)?;
    }
    let report = check::check(&deal);
    let limits = Limits {
        max_positions: args.max_positions,
        time_limit: (args.time_limit > 0.0).then(|| Duration::from_secs_f64(args.time_limit)),
        memory_limit: (args.memory_limit > 0).then_some(args.memory_limit),
        shorten_time: super::seconds("--shorten-time", args.shorten_time)?,
    };
    let cancel = super::cancel_on_ctrl_c();
    let spinner = super::spinner();
    let show = |p: &Progress| {
        spinner.set_message(format!(
            "{} pass, {} positions ({:.0}/s), stage {}, best: {} runs removed, {} face down",
            p.pass,
            p.positions,
            p.positions as f64 / p.elapsed.as_secs_f64().max(1e-9),
            p.stage,
            p.best_runs_removed,
            p.fewest_face_down
        ))
    };
    let analysis = analyze_with_progress(&deal, &limits, &cancel, &show)?;
    spinner.finish_and_clear();

    let unknown = deal.unknown_places().len();
    let candidates = report.candidates();
    let count = completions::count_orderings(&candidates);
    let decide_completions = unknown > 0
        && report.consistent
        && !args.no_completions
        && (args.completions || count <= 1000)
        && !cancel.load(Ordering::Relaxed);
    let completions = if decide_completions {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(args.jobs.unwrap_or(0))
            .build()?;
        let bar = indicatif::ProgressBar::new(u64::try_from(count).unwrap_or(u64::MAX));
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{bar:40} {pos}/{len} completions, elapsed {elapsed} {msg}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        let on_done = |_: &Completion| bar.inc(1);
        let decided = pool.install(|| {
            completions::decide(
                &deal,
                &candidates,
                &limits,
                &cancel,
                args.max_completions,
                &on_done,
            )
        })?;
        bar.finish_and_clear();
        Some(decided)
    } else {
        None
    };

    let mut out = std::io::stdout().lock();
    if args.json {
        let json = serde_json::json!({
            "file": name,
            "consistency": report,
            "analysis": analysis_json(&analysis),
            "completions": completions.as_ref().map(completions_json),
        });
        serde_json::to_writer_pretty(&mut out, &json)?;
        writeln!(out)?;
    } else {
        print_report(
            &mut out, &name, &deal, &game, &report, &analysis, args.quiet,
        )?;
        if let Some(completions) = &completions {
            print_completions(&mut out, completions)?;
        } else if unknown > 0 {
            writeln!(
                out,
                "\ncompletions: not decided ({})",
                if !report.consistent {
                    "the deal is inconsistent: the missing cards are not exactly what the XX slots can be; see `spider check`".to_string()
                } else if args.no_completions {
                    "--no-completions".to_string()
                } else if cancel.load(Ordering::Relaxed) {
                    "interrupted".to_string()
                } else {
                    format!("{count} of them; add --completions to decide them all")
                }
            )?;
        }
    }
    out.flush()?;
    if let Some(path) = &args.html {
        let inputs: Vec<&Path> = args.file.iter().map(PathBuf::as_path).collect();
        super::show::write_analysis_page(
            path, args.force, &inputs, &name, &game, &deal, &analysis,
        )?;
    }
    let verdicts: Vec<Verdict> = match &completions {
        Some(c) => c.completions.iter().map(|c| c.analysis.verdict).collect(),
        None => vec![analysis.verdict],
    };
    Ok(exit_code(&verdicts))
}

fn exit_code(verdicts: &[Verdict]) -> ExitCode {
    if !verdicts.is_empty() && verdicts.iter().all(|&v| v == Verdict::Winnable) {
        ExitCode::SUCCESS
    } else if !verdicts.is_empty() && verdicts.iter().all(|&v| v == Verdict::Unwinnable) {
        ExitCode::from(1)
    } else {
        ExitCode::from(3)
    }
}

fn mib(bytes: u64) -> String {
    format!("{:.1} MiB", bytes as f64 / (1 << 20) as f64)
}

fn print_report(
    out: &mut impl Write,
    name: &str,
    deal: &Deal,
    game: &Game,
    report: &check::Report,
    analysis: &Analysis,
    quiet: bool,
) -> anyhow::Result<()> {
    writeln!(
        out,
        "deal: {name} ({} suits, {} rules, {} stock rows, {} runs removed)",
        deal.suits.count(),
        deal.rules,
        deal.stock.len(),
        deal.removed.len()
    )?;
    let missing: Vec<String> = report.candidates().iter().map(|c| c.to_string()).collect();
    writeln!(
        out,
        "consistency: {}{}",
        if report.consistent {
            "consistent"
        } else {
            "INCONSISTENT (see `spider check`)"
        },
        if report.unknown_count > 0 {
            format!(
                "; {} XX cards, candidates {}",
                report.unknown_count,
                missing.join(" ")
            )
        } else {
            String::new()
        }
    )?;
    write!(out, "verdict: {}", analysis.verdict)?;
    if let Some(reason) = analysis.stopped_by {
        write!(out, " ({reason})")?;
    }
    writeln!(out)?;
    if let Some(line) = &analysis.line {
        writeln!(
            out,
            "winning line: {} moves, replayed and checked by the rules",
            line.len()
        )?;
        if let Some((time, moves)) = analysis.first_win {
            writeln!(
                out,
                "first win: {moves} moves after {:.2} s; the time after it went to shortening the line",
                time.as_secs_f64()
            )?;
        }
        if !quiet {
            super::replay::print_moves(out, game, line)?;
        }
        writeln!(out, "compact: {}", compact_line(line))?;
    }
    if analysis.verdict == Verdict::Unwinnable {
        writeln!(
            out,
            "proof: every position reachable from the start was examined ({} positions); none is won",
            analysis.positions
        )?;
    }
    if report.unknown_count > 0 {
        writeln!(out, "reveals (unknown cards the search can turn up):")?;
        for place in deal.unknown_places() {
            match analysis.reveals.iter().find(|(p, _)| *p == place) {
                Some((_, moves)) => {
                    writeln!(out, "  {place}: turned up by a line of {moves} moves")?
                }
                None => writeln!(out, "  {place}: not turned up by the search")?,
            }
        }
    }
    if analysis.verdict == Verdict::Undecided {
        writeln!(
            out,
            "best reached: {}, {} face-down cards left",
            runs_removed(analysis.best_runs_removed),
            analysis.fewest_face_down
        )?;
    }
    writeln!(
        out,
        "search: {} positions in {:.2} s ({:.0} positions/s), peak memory estimate {}, last pass {}",
        analysis.positions,
        analysis.elapsed.as_secs_f64(),
        analysis.positions_per_second(),
        mib(analysis.peak_memory),
        analysis.pass
    )?;
    Ok(())
}

fn print_completions(out: &mut impl Write, completions: &Completions) -> anyhow::Result<()> {
    let slots: Vec<String> = completions.slots.iter().map(|p| p.to_string()).collect();
    writeln!(
        out,
        "\ncompletions: every way to fill the XX slots ({})",
        slots.join("; ")
    )?;
    for (index, completion) in completions.completions.iter().enumerate() {
        let cards: Vec<String> = completion.cards.iter().map(|c| c.to_string()).collect();
        let a = &completion.analysis;
        write!(
            out,
            "{:>5}. {:<16} {:<10}",
            index + 1,
            cards.join(" "),
            a.verdict.to_string()
        )?;
        match (&a.line, a.stopped_by) {
            (Some(line), _) => write!(out, " {} moves", line.len())?,
            (None, Some(reason)) => write!(
                out,
                " ({reason}; best: {}, {} face down)",
                runs_removed(a.best_runs_removed),
                a.fewest_face_down
            )?,
            _ => {}
        }
        writeln!(
            out,
            "  [{} positions, {:.2} s]",
            a.positions,
            a.elapsed.as_secs_f64()
        )?;
    }
    let n = completions.completions.len();
    writeln!(
        out,
        "winnable in {} of {n} completions ({} unwinnable, {} undecided)",
        completions.count(Verdict::Winnable),
        completions.count(Verdict::Unwinnable),
        completions.count(Verdict::Undecided)
    )?;
    Ok(())
}

/// "1 run removed", "3 runs removed".
fn runs_removed(runs: usize) -> String {
    if runs == 1 {
        "1 run removed".into()
    } else {
        format!("{runs} runs removed")
    }
}

fn analysis_json(analysis: &Analysis) -> serde_json::Value {
    serde_json::json!({
        "verdict": analysis.verdict,
        "stopped_by": analysis.stopped_by,
        "line": analysis.line.as_ref().map(|l| compact_line(l)),
        "line_length": analysis.line.as_ref().map(Vec::len),
        "first_win_seconds": analysis.first_win.map(|(time, _)| time.as_secs_f64()),
        "first_line_length": analysis.first_win.map(|(_, moves)| moves),
        "positions": analysis.positions,
        "seconds": analysis.elapsed.as_secs_f64(),
        "positions_per_second": analysis.positions_per_second(),
        "peak_memory_bytes": analysis.peak_memory,
        "pass": analysis.pass,
        "best_runs_removed": analysis.best_runs_removed,
        "fewest_face_down": analysis.fewest_face_down,
        "reveals": analysis.reveals.iter().map(|(place, moves)| serde_json::json!({
            "place": place,
            "moves": moves,
        })).collect::<Vec<_>>(),
    })
}

fn completions_json(completions: &Completions) -> serde_json::Value {
    serde_json::json!({
        "slots": completions.slots,
        "total": completions.completions.len(),
        "winnable": completions.count(Verdict::Winnable),
        "unwinnable": completions.count(Verdict::Unwinnable),
        "undecided": completions.count(Verdict::Undecided),
        "completions": completions.completions.iter().map(|c| serde_json::json!({
            "cards": c.cards.iter().map(|c| c.to_string()).collect::<Vec<_>>(),
            "analysis": analysis_json(&c.analysis),
        })).collect::<Vec<_>>(),
    })
}

#[cfg(test)]
mod tests {
    use super::parse_size;

    #[test]
    fn sizes() {
        assert_eq!(parse_size("0"), Ok(0));
        assert_eq!(parse_size("512M"), Ok(512 << 20));
        assert_eq!(parse_size("4G"), Ok(4 << 30));
        assert_eq!(parse_size("1.5GiB"), Ok(3 << 29));
        assert_eq!(parse_size("100"), Ok(100));
        assert!(parse_size("4X").is_err());
        assert!(parse_size("-1G").is_err());
        assert!(parse_size("G").is_err());
    }
}
