//! Writing output files safely, the same way in every command (`-o`,
//! `--output`, `--html`).
//!
//! - `-` is standard output.
//! - A command never writes over one of its own inputs (`spider graph X.yaml
//!   -o X.yaml` once replaced a deal with DOT).
//! - A new file, or an existing regular file with `--force`, is written
//!   atomically: into a temporary file next to it, then renamed over it, so
//!   on any error the target is left as it was. A symbolic link is written
//!   through: the file it points to is replaced and the link stays; a link
//!   to nothing is refused.
//! - A device, a FIFO or `/dev/stdout` is written into, never replaced, and
//!   needs no `--force` (running as root must never turn `/dev/null` into a
//!   regular file).
//! - A missing directory, a directory, or one that cannot be written to is
//!   refused by [`check`], which every command calls as soon as its flags are
//!   read: exit 2 at once, not after a long search.
//!
//! (`spider batch`'s results file is different: it is appended to and
//! resumed, never replaced; see `spider_analyzer::batch::RecordWriter`.)

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use spider_analyzer::deal::files::write_atomically;
use spider_analyzer::text::io_reason as reason;

/// What `--force` says in every command's help.
pub const FORCE_HELP: &str = "Replace the output file if it is a regular file (through a symbolic \
link: the file it points to); never one of the inputs. A device, a FIFO or - (standard output) is \
written into and needs no --force";

/// Where an output goes, once [`check`] has accepted it.
#[derive(Debug, PartialEq, Eq)]
pub enum Target {
    /// `-`: standard output.
    Stdout,
    /// A device or a FIFO (`/dev/null`, `/dev/stdout` on a pipe or a
    /// terminal): opened and written into, never replaced.
    Special(PathBuf),
    /// A regular file, new or replaced atomically: the path after following
    /// symbolic links.
    File(PathBuf),
}

/// Whether `path` is `-`, standard output.
pub fn is_stdout(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Checks that `path` may be written and says how: it is none of `inputs`
/// (compared as files, however spelled; `-` for standard input is skipped),
/// its directory exists and can be written to, it is not a directory, and,
/// unless `force`, it is not an existing regular file. Call it before any
/// long work.
pub fn check(path: &Path, inputs: &[&Path], force: bool) -> anyhow::Result<Target> {
    if is_stdout(path) {
        return Ok(Target::Stdout);
    }
    let shown = path.display();
    for input in inputs {
        if super::input::is_stdin(input) {
            continue;
        }
        if same_file(input, path) {
            anyhow::bail!(
                "{shown}: is the input file {}; not written over (choose another output file)",
                input.display()
            );
        }
    }
    let is_link = fs::symlink_metadata(path).is_ok_and(|meta| meta.file_type().is_symlink());
    match fs::metadata(path) {
        Ok(meta) if meta.is_dir() => {
            anyhow::bail!("{shown}: is a directory; expected the name of a file to write")
        }
        Ok(meta) if !meta.is_file() => Ok(Target::Special(path.to_path_buf())),
        Ok(_) if !force => {
            anyhow::bail!("{shown}: already exists; not written over (add --force to replace it)")
        }
        Ok(_) => {
            // Written through a link: the file it points to is replaced.
            let target = if is_link {
                fs::canonicalize(path).map_err(|err| cannot(path, &err))?
            } else {
                path.to_path_buf()
            };
            check_directory(path, &target)?;
            Ok(Target::File(target))
        }
        Err(_) if is_link => anyhow::bail!(
            "{shown}: is a symbolic link to {}, which does not exist; not written through",
            fs::read_link(path).map_or_else(|_| "?".into(), |to| to.display().to_string())
        ),
        Err(err) if err.kind() == io::ErrorKind::NotFound => {
            check_directory(path, path)?;
            Ok(Target::File(path.to_path_buf()))
        }
        Err(err) => Err(cannot(path, &err)),
    }
}

/// The directory a file `target` (named `path` on the command line) would
/// be created in exists and takes a new file: tried by creating and
/// removing an empty temporary file, which tells the truth as root, on
/// read-only mounts and under access lists alike.
fn check_directory(path: &Path, target: &Path) -> anyhow::Result<()> {
    let dir = match target.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    match fs::metadata(dir) {
        Ok(meta) if meta.is_dir() => {}
        Ok(_) => anyhow::bail!("{}: {} is not a directory", path.display(), dir.display()),
        Err(err) if err.kind() == io::ErrorKind::NotFound => {
            anyhow::bail!("{}: no such directory: {}", path.display(), dir.display())
        }
        Err(err) => return Err(cannot(path, &err)),
    }
    let probe = dir.join(format!(".spider-probe.{}.tmp", std::process::id()));
    match fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)
    {
        Ok(_) => {
            let _ = fs::remove_file(&probe);
            Ok(())
        }
        Err(err) => anyhow::bail!(
            "{}: cannot create a file in {}: {}",
            path.display(),
            dir.display(),
            reason(&err)
        ),
    }
}

/// Writes `path` with `write`, after the checks of [`check`]: standard
/// output, into a device or FIFO, or a regular file atomically.
pub fn write(
    path: &Path,
    inputs: &[&Path],
    force: bool,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> anyhow::Result<()> {
    let written = match check(path, inputs, force)? {
        Target::Stdout => {
            let mut out = io::stdout().lock();
            write(&mut out).and_then(|()| out.flush())
        }
        Target::Special(path) => fs::OpenOptions::new()
            .write(true)
            .open(path)
            .and_then(|file| {
                let mut out = io::BufWriter::new(file);
                write(&mut out)?;
                out.flush()
            }),
        Target::File(target) => write_atomically(&target, write),
    };
    written.map_err(|err| {
        if err.kind() == io::ErrorKind::BrokenPipe {
            // The dispatcher ends quietly on a reader gone away.
            anyhow::Error::new(err)
        } else {
            cannot(path, &err)
        }
    })
}

/// "PATH: cannot write: REASON", the cause said once.
fn cannot(path: &Path, err: &io::Error) -> anyhow::Error {
    anyhow::anyhow!("{}: cannot write: {}", path.display(), reason(err))
}

/// Whether two paths name the same existing file.
pub fn same_file(a: &Path, b: &Path) -> bool {
    let (Ok(a_meta), Ok(b_meta)) = (fs::metadata(a), fs::metadata(b)) else {
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
        (fs::canonicalize(a), fs::canonicalize(b)),
        (Ok(a), Ok(b)) if a == b
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Devices are written into, never replaced; nothing here writes.
    #[test]
    fn devices_and_dashes_are_not_files() {
        assert_eq!(check(Path::new("-"), &[], false).unwrap(), Target::Stdout);
        assert_eq!(
            check(Path::new("/dev/null"), &[], true).unwrap(),
            Target::Special(PathBuf::from("/dev/null"))
        );
        let err = check(Path::new("/"), &[], true).unwrap_err().to_string();
        assert_eq!(
            err,
            "/: is a directory; expected the name of a file to write"
        );
        let err = check(Path::new("/no/such/dir/x.dot"), &[], false)
            .unwrap_err()
            .to_string();
        assert_eq!(err, "/no/such/dir/x.dot: no such directory: /no/such/dir");
    }
}
