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
//! - [`view`]: what a player sees (no hidden card in it), and
//!   [`referee`]: the real deal, which plays the player's moves;
//! - [`policy`]: the player interface ([`policy::Policy`]) and settings;
//! - [`blind`]: the player by hindsight optimisation, the lookahead alone,
//!   and the game between player and referee;
//! - [`search`]: the search over the reveals, on the fast policy of
//!   [`playout`] trained by [`train`];
//! - [`odds`]: the chance shown to a player, fitted on the player's own
//!   recorded games, and [`chance`]: the search player's calibration;
//! - [`lookahead`]: the search of the moves that turn up nothing.

pub mod blind;
pub mod chance;
pub mod completions;
mod decided;
pub mod hint;
pub mod lookahead;
pub mod odds;
pub mod playout;
pub mod policy;
pub mod referee;
pub mod sample;
pub mod search;
pub mod train;
pub mod view;

pub use decided::{Completion, CompletionError, Decided, SampleSummary};
