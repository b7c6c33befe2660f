//! The Spider solver: decides whether a deal can be won, and how.
//!
//! [`analyze`] runs a few quick *probe* passes that look for a win along the
//! most promising lines, then an *exhaustive* pass that examines every
//! reachable position (see `search` for the stages, the passes and why the
//! exhaustive pass keeps every win). A winning line is replayed through the
//! rules before it is returned; one that fails is an internal error, never a
//! win. Unknown (`XX`) cards end the search where they would turn up;
//! [`crate::unknown`] decides every way to fill them.

pub mod exhaustive;
pub mod first_empty;
mod heuristic;
mod improve;
pub mod prune;
pub mod room;
mod search;
pub mod shorten;
pub mod stage;

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::deal::{Deal, Place, ShapeError};
use crate::game::{Game, Move};

use search::{Outcome, Pass, Search};

pub use heuristic::score;
pub use prune::{DeadEnd, Reductions, RoomTest};

/// The answer for a deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// A winning line was found, replayed and checked.
    Winnable,
    /// Every reachable position was examined; none wins.
    Unwinnable,
    /// A limit stopped the search, or the answer depends on unknown cards.
    Undecided,
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Verdict::Winnable => "winnable",
            Verdict::Unwinnable => "unwinnable",
            Verdict::Undecided => "undecided",
        })
    }
}

/// What may stop a search before it decides, and which sound reductions
/// its exhaustive pass may use.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub max_positions: Option<u64>,
    pub time_limit: Option<Duration>,
    /// An estimate of the memory the search may use, in bytes.
    pub memory_limit: Option<u64>,
    /// The reductions of the exhaustive search (all on by default; see
    /// [`prune`]).
    pub reductions: Reductions,
    /// Run only the exhaustive pass, none of the guided passes that look
    /// for a win first (to measure the proof search alone).
    pub exhaustive_only: bool,
    /// How many positions the search for a shorter line may keep once a
    /// win is found (see `improve`); never past `time_limit`. Zero: keep
    /// the first line (after cutting its detours).
    pub shorten_positions: u64,
    /// Save the exhaustive pass in this directory at every layer boundary,
    /// and continue from what it holds (see
    /// [`crate::explore::layered::Layered::checkpoint`]): a long proof
    /// stopped by a limit, Ctrl-C or a crash resumes where it stopped and
    /// reaches the same verdict and counts.
    pub checkpoint: Option<std::path::PathBuf>,
    /// Keep the exhaustive pass's states on disk (see
    /// [`crate::explore::layered::Layered::disk`]): the proof, the last
    /// pass, then outgrows memory, and resumes from the directory as from
    /// a checkpoint (which it replaces).
    pub disk: Option<crate::explore::layered::DiskOptions>,
}

/// The default of [`Limits::max_positions`] in every command: the work a
/// search of one deal (or one completion of its `XX` cards) may do. A
/// budget in positions, not seconds, gives the same verdict, line and
/// counts on any machine under any load. Every win of PySol 1..1000 within
/// 10 s took at most 8.6 M positions (results/pysol-1-1000.jsonl); on the
/// ladder of stuck positions 10 M left two positions undecided that 10 s
/// had won (they need 10.4 M and 18.7 M), so the default is 20 M, about
/// 15 to 20 s of one core for a search that finds nothing. The ladder's
/// figures for this budget are in docs/figures.md.
pub const DEFAULT_MAX_POSITIONS: u64 = 20_000_000;

/// The default of [`Limits::shorten_positions`] in `analyze` and `batch`:
/// about the 3 s of one core that the earlier time budget gave (600,000
/// positions took 1.0 s of CPU on PySol 5 and 17, 1,200,000 took 2.2 and
/// 2.5 s), which shortened the median winning lines of PySol 1..100, own
/// 2-suit and 1-suit deals 1..100 to 130, 102 and 87 moves, from 194, 154
/// and 120 for the first wins (docs/show-the-win.md).
pub const DEFAULT_SHORTEN_POSITIONS: u64 = 1_500_000;

/// Why a search ended undecided.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StopReason {
    /// The position limit was reached.
    Positions,
    /// The time limit was reached.
    Time,
    /// The memory estimate reached its limit.
    Memory,
    /// The machine's available memory fell below the floor that keeps the
    /// process from being killed (see [`crate::explore::memory`]).
    MachineMemory,
    /// The search was cancelled (Ctrl-C).
    Cancelled,
    /// The disk-backed exhaustive pass reached its limit of disk bytes.
    Disk,
    /// Every position was examined without a win, but some lines turn up
    /// unknown cards: the answer depends on what they are.
    UnknownCards,
}

impl std::fmt::Display for StopReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            StopReason::Positions => "the position limit was reached",
            StopReason::Time => "the time limit was reached",
            StopReason::Memory => "the memory limit was reached",
            StopReason::MachineMemory => "the machine's free memory ran low",
            StopReason::Cancelled => "the search was interrupted",
            StopReason::Disk => "the disk limit was reached",
            StopReason::UnknownCards => {
                "a win must turn up unknown cards, and they can be turned up: the answer depends on the XX cards"
            }
        })
    }
}

/// Where a search stands, for progress displays.
#[derive(Clone, Debug)]
pub struct Progress {
    /// Distinct positions examined so far.
    pub positions: u64,
    pub elapsed: Duration,
    /// `probe`, `beam` or `exhaustive`.
    pub pass: &'static str,
    /// Rows dealt in the position just examined.
    pub stage: usize,
    /// The most runs removed in any position so far.
    pub best_runs_removed: usize,
    /// The fewest face-down cards in any position so far.
    pub fewest_face_down: usize,
    /// In the exhaustive pass: how far the proof has got.
    pub proof: Option<ProofProgress>,
}

/// How far the exhaustive pass (the search that proves a loss) got.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ProofProgress {
    /// Layers finished: every position of each examined. A layer holds the
    /// positions with the same rows dealt, runs removed and face-down cards
    /// (see [`stage::LayerKey`]).
    pub layers_finished: usize,
    /// The layer being searched (or where a limit stopped the search).
    pub layer: Option<stage::LayerKey>,
    /// Positions the pass examined.
    pub positions: u64,
    /// Of them, proved lost by the dead-end test and not expanded.
    pub dead_ends: u64,
    /// Positions already reached in later layers, waiting their turn.
    pub queued: u64,
    /// An estimate of the positions still to examine: those of the
    /// current layer met but not yet expanded, and what is queued, grown
    /// at the rate the layers so far grew from their entries. Positions not
    /// yet reached add to it as the search goes, so it tends to be low.
    pub estimate_left: u64,
    /// Positions per second of the pass so far.
    pub rate: f64,
    /// Threads the pass runs on (`-j`).
    pub threads: usize,
    /// On disk: the times the current layer's seen sets passed their
    /// budget and were dropped (`--disk-seen-memory`), in this run.
    pub seen_dropped: u64,
    /// On disk: the rounds whose seen sets outgrew the memory left and ran
    /// split, a wave of parts at a time, in this run.
    pub rounds_split: u64,
    /// The cap of a capped pass of the schedule that stopped at it (`None`
    /// for a pass still running, decided, or stopped by a limit): such a
    /// pass does not go on, so its estimate is of what was left when it
    /// gave up, not a time to wait.
    pub cap: Option<u64>,
}

impl ProofProgress {
    /// The share of the positions examined that were dead ends.
    pub fn dead_share(&self) -> f64 {
        self.dead_ends as f64 / self.positions.max(1) as f64
    }

    /// [`estimate_left`](Self::estimate_left) in seconds at the rate so far.
    pub fn seconds_left(&self) -> f64 {
        self.estimate_left as f64 / self.rate.max(1.0)
    }
}

impl std::fmt::Display for ProofProgress {
    /// In words a player reads: "examined 24.8 million positions (3.1 %
    /// dead ends); about 1.9 billion more to go, about 2 h 5 min at 310
    /// thousand positions/s (the estimate grows as the search goes); 12
    /// layers done, now stage 0 with 2 runs removed and 30 cards face
    /// down".
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use crate::text::{amount, count, duration};
        write!(
            f,
            "examined {} positions ({:.1} % dead ends); ",
            amount(self.positions),
            100.0 * self.dead_share(),
        )?;
        match self.cap {
            // A capped pass stopped for good: what it left, not a wait.
            Some(cap) => write!(
                f,
                "stopped past its cap of {} positions with about {} more to go",
                amount(cap),
                amount(self.estimate_left),
            )?,
            None => write!(
                f,
                "about {} more to go, about {} at {} positions/s",
                amount(self.estimate_left),
                duration(self.seconds_left()),
                amount(self.rate as u64),
            )?,
        }
        write!(
            f,
            " (the estimate grows as the search goes); {} done",
            count(self.layers_finished as u64, "layer"),
        )?;
        if let Some(layer) = self.layer {
            write!(
                f,
                ", now stage {} with {} removed and {} face down",
                layer.rows_dealt,
                count(layer.runs_removed as u64, "run"),
                count(layer.face_down as u64, "card"),
            )?;
        }
        Ok(())
    }
}

/// The outcome of deciding one deal.
#[derive(Clone, Debug)]
pub struct Analysis {
    pub verdict: Verdict,
    /// Why the verdict is `Undecided`.
    pub stopped_by: Option<StopReason>,
    /// The winning line, replayed and checked, when the verdict is `Winnable`.
    pub line: Option<Vec<Move>>,
    /// When the first win was found, and the length of its line after its
    /// detours were cut (before [`Limits::shorten_positions`] was spent).
    pub first_win: Option<(Duration, usize)>,
    /// Distinct positions examined, over all passes.
    pub positions: u64,
    pub elapsed: Duration,
    /// The largest memory estimate of the search, in bytes.
    pub peak_memory: u64,
    /// Unknown slots the search turned up, with the length of the shortest
    /// line it met that turns each up (the fewest moves within the stages it
    /// explored; the `graph` command gives exact fewest moves for stage 0).
    pub reveals: Vec<(Place, usize)>,
    /// The most runs removed in any position the search examined.
    pub best_runs_removed: usize,
    /// The fewest face-down cards left in any position the search examined.
    pub fewest_face_down: usize,
    /// The pass that decided (`probe`, `beam` or `exhaustive`), or was running when
    /// a limit stopped the search.
    pub pass: &'static str,
    /// Positions the exhaustive search proved lost by the dead-end test
    /// ([`prune::dead_end`]) and did not expand.
    pub dead_ends: u64,
    /// When the position itself is a dead end: why it can never be won.
    pub dead_end: Option<DeadEnd>,
    /// The fewest face-down cards left on each pile in any position the
    /// search examined.
    pub fewest_per_pile: [u8; crate::deal::PILES],
    /// How far the last exhaustive pass got, when one ran.
    pub proof: Option<ProofProgress>,
    /// When a beam searched every line made of the moves probes and beams
    /// favour (`heuristic::promising`) and of deals, and found no win:
    /// the positions it examined. A win then needs another move (a lateral
    /// move, a split run, a whole pile onto an empty one).
    pub favoured_exhausted: Option<u64>,
}

impl Analysis {
    /// Distinct positions examined per second.
    pub fn positions_per_second(&self) -> f64 {
        self.positions as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// Why a deal could not be analyzed.
#[derive(Debug, thiserror::Error)]
pub enum SolveError {
    /// The deal is not a position at all.
    #[error(transparent)]
    Shape(#[from] ShapeError),
    /// The search produced a line that the rules reject: a bug, reported
    /// instead of a false win.
    #[error("internal error: the winning line found fails replay at move {index} ({mv}): {reason}")]
    LineFailsReplay {
        index: usize,
        mv: Move,
        reason: String,
    },
    /// The exhaustive pass's checkpoint could not be used.
    #[error(transparent)]
    Checkpoint(#[from] crate::explore::layered::CheckpointError),
}

const fn probe(
    budget: usize,
    width: usize,
    move_cost: i32,
    cap: Option<u64>,
) -> (Pass, Option<u64>) {
    (
        Pass::Probe {
            budget,
            width,
            move_cost,
            thorough: false,
        },
        cap,
    )
}

const fn beam(budget: usize, width: usize, move_cost: i32) -> (Pass, Option<u64>) {
    (
        Pass::Beam {
            budget,
            width,
            move_cost,
            lookahead: 0,
            thorough: false,
        },
        None,
    )
}

/// A beam that, in a stage where the [promising](heuristic::promising)
/// moves run dry before its budget does, goes on with the moves they skip
/// (see `Pass::Beam`).
const fn thorough_beam(budget: usize, width: usize, move_cost: i32) -> (Pass, Option<u64>) {
    (
        Pass::Beam {
            budget,
            width,
            move_cost,
            lookahead: 0,
            thorough: true,
        },
        None,
    )
}

/// A beam that judges dealt positions by exploring each `lookahead`
/// expansions (see `Pass::Beam`).
/// A beam over single moves of `width` positions per depth and stage
/// (see `Pass::MoveBeam`).
const fn move_beam(width: usize) -> (Pass, Option<u64>) {
    (
        Pass::MoveBeam {
            width,
            thorough: false,
            breaks_only: false,
        },
        None,
    )
}

/// A move beam that plays every move, not only the favoured ones (see
/// `Pass::MoveBeam`).
const fn thorough_move_beam(width: usize) -> (Pass, Option<u64>) {
    (
        Pass::MoveBeam {
            width,
            thorough: true,
            breaks_only: false,
        },
        None,
    )
}

/// A thorough move beam ranked by the breaks alone, without the bound on
/// the moves needed (see `Pass::MoveBeam`).
const fn thorough_breaks_beam(width: usize) -> (Pass, Option<u64>) {
    (
        Pass::MoveBeam {
            width,
            thorough: true,
            breaks_only: true,
        },
        None,
    )
}

const fn looking_beam(budget: usize, width: usize, lookahead: usize) -> (Pass, Option<u64>) {
    (
        Pass::Beam {
            budget,
            width,
            move_cost: 0,
            lookahead,
            thorough: false,
        },
        None,
    )
}

/// The move cost of the passes that look for short lines (see
/// `Pass::move_cost`). Measured on own 4-suit deals 1..60, one pass
/// schedule with a cost: none gave a median line of 222 moves, 4 gave 194
/// (and decided 60 of 60 instead of 58), 8 gave 191 but decided only 56.
const SHORT: i32 = 4;

/// The passes tried in turn, each with the most new positions it may
/// examine before it leaves the deal to the next one. Each runs only when
/// the ones before it found no win. Cheap probes and beams come first, then
/// ever larger ones, with exhaustive passes of growing size between them, so
/// that small positions are proved lost early and large deals get most of
/// their time in the searches that find wins. The last pass is exhaustive
/// without a cap: it decides or a limit stops it.
///
/// Measured on the 33 deals (own 4-suit 1..300 and PySol 1..1000) that an
/// earlier schedule left undecided in 10 s: wide beams with a small budget
/// per entry win most of them, and each such beam ends in 1–4 s, so several
/// of different shapes fit in 10 s. The beam 1,000 × 400 alone won 17 of
/// them in at most 5.5 s, 3,000 × 200 won 20; the earlier 10,000 × 200 won 6
/// within 10 s. Different shapes win different deals, hence the sequence.
/// The probe 20,000 × 3 comes before the wide beams: deals it wins in under
/// a second took up to 10 s when it came after them.
///
/// The cheap passes run twice, first charging [`SHORT`] per move (shorter
/// lines), then without: each wins deals the other does not. The next
/// three run plain first, then charged. On own 4-suit deals 1..300 this
/// decided 99.3 % within 10 s with a median line of 194 moves, and
/// 99.0 % of PySol 1..1000 (194 moves). Measured alternatives: without
/// the charged passes, 98.7–99.0 % (own) and 99.2 % (PySol), 225 moves;
/// every pass charged, 98.7 % (own), 195 moves; only the first three
/// charged, 98.7 % (own), 194 moves; these three charged before their
/// plain versions, 99.7 % (own) and 98.8 % (PySol), 194 moves.
///
/// Two beams with a lookahead (see `Pass::Beam`) come after the cheap
/// passes and after the charged ones. On their own they win hard deals
/// that the plain beams of their shape do not: the beam 1,000 × 200 with
/// a lookahead of 300 won 19 of the 21 PySol deals (1..1000) that took the
/// schedule without them 5–10 s, each in 1–4 s. In the schedule, measured
/// the same day on PySol 1..1000 (2 jobs, 10 s): 99.6 % decided against
/// 99.5 % without them, 16 deals over 3 s against 21, total solver time
/// 558 s against 580 s. Placed fourth, right after the cheap charged
/// passes, the first one cost more than it won (26 deals over 3 s).
///
/// Thorough beams (see `Pass::Beam`) run as twins of the four cheap beams,
/// after them, and once more in the middle. Measured on the stuck players'
/// positions of `benches/ladder/` that were undecided or slow, and on
/// PySol's hardest of 1..1000 (one core, 10 M positions each, the same
/// day): with these five thorough passes, 4 more positions of rung 3
/// (5006, 5007, 5011, 5014) and one of rung 2 (5004) were won, and PySol
/// 93, 305 and 397 sooner (6.1, 8.6 and 4.7 M positions instead of 8.0,
/// 9.0 and 6.7 M); lost were PySol 236 and 574, which the schedule without
/// them won at 9.9 and 8.1 M; r3-g5001 took 6.7 M instead of 5.8 M, and
/// r1-g5009's proof 1.35 M instead of 1.25 M. With every beam made
/// thorough instead, r3-g5010 was lost too, and r1-g5009's proof took
/// 3.2 M positions; with only the cheap twin 2,000 × 10 and the middle
/// one, only 5006 and 5014 were won; with the 5,000 × 50 twins moved to
/// the middle, 5011 and 5014 took 8 M positions instead of under 3 M.
///
/// Five middle beams of an earlier schedule were dropped once the
/// thorough and looking beams had come in: 1,000 × 400 thorough, 1,000 ×
/// 400 and 3,000 × 200 charged, 3,000 × 500, and 1,000 × 2,000. Traced
/// pass by pass (which pass wins, and what each costs) on PySol 1..1000
/// and on the ladder at 10 s, and on the 26 ladder positions undecided
/// at 10 s at 60 s, none of them won a deal, and on those 26 they took
/// 1.7 s (median) before the wide beams that win. Without them, in the
/// same run as with them (one thread each, side by side, no shortening):
/// PySol 1..1000 decided 997 against 996 (268 won at 9.0 s; 288 and 914
/// won 1.4 and 2.2 s sooner, 904 2.6 s later), PySol 1001..1500 499
/// against 499, own 4-suit 1..300 299 against 299, the ladder's rungs 3
/// to 1 at 10 s 18, 12 and 6 against 18, 12 and 5 (r1-g5008 won at
/// 9.1 s; r1-g5019 and r2-g5010 1.4 and 1.8 s sooner, r1-g5005 1.1 s
/// later). The cheap probes between them stay: they cost hundredths of
/// a second, and the probe 20,000 × 3 is the pass that wins PySol 1101
/// (in 0.2 s; without it, not in 10 s).
///
/// The widest beam, 50,000 × 10,000, comes right before the last
/// exhaustive pass. An exhaustive pass capped at 8 M positions used to
/// come before the beam: on the 26 ladder positions undecided at 10 s it
/// took 9.5 s (median) and decided none; every loss the ladder proves
/// needs either under 2 M positions (the passes before) or more than 8 M
/// (r0-g5019: the last pass). The beam wins r1-g5007 and r2-g5007: at
/// 7.6 and 41 s in this order, 20 and 55 s in the other. Once the beam
/// came first, that capped pass only repeated the start of the last one,
/// and it went. A loss whose proof needs 2 to 8 M positions waits for
/// the beam (up to about 30 s on the ladder).
///
/// Move beams (see `Pass::MoveBeam`, 2026-11-25 evening) rank by the
/// breaks of KDE's lineage instead of the stage score, and win where the
/// stage beams need their widest shapes. Alone, widths doubling from 500
/// (10 s each, one core) won 6 of the 25 ladder positions the schedule
/// left undecided within 10 s, each in 0.1 to 1.7 s, among them
/// `r1-g5006`, which nothing had won, and PySol 210 and 679 in 0.2 and
/// 0.5 s (25 and 30 s in the schedule). Widths 500 to 4,000 cost at most
/// about 1.5 s where they do not win, so they come right after the cheap
/// passes; 8,000 and 16,000 (PySol 950 needs 16,000: 10 s alone) and
/// 32,000 (`r1-g5014`) later, between stage beams of their cost (8,000
/// and 16,000 were moved up since, see below). In the
/// schedule, the same day (one core per position, `--time-limit 10`):
/// the ladder 19, 15, 8 and 18 decided on rungs 3 to 0, against 18, 12,
/// 6 and 18; PySol 1..1000 999 against 997 (950 left, won at 25 s), its
/// solver time 6 min 31 s against 7 min 9 s (`--shorten-time 0`).
///
/// A thorough move beam (every move, not only the favoured ones) of 500
/// comes after the width 4,000: alone it won `r1-g5013` in 0.4 s (174 s
/// in the schedule before), and in the schedule the ladder went to 19,
/// 15, 9 and 18 within 10 s; it cost `r1-g5012` 3.6 s (won at 5.1 s
/// instead of 1.5 s), PySol 1..1000 nothing measurable (999 decided,
/// solver time 6 min 31 s both). Wider thorough move beams were slower
/// than their favoured twins everywhere else measured (PySol 950: width
/// 2,000 reached in 8 s, against 16,000 winning in 10 s).
///
/// Wider move beams (2026-11-25, night), once a move beam gives up when
/// it stops finding better positions (`improve::STALLED_DEPTHS`): alone,
/// widths up to 128,000 and thorough ones up to 32,000 won five ladder
/// positions no pass had won (`r1-g5003` thorough 32,000 in 13 s,
/// `r1-g5011` 128,000 in 33 s, `r3-g5009` 64,000 in 19 s, `r1-g5020`
/// thorough 8,000 in 3 s, `r0-g5005` thorough 1,000 to 4,000), and
/// `r1-g5014` at 64,000 in 11 s. So after the stage beam 20,000 × 1,000
/// come the move beam 32,000 (moved up from after the beam 20,000 ×
/// 4,000; since put after the thorough ones, see below), thorough move
/// beams 1,000 to 8,000, move beams 64,000 and
/// 128,000; thorough 16,000 and 32,000 after the beam 20,000 × 4,000
/// (before the exhaustive pass capped at 2 M positions: where a beam left
/// no favoured line out, only thorough passes run, and a capped pass
/// followed by one would be repeated by the last pass). Measured the same
/// night against the same passes with the move beams 64,000 and 128,000
/// after the beam 20,000 × 4,000 instead (one core per position, two at
/// a time, `--time-limit 60`): this order won `r1-g5011` (58 s) where the
/// other did not, and `r1-g5014` at 26 s against 14 s.
///
/// Thorough move beams ranked by the breaks alone (`breaks_only`) come
/// after the thorough ones ranked with the bound: alone, widths doubling
/// from 500, they won `r2-g5011` (width 4,000, 3 s in all), which no
/// other pass had won; ranked by twice the bound, move beams won none of
/// the eleven positions then undecided within 60 s.
///
/// The move beams 8,000 and 16,000 come right after the early exhaustive
/// pass (2026-11-26), before the looking beam 1,000 × 200, where they
/// came after the beam 10,000 × 100. Traced pass by pass with every pass
/// run, won or not (one core): every one of the unwon 2017 game's 24
/// completions is won first by the move beam 8,000, which started at
/// 6.9–7.2 s, so that they were won at 9.2–9.8 s, against the 10 s limit
/// (the README's main job, two completions at a time on a busy machine,
/// left 3 of them undecided); PySol 950 first by the move beam 16,000
/// (16.2 s). Every other deal of PySol 1..1000 and own 4-suit 1..300 is won
/// by pass 13 or sooner, except own 82 (the charged probe 20,000 × 3,
/// 2.7 s), so moving passes behind pass 14 costs them nothing. Side by
/// side (one core each, `--time-limit 10 --shorten-time 0`): the 24
/// completions won at 5.1–5.8 s, all of them, against 18 within 10 s;
/// PySol 950 won at 8.4 s (undecided before); the ladder decides the same
/// positions; slower were own 82 (6.2 s against 2.7), `r1-g5005` (4.6
/// against 2.7) and `r2-g5010` (9.0 against 5.6), which the stage beams
/// behind the move beams win.
///
/// The beam 10,000 × 100 comes before the looking beam 1,000 × 1,000
/// (2026-11-26), cheaper first: 0.02–0.9 s against 0.02–3.9 s on the
/// positions traced with every pass run, and the looking beam won none of
/// them, nor any deal of PySol 1..1000 or own 4-suit 1..300. `r2-g5010`,
/// won by the beam 10,000 × 100, was won 1.4 s sooner (traced: 8.6 s
/// after the move beams above were moved up, 5.6 s before).
///
/// The thorough move beams 1,000 to 8,000, and those ranked by the breaks
/// alone, come before the move beam 32,000 (2026-11-26), where they came
/// after it: cheaper passes first, as within each kind the widths double.
/// Where they do not win they cost 0.1–2.4 s each on the ladder's slow
/// positions, the move beam 32,000 about 3 s. Traced with every pass run
/// (one core): `r1-g5020`, won by the thorough 8,000, at 6.9 s instead
/// of 9.7 s (on the 10 s edge); `r2-g5011` (breaks alone, 4,000) at
/// 16.2 s instead of 17.4 s; `r1-g5014`, won by the move beam 32,000, at
/// about 33 s instead of 23.5 s; nothing else on the ladder, PySol
/// 1..1000, own 4-suit 1..300 or the unwon game gets that far.
///
/// The thorough move beams 1,000 to 4,000 come before the beam 20,000 ×
/// 1,000 (2026-11-26), cheaper first again, found on a second ladder made
/// from games the schedule was never tuned on (`examples/ladder.rs`, PySol
/// 6001..6020): traced there, the beam 20,000 × 1,000 took 10.2 s on
/// `r2-g6017` without a win, and the thorough move beam 4,000 behind it
/// won in 2.3 s. Measured with the whole of both ladders at 10 s (one
/// core each, two at a time): the bench ladder decides the same 19, 15,
/// 10 and 19 (`r1-g5020` at 7.2 s, `r2-g5010` at 7.2 s, as before), the
/// second ladder 18, 15, 14 and 16 instead of 18, 14, 14 and 16
/// (`r2-g6017` won at 9.1 s instead of 19.2 s). docs/figures.md has the
/// 60 s figures.
///
/// Passes that cannot find anything new are left out as the search goes
/// (see [`worth_running`]): after a beam that left nothing out, every
/// probe and beam that is not thorough, and then the capped exhaustive
/// passes, whose work the last one would repeat.
const SCHEDULE: [(Pass, Option<u64>); 46] = [
    probe(2_000, 2, SHORT, None),
    beam(2_000, 10, SHORT),
    beam(5_000, 50, SHORT),
    probe(2_000, 2, 0, None),
    beam(2_000, 10, 0),
    beam(5_000, 50, 0),
    thorough_beam(2_000, 10, SHORT),
    thorough_beam(5_000, 50, SHORT),
    thorough_beam(2_000, 10, 0),
    thorough_beam(5_000, 50, 0),
    move_beam(500),
    move_beam(1_000),
    move_beam(2_000),
    move_beam(4_000),
    thorough_move_beam(500),
    (Pass::Exhaustive, Some(EARLY_PROOF)),
    move_beam(8_000),
    move_beam(16_000),
    looking_beam(1_000, 200, 300),
    probe(20_000, 3, 0, Some(1_000_000)),
    beam(1_000, 400, 0),
    beam(3_000, 200, 0),
    probe(20_000, 3, SHORT, Some(1_000_000)),
    beam(10_000, 100, 0),
    looking_beam(1_000, 1_000, 200),
    probe(10_000, 5, 0, Some(2_000_000)),
    thorough_move_beam(1_000),
    thorough_move_beam(2_000),
    thorough_move_beam(4_000),
    beam(20_000, 1_000, 0),
    thorough_move_beam(8_000),
    thorough_breaks_beam(1_000),
    thorough_breaks_beam(2_000),
    thorough_breaks_beam(4_000),
    thorough_breaks_beam(8_000),
    move_beam(32_000),
    move_beam(64_000),
    move_beam(128_000),
    beam(20_000, 4_000, 0),
    thorough_move_beam(16_000),
    thorough_breaks_beam(16_000),
    thorough_move_beam(32_000),
    (Pass::Exhaustive, Some(2_000_000)),
    probe(100_000, 3, 0, Some(4_000_000)),
    beam(50_000, 10_000, 0),
    (Pass::Exhaustive, None),
];

/// The positions the early exhaustive pass may examine: after the cheap
/// passes, a short exhaustive pass proves the losses whose proof is small
/// (with the dead-end test, PySol 14934 takes about 100,000 positions)
/// before the long guided passes take the time limit. It tests the room
/// on every entry of the last stage (`RoomTest::for_pass`).
const EARLY_PROOF: u64 = prune::SMALL_PASS;

/// Decides a deal. `XX` cards end the lines that would turn them up.
pub fn analyze(deal: &Deal, limits: &Limits, cancel: &AtomicBool) -> Result<Analysis, SolveError> {
    analyze_with_progress(deal, limits, cancel, &|_| {})
}

/// [`analyze`], calling `progress` now and then with where the search
/// stands.
pub fn analyze_with_progress(
    deal: &Deal,
    limits: &Limits,
    cancel: &AtomicBool,
    progress: &dyn Fn(&Progress),
) -> Result<Analysis, SolveError> {
    decide(deal, limits, cancel, progress, true)
}

/// [`analyze`] without shortening the winning line it finds (the line is
/// still replayed and checked): for the many quick solves of sampled
/// completions, where only the first moves of a win matter and shortening
/// would cost more than the search.
pub fn analyze_unshortened(
    deal: &Deal,
    limits: &Limits,
    cancel: &AtomicBool,
) -> Result<Analysis, SolveError> {
    decide(deal, limits, cancel, &|_| {}, false)
}

fn decide(
    deal: &Deal,
    limits: &Limits,
    cancel: &AtomicBool,
    progress: &dyn Fn(&Progress),
    shorten_line: bool,
) -> Result<Analysis, SolveError> {
    let game = Game::new(deal)?;
    let mut search = Search::new(&game, limits, cancel, progress);
    let finish = |search: &Search, verdict, stopped_by, line: Option<Vec<Move>>| Analysis {
        verdict,
        stopped_by,
        first_win: line.as_ref().map(|line| (search.elapsed(), line.len())),
        line,
        positions: search.positions,
        elapsed: search.elapsed(),
        peak_memory: search.peak_memory,
        reveals: search.reveals.iter().map(|(&p, &n)| (p, n)).collect(),
        best_runs_removed: search.best_runs_removed(),
        fewest_face_down: search.fewest_face_down(),
        pass: search.pass_name,
        dead_ends: search.dead_ends,
        dead_end: None,
        fewest_per_pile: search.fewest_per_pile,
        proof: search.proof,
        favoured_exhausted: search.favoured_exhausted,
    };
    if game.start().is_won() {
        return Ok(finish(&search, Verdict::Winnable, None, Some(Vec::new())));
    }
    if limits.reductions.dead_ends
        && let Some(dead) = prune::dead_end_at_start_filling(
            &game,
            game.start(),
            prune::RoomRule::of(&limits.reductions),
            limits.reductions.deals_fill,
            limits.reductions.first_empty,
        )
    {
        let mut analysis = finish(&search, Verdict::Unwinnable, None, None);
        analysis.pass = "dead-end test";
        analysis.positions = 1;
        analysis.dead_end = Some(dead);
        return Ok(analysis);
    }
    if game.start().is_reveal() {
        return Ok(finish(
            &search,
            Verdict::Undecided,
            Some(StopReason::UnknownCards),
            None,
        ));
    }
    // A win removes every card, so it turns up every unknown card: with
    // unknown cards there is no win to find, only whether an unknown card
    // can turn up at all (then the answer depends on it) or not (then the
    // deal is lost). The search ends once every
    // unknown slot has turned up (the probes still run: they reach deep
    // reveals fast).
    let unknown = deal.unknown_places().len();
    if unknown > 0 {
        search.reveal_target = unknown;
    }
    let exhaustive_only = [(Pass::Exhaustive, None)];
    let schedule: &[(Pass, Option<u64>)] = if limits.exhaustive_only {
        &exhaustive_only
    } else {
        &SCHEDULE
    };
    for (index, &(pass, cap)) in schedule.iter().enumerate() {
        if !worth_running(schedule, index, search.favoured_exhausted.is_some()) {
            continue;
        }
        search.pass_cap = cap;
        let outcome = search.run(pass);
        if let Some(error) = search.checkpoint_error.take() {
            return Err(error.into());
        }
        match outcome {
            Outcome::Won(line) => {
                let line = if shorten_line {
                    shorten::shorten(&game, &line)
                } else {
                    line
                };
                verify(&game, &line)?;
                let first_win = (search.elapsed(), line.len());
                let line = shorter_line(&game, line, &search, limits, cancel);
                verify(&game, &line)?;
                let mut analysis = finish(&search, Verdict::Winnable, None, Some(line));
                analysis.first_win = Some(first_win);
                analysis.elapsed = search.elapsed();
                return Ok(analysis);
            }
            Outcome::Stopped if search.capped => {}
            Outcome::Stopped => {
                let reason = if search.reveals.is_empty() {
                    search.stopped
                } else {
                    Some(StopReason::UnknownCards)
                };
                return Ok(finish(&search, Verdict::Undecided, reason, None));
            }
            Outcome::Exhausted if pass == Pass::Exhaustive => {
                return Ok(if search.reveals.is_empty() {
                    finish(&search, Verdict::Unwinnable, None, None)
                } else {
                    finish(
                        &search,
                        Verdict::Undecided,
                        Some(StopReason::UnknownCards),
                        None,
                    )
                });
            }
            Outcome::Exhausted => {}
        }
    }
    unreachable!("the exhaustive pass always decides or stops")
}

/// Whether pass `index` of `schedule` can find what the passes before it
/// did not, once they have run; `favoured_exhausted` when a beam has left
/// nothing out (see [`Analysis::favoured_exhausted`]). Passes left out
/// change how soon a deal is decided, never its verdict:
///
/// - A probe or beam that is not thorough plays favoured moves and deals
///   only, so it searches some of the lines that beam searched in full:
///   it cannot find a win.
/// - A capped exhaustive pass whose next pass to run is exhaustive too:
///   each starts afresh, so the next one repeats its work and decides
///   wherever it would have.
fn worth_running(schedule: &[(Pass, Option<u64>)], index: usize, favoured_exhausted: bool) -> bool {
    let plays = |pass: Pass| !favoured_exhausted || pass.goes_beyond_favoured();
    let (pass, cap) = schedule[index];
    if !plays(pass) {
        return false;
    }
    let next = schedule[index + 1..].iter().find(|&&(next, _)| plays(next));
    !(pass == Pass::Exhaustive
        && cap.is_some()
        && next.is_some_and(|&(next, _)| next == Pass::Exhaustive))
}

/// `line`, or a shorter winning line found within
/// [`Limits::shorten_positions`] (and the time limit).
fn shorter_line(
    game: &Game,
    line: Vec<Move>,
    search: &Search,
    limits: &Limits,
    cancel: &AtomicBool,
) -> Vec<Move> {
    let deadline = limits
        .time_limit
        .map(|limit| std::time::Instant::now() + limit.saturating_sub(search.elapsed()));
    improve::improve(game, &line, limits.shorten_positions, deadline, cancel)
}

/// `line` (which must win from the start of `game`), or a shorter winning
/// line found by beams that keep at most `budget` positions: what
/// `analyze` does with its first win (see `improve`).
pub fn shorter_winning_line(
    game: &Game,
    line: &[Move],
    budget: u64,
    cancel: &AtomicBool,
) -> Vec<Move> {
    improve::improve(game, line, budget, None, cancel)
}

/// A line to a good position the game can reach (most runs removed, then
/// fewest cards face down), found by a move beam of 200 positions a depth
/// over at most 500 moves: what a page shows for a deal that has no known
/// win. It never turns up an unknown card. Empty when no move helps.
pub fn line_to_best_position(game: &Game) -> Vec<Move> {
    improve::best_reached(game, 200, 500)
}

/// One move beam alone from the deal's start (see `Pass::MoveBeam`), for
/// measuring the pass outside the schedule (`benches/move_beam.rs`): a
/// winning line, replayed and checked, or `None`, and the positions the
/// beam kept. It stops once it has kept `max_positions` (0: no limit).
pub fn move_beam_alone(
    deal: &Deal,
    width: usize,
    thorough: bool,
    breaks_only: bool,
    max_positions: u64,
) -> Result<(Option<Vec<Move>>, u64), SolveError> {
    let game = Game::new(deal)?;
    let cancel = AtomicBool::new(false);
    let mut kept = 0u64;
    let mut count = |_: &crate::game::Position| {
        kept += 1;
        max_positions == 0 || kept < max_positions
    };
    let line = improve::win_by_move_beam(&game, width, thorough, breaks_only, &cancel, &mut count);
    if let Some(line) = &line {
        verify(&game, line)?;
    }
    Ok((line, kept))
}

/// Replays a winning line through the rules: every move legal, the game won
/// at the end.
pub fn verify(game: &Game, line: &[Move]) -> Result<(), SolveError> {
    let mut position = game.start().clone();
    for (index, &mv) in line.iter().enumerate() {
        game.check(&position, mv)
            .map_err(|reason| SolveError::LineFailsReplay {
                index: index + 1,
                mv,
                reason: reason.to_string(),
            })?;
        let step = game.apply(&position, mv);
        if !step.reveals.is_empty() {
            return Err(SolveError::LineFailsReplay {
                index: index + 1,
                mv,
                reason: "it turns up an unknown card".into(),
            });
        }
        position = step.position;
    }
    if position.is_won() {
        Ok(())
    } else {
        Err(SolveError::LineFailsReplay {
            index: line.len(),
            mv: line.last().copied().unwrap_or(Move::Deal),
            reason: "the line ends before the game is won".into(),
        })
    }
}

#[cfg(test)]
mod tests;
