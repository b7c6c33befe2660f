//! The page that plays a line: the table as a player sees it (ten piles
//! with face-down backs and face-up cards, the stock rows left, the runs
//! removed), stepped through move by move with buttons, arrow keys, a
//! slider or the play button; the moved cards are highlighted and a card
//! that turned up is marked. The page honours a `#move=N` fragment and
//! writes the move shown, and the face-down cards, stock rows and runs
//! removed of its position, into `data-` attributes of its `<main>`
//! element, so a browser test can read what the page shows.

use serde_json::{Value, json};

use crate::cards::{Card, Suit};
use crate::deal::{Deal, PILES};
use crate::game::{Game, Move, Position, compact_line};
use crate::unknown::view::View;

use super::{escape, script_json};

/// What a page says above the table: a title and a few lines of text.
#[derive(Clone, Debug, Default)]
pub struct Caption {
    pub title: String,
    pub lines: Vec<String>,
}

/// One position of the line, as the page draws it.
fn frame(game: &Game, position: &Position, removed: &[Suit]) -> serde_json::Map<String, Value> {
    let piles: Vec<Value> = (0..PILES)
        .map(|pile| {
            let up: Vec<Value> = position
                .face_up(pile)
                .map(|card| card.map_or(Value::Null, |card| Value::from(card.pretty())))
                .collect();
            json!([position.face_down_count(pile), up])
        })
        .collect();
    let mut frame = serde_json::Map::new();
    frame.insert("piles".into(), Value::from(piles));
    frame.insert("rows".into(), Value::from(game.rows_left(position)));
    frame.insert(
        "removed".into(),
        Value::from(
            removed
                .iter()
                .map(|suit| suit.symbol().to_string())
                .collect::<Vec<_>>(),
        ),
    );
    frame.insert("down".into(), Value::from(position.face_down_total()));
    frame
}

/// The positions along `line` from the start of `game` (the line stops at
/// an illegal move or after a reveal: nothing is known beyond it), as the
/// page's JSON: one frame per position, each with the move that led to it.
pub fn frames(game: &Game, deal: &Deal, line: &[Move]) -> Vec<Value> {
    let mut removed = deal.removed.clone();
    let mut position = game.start().clone();
    let mut start = frame(game, &position, &removed);
    start.insert("text".into(), Value::from("Start"));
    let mut frames = vec![Value::Object(start)];
    for (index, &mv) in line.iter().enumerate() {
        if position.is_reveal() || game.check(&position, mv).is_err() {
            break;
        }
        let text = format!("{}. {}", index + 1, game.describe(&position, mv));
        let after = game.apply(&position, mv).position;
        removed.extend(runs_removed_by(game, &position, mv, &after));
        let mut highlight: Vec<Value> = Vec::new();
        match mv {
            Move::Shift { to, count, .. } => {
                if after.runs_removed() == position.runs_removed() {
                    highlight.push(json!([to as usize, count]));
                }
            }
            Move::Deal => {
                for pile in 0..PILES {
                    let before = position.face_up_count(pile) + position.face_down_count(pile);
                    let now = after.face_up_count(pile) + after.face_down_count(pile);
                    if now == before + 1 {
                        highlight.push(json!([pile, 1]));
                    }
                }
            }
        }
        let turned: Vec<usize> = (0..PILES)
            .filter(|&pile| {
                after.face_down_count(pile) < position.face_down_count(pile)
                    || (after.is_reveal()
                        && after.card_from_top(pile, 0).is_none()
                        && after.face_up_count(pile) > 0)
            })
            .collect();
        let mut next = frame(game, &after, &removed);
        next.insert("text".into(), Value::from(text));
        next.insert("move".into(), Value::from(mv.to_string()));
        next.insert("hi".into(), Value::from(highlight));
        next.insert("turned".into(), Value::from(turned));
        frames.push(Value::Object(next));
        position = after;
    }
    frames
}

/// The suits of the runs `mv` removed on its way from `position` to
/// `after`: a shift completes one on its target pile (of the suit of the
/// cards it moved), a deal on any pile that ended shorter than it began
/// plus one.
pub fn runs_removed_by(game: &Game, position: &Position, mv: Move, after: &Position) -> Vec<Suit> {
    if after.runs_removed() == position.runs_removed() {
        return Vec::new();
    }
    match mv {
        Move::Shift { from, .. } => position
            .card_from_top(from as usize, 0)
            .map(|card| card.suit())
            .into_iter()
            .collect(),
        Move::Deal => (0..PILES)
            .filter(|&pile| {
                let before = position.face_up_count(pile) + position.face_down_count(pile);
                let now = after.face_up_count(pile) + after.face_down_count(pile);
                now < before + 1
            })
            .filter_map(|pile| game.next_row(position).and_then(|row| row[pile].known()))
            .map(|card| card.suit())
            .collect(),
    }
}

/// The whole page for `line` (possibly empty: the page then shows the
/// position alone).
pub fn page(game: &Game, deal: &Deal, caption: &Caption, line: &[Move]) -> String {
    let frames = frames(game, deal, line);
    let shown = frames.len() - 1;
    draw(caption, frames, &line[..shown])
}

/// A move of a live game: the view before it, the move, the cards it
/// turned up (as the player typed them, or as the file knew them) and the
/// view after it.
pub struct LiveMove<'a> {
    pub before: &'a View,
    pub mv: Move,
    pub turned: &'a [Card],
    pub after: &'a View,
}

/// The page of a live game: the table as its player saw it at the start
/// and after each move played (a card never seen stays face down).
pub fn live_page(caption: &Caption, start: &View, played: &[LiveMove]) -> String {
    let seen = |view: &View| frame(view.game(), view.position(), view.removed());
    let mut first = seen(start);
    first.insert("text".into(), Value::from("Start"));
    let mut frames = vec![Value::Object(first)];
    for (index, live) in played.iter().enumerate() {
        let (before, after) = (live.before, live.after);
        let mut text = format!("{}. {}", index + 1, before.describe(live.mv));
        if !live.turned.is_empty() {
            let cards: Vec<String> = live.turned.iter().map(|c| c.pretty()).collect();
            text.push_str(&format!("; turned up {}", cards.join(" ")));
        }
        let runs_done = after.removed().len() > before.removed().len();
        let size = |view: &View, pile: usize| view.face_down(pile) + view.face_up(pile).len();
        let highlight: Vec<Value> = match live.mv {
            Move::Shift { to, count, .. } if !runs_done => vec![json!([to as usize, count])],
            Move::Shift { .. } => Vec::new(),
            Move::Deal => (0..PILES)
                .filter(|&pile| size(after, pile) == size(before, pile) + 1)
                .map(|pile| json!([pile, 1]))
                .collect(),
        };
        let turned: Vec<usize> = (0..PILES)
            .filter(|&pile| after.face_down(pile) < before.face_down(pile))
            .collect();
        let mut next = seen(after);
        next.insert("text".into(), Value::from(text));
        next.insert("move".into(), Value::from(live.mv.to_string()));
        next.insert("hi".into(), Value::from(highlight));
        next.insert("turned".into(), Value::from(turned));
        frames.push(Value::Object(next));
    }
    let line: Vec<Move> = played.iter().map(|live| live.mv).collect();
    draw(caption, frames, &line)
}

/// The page of `frames`, `line` the moves between them.
fn draw(caption: &Caption, frames: Vec<Value>, line: &[Move]) -> String {
    let shown = frames.len() - 1;
    let data = json!({ "frames": frames });
    let lines: String = caption
        .lines
        .iter()
        .map(|line| format!("<p>{}</p>\n", escape(line)))
        .collect();
    let compact = if shown > 0 {
        format!(
            "<details><summary>The line in the compact form (<code>spider replay</code> reads it)</summary><p class=\"compact\">{}</p></details>\n",
            escape(&compact_line(line))
        )
    } else {
        String::new()
    };
    let controls = if shown > 0 {
        CONTROLS
    } else {
        "<p id=\"text\" class=\"text\"></p>"
    };
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{title}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n\
         <main id=\"page\" data-move=\"0\" data-moves=\"{shown}\">\n<h1>{title}</h1>\n{lines}{controls}\n\
         <svg id=\"table\" role=\"img\" aria-label=\"the table\"></svg>\n\
         {compact}</main>\n\
         <script type=\"application/json\" id=\"data\">{data}</script>\n\
         <script>{SCRIPT}</script>\n</body>\n</html>\n",
        title = escape(&caption.title),
        data = script_json(&data),
    )
}

const CONTROLS: &str = r##"<div class="controls">
<button id="first" title="start (Home)">&#x25C0;&#x25C0;</button>
<button id="prev" title="previous move (&#x2190;)">&#x25C0;</button>
<button id="play" title="play / pause (space)">&#x25B6; play</button>
<button id="next" title="next move (&#x2192;)">&#x25B6;</button>
<button id="last" title="end (End)">&#x25B6;&#x25B6;</button>
<input id="slider" type="range" min="0" value="0" aria-label="move">
<span id="count"></span>
</div>
<p id="text" class="text"></p>"##;

const STYLE: &str = r##"
body { font-family: system-ui, sans-serif; margin: 0; background: #eef2ee; color: #1d2b1d; }
main { max-width: 900px; margin: 0 auto; padding: 12px 16px 24px; }
h1 { font-size: 1.3em; margin: 4px 0 6px; }
p { margin: 4px 0; }
.controls { display: flex; align-items: center; gap: 6px; margin: 10px 0 4px; flex-wrap: wrap; }
.controls button { font-size: 1em; padding: 4px 10px; border-radius: 6px; border: 1px solid #789; background: #fff; cursor: pointer; }
.controls input { flex: 1; min-width: 160px; }
#count { font-variant-numeric: tabular-nums; min-width: 9em; text-align: right; }
.text { font-size: 1.1em; font-weight: 600; min-height: 1.4em; }
svg { display: block; width: 100%; height: auto; background: #2f6b3f; border-radius: 10px; }
.compact { font-family: ui-monospace, monospace; font-size: 0.85em; word-break: break-word; }
"##;

const SCRIPT: &str = r##"
(function () {
  "use strict";
  var frames = JSON.parse(document.getElementById("data").textContent).frames;
  var main = document.getElementById("page");
  var svg = document.getElementById("table");
  var slider = document.getElementById("slider");
  var playButton = document.getElementById("play");
  var W = 64, H = 90, GAP = 12, DOWN = 12, UP = 26, TOP = 150;
  var last = frames.length - 1, shown = 0, timer = null;
  var tallest = 0;
  frames.forEach(function (f) {
    f.piles.forEach(function (p) {
      tallest = Math.max(tallest, p[0] * DOWN + Math.max(p[1].length - 1, 0) * UP);
    });
  });
  var width = 10 * W + 11 * GAP, height = TOP + tallest + H + 16;
  svg.setAttribute("viewBox", "0 0 " + width + " " + height);
  function esc(t) { return String(t).replace(/&/g, "&amp;").replace(/</g, "&lt;"); }
  function back(x, y, cls) {
    return '<g class="' + cls + '"><rect x="' + x + '" y="' + y + '" width="' + W + '" height="' + H +
      '" rx="6" fill="#24508f" stroke="#fff" stroke-width="1.5"/><rect x="' + (x + 5) + '" y="' + (y + 5) +
      '" width="' + (W - 10) + '" height="' + (H - 10) + '" rx="4" fill="none" stroke="#8fb3e8" stroke-width="1"/></g>';
  }
  function face(x, y, card, mark) {
    var red = card && (card.indexOf("\u2665") >= 0 || card.indexOf("\u2666") >= 0);
    var colour = card ? (red ? "#c62828" : "#111") : "#555";
    var fill = card ? (mark === "moved" ? "#fff3c4" : "#fff") : "#d9d9d9";
    var stroke = mark === "moved" ? "#f0a000" : mark === "turned" ? "#1e88e5" : "#777";
    var sw = mark ? 3 : 1;
    var label = card || "?";
    var suit = card ? card.slice(-1) : "?";
    var s = '<g class="card' + (card ? "" : " unknown") + (mark ? " " + mark : "") + '">' +
      '<rect x="' + x + '" y="' + y + '" width="' + W + '" height="' + H + '" rx="6" fill="' + fill +
      '" stroke="' + stroke + '" stroke-width="' + sw + '"/>' +
      '<text x="' + (x + 5) + '" y="' + (y + 18) + '" font-size="16" font-weight="700" fill="' + colour + '">' + esc(label) + '</text>' +
      '<text x="' + (x + W / 2) + '" y="' + (y + H / 2 + 16) + '" font-size="30" text-anchor="middle" fill="' + colour + '">' + esc(suit) + '</text>';
    if (mark === "turned") {
      s += '<circle cx="' + (x + W - 9) + '" cy="' + (y + 11) + '" r="6" fill="#1e88e5"/>';
    }
    return s + '</g>';
  }
  function render(n) {
    n = Math.max(0, Math.min(last, n | 0));
    shown = n;
    var f = frames[n], s = "";
    var hi = {}, turned = {};
    (f.hi || []).forEach(function (h) { hi[h[0]] = h[1]; });
    (f.turned || []).forEach(function (p) { turned[p] = true; });
    // The stock, top left: one back per row left.
    for (var r = 0; r < f.rows; r++) s += back(GAP + r * 10, 14, "stock");
    s += '<text x="' + (GAP + Math.max(f.rows - 1, 0) * 10 + W + 10) + '" y="64" font-size="15" fill="#fff">' +
      (f.rows === 1 ? "1 stock row left" : f.rows + " stock rows left") + '</text>';
    // The runs removed, top right.
    for (var k = 0; k < f.removed.length; k++) {
      var rx = width - GAP - W - (7 - k) * 24;
      s += face(rx, 14, "K" + f.removed[k], "");
    }
    s += '<text x="' + (width - GAP) + '" y="124" font-size="15" fill="#fff" text-anchor="end">' +
      f.removed.length + " of 8 runs removed</text>";
    var downTotal = 0;
    f.piles.forEach(function (p, i) {
      var x = GAP + i * (W + GAP), y = TOP;
      s += '<text x="' + (x + W / 2) + '" y="' + (TOP - 6) + '" font-size="13" fill="#cfe8d5" text-anchor="middle">' + (i + 1) + '</text>';
      if (p[0] === 0 && p[1].length === 0) {
        s += '<rect class="empty" x="' + x + '" y="' + y + '" width="' + W + '" height="' + H +
          '" rx="6" fill="none" stroke="#cfe8d5" stroke-dasharray="5 4"/>';
        return;
      }
      for (var d = 0; d < p[0]; d++) { s += back(x, y, "down"); y += DOWN; }
      downTotal += p[0];
      var up = p[1];
      for (var u = 0; u < up.length; u++) {
        var mark = "";
        if (hi[i] !== undefined && u >= up.length - hi[i]) mark = "moved";
        else if (turned[i] && u === 0) mark = "turned";
        s += face(x, y, up[u], mark);
        if (u < up.length - 1) y += UP;
      }
    });
    svg.innerHTML = s;
    main.setAttribute("data-move", n);
    main.setAttribute("data-face-down", downTotal);
    main.setAttribute("data-stock-rows", f.rows);
    main.setAttribute("data-runs-removed", f.removed.length);
    document.getElementById("text").textContent = f.text;
    if (slider) {
      slider.value = n;
      document.getElementById("count").textContent = "move " + n + " of " + last;
    }
    try { history.replaceState(null, "", "#move=" + n); } catch (e) { /* a file: page may refuse */ }
  }
  function fromHash() {
    var m = /move=(\d+)/.exec(location.hash);
    return m ? parseInt(m[1], 10) : 0;
  }
  function stop() {
    if (timer) { clearInterval(timer); timer = null; }
    if (playButton) playButton.innerHTML = "&#x25B6; play";
  }
  function play() {
    if (timer) { stop(); return; }
    if (shown >= last) render(0);
    playButton.innerHTML = "&#x275A;&#x275A; pause";
    timer = setInterval(function () {
      if (shown >= last) { stop(); return; }
      render(shown + 1);
    }, 600);
  }
  if (slider) {
    slider.max = last;
    slider.addEventListener("input", function () { stop(); render(parseInt(slider.value, 10)); });
    document.getElementById("first").onclick = function () { stop(); render(0); };
    document.getElementById("prev").onclick = function () { stop(); render(shown - 1); };
    document.getElementById("next").onclick = function () { stop(); render(shown + 1); };
    document.getElementById("last").onclick = function () { stop(); render(last); };
    playButton.onclick = play;
    document.addEventListener("keydown", function (e) {
      if (e.target && e.target.tagName === "INPUT" && e.target.type !== "range") return;
      if (e.key === "ArrowRight") { stop(); render(shown + 1); e.preventDefault(); }
      else if (e.key === "ArrowLeft") { stop(); render(shown - 1); e.preventDefault(); }
      else if (e.key === "Home") { stop(); render(0); e.preventDefault(); }
      else if (e.key === "End") { stop(); render(last); e.preventDefault(); }
      else if (e.key === " ") { play(); e.preventDefault(); }
    });
  }
  window.addEventListener("hashchange", function () { if (fromHash() !== shown) render(fromHash()); });
  render(fromHash());
})();
"##;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::SuitCount;
    use crate::deal::{Rules, numbered};

    #[test]
    fn frames_follow_the_rules_engine() {
        let deal = numbered::deal(1, SuitCount::Four, Rules::Standard);
        let game = Game::new(&deal).unwrap();
        let mut moves = Vec::new();
        game.moves(game.start(), &mut moves);
        let line = vec![moves[0], Move::Deal];
        let frames = frames(&game, &deal, &line);
        assert_eq!(frames.len(), 3);
        assert_eq!(frames[0]["down"], 44);
        assert_eq!(frames[0]["rows"], 5);
        assert_eq!(frames[2]["rows"], 4);
        let after = game.apply(game.start(), moves[0]).position;
        assert_eq!(frames[1]["down"], after.face_down_total());
        assert_eq!(frames[2]["hi"].as_array().unwrap().len(), 10);
        let page = page(&game, &deal, &Caption::default(), &line);
        assert!(page.contains("data-moves=\"2\""));
        assert!(!page.contains("http"), "nothing is loaded from the network");
    }
}
