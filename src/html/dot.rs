//! The move graph as a picture: DOT styled so that it reads without a
//! legend, rendered to SVG by Graphviz's `dot` when it is installed.
//!
//! The start is a gold double octagon marked `start`, a reveal (a move
//! that turns up an unknown card; nothing is known beyond it) a light blue
//! box marked `reveal`, a win a green box marked `win`, and the deepest
//! position (the most moves needed to reach it) a salmon box marked
//! `deepest, N moves`; every edge is labelled by its move.

use std::fmt::{self, Write as _};
use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::explore::{MoveGraph, NodeKind};

/// What to tell a user who has no Graphviz.
pub const GET_GRAPHVIZ: &str = "Graphviz's `dot` is needed to draw SVG and was not found: install Graphviz (Debian or Ubuntu: `apt-get install graphviz`; macOS: `brew install graphviz`; or https://graphviz.org/download/), or write the DOT with `-o OUT.dot` and render it elsewhere";

/// Why no SVG was drawn.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    #[error("{GET_GRAPHVIZ}")]
    NoGraphviz,
    #[error("Graphviz's `dot` failed: {0}")]
    Failed(String),
    /// Ctrl-C while `dot` ran: it was stopped and drew nothing.
    #[error("stopped by Ctrl-C while Graphviz drew the graph")]
    Cancelled,
}

/// Text inside a DOT string.
fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The graph in DOT, styled (see the module docs).
pub fn styled_dot<L: fmt::Display, M: fmt::Display + Clone>(graph: &MoveGraph<L, M>) -> String {
    let g = graph.graph();
    let deepest = graph.depth();
    let mut dot = String::from(
        "digraph moves {\n  graph [fontname = \"Helvetica\" nodesep = 0.25 ranksep = 0.4]\n  \
         node [fontname = \"Helvetica\" fontsize = 10 shape = box style = \"rounded,filled\" fillcolor = white color = gray40]\n  \
         edge [fontname = \"Helvetica\" fontsize = 9 color = gray45 fontcolor = gray25]\n",
    );
    for index in g.node_indices() {
        let node = &g[index];
        let label = node.label.to_string();
        let mut attrs = Vec::new();
        let mut marks = Vec::new();
        if index == graph.start() {
            marks.push("start".to_string());
            attrs.push("shape = doubleoctagon fillcolor = gold penwidth = 2".to_string());
        }
        match node.kind {
            NodeKind::Leaf => {
                marks.push("reveal".into());
                if index != graph.start() {
                    attrs.push("fillcolor = lightblue color = steelblue".into());
                }
            }
            NodeKind::Goal => {
                marks.push("win".into());
                attrs.push("fillcolor = palegreen color = darkgreen penwidth = 2".into());
            }
            NodeKind::Dead => {
                marks.push("lost".into());
                attrs.push("fillcolor = lightgray color = dimgray".into());
            }
            NodeKind::Inner => {}
        }
        if index == deepest.node && deepest.moves > 0 {
            marks.push(format!(
                "deepest, {}",
                crate::text::count(deepest.moves as u64, "move")
            ));
            attrs.push("fillcolor = salmon color = firebrick penwidth = 2".into());
        }
        let text = if marks.is_empty() {
            escape(&label)
        } else {
            format!("{}\\n{}", marks.join(", "), escape(&label))
        };
        let _ = writeln!(
            dot,
            "  {} [label = \"{text}\" {}]",
            index.index(),
            attrs.join(" ")
        );
    }
    for edge in g.edge_indices() {
        let (from, to) = g.edge_endpoints(edge).expect("an edge of the graph");
        let _ = writeln!(
            dot,
            "  {} -> {} [label = \"{}\"]",
            from.index(),
            to.index(),
            escape(&g[edge].to_string())
        );
    }
    dot.push_str("}\n");
    dot
}

/// SVG from DOT, by `dot -Tsvg`. When `cancel` is set (Ctrl-C) while
/// Graphviz runs, `dot` is killed and nothing is returned
/// ([`RenderError::Cancelled`]): Graphviz itself answers an interrupt with
/// a partial picture, which must not pass for the graph.
pub fn render_svg(dot: &str, cancel: Option<&AtomicBool>) -> Result<Vec<u8>, RenderError> {
    let mut child = Command::new("dot")
        .arg("-Tsvg")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|err| match err.kind() {
            std::io::ErrorKind::NotFound => RenderError::NoGraphviz,
            _ => RenderError::Failed(crate::text::io_reason(&err)),
        })?;
    let mut stdin = child.stdin.take().expect("piped stdin");
    let mut stdout = child.stdout.take().expect("piped stdout");
    let mut stderr = child.stderr.take().expect("piped stderr");
    let text = dot.to_string();
    // Written and read from other threads: a large graph fills the pipes
    // both ways, and this thread watches for Ctrl-C.
    let writer = std::thread::spawn(move || stdin.write_all(text.as_bytes()));
    let reader = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        stdout.read_to_end(&mut bytes).map(|_| bytes)
    });
    let errors = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = stderr.read_to_end(&mut bytes);
        bytes
    });
    let status = loop {
        if cancel.is_some_and(|cancel| cancel.load(Ordering::SeqCst)) {
            let _ = child.kill();
            let _ = child.wait();
            return Err(RenderError::Cancelled);
        }
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(err) => return Err(RenderError::Failed(crate::text::io_reason(&err))),
        }
    };
    let written = writer.join().expect("the writer thread ends");
    let svg = reader.join().expect("the reader thread ends");
    let errors = errors.join().expect("the error reader thread ends");
    if cancel.is_some_and(|cancel| cancel.load(Ordering::SeqCst)) {
        return Err(RenderError::Cancelled);
    }
    if !status.success() {
        return Err(RenderError::Failed(
            String::from_utf8_lossy(&errors).trim().to_string(),
        ));
    }
    written.map_err(|err| RenderError::Failed(crate::text::io_reason(&err)))?;
    svg.map_err(|err| RenderError::Failed(crate::text::io_reason(&err)))
}
