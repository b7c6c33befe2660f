//! Reading the inputs of a command: a deal file, or `-` for standard input.

use std::path::Path;

use spider_analyzer::deal::{Deal, InputError, files};

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
