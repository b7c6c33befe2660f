//! What every way of handling unknown cards shares: a completion (one
//! filling of the `XX` slots) with its verdict, and a set of decided
//! completions (all of them, or a sample) with what they say.

use num_bigint::BigUint;

use crate::cards::Card;
use crate::deal::Place;
use crate::solve::{Analysis, SolveError, Verdict};
use crate::stats::Interval;

/// One filling of the unknown slots and its verdict.
#[derive(Clone, Debug)]
pub struct Completion {
    /// The card put in each unknown slot, in the order of
    /// [`crate::deal::Deal::unknown_places`].
    pub cards: Vec<Card>,
    pub analysis: Analysis,
}

/// Why completions cannot be enumerated.
#[derive(Debug, thiserror::Error)]
pub enum CompletionError {
    #[error(
        "{} but {}: the missing cards must fill the XX slots exactly (run `spider check`)",
        crate::text::count(*slots as u64, "unknown slot"),
        crate::text::count(*candidates as u64, "candidate card")
    )]
    Mismatch { slots: usize, candidates: usize },
    #[error("{count} completions is more than the limit of {limit}")]
    TooMany { count: BigUint, limit: u64 },
    #[error(transparent)]
    Solve(#[from] SolveError),
}

/// Decided completions, all of them or a sample, with what they say.
#[derive(Clone, Debug)]
pub struct Decided {
    /// The unknown slots, in the order the completions fill them.
    pub slots: Vec<Place>,
    /// How many distinct completions there are.
    pub total: BigUint,
    /// The seed of the sample; `None` when every completion was decided.
    pub seed: Option<u64>,
    pub completions: Vec<Completion>,
}

impl Decided {
    /// How many of the decided completions have this verdict.
    pub fn count(&self, verdict: Verdict) -> usize {
        self.completions
            .iter()
            .filter(|c| c.analysis.verdict == verdict)
            .count()
    }

    /// Whether these are a sample rather than every completion.
    pub fn is_sample(&self) -> bool {
        self.seed.is_some()
    }

    /// The summary: counts, share, interval and bounds.
    pub fn summary(&self) -> SampleSummary {
        let n = self.completions.len();
        let winnable = self.count(Verdict::Winnable);
        let unwinnable = self.count(Verdict::Unwinnable);
        let undecided = self.count(Verdict::Undecided);
        // Undecided completions counted both ways: as lost for the low
        // end, as won for the high end.
        let share = Interval::of(winnable, n).zip(Interval::of(winnable + undecided, n));
        let share = share.map(|(lost, won)| Interval {
            high: won.high,
            ..lost
        });
        SampleSummary {
            decided: n,
            winnable,
            unwinnable,
            undecided,
            share,
            bounds: share.map(|i| (i.low, i.high)),
        }
    }
}

/// What decided completions say.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct SampleSummary {
    /// Completions decided (or stopped by a limit).
    pub decided: usize,
    pub winnable: usize,
    pub unwinnable: usize,
    pub undecided: usize,
    /// Winnable among the decided completions, with its 95 % Wilson
    /// interval, the undecided counted both ways: the low end with every
    /// undecided completion lost, the high end with every one won (the
    /// plain Wilson interval when none is undecided).
    pub share: Option<Interval>,
    /// The ends of that interval.
    pub bounds: Option<(f64, f64)>,
}
