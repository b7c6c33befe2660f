//! The CLIPS fact files this project started from, read as a second format.
//!
//! The first deals were typed by hand as facts for a CLIPS expert system, and
//! hand-typed files hold mistakes, so the reader is strict and says where:
//!
//! ```text
//! ; comment to the end of the line
//! (deal P1  5s 10h 5h as 8c 3c)   ; face-up card, then what each of the 5 stock deals gives P1
//! (pile P1  5d jh 3c 7h kd)       ; the face-down cards, bottom first (XX = never seen)
//! ```
//!
//! Every pile P1..P10 needs exactly one `deal` and one `pile` fact. Stock row
//! `r` entry `i` is the `r+1`-th card of `(deal Pi ...)`. The games were all
//! 4-suit games under standard rules, with nothing removed yet.
//!
//! No CLIPS crate exists and only flat facts occur, so the parser is a few
//! lines of tokenizer over lines and columns.

use std::path::Path;

use super::{Deal, InputError, MAX_STOCK_ROWS, PILES, Pile, Rules};
use crate::cards::{CardSlot, SuitCount};

/// Cards in a `(deal Pn ...)` fact: the face-up card and one per stock row.
const DEAL_CARDS: usize = 1 + MAX_STOCK_ROWS;

/// Reads CLIPS facts into a fresh 4-suit deal. `file` names the file in
/// errors.
pub fn from_str(text: &str, file: &Path) -> Result<Deal, InputError> {
    let at = |pos: Pos, message: String| InputError {
        file: file.display().to_string(),
        line: Some(pos.line),
        column: Some(pos.column),
        message,
    };
    let facts = parse_facts(text).map_err(|(pos, message)| at(pos, message))?;
    if facts.is_empty() {
        return Err(InputError::whole_file(
            file,
            "no facts found: expected `(deal P1 ...)` and `(pile P1 ...)` facts",
        ));
    }

    // For each pile, the deal fact's cards and the pile fact's cards, with
    // where each fact was given (to report one given twice).
    let mut deals: [Option<(Pos, Vec<CardSlot>)>; PILES] = Default::default();
    let mut piles: [Option<(Pos, Vec<CardSlot>)>; PILES] = Default::default();
    for fact in &facts {
        let (kind, table) = match fact.name.text.as_str() {
            "deal" => ("deal", &mut deals),
            "pile" => ("pile", &mut piles),
            other => {
                return Err(at(
                    fact.name.pos,
                    format!("unknown fact `{other}`: expected `deal` or `pile`"),
                ));
            }
        };
        let Some(pile_atom) = fact.args.first() else {
            return Err(at(
                fact.close,
                format!("({kind} ...) needs a pile name P1..P10 after `{kind}`"),
            ));
        };
        let pile = pile_number(&pile_atom.text).ok_or_else(|| {
            at(
                pile_atom.pos,
                format!("`{}` is not a pile: expected P1..P10", pile_atom.text),
            )
        })?;
        let mut cards = Vec::with_capacity(fact.args.len() - 1);
        for atom in &fact.args[1..] {
            let slot = atom
                .text
                .parse::<CardSlot>()
                .map_err(|err| at(atom.pos, err.to_string()))?;
            cards.push(slot);
        }
        if kind == "deal" {
            if cards.len() != DEAL_CARDS {
                return Err(at(
                    fact.open,
                    format!(
                        "(deal P{pile} ...) gives {} cards, expected {DEAL_CARDS}: the face-up card, then one for each of the {MAX_STOCK_ROWS} stock deals",
                        cards.len()
                    ),
                ));
            }
            if cards[0] == CardSlot::Unknown {
                return Err(at(
                    fact.args[1].pos,
                    format!(
                        "the face-up card of P{pile} cannot be `XX`: a face-up card is always known"
                    ),
                ));
            }
        }
        let entry = &mut table[pile - 1];
        if let Some((first, _)) = entry {
            return Err(at(
                fact.open,
                format!(
                    "({kind} P{pile} ...) is given twice (first at line {}, column {})",
                    first.line, first.column
                ),
            ));
        }
        *entry = Some((fact.open, cards));
    }

    let missing = |table: &[Option<(Pos, Vec<CardSlot>)>; PILES], kind: &str| {
        let names: Vec<String> = (1..=PILES)
            .filter(|&pile| table[pile - 1].is_none())
            .map(|pile| format!("P{pile}"))
            .collect();
        if names.is_empty() {
            Ok(())
        } else {
            Err(InputError::whole_file(
                file,
                format!(
                    "no ({kind} Pn ...) fact for {}: every pile P1..P10 needs one",
                    names.join(", ")
                ),
            ))
        }
    };
    missing(&deals, "deal")?;
    missing(&piles, "pile")?;

    let deals: Vec<Vec<CardSlot>> = deals
        .into_iter()
        .map(|entry| entry.map(|(_, cards)| cards).unwrap_or_default())
        .collect();
    let mut deal = Deal {
        suits: SuitCount::Four,
        rules: Rules::Standard,
        piles: Vec::with_capacity(PILES),
        stock: Vec::with_capacity(MAX_STOCK_ROWS),
        removed: Vec::new(),
        moves_played: 0,
    };
    for (cards, entry) in deals.iter().zip(piles) {
        let face_down = entry.map(|(_, cards)| cards).unwrap_or_default();
        deal.piles.push(Pile {
            face_down,
            face_up: cards
                .first()
                .and_then(|slot| slot.known())
                .into_iter()
                .collect(),
        });
    }
    for row in 1..DEAL_CARDS {
        let mut stock_row = [CardSlot::Unknown; PILES];
        for (slot, cards) in stock_row.iter_mut().zip(&deals) {
            *slot = cards[row];
        }
        deal.stock.push(stock_row);
    }
    deal.validate()
        .map_err(|err| InputError::whole_file(file, err.0))?;
    Ok(deal)
}

/// `P1`..`P10` (either case) as 1..=10.
fn pile_number(text: &str) -> Option<usize> {
    let digits = text.strip_prefix(['P', 'p'])?;
    if digits.starts_with('0') {
        return None;
    }
    digits
        .parse::<usize>()
        .ok()
        .filter(|pile| (1..=PILES).contains(pile))
}

/// A 1-based line and column (in characters).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Pos {
    line: usize,
    column: usize,
}

/// A word of a fact, where it was written.
#[derive(Debug)]
struct Atom {
    text: String,
    pos: Pos,
}

/// `(name args...)`, with the positions of its parentheses.
#[derive(Debug)]
struct Fact {
    open: Pos,
    close: Pos,
    name: Atom,
    args: Vec<Atom>,
}

/// Splits the text into flat facts. Errors carry their position.
fn parse_facts(text: &str) -> Result<Vec<Fact>, (Pos, String)> {
    let mut facts = Vec::new();
    // The fact being read: where it opened and its atoms so far.
    let mut open: Option<(Pos, Vec<Atom>)> = None;
    for (line_index, line) in text.lines().enumerate() {
        let mut chars = line.char_indices().peekable();
        let mut column = 0;
        while let Some((start, c)) = chars.next() {
            column += 1;
            let pos = Pos {
                line: line_index + 1,
                column,
            };
            match c {
                ';' => break,
                c if c.is_whitespace() => {}
                '(' => {
                    if let Some((outer, _)) = &open {
                        return Err((
                            pos,
                            format!(
                                "unbalanced parentheses: `(` inside the fact opened at line {}, column {} (facts do not nest; is a `)` missing?)",
                                outer.line, outer.column
                            ),
                        ));
                    }
                    open = Some((pos, Vec::new()));
                }
                ')' => {
                    let Some((open_pos, mut atoms)) = open.take() else {
                        return Err((pos, "unbalanced parentheses: `)` closes no fact".into()));
                    };
                    if atoms.is_empty() {
                        return Err((
                            open_pos,
                            "empty fact `()`: expected `(deal P1 ...)` or `(pile P1 ...)`".into(),
                        ));
                    }
                    let name = atoms.remove(0);
                    facts.push(Fact {
                        open: open_pos,
                        close: pos,
                        name,
                        args: atoms,
                    });
                }
                _ => {
                    let mut end = start + c.len_utf8();
                    while let Some(&(index, next)) = chars.peek() {
                        if next.is_whitespace() || "();".contains(next) {
                            break;
                        }
                        end = index + next.len_utf8();
                        column += 1;
                        chars.next();
                    }
                    let word = &line[start..end];
                    match &mut open {
                        Some((_, atoms)) => atoms.push(Atom {
                            text: word.to_string(),
                            pos,
                        }),
                        None => {
                            return Err((
                                pos,
                                format!("expected `(` to start a fact, found `{word}`"),
                            ));
                        }
                    }
                }
            }
        }
    }
    if let Some((pos, _)) = open {
        return Err((
            pos,
            "unbalanced parentheses: this fact is never closed (a `)` is missing)".into(),
        ));
    }
    Ok(facts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Card;

    const UNWON: &str = include_str!("../../deals/unwon-2017.clips");

    fn read(text: &str) -> Result<Deal, InputError> {
        from_str(text, Path::new("g.clips"))
    }

    /// `(line, column, message)` of the error reading `text`.
    fn err(text: &str) -> (Option<usize>, Option<usize>, String) {
        let err = read(text).expect_err("should be refused");
        (err.line, err.column, err.message)
    }

    fn slot(text: &str) -> CardSlot {
        text.parse().unwrap()
    }

    #[test]
    fn reads_the_unwon_game() {
        let deal = read(UNWON).unwrap();
        assert_eq!(deal.suits, SuitCount::Four);
        assert_eq!(deal.rules, Rules::Standard);
        assert_eq!(deal.piles[0].face_up, vec!["5S".parse::<Card>().unwrap()]);
        assert_eq!(
            deal.piles[0].face_down,
            ["5D", "JH", "3C", "7H", "KD"].map(slot).to_vec()
        );
        assert_eq!(
            deal.piles[2].face_down,
            ["XX", "XX", "KC", "8S", "6H"].map(slot).to_vec()
        );
        assert_eq!(deal.piles[9].face_up, vec!["4D".parse::<Card>().unwrap()]);
        assert_eq!(deal.stock.len(), 5);
        // Row 1 is the second entry of each (deal Pn ...).
        assert_eq!(
            deal.stock[0],
            ["10H", "10D", "5H", "8H", "7D", "4S", "8D", "4C", "7C", "5S"].map(slot)
        );
        // Row 5 is the last.
        assert_eq!(
            deal.stock[4],
            ["3C", "8S", "JS", "7H", "KH", "AS", "QC", "9S", "9H", "2H"].map(slot)
        );
        assert_eq!(deal.slots().count(), 104);
        assert_eq!(deal.unknown_places().len(), 4);
    }

    /// A complete, valid file, to break one thing at a time.
    fn valid() -> String {
        let mut text = String::from("; test\n");
        for pile in 1..=10 {
            text.push_str(&format!("(deal P{pile} ks qs js 10s 9s 8s)\n"));
        }
        for pile in 1..=10 {
            text.push_str(&format!("(pile P{pile} xx as 2s)\n"));
        }
        text
    }

    #[test]
    fn the_valid_sample_reads() {
        let deal = read(&valid()).unwrap();
        assert_eq!(
            deal.piles[9].face_down,
            ["XX", "AS", "2S"].map(slot).to_vec()
        );
        assert_eq!(deal.stock[4], [slot("8S"); 10]);
    }

    #[test]
    fn unbalanced_parentheses() {
        assert_eq!(
            err("(deal P1 ks\n(pile P1 as)"),
            (
                Some(2),
                Some(1),
                "unbalanced parentheses: `(` inside the fact opened at line 1, column 1 (facts do not nest; is a `)` missing?)".into()
            )
        );
        assert_eq!(
            err("  (deal P1 ks"),
            (
                Some(1),
                Some(3),
                "unbalanced parentheses: this fact is never closed (a `)` is missing)".into()
            )
        );
        assert_eq!(
            err("(deal P1 ks))"),
            (
                Some(1),
                Some(13),
                "unbalanced parentheses: `)` closes no fact".into()
            )
        );
    }

    #[test]
    fn unknown_fact_and_bad_pile_names() {
        assert_eq!(
            err("; x\n  (deel P1 ks)"),
            (
                Some(2),
                Some(4),
                "unknown fact `deel`: expected `deal` or `pile`".into()
            )
        );
        for bad in ["P0", "P11", "Q1", "P01", "1"] {
            assert_eq!(
                err(&format!("(pile {bad} ks)")),
                (
                    Some(1),
                    Some(7),
                    format!("`{bad}` is not a pile: expected P1..P10")
                ),
            );
        }
        assert_eq!(
            err("(pile)"),
            (
                Some(1),
                Some(6),
                "(pile ...) needs a pile name P1..P10 after `pile`".into()
            )
        );
        assert_eq!(
            err("hello"),
            (
                Some(1),
                Some(1),
                "expected `(` to start a fact, found `hello`".into()
            )
        );
        assert_eq!(
            err("()"),
            (
                Some(1),
                Some(1),
                "empty fact `()`: expected `(deal P1 ...)` or `(pile P1 ...)`".into()
            )
        );
    }

    #[test]
    fn an_unknown_card_is_quoted_at_its_place() {
        let text = valid().replace("(pile P4 xx as 2s)", "(pile P4 xx as 1s)");
        let (line, column, message) = err(&text);
        assert_eq!((line, column), (Some(15), Some(16)));
        assert!(message.starts_with("`1s` is not a card"), "{message}");
    }

    #[test]
    fn a_face_up_xx_is_refused() {
        let text = valid().replace("(deal P3 ks", "(deal P3 XX");
        assert_eq!(
            err(&text),
            (
                Some(4),
                Some(10),
                "the face-up card of P3 cannot be `XX`: a face-up card is always known".into()
            )
        );
        // XX in a stock entry is fine.
        let text = valid().replace("(deal P3 ks qs", "(deal P3 ks xx");
        assert_eq!(read(&text).unwrap().stock[0][2], CardSlot::Unknown);
    }

    #[test]
    fn a_deal_fact_of_the_wrong_length() {
        let text = valid().replace("(deal P2 ks qs js 10s 9s 8s)", "(deal P2 ks qs js 10s 9s)");
        assert_eq!(
            err(&text),
            (
                Some(3),
                Some(1),
                "(deal P2 ...) gives 5 cards, expected 6: the face-up card, then one for each of the 5 stock deals".into()
            )
        );
    }

    #[test]
    fn a_pile_missing_or_given_twice() {
        let text = valid().replace("(pile P7 xx as 2s)\n", "");
        let err_missing = read(&text).unwrap_err();
        assert_eq!(err_missing.line, None);
        assert_eq!(
            err_missing.message,
            "no (pile Pn ...) fact for P7: every pile P1..P10 needs one"
        );
        let text = valid().replace(
            "(deal P9 ks qs js 10s 9s 8s)",
            "(deal P8 ks qs js 10s 9s 8s)",
        );
        assert_eq!(
            err(&text),
            (
                Some(10),
                Some(1),
                "(deal P8 ...) is given twice (first at line 9, column 1)".into()
            )
        );
        assert!(
            read("; nothing\n")
                .unwrap_err()
                .message
                .starts_with("no facts found")
        );
    }

    proptest::proptest! {
        /// Any text, however broken, gives a deal or an error, never a panic.
        #[test]
        fn never_panics(text in "[ ()PpdealinXxsSkK0-9;\n]{0,200}") {
            let _ = read(&text);
        }

        /// Any one character of the real file changed still never panics.
        #[test]
        fn never_panics_on_a_damaged_real_file(at in 0usize..1500, c in proptest::char::any()) {
            let mut chars: Vec<char> = UNWON.chars().collect();
            let at = at % chars.len();
            chars[at] = c;
            let _ = read(&chars.into_iter().collect::<String>());
        }
    }
}
