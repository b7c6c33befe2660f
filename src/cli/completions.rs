//! What `spider analyze` prints of the completions of a deal's `XX`
//! cards: how many were decided and how, the sampled share with what its
//! interval does with the undecided ones, and each completion's winning
//! line when asked (`--lines`).

use std::io::Write;

use spider_analyzer::game::compact_line;
use spider_analyzer::solve::{StopReason, Verdict};
use spider_analyzer::text::count;
use spider_analyzer::unknown::{Decided, sample};

/// "9 of 100 sampled completions undecided at 2000000 positions each:
/// counted both ways ..." when a sample has undecided completions: what
/// the interval of its share does with them. `budget`: the positions each
/// sampled completion's search may examine.
pub(super) fn undecided_words(decided: &Decided, budget: Option<u64>) -> Option<String> {
    let summary = decided.summary();
    if !decided.is_sample() || summary.undecided == 0 {
        return None;
    }
    let at_budget = decided
        .completions
        .iter()
        .filter(|c| c.analysis.verdict == Verdict::Undecided)
        .all(|c| c.analysis.stopped_by == Some(StopReason::Positions));
    let why = match budget {
        Some(budget) if at_budget => format!("at {} each", count(budget, "position")),
        _ => "within the limits".to_string(),
    };
    Some(format!(
        "{} of {} sampled completions undecided {why}: counted both ways (lost for the low end of the interval, won for its high end)",
        summary.undecided, summary.decided
    ))
}

/// `stopped`: what Ctrl-C left decided, when it stopped them. `budget`:
/// the positions of each sampled completion's search. `lines`: print each
/// completion's winning line (`--lines`).
pub(super) fn print_completions(
    out: &mut impl Write,
    decided: &Decided,
    stopped: Option<&str>,
    budget: Option<u64>,
    lines: bool,
) -> anyhow::Result<()> {
    let slots: Vec<String> = decided.slots.iter().map(|p| p.to_string()).collect();
    if let Some(seed) = decided.seed {
        let summary = decided.summary();
        writeln!(
            out,
            "\ncompletions: {} ways to fill the {} XX slots (every digit in --json), too many to decide them all",
            sample::approximate(&decided.total),
            decided.slots.len(),
        )?;
        if let Some(stopped) = stopped {
            writeln!(out, "{stopped}")?;
        }
        writeln!(
            out,
            "sample: {} drawn uniformly, seed {seed} (--seed {seed} draws it again), each searched under its limits",
            count(summary.decided as u64, "completion")
        )?;
        writeln!(
            out,
            "  winnable {}, unwinnable {}, undecided {}",
            summary.winnable, summary.unwinnable, summary.undecided
        )?;
        if let Some(words) = undecided_words(decided, budget) {
            writeln!(out, "  {words}")?;
        }
        if let Some(share) = summary.share {
            writeln!(out, "  winnable share: {share}")?;
        }
        let lengths: Vec<usize> = decided
            .completions
            .iter()
            .filter_map(|c| c.analysis.line.as_ref().map(Vec::len))
            .collect();
        let seconds: f64 = decided
            .completions
            .iter()
            .map(|c| c.analysis.elapsed.as_secs_f64())
            .sum();
        writeln!(
            out,
            "  search time {seconds:.1} s in all{}; every completion in --json, {}",
            if lengths.is_empty() {
                String::new()
            } else {
                format!(
                    ", winning lines of {}–{} moves (not shortened)",
                    lengths.iter().min().unwrap_or(&0),
                    lengths.iter().max().unwrap_or(&0)
                )
            },
            if lines {
                "each winning line below"
            } else {
                "each winning line with --lines"
            }
        )?;
        if lines {
            print_lines(out, decided)?;
        }
        return Ok(());
    }
    writeln!(
        out,
        "\ncompletions: every way to fill the XX slots ({})",
        slots.join("; ")
    )?;
    if let Some(stopped) = stopped {
        writeln!(out, "{stopped}")?;
    }
    for (index, completion) in decided.completions.iter().enumerate() {
        let cards: Vec<String> = completion.cards.iter().map(|c| c.pretty()).collect();
        let a = &completion.analysis;
        write!(
            out,
            "{:>5}. {:<16} {:<10}",
            index + 1,
            cards.join(" "),
            a.verdict.to_string()
        )?;
        match (&a.line, a.stopped_by) {
            (Some(line), _) => write!(out, " {}", count(line.len() as u64, "move"))?,
            (None, Some(reason)) => write!(
                out,
                " ({reason}; best: {}, {} face down)",
                runs_removed(a.best_runs_removed),
                a.fewest_face_down
            )?,
            _ => {}
        }
        writeln!(
            out,
            "  [{}, {:.2} s]",
            count(a.positions, "position"),
            a.elapsed.as_secs_f64()
        )?;
    }
    let n = decided.completions.len();
    writeln!(
        out,
        "winnable in {} of {} ({} unwinnable, {} undecided)",
        decided.count(Verdict::Winnable),
        count(n as u64, "completion"),
        decided.count(Verdict::Unwinnable),
        decided.count(Verdict::Undecided)
    )?;
    if lines {
        print_lines(out, decided)?;
    }
    Ok(())
}

/// `--lines`: each completion's winning line, numbered as listed (a
/// sample: in the order drawn), in the compact form.
fn print_lines(out: &mut impl Write, decided: &Decided) -> anyhow::Result<()> {
    writeln!(
        out,
        "winning lines (each against its own completion{}; `spider replay` reads them):",
        if decided.is_sample() {
            ", whose cards --json gives"
        } else {
            ""
        }
    )?;
    for (index, completion) in decided.completions.iter().enumerate() {
        let a = &completion.analysis;
        match &a.line {
            Some(line) => writeln!(
                out,
                "{:>5}. {}: {}",
                index + 1,
                count(line.len() as u64, "move"),
                compact_line(line)
            )?,
            None => writeln!(out, "{:>5}. {}: no winning line", index + 1, a.verdict)?,
        }
    }
    Ok(())
}

/// "1 run removed", "3 runs removed".
pub(super) fn runs_removed(runs: usize) -> String {
    if runs == 1 {
        "1 run removed".into()
    } else {
        format!("{runs} runs removed")
    }
}
