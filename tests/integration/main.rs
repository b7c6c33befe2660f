//! The integration tests, in one binary (one link instead of one per area):
//! a module per area, each running the real `spider` executable or the
//! library as a user would.

mod analyze;
mod batch;
mod blind_play;
mod companion;
mod companion_resume;
mod companion_words;
mod deal_files;
mod explore;
mod graph;
mod layered;
mod mid_game;
mod numbered;
mod outputs;
mod pages;
mod proofs;
mod slurm;
mod solver;
mod trust;
mod unknown_cards;

/// Flags that keep the first winning line `analyze` or `batch` finds:
/// shortening it takes seconds of the default budget, and most tests check
/// something else (the tests of shortening give it a budget of their own).
pub const NO_SHORTENING: [&str; 2] = ["--shorten-positions", "0"];

/// The blind player's budgets that keep a test's decisions of `spider
/// play` short: two completions, each solved within 20,000 positions.
pub const QUICK_PLAYER: [&str; 6] = [
    "--player-samples",
    "2",
    "--solve-positions",
    "20000",
    "-j",
    "1",
];

/// A scratch directory for a test, removed when dropped: in memory where
/// the system has room (`spider_analyzer::scratch::scratch_root`), since
/// the searches on disk and the companion's saved games sync their files.
pub fn scratch() -> tempfile::TempDir {
    tempfile::tempdir_in(spider_analyzer::scratch::scratch_root()).unwrap()
}

/// Says on the terminal that `test` skipped a check because `tool` is not
/// installed. Written straight to the standard error, past the test
/// harness's capture, so that `cargo test` shows it even when the test
/// passes.
pub fn skipped(test: &str, tool: &str, what: &str) {
    use std::io::Write;
    let _ = writeln!(
        std::io::stderr(),
        "skipped: {test}: {tool} is not installed; {what}"
    );
}
