//! `spider batch --verify FILE...`: check every row of results files, so a
//! census can be trusted row by row: each winnable row's line replayed by
//! the rules, each unwinnable row proved lost again, each deal recorded
//! once, and every line of the file a record.

use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::Ordering;

use anyhow::Context;
use rayon::prelude::*;
use serde::Serialize;
use spider_analyzer::batch::{self, Checked, Record, ResultsFile};
use spider_analyzer::solve::Limits;
use spider_analyzer::text::count;

/// A row that does not hold.
#[derive(Debug, Serialize)]
struct Failure {
    file: String,
    line: usize,
    /// The deal, as `pysol 14934 (4 suits, standard)`; empty for a line
    /// that is not a record.
    deal: String,
    reason: String,
}

/// The deals of one kind (source, suits, rules) the files hold.
#[derive(Debug, Serialize)]
struct Coverage {
    deals: String,
    first: u128,
    last: u128,
    rows: u64,
    /// Numbers between the first and the last with no row.
    missing: u128,
    /// The first few of them.
    missing_first: Vec<u128>,
}

#[derive(Debug, Default, Serialize)]
struct Report {
    rows: u64,
    lines_replayed: u64,
    losses_proved: u64,
    losses_unchecked: u64,
    undecided: u64,
    failing: Vec<Failure>,
    coverage: Vec<Coverage>,
}

fn deal_name(record: &Record) -> String {
    format!(
        "{} {} ({} suits, {})",
        record.source,
        record.number,
        record.suits.count(),
        record.rules
    )
}

/// Checks every row of `paths`; `reprove` the limits of the searches that
/// prove the unwinnable rows lost again (`None`: lines only).
pub fn run(
    paths: &[PathBuf],
    reprove: Option<Limits>,
    jobs: Option<usize>,
    json: bool,
) -> anyhow::Result<ExitCode> {
    let cancel = super::cancel_on_ctrl_c();
    let mut report = Report::default();
    // Every row, with where it is.
    let mut rows: Vec<(&Path, usize, Record)> = Vec::new();
    for path in paths {
        let file = ResultsFile::read(path)?;
        for &line in &file.stray_lines {
            report.failing.push(Failure {
                file: path.display().to_string(),
                line,
                deal: String::new(),
                reason: "not a result record".to_string(),
            });
        }
        rows.extend(
            file.records
                .into_iter()
                .zip(file.record_lines)
                .map(|(record, line)| (path.as_path(), line, record)),
        );
    }
    report.rows = rows.len() as u64;

    // Each deal once.
    let mut first_seen: HashMap<batch::DealKey, (&Path, usize)> = HashMap::new();
    for (path, line, record) in &rows {
        if let Some((first_path, first_line)) = first_seen.get(&record.key()) {
            report.failing.push(Failure {
                file: path.display().to_string(),
                line: *line,
                deal: deal_name(record),
                reason: format!(
                    "recorded twice: first at {}:{first_line}",
                    first_path.display()
                ),
            });
        } else {
            first_seen.insert(record.key(), (path, *line));
        }
    }

    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.unwrap_or(0))
        .build()
        .context("cannot start the worker threads")?;
    let checked: Vec<Result<Checked, String>> = pool.install(|| {
        rows.par_iter()
            .map(|(_, _, record)| batch::check(record, reprove.as_ref(), &cancel))
            .collect()
    });
    if cancel.load(Ordering::SeqCst) {
        eprintln!("spider: interrupted: the rows were not all checked");
        return Ok(ExitCode::from(super::EXIT_INTERRUPTED));
    }
    for ((path, line, record), outcome) in rows.iter().zip(checked) {
        match outcome {
            Ok(Checked::LineReplayed) => report.lines_replayed += 1,
            Ok(Checked::LossProved) => report.losses_proved += 1,
            Ok(Checked::Undecided) => report.undecided += 1,
            Ok(Checked::LossUnchecked) => report.losses_unchecked += 1,
            Err(reason) => report.failing.push(Failure {
                file: path.display().to_string(),
                line: *line,
                deal: deal_name(record),
                reason,
            }),
        }
    }
    report
        .failing
        .sort_by(|a, b| (&a.file, a.line).cmp(&(&b.file, b.line)));
    report.coverage = coverage(rows.iter().map(|(_, _, record)| record));

    let mut out = std::io::stdout().lock();
    if json {
        serde_json::to_writer_pretty(&mut out, &report)?;
        writeln!(out)?;
    } else {
        print(&mut out, &report, reprove.as_ref())?;
    }
    out.flush()?;
    Ok(if report.failing.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// The numbers each kind of deal covers, and the gaps.
fn coverage<'a>(records: impl Iterator<Item = &'a Record>) -> Vec<Coverage> {
    let mut kinds: BTreeMap<String, Vec<u128>> = BTreeMap::new();
    for record in records {
        kinds
            .entry(format!(
                "{} deals, {} suits, {}",
                record.source,
                record.suits.count(),
                record.rules
            ))
            .or_default()
            .push(record.number);
    }
    kinds
        .into_iter()
        .map(|(deals, mut numbers)| {
            numbers.sort_unstable();
            numbers.dedup();
            let (first, last) = (numbers[0], numbers[numbers.len() - 1]);
            let mut missing_first = Vec::new();
            for pair in numbers.windows(2) {
                let mut n = pair[0] + 1;
                while n < pair[1] && missing_first.len() < 20 {
                    missing_first.push(n);
                    n += 1;
                }
            }
            Coverage {
                deals,
                first,
                last,
                rows: numbers.len() as u64,
                missing: last - first + 1 - numbers.len() as u128,
                missing_first,
            }
        })
        .collect()
}

fn print(out: &mut impl Write, report: &Report, reprove: Option<&Limits>) -> anyhow::Result<()> {
    for failure in &report.failing {
        if failure.deal.is_empty() {
            writeln!(out, "{}:{}: {}", failure.file, failure.line, failure.reason)?;
        } else {
            writeln!(
                out,
                "{}:{}: {}: {}",
                failure.file, failure.line, failure.deal, failure.reason
            )?;
        }
    }
    writeln!(out, "rows checked      {:>8}", report.rows)?;
    writeln!(
        out,
        "lines replayed    {:>8}  (dealt again from the number, every move legal, won)",
        report.lines_replayed
    )?;
    match reprove {
        Some(_) => writeln!(
            out,
            "losses proved     {:>8}  (proved lost again by a search of their own)",
            report.losses_proved
        )?,
        None => writeln!(
            out,
            "losses unchecked  {:>8}  (--verify-lines-only)",
            report.losses_unchecked
        )?,
    }
    writeln!(
        out,
        "undecided         {:>8}  (nothing to check)",
        report.undecided
    )?;
    writeln!(out, "failing           {:>8}", report.failing.len())?;
    for kind in &report.coverage {
        write!(
            out,
            "{}: {} from {} to {}",
            kind.deals,
            count(kind.rows, "deal"),
            kind.first,
            kind.last
        )?;
        if kind.missing == 0 {
            writeln!(out, ", none missing")?;
        } else {
            let shown: Vec<String> = kind.missing_first.iter().map(u128::to_string).collect();
            writeln!(
                out,
                ", {} missing between them ({}{})",
                kind.missing,
                shown.join(", "),
                if kind.missing > shown.len() as u128 {
                    ", ..."
                } else {
                    ""
                }
            )?;
        }
    }
    Ok(())
}
