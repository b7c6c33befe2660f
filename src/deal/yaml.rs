//! The native deal format: YAML a player can type and read.
//!
//! A player who is stuck types the cards they have seen into a file; a typing
//! mistake must come back as the file, line and column of the card, not as a
//! crash or a vague "invalid deal". So every value is read through a small
//! hand-written serde visitor that checks it where it stands (a card, a pile,
//! a stock row, the pile count) and fails there: `yaml_serde` then attaches the
//! position of that very node to the error. The few checks that need the
//! whole deal (suits in play, total card count, removed runs) run afterwards
//! and point at the line of the top-level key they concern.
//!
//! ```yaml
//! suits: 4            # 1, 2 or 4 (default 4)
//! rules: standard     # standard or relaxed (default standard)
//! piles:              # exactly 10, pile 1 first
//!   - face_down: [5D, JH, 3C, 7H, KD]   # bottom first; XX = never seen
//!     face_up: [5S]                      # bottom first; the last is the top card
//! stock:              # rows still to come, first dealt first; 10 cards each
//!   - [10H, 10D, 5H, AS, 8C, 3C, 8D, 4C, 7C, 5S]
//! # or, every stock card never seen: `stock: 4` (four rows of XX)
//! removed: []         # suits of K..A runs already removed, e.g. [S, H]
//! ```
//!
//! [`to_string`] writes this layout back, one pile or row per line with a
//! comment naming it, and [`from_str`] reads it back to the same [`Deal`].

use std::fmt;
use std::fmt::Write as _;
use std::path::Path;

use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};

use super::{Deal, InputError, MAX_STOCK_ROWS, PILES, Pile, Rules, StockRow};
use crate::cards::{Card, CardParseError, CardSlot, Suit, SuitCount};

/// Reads a YAML deal. `file` names the file in errors.
pub fn from_str(text: &str, file: &Path) -> Result<Deal, InputError> {
    if is_blank(text) {
        return Err(InputError::whole_file(
            file,
            "the file is empty: expected a deal (suits, rules, piles, stock, removed)",
        ));
    }
    check_indentation(text, file)?;
    let parsed: DealFile =
        serde_yaml::from_str(text).map_err(|err| yaml_error(file, text, &err))?;
    let deal = Deal {
        suits: parsed.suits.0,
        rules: parsed.rules.0,
        piles: parsed.piles.0,
        stock: parsed.stock.0,
        removed: parsed.removed.into_iter().map(|suit| suit.0).collect(),
        moves_played: parsed.moves_played.0,
    };
    deal.validate().map_err(|err| {
        // The checks left to `validate` concern the deal as a whole; point at
        // the key they are about when the file has it.
        let key = if err.0.contains("removed") {
            "removed"
        } else if err.0.contains("suit") {
            "suits"
        } else {
            "piles"
        };
        let mut error = InputError::whole_file(file, err.0);
        error.line = key_line(text, key);
        error.column = error.line.map(|_| 1);
        error
    })?;
    Ok(deal)
}

/// Writes a deal in the YAML deal format, laid out for people: one pile or
/// stock row per line, each named by a comment.
pub fn to_string(deal: &Deal) -> String {
    let mut out = String::new();
    out.push_str("# Spider deal (spider-analyzer)\n");
    out.push_str("# Cards are rank then suit (10H, QS, AD); XX is a card never seen.\n");
    let _ = writeln!(out, "suits: {}            # 1, 2 or 4", deal.suits.count());
    let _ = writeln!(
        out,
        "rules: {:<12} # standard or relaxed",
        deal.rules.to_string()
    );
    out.push_str("piles:              # pile 1 first; cards bottom first, the last face-up card is the top\n");
    for (index, pile) in deal.piles.iter().enumerate() {
        let face_down = list(pile.face_down.iter());
        let line = format!("  - face_down: {face_down}");
        let _ = writeln!(out, "{line:<50} # pile {}", index + 1);
        let _ = writeln!(out, "    face_up: {}", list(pile.face_up.iter()));
    }
    if deal.stock.is_empty() {
        out.push_str("stock: []          # no stock rows left\n");
    } else if deal
        .stock
        .iter()
        .flatten()
        .all(|slot| *slot == CardSlot::Unknown)
    {
        let _ = writeln!(
            out,
            "stock: {}            # rows still to come, every card XX (10 a row)",
            deal.stock.len()
        );
    } else {
        out.push_str(
            "stock:              # rows still to come, first dealt first; entry i goes on pile i\n",
        );
        for (index, row) in deal.stock.iter().enumerate() {
            let line = format!("  - {}", list(row.iter()));
            let _ = writeln!(out, "{line:<50} # row {}", index + 1);
        }
    }
    let removed: Vec<char> = deal.removed.iter().map(|suit| suit.letter()).collect();
    let _ = writeln!(
        out,
        "removed: {:<10}# suits of the K..A runs already removed",
        list(removed.iter())
    );
    // Written only when known: a fresh deal's file stays as it was.
    if deal.moves_played > 0 {
        let _ = writeln!(
            out,
            "moves_played: {:<4} # moves played so far; `spider play` numbers the next one {}",
            deal.moves_played,
            deal.moves_played + 1
        );
    }
    out
}

/// `[a, b, c]`, each item as it displays.
fn list<T: fmt::Display>(items: impl Iterator<Item = T>) -> String {
    let items: Vec<String> = items.map(|item| item.to_string()).collect();
    format!("[{}]", items.join(", "))
}

/// Whether the text holds nothing but blanks and `#` comments.
fn is_blank(text: &str) -> bool {
    text.lines().all(|line| {
        let line = line.trim();
        line.is_empty() || line.starts_with('#')
    })
}

/// The 1-based line where the top-level `key:` is written, if it is.
fn key_line(text: &str, key: &str) -> Option<usize> {
    text.lines()
        .position(|line| {
            line.strip_prefix(key)
                .is_some_and(|rest| rest.trim_start().starts_with(':'))
        })
        .map(|index| index + 1)
}

/// The keys of a deal file, top level first.
const TOP_KEYS: [&str; 6] = [
    "suits",
    "rules",
    "piles",
    "stock",
    "removed",
    "moves_played",
];

/// The most moves a file may say were played (`moves_played:`): far more
/// than any game (a won game takes a few hundred).
pub const MAX_MOVES_PLAYED: usize = 99_999;
const PILE_KEYS: [&str; 2] = ["face_down", "face_up"];

/// A deal file's keys one space or more off their column, found before the
/// YAML reader sees them: it would report a key it did not expect, or read
/// the key into the wrong place and blame the pile. A top-level key starts
/// in column 1; the keys of one pile (`face_down`, `face_up`) stand in the
/// same column, under each other.
fn check_indentation(text: &str, file: &Path) -> Result<(), InputError> {
    // The column of the first key of the list item being read (1-based),
    // and the column of its `-`.
    let mut item: Option<(usize, usize, usize)> = None; // (key column, dash column, line)
    for (index, line) in text.lines().enumerate() {
        let indent = line.len() - line.trim_start_matches(' ').len();
        let rest = &line[indent..];
        if rest.is_empty() || rest.starts_with('#') {
            continue;
        }
        if let Some(after) = rest.strip_prefix('-')
            && (after.is_empty() || after.starts_with(' '))
        {
            let spaces = after.len() - after.trim_start_matches(' ').len();
            item = key_of(after.trim_start())
                .map(|_| (indent + 1 + spaces + 1, indent + 1, index + 1));
            continue;
        }
        let Some(key) = key_of(rest) else {
            continue;
        };
        let column = indent + 1;
        let error = |message: String| InputError {
            file: file.display().to_string(),
            line: Some(index + 1),
            column: Some(column),
            message,
        };
        match item {
            Some((key_column, dash_column, item_line))
                if PILE_KEYS.contains(&key) && column > dash_column && column != key_column =>
            {
                let shift = crate::text::count(column.abs_diff(key_column) as u64, "column");
                let way = if column > key_column { "left" } else { "right" };
                return Err(error(format!(
                    "indentation: `{key}` is in column {column}, but this pile's keys start in column {key_column} (line {item_line}); \
                     move it {shift} {way} so that they line up"
                )));
            }
            _ if TOP_KEYS.contains(&key)
                && indent > 0
                && item.is_none_or(|(_, dash, _)| column <= dash) =>
            {
                return Err(error(format!(
                    "indentation: the top-level key `{key}` is in column {column}; top-level keys start in column 1"
                )));
            }
            _ if indent == 0 => item = None,
            _ => {}
        }
    }
    Ok(())
}

/// The key a line starts with (`face_up: [...]` gives `face_up`), if any.
fn key_of(text: &str) -> Option<&str> {
    let end = text.find(':')?;
    let key = &text[..end];
    let after = &text[end + 1..];
    (!key.is_empty()
        && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && (after.is_empty() || after.starts_with([' ', '\t'])))
    .then_some(key)
}

/// A `yaml_serde` error as an [`InputError`]: its position becomes the line
/// and column, its path (`piles[2].face_up[0]`) is said as people count.
fn yaml_error(file: &Path, text: &str, err: &serde_yaml::Error) -> InputError {
    let mut message = err.to_string();
    let location = err.location();
    if let Some(location) = &location {
        let at = format!(" at line {} column {}", location.line(), location.column());
        if let Some(start) = message.find(&at) {
            message.replace_range(start..start + at.len(), "");
        }
    }
    let mut line = location.as_ref().map(|l| l.line());
    let mut column = location.as_ref().map(|l| l.column());
    // The parser places an error at the end of input one line past a last
    // line that has no newline: point at the end of that last line instead.
    let last = text.split('\n').count();
    if line.is_some_and(|l| l > last) {
        line = Some(last);
        column = Some(text.rsplit('\n').next().unwrap_or_default().chars().count() + 1);
    }
    InputError {
        file: file.display().to_string(),
        line,
        column,
        message: humanize_path(&message),
    }
}

/// Rewrites a leading serde path (`piles[2].face_up[0]: ...`) the way people
/// count (`pile 3, face-up card 1: ...`). Anything else is left alone.
fn humanize_path(message: &str) -> String {
    let Some((path, rest)) = message.split_once(": ") else {
        return message.to_string();
    };
    let is_path = !path.is_empty()
        && path
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_.[]".contains(c));
    if !is_path {
        return message.to_string();
    }
    let mut words = Vec::new();
    for part in path.split('.') {
        let mut pieces = part.split('[');
        let name = pieces.next().unwrap_or_default();
        let indices: Vec<usize> = pieces
            .filter_map(|piece| piece.trim_end_matches(']').parse::<usize>().ok())
            .map(|index| index + 1)
            .collect();
        let said = match (name, indices.as_slice()) {
            ("piles", [pile]) => format!("pile {pile}"),
            ("face_down", [card]) => format!("face-down card {card}"),
            ("face_up", [card]) => format!("face-up card {card}"),
            ("stock", [row]) => format!("stock row {row}"),
            ("stock", [row, entry]) => format!("stock row {row} entry {entry}"),
            ("removed", [run]) => format!("removed run {run}"),
            _ => part.to_string(),
        };
        words.push(said);
    }
    format!("{}: {rest}", words.join(", "))
}

/// The file as serde sees it. Every field checks itself where it stands.
#[derive(Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "a deal: a mapping with the keys suits, rules, piles, stock, removed and moves_played"
)]
struct DealFile {
    #[serde(default)]
    suits: SuitsField,
    #[serde(default)]
    rules: RulesField,
    piles: PilesField,
    #[serde(default)]
    stock: StockField,
    #[serde(default)]
    removed: Vec<SuitField>,
    #[serde(default)]
    moves_played: MovesPlayedField,
}

/// `moves_played: N`: the moves played before this position, a whole
/// number from 0 to [`MAX_MOVES_PLAYED`].
#[derive(Default)]
struct MovesPlayedField(usize);

impl<'de> Deserialize<'de> for MovesPlayedField {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_str(ParseVisitor(
            "the number of moves played so far, like 40",
            |text| {
                text.trim()
                    .parse::<usize>()
                    .ok()
                    .filter(|&n| n <= MAX_MOVES_PLAYED)
                    .map(MovesPlayedField)
                    .ok_or_else(|| {
                        format!(
                            "`{text}` is not a number of moves: expected the moves played so far, a whole number from 0 to {MAX_MOVES_PLAYED}"
                        )
                    })
            },
        ))
    }
}

#[derive(Default)]
struct SuitsField(SuitCount);

impl<'de> Deserialize<'de> for SuitsField {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_str(ParseVisitor("a suit count: 1, 2 or 4", |text| {
            text.trim()
                .parse::<usize>()
                .ok()
                .and_then(SuitCount::from_count)
                .map(SuitsField)
                .ok_or_else(|| format!("suits is `{text}`: expected 1, 2 or 4"))
        }))
    }
}

#[derive(Default)]
struct RulesField(Rules);

impl<'de> Deserialize<'de> for RulesField {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_str(ParseVisitor("standard or relaxed", |text| {
            match text.trim().to_ascii_lowercase().as_str() {
                "standard" => Ok(RulesField(Rules::Standard)),
                "relaxed" => Ok(RulesField(Rules::Relaxed)),
                _ => Err(format!("rules is `{text}`: expected standard or relaxed")),
            }
        }))
    }
}

struct SuitField(Suit);

impl<'de> Deserialize<'de> for SuitField {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_str(ParseVisitor("a suit letter: S, H, D or C", |text| {
            let mut chars = text.trim().chars();
            match (chars.next().and_then(Suit::from_letter), chars.next()) {
                (Some(suit), None) => Ok(SuitField(suit)),
                _ => Err(format!("`{text}` is not a suit: expected S, H, D or C")),
            }
        }))
    }
}

/// A card or `XX`, anywhere a face-down or stock card is expected.
struct SlotField(CardSlot);

impl<'de> Deserialize<'de> for SlotField {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_str(ParseVisitor("a card like 10H, QS or XX", |text| {
            text.trim()
                .parse::<CardSlot>()
                .map(SlotField)
                .map_err(|_| CardParseError { text: text.into() }.to_string())
        }))
    }
}

/// A face-up card: always known.
struct FaceUpField(Card);

impl<'de> Deserialize<'de> for FaceUpField {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_str(ParseVisitor("a card like 10H or QS", |text| {
            match text.trim().parse::<CardSlot>() {
                Ok(CardSlot::Known(card)) => Ok(FaceUpField(card)),
                Ok(CardSlot::Unknown) => {
                    Err("`XX` cannot be a face-up card: a face-up card is always known".into())
                }
                Err(_) => Err(CardParseError { text: text.into() }.to_string()),
            }
        }))
    }
}

/// Any scalar, parsed by a function. The parse runs inside the visitor so
/// that `yaml_serde` attaches the scalar's own line and column to a failure
/// (an error raised after the visitor returns gets the enclosing node's).
struct ParseVisitor<T>(&'static str, fn(&str) -> Result<T, String>);

impl<T> Visitor<'_> for ParseVisitor<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<T, E> {
        (self.1)(text).map_err(E::custom)
    }
}

/// One pile: read by hand so that a pile with face-down cards and nothing
/// face up is reported at the pile itself.
struct PileField(Pile);

impl<'de> Deserialize<'de> for PileField {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(PileVisitor)
    }
}

struct PileVisitor;

/// A key of a pile mapping, checked where it is written.
enum PileKey {
    FaceDown,
    FaceUp,
}

impl<'de> Deserialize<'de> for PileKey {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_str(ParseVisitor("face_down or face_up", |text| match text {
            "face_down" => Ok(PileKey::FaceDown),
            "face_up" => Ok(PileKey::FaceUp),
            other => Err(format!(
                "unknown field `{other}`, expected `face_down` or `face_up`"
            )),
        }))
    }
}

impl<'de> Visitor<'de> for PileVisitor {
    type Value = PileField;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a pile: a mapping with face_down and face_up card lists")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<PileField, A::Error> {
        let mut face_down: Option<Vec<SlotField>> = None;
        let mut face_up: Option<Vec<FaceUpField>> = None;
        while let Some(key) = map.next_key::<PileKey>()? {
            match key {
                PileKey::FaceDown if face_down.is_none() => face_down = Some(map.next_value()?),
                PileKey::FaceUp if face_up.is_none() => face_up = Some(map.next_value()?),
                PileKey::FaceDown => return Err(de::Error::duplicate_field("face_down")),
                PileKey::FaceUp => return Err(de::Error::duplicate_field("face_up")),
            }
        }
        let pile = Pile {
            face_down: face_down
                .unwrap_or_default()
                .into_iter()
                .map(|slot| slot.0)
                .collect(),
            face_up: face_up
                .unwrap_or_default()
                .into_iter()
                .map(|card| card.0)
                .collect(),
        };
        if !pile.face_down.is_empty() && pile.face_up.is_empty() {
            return Err(de::Error::custom(
                "this pile has face-down cards but no face-up card (the top card of a pile is always face up)",
            ));
        }
        Ok(PileField(pile))
    }
}

/// The piles: exactly ten.
struct PilesField(Vec<Pile>);

impl<'de> Deserialize<'de> for PilesField {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_seq(PilesVisitor)
    }
}

struct PilesVisitor;

impl<'de> Visitor<'de> for PilesVisitor {
    type Value = PilesField;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a list of {PILES} piles")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<PilesField, A::Error> {
        let mut piles = Vec::with_capacity(PILES);
        while let Some(pile) = seq.next_element::<PileField>()? {
            piles.push(pile.0);
        }
        if piles.len() != PILES {
            return Err(de::Error::custom(format!(
                "expected {PILES} piles, found {}",
                piles.len()
            )));
        }
        Ok(PilesField(piles))
    }
}

/// One stock row: exactly ten cards.
struct RowField(StockRow);

impl<'de> Deserialize<'de> for RowField {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_seq(RowVisitor)
    }
}

struct RowVisitor;

impl<'de> Visitor<'de> for RowVisitor {
    type Value = RowField;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a stock row: a list of {PILES} cards")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<RowField, A::Error> {
        let mut cards = Vec::with_capacity(PILES);
        while let Some(slot) = seq.next_element::<SlotField>()? {
            cards.push(slot.0);
        }
        let row: StockRow = cards.as_slice().try_into().map_err(|_| {
            de::Error::custom(format!(
                "a stock row has {PILES} cards (entry i goes on pile i), this one has {}",
                cards.len()
            ))
        })?;
        Ok(RowField(row))
    }
}

/// The stock: at most five rows.
#[derive(Default)]
struct StockField(Vec<StockRow>);

impl<'de> Deserialize<'de> for StockField {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(StockVisitor)
    }
}

struct StockVisitor;

impl StockVisitor {
    /// `stock: N`: N rows still to come, every card `XX`.
    fn rows_unseen<E: de::Error>(rows: u64) -> Result<StockField, E> {
        if rows > MAX_STOCK_ROWS as u64 {
            return Err(E::custom(format!(
                "the stock has at most {MAX_STOCK_ROWS} rows, this one has {rows}"
            )));
        }
        Ok(StockField(vec![[CardSlot::Unknown; PILES]; rows as usize]))
    }
}

impl<'de> Visitor<'de> for StockVisitor {
    type Value = StockField;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "a list of at most {MAX_STOCK_ROWS} stock rows, or the number of rows still to come (0 to {MAX_STOCK_ROWS}, every card XX)"
        )
    }

    fn visit_u64<E: de::Error>(self, rows: u64) -> Result<StockField, E> {
        StockVisitor::rows_unseen(rows)
    }

    fn visit_i64<E: de::Error>(self, rows: i64) -> Result<StockField, E> {
        match u64::try_from(rows) {
            Ok(rows) => StockVisitor::rows_unseen(rows),
            Err(_) => Err(E::custom(format!(
                "the number of stock rows is 0 to {MAX_STOCK_ROWS}, not {rows}"
            ))),
        }
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<StockField, A::Error> {
        let mut rows = Vec::new();
        while let Some(row) = seq.next_element::<RowField>()? {
            rows.push(row.0);
        }
        if rows.len() > MAX_STOCK_ROWS {
            return Err(de::Error::custom(format!(
                "the stock has at most {MAX_STOCK_ROWS} rows, this one has {}",
                rows.len()
            )));
        }
        Ok(StockField(rows))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn card(text: &str) -> Card {
        text.parse().unwrap()
    }

    /// A fresh 4-suit deal in the documented layout, with `edit` applied to
    /// its text (to break one thing at a time).
    fn sample() -> String {
        let mut text = String::from("suits: 4\nrules: standard\npiles:\n");
        for pile in 0..PILES {
            let down = if pile < 4 {
                "[AS, 2S, 3S, 4S, 5S]"
            } else {
                "[AH, 2H, 3H, 4H]"
            };
            text.push_str(&format!("  - face_down: {down}\n    face_up: [KD]\n"));
        }
        text.push_str("stock:\n");
        for _ in 0..5 {
            text.push_str("  - [AC, 2C, 3C, 4C, 5C, 6C, 7C, 8C, 9C, 10C]\n");
        }
        text.push_str("removed: []\n");
        text
    }

    /// `text` with the `n`-th (1-based) occurrence of `from` replaced.
    fn replace_nth(text: &str, from: &str, to: &str, n: usize) -> String {
        let (start, _) = text.match_indices(from).nth(n - 1).expect("occurrence");
        format!("{}{to}{}", &text[..start], &text[start + from.len()..])
    }

    fn read(text: &str) -> Result<Deal, InputError> {
        from_str(text, Path::new("d.yaml"))
    }

    fn read_err(text: &str) -> InputError {
        read(text).expect_err("should be refused")
    }

    #[test]
    fn reads_the_sample() {
        let deal = read(&sample()).unwrap();
        assert_eq!(deal.suits, SuitCount::Four);
        assert_eq!(deal.rules, Rules::Standard);
        assert_eq!(deal.piles.len(), 10);
        assert_eq!(deal.piles[0].face_down.len(), 5);
        assert_eq!(deal.piles[9].face_down.len(), 4);
        assert_eq!(deal.piles[3].face_up, vec![card("KD")]);
        assert_eq!(deal.stock.len(), 5);
        assert_eq!(deal.stock[4][9], CardSlot::Known(card("10C")));
        assert!(deal.removed.is_empty());
    }

    #[test]
    fn defaults_and_spellings() {
        let layout = sample().split("stock:").next().unwrap().to_string();
        let text = format!("{layout}stock: []\nremoved: [s, H]\n")
            .replace("suits: 4\nrules: standard\n", "rules: Relaxed\n")
            .replacen("face_up: [KD]", "face_up: [td]", 1);
        let deal = read(&text).unwrap();
        assert_eq!(deal.suits, SuitCount::Four);
        assert_eq!(deal.rules, Rules::Relaxed);
        assert_eq!(deal.removed, vec![Suit::Spades, Suit::Hearts]);
        assert_eq!(deal.piles[0].face_up, vec![card("10D")]);
    }

    #[test]
    fn an_unknown_card_is_located_at_the_card() {
        let text = sample().replacen("[AC, 2C, 3C", "[AC, 2C, 1C", 1);
        let err = read_err(&text);
        // Line 25 is the first stock row; `1C` is its third card.
        assert_eq!((err.line, err.column), (Some(25), Some(14)), "{err}");
        assert!(
            err.message
                .starts_with("stock row 1 entry 3: `1C` is not a card"),
            "{err}"
        );
    }

    #[test]
    fn a_face_up_xx_is_located_at_the_card() {
        let text = replace_nth(&sample(), "face_up: [KD]", "face_up: [KD, XX]", 2);
        let err = read_err(&text);
        assert_eq!(
            err.to_string().split(": ").next(),
            Some("d.yaml:7:19"),
            "{err}"
        );
        assert_eq!(
            err.message,
            "pile 2, face-up card 2: `XX` cannot be a face-up card: a face-up card is always known"
        );
    }

    #[test]
    fn a_pile_with_nothing_face_up_is_located_at_the_pile() {
        let text = sample().replacen("    face_up: [KD]\n", "    face_up: []\n", 1);
        let err = read_err(&text);
        assert_eq!((err.line, err.column), (Some(4), Some(5)), "{err}");
        assert!(
            err.message
                .starts_with("pile 1: this pile has face-down cards but no face-up card")
        );
    }

    #[test]
    fn nine_piles_are_refused() {
        let text = sample().replacen(
            "  - face_down: [AH, 2H, 3H, 4H]\n    face_up: [KD]\n",
            "",
            1,
        );
        let err = read_err(&text);
        assert_eq!(err.message, "piles: expected 10 piles, found 9");
        assert_eq!(err.line, Some(4), "{err}");
    }

    #[test]
    fn a_short_stock_row_is_refused_at_the_row() {
        let text = replace_nth(&sample(), ", 10C]", "]", 2);
        let err = read_err(&text);
        assert_eq!((err.line, err.column), (Some(26), Some(5)), "{err}");
        assert_eq!(
            err.message,
            "stock row 2: a stock row has 10 cards (entry i goes on pile i), this one has 9"
        );
    }

    #[test]
    fn six_stock_rows_are_refused() {
        let text = sample().replace(
            "removed",
            "  - [AC, 2C, 3C, 4C, 5C, 6C, 7C, 8C, 9C, 10C]\nremoved",
        );
        let err = read_err(&text);
        assert_eq!(
            err.message,
            "stock: the stock has at most 5 rows, this one has 6"
        );
        // The stock's list starts at its first row.
        assert_eq!((err.line, err.column), (Some(25), Some(3)), "{err}");
    }

    #[test]
    fn bad_suit_count_rules_and_unknown_fields() {
        let err = read_err(&sample().replace("suits: 4", "suits: 3"));
        assert_eq!((err.line, err.column), (Some(1), Some(8)));
        assert_eq!(err.message, "suits: suits is `3`: expected 1, 2 or 4");
        let err = read_err(&sample().replace("rules: standard", "rules: easy"));
        assert_eq!((err.line, err.column), (Some(2), Some(8)));
        assert_eq!(
            err.message,
            "rules: rules is `easy`: expected standard or relaxed"
        );
        let err = read_err(&sample().replace("removed: []", "removd: []"));
        assert_eq!(err.line, Some(30));
        assert!(
            err.message
                .starts_with("unknown field `removd`, expected one of"),
            "{err}"
        );
        let err = read_err(&sample().replacen("face_up:", "faceup:", 1));
        assert_eq!((err.line, err.column), (Some(5), Some(5)), "{err}");
        assert_eq!(
            err.message,
            "pile 1: unknown field `faceup`, expected `face_down` or `face_up`"
        );
        let err = read_err(&sample().replace("removed: []", "removed: [X]"));
        assert_eq!(
            err.message,
            "removed run 1: `X` is not a suit: expected S, H, D or C"
        );
    }

    #[test]
    fn malformed_and_empty_files() {
        let err = read_err("suits: 4\npiles: [\n");
        assert!(err.line.is_some() && err.column.is_some(), "{err}");
        let err = read_err("");
        assert_eq!(err.line, None);
        assert!(err.message.starts_with("the file is empty"));
        let err = read_err("# only a comment\n\n");
        assert!(err.message.starts_with("the file is empty"));
        let err = read_err("hello\n");
        assert!(err.message.contains("expected a deal"), "{err}");
    }

    #[test]
    fn whole_deal_errors_point_at_their_key() {
        let err = read_err(&sample().replace("suits: 4", "suits: 2"));
        assert_eq!(err.line, Some(1), "{err}");
        assert!(err.message.contains("not of a suit in play"), "{err}");
        let err = read_err(&sample().replace("removed: []", "removed: [S,S,S,S,S,S,S,S,S]"));
        assert_eq!(err.line, Some(30), "{err}");
    }

    #[test]
    fn writes_the_documented_layout() {
        let deal = read(&sample()).unwrap();
        let text = to_string(&deal);
        assert!(text.contains("\n  - face_down: [AS, 2S, 3S, 4S, 5S]"));
        assert!(text.contains("# pile 10\n    face_up: [KD]\n"));
        assert!(text.contains("\n  - [AC, 2C, 3C, 4C, 5C, 6C, 7C, 8C, 9C, 10C]"));
        assert!(text.contains("# row 5\nremoved: []"));
        assert_eq!(read(&text).unwrap(), deal);
    }

    fn slot() -> impl Strategy<Value = CardSlot> {
        prop_oneof![
            1 => Just(CardSlot::Unknown),
            6 => (0u8..52).prop_map(|index| CardSlot::Known(Card::from_index(index))),
        ]
    }

    fn pile() -> impl Strategy<Value = Pile> {
        (
            proptest::collection::vec(slot(), 0..7),
            proptest::collection::vec((0u8..52).prop_map(Card::from_index), 1..8),
        )
            .prop_map(|(face_down, face_up)| Pile { face_down, face_up })
    }

    fn deal() -> impl Strategy<Value = Deal> {
        (
            proptest::collection::vec(pile(), PILES),
            proptest::collection::vec(proptest::array::uniform10(slot()), 0..=5),
            proptest::collection::vec(0usize..4, 0..3),
            any::<bool>(),
            prop_oneof![Just(0usize), 1usize..=MAX_MOVES_PLAYED],
        )
            .prop_map(|(piles, stock, removed, relaxed, moves_played)| Deal {
                suits: SuitCount::Four,
                rules: if relaxed {
                    Rules::Relaxed
                } else {
                    Rules::Standard
                },
                piles,
                stock,
                removed: removed.into_iter().map(|s| Suit::ALL[s]).collect(),
                moves_played,
            })
            .prop_filter("no more cards than two decks", |deal| {
                deal.validate().is_ok()
            })
    }

    proptest! {
        #[test]
        fn write_then_read_gives_the_same_deal(deal in deal()) {
            let text = to_string(&deal);
            prop_assert_eq!(read(&text).unwrap(), deal);
        }

        #[test]
        fn empty_piles_round_trip(deal in deal(), empty in 0usize..PILES) {
            let mut deal = deal;
            deal.piles[empty] = Pile::default();
            let text = to_string(&deal);
            prop_assert_eq!(read(&text).unwrap(), deal);
        }
    }

    proptest! {
        /// Any one character of a good file changed gives a deal or an
        /// error, never a panic.
        #[test]
        fn never_panics_on_a_damaged_file(at in 0usize..2000, c in proptest::char::any()) {
            let mut chars: Vec<char> = sample().chars().collect();
            let at = at % chars.len();
            chars[at] = c;
            let _ = read(&chars.into_iter().collect::<String>());
        }

        #[test]
        fn never_panics(text in "[ \\[\\]{}:,#\n-a-z_0-9XSHDC]{0,200}") {
            let _ = read(&text);
        }
    }
}
