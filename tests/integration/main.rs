//! The integration tests, in one binary (one link instead of one per area):
//! a module per area, each running the real `spider` executable or the
//! library as a user would.

mod analyze;
mod batch;
mod blind_play;
mod deal_files;
mod explore;
mod graph;
mod layered;
mod numbered;
mod outputs;
mod pages;
mod proofs;
mod solver;
mod trust;
mod unknown_cards;
