//! `spider convert FILE [-o OUT]`: any deal file to the YAML deal format.
//!
//! The CLIPS facts the project started from, or a YAML file written by hand
//! in a looser style, become the canonical YAML layout. With `-o` the file is
//! written atomically, never over the input, and over an existing file only
//! with `--force`; on bad input nothing is written.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use spider_analyzer::deal::yaml;

#[derive(Debug, clap::Args)]
// `--time-limit -1` reaches the flag's reader, which names the range.
#[command(allow_negative_numbers = true)]
#[command(after_help = super::exit_codes!(
    "0  converted (printed, or written to -o OUT.yaml)",
    "2  bad usage or bad input, or OUT.yaml exists or is the input: nothing written",
))]
pub struct Args {
    /// The deal file to read (YAML, or CLIPS facts); `-` reads standard
    /// input.
    file: PathBuf,
    /// Write the YAML here instead of to stdout.
    #[arg(short, long, value_name = "OUT.yaml")]
    output: Option<PathBuf>,
    #[arg(long, requires = "output", help = super::output::FORCE_HELP)]
    force: bool,
}

/// Converts; exit 0 (2 on bad input, by the dispatcher).
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if let Some(output) = &args.output {
        super::output::check(output, &[&args.file], args.force)?;
    }
    let deal = super::input::load_deal(&args.file)?;
    match &args.output {
        Some(output) => super::output::write(output, &[&args.file], args.force, |out| {
            out.write_all(yaml::to_string(&deal).as_bytes())
        })?,
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(yaml::to_string(&deal).as_bytes())?;
            out.flush()?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
