//! Pages for people: a winning line played move by move ([`play`]), and a
//! one-page report of a batch's results ([`report`]).
//!
//! Each page is one self-contained HTML file, with its CSS, JavaScript and
//! SVG inline and nothing loaded from the network, so it still opens years
//! later, offline, from a mail attachment. The pages never reimplement the
//! rules: the positions they show are computed here by [`crate::game`] and
//! embedded as JSON; the script only draws them.

pub mod dot;
pub mod play;
pub mod report;

use std::io::Write;
use std::path::Path;

use crate::deal::files::write_atomically;

/// Text for HTML element content and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// JSON that may sit inside a `<script>` element: `</` cannot close it.
pub fn script_json(value: &serde_json::Value) -> String {
    value.to_string().replace("</", "<\\/")
}

/// Why a page was not written.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    #[error("{0} already exists; not written over (add --force to replace it)")]
    Exists(String),
    #[error("{0} is one of this command's inputs; not written over")]
    IsInput(String),
    #[error("cannot write {path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
}

/// Writes `page` to `path`: never over one of `inputs`, and over an
/// existing file only with `force`.
pub fn write_page(
    path: &Path,
    page: &str,
    force: bool,
    inputs: &[&Path],
) -> Result<(), WriteError> {
    check_target(path, force, inputs)?;
    write_atomically(path, |out: &mut dyn Write| out.write_all(page.as_bytes())).map_err(|source| {
        WriteError::Io {
            path: path.display().to_string(),
            source,
        }
    })
}

/// Whether [`write_page`] may write `path`: a command checks before its
/// long work, so that a refusal comes at once.
pub fn check_target(path: &Path, force: bool, inputs: &[&Path]) -> Result<(), WriteError> {
    let shown = path.display().to_string();
    if let Ok(target) = path.canonicalize()
        && inputs
            .iter()
            .any(|input| input.canonicalize().is_ok_and(|input| input == target))
    {
        return Err(WriteError::IsInput(shown));
    }
    if !force && path.exists() {
        return Err(WriteError::Exists(shown));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_and_script_ends() {
        assert_eq!(
            escape("<a href=\"x\">&'"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
        let json = serde_json::json!({"text": "</script><b>"});
        assert_eq!(script_json(&json), r#"{"text":"<\/script><b>"}"#);
    }
}
