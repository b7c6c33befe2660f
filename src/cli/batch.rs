//! `spider batch`: decide a range of numbered deals in parallel, stream one
//! JSON line per deal to `-o/--output`, resume from it after an interruption, and
//! summarize; or (`--summarize`) merge the results files of many runs or
//! machines into one summary without solving anything.

use std::collections::HashSet;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use spider_analyzer::batch::{
    self, BatchConfig, DealList, Record, RecordWriter, ResultsFile, Shard, Source, Summary,
};
use spider_analyzer::cards::SuitCount;
use spider_analyzer::deal::Rules;
use spider_analyzer::solve::Limits;
use spider_analyzer::text::count;

use super::deal::{parse_rules, parse_suits};

/// Exit code after Ctrl-C: the results so far are kept; rerun to resume.
const EXIT_INTERRUPTED: u8 = super::EXIT_INTERRUPTED;

#[derive(Debug, clap::Args)]
// `--time-limit -1` reaches the flag's reader, which names the range.
#[command(allow_negative_numbers = true)]
#[command(after_help = super::exit_codes!(
    "0  done: every deal decided or stopped by its limits (the summary counts each verdict);",
    "   with --verify: every row holds",
    "1  with --verify: a row does not hold (each is named, with its file and line)",
    "2  bad usage or bad input, or the results file is not one: nothing touched",
))]
#[command(group(clap::ArgGroup::new("deals").args(["number", "pysol", "summarize", "verify"]).required(true)))]
pub struct Args {
    /// Own deal numbers A..B (both inclusive), e.g. 1..1000, or a list of
    /// numbers and ranges, e.g. 1..10,17,40..50 (run in that order, each
    /// deal once).
    #[arg(long, value_name = "A..B,...", value_parser = deal_list(Source::Own))]
    pub(super) number: Option<DealList>,
    /// PySol game numbers A..B (both inclusive; 4 suits), or a list of
    /// numbers and ranges, e.g. 1131,2680,30001..30004 (run in that order,
    /// each game once).
    #[arg(long, value_name = "A..B,...", value_parser = deal_list(Source::Pysol))]
    pub(super) pysol: Option<DealList>,
    /// Number of suits: 1, 2 or 4.
    #[arg(long, value_name = "1|2|4", default_value = "4", value_parser = parse_suits)]
    pub(super) suits: SuitCount,
    /// standard (no deal onto an empty pile) or relaxed.
    #[arg(long, value_name = "standard|relaxed", default_value = "standard", value_parser = parse_rules)]
    rules: Rules,
    /// Deals decided at once, 1 to 1024 (default: one per core).
    #[arg(short, long, value_name = "N", value_parser = super::flags::jobs)]
    jobs: Option<usize>,
    #[command(flatten)]
    budget: super::budget::Budget,
    #[command(flatten)]
    shorten: super::budget::Shorten,
    /// Results file (JSON Lines: a header line, then one record per deal),
    /// appended to as deals are decided; deals already in it are skipped.
    /// Never truncated; a file that is not a results file is refused, and
    /// so is one another batch is writing (it holds a lock). After Ctrl-C
    /// (exit 130, summary so far printed) rerun the same command to resume.
    /// `-`, a pipe or a terminal gets the records only (nothing to resume;
    /// the summary then goes to stderr).
    #[arg(short, long, alias = "out", value_name = "FILE")]
    pub(super) output: Option<PathBuf>,
    /// Run only shard K of N: deals K, K+N, K+2N, ... of the range (1-based).
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
    /// Merge these results files into one summary (no solving).
    #[arg(long, value_name = "FILE", num_args = 1.., conflicts_with_all = ["number", "pysol", "output", "shard", "jobs", "time_limit", "max_positions"])]
    pub(super) summarize: Vec<PathBuf>,
    /// Check every row of these results files (plain or .zst): deal each
    /// game again from its number, replay each winnable row's line by the
    /// rules (it must win, in the moves the row says), prove each
    /// unwinnable row lost again within --max-positions/--time-limit, with
    /// -j searches at once. Exit 1 when a row does not hold.
    #[arg(long, value_name = "FILE", num_args = 1.., conflicts_with_all = ["number", "pysol", "output", "shard", "summarize", "html"])]
    verify: Vec<PathBuf>,
    /// With --verify: replay the lines only; unwinnable rows are left
    /// unchecked (and counted so).
    #[arg(long, requires = "verify")]
    verify_lines_only: bool,
    /// Print the summary as JSON.
    #[arg(long)]
    json: bool,
    /// Also write a one-page report of the results (HTML, self-contained).
    #[arg(long, value_name = "OUT.html")]
    pub(super) html: Option<PathBuf>,
    #[arg(long, requires = "html", help = super::output::FORCE_HELP)]
    pub(super) force: bool,
    /// Play each deal as a player who cannot see face-down or stock cards
    /// (each move chosen by `spider hint`'s method from a small sample),
    /// and report the share won so beside the share winnable with the
    /// cards known (see docs/unknown-cards.md). With -o, each game is
    /// appended to the results file as it ends, and a rerun resumes.
    #[arg(long, conflicts_with_all = ["summarize"])]
    hidden: bool,
    /// With --hidden: the blind player and its budgets, as in `spider
    /// play` and `spider hint` (the old `--hidden-*` spellings are read
    /// too).
    #[command(flatten)]
    player: super::player::PlayerArgs,
    /// With --hidden: seed of the samples (the same seed plays the same
    /// games).
    #[arg(long, value_name = "N", default_value_t = 1, requires = "hidden", value_parser = super::flags::whole(0, u64::MAX))]
    seed: u64,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if !args.summarize.is_empty() {
        return summarize(&args);
    }
    if !args.verify.is_empty() {
        return super::verify::run(
            &args.verify,
            (!args.verify_lines_only).then(|| Limits {
                shorten_positions: 0,
                ..args.budget.limits(super::flags::threads(args.jobs))
            }),
            args.jobs,
            args.json,
        );
    }
    if let Some(path) = &args.html {
        let inputs: Vec<&std::path::Path> = args.output.iter().map(PathBuf::as_path).collect();
        super::output::check(path, &inputs, args.force)?;
    }
    let config = config(&args)?;
    let p = &args.player;
    if !args.hidden
        && (p.player.is_some()
            || p.player_samples.is_some()
            || p.solve_positions.is_some()
            || p.lookahead != spider_analyzer::unknown::blind::DEFAULT_LOOKAHEAD
            || p.late_lookahead.is_some()
            || p.check != spider_analyzer::unknown::blind::DEFAULT_CHECK)
    {
        anyhow::bail!(
            "the blind player's flags (--player, --player-samples, --solve-positions, --lookahead, --late-lookahead, --check) need --hidden"
        );
    }
    if args.hidden {
        let settings = args
            .player
            .settings(config.suits, args.seed, 1000, args.jobs);
        let (code, records) = super::hidden::run(
            &config,
            &settings,
            args.jobs,
            args.json,
            args.output.as_deref(),
        )?;
        if code == ExitCode::SUCCESS {
            write_report(&args, &records, &Summary::of(&records, None))?;
        }
        return Ok(code);
    }
    // A second Ctrl-C stops at once; the results file is still whole.
    let cancel = super::cancel_on_ctrl_c();

    let (writer, existing) = match &args.output {
        Some(path) => {
            let (writer, existing) = RecordWriter::open(path)?;
            for warning in &existing.warnings {
                eprintln!("spider: warning: {}: {warning}", path.display());
            }
            (Some(writer), existing.records)
        }
        None => (None, Vec::new()),
    };
    let mut records: Vec<Record> = existing
        .into_iter()
        .filter(|r| config.includes(r))
        .collect();
    let done: HashSet<_> = records.iter().map(Record::key).collect();
    let to_do = config.len().saturating_sub(done.len() as u128);
    if !done.is_empty() {
        eprintln!(
            "spider: {} of {} already in the results file, {} to go",
            done.len(),
            count(config.len(), "deal"),
            to_do
        );
    }

    let progress = if std::io::stderr().is_terminal() {
        let bar = ProgressBar::new(u64::try_from(to_do).unwrap_or(u64::MAX));
        bar.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} deals, {rate}, eta {eta} {msg}")
                .map(|style| {
                    style.with_key(
                        "rate",
                        |state: &indicatif::ProgressState, out: &mut dyn std::fmt::Write| {
                            let _ = write!(out, "{:.2} deals/s", state.per_sec());
                        },
                    )
                })
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar.enable_steady_tick(Duration::from_millis(500));
        bar
    } else {
        ProgressBar::hidden()
    };

    let new_records = std::sync::Mutex::new(Vec::new());
    let start = Instant::now();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.jobs.unwrap_or(0))
        .build()
        .context("cannot start the worker threads")?;
    let outcome = pool.install(|| {
        batch::run(&config, &done, &cancel, &|record| {
            if let Some(writer) = &writer {
                writer.write(&record)?;
            }
            progress.inc(1);
            new_records
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .push(record);
            Ok(())
        })
    });
    let wall = start.elapsed().as_secs_f64();
    progress.finish_and_clear();
    let decided_now = outcome?;
    records.extend(
        new_records
            .into_inner()
            .unwrap_or_else(|poisoned| poisoned.into_inner()),
    );
    records.sort_by_key(|r| r.number);

    let summary = Summary::of(&records, Some((wall, decided_now)));
    // Records on standard output: the summary goes to stderr, apart.
    let records_on_stdout = args.output.as_deref().is_some_and(|path| {
        super::output::is_stdout(path)
            || super::output::same_file(path, std::path::Path::new("/dev/stdout"))
    });
    if records_on_stdout {
        print_summary(&mut std::io::stderr().lock(), &summary, args.json)?;
    } else {
        print_summary(&mut std::io::stdout().lock(), &summary, args.json)?;
    }
    write_report(&args, &records, &summary)?;
    if cancel.load(Ordering::SeqCst) {
        eprintln!(
            "spider: interrupted after {} this run; {}",
            count(decided_now, "deal"),
            match &args.output {
                Some(path) => format!(
                    "rerun with --output {} to continue where it stopped",
                    path.display()
                ),
                None => "use --output FILE to keep results across runs".to_string(),
            }
        );
        return Ok(ExitCode::from(EXIT_INTERRUPTED));
    }
    Ok(ExitCode::SUCCESS)
}

/// The validated configuration from the raw flags.
fn config(args: &Args) -> anyhow::Result<BatchConfig> {
    let (source, deals) = match (&args.number, &args.pysol) {
        (Some(deals), None) => (Source::Own, deals.clone()),
        (None, Some(deals)) => (Source::Pysol, deals.clone()),
        _ => anyhow::bail!("give exactly one of --number A..B and --pysol A..B"),
    };
    let shard: Shard = match &args.shard {
        Some(text) => text.parse()?,
        None => Shard::WHOLE,
    };
    let config = BatchConfig {
        source,
        deals,
        shard,
        suits: args.suits,
        rules: args.rules,
        limits: Limits {
            shorten_positions: args.shorten.shorten_positions,
            ..args.budget.limits(super::flags::threads(args.jobs))
        },
    };
    config.validate()?;
    Ok(config)
}

/// The reader of `--number` or `--pysol`: a list of deals of `source`,
/// each number within the source's.
pub(super) fn deal_list(
    source: Source,
) -> impl Fn(&str) -> Result<DealList, String> + Clone + Send + Sync {
    move |text| DealList::parse_up_to(text, source.max_number()).map_err(|err| err.to_string())
}

/// `--summarize`: merge results files and summarize them.
fn summarize(args: &Args) -> anyhow::Result<ExitCode> {
    let (paths, json) = (&args.summarize, args.json);
    let mut files = Vec::new();
    for path in paths {
        let file = ResultsFile::read(path)?;
        for warning in &file.warnings {
            eprintln!("spider: warning: {}: {warning}", path.display());
        }
        files.push(file);
    }
    let (records, duplicates) = batch::merge(files);
    if duplicates > 0 {
        eprintln!(
            "spider: warning: {} (same deal, suits and rules) ignored",
            count(duplicates, "duplicate record")
        );
    }
    let summary = Summary::of(&records, None);
    print_summary(&mut std::io::stdout().lock(), &summary, json)?;
    write_report(args, &records, &summary)?;
    Ok(ExitCode::SUCCESS)
}

/// `--html`, when asked for: the report of `records`, titled after the
/// deals run or the results files read (which are never written over).
fn write_report(args: &Args, records: &[Record], summary: &Summary) -> anyhow::Result<()> {
    let Some(path) = &args.html else {
        return Ok(());
    };
    let mut inputs: Vec<&Path> = args.summarize.iter().map(|p| p.as_path()).collect();
    inputs.extend(args.output.iter().map(|p| p.as_path()));
    let title = match (&args.number, &args.pysol) {
        (Some(range), _) => format!(
            "Own deals {range}, {}",
            count(args.suits.count() as u64, "suit")
        ),
        (_, Some(range)) => format!("PySol games {range}"),
        _ => {
            let names: Vec<String> = args
                .summarize
                .iter()
                .map(|p| {
                    p.file_name().map_or(p.display().to_string(), |n| {
                        n.to_string_lossy().into_owned()
                    })
                })
                .collect();
            format!("Results in {}", names.join(", "))
        }
    };
    super::show::write_batch_report(path, args.force, &inputs, &title, records, summary)
}

fn print_summary(stdout: &mut dyn Write, summary: &Summary, json: bool) -> anyhow::Result<()> {
    if json {
        serde_json::to_writer_pretty(&mut *stdout, summary)?;
        writeln!(stdout)?;
    } else {
        write!(stdout, "{summary}")?;
    }
    stdout.flush()?;
    Ok(())
}
