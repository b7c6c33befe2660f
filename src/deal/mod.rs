//! A deal as a file describes it: a fresh deal or any position in mid-game.
//!
//! [`Deal`] is the one model every input format reads into and every command
//! starts from. It keeps what a player can see or has written down: each
//! pile's face-down cards (bottom first, `XX` where never seen) and face-up
//! cards (bottom first, so the top card is last), the stock rows still to come
//! (first row dealt first), the suits whose K..A runs were already removed,
//! the suit count and the rules. The rules engine ([`crate::game`]) turns it
//! into a playable position.

use std::fmt;
use std::path::Path;

use crate::cards::{Card, CardSlot, Suit, SuitCount};

/// Number of piles on the table.
pub const PILES: usize = 10;
/// Most stock rows a deal can have (a fresh deal has five).
pub const MAX_STOCK_ROWS: usize = 5;
/// Cards in the two decks.
pub const DECK_CARDS: usize = 104;

/// When dealing from the stock is allowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Rules {
    /// Microsoft Spider: no deal while any pile is empty.
    #[default]
    Standard,
    /// KPatience, Solvitaire, PySol's "Relaxed Spider": dealing onto empty
    /// piles is allowed.
    Relaxed,
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Rules::Standard => "standard",
            Rules::Relaxed => "relaxed",
        })
    }
}

/// One pile of the table.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Pile {
    /// Face-down cards, bottom first: the last one is the next to turn up.
    pub face_down: Vec<CardSlot>,
    /// Face-up cards, bottom first: the last one is the top of the pile.
    pub face_up: Vec<Card>,
}

/// One row of the stock: entry `i` is dealt onto pile `i`.
pub type StockRow = [CardSlot; PILES];

/// A fresh deal or a mid-game position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deal {
    pub suits: SuitCount,
    pub rules: Rules,
    /// Exactly [`PILES`] piles, pile 1 first.
    pub piles: Vec<Pile>,
    /// The stock rows still to come, the first to be dealt first.
    pub stock: Vec<StockRow>,
    /// The suit of each completed K..A run already removed from the table.
    pub removed: Vec<Suit>,
    /// How many moves (a deal from the stock is one) were played before
    /// this position, as the file says (`moves_played:`); 0 for a fresh
    /// deal or a file that does not say. Only the live game reads it: it
    /// numbers the next move `moves_played + 1`.
    pub moves_played: usize,
}

/// Where a card sits in a deal, for reports. Piles, rows and positions are
/// counted from 1, as people count them. In JSON a place is an object
/// tagged by `kind`: `{"kind": "face_down", "pile": 3, "index": 1}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Place {
    /// The `index`-th face-down card of `pile`, counted from the bottom.
    FaceDown { pile: usize, index: usize },
    /// The `index`-th face-up card of `pile`, counted from the bottom of the
    /// face-up cards.
    FaceUp { pile: usize, index: usize },
    /// Entry `pile` of stock row `row` (row 1 is dealt first).
    Stock { row: usize, pile: usize },
    /// The `run`-th removed run.
    Removed { run: usize },
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Place::FaceDown { pile, index } => write!(f, "pile {pile} face-down #{index}"),
            Place::FaceUp { pile, index } => write!(f, "pile {pile} face-up #{index}"),
            Place::Stock { row, pile } => write!(f, "stock row {row} pile {pile}"),
            Place::Removed { run } => write!(f, "removed run #{run}"),
        }
    }
}

/// A deal that breaks the shape every position has (ten piles, rows of ten,
/// at most five rows, suits in play, ...). Readers report it with the file
/// and line of the offending item where they know it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ShapeError(pub String);

impl Deal {
    /// A fresh deal from 104 cards in dealing order: the 54 cards of the
    /// layout, pile by pile (piles 1-4 get six cards, piles 5-10 five; bottom
    /// first, so the last card of each pile is the one face up), then the 50
    /// stock cards row by row (row 1, entry for pile 1 first).
    pub fn fresh(cards: &[CardSlot], suits: SuitCount, rules: Rules) -> Result<Deal, ShapeError> {
        if cards.len() != DECK_CARDS {
            return Err(ShapeError(format!(
                "a fresh deal needs {DECK_CARDS} cards, got {}",
                cards.len()
            )));
        }
        let mut next = cards.iter().copied();
        let mut piles = Vec::with_capacity(PILES);
        for pile in 0..PILES {
            let size = if pile < 4 { 6 } else { 5 };
            let mut face_down: Vec<CardSlot> = next.by_ref().take(size).collect();
            let top = face_down.pop().expect("piles are never empty");
            let top = top.known().ok_or_else(|| {
                ShapeError(format!(
                    "the face-up card of pile {} cannot be XX",
                    pile + 1
                ))
            })?;
            piles.push(Pile {
                face_down,
                face_up: vec![top],
            });
        }
        let stock = (0..MAX_STOCK_ROWS)
            .map(|_| {
                let mut row = [CardSlot::Unknown; PILES];
                for slot in row.iter_mut() {
                    *slot = next.next().expect("counted above");
                }
                row
            })
            .collect();
        let deal = Deal {
            suits,
            rules,
            piles,
            stock,
            removed: Vec::new(),
            moves_played: 0,
        };
        deal.validate()?;
        Ok(deal)
    }

    /// Checks the shape: ten piles, at most five stock rows, no pile with
    /// face-down cards but no face-up card, only suits in play, at most
    /// eight removed runs (the count of cards is [`Deal::validate_size`]'s).
    /// (Whether each
    /// card appears as often as two decks hold it is the consistency check's
    /// job, not this one: an inconsistent deal is still a deal.)
    pub fn validate(&self) -> Result<(), ShapeError> {
        if self.piles.len() != PILES {
            return Err(ShapeError(format!(
                "a deal has {PILES} piles, this one has {}",
                self.piles.len()
            )));
        }
        if self.stock.len() > MAX_STOCK_ROWS {
            return Err(ShapeError(format!(
                "the stock has at most {MAX_STOCK_ROWS} rows, this one has {}",
                self.stock.len()
            )));
        }
        for (index, pile) in self.piles.iter().enumerate() {
            if !pile.face_down.is_empty() && pile.face_up.is_empty() {
                return Err(ShapeError(format!(
                    "pile {} has face-down cards but no face-up card (the top card of a pile is always face up)",
                    index + 1
                )));
            }
        }
        if self.removed.len() > 8 {
            return Err(ShapeError(format!(
                "at most 8 runs can be removed, this deal says {}",
                self.removed.len()
            )));
        }
        let in_play = self.suits.suits();
        for (place, slot) in self.slots() {
            if let CardSlot::Known(card) = slot
                && !in_play.contains(&card.suit())
            {
                return Err(ShapeError(format!(
                    "{} at {place} is not of a suit in play in a {}-suit game",
                    card.pretty(),
                    self.suits.count()
                )));
            }
        }
        Ok(())
    }

    /// Whether the deal holds no more cards than two decks: what a game
    /// needs on top of [`Deal::validate`]. (A file with more is still read,
    /// so that the consistency check reports each card that appears too
    /// often.)
    pub fn validate_size(&self) -> Result<(), ShapeError> {
        let total = self.slots().count();
        if total > DECK_CARDS {
            return Err(ShapeError(format!(
                "the deal holds {total} cards, more than the {DECK_CARDS} of two decks (`spider check` lists each card that appears too often)"
            )));
        }
        Ok(())
    }

    /// Every card of the deal with its place: piles (face-down then face-up),
    /// the stock rows, then the removed runs (each as its 13 cards, which all
    /// share the run's place).
    pub fn slots(&self) -> impl Iterator<Item = (Place, CardSlot)> + '_ {
        let piles = self.piles.iter().enumerate().flat_map(|(p, pile)| {
            let down = pile.face_down.iter().enumerate().map(move |(i, &slot)| {
                (
                    Place::FaceDown {
                        pile: p + 1,
                        index: i + 1,
                    },
                    slot,
                )
            });
            let up = pile.face_up.iter().enumerate().map(move |(i, &card)| {
                (
                    Place::FaceUp {
                        pile: p + 1,
                        index: i + 1,
                    },
                    CardSlot::Known(card),
                )
            });
            down.chain(up)
        });
        let stock = self.stock.iter().enumerate().flat_map(|(r, row)| {
            row.iter().enumerate().map(move |(p, &slot)| {
                (
                    Place::Stock {
                        row: r + 1,
                        pile: p + 1,
                    },
                    slot,
                )
            })
        });
        let removed = self.removed.iter().enumerate().flat_map(|(r, &suit)| {
            (1..=13).map(move |rank| {
                (
                    Place::Removed { run: r + 1 },
                    CardSlot::Known(Card::new(rank, suit)),
                )
            })
        });
        piles.chain(stock).chain(removed)
    }

    /// The places of the `XX` cards, in the order of [`Deal::slots`].
    pub fn unknown_places(&self) -> Vec<Place> {
        self.slots()
            .filter(|(_, slot)| *slot == CardSlot::Unknown)
            .map(|(place, _)| place)
            .collect()
    }

    /// This deal with its `XX` cards filled in order (the order of
    /// [`Deal::unknown_places`]) by `cards`.
    pub fn with_unknowns_filled(&self, cards: &[Card]) -> Result<Deal, ShapeError> {
        let places = self.unknown_places();
        if places.len() != cards.len() {
            return Err(ShapeError(format!(
                "{} to fill, {} given",
                crate::text::count(places.len() as u64, "unknown card"),
                crate::text::count(cards.len() as u64, "card")
            )));
        }
        let mut deal = self.clone();
        let mut fill = cards.iter().copied();
        for pile in &mut deal.piles {
            for slot in &mut pile.face_down {
                if *slot == CardSlot::Unknown {
                    *slot = CardSlot::Known(fill.next().expect("counted"));
                }
            }
        }
        for row in &mut deal.stock {
            for slot in row.iter_mut() {
                if *slot == CardSlot::Unknown {
                    *slot = CardSlot::Known(fill.next().expect("counted"));
                }
            }
        }
        Ok(deal)
    }
}

/// A deal file that could not be read: the file, the line and column where
/// they are known, and what was expected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct InputError {
    /// The file as the user named it.
    pub file: String,
    /// 1-based line, when known.
    pub line: Option<usize>,
    /// 1-based column, when known.
    pub column: Option<usize>,
    /// What is wrong and what was expected.
    pub message: String,
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
            if let Some(column) = self.column {
                write!(f, ":{column}")?;
            }
        }
        // A parser's own wording may quote a whole line of input.
        write!(f, ": {}", crate::text::shorten_words(&self.message))
    }
}

impl InputError {
    /// An error about the whole file, with no line to point at.
    pub fn whole_file(file: &Path, message: impl Into<String>) -> InputError {
        InputError {
            file: file.display().to_string(),
            line: None,
            column: None,
            message: message.into(),
        }
    }
}

pub mod check;
pub mod clips;
pub mod files;
pub mod numbered;
pub mod pysol;
pub mod yaml;

pub use files::load;
