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
use spider_analyzer::deal::{Deal, check, yaml};
use spider_analyzer::game::{Game, compact_line};
use spider_analyzer::solve::{
    Analysis, Limits, Progress, Reductions, RoomTest, StopReason, Verdict, analyze_with_progress,
};
use spider_analyzer::text::count;
use spider_analyzer::unknown::{Completion, Decided, SampleSummary};
use spider_analyzer::unknown::{completions, hint, sample};

use super::budget::{Budget, Sampling, Shorten, for_samples};
use super::completions::runs_removed;
use super::flags::{self, CountLimit};

/// The most positions the search of a deal as written with `XX` cards
/// examines when its completions are decided after it: it cannot win
/// (a win turns up every card), it only finds which unknown cards can turn
/// up, and the completions give the verdict.
const AS_WRITTEN_POSITIONS: u64 = 2_000_000;

/// The most completions `--completions` decides.
const EVERY_COMPLETION_AT_MOST: u64 = 100_000;

/// The deal analyzed when no file is given: the 2017 game its player could
/// not win in 20 hours, with its four never-seen cards.
const BUILT_IN: &str = include_str!("../../deals/unwon-2017.yaml");
const BUILT_IN_NAME: &str = "unwon-2017.yaml (built in)";

#[derive(Debug, clap::Args)]
// `--time-limit -1` reaches the flag's reader, which names the range.
#[command(allow_negative_numbers = true)]
#[command(after_help = super::exit_codes!(
    "0  winnable (with XX cards: every completion decided is winnable)",
    "1  unwinnable (with XX cards: every completion decided is unwinnable)",
    "2  bad usage or bad input (the message names the file, line and column), an inconsistent deal included",
    "3  undecided: a limit or Ctrl-C stopped the search, or the completions disagree;",
    "   the built-in game is winnable: each of its 24 completions is won",
))]
pub struct Args {
    /// The deal file (YAML, or CLIPS facts); `-` reads standard input.
    /// Without it, the built-in unwon 2017 game is analyzed.
    file: Option<PathBuf>,
    #[command(flatten)]
    budget: Budget,
    #[command(flatten)]
    shorten: Shorten,
    /// Decide every completion of the XX cards, up to 100,000 of them (the
    /// same as --max-completions 100000).
    #[arg(long, conflicts_with_all = ["no_completions", "max_completions"])]
    completions: bool,
    /// Do not decide the completions of the XX cards.
    #[arg(long)]
    no_completions: bool,
    #[command(flatten)]
    sampling: Sampling,
    /// Seed of the sample of completions (printed with the report; the
    /// same seed draws the same sample, the same default as in every
    /// command).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = flags::whole(0, u64::MAX))]
    seed: u64,
    /// Also give the move to play now, as `spider hint` does, from the
    /// decided completions.
    #[arg(long)]
    hint: bool,
    /// Threads for deciding completions, 1 to 1024 (default: all cores).
    #[arg(short, long, value_name = "N", value_parser = flags::jobs)]
    jobs: Option<usize>,
    /// Do not print the winning line move by move (the compact line is
    /// still printed).
    #[arg(short, long)]
    quiet: bool,
    /// Also print the position given as a player draws it: the piles side
    /// by side, each pile's face-down cards `XX` above its face-up cards,
    /// the stock rows left and the runs removed.
    #[arg(long, conflicts_with = "json")]
    board: bool,
    /// Also print the winning line of each completion of the XX cards
    /// decided (every one, or each sampled one), in the compact form that
    /// `spider replay` reads against that completion (--json has them too).
    #[arg(long, conflicts_with = "json")]
    lines: bool,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
    /// When standard error is not a terminal (a run in the background, its
    /// standard error in a file), write the progress line there every
    /// SECONDS (0: never); a terminal shows it in a spinner.
    #[arg(long, value_name = "SECONDS", default_value = "600", value_parser = flags::time_limit)]
    progress_every: flags::TimeLimit,
    /// Switch off the dead-end test of the exhaustive search (to measure it
    /// or cross-check its verdicts; see docs/proofs.md).
    #[arg(long)]
    no_dead_ends: bool,
    /// Run the dead-end test on every position the exhaustive search
    /// meets, not only after moves that cannot be undone: a card turned
    /// up, a run removed, a row dealt, a run taken off a card it does not
    /// follow (slower; see docs/proofs.md).
    #[arg(long, conflicts_with = "no_dead_ends")]
    dead_ends_everywhere: bool,
    /// Where the room test runs, a stronger dead-end test for the last
    /// stage that counts where moved cards can lie: on the position given
    /// (start), also where the last row is dealt (deals), wherever the
    /// dead-end test runs (entries: prunes more, costs more time), deals
    /// in the exhaustive pass capped at 2 M positions and entries in the
    /// others (last), or never (see docs/proofs.md).
    #[arg(long, value_name = "WHERE", default_value = "last")]
    room: RoomTest,
    /// Switch off pile symmetry once the stock is empty (see docs/proofs.md).
    #[arg(long)]
    no_symmetry: bool,
    /// Let the room test move a card with other cards on it: without the
    /// make-way rule it proves fewer positions lost (see docs/proofs.md).
    #[arg(long)]
    no_make_way: bool,
    /// Let the room test learn conflicts: the relaxed states it proves
    /// lost are kept and trusted by its later tests of the same search
    /// (faster on some proofs, slower on others; see docs/proofs.md). Not
    /// in a proof saved with --checkpoint or kept on --disk: a resumed
    /// search would start with nothing learned.
    #[arg(long)]
    learn: bool,
    /// In the dead-end test, also play a relaxed game in which a stock card
    /// dealt onto a pile the relaxed game has emptied must leave that pile
    /// again, rather than count as gone at once (the rows left use up the
    /// empty piles): proves more on some positions, none of the ladder's
    /// (see docs/proofs.md).
    #[arg(long, conflicts_with = "no_dead_ends")]
    deals_fill: bool,
    /// With stock rows left, also test whether any pile can ever be
    /// emptied, counting the room: until a pile empties, every card that
    /// moves needs a card one rank higher to lie on, one card on each (see
    /// docs/proofs.md, *The first empty pile*).
    #[arg(long, conflicts_with = "no_dead_ends")]
    first_empty: bool,
    /// Run only the exhaustive search (the proof), none of the guided
    /// passes that look for a win first.
    #[arg(long)]
    exhaustive_only: bool,
    /// Save the exhaustive search (the proof) of the deal as written in
    /// DIR at every layer boundary, and continue from DIR when it holds
    /// such a save: a long proof stopped by a limit, Ctrl-C or a crash
    /// resumes where it stopped, with the same verdict and counts (see
    /// docs/engine.md). Not used for the completions of XX cards.
    #[arg(long, value_name = "DIR")]
    checkpoint: Option<PathBuf>,
    #[command(flatten)]
    disk: flags::DiskArgs,
    /// Also write a page that plays the winning line (one self-contained
    /// HTML file; without a win it shows the position).
    #[arg(long, value_name = "OUT.html")]
    html: Option<PathBuf>,
    #[arg(long, requires = "html", help = super::output::FORCE_HELP)]
    force: bool,
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
    if let Some(path) = &args.html {
        let inputs: Vec<&Path> = args.file.iter().map(PathBuf::as_path).collect();
        super::output::check(path, &inputs, args.force)?;
    }
    let report = check::check(&deal);
    super::input::refuse_inconsistent(&name, &report)?;
    // The completions run one search per thread at once; the deal as
    // written runs alone, on every thread.
    let threads = flags::threads(args.jobs);
    let limits = Limits {
        reductions: Reductions {
            dead_ends: !args.no_dead_ends,
            dead_ends_everywhere: args.dead_ends_everywhere,
            room: if args.no_dead_ends {
                RoomTest::Never
            } else {
                args.room
            },
            symmetry: !args.no_symmetry,
            make_way: !args.no_make_way,
            learn: args.learn && !args.no_dead_ends,
            deals_fill: args.deals_fill,
            first_empty: args.first_empty,
        },
        exhaustive_only: args.exhaustive_only,
        shorten_positions: args.shorten.shorten_positions,
        ..args.budget.limits(threads)
    };
    let cancel = super::cancel_on_ctrl_c();
    let spinner = super::spinner();
    let log = super::ProgressLog::new(args.progress_every.0);
    let show = |p: &Progress| {
        let message = match &p.proof {
            Some(proof) => format!("exhaustive pass: {proof}"),
            None => format!(
                "{} pass: examined {} positions ({} positions/s), stage {}; best so far {} removed, {} face down",
                p.pass,
                spider_analyzer::text::amount(p.positions),
                spider_analyzer::text::amount(
                    (p.positions as f64 / p.elapsed.as_secs_f64().max(1e-9)) as u64
                ),
                p.stage,
                spider_analyzer::text::count(p.best_runs_removed as u64, "run"),
                spider_analyzer::text::count(p.fewest_face_down as u64, "card"),
            ),
        };
        log.note(&message);
        spinner.set_message(message);
    };
    let unknown = deal.unknown_places().len();
    let candidates = report.candidates();
    let count = sample::count(&candidates);
    let sampling = Sampling {
        max_completions: if args.completions {
            CountLimit(Some(EVERY_COMPLETION_AT_MOST))
        } else {
            args.sampling.max_completions
        },
        ..args.sampling.clone()
    };
    let all_at_most = sampling.max_completions.0.unwrap_or(u64::MAX);
    let decide_all = !sampling.sampled(&count);
    let completions_follow = unknown > 0
        && report.consistent
        && !args.no_completions
        && (decide_all || sampling.samples > 0);
    // With XX cards the deal as written cannot be won, only searched for
    // the unknown cards it can turn up; when the completions follow (they
    // give the verdict), that search gets at most AS_WRITTEN_POSITIONS.
    let as_written_max = if completions_follow {
        Some(
            limits
                .max_positions
                .map_or(AS_WRITTEN_POSITIONS, |max| max.min(AS_WRITTEN_POSITIONS)),
        )
    } else {
        limits.max_positions
    };
    let main_limits = Limits {
        checkpoint: args.checkpoint.clone(),
        disk: args
            .disk
            .options(args.checkpoint.as_deref())
            .map_err(anyhow::Error::msg)?,
        memory_limit: args.budget.memory_limit.per_search(1),
        max_positions: as_written_max,
        ..limits.clone()
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    let analysis = pool.install(|| analyze_with_progress(&deal, &main_limits, &cancel, &show))?;
    spinner.finish_and_clear();

    // Each sampled completion's search: the smaller budget.
    let sample_limits = for_samples(&limits, true, sampling.sample_max_positions);
    let want_completions = completions_follow && !cancel.load(Ordering::Relaxed);
    let seed = args.seed;
    let decided = if want_completions {
        let size = if decide_all {
            u64::try_from(&count).unwrap_or(u64::MAX)
        } else {
            sampling.samples as u64
        };
        let bar = completions_bar(size, !decide_all);
        // The undecided so far on the bar; the count in the log when
        // standard error is not a terminal.
        let undecided = std::sync::atomic::AtomicU64::new(0);
        let on_done = |c: &Completion| {
            if c.analysis.verdict == Verdict::Undecided {
                let n = undecided.fetch_add(1, Ordering::Relaxed) + 1;
                bar.set_message(format!("({n} undecided so far)"));
            }
            bar.inc(1);
            log.note(&format!(
                "{} of {size} {} decided, {} undecided",
                bar.position(),
                if decide_all {
                    "completions"
                } else {
                    "sampled completions"
                },
                undecided.load(Ordering::Relaxed)
            ));
        };
        let decided = if decide_all {
            pool.install(|| {
                completions::decide(&deal, &candidates, &limits, &cancel, all_at_most, &on_done)
            })?
        } else {
            pool.install(|| {
                sample::decide_sample(
                    &deal,
                    &candidates,
                    sampling.samples,
                    seed,
                    &sample_limits,
                    &cancel,
                    &on_done,
                )
            })?
        };
        bar.finish_and_clear();
        Some(decided)
    } else {
        None
    };
    // Ctrl-C before the moves' tries of --hint, or only during them.
    let stopped_in_sample = cancel.load(Ordering::Relaxed);
    // With no XX card the deal itself is the one completion to hint from.
    let hint = if args.hint {
        let decided = match &decided {
            Some(d) => d.clone(),
            None if unknown == 0 => super::hint::known_deal(&analysis),
            None => anyhow::bail!(
                "--hint needs the completions of the XX cards decided (the deal must be consistent, without --no-completions or --samples 0)"
            ),
        };
        let hint = pool.install(|| {
            super::hint::try_moves(
                &deal,
                &decided,
                hint::Method::Verify {
                    best: sampling.verified_moves(),
                    also: None,
                },
                &for_samples(&limits, decided.is_sample(), sampling.sample_max_positions),
                &cancel,
                &|words| log.note(&format!("hint: {words}")),
            )
        })?;
        Some(hint)
    } else {
        None
    };
    let headline = Headline::new(&analysis, decided.as_ref());
    let planned = if decide_all {
        sample::approximate(&count)
    } else {
        sampling.samples.to_string()
    };
    // Ctrl-C while the completions were decided: how many of how many.
    let stopped = match &decided {
        Some(decided) if stopped_in_sample => {
            let cut = decided
                .completions
                .iter()
                .filter(|c| c.analysis.stopped_by == Some(StopReason::Cancelled))
                .count();
            Some(format!(
                "stopped by Ctrl-C: {} of {planned} {} decided{}, the others not started",
                decided.completions.len() - cut,
                if decided.is_sample() {
                    "sampled completions"
                } else {
                    "completions"
                },
                if cut > 0 {
                    format!(" ({cut} cut short, counted undecided)")
                } else {
                    String::new()
                }
            ))
        }
        _ => None,
    };
    // Ctrl-C while --hint tried each move: the completions all decided.
    let stopped_in_hint = match &hint {
        Some(hint) if !stopped_in_sample && cancel.load(Ordering::Relaxed) => {
            Some(super::hint::stopped_while_trying(
                &match &decided {
                    Some(d) if d.is_sample() => format!("{planned} sampled completions"),
                    Some(_) => format!("{planned} completions"),
                    None => "deal itself (no XX card)".to_string(),
                },
                hint.tries,
            ))
        }
        _ => None,
    };
    let stopped = stopped.or(stopped_in_hint);

    let mut out = std::io::stdout().lock();
    if args.json {
        let json = serde_json::json!({
            "file": name,
            "verdict": headline.verdict(),
            "headline": headline.to_string(),
            "stopped": stopped,
            "consistency": report,
            "analysis": analysis_json(&analysis),
            "reveals_by_place": super::reveals::reveal_groups_json(&deal, &analysis),
            "completions_total": count.to_string(),
            "completions": decided.as_ref().map(completions_json),
            "hint": hint.as_ref().map(super::hint::hint_json),
        });
        serde_json::to_writer_pretty(&mut out, &json)?;
        writeln!(out)?;
    } else {
        print_report(
            &mut out,
            &Subject {
                name: &name,
                deal: &deal,
                game: &game,
                board: args.board,
            },
            &report,
            &analysis,
            &headline,
            args.quiet,
            stopped.as_deref(),
        )?;
        if let Some(decided) = &decided {
            super::completions::print_completions(
                &mut out,
                decided,
                stopped.as_deref().filter(|_| stopped_in_sample),
                sample_limits.max_positions,
                args.lines,
            )?;
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
                    format!(
                        "{} of them; --samples N decides a sample",
                        sample::approximate(&count)
                    )
                }
            )?;
        }
        if let Some(hint) = &hint {
            writeln!(out)?;
            if let Some(stopped) = stopped.as_deref().filter(|_| !stopped_in_sample) {
                writeln!(out, "{stopped}")?;
            }
            super::hint::print_hint(
                &mut out,
                hint,
                decided.as_ref().is_some_and(|d| d.is_sample()),
                None,
                None,
                super::hint::MORE,
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
    // Stopped by Ctrl-C: undecided (3), whatever was decided before it.
    if cancel.load(Ordering::Relaxed) {
        return Ok(ExitCode::from(3));
    }
    Ok(headline.exit_code())
}

/// A progress bar on stderr for deciding completions.
fn completions_bar(len: u64, sampled: bool) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::new(len);
    bar.set_style(
        indicatif::ProgressStyle::with_template(if sampled {
            "{bar:40} {pos}/{len} sampled completions, elapsed {elapsed}, eta {eta} {msg}"
        } else {
            "{bar:40} {pos}/{len} completions, elapsed {elapsed}, eta {eta} {msg}"
        })
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar.enable_steady_tick(Duration::from_millis(500));
    bar
}

/// The one verdict of a report (SPEC "Verdicts"): the search's, when the
/// deal has no `XX` card or its completions were not decided; else what
/// the completions say. Only every completion decided the same way makes
/// the headline winnable or unwinnable; a sample never does.
#[derive(Clone, Debug)]
enum Headline {
    Search(Verdict, Option<spider_analyzer::solve::StopReason>),
    All {
        winnable: usize,
        unwinnable: usize,
        undecided: usize,
    },
    Sample {
        summary: SampleSummary,
        total: String,
    },
}

impl Headline {
    fn new(analysis: &Analysis, decided: Option<&Decided>) -> Headline {
        match decided {
            None => Headline::Search(analysis.verdict, analysis.stopped_by),
            Some(d) if d.is_sample() => Headline::Sample {
                summary: d.summary(),
                total: sample::approximate(&d.total),
            },
            Some(d) => Headline::All {
                winnable: d.count(Verdict::Winnable),
                unwinnable: d.count(Verdict::Unwinnable),
                undecided: d.count(Verdict::Undecided),
            },
        }
    }

    fn verdict(&self) -> Verdict {
        match *self {
            Headline::Search(verdict, _) => verdict,
            Headline::All {
                winnable,
                unwinnable,
                undecided,
            } => {
                let n = winnable + unwinnable + undecided;
                if n > 0 && winnable == n {
                    Verdict::Winnable
                } else if n > 0 && unwinnable == n {
                    Verdict::Unwinnable
                } else {
                    Verdict::Undecided
                }
            }
            Headline::Sample { .. } => Verdict::Undecided,
        }
    }

    /// Exit 0 winnable, 1 unwinnable, 3 undecided.
    fn exit_code(&self) -> ExitCode {
        match self.verdict() {
            Verdict::Winnable => ExitCode::SUCCESS,
            Verdict::Unwinnable => ExitCode::from(1),
            Verdict::Undecided => ExitCode::from(3),
        }
    }
}

impl std::fmt::Display for Headline {
    /// The headline line, without its `verdict: ` label.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.verdict())?;
        match self {
            Headline::Search(_, Some(reason)) => write!(f, " ({reason})"),
            Headline::Search(_, None) => Ok(()),
            &Headline::All {
                winnable,
                unwinnable,
                undecided,
            } => {
                let n = winnable + unwinnable + undecided;
                match self.verdict() {
                    Verdict::Winnable if n == 1 => {
                        write!(f, " (the one completion of the XX cards is winnable)")
                    }
                    Verdict::Winnable => write!(
                        f,
                        " (every one of the {n} completions of the XX cards is winnable)"
                    ),
                    Verdict::Unwinnable if n == 1 => {
                        write!(f, " (the one completion of the XX cards is unwinnable)")
                    }
                    Verdict::Unwinnable => {
                        write!(f, " (all {n} completions of the XX cards are unwinnable)")
                    }
                    Verdict::Undecided => write!(
                        f,
                        ": winnable in {winnable} of {} of the XX cards ({unwinnable} unwinnable, {undecided} undecided)",
                        count(n as u64, "completion")
                    ),
                }
            }
            Headline::Sample { summary, total } => {
                write!(
                    f,
                    ": winnable in {} of {} sampled completions",
                    summary.winnable, summary.decided
                )?;
                if let Some(share) = summary.share {
                    write!(f, ", {share} of the {total} completions")?;
                }
                Ok(())
            }
        }
    }
}

fn mib(bytes: u64) -> String {
    format!("{:.1} MiB", bytes as f64 / (1 << 20) as f64)
}

/// What the report is about: the file's name, its deal and its game.
struct Subject<'a> {
    name: &'a str,
    deal: &'a Deal,
    game: &'a Game,
    /// Whether to draw the position given (`--board`).
    board: bool,
}

fn print_report(
    out: &mut impl Write,
    subject: &Subject,
    report: &check::Report,
    analysis: &Analysis,
    headline: &Headline,
    quiet: bool,
    stopped: Option<&str>,
) -> anyhow::Result<()> {
    let Subject {
        name,
        deal,
        game,
        board,
    } = *subject;
    writeln!(
        out,
        "deal: {name} ({}, {} rules, {}, {} removed)",
        count(deal.suits.count() as u64, "suit"),
        deal.rules,
        count(deal.stock.len() as u64, "stock row"),
        count(deal.removed.len() as u64, "run")
    )?;
    let missing: Vec<String> = report.candidates().iter().map(|c| c.pretty()).collect();
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
                "; {}, candidates {}",
                count(report.unknown_count as u64, "XX card"),
                missing.join(" ")
            )
        } else {
            String::new()
        }
    )?;
    if board {
        writeln!(
            out,
            "{}",
            spider_analyzer::game::Board::of(game, game.start(), &deal.removed)
        )?;
    }
    match stopped {
        Some(stopped) => writeln!(out, "verdict: {headline} ({stopped})")?,
        None => writeln!(out, "verdict: {headline}")?,
    }
    if !matches!(headline, Headline::Search(..)) {
        write!(out, "search of the deal as written: {}", analysis.verdict)?;
        if let Some(reason) = analysis.stopped_by {
            write!(out, " ({reason})")?;
        }
        writeln!(out)?;
    }
    if let Some(line) = &analysis.line {
        writeln!(
            out,
            "winning line: {}, replayed and checked by the rules",
            count(line.len() as u64, "move")
        )?;
        if let Some((time, moves)) = analysis.first_win {
            writeln!(
                out,
                "first win: {} after {:.2} s; the time after it went to shortening the line",
                count(moves as u64, "move"),
                time.as_secs_f64()
            )?;
        }
        if !quiet {
            super::replay::print_moves(out, game, line)?;
        }
        writeln!(out, "compact: {}", compact_line(line))?;
    }
    if analysis.verdict == Verdict::Unwinnable {
        print_proof(out, analysis)?;
    }
    if report.unknown_count > 0 {
        writeln!(
            out,
            "reveals (XX cards the search can turn up; every slot in --json):"
        )?;
        for group in super::reveals::reveal_groups(deal, analysis) {
            writeln!(out, "  {group}")?;
        }
    }
    if analysis.verdict == Verdict::Undecided {
        writeln!(
            out,
            "best reached: {}, {} face-down cards left",
            runs_removed(analysis.best_runs_removed),
            analysis.fewest_face_down
        )?;
        if let Some(positions) = analysis.favoured_exhausted {
            writeln!(
                out,
                "no easy win: every line of favoured moves and deals was searched ({}); \
                 a win, if there is one, needs a lateral move, a split run or a whole pile moved onto an empty one",
                count(positions, "position")
            )?;
        }
        if let Some(proof) = &analysis.proof {
            writeln!(out, "proof so far (last exhaustive pass): {proof}")?;
        }
    }
    writeln!(
        out,
        "search: {} in {:.2} s ({:.0} positions/s), peak memory estimate {}, last pass {}",
        count(analysis.positions, "position"),
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
        "proof: every position reachable from the start was examined ({}",
        count(analysis.positions, "position")
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
        "fewest_face_down_per_pile": analysis.fewest_per_pile,
        "dead_ends": analysis.dead_ends,
        "dead_end": analysis.dead_end.map(|dead| dead.to_string()),
        "favoured_exhausted": analysis.favoured_exhausted,
        "proof": analysis.proof.map(|proof| serde_json::json!({
            "layers_finished": proof.layers_finished,
            "layer": proof.layer.map(|layer| serde_json::json!({
                "rows_dealt": layer.rows_dealt,
                "runs_removed": layer.runs_removed,
                "face_down": layer.face_down,
            })),
            "positions": proof.positions,
            "dead_ends": proof.dead_ends,
            "queued": proof.queued,
            "estimate_left": proof.estimate_left,
            "positions_per_second": proof.rate,
            "threads": proof.threads,
            "seen_dropped": proof.seen_dropped,
            "rounds_split": proof.rounds_split,
            "capped_at": proof.cap,
        })),
        "reveals": analysis.reveals.iter().map(|(place, moves)| serde_json::json!({
            "place": place,
            "moves": moves,
        })).collect::<Vec<_>>(),
    })
}

fn completions_json(decided: &Decided) -> serde_json::Value {
    let summary = decided.summary();
    serde_json::json!({
        "slots": decided.slots,
        "total": decided.total.to_string(),
        "total_approximately": sample::approximate(&decided.total),
        "sampled": decided.is_sample(),
        "seed": decided.seed,
        "decided": summary.decided,
        "winnable": summary.winnable,
        "unwinnable": summary.unwinnable,
        "undecided": summary.undecided,
        "winnable_share": summary.share,
        "bounds": summary.bounds.map(|(low, high)| serde_json::json!({"low": low, "high": high})),
        "completions": decided.completions.iter().map(|c| serde_json::json!({
            "cards": c.cards.iter().map(|c| c.to_string()).collect::<Vec<_>>(),
            "analysis": analysis_json(&c.analysis),
        })).collect::<Vec<_>>(),
    })
}
