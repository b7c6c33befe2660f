//! Unknown cards: what a player who cannot see every card can know, and
//! what to play.
//!
//! The solver ([`crate::solve`]) decides a deal whose every card is known;
//! this module calls it as a tool for everything the `XX` cards bring:
//!
//! - [`completions`]: every way to fill the `XX` slots, each decided;
//! - [`sample`]: a seeded uniform sample of them when there are too many,
//!   with the winnable share and its interval;
//! - [`hint`]: the share of completions a win starts with each move;
//! - [`blind`]: a player that sees only what a player sees, and a referee
//!   that plays its moves on the real deal.

pub mod blind;
pub mod completions;
mod decided;
pub mod hint;
pub mod sample;

pub use decided::{Completion, CompletionError, Decided, SampleSummary};
