//! Reading the inputs of a command: a deal file, or `-` for standard input.

use std::path::Path;

use spider_analyzer::deal::check::Report;
use spider_analyzer::deal::{Deal, InputError, files};
use spider_analyzer::text::count;

/// The name standard input goes by in messages.
pub const STDIN_NAME: &str = "<stdin>";

/// Whether `path` is `-`, standard input.
pub fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Reads a deal from a file, or from standard input when `path` is `-`.
/// Sizes are capped as [`files::load`] caps them.
pub fn load_deal(path: &Path) -> Result<Deal, InputError> {
    if is_stdin(path) {
        files::load_from(std::io::stdin().lock(), Path::new(STDIN_NAME))
    } else {
        files::load(path)
    }
}

/// How a deal input is named in reports: the path, or `<stdin>`.
pub fn name(path: &Path) -> String {
    if is_stdin(path) {
        STDIN_NAME.to_string()
    } else {
        path.display().to_string()
    }
}

/// Refuses an inconsistent deal, the same way in `analyze` and `hint`
/// (exit 2): its answer would be about another game than the one on the
/// table, and its `XX` cards cannot be filled. The message says what is
/// wrong in short; `spider check` lists each card and where it is.
pub fn refuse_inconsistent(name: &str, report: &Report) -> anyhow::Result<()> {
    if report.consistent {
        return Ok(());
    }
    let mut findings = Vec::new();
    if !report.too_often.is_empty() {
        let cards: Vec<String> = report.too_often.iter().map(|c| c.card.pretty()).collect();
        findings.push(format!(
            "{} too often ({})",
            count(cards.len() as u64, "card"),
            spider_analyzer::text::excerpt(&cards.join(", "))
        ));
    }
    if !report.fills_exactly {
        findings.push(format!(
            "{} missing for {}",
            count(report.missing_count as u64, "card"),
            count(report.unknown_count as u64, "XX slot")
        ));
    }
    let mut message = format!(
        "{name}: the deal is inconsistent: {}; see `spider check {name}` for each card and where it is",
        findings.join(", ")
    );
    if let Some(suits) = report.suits_hint {
        message.push_str(&format!(
            " (every known card is of the {suits}-suit game's suits: is `suits: {suits}` missing?)"
        ));
    }
    anyhow::bail!(message)
}
