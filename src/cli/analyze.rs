//! `spider analyze [FILE]`: the main job. Can this deal still be won, and
//! how? Prints the consistency summary, the verdict, a winning line a person
//! can follow (replayed by the rules before it is printed), the unknown
//! cards the search turned up, and, when the deal has `XX` cards, the
//! verdict for every way to fill them.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::Ordering;

use anyhow::Context;
use spider_analyzer::deal::{Deal, check, yaml};
use spider_analyzer::game::{Game, compact_line};
use spider_analyzer::solve::completions::{self, Completion, Completions};
use spider_analyzer::solve::{
    Analysis, Limits, Progress, Reductions, Verdict, analyze_with_progress,
};

use super::flags::{self, CountLimit, SizeLimit, TimeLimit};

/// The deal analyzed when no file is given: the 2017 game its player could
/// not win in 20 hours, with its four never-seen cards.
const BUILT_IN: &str = include_str!("../../deals/unwon-2017.yaml");
const BUILT_IN_NAME: &str = "unwon-2017.yaml (built in)";

#[derive(Debug, clap::Args)]
#[command(after_help = super::exit_codes!(
    "0  winnable (with XX cards: every completion decided is winnable)",
    "1  unwinnable (with XX cards: every completion decided is unwinnable)",
    "2  bad usage or bad input (the message names the file, line and column)",
    "3  undecided: a limit or Ctrl-C stopped the search, or the completions disagree;",
    "   the built-in game is undecided within the default limits",
))]
pub struct Args {
    /// The deal file (YAML, or CLIPS facts); `-` reads standard input.
    /// Without it, the built-in unwon 2017 game is analyzed.
    file: Option<PathBuf>,
    /// Stop after this many positions (per deal or completion); 0 for no
    /// limit.
    #[arg(long, value_name = "N", default_value = "0", value_parser = flags::count_limit)]
    max_positions: CountLimit,
    /// Stop after this many seconds (per deal or completion), 0.001 to
    /// 2592000 (30 days); 0 for no limit.
    #[arg(long, value_name = "SECS", default_value = "10", value_parser = flags::time_limit)]
    time_limit: TimeLimit,
    /// Stop when the search's memory estimate reaches this (per search), like
    /// `512M` or `4G`; 0 for no limit.
    #[arg(long, value_name = "SIZE", default_value = "4G", value_parser = flags::size_limit)]
    memory_limit: SizeLimit,
    /// Decide every completion of the XX cards, however many there are (up
    /// to --max-completions). By default they are decided when there are at
    /// most 1000.
    #[arg(long, conflicts_with = "no_completions")]
    completions: bool,
    /// Do not decide the completions of the XX cards.
    #[arg(long)]
    no_completions: bool,
    /// The most completions --completions will decide; 0 for no limit.
    #[arg(long, value_name = "N", default_value = "100000", value_parser = flags::count_limit)]
    max_completions: CountLimit,
    /// Threads for deciding completions, 1 to 1024 (default: all cores).
    #[arg(short, long, value_name = "N", value_parser = flags::jobs)]
    jobs: Option<usize>,
    /// Do not print the winning line move by move (the compact line is
    /// still printed).
    #[arg(short, long)]
    quiet: bool,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
    /// Switch off the dead-end test of the exhaustive search (to measure it
    /// or cross-check its verdicts; see docs/proofs.md).
    #[arg(long)]
    no_dead_ends: bool,
    /// Switch off pile symmetry once the stock is empty (see docs/proofs.md).
    #[arg(long)]
    no_symmetry: bool,
    /// Run only the exhaustive search (the proof), none of the guided
    /// passes that look for a win first.
    #[arg(long)]
    exhaustive_only: bool,
}

/// Exit 0 winnable, 1 unwinnable, 3 undecided. With completions: 0 when
/// every completion is winnable, 1 when every one is unwinnable, 3 otherwise.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let (deal, name) = match &args.file {
        Some(path) => (super::input::load_deal(path)?, super::input::name(path)),
        None => (
            yaml::from_str(BUILT_IN, Path::new(BUILT_IN_NAME))?,
            BUILT_IN_NAME.to_string(),
        ),
    };
    let game = Game::new(&deal).with_context(|| name.clone())?;
    let report = check::check(&deal);
    let limits = Limits {
        max_positions: args.max_positions.0,
        time_limit: args.time_limit.0,
        memory_limit: args.memory_limit.0,
        reductions: Reductions {
            dead_ends: !args.no_dead_ends,
            symmetry: !args.no_symmetry,
        },
        exhaustive_only: args.exhaustive_only,
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
                args.max_completions.0.map_or(u128::MAX, u128::from),
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
        if !quiet {
            super::replay::print_moves(out, game, line)?;
        }
        writeln!(out, "compact: {}", compact_line(line))?;
    }
    if analysis.verdict == Verdict::Unwinnable {
        print_proof(out, analysis)?;
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

/// Why an unwinnable position is lost, in words.
fn print_proof(out: &mut impl Write, analysis: &Analysis) -> anyhow::Result<()> {
    if let Some(dead) = &analysis.dead_end {
        writeln!(out, "why: {dead}")?;
        return Ok(());
    }
    write!(
        out,
        "proof: every position reachable from the start was examined ({} positions",
        analysis.positions
    )?;
    if analysis.dead_ends > 0 {
        write!(
            out,
            ", {} of them proved lost by the dead-end test and not expanded",
            analysis.dead_ends
        )?;
    }
    writeln!(out, "); none is won")?;
    // Without dead ends every position was examined, so these are the
    // bounds of every line; with them, of the positions examined.
    let scope = if analysis.dead_ends == 0 {
        "any line"
    } else {
        "any position examined"
    };
    writeln!(
        out,
        "why: the most {scope} reaches is {}, with at best {} face-down cards left",
        runs_removed(analysis.best_runs_removed),
        analysis.fewest_face_down
    )?;
    let stuck: Vec<String> = analysis
        .fewest_per_pile
        .iter()
        .enumerate()
        .filter(|&(_, &n)| n > 0)
        .map(|(pile, &n)| format!("pile {} keeps {n}", pile + 1))
        .collect();
    if !stuck.is_empty() && analysis.dead_ends == 0 {
        writeln!(
            out,
            "face-down cards no line turns up: {}",
            stuck.join(", ")
        )?;
    }
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
        "positions": analysis.positions,
        "seconds": analysis.elapsed.as_secs_f64(),
        "positions_per_second": analysis.positions_per_second(),
        "peak_memory_bytes": analysis.peak_memory,
        "pass": analysis.pass,
        "best_runs_removed": analysis.best_runs_removed,
        "fewest_face_down": analysis.fewest_face_down,
        "fewest_face_down_per_pile": analysis.fewest_per_pile,
        "dead_ends": analysis.dead_ends,
        "dead_end": analysis.dead_end.map(|dead| dead.to_string()),
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
