//! `spider quiz [FILE]`: every consistent set of answers of a
//! self-referential quiz, found by the search engine.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use spider_analyzer::puzzles::quiz::Quiz;

/// Arguments of `spider quiz`.
#[derive(Debug, clap::Args)]
// `--time-limit -1` reaches the flag's reader, which names the range.
#[command(allow_negative_numbers = true)]
#[command(after_help = super::exit_codes!(
    "0  at least one consistent set of answers",
    "1  no consistent set",
    "2  bad usage or bad input (a quiz file that cannot be read)",
))]
pub struct Args {
    /// The quiz, in YAML (see docs/explore.md). Without it, the built-in
    /// BrainBashers quiz.
    pub file: Option<PathBuf>,
    /// Machine-readable output.
    #[arg(long)]
    pub json: bool,
}

/// Prints every consistent set of answers and their count. Exit 0 when there
/// is at least one, 1 when there is none.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let (source, quiz) = match &args.file {
        None => ("built-in quiz".to_owned(), Quiz::builtin()),
        Some(path) => {
            let name = path.display().to_string();
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read quiz file {name}"))?;
            let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
            spider_analyzer::deal::files::check_yaml_size(text, path)?;
            let quiz = Quiz::from_yaml(text).with_context(|| format!("quiz file {name}"))?;
            (name, quiz)
        }
    };
    let solutions = quiz.solve();
    let count = solutions.sets.len();

    let mut out = std::io::stdout().lock();
    if args.json {
        let sets: Vec<serde_json::Map<String, serde_json::Value>> = solutions
            .sets
            .iter()
            .map(|set| {
                set.iter()
                    .map(|a| ((a.question + 1).to_string(), a.name.as_ref().into()))
                    .collect()
            })
            .collect();
        let json = serde_json::json!({
            "quiz": source,
            "title": quiz.title,
            "questions": quiz.questions.len(),
            "consistent": count,
            "solutions": sets,
            "stats": super::stats_json(&solutions.stats),
        });
        serde_json::to_writer_pretty(&mut out, &json)?;
        writeln!(out)?;
    } else {
        for set in &solutions.sets {
            let answers: Vec<String> = set.iter().map(ToString::to_string).collect();
            writeln!(out, "{}", answers.join(" "))?;
        }
        let noun = if count == 1 { "set" } else { "sets" };
        writeln!(
            out,
            "{count} consistent {noun} of answers ({source}, {} questions).",
            quiz.questions.len()
        )?;
    }
    Ok(if count == 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
