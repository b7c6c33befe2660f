//! The `spider` binary: parse the command line, run, map the outcome to an exit code.

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    cli::main()
}
