//! The `--html` outputs of the commands: what each page says, and writing
//! it (see [`spider_analyzer::html`]).

use std::path::Path;

use spider_analyzer::deal::Deal;
use spider_analyzer::game::{Game, Move};
use spider_analyzer::html::{self, play};
use spider_analyzer::solve::{Analysis, Verdict};
use spider_analyzer::text::count;

/// The page of `spider analyze --html`: the winning line, or the position
/// when there is none.
pub fn write_analysis_page(
    path: &Path,
    force: bool,
    inputs: &[&Path],
    name: &str,
    game: &Game,
    deal: &Deal,
    analysis: &Analysis,
) -> anyhow::Result<()> {
    let mut lines = vec![format!(
        "{}, {} rules. Verdict: {}{}.",
        count(deal.suits.count() as u64, "suit"),
        deal.rules,
        analysis.verdict,
        analysis
            .stopped_by
            .map(|reason| format!(" ({reason})"))
            .unwrap_or_default()
    )];
    let line = match &analysis.line {
        Some(line) => line.clone(),
        None => spider_analyzer::solve::line_to_best_position(game),
    };
    match analysis.verdict {
        Verdict::Winnable => {
            lines.push(format!(
                "A winning line of {}, replayed and checked by the rules{}.",
                count(line.len() as u64, "move"),
                analysis
                    .first_win
                    .map(|(time, moves)| format!(
                        " (the first win, {}, came after {:.2} s; the rest of the time went to shortening it)",
                        count(moves as u64, "move"),
                        time.as_secs_f64()
                    ))
                    .unwrap_or_default()
            ));
            lines.push(
                "Step with the buttons, the arrow keys or the slider; the moved cards are yellow, a card that turned up is marked blue."
                    .into(),
            );
        }
        _ => {
            lines.push(format!(
                "No winning line. The search reached at best {} removed and {} left.",
                count(analysis.best_runs_removed as u64, "run"),
                count(analysis.fewest_face_down as u64, "face-down card")
            ));
            let wins = spider_analyzer::solve::verify(game, &line).is_ok();
            if wins {
                lines.push(format!(
                    "The {} shown win: a short beam search run for this page found them after the solver had stopped (replayed by the rules).",
                    count(line.len() as u64, "move")
                ));
            } else if !line.is_empty() {
                lines.push(format!(
                    "The {} shown lead to the best position a short beam search found without turning up an unknown card (not a win).",
                    count(line.len() as u64, "move")
                ));
            }
        }
    }
    let unknown = deal.unknown_places().len();
    if unknown > 0 {
        lines.push(format!(
            "{} XX (never seen): face down they look like any other; turned up they are drawn as ?.",
            if unknown == 1 { "1 card is".to_owned() } else { format!("{unknown} cards are") }
        ));
    }
    let caption = play::Caption {
        title: format!("{name}: {}", analysis.verdict),
        lines,
    };
    let page = play::page(game, deal, &caption, &line);
    super::output::write(path, inputs, force, |out| out.write_all(page.as_bytes()))?;
    Ok(())
}

/// The page of `spider replay --html`: the legal moves of the list.
#[allow(clippy::too_many_arguments)]
pub fn write_replay_page(
    path: &Path,
    force: bool,
    inputs: &[&Path],
    name: &str,
    game: &Game,
    deal: &Deal,
    legal: &[Move],
    written: usize,
) -> anyhow::Result<()> {
    let mut lines = vec![format!(
        "{}, {} rules. {} of the {} written {} legal{}.",
        count(deal.suits.count() as u64, "suit"),
        deal.rules,
        legal.len(),
        count(written as u64, "move"),
        if written == 1 { "is" } else { "are" },
        if legal.len() < written {
            "; the page stops before the first illegal one"
        } else {
            ""
        }
    )];
    lines.push(
        "Step with the buttons, the arrow keys or the slider; the moved cards are yellow, a card that turned up is marked blue."
            .into(),
    );
    let caption = play::Caption {
        title: format!("{name}: a line replayed"),
        lines,
    };
    let page = play::page(game, deal, &caption, legal);
    super::output::write(path, inputs, force, |out| out.write_all(page.as_bytes()))?;
    Ok(())
}

/// The page of `spider batch --html`: a report of `records` under
/// `title` (`inputs`, the results files read, are never written over).
pub fn write_batch_report(
    path: &Path,
    force: bool,
    inputs: &[&Path],
    title: &str,
    records: &[spider_analyzer::batch::Record],
    summary: &spider_analyzer::batch::Summary,
) -> anyhow::Result<()> {
    let page = html::report::page(title, records, summary);
    super::output::write(path, inputs, force, |out| out.write_all(page.as_bytes()))?;
    Ok(())
}
