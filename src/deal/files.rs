//! Reading deal files in any supported format (being built).

use std::path::Path;

use super::{Deal, InputError};

/// Reads a deal file, YAML or CLIPS facts.
pub fn load(path: &Path) -> Result<Deal, InputError> {
    Err(InputError::whole_file(
        path,
        "deal files cannot be read yet",
    ))
}
