//! `spider convert FILE [-o OUT]`: any deal file to the YAML deal format.
//!
//! The CLIPS facts the project started from, or a YAML file written by hand
//! in a looser style, become the canonical YAML layout. With `-o` the file is
//! written atomically and never over the input; on bad input nothing is
//! written.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use spider_analyzer::deal::{files, load, yaml};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The deal file to read (YAML, or CLIPS facts).
    file: PathBuf,
    /// Write the YAML here instead of to stdout.
    #[arg(short, long, value_name = "OUT.yaml")]
    output: Option<PathBuf>,
}

/// Converts; exit 0 (2 on bad input, by the dispatcher).
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let deal = load(&args.file)?;
    match &args.output {
        Some(output) => files::save(&deal, output, Some(&args.file))?,
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(yaml::to_string(&deal).as_bytes())?;
            out.flush()?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
