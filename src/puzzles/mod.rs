//! Small puzzles with known answers, solved by the same [`explore`](crate::explore)
//! engine as Spider: if the engine counts N-queens solutions and finds the
//! quiz's one consistent answer, its search, deduplication and goal lines
//! can be trusted with Spider positions.

pub mod queens;
pub mod quiz;
