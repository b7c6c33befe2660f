//! Writing output files safely, the same way in every command.
//!
//! A command never writes over one of its own inputs (`spider graph X.yaml
//! -o X.yaml` once replaced a deal with DOT), and replaces an existing file
//! only when told to with `--force`. Files are written atomically: into a
//! temporary file next to the target, then renamed over it, so on any error
//! the target is left as it was.
//!
//! Use: call [`check`] as soon as the flags are read (so a long run does not
//! end in a refusal), then [`write`] with the content when it is ready.
//! (`spider batch`'s results file is different: it is appended to and
//! resumed, never replaced; see `spider_analyzer::batch::RecordWriter`.)

use std::io::{self, Write};
use std::path::Path;

use spider_analyzer::deal::files::write_atomically;

/// What `--force` says in every command's help.
pub const FORCE_HELP: &str = "Replace the output file if it exists (never one of the inputs)";

/// Checks that `path` may be written: it is none of `inputs` (compared as
/// files, however spelled: links and `./` included; `-` for standard input
/// is skipped) and, unless `force`, it does not exist yet.
pub fn check(path: &Path, inputs: &[&Path], force: bool) -> anyhow::Result<()> {
    for input in inputs {
        if super::input::is_stdin(input) {
            continue;
        }
        if same_file(input, path) {
            anyhow::bail!(
                "{}: is the input file {}; not written over (choose another output file)",
                path.display(),
                input.display()
            );
        }
    }
    if !force && std::fs::symlink_metadata(path).is_ok() {
        anyhow::bail!(
            "{} already exists; not written over (add --force to replace it)",
            path.display()
        );
    }
    Ok(())
}

/// Writes `path` atomically with `write`, after the checks of [`check`].
pub fn write(
    path: &Path,
    inputs: &[&Path],
    force: bool,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> anyhow::Result<()> {
    check(path, inputs, force)?;
    write_atomically(path, write)
        .map_err(|err| anyhow::anyhow!("{}: cannot write the file: {err}", path.display()))
}

/// Whether two paths name the same existing file.
pub fn same_file(a: &Path, b: &Path) -> bool {
    let (Ok(a_meta), Ok(b_meta)) = (std::fs::metadata(a), std::fs::metadata(b)) else {
        return false;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if a_meta.dev() == b_meta.dev() && a_meta.ino() == b_meta.ino() {
            return true;
        }
    }
    let _ = (a_meta, b_meta);
    matches!(
        (std::fs::canonicalize(a), std::fs::canonicalize(b)),
        (Ok(a), Ok(b)) if a == b
    )
}
