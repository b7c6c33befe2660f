//! `spider quiz [FILE]`: every consistent set of answers of a
//! self-referential quiz, found by the search engine.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use spider_analyzer::explore::{End, Limits};
use spider_analyzer::puzzles::quiz::Quiz;
use spider_analyzer::text::count as counted;

/// Arguments of `spider quiz`.
#[derive(Debug, clap::Args)]
// `--time-limit -1` reaches the flag's reader, which names the range.
#[command(allow_negative_numbers = true)]
#[command(after_help = super::exit_codes!(
    "0  at least one consistent set of answers",
    "1  no consistent set",
    "2  bad usage or bad input (a quiz file that cannot be read)",
    "3  stopped by the memory limit or Ctrl-C: the sets printed are those found so far",
))]
pub struct Args {
    /// The quiz, in YAML (see docs/explore.md). Without it, the built-in
    /// BrainBashers quiz.
    pub file: Option<PathBuf>,
    /// Machine-readable output.
    #[arg(long)]
    pub json: bool,
    /// Stop the search when its memory estimate reaches this, like `512M`
    /// or `4G` (exit 3, the sets found so far printed); `auto` is half the
    /// machine's memory, as for every search; 0 for no limit. The search
    /// goes depth first and holds only the answers it is trying, so it needs
    /// little memory (the sets found are kept besides).
    #[arg(long, value_name = "SIZE", default_value = "auto", value_parser = super::flags::memory_limit)]
    pub memory_limit: super::flags::MemoryLimit,
}

/// Prints every consistent set of answers and their count. Exit 0 when there
/// is at least one, 1 when there is none, 3 when a limit stopped the search.
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
    let solutions = quiz.solve_within(Limits {
        max_memory: args.memory_limit.per_search(1),
        cancel: Some(super::cancel_on_ctrl_c()),
        ..Limits::default()
    });
    let count = solutions.sets.len();
    let stopped = match solutions.end {
        End::Stopped(reason) => Some(super::stopped_why(reason, &args.memory_limit)),
        _ => None,
    };

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
            "complete": stopped.is_none(),
            "stopped_by": stopped,
            "solutions": sets,
            "stats": super::stats_json(&solutions.stats),
        });
        serde_json::to_writer_pretty(&mut out, &json)?;
        writeln!(out)?;
    } else {
        for set in &solutions.sets {
            let answers: Vec<String> = set.iter().map(ToString::to_string).collect();
            writeln!(out, "{}", answers.join(" "))?;
            // Each question with its answer and what that answer claims.
            for answer in set {
                let question = &quiz.questions[answer.question];
                let option = &question.options[answer.option];
                let claimed = &quiz.questions[question.about].options[option.claim].name;
                let text = question
                    .text
                    .as_deref()
                    .map_or(String::new(), |text| format!(" {}:", text.trim_end()));
                writeln!(
                    out,
                    "  {}.{text} {}, which says {}={claimed}",
                    answer.question + 1,
                    option.name,
                    question.about + 1,
                )?;
            }
        }
        let partial = match &stopped {
            None => String::new(),
            Some(why) => format!(" so far (stopped: {why})"),
        };
        writeln!(
            out,
            "{} of answers{partial} ({source}, {}).",
            counted(count as u64, "consistent set"),
            counted(quiz.questions.len() as u64, "question")
        )?;
    }
    Ok(if stopped.is_some() {
        ExitCode::from(3)
    } else if count == 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
