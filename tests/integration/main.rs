//! The integration tests, in one binary (one link instead of one per area):
//! a module per area, each running the real `spider` executable or the
//! library as a user would.

mod analyze;
mod batch;
mod deal_files;
mod explore;
mod graph;
mod numbered;
mod pages;
mod solver;
