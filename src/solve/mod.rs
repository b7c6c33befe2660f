//! The Spider solver (being built): decides a deal.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::deal::Deal;
use crate::game::Move;

/// The answer for a deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    Winnable,
    Unwinnable,
    Undecided,
}

/// What may stop a search before it decides.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub max_positions: Option<u64>,
    pub time_limit: Option<Duration>,
    /// An estimate of the memory the search may use, in bytes.
    pub memory_limit: Option<u64>,
}

/// Which limit stopped an undecided search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum StopReason {
    Positions,
    Time,
    Memory,
    Cancelled,
}

/// The outcome of deciding one deal.
#[derive(Clone, Debug)]
pub struct Analysis {
    pub verdict: Verdict,
    /// Set when the verdict is `Undecided`.
    pub stopped_by: Option<StopReason>,
    /// The winning line, replayed and checked, when the verdict is `Winnable`.
    pub line: Option<Vec<Move>>,
    /// Distinct positions examined.
    pub positions: u64,
    pub elapsed: Duration,
}

/// Decides a deal with no unknown cards (stub until the solver lands: always undecided).
pub fn analyze(_deal: &Deal, _limits: &Limits, _cancel: &AtomicBool) -> Analysis {
    Analysis {
        verdict: Verdict::Undecided,
        stopped_by: Some(StopReason::Cancelled),
        line: None,
        positions: 0,
        elapsed: Duration::ZERO,
    }
}
