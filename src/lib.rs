//! Spider Solitaire analyzer: can this deal still be won, and how?
//!
//! The crate is split the way the game is talked about:
//!
//! - [`cards`]: cards, ranks and suits, as players write them.
//! - [`deal`]: a deal or mid-game position as a file describes it, the readers
//!   for its formats, the two-deck consistency check and numbered deals.
//! - [`game`]: the rules: positions, legal moves, dealing, turn-ups, removal of
//!   completed runs, the packed position, replay of move lists.
//! - [`explore`]: a generic search engine (start, successors, goal) with exact
//!   deduplication, the move graph and its measures.
//! - [`solve`]: the Spider solver built on the rules and the engine: verdicts,
//!   winning lines, proofs of a loss.
//! - [`unknown`]: unknown (`XX`) cards: completions, samples, the hint and
//!   the blind player, with the solver as their tool.
//! - [`clock`]: the CPU time a thread has used (a blind game's cost).
//! - [`puzzles`]: N-queens and a self-referential quiz, small problems that
//!   validate the engine.

pub mod batch;
pub mod cards;
pub mod clock;
pub mod deal;
pub mod explore;
pub mod game;
pub mod html;
pub mod puzzles;
#[doc(hidden)]
pub mod scratch;
pub mod solve;
pub mod stats;
pub mod text;
pub mod unknown;
