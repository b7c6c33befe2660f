//! Batches of numbered deals: what fraction of deals is winnable under which
//! rules is a question about thousands of deals, run on many cores or many
//! machines, over hours, with interruptions.
//!
//! So a batch is built to be cut up and resumed:
//!
//! - a [`DealList`] of own or PySol numbers (`A..B`, inclusive, or numbers
//!   and ranges joined by commas), optionally cut into a [`Shard`] `K/N`
//!   (every N-th deal starting at the K-th), so N machines can share a list
//!   with no coordination;
//! - one [`Record`] per decided deal, written as a JSON line the moment the
//!   deal is done ([`RecordWriter`]) after a [`Header`] line that says what
//!   the file is; a rerun reads the file back ([`ResultsFile`]) and skips the
//!   deals already in it, tolerating the torn last line a crash can leave
//!   (nothing is ever cut from the file, and a file that is not a results
//!   file is refused untouched);
//! - a [`Summary`] of any set of records, from one run or merged from the
//!   files of every shard: counts per verdict, the winnable share with a 95%
//!   Wilson interval, time percentiles, line lengths, throughput.

mod results;
mod run;
mod shard;
mod summary;
mod verify;

use std::path::{Path, PathBuf};

pub use results::{
    BlindRecord, BlindSettings, DealKey, Header, Record, RecordWriter, ResultsFile, is_compressed,
    merge,
};
pub use run::{BatchConfig, decide, run};
pub use shard::{DealList, Shard, Source, numbered_deal};
pub use summary::{Share, StopCounts, Summary};
pub use verify::{Checked, check, why_lost};

/// What can go wrong in a batch: bad lists of deals or shards, files that cannot be
/// read or written.
#[derive(Debug, thiserror::Error)]
pub enum BatchError {
    /// A list of deals that is not numbers and ranges `A..B` (`A <= B`)
    /// joined by commas, each deal once.
    #[error(
        "bad list of deals `{text}`: {reason} (expected numbers and ranges A..B, both ends \
         included, joined by commas, like 1..1000 or 1..10,27296)"
    )]
    Range { text: String, reason: String },
    /// A shard that is not `K/N` with `1 <= K <= N`.
    #[error("bad shard `{text}`: {reason} (expected K/N with 1 <= K <= N, like 3/8)")]
    Shard { text: String, reason: String },
    /// A deal number the chosen source does not have.
    #[error("{0}")]
    Number(String),
    /// A file that is not a results file: it is not used and not touched.
    #[error(
        "{}: not a spider batch results file (line {line} is not a result record); \
         it is left untouched: choose another results file",
        path.display()
    )]
    NotResults { path: PathBuf, line: usize },
    /// A compressed results file (or a `.zst` name) given to be written.
    #[error(
        "{}: a batch writes plain JSON Lines, never a compressed (.zst) results file; \
         to resume one, decompress it (zstd -d), rerun the same command on the plain \
         file, then compress it again (zstd -19); --summarize, --html and --verify read \
         it as it is",
        .0.display()
    )]
    Compressed(PathBuf),
    /// A results file another batch is writing to (it holds the lock).
    #[error(
        "{}: another spider batch is writing to this results file (it holds its lock); \
         wait for it to finish, or choose another results file",
        .0.display()
    )]
    Locked(PathBuf),
    /// A results file that could not be read, written or created.
    #[error("{}: {}", path.display(), crate::text::io_reason(error))]
    Io {
        path: PathBuf,
        /// Said in the message, so not a `source` (said once).
        error: std::io::Error,
    },
}

impl BatchError {
    fn io(path: &Path, error: std::io::Error) -> BatchError {
        BatchError::Io {
            path: path.to_path_buf(),
            error,
        }
    }
}

#[cfg(test)]
mod test_support {
    use crate::cards::SuitCount;
    use crate::deal::Rules;
    use crate::solve::{StopReason, Verdict};

    use super::{Record, Source};

    pub(crate) fn record(
        number: u128,
        verdict: Verdict,
        seconds: f64,
        line: Option<usize>,
    ) -> Record {
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
            line: None,
            first_win_seconds: None,
            finished_at: 1000.0 + number as f64,
            blind: None,
        }
    }

    pub(crate) fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 5e-5
    }
}
