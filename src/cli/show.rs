//! The `--html` outputs of the commands: what each page says, and writing
//! it (see [`spider_analyzer::html`]).

use std::path::Path;

use spider_analyzer::deal::Deal;
use spider_analyzer::game::{Game, Move};
use spider_analyzer::html::{self, play};
use spider_analyzer::solve::{Analysis, Verdict};

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
        "{} suits, {} rules. Verdict: {}{}.",
        deal.suits.count(),
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
                "A winning line of {} moves, replayed and checked by the rules{}.",
                line.len(),
                analysis
                    .first_win
                    .map(|(time, moves)| format!(
                        " (the first win, {moves} moves, came after {:.2} s; the rest of the time went to shortening it)",
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
                "No winning line. The search reached at best {} runs removed and {} face-down cards left.",
                analysis.best_runs_removed, analysis.fewest_face_down
            ));
            let wins = spider_analyzer::solve::verify(game, &line).is_ok();
            if wins {
                lines.push(format!(
                    "The {} moves shown win: a short beam search run for this page found them after the solver had stopped (replayed by the rules).",
                    line.len()
                ));
            } else if !line.is_empty() {
                lines.push(format!(
                    "The {} moves shown lead to the best position a short beam search found without turning up an unknown card (not a win).",
                    line.len()
                ));
            }
        }
    }
    let unknown = deal.unknown_places().len();
    if unknown > 0 {
        lines.push(format!(
            "{unknown} cards are XX (never seen): face down they look like any other; turned up they are drawn as ?."
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
        "{} suits, {} rules. {} of the {written} moves written are legal{}.",
        deal.suits.count(),
        deal.rules,
        legal.len(),
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

/// The page of `spider batch --html`, when asked for: a report of
/// `records` (the results files read are inputs, never written over).
pub fn write_batch_report(
    args: &super::batch::Args,
    records: &[spider_analyzer::batch::Record],
    summary: &spider_analyzer::batch::Summary,
) -> anyhow::Result<()> {
    let Some(path) = &args.html else {
        return Ok(());
    };
    let mut inputs: Vec<&Path> = args.summarize.iter().map(|p| p.as_path()).collect();
    inputs.extend(args.output.iter().map(|p| p.as_path()));
    let title = match (&args.number, &args.pysol) {
        (Some(range), _) => format!("Own deals {range}, {} suits", args.suits.count()),
        (_, Some(range)) => format!("PySol games {range}"),
        _ => {
            let names: Vec<String> = args
                .summarize
                .iter()
                .map(|p| {
                    p.file_name().map_or(p.display().to_string(), |n| {
                        n.to_string_lossy().into_owned()
                    })
                })
                .collect();
            format!("Results in {}", names.join(", "))
        }
    };
    let page = html::report::page(&title, records, summary);
    super::output::write(path, &inputs, args.force, |out| {
        out.write_all(page.as_bytes())
    })?;
    Ok(())
}
