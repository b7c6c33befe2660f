//! Deal files on disk: which format a file is in, and writing without ever
//! leaving a half-written file behind.
//!
//! Commands take a path and want a [`Deal`] or one clear [`InputError`]; they
//! should not care whether the player typed YAML or the old CLIPS facts.
//! Writing goes through a temporary file in the same directory and a rename,
//! so a deal file is either the old one or the complete new one, and a
//! conversion never writes over the file it reads.

use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use super::{Deal, InputError, clips, yaml};

/// The formats a deal file can be in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// The native YAML deal format ([`yaml`]).
    Yaml,
    /// CLIPS facts ([`clips`]).
    Clips,
}

impl Format {
    /// The format of a file: CLIPS if its name ends in `.clips` or its first
    /// character that is not blank nor in a `;` comment is `(`; YAML
    /// otherwise.
    pub fn detect(path: &Path, text: &str) -> Format {
        let clips_name = path
            .extension()
            .is_some_and(|ext| ext.eq_ignore_ascii_case("clips"));
        let first = text
            .lines()
            .map(|line| line.split(';').next().unwrap_or_default().trim())
            .find(|line| !line.is_empty());
        if clips_name || first.is_some_and(|line| line.starts_with('(')) {
            Format::Clips
        } else {
            Format::Yaml
        }
    }
}

/// The largest deal file read, in bytes. A deal file is a few KB; a larger
/// input is refused before any parsing, so no input can keep the parser
/// busy for long.
pub const MAX_DEAL_BYTES: usize = 256 << 10;

/// The most `[` and `{` a YAML deal file may have, which bounds how deep it
/// can nest. A deal has a few dozen (one list per pile and stock row); the
/// YAML parser's time grows with the square of the nesting depth (200 KB of
/// `[` took it 55 s), so a file with more is refused before parsing.
pub const MAX_BRACKETS: usize = 1000;

/// Reads a deal file, YAML or CLIPS facts (see [`Format::detect`]). At most
/// [`MAX_DEAL_BYTES`] are read.
pub fn load(path: &Path) -> Result<Deal, InputError> {
    let file = fs::File::open(path).map_err(|err| read_error(path, &err))?;
    if file.metadata().is_ok_and(|meta| meta.is_dir()) {
        return Err(InputError::whole_file(
            path,
            "cannot read the deal file: is a directory, not a deal file",
        ));
    }
    load_from(file, path)
}

/// Reads a deal from `reader` (standard input, say), at most
/// [`MAX_DEAL_BYTES`]; `name` names it in errors.
pub fn load_from(reader: impl Read, name: &Path) -> Result<Deal, InputError> {
    let mut bytes = Vec::new();
    reader
        .take(MAX_DEAL_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|err| read_error(name, &err))?;
    if bytes.len() > MAX_DEAL_BYTES {
        return Err(too_large(name));
    }
    let text = String::from_utf8(bytes).map_err(|err| {
        let (line, column) = line_column(err.as_bytes(), err.utf8_error().valid_up_to());
        InputError {
            file: name.display().to_string(),
            line: Some(line),
            column: Some(column),
            message: "not UTF-8 text: a deal file is plain text".into(),
        }
    })?;
    parse(&text, name)
}

/// Reads a deal from its text, YAML or CLIPS facts (see [`Format::detect`]);
/// `file` names it in errors. A leading UTF-8 byte-order mark is skipped;
/// text larger than [`MAX_DEAL_BYTES`] or YAML with more than
/// [`MAX_BRACKETS`] brackets is refused before parsing.
pub fn parse(text: &str, file: &Path) -> Result<Deal, InputError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.len() > MAX_DEAL_BYTES {
        return Err(too_large(file));
    }
    if text.trim().is_empty() {
        return Err(InputError::whole_file(
            file,
            "the file is empty: expected a deal (YAML or CLIPS facts)",
        ));
    }
    match Format::detect(file, text) {
        Format::Clips => clips::from_str(text, file),
        Format::Yaml => {
            check_brackets(text, file)?;
            yaml::from_str(text, file)
        }
    }
}

fn read_error(path: &Path, err: &std::io::Error) -> InputError {
    let why = match err.kind() {
        std::io::ErrorKind::NotFound => "no such file".to_string(),
        std::io::ErrorKind::IsADirectory => "is a directory, not a deal file".to_string(),
        _ => crate::text::io_reason(err),
    };
    InputError::whole_file(path, format!("cannot read the deal file: {why}"))
}

fn too_large(file: &Path) -> InputError {
    InputError::whole_file(
        file,
        format!(
            "larger than {} KiB: not a deal file (a deal file is a few KB)",
            MAX_DEAL_BYTES >> 10
        ),
    )
}

/// Refuses YAML text (a deal, a quiz) larger than [`MAX_DEAL_BYTES`] or
/// with more than [`MAX_BRACKETS`] `[` and `{`, before any parsing, so that
/// no input keeps the YAML parser busy for long.
pub fn check_yaml_size(text: &str, file: &Path) -> Result<(), InputError> {
    if text.len() > MAX_DEAL_BYTES {
        return Err(too_large(file));
    }
    check_brackets(text, file)
}

/// Refuses YAML with more than [`MAX_BRACKETS`] `[` and `{`, at the first
/// one too many. Counting every bracket, in comments and strings too, bounds
/// the nesting depth without having to parse anything.
fn check_brackets(text: &str, file: &Path) -> Result<(), InputError> {
    let mut brackets = text.char_indices().filter(|&(_, c)| c == '[' || c == '{');
    if let Some((offset, _)) = brackets.nth(MAX_BRACKETS) {
        let (line, column) = line_column(text.as_bytes(), offset);
        return Err(InputError {
            file: file.display().to_string(),
            line: Some(line),
            column: Some(column),
            message: format!(
                "more than {MAX_BRACKETS} `[` and `{{`: not a deal file (a deal has a few dozen)"
            ),
        });
    }
    Ok(())
}

/// The 1-based line and column of byte `offset`.
fn line_column(bytes: &[u8], offset: usize) -> (usize, usize) {
    let before = &bytes[..offset.min(bytes.len())];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |index| index + 1);
    (line, offset - line_start + 1)
}

/// A deal file that could not be written. Nothing was written over.
#[derive(Debug, thiserror::Error)]
pub enum SaveError {
    /// The output would replace the file the deal was read from.
    #[error("{0}: will not write over the input file; choose another output path")]
    SameAsInput(String),
    /// The file system refused.
    #[error(
        "{path}: cannot write the deal file: {}",
        crate::text::io_reason(error)
    )]
    Io {
        path: String,
        /// Said in the message, so not a `source` (said once).
        error: std::io::Error,
    },
}

/// Writes `deal` in the YAML format to `path` atomically: into a temporary
/// file in the same directory, then renamed over `path`. Refuses when `path`
/// is `input` (the file the deal was read from), however either is spelled.
pub fn save(deal: &Deal, path: &Path, input: Option<&Path>) -> Result<(), SaveError> {
    if input.is_some_and(|input| same_file(input, path)) {
        return Err(SaveError::SameAsInput(path.display().to_string()));
    }
    write_atomically(path, |out| out.write_all(yaml::to_string(deal).as_bytes())).map_err(|error| {
        SaveError::Io {
            path: path.display().to_string(),
            error,
        }
    })
}

/// Writes a file atomically through `write`: into a temporary file next to
/// `path`, then renamed over it. On any error the temporary file is removed
/// and `path` is left as it was, so no reader ever sees a partial file.
pub fn write_atomically(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let temp = temp_path(path);
    let written = (|| {
        let file = fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&temp)?;
        let mut buffered = std::io::BufWriter::new(&file);
        write(&mut buffered)?;
        buffered.flush()?;
        drop(buffered);
        file.sync_all()?;
        fs::rename(&temp, path)
    })();
    if written.is_err() {
        let _ = fs::remove_file(&temp);
    }
    written
}

/// Whether two paths name the same existing file.
fn same_file(a: &Path, b: &Path) -> bool {
    match (fs::canonicalize(a), fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// A temporary file name next to `path`, unique to this process.
fn temp_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".into());
    path.with_file_name(format!(".{name}.{}.tmp", std::process::id()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_the_format() {
        let yaml = Path::new("a.yaml");
        assert_eq!(
            Format::detect(Path::new("a.clips"), "suits: 4"),
            Format::Clips
        );
        assert_eq!(Format::detect(Path::new("a.CLIPS"), ""), Format::Clips);
        assert_eq!(
            Format::detect(yaml, "; c\n\n  (deal P1 ...)"),
            Format::Clips
        );
        assert_eq!(Format::detect(yaml, "# c\nsuits: 4"), Format::Yaml);
        assert_eq!(Format::detect(yaml, ""), Format::Yaml);
    }

    #[test]
    fn load_reports_missing_empty_and_binary_files() {
        let dir = crate::scratch::scratch_dir();
        let missing = dir.path().join("nope.yaml");
        let err = load(&missing).unwrap_err();
        assert_eq!(err.line, None);
        assert_eq!(err.message, "cannot read the deal file: no such file");
        let empty = dir.path().join("empty.clips");
        fs::write(&empty, " \n\n").unwrap();
        assert_eq!(
            load(&empty).unwrap_err().message,
            "the file is empty: expected a deal (YAML or CLIPS facts)"
        );
        let binary = dir.path().join("bin.yaml");
        fs::write(&binary, b"suits: 4\n\xff\xfe").unwrap();
        let err = load(&binary).unwrap_err();
        assert_eq!((err.line, err.column), (Some(2), Some(1)));
        let err = load(dir.path()).unwrap_err();
        assert_eq!(err.line, None);
    }

    #[test]
    fn save_is_atomic_and_refuses_the_input() {
        let dir = crate::scratch::scratch_dir();
        let clips = Path::new(env!("CARGO_MANIFEST_DIR")).join("deals/unwon-2017.clips");
        let deal = load(&clips).unwrap();
        let out = dir.path().join("out.yaml");
        save(&deal, &out, Some(&clips)).unwrap();
        assert_eq!(load(&out).unwrap(), deal);
        // No temporary file is left behind.
        let names: Vec<_> = fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1);
        // Writing over the input, even spelled differently, is refused and
        // leaves it as it was.
        let before = fs::read(&out).unwrap();
        let spelled = dir.path().join(".").join("out.yaml");
        let err = save(&deal, &spelled, Some(&out)).unwrap_err();
        assert!(matches!(err, SaveError::SameAsInput(_)));
        assert_eq!(fs::read(&out).unwrap(), before);
        // A directory that does not exist: an error, nothing written.
        let err = save(&deal, &dir.path().join("no/such/dir.yaml"), None).unwrap_err();
        assert!(matches!(err, SaveError::Io { .. }));
    }
}
