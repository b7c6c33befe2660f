//! Batches of numbered deals: what fraction of deals is winnable under which
//! rules is a question about thousands of deals, run on many cores or many
//! machines, over hours, with interruptions.
//!
//! So a batch is built to be cut up and resumed:
//!
//! - a [`DealRange`] (`A..B`, inclusive) of own or PySol numbers, optionally
//!   cut into a [`Shard`] `K/N` (every N-th deal starting at the K-th), so N
//!   machines can share a range with no coordination;
//! - one [`Record`] per decided deal, written as a JSON line the moment the
//!   deal is done ([`RecordWriter`]); a rerun reads the file back
//!   ([`ResultsFile`]) and skips the deals already in it, tolerating the torn
//!   last line a crash can leave;
//! - a [`Summary`] of any set of records, from one run or merged from the
//!   files of every shard: counts per verdict, the winnable share with a 95%
//!   Wilson interval, time percentiles, line lengths, throughput.

use std::collections::HashSet;
use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::cards::SuitCount;
use crate::deal::{Deal, Rules, numbered, pysol};
use crate::solve::{self, Limits, StopReason, Verdict};

/// What can go wrong in a batch: bad ranges or shards, files that cannot be
/// read or written.
#[derive(Debug, thiserror::Error)]
pub enum BatchError {
    /// A range that is not `A..B` with `A <= B`.
    #[error("bad range `{text}`: {reason} (expected A..B, both inclusive, like 1..1000)")]
    Range { text: String, reason: String },
    /// A shard that is not `K/N` with `1 <= K <= N`.
    #[error("bad shard `{text}`: {reason} (expected K/N with 1 <= K <= N, like 3/8)")]
    Shard { text: String, reason: String },
    /// A deal number the chosen source does not have.
    #[error("{0}")]
    Number(String),
    /// A results file that could not be read, written or created.
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
}

impl BatchError {
    fn io(path: &Path, source: std::io::Error) -> BatchError {
        BatchError::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}

/// Where deal numbers come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// The project's own generator ([`numbered`]).
    Own,
    /// PySol's game numbers ([`pysol`]), 4 suits.
    Pysol,
}

impl Source {
    /// The highest number this source has.
    pub fn max_number(self) -> u128 {
        match self {
            Source::Own => u128::from(u64::MAX),
            Source::Pysol => pysol::MAX_GAME,
        }
    }
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Source::Own => "own",
            Source::Pysol => "pysol",
        })
    }
}

/// The deal `number` of `source` with these suits and rules.
pub fn numbered_deal(
    source: Source,
    number: u128,
    suits: SuitCount,
    rules: Rules,
) -> Result<Deal, BatchError> {
    match source {
        Source::Own => {
            let number = u64::try_from(number).map_err(|_| {
                BatchError::Number(format!(
                    "own deal numbers go from 0 to {}; {number} is out of range",
                    u64::MAX
                ))
            })?;
            Ok(numbered::deal(number, suits, rules))
        }
        Source::Pysol => {
            if suits != SuitCount::Four {
                return Err(BatchError::Number(format!(
                    "PySol game numbers are 4-suit Spider deals, not {}-suit",
                    suits.count()
                )));
            }
            pysol::deal(number, rules).map_err(|err| BatchError::Number(err.to_string()))
        }
    }
}

/// An inclusive range of deal numbers, written `A..B` (or just `A`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DealRange {
    pub first: u128,
    pub last: u128,
}

impl FromStr for DealRange {
    type Err = BatchError;

    fn from_str(text: &str) -> Result<DealRange, BatchError> {
        let error = |reason: &str| BatchError::Range {
            text: text.to_string(),
            reason: reason.to_string(),
        };
        let number = |part: &str| {
            part.trim()
                .parse::<u128>()
                .map_err(|_| error(&format!("`{}` is not a deal number", part.trim())))
        };
        let (first, last) = match text.split_once("..") {
            Some((a, b)) => (number(a)?, number(b.strip_prefix('=').unwrap_or(b))?),
            None => {
                let n = number(text)?;
                (n, n)
            }
        };
        if first > last {
            return Err(error("the first number is larger than the last"));
        }
        Ok(DealRange { first, last })
    }
}

impl fmt::Display for DealRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}..{}", self.first, self.last)
    }
}

/// Part `index` of `count` (1-based) of a range: its deals `index`,
/// `index + count`, `index + 2 count`, ... counted from the range's first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u128,
    pub count: u128,
}

impl Shard {
    /// The whole range: shard 1/1.
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// How many deals of `range` this shard holds.
    pub fn len(self, range: DealRange) -> u128 {
        let start = range.first.saturating_add(self.index - 1);
        if start > range.last {
            0
        } else {
            (range.last - start) / self.count + 1
        }
    }

    /// Whether this shard holds no deal of `range`.
    pub fn is_empty(self, range: DealRange) -> bool {
        self.len(range) == 0
    }

    /// The `i`-th deal number (0-based) of this shard of `range`.
    pub fn number(self, range: DealRange, i: u128) -> u128 {
        range.first + (self.index - 1) + i * self.count
    }

    /// Whether deal `number` belongs to this shard of `range`.
    pub fn contains(self, range: DealRange, number: u128) -> bool {
        number >= range.first
            && number <= range.last
            && (number - range.first) % self.count == self.index - 1
    }
}

impl FromStr for Shard {
    type Err = BatchError;

    fn from_str(text: &str) -> Result<Shard, BatchError> {
        let error = |reason: &str| BatchError::Shard {
            text: text.to_string(),
            reason: reason.to_string(),
        };
        let (k, n) = text.split_once('/').ok_or_else(|| error("no `/`"))?;
        let number = |part: &str| {
            part.trim()
                .parse::<u128>()
                .map_err(|_| error(&format!("`{}` is not a number", part.trim())))
        };
        let (index, count) = (number(k)?, number(n)?);
        if count == 0 {
            return Err(error("N must be at least 1"));
        }
        if index == 0 || index > count {
            return Err(error("K must be between 1 and N"));
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

mod rules_text {
    use serde::{Deserialize, Deserializer, Serializer};

    use crate::deal::Rules;

    pub fn serialize<S: Serializer>(rules: &Rules, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(rules)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Rules, D::Error> {
        match String::deserialize(deserializer)?.as_str() {
            "standard" => Ok(Rules::Standard),
            "relaxed" => Ok(Rules::Relaxed),
            other => Err(serde::de::Error::custom(format!(
                "unknown rules `{other}`, expected standard or relaxed"
            ))),
        }
    }
}

mod suits_number {
    use serde::{Deserialize, Deserializer, Serializer};

    use crate::cards::SuitCount;

    pub fn serialize<S: Serializer>(suits: &SuitCount, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_u8(suits.count() as u8)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<SuitCount, D::Error> {
        let count = u8::deserialize(deserializer)?;
        SuitCount::from_count(count.into())
            .ok_or_else(|| serde::de::Error::custom(format!("{count} suits, expected 1, 2 or 4")))
    }
}

/// One decided (or limit-stopped) deal: a line of a results file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    pub number: u128,
    pub source: Source,
    #[serde(with = "suits_number")]
    pub suits: SuitCount,
    #[serde(with = "rules_text")]
    pub rules: Rules,
    pub verdict: Verdict,
    /// The limit that stopped an undecided search.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stopped_by: Option<StopReason>,
    /// Wall-clock seconds spent on this deal.
    pub seconds: f64,
    /// Distinct positions examined.
    pub positions: u64,
    /// Moves of the winning line (deals included), when winnable.
    pub line_length: Option<usize>,
    /// Seconds to the first win, before the time spent shortening its line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_win_seconds: Option<f64>,
    /// When the deal was finished, in seconds since the Unix epoch: lets a
    /// merged summary measure the wall time of a run spread over machines.
    #[serde(default)]
    pub finished_at: f64,
}

/// What makes two records the same deal: a results file holds one record
/// per key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DealKey {
    pub source: Source,
    pub number: u128,
    pub suits: SuitCount,
    pub rules: Rules,
}

impl Record {
    /// The deal this record is about.
    pub fn key(&self) -> DealKey {
        DealKey {
            source: self.source,
            number: self.number,
            suits: self.suits,
            rules: self.rules,
        }
    }
}

/// The records read back from a results file, with what had to be skipped.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ResultsFile {
    pub records: Vec<Record>,
    /// One message per line that was not a record (`line N: ...`).
    pub warnings: Vec<String>,
    /// Bytes of the file up to the end of its last complete line: a torn last
    /// line (no newline, not a record) lies beyond and is to be cut off
    /// before appending.
    pub complete_len: u64,
    /// The file's last line is a record but lacks its newline.
    pub needs_newline: bool,
}

impl ResultsFile {
    /// Reads the JSON lines of a results file. Blank lines are skipped;
    /// lines that are not records are skipped with a warning.
    pub fn parse(text: &str) -> ResultsFile {
        let mut out = ResultsFile::default();
        let mut offset = 0usize;
        for (index, line) in text.split_inclusive('\n').enumerate() {
            let complete = line.ends_with('\n');
            let body = line.trim();
            let line_end = offset + line.len();
            if body.is_empty() {
                if complete {
                    out.complete_len = line_end as u64;
                }
                offset = line_end;
                continue;
            }
            match serde_json::from_str::<Record>(body) {
                Ok(record) => {
                    out.records.push(record);
                    out.complete_len = line_end as u64;
                    out.needs_newline = !complete;
                }
                Err(err) if !complete => out.warnings.push(format!(
                    "line {}: torn last line ignored ({err})",
                    index + 1
                )),
                Err(err) => {
                    out.complete_len = line_end as u64;
                    out.warnings.push(format!(
                        "line {}: not a result record, skipped ({err})",
                        index + 1
                    ));
                }
            }
            offset = line_end;
        }
        out
    }

    /// Reads a results file from disk.
    pub fn read(path: &Path) -> Result<ResultsFile, BatchError> {
        let bytes = std::fs::read(path).map_err(|err| BatchError::io(path, err))?;
        Ok(ResultsFile::parse(&String::from_utf8_lossy(&bytes)))
    }
}

/// Appends records to a results file, one JSON line each, flushed as soon as
/// written, from any number of threads.
pub struct RecordWriter {
    path: PathBuf,
    file: Mutex<File>,
}

impl RecordWriter {
    /// Opens (or creates) a results file for appending and reads back the
    /// records it holds. A torn last line is cut off; a last record that lacks
    /// its newline gets one.
    pub fn open(path: &Path) -> Result<(RecordWriter, ResultsFile), BatchError> {
        let io = |err| BatchError::io(path, err);
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(io)?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes).map_err(io)?;
        let existing = ResultsFile::parse(&String::from_utf8_lossy(&bytes));
        if existing.complete_len < bytes.len() as u64 {
            file.set_len(existing.complete_len).map_err(io)?;
        }
        file.seek(SeekFrom::End(0)).map_err(io)?;
        if existing.needs_newline {
            file.write_all(b"\n").map_err(io)?;
        }
        Ok((
            RecordWriter {
                path: path.to_path_buf(),
                file: Mutex::new(file),
            },
            existing,
        ))
    }

    /// Appends one record as a line and flushes it.
    pub fn write(&self, record: &Record) -> Result<(), BatchError> {
        let mut line = serde_json::to_string(record).expect("records always serialize");
        line.push('\n');
        let mut file = self
            .file
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        file.write_all(line.as_bytes())
            .and_then(|()| file.flush())
            .map_err(|err| BatchError::io(&self.path, err))
    }
}

/// What to run: which deals, how, within which limits.
#[derive(Clone, Debug)]
pub struct BatchConfig {
    pub source: Source,
    pub range: DealRange,
    pub shard: Shard,
    pub suits: SuitCount,
    pub rules: Rules,
    pub limits: Limits,
}

impl BatchConfig {
    /// Checks that the range fits the source and the suits the source.
    pub fn validate(&self) -> Result<(), BatchError> {
        if self.range.last > self.source.max_number() {
            return Err(BatchError::Number(format!(
                "{} deal numbers go from 0 to {}; the range {} goes past it",
                self.source,
                self.source.max_number(),
                self.range
            )));
        }
        if self.source == Source::Pysol && self.suits != SuitCount::Four {
            return Err(BatchError::Number(format!(
                "PySol game numbers are 4-suit Spider deals, not {}-suit",
                self.suits.count()
            )));
        }
        Ok(())
    }

    /// The key of deal `number` under this configuration.
    pub fn key(&self, number: u128) -> DealKey {
        DealKey {
            source: self.source,
            number,
            suits: self.suits,
            rules: self.rules,
        }
    }

    /// Whether `record` is one of this batch's deals.
    pub fn includes(&self, record: &Record) -> bool {
        record.source == self.source
            && record.suits == self.suits
            && record.rules == self.rules
            && self.shard.contains(self.range, record.number)
    }

    /// How many deals this batch has.
    pub fn len(&self) -> u128 {
        self.shard.len(self.range)
    }

    /// Whether this batch has no deal.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Decides one deal and makes its record.
pub fn decide(
    config: &BatchConfig,
    number: u128,
    cancel: &AtomicBool,
) -> Result<Record, BatchError> {
    let start = Instant::now();
    let deal = numbered_deal(config.source, number, config.suits, config.rules)?;
    let analysis = solve::analyze(&deal, &config.limits, cancel)
        .map_err(|err| BatchError::Number(format!("deal {number}: {err}")))?;
    let seconds = start.elapsed().as_secs_f64();
    Ok(Record {
        number,
        source: config.source,
        suits: config.suits,
        rules: config.rules,
        verdict: analysis.verdict,
        stopped_by: match analysis.verdict {
            Verdict::Undecided => analysis.stopped_by,
            _ => None,
        },
        seconds,
        positions: analysis.positions,
        line_length: analysis.line.as_ref().map(Vec::len),
        first_win_seconds: analysis.first_win.map(|(time, _)| time.as_secs_f64()),
        finished_at: SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_secs_f64())
            .unwrap_or(0.0),
    })
}

/// Decides every deal of the batch not in `done`, in parallel on the current
/// rayon pool, handing each record to `on_record` as soon as it is decided.
///
/// Once `cancel` is set no new deal starts, and a deal that ends undecided
/// while it is set is dropped (it was cut short, not decided). The first
/// error from `on_record` sets `cancel` and is returned. Returns how many
/// records were handed over.
pub fn run(
    config: &BatchConfig,
    done: &HashSet<DealKey>,
    cancel: &AtomicBool,
    on_record: &(dyn Fn(Record) -> Result<(), BatchError> + Sync),
) -> Result<u64, BatchError> {
    config.validate()?;
    let failure: Mutex<Option<BatchError>> = Mutex::new(None);
    let written = std::sync::atomic::AtomicU64::new(0);
    (0..config.len()).into_par_iter().for_each(|i| {
        if cancel.load(Ordering::Relaxed) {
            return;
        }
        let number = config.shard.number(config.range, i);
        if done.contains(&config.key(number)) {
            return;
        }
        let result = decide(config, number, cancel).and_then(|record| {
            if record.verdict == Verdict::Undecided && cancel.load(Ordering::Relaxed) {
                return Ok(());
            }
            on_record(record)?;
            written.fetch_add(1, Ordering::Relaxed);
            Ok(())
        });
        if let Err(err) = result {
            cancel.store(true, Ordering::Relaxed);
            failure
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .get_or_insert(err);
        }
    });
    match failure
        .into_inner()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
    {
        Some(err) => Err(err),
        None => Ok(written.into_inner()),
    }
}

/// The 95% two-sided normal quantile.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The Wilson score interval for `successes` out of `trials` at normal
/// quantile `z`; `None` for no trials.
pub fn wilson_interval(successes: u64, trials: u64, z: f64) -> Option<(f64, f64)> {
    if trials == 0 {
        return None;
    }
    let n = trials as f64;
    let p = successes as f64 / n;
    let z2 = z * z;
    let denominator = 1.0 + z2 / n;
    let center = (p + z2 / (2.0 * n)) / denominator;
    let half = z / denominator * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    Some(((center - half).max(0.0), (center + half).min(1.0)))
}

/// The `p`-th percentile (0 to 100) of ascending `sorted` values, by linear
/// interpolation between closest ranks (the usual median for p = 50; NumPy's
/// and R's default); `None` for no values.
pub fn percentile(sorted: &[f64], p: f64) -> Option<f64> {
    if sorted.is_empty() {
        return None;
    }
    let rank = p.clamp(0.0, 100.0) / 100.0 * (sorted.len() - 1) as f64;
    let below = rank.floor() as usize;
    let above = rank.ceil() as usize;
    Some(sorted[below] + (sorted[above] - sorted[below]) * (rank - below as f64))
}

/// A share with its 95% Wilson interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Share {
    pub count: u64,
    pub of: u64,
    pub share: f64,
    pub low: f64,
    pub high: f64,
}

impl Share {
    fn new(count: u64, of: u64) -> Option<Share> {
        let (low, high) = wilson_interval(count, of, Z95)?;
        Some(Share {
            count,
            of,
            share: count as f64 / of as f64,
            low,
            high,
        })
    }
}

/// Undecided deals by the limit that stopped them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct StopCounts {
    pub positions: u64,
    pub time: u64,
    pub memory: u64,
    pub cancelled: u64,
    /// Decided but for lines that turn up unknown cards.
    pub unknown_cards: u64,
    /// Records that give no reason.
    pub unknown: u64,
}

/// What a set of records says.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    pub deals: u64,
    pub winnable: u64,
    pub unwinnable: u64,
    pub undecided: u64,
    pub undecided_by: StopCounts,
    /// Decided deals (winnable or unwinnable) over all deals.
    pub decided_share: Option<f64>,
    /// Winnable deals among the decided ones.
    pub winnable_of_decided: Option<Share>,
    /// Winnable deals among all deals (undecided counted as not won).
    pub winnable_of_all: Option<Share>,
    pub median_seconds: Option<f64>,
    pub p95_seconds: Option<f64>,
    pub median_line_length: Option<f64>,
    /// Median seconds to the first win, over winnable deals that record it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub median_first_win_seconds: Option<f64>,
    /// Sum of the per-deal seconds.
    pub solve_seconds: f64,
    /// Wall-clock seconds of the run (measured by a live run; for merged
    /// files, from the first deal's start to the last deal's end).
    pub wall_seconds: Option<f64>,
    /// Deals per wall-clock second.
    pub deals_per_second: Option<f64>,
}

impl Summary {
    /// Summarizes records. `wall` is the run's measured wall-clock seconds
    /// and `deals_in_wall` how many deals it decided in that time; with
    /// `None` the wall time is the span of the records' own timestamps.
    pub fn of(records: &[Record], wall: Option<(f64, u64)>) -> Summary {
        let count = |outcome| records.iter().filter(|r| r.verdict == outcome).count() as u64;
        let (winnable, unwinnable, undecided) = (
            count(Verdict::Winnable),
            count(Verdict::Unwinnable),
            count(Verdict::Undecided),
        );
        let mut undecided_by = StopCounts::default();
        for record in records.iter().filter(|r| r.verdict == Verdict::Undecided) {
            match record.stopped_by {
                Some(StopReason::Positions) => undecided_by.positions += 1,
                Some(StopReason::Time) => undecided_by.time += 1,
                Some(StopReason::Memory) => undecided_by.memory += 1,
                Some(StopReason::Cancelled) => undecided_by.cancelled += 1,
                Some(StopReason::UnknownCards) => undecided_by.unknown_cards += 1,
                None => undecided_by.unknown += 1,
            }
        }
        let deals = records.len() as u64;
        let decided = winnable + unwinnable;
        let mut seconds: Vec<f64> = records.iter().map(|r| r.seconds).collect();
        seconds.sort_by(f64::total_cmp);
        let mut lines: Vec<f64> = records
            .iter()
            .filter(|r| r.verdict == Verdict::Winnable)
            .filter_map(|r| r.line_length)
            .map(|n| n as f64)
            .collect();
        lines.sort_by(f64::total_cmp);
        let mut first_wins: Vec<f64> = records.iter().filter_map(|r| r.first_win_seconds).collect();
        first_wins.sort_by(f64::total_cmp);
        let (wall_seconds, rate_deals) = match wall {
            Some((seconds, deals_in_wall)) => (Some(seconds), deals_in_wall),
            None => {
                let stamped: Vec<&Record> =
                    records.iter().filter(|r| r.finished_at > 0.0).collect();
                let start = stamped
                    .iter()
                    .map(|r| r.finished_at - r.seconds)
                    .min_by(f64::total_cmp);
                let end = stamped.iter().map(|r| r.finished_at).max_by(f64::total_cmp);
                (start.zip(end).map(|(s, e)| e - s), stamped.len() as u64)
            }
        };
        Summary {
            deals,
            winnable,
            unwinnable,
            undecided,
            undecided_by,
            decided_share: (deals > 0).then(|| decided as f64 / deals as f64),
            winnable_of_decided: Share::new(winnable, decided),
            winnable_of_all: Share::new(winnable, deals),
            median_seconds: percentile(&seconds, 50.0),
            p95_seconds: percentile(&seconds, 95.0),
            median_line_length: percentile(&lines, 50.0),
            median_first_win_seconds: percentile(&first_wins, 50.0),
            solve_seconds: seconds.iter().sum(),
            wall_seconds,
            deals_per_second: wall_seconds
                .filter(|&w| w > 0.0)
                .map(|w| rate_deals as f64 / w),
        }
    }
}

/// Merges the records of several results files: the first record of each
/// deal wins; later duplicates are counted, not used.
pub fn merge(files: Vec<ResultsFile>) -> (Vec<Record>, u64) {
    let mut seen = HashSet::new();
    let mut records = Vec::new();
    let mut duplicates = 0;
    for record in files.into_iter().flat_map(|file| file.records) {
        if seen.insert(record.key()) {
            records.push(record);
        } else {
            duplicates += 1;
        }
    }
    (records, duplicates)
}

fn percent(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

fn duration(seconds: f64) -> String {
    if seconds < 60.0 {
        format!("{seconds:.3} s")
    } else {
        let total = seconds.round() as u64;
        let (h, m, s) = (total / 3600, total / 60 % 60, total % 60);
        if h > 0 {
            format!("{h}h {m:02}m {s:02}s")
        } else {
            format!("{m}m {s:02}s")
        }
    }
}

impl fmt::Display for Summary {
    /// The summary for people, one fact a line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let of_all = |n: u64| {
            if self.deals == 0 {
                String::new()
            } else {
                format!("  {:>6}", percent(n as f64 / self.deals as f64))
            }
        };
        writeln!(f, "deals         {:>8}", self.deals)?;
        writeln!(
            f,
            "winnable      {:>8}{}",
            self.winnable,
            of_all(self.winnable)
        )?;
        writeln!(
            f,
            "unwinnable    {:>8}{}",
            self.unwinnable,
            of_all(self.unwinnable)
        )?;
        write!(
            f,
            "undecided     {:>8}{}",
            self.undecided,
            of_all(self.undecided)
        )?;
        let by = self.undecided_by;
        let reasons: Vec<String> = [
            ("time", by.time),
            ("positions", by.positions),
            ("memory", by.memory),
            ("cancelled", by.cancelled),
            ("unknown cards", by.unknown_cards),
            ("no reason given", by.unknown),
        ]
        .iter()
        .filter(|(_, n)| *n > 0)
        .map(|(name, n)| format!("{name} {n}"))
        .collect();
        if reasons.is_empty() {
            writeln!(f)?;
        } else {
            writeln!(f, "  (stopped by {})", reasons.join(", "))?;
        }
        if let Some(decided) = self.decided_share {
            writeln!(f, "decided       {:>8}", percent(decided))?;
        }
        for (name, share, none) in [
            (
                "winnable of decided",
                self.winnable_of_decided,
                "no deal decided",
            ),
            ("winnable of all", self.winnable_of_all, "no deals"),
        ] {
            match share {
                Some(s) => writeln!(
                    f,
                    "{name:<20} {} ({}/{}; 95% CI {} to {})",
                    percent(s.share),
                    s.count,
                    s.of,
                    percent(s.low),
                    percent(s.high)
                )?,
                None => writeln!(f, "{name:<20} n/a ({none})")?,
            }
        }
        match (self.median_seconds, self.p95_seconds) {
            (Some(median), Some(p95)) => writeln!(
                f,
                "time per deal        median {}, 95th percentile {}",
                duration(median),
                duration(p95)
            )?,
            _ => writeln!(f, "time per deal        n/a")?,
        }
        match self.median_line_length {
            Some(median) => writeln!(f, "winning line         median {median} moves")?,
            None => writeln!(f, "winning line         n/a (no winnable deal)")?,
        }
        if let Some(first) = self.median_first_win_seconds {
            writeln!(f, "first win            median {}", duration(first))?;
        }
        write!(f, "wall time            ")?;
        match self.wall_seconds {
            Some(wall) => write!(f, "{}", duration(wall))?,
            None => write!(f, "n/a")?,
        }
        if let Some(rate) = self.deals_per_second {
            write!(f, ", {rate:.2} deals/s")?;
        }
        writeln!(f, " (solver time {})", duration(self.solve_seconds))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(number: u128, verdict: Verdict, seconds: f64, line: Option<usize>) -> Record {
        Record {
            number,
            source: Source::Own,
            suits: SuitCount::Four,
            rules: Rules::Standard,
            verdict,
            stopped_by: (verdict == Verdict::Undecided).then_some(StopReason::Time),
            seconds,
            positions: 10,
            line_length: line,
            first_win_seconds: None,
            finished_at: 1000.0 + number as f64,
        }
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 5e-5
    }

    #[test]
    fn wilson_interval_known_values() {
        // Textbook values: 0 of 10 -> [0, 0.2775]; 5 of 10 -> [0.2366,
        // 0.7634]; 10 of 10 -> [0.7225, 1]; 1 of 10 -> [0.0179, 0.4042].
        let (lo, hi) = wilson_interval(0, 10, Z95).unwrap();
        assert!(close(lo, 0.0) && close(hi, 0.2775), "{lo} {hi}");
        let (lo, hi) = wilson_interval(5, 10, Z95).unwrap();
        assert!(close(lo, 0.2366) && close(hi, 0.7634), "{lo} {hi}");
        let (lo, hi) = wilson_interval(10, 10, Z95).unwrap();
        assert!(close(lo, 0.7225) && close(hi, 1.0), "{lo} {hi}");
        let (lo, hi) = wilson_interval(1, 10, Z95).unwrap();
        assert!(close(lo, 0.0179) && close(hi, 0.4042), "{lo} {hi}");
        assert_eq!(wilson_interval(0, 0, Z95), None);
    }

    #[test]
    fn percentiles_interpolate_between_ranks() {
        assert_eq!(percentile(&[], 50.0), None);
        assert_eq!(percentile(&[7.0], 95.0), Some(7.0));
        assert_eq!(percentile(&[1.0, 2.0, 3.0, 4.0], 50.0), Some(2.5));
        assert_eq!(percentile(&[1.0, 2.0, 3.0], 50.0), Some(2.0));
        let twenty: Vec<f64> = (1..=20).map(f64::from).collect();
        // NumPy: np.percentile(range(1, 21), 95) == 19.05
        assert!(close(percentile(&twenty, 95.0).unwrap(), 19.05));
        assert_eq!(percentile(&twenty, 0.0), Some(1.0));
        assert_eq!(percentile(&twenty, 100.0), Some(20.0));
    }

    #[test]
    fn ranges_parse_inclusive() {
        assert_eq!(
            "1..1000".parse::<DealRange>().unwrap(),
            DealRange {
                first: 1,
                last: 1000
            }
        );
        assert_eq!(
            "5..=7".parse::<DealRange>().unwrap(),
            DealRange { first: 5, last: 7 }
        );
        assert_eq!(
            "42".parse::<DealRange>().unwrap(),
            DealRange {
                first: 42,
                last: 42
            }
        );
        assert_eq!(
            " 3 .. 3 ".parse::<DealRange>().unwrap(),
            DealRange { first: 3, last: 3 }
        );
        for bad in ["", "..", "a..b", "5..1", "1..", "..4", "-1..3", "1...3"] {
            let err = bad.parse::<DealRange>().unwrap_err();
            assert!(err.to_string().contains(&format!("`{bad}`")), "{err}");
        }
    }

    #[test]
    fn shards_split_a_range_without_overlap() {
        assert_eq!(
            "3/8".parse::<Shard>().unwrap(),
            Shard { index: 3, count: 8 }
        );
        for bad in ["0/3", "4/3", "1/0", "3", "a/b", "/2", "1/"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        let range = DealRange {
            first: 10,
            last: 29,
        };
        let mut all = Vec::new();
        for k in 1..=3 {
            let shard = Shard { index: k, count: 3 };
            let numbers: Vec<u128> = (0..shard.len(range))
                .map(|i| shard.number(range, i))
                .collect();
            assert!(numbers.iter().all(|&n| shard.contains(range, n)));
            all.extend(numbers);
        }
        all.sort();
        assert_eq!(all, (10..=29).collect::<Vec<u128>>());
        let shard = Shard { index: 1, count: 3 };
        assert_eq!(
            (0..shard.len(range))
                .map(|i| shard.number(range, i))
                .collect::<Vec<_>>(),
            [10, 13, 16, 19, 22, 25, 28]
        );
        // A shard can be empty when the range is short.
        let tiny = DealRange { first: 1, last: 2 };
        assert_eq!(Shard { index: 3, count: 4 }.len(tiny), 0);
        assert_eq!(Shard::WHOLE.len(tiny), 2);
    }

    #[test]
    fn records_round_trip_as_json_lines() {
        let mut r = record(u128::from(u64::MAX) + 7, Verdict::Winnable, 0.5, Some(120));
        r.source = Source::Pysol;
        r.rules = Rules::Relaxed;
        r.suits = SuitCount::Two;
        r.stopped_by = None;
        let line = serde_json::to_string(&r).unwrap();
        assert!(line.contains("\"source\":\"pysol\""), "{line}");
        assert!(line.contains("\"suits\":2"), "{line}");
        assert!(line.contains("\"rules\":\"relaxed\""), "{line}");
        assert!(line.contains("\"verdict\":\"winnable\""), "{line}");
        assert!(line.contains("\"line_length\":120"), "{line}");
        assert_eq!(serde_json::from_str::<Record>(&line).unwrap(), r);
    }

    #[test]
    fn resume_reads_records_and_drops_a_torn_last_line() {
        let a = serde_json::to_string(&record(1, Verdict::Winnable, 1.0, Some(90))).unwrap();
        let b = serde_json::to_string(&record(2, Verdict::Undecided, 2.0, None)).unwrap();
        let text = format!("{a}\n{b}\n{}", &a[..a.len() / 2]);
        let file = ResultsFile::parse(&text);
        assert_eq!(file.records.len(), 2);
        assert_eq!(file.records[1].number, 2);
        assert_eq!(file.complete_len, (a.len() + b.len() + 2) as u64);
        assert!(!file.needs_newline);
        assert_eq!(file.warnings.len(), 1);
        assert!(
            file.warnings[0].starts_with("line 3: torn"),
            "{:?}",
            file.warnings
        );

        // A garbled line in the middle is skipped, not cut.
        let text = format!("{a}\ngarbage\n{b}");
        let file = ResultsFile::parse(&text);
        assert_eq!(file.records.len(), 2);
        assert_eq!(file.complete_len, text.len() as u64);
        assert!(file.needs_newline);
        assert!(file.warnings[0].starts_with("line 2: not a result record"));
    }

    #[test]
    fn writer_cuts_the_torn_line_and_appends() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("results.jsonl");
        let a = serde_json::to_string(&record(1, Verdict::Winnable, 1.0, Some(90))).unwrap();
        std::fs::write(&path, format!("{a}\n{{\"number\":2,\"sou")).unwrap();
        let (writer, existing) = RecordWriter::open(&path).unwrap();
        assert_eq!(existing.records.len(), 1);
        assert_eq!(existing.warnings.len(), 1);
        writer
            .write(&record(3, Verdict::Unwinnable, 1.5, None))
            .unwrap();
        drop(writer);
        let again = ResultsFile::read(&path).unwrap();
        assert!(again.warnings.is_empty(), "{:?}", again.warnings);
        let numbers: Vec<u128> = again.records.iter().map(|r| r.number).collect();
        assert_eq!(numbers, [1, 3]);
    }

    #[test]
    fn summary_counts_shares_and_times() {
        let records = vec![
            record(1, Verdict::Winnable, 1.0, Some(100)),
            record(2, Verdict::Winnable, 2.0, Some(200)),
            record(3, Verdict::Unwinnable, 3.0, None),
            record(4, Verdict::Undecided, 4.0, None),
        ];
        let summary = Summary::of(&records, None);
        assert_eq!(
            (
                summary.deals,
                summary.winnable,
                summary.unwinnable,
                summary.undecided
            ),
            (4, 2, 1, 1)
        );
        assert_eq!(summary.undecided_by.time, 1);
        assert_eq!(summary.decided_share, Some(0.75));
        let decided = summary.winnable_of_decided.unwrap();
        assert_eq!((decided.count, decided.of), (2, 3));
        assert!(close(decided.share, 2.0 / 3.0));
        let (lo, hi) = wilson_interval(2, 3, Z95).unwrap();
        assert_eq!((decided.low, decided.high), (lo, hi));
        assert_eq!(summary.winnable_of_all.unwrap().of, 4);
        assert_eq!(summary.median_seconds, Some(2.5));
        assert!(close(summary.p95_seconds.unwrap(), 3.85));
        assert_eq!(summary.median_line_length, Some(150.0));
        assert_eq!(summary.solve_seconds, 10.0);
        // Deal 1 started at 1001 - 1 = 1000, deal 4 ended at 1004.
        assert_eq!(summary.wall_seconds, Some(4.0));
        assert_eq!(summary.deals_per_second, Some(1.0));
        let text = summary.to_string();
        assert!(
            text.contains("winnable of decided  66.7% (2/3; 95% CI"),
            "{text}"
        );
        assert!(text.contains("(stopped by time 1)"), "{text}");

        let live = Summary::of(&records, Some((8.0, 2)));
        assert_eq!(live.wall_seconds, Some(8.0));
        assert_eq!(live.deals_per_second, Some(0.25));

        let empty = Summary::of(&[], None);
        assert_eq!(empty.winnable_of_all, None);
        assert!(empty.to_string().contains("n/a"));
    }

    #[test]
    fn merging_keeps_one_record_per_deal() {
        let one = ResultsFile {
            records: vec![
                record(1, Verdict::Winnable, 1.0, Some(5)),
                record(2, Verdict::Unwinnable, 1.0, None),
            ],
            ..ResultsFile::default()
        };
        let mut relaxed = record(2, Verdict::Winnable, 1.0, Some(7));
        relaxed.rules = Rules::Relaxed;
        let two = ResultsFile {
            records: vec![
                record(2, Verdict::Winnable, 9.0, Some(9)),
                record(3, Verdict::Undecided, 1.0, None),
                relaxed,
            ],
            ..ResultsFile::default()
        };
        let (records, duplicates) = merge(vec![one, two]);
        assert_eq!(duplicates, 1);
        assert_eq!(records.len(), 4);
        assert_eq!(records[1].verdict, Verdict::Unwinnable);
    }

    #[test]
    fn numbered_deal_checks_the_source() {
        assert!(numbered_deal(Source::Own, 5, SuitCount::One, Rules::Standard).is_ok());
        assert!(
            numbered_deal(
                Source::Own,
                u128::from(u64::MAX) + 1,
                SuitCount::Four,
                Rules::Standard
            )
            .is_err()
        );
        assert!(numbered_deal(Source::Pysol, 5, SuitCount::Two, Rules::Standard).is_err());
        assert!(
            numbered_deal(
                Source::Pysol,
                pysol::MAX_GAME + 1,
                SuitCount::Four,
                Rules::Standard
            )
            .is_err()
        );
    }

    #[test]
    fn run_decides_each_deal_once_and_skips_done_ones() {
        let config = BatchConfig {
            source: Source::Own,
            range: DealRange { first: 1, last: 10 },
            shard: Shard { index: 2, count: 3 },
            suits: SuitCount::Four,
            rules: Rules::Standard,
            limits: Limits::default(),
        };
        let done: HashSet<DealKey> = [config.key(5)].into_iter().collect();
        let got = Mutex::new(Vec::new());
        let cancel = AtomicBool::new(false);
        let n = run(&config, &done, &cancel, &|r| {
            got.lock().unwrap().push(r.number);
            Ok(())
        })
        .unwrap();
        let mut got = got.into_inner().unwrap();
        got.sort();
        assert_eq!(got, [2, 8]);
        assert_eq!(n, 2);

        // Once cancelled, nothing more is written.
        let cancel = AtomicBool::new(true);
        assert_eq!(
            run(&config, &HashSet::new(), &cancel, &|_| Ok(())).unwrap(),
            0
        );
    }
}
