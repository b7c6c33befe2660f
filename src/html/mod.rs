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
