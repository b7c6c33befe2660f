//! `spider deal`: write the deal file of a numbered deal, from the project's
//! own generator (`--number`) or as PySol deals a game (`--pysol`), so that
//! a numbered deal can be analyzed, shared and replayed like a typed one.

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use spider_analyzer::cards::SuitCount;
use spider_analyzer::deal::{Rules, numbered, pysol, yaml};

#[derive(Debug, clap::Args)]
// `--time-limit -1` reaches the flag's reader, which names the range.
#[command(allow_negative_numbers = true)]
#[command(after_help = super::exit_codes!(
    "0  written (to stdout, or to -o FILE)",
    "2  bad usage (a number the source does not have), or FILE exists: nothing written",
))]
#[command(group(clap::ArgGroup::new("source").required(true).args(["number", "pysol"])))]
pub struct Args {
    /// Deal N of the project's own generator (any number 0 to 2^64-1; the
    /// same N gives the same deal in every version).
    #[arg(long, value_name = "N", value_parser = super::flags::whole(0, u64::MAX))]
    number: Option<u64>,
    /// PySol(FC) game N of 4-suit Spider (0 to 10^20).
    #[arg(long, value_name = "N", value_parser = super::flags::game_number)]
    pysol: Option<u128>,
    /// Number of suits: 1, 2 or 4 (PySol numbers are 4-suit only).
    #[arg(long, value_name = "1|2|4", value_parser = parse_suits)]
    suits: Option<SuitCount>,
    /// When dealing from the stock is allowed: standard (no empty pile) or
    /// relaxed.
    #[arg(long, value_name = "standard|relaxed", default_value = "standard", value_parser = parse_rules)]
    rules: Rules,
    /// Write the deal as its player sees it: the face-up cards only, every
    /// face-down and stock card `XX` (the file `spider play` and `spider
    /// hint` take at the start of that game).
    #[arg(long)]
    as_seen: bool,
    /// Write the deal file here instead of to standard output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    #[arg(long, requires = "output", help = super::output::FORCE_HELP)]
    force: bool,
}

/// Reads a suit count, `1`, `2` or `4`.
pub fn parse_suits(text: &str) -> Result<SuitCount, String> {
    text.trim()
        .parse::<usize>()
        .ok()
        .and_then(SuitCount::from_count)
        .ok_or_else(|| format!("expected 1, 2 or 4 suits, got `{text}`"))
}

/// Reads the rules, `standard` or `relaxed`.
pub fn parse_rules(text: &str) -> Result<Rules, String> {
    match text.trim().to_ascii_lowercase().as_str() {
        "standard" => Ok(Rules::Standard),
        "relaxed" => Ok(Rules::Relaxed),
        _ => Err(format!("expected `standard` or `relaxed`, got `{text}`")),
    }
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if let Some(path) = &args.output {
        super::output::check(path, &[], args.force)?;
    }
    let (deal, origin) = match (args.number, args.pysol) {
        (Some(number), _) => {
            let suits = args.suits.unwrap_or_default();
            (
                numbered::deal(number, suits, args.rules),
                format!("spider deal --number {number} (own generator)"),
            )
        }
        (None, Some(game)) => {
            if let Some(suits) = args.suits.filter(|&s| s != SuitCount::Four) {
                anyhow::bail!(
                    "PySol game numbers are 4-suit Spider deals; --suits {} cannot be used with --pysol",
                    suits.count()
                );
            }
            (
                pysol::deal(game, args.rules)?,
                format!("spider deal --pysol {game} (PySol game number)"),
            )
        }
        (None, None) => unreachable!("clap requires --number or --pysol"),
    };
    let (deal, origin) = if args.as_seen {
        let seen = spider_analyzer::unknown::view::View::of(&deal)?.deal();
        (seen, format!("{origin}, as its player sees it (--as-seen)"))
    } else {
        (deal, origin)
    };
    let text = format!("# {origin}\n{}", yaml::to_string(&deal));
    match &args.output {
        None => {
            let mut stdout = std::io::stdout().lock();
            stdout.write_all(text.as_bytes())?;
            stdout.flush()?;
        }
        Some(path) => {
            super::output::write(path, &[], args.force, |out| out.write_all(text.as_bytes()))?
        }
    }
    Ok(ExitCode::SUCCESS)
}
