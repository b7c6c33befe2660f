//! The budget flags every command that decides deals shares, spelled and
//! defaulted once: `--max-positions`, `--time-limit`, `--memory-limit` and
//! `--shorten-positions`.
//!
//! By default a search's budget is work (positions examined), not wall
//! time, so a command gives the same verdict, line and counts on any
//! machine under any load. `--time-limit` is a deadline a user may add on
//! top; a report stopped by it says the result depends on the machine's
//! speed.

use spider_analyzer::solve::{DEFAULT_MAX_POSITIONS, DEFAULT_SHORTEN_POSITIONS, Limits};

use super::flags::{self, MemoryLimit, TimeLimit};

/// `--max-positions`, `--time-limit`, `--memory-limit`.
#[derive(Debug, Clone, clap::Args)]
pub struct Budget {
    /// Stop a search after it has examined this many distinct positions
    /// (per deal, or per completion of the XX cards); 0 for no limit. A
    /// budget in work: the same verdict on any machine, however loaded.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_POSITIONS, value_parser = count)]
    pub max_positions: u64,
    /// Also stop a search after this many seconds of wall time, 0.001 to
    /// 2592000 (30 days); 0 for no limit (the default). With a deadline
    /// the verdict can depend on the machine's speed and load.
    #[arg(long, value_name = "SECS", default_value = "0", value_parser = flags::time_limit)]
    pub time_limit: TimeLimit,
    /// Stop a search when its memory estimate reaches this, like `512M` or
    /// `4G`; `auto` (the default) shares half the machine's memory between
    /// the searches run at once; 0 for no limit. In practice a position
    /// takes about 26 bytes (150 MB resident for 5.7 million positions of
    /// deals/unwon-2017.yaml).
    #[arg(long, value_name = "SIZE", default_value = "auto", value_parser = flags::memory_limit)]
    pub memory_limit: MemoryLimit,
}

/// How `analyze` and `hint` decide the completions of the `XX` cards: the
/// same flags, meanings and defaults in both.
#[derive(Debug, Clone, clap::Args)]
pub struct Sampling {
    /// Decide every completion of the XX cards when there are at most N;
    /// with more, decide a sample of --samples; 0 for no limit (every
    /// completion, however many).
    #[arg(long, value_name = "N", default_value = "1000", value_parser = flags::count_limit)]
    pub max_completions: flags::CountLimit,
    /// When the completions are more than --max-completions: how many to
    /// draw uniformly and decide (0: none; `hint` needs at least 1).
    #[arg(long, value_name = "N", default_value_t = 100, value_parser = flags::whole_usize(0, flags::MAX_SAMPLES))]
    pub samples: usize,
    /// Stop each sampled completion's search (and, with a hint, each try
    /// of a move in it) after this many positions, or --max-positions if
    /// smaller. A completion left undecided is counted both ways in the
    /// share's interval.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_SAMPLE_MAX_POSITIONS, value_parser = flags::whole(1, flags::MAX_COUNT))]
    pub sample_max_positions: u64,
    /// With a hint: try the N moves that the first moves of the wins found
    /// rank best, and the blind player's move, in every winnable
    /// completion; a move not tried counts only the wins that start with
    /// it; 0 for no limit (every legal move, slower: see
    /// docs/analyze.md).
    #[arg(long, value_name = "N", default_value_t = spider_analyzer::unknown::hint::VERIFIED_MOVES as u64, value_parser = count)]
    pub verify_moves: u64,
}

impl Sampling {
    /// Whether `count` completions are too many to decide them all.
    pub fn sampled(&self, count: &num_bigint::BigUint) -> bool {
        self.max_completions
            .0
            .is_some_and(|most| *count > num_bigint::BigUint::from(most))
    }

    /// The most moves a hint tries in every winnable completion (`None`:
    /// every legal move).
    pub fn verified_moves(&self) -> Option<usize> {
        (self.verify_moves > 0).then(|| usize::try_from(self.verify_moves).unwrap_or(usize::MAX))
    }
}

/// The default of `--sample-max-positions` in `analyze` and `hint`: the
/// positions each sampled completion's search may examine. On PySol 5 as
/// its player sees it (94 `XX`), 18 of 20 sampled completions are won
/// within 230,000 positions and the other two within 2,000,000; a
/// completion that reaches the budget is counted both ways in the share's
/// interval. 100 of them take about 30 s of one core (benches/companion.rs).
pub const DEFAULT_SAMPLE_MAX_POSITIONS: u64 = 2_000_000;

/// `--shorten-positions`, for the commands that print winning lines.
#[derive(Debug, Clone, clap::Args)]
pub struct Shorten {
    /// After a first win, look for a shorter winning line with beams that
    /// keep at most this many positions in all (about 3 s on one core for
    /// the default); 0 keeps the first line.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_SHORTEN_POSITIONS, value_parser = count)]
    pub shorten_positions: u64,
}

impl Budget {
    /// The solver's limits for `searches` searches run at once (they share
    /// the `auto` memory), with every reduction on and no shortening.
    pub fn limits(&self, searches: usize) -> Limits {
        Limits {
            max_positions: (self.max_positions > 0).then_some(self.max_positions),
            time_limit: self.time_limit.0,
            memory_limit: self.memory_limit.per_search(searches),
            ..Limits::default()
        }
    }
}

/// A count as [`flags::count_limit`] reads it (`0`, or 1 to 10^15), kept
/// as the number itself so that its default shows in `--help`.
fn count(text: &str) -> Result<u64, String> {
    flags::count_limit(text).map(|limit| limit.0.unwrap_or(0))
}

/// The limits of each solve of a sample's completions (and of the hint's
/// solves in them): the smaller of the two position budgets. Every
/// completion decided (`sampled` false): `limits` as they are.
pub(super) fn for_samples(limits: &Limits, sampled: bool, sample_max_positions: u64) -> Limits {
    if sampled {
        Limits {
            max_positions: Some(
                limits
                    .max_positions
                    .map_or(sample_max_positions, |m| m.min(sample_max_positions)),
            ),
            ..limits.clone()
        }
    } else {
        limits.clone()
    }
}
