//! The results file: one JSON line per decided deal, appended as deals are
//! decided, read back to resume a run or to merge the files of many runs.

use std::collections::HashSet;
use std::fs::OpenOptions;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::{Deserialize, Serialize};

use crate::cards::SuitCount;
use crate::deal::Rules;
use crate::solve::{StopReason, Verdict};

use super::{BatchError, Source};

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
    /// The winning line itself, in the compact notation of `spider replay`
    /// (`4-3/1 deal ...`), replayed by the rules before it was written;
    /// absent for the other verdicts and in files written before it was kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<String>,
    /// Seconds to the first win, before the time spent shortening its line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_win_seconds: Option<f64>,
    /// When the deal was finished, in seconds since the Unix epoch: lets a
    /// merged summary measure the wall time of a run spread over machines.
    #[serde(default)]
    pub finished_at: f64,
    /// `batch --hidden`: the deal played blind, beside the verdict with
    /// every card known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blind: Option<BlindRecord>,
}

/// A deal played by the blind player (`spider batch --hidden`), with the
/// settings that played it (a results file holds one set of settings).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BlindRecord {
    pub won: bool,
    /// Moves played (deals included).
    pub moves: usize,
    /// Times the player sampled and solved.
    pub decisions: usize,
    /// Moves played with no plan.
    pub unplanned_moves: usize,
    pub runs_removed: usize,
    pub face_down_left: usize,
    /// Wall seconds the game took.
    pub seconds: f64,
    /// CPU seconds the game took, read from the clock of the thread that
    /// played it; absent in files written before it was kept (their
    /// `seconds` were wall seconds of one thread, an upper bound of it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_seconds: Option<f64>,
    /// Wall seconds of the move that took longest to choose (absent in
    /// files written before it was kept).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slowest_move_seconds: Option<f64>,
    /// How the game ended (`won`, `no move left`, `no progress`, ...).
    pub ended: String,
    pub settings: BlindSettings,
    /// The seed of this game's own draws: the study's seed mixed with the
    /// deal's number ([`crate::unknown::blind::HiddenSettings::for_deal`]),
    /// so that `spider play --blind --seed` with it plays the same game;
    /// absent in files written before it was kept (2026-11-28).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game_seed: Option<u64>,
    /// The player's raw chance shown at each move, in order (`null` where
    /// it showed none): the share of its playouts or sampled completions
    /// won, before calibration. What the calibration of the chance is
    /// fitted on and checked against ([`crate::unknown::chance`]); absent
    /// in files written before it was kept.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub chances: Vec<Option<f32>>,
    /// The moves played, in order, in `spider replay`'s compact form
    /// (`4-3/1`, `deal`) separated by spaces: the positions the player met,
    /// which the chance a player is shown is fitted on; absent in
    /// files written before it was kept.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub line: String,
}

/// The settings of the blind player, as a results file keeps them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BlindSettings {
    /// The player's name (`rollout`, `hop`); files written before there
    /// was a choice were played by `hop`.
    #[serde(default = "hop")]
    pub player: String,
    pub samples: usize,
    pub max_positions: Option<u64>,
    pub max_moves: usize,
    /// Positions of the lookahead (0: none).
    #[serde(default)]
    pub lookahead: usize,
    /// Positions of the lookahead player's late search, with at most one
    /// stock row left (none, as in files written before there was one:
    /// the lookahead's to the end).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub late_lookahead: Option<usize>,
    /// Samples of HOP's check of the card to turn up (0, as in files
    /// written before there was one: none).
    #[serde(default)]
    pub check: usize,
    pub seed: u64,
}

fn hop() -> String {
    "hop".into()
}

impl BlindSettings {
    /// Whether a game played with these settings plays as with `other`:
    /// the same in everything, a late search as wide as the lookahead
    /// counting as none (the same budget to the end, as in files written
    /// before there was a late search).
    pub fn plays_as(&self, other: &BlindSettings) -> bool {
        let plain = |s: &BlindSettings| BlindSettings {
            late_lookahead: s.late_lookahead.filter(|&late| late != s.lookahead),
            ..s.clone()
        };
        plain(self) == plain(other)
    }
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

/// The first line of every results file this version writes: it says what
/// the file is, so that `--output notes.txt` cannot append records to (or
/// resume from) a file that is not a results file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    /// The results file format version (1).
    pub spider_batch_results: u32,
    /// The program that created the file, like `spider 0.1.0`.
    #[serde(default)]
    pub written_by: String,
}

impl Header {
    /// The header this version writes.
    pub fn current() -> Header {
        Header {
            spider_batch_results: 1,
            written_by: concat!("spider ", env!("CARGO_PKG_VERSION")).to_string(),
        }
    }
}

/// The records read back from a results file, with what had to be skipped.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ResultsFile {
    /// The header line, when the file starts with one.
    pub header: Option<Header>,
    pub records: Vec<Record>,
    /// One message per line that was not a record (`line N: ...`).
    pub warnings: Vec<String>,
    /// The first line that is not blank, when it is neither the header nor
    /// a record: the file is then not a results file.
    pub stray_first_line: Option<usize>,
    /// The file's last line lacks its newline (a record, or a line torn by
    /// an interruption): one is added before appending.
    pub needs_newline: bool,
    /// The 1-based line of each record, in the order of `records`.
    pub record_lines: Vec<usize>,
    /// The lines that are not records (the header apart), 1-based.
    pub stray_lines: Vec<usize>,
}

/// The first four bytes of a Zstandard frame.
const ZSTD_MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];

/// Whether `bytes` start as a Zstandard frame does (a `.zst` file).
pub fn is_compressed(bytes: &[u8]) -> bool {
    bytes.starts_with(&ZSTD_MAGIC)
}

impl ResultsFile {
    /// Reads the JSON lines of a results file. Blank lines are skipped;
    /// lines that are not records are skipped with a warning.
    pub fn parse(text: &str) -> ResultsFile {
        let mut out = ResultsFile::default();
        let mut seen_content = false;
        for (index, line) in text.split_inclusive('\n').enumerate() {
            let complete = line.ends_with('\n');
            let body = line.trim();
            if body.is_empty() {
                continue;
            }
            out.needs_newline = !complete;
            let first = !seen_content;
            seen_content = true;
            if first && let Ok(header) = serde_json::from_str::<Header>(body) {
                out.header = Some(header);
                continue;
            }
            match serde_json::from_str::<Record>(body) {
                Ok(record) => {
                    out.records.push(record);
                    out.record_lines.push(index + 1);
                }
                Err(err) => {
                    out.stray_lines.push(index + 1);
                    if first {
                        out.stray_first_line = Some(index + 1);
                    }
                    out.warnings.push(if complete {
                        format!("line {}: not a result record, skipped ({err})", index + 1)
                    } else {
                        format!(
                            "line {}: torn last line (an interrupted write?) ignored ({err})",
                            index + 1
                        )
                    });
                }
            }
        }
        out
    }

    /// Whether the file is a results file: its first line that is not
    /// blank is the [`Header`] or (in files written before headers) a
    /// record. An empty file is not one.
    pub fn is_results_file(&self) -> bool {
        self.header.is_some() || (self.stray_first_line.is_none() && !self.records.is_empty())
    }

    /// Reads a results file from disk, plain or compressed with Zstandard
    /// (told by its first bytes, whatever its name); refuses a file that is
    /// not one (see [`ResultsFile::is_results_file`]).
    pub fn read(path: &Path) -> Result<ResultsFile, BatchError> {
        let mut bytes = std::fs::read(path).map_err(|err| BatchError::io(path, err))?;
        if is_compressed(&bytes) {
            bytes = zstd::stream::decode_all(&bytes[..]).map_err(|err| {
                BatchError::io(
                    path,
                    std::io::Error::new(
                        err.kind(),
                        format!("cannot decompress this Zstandard file: {err}"),
                    ),
                )
            })?;
        }
        let file = ResultsFile::parse(&String::from_utf8_lossy(&bytes));
        if !file.is_results_file() {
            return Err(not_results(path, &file));
        }
        Ok(file)
    }
}

fn not_results(path: &Path, file: &ResultsFile) -> BatchError {
    BatchError::NotResults {
        path: path.to_path_buf(),
        line: file.stray_first_line.unwrap_or(1),
    }
}

/// Appends records to a results file, one JSON line each, flushed as soon as
/// written, from any number of threads.
pub struct RecordWriter {
    path: PathBuf,
    /// The results file (holding its lock), or a stream written into.
    file: Mutex<Box<dyn Write + Send>>,
}

impl RecordWriter {
    /// Opens a results file for appending and reads back the records it
    /// holds; a new (or empty) file gets the [`Header`]. A file that is not a
    /// results file is refused and left untouched. Nothing is ever cut: a
    /// torn last line is ended with a newline and stays, skipped by readers.
    ///
    /// The file is locked (an advisory lock, released when the writer is
    /// dropped or the process ends): a second batch on the same file is
    /// refused while the first runs, so no deal is recorded twice.
    ///
    /// `-` (standard output), a FIFO, a terminal or another device is not
    /// read back, only written into: the header, then the records.
    pub fn open(path: &Path) -> Result<(RecordWriter, ResultsFile), BatchError> {
        let io = |err| BatchError::io(path, err);
        let stream: Option<Box<dyn Write + Send>> = if path.as_os_str() == "-" {
            Some(Box::new(std::io::stdout()))
        } else {
            match std::fs::metadata(path) {
                Ok(meta) if meta.is_dir() => {
                    return Err(io(std::io::Error::from(std::io::ErrorKind::IsADirectory)));
                }
                Ok(meta) if !meta.is_file() => Some(Box::new(
                    OpenOptions::new().write(true).open(path).map_err(io)?,
                )),
                _ => None,
            }
        };
        if let Some(mut stream) = stream {
            let mut line = serde_json::to_string(&Header::current()).expect("headers serialize");
            line.push('\n');
            stream
                .write_all(line.as_bytes())
                .and_then(|()| stream.flush())
                .map_err(io)?;
            let writer = RecordWriter {
                path: path.to_path_buf(),
                file: Mutex::new(stream),
            };
            return Ok((writer, ResultsFile::parse("")));
        }
        // A batch writes plain lines: a `.zst` name is refused before a
        // file of that name is created (a compressed file is refused below).
        if path.extension().is_some_and(|ext| ext == "zst") {
            return Err(BatchError::Compressed(path.to_path_buf()));
        }
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(path)
            .map_err(io)?;
        match file.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => {
                return Err(BatchError::Locked(path.to_path_buf()));
            }
            Err(std::fs::TryLockError::Error(err)) => return Err(io(err)),
        }
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes).map_err(io)?;
        if is_compressed(&bytes) {
            return Err(BatchError::Compressed(path.to_path_buf()));
        }
        let text = String::from_utf8_lossy(&bytes);
        let existing = ResultsFile::parse(&text);
        if text.trim().is_empty() {
            let mut line = serde_json::to_string(&Header::current()).expect("headers serialize");
            line.insert(0, '\n');
            line.push('\n');
            // An empty file gets the header; blank lines before it are kept.
            let line = if bytes.is_empty() {
                &line[1..]
            } else {
                &line[..]
            };
            file.write_all(line.as_bytes()).map_err(io)?;
        } else if !existing.is_results_file() {
            return Err(not_results(path, &existing));
        } else if existing.needs_newline {
            file.write_all(b"\n").map_err(io)?;
        }
        file.flush().map_err(io)?;
        Ok((
            RecordWriter {
                path: path.to_path_buf(),
                file: Mutex::new(Box::new(file)),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::batch::test_support::record;

    /// A late search as wide as the lookahead plays as none: a file
    /// written before there was one (no `late_lookahead`) resumes with
    /// `--late-lookahead` equal to `--lookahead`, and with no other.
    #[test]
    fn a_late_search_as_wide_as_the_lookahead_plays_as_none() {
        let old: BlindSettings = serde_json::from_str(
            r#"{"player":"lookahead","samples":3,"max_positions":50000,"max_moves":1000,"lookahead":50000,"check":0,"seed":1}"#,
        )
        .unwrap();
        assert_eq!(old.late_lookahead, None);
        let with = |late| BlindSettings {
            late_lookahead: late,
            ..old.clone()
        };
        assert!(with(Some(50_000)).plays_as(&old));
        assert!(old.plays_as(&with(Some(50_000))));
        assert!(!with(Some(1_000_000)).plays_as(&old));
        assert!(!with(Some(1_000_000)).plays_as(&with(Some(50_000))));
        assert!(with(Some(1_000_000)).plays_as(&with(Some(1_000_000))));
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
    fn resume_reads_records_and_skips_a_torn_last_line() {
        let a = serde_json::to_string(&record(1, Verdict::Winnable, 1.0, Some(90))).unwrap();
        let b = serde_json::to_string(&record(2, Verdict::Undecided, 2.0, None)).unwrap();
        let text = format!("{a}\n{b}\n{}", &a[..a.len() / 2]);
        let file = ResultsFile::parse(&text);
        assert_eq!(file.records.len(), 2);
        assert_eq!(file.records[1].number, 2);
        assert!(file.needs_newline);
        assert!(file.is_results_file());
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
        assert!(file.needs_newline);
        assert!(file.warnings[0].starts_with("line 2: not a result record"));
        assert!(file.is_results_file());

        // A file whose first line is neither the header nor a record is not
        // a results file.
        let file = ResultsFile::parse(&format!("my notes\n{a}\n"));
        assert_eq!(file.stray_first_line, Some(1));
        assert!(!file.is_results_file());
        let header = serde_json::to_string(&Header::current()).unwrap();
        let file = ResultsFile::parse(&format!("\n{header}\n{a}\n"));
        assert_eq!(file.header, Some(Header::current()));
        assert_eq!(file.records.len(), 1);
        assert!(file.warnings.is_empty());
    }

    #[test]
    fn writer_keeps_the_torn_line_and_appends() {
        let dir = crate::scratch::scratch_dir();
        let path = dir.path().join("results.jsonl");
        let a = serde_json::to_string(&record(1, Verdict::Winnable, 1.0, Some(90))).unwrap();
        let torn = format!("{a}\n{{\"number\":2,\"sou");
        std::fs::write(&path, &torn).unwrap();
        let (writer, existing) = RecordWriter::open(&path).unwrap();
        assert_eq!(existing.records.len(), 1);
        assert_eq!(existing.warnings.len(), 1);
        writer
            .write(&record(3, Verdict::Unwinnable, 1.5, None))
            .unwrap();
        drop(writer);
        // Nothing was cut: the torn line is still there, ended.
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with(&format!("{torn}\n")), "{text}");
        let again = ResultsFile::read(&path).unwrap();
        assert_eq!(again.warnings.len(), 1, "{:?}", again.warnings);
        let numbers: Vec<u128> = again.records.iter().map(|r| r.number).collect();
        assert_eq!(numbers, [1, 3]);

        // A new file starts with the header; a file that is not a results
        // file is refused and left as it was.
        let fresh = dir.path().join("fresh.jsonl");
        drop(RecordWriter::open(&fresh).unwrap());
        let header = serde_json::to_string(&Header::current()).unwrap();
        assert_eq!(
            std::fs::read_to_string(&fresh).unwrap(),
            format!("{header}\n")
        );
        let notes = dir.path().join("notes.txt");
        std::fs::write(&notes, "my notes\n").unwrap();
        assert!(matches!(
            RecordWriter::open(&notes),
            Err(BatchError::NotResults { line: 1, .. })
        ));
        assert_eq!(std::fs::read_to_string(&notes).unwrap(), "my notes\n");
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
}
