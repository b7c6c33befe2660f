//! N-queens: place N queens on an N×N board so that no two attack each other.
//!
//! The queens are placed row by row; a state is the rows placed so far with
//! bitmasks of the attacked columns and diagonals, so successors are a few
//! bit operations. The space is a tree (each state is reached one way), so
//! the engine runs it without deduplication. The known counts make it the
//! engine's first correctness check, and its speed against a hand-written
//! bitmask counter is the engine's overhead benchmark.

use std::fmt;
use std::ops::ControlFlow;

use crate::explore::layered::{Layered, LayeredOutcome, PackedProblem};
use crate::explore::{NodeKind, Outcome, Problem, Search, Stop};

/// The largest board size accepted.
pub const MAX_N: usize = 16;

/// The N-queens problem for one board size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Queens {
    n: u8,
    full: u32,
}

/// A board size outside `1..=MAX_N`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the board size must be between 1 and {MAX_N}, not {0}")]
pub struct BadSize(pub usize);

/// Queens placed on the first `row` rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rows {
    /// Rows filled so far.
    pub row: u8,
    /// Columns already holding a queen.
    cols: u32,
    /// Squares of the next row attacked along down-left diagonals.
    left: u32,
    /// Squares of the next row attacked along down-right diagonals.
    right: u32,
}

/// Placing the next row's queen in a column (0-based; displayed 1-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Column(pub u8);

impl fmt::Display for Column {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0 + 1)
    }
}

impl Queens {
    /// The problem for an `n`×`n` board, `1 <= n <= MAX_N`.
    pub fn new(n: usize) -> Result<Self, BadSize> {
        if !(1..=MAX_N).contains(&n) {
            return Err(BadSize(n));
        }
        Ok(Self {
            n: n as u8,
            full: (1u32 << n) - 1,
        })
    }

    /// The board size.
    pub fn n(&self) -> usize {
        self.n as usize
    }

    /// A search for every solution (depth-first, no deduplication); add
    /// callbacks or limits and run it.
    pub fn search(&self) -> Search<'_, Self> {
        Search::new(self).dedup(false).stop(Stop::Exhaust)
    }

    /// Counts the solutions; the first one found is in `first_goal`.
    pub fn count(&self) -> Outcome<Rows, Column> {
        self.search().run()
    }

    /// Counts the solutions with the layered engine on `jobs` threads (every
    /// core for `None`): breadth-first until each thread has work, then
    /// depth-first from each state of that frontier in parallel.
    pub fn count_parallel(&self, jobs: Option<usize>) -> LayeredOutcome<Rows> {
        Layered::new(self)
            .dedup(false)
            .stop(Stop::Exhaust)
            .jobs(jobs)
            .run()
            .expect("no checkpoint, so no checkpoint error")
    }

    /// Every solution, as the queen's column in each row, in lexicographic order.
    pub fn solutions(&self) -> Vec<Vec<Column>> {
        let mut all = Vec::new();
        self.search()
            .on_goal(|_, line| {
                all.push(line.to_vec());
                ControlFlow::Continue(())
            })
            .run();
        all
    }

    /// A solution drawn as rows of `Q` and `.` separated by spaces.
    pub fn board(&self, solution: &[Column]) -> String {
        let mut out = String::new();
        for col in solution {
            let cells: Vec<&str> = (0..self.n)
                .map(|c| if c == col.0 { "Q" } else { "." })
                .collect();
            out.push_str(&cells.join(" "));
            out.push('\n');
        }
        out
    }
}

impl Problem for Queens {
    type State = Rows;
    type Key = Rows;
    type Move = Column;

    fn start(&self) -> Rows {
        Rows {
            row: 0,
            cols: 0,
            left: 0,
            right: 0,
        }
    }

    fn key(&self, state: &Rows) -> Rows {
        *state
    }

    #[inline]
    fn successors(&self, s: &Rows, out: &mut Vec<(Column, Rows)>) {
        let mut free = !(s.cols | s.left | s.right) & self.full;
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            out.push((
                Column(bit.trailing_zeros() as u8),
                Rows {
                    row: s.row + 1,
                    cols: s.cols | bit,
                    left: ((s.left | bit) << 1) & self.full,
                    right: (s.right | bit) >> 1,
                },
            ));
        }
    }

    #[inline]
    fn kind(&self, s: &Rows) -> NodeKind {
        if s.row == self.n {
            NodeKind::Goal
        } else {
            NodeKind::Inner
        }
    }
}

impl PackedProblem for Queens {
    fn pack(&self, s: &Rows, out: &mut Vec<u8>) {
        out.push(s.row);
        for mask in [s.cols, s.left, s.right] {
            out.extend_from_slice(&mask.to_le_bytes());
        }
    }

    fn unpack(&self, bytes: &[u8]) -> Rows {
        let mask = |i: usize| u32::from_le_bytes(bytes[1 + 4 * i..5 + 4 * i].try_into().unwrap());
        Rows {
            row: bytes[0],
            cols: mask(0),
            left: mask(1),
            right: mask(2),
        }
    }
}
