//! The two-deck consistency check: does the deal hold each card exactly as
//! often as two decks do?
//!
//! A deal typed by hand from a game screen often holds a card seen twice in
//! the wrong place or one never written down. Before any search, the player
//! needs to know which card, and where each copy sits, so they can look at
//! the game again. The cards that are missing are also what the `XX` slots
//! can be: [`Report::candidates`] gives them to the solver, which fills the
//! unknown slots with them in every way.

use std::fmt;

use serde::{Serialize, Serializer};

use super::{Deal, Place};
use crate::cards::{Card, CardSlot, SuitCount};
use crate::text::count;

/// What the check found. Cards are listed in the order S, H, D, C and A to K
/// within a suit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Report {
    /// The suit count the deal is played with (1, 2 or 4).
    pub suits: usize,
    /// Every card slot of the deal, known or `XX` (removed runs count 13).
    pub cards: usize,
    /// Nothing appears too often and the missing cards fill the `XX` slots
    /// exactly.
    pub consistent: bool,
    /// The cards that appear more often than two decks hold them.
    pub too_often: Vec<TooOften>,
    /// The cards that appear less often than two decks hold them.
    pub missing: Vec<Missing>,
    /// How many cards are missing, counting copies.
    pub missing_count: usize,
    /// The `XX` slots.
    pub unknown: Vec<Place>,
    /// How many `XX` slots there are.
    pub unknown_count: usize,
    /// Whether the missing cards are exactly as many as the `XX` slots.
    pub fills_exactly: bool,
    /// When the deal is inconsistent and every known card is of the suits a
    /// smaller suit count plays (spades and hearts: 2; spades: 1), that
    /// count: the file probably lacks its `suits:` line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suits_hint: Option<usize>,
}

/// A card that appears too often, with every place it appears.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TooOften {
    #[serde(serialize_with = "card_text")]
    pub card: Card,
    /// How often two decks hold it.
    pub expected: usize,
    /// How often the deal holds it.
    pub found: usize,
    /// Where it appears, in the order of [`Deal::slots`].
    pub places: Vec<Place>,
}

/// A card that appears less often than two decks hold it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Missing {
    #[serde(serialize_with = "card_text")]
    pub card: Card,
    /// How many copies are missing.
    pub count: usize,
}

fn card_text<S: Serializer>(card: &Card, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_str(card)
}

/// Checks `deal` against two decks of its suit count.
pub fn check(deal: &Deal) -> Report {
    let copies = deal.suits.copies();
    let in_play = deal.suits.suits();
    let expected = |card: Card| {
        if in_play.contains(&card.suit()) {
            copies
        } else {
            0
        }
    };
    let mut places: Vec<Vec<Place>> = vec![Vec::new(); Card::DISTINCT];
    let mut unknown = Vec::new();
    let mut cards = 0;
    for (place, slot) in deal.slots() {
        cards += 1;
        match slot {
            CardSlot::Known(card) => places[card.index() as usize].push(place),
            CardSlot::Unknown => unknown.push(place),
        }
    }
    let mut too_often = Vec::new();
    let mut missing = Vec::new();
    for (index, places) in places.into_iter().enumerate() {
        let card = Card::from_index(index as u8);
        let (found, expected) = (places.len(), expected(card));
        if found > expected {
            too_often.push(TooOften {
                card,
                expected,
                found,
                places,
            });
        } else if found < expected {
            missing.push(Missing {
                card,
                count: expected - found,
            });
        }
    }
    let missing_count = missing.iter().map(|m| m.count).sum();
    let fills_exactly = missing_count == unknown.len();
    let consistent = too_often.is_empty() && fills_exactly;
    let known: Vec<Card> = deal.slots().filter_map(|(_, slot)| slot.known()).collect();
    let suits_hint = [SuitCount::One, SuitCount::Two]
        .into_iter()
        .filter(|fewer| fewer.count() < deal.suits.count())
        .find(|fewer| {
            !known.is_empty()
                && known
                    .iter()
                    .all(|card| fewer.suits().contains(&card.suit()))
        })
        .filter(|_| !consistent)
        .map(SuitCount::count);
    Report {
        suits: deal.suits.count(),
        cards,
        consistent,
        suits_hint,
        too_often,
        missing,
        missing_count,
        unknown_count: unknown.len(),
        unknown,
        fills_exactly,
    }
}

impl Report {
    /// The missing cards as a multiset (a card missing twice appears twice):
    /// the candidates for the `XX` slots.
    pub fn candidates(&self) -> Vec<Card> {
        self.missing
            .iter()
            .flat_map(|missing| std::iter::repeat_n(missing.card, missing.count))
            .collect()
    }
}

impl fmt::Display for Report {
    /// The report for people, one finding per line, ending with the verdict.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let copies = 8 / self.suits.max(1);
        writeln!(
            f,
            "{} ({copies} copies of each card): {}, {} of them XX{}",
            count(self.suits as u64, "suit"),
            count(self.cards as u64, "card"),
            self.unknown_count,
            if self.cards > super::DECK_CARDS {
                format!(", more than the {} of two decks", super::DECK_CARDS)
            } else {
                String::new()
            }
        )?;
        if self.too_often.is_empty() {
            writeln!(f, "too often: none")?;
        } else {
            writeln!(f, "too often:")?;
            for card in &self.too_often {
                let places: Vec<String> = card.places.iter().map(Place::to_string).collect();
                writeln!(
                    f,
                    "  {} appears {} times (expected {}): {}",
                    card.card.pretty(),
                    card.found,
                    card.expected,
                    places.join("; ")
                )?;
            }
        }
        if self.missing.is_empty() {
            writeln!(f, "missing: none")?;
        } else {
            let cards: Vec<String> = self
                .missing
                .iter()
                .map(|m| {
                    if m.count == 1 {
                        m.card.pretty()
                    } else {
                        format!("{} x{}", m.card.pretty(), m.count)
                    }
                })
                .collect();
            writeln!(f, "missing ({}): {}", self.missing_count, cards.join(", "))?;
        }
        if self.unknown.is_empty() {
            writeln!(f, "XX slots: none")?;
        } else {
            let places: Vec<String> = self.unknown.iter().map(Place::to_string).collect();
            writeln!(
                f,
                "XX slots ({}): {}",
                self.unknown_count,
                places.join("; ")
            )?;
        }
        if self.fills_exactly {
            writeln!(
                f,
                "the {} fill the {} exactly",
                missing_cards(self.missing_count),
                count(self.unknown_count as u64, "XX slot"),
            )?;
        } else {
            writeln!(
                f,
                "the {} cannot fill the {} exactly",
                missing_cards(self.missing_count),
                count(self.unknown_count as u64, "XX slot"),
            )?;
        }
        if let Some(suits) = self.suits_hint {
            writeln!(
                f,
                "hint: every known card is {}: is `suits: {suits}` missing from the file? (without it a deal has 4 suits)",
                if suits == 1 {
                    "a spade"
                } else {
                    "a spade or a heart"
                }
            )?;
        }
        writeln!(
            f,
            "{}",
            if self.consistent {
                "consistent"
            } else {
                "inconsistent"
            }
        )
    }
}

/// "1 missing card", "5 missing cards".
fn missing_cards(n: usize) -> String {
    if n == 1 {
        "1 missing card".into()
    } else {
        format!("{n} missing cards")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::SuitCount;
    use crate::deal::{Rules, load};
    use std::path::Path;

    fn card(text: &str) -> Card {
        text.parse().unwrap()
    }

    /// Two full decks in a fresh 4-suit deal, dealt in order.
    fn full_deal() -> Deal {
        let cards: Vec<CardSlot> = (0..104u8)
            .map(|i| CardSlot::Known(Card::from_index(i % 52)))
            .collect();
        Deal::fresh(&cards, SuitCount::Four, Rules::Standard).unwrap()
    }

    #[test]
    fn two_full_decks_are_consistent() {
        let report = check(&full_deal());
        assert!(report.consistent);
        assert_eq!(report.cards, 104);
        assert!(report.too_often.is_empty() && report.missing.is_empty());
        assert!(report.candidates().is_empty());
        assert!(report.to_string().ends_with("\nconsistent\n"));
    }

    #[test]
    fn a_tripled_card_is_reported_with_its_three_places() {
        let mut deal = full_deal();
        // Pile 1 face-down #1 is AS; the second AS is card 53 of the dealing
        // order, face-down #4 of pile 10.
        let second_as = deal
            .slots()
            .filter(|(_, slot)| *slot == CardSlot::Known(card("AS")))
            .map(|(place, _)| place)
            .nth(1)
            .unwrap();
        // Put a third AS where the 2S of pile 1 is.
        deal.piles[0].face_down[1] = CardSlot::Known(card("AS"));
        let report = check(&deal);
        assert!(!report.consistent);
        assert_eq!(
            report.too_often,
            vec![TooOften {
                card: card("AS"),
                expected: 2,
                found: 3,
                places: vec![
                    Place::FaceDown { pile: 1, index: 1 },
                    Place::FaceDown { pile: 1, index: 2 },
                    second_as,
                ],
            }]
        );
        assert_eq!(second_as, Place::FaceDown { pile: 10, index: 4 });
        assert_eq!(
            report.missing,
            vec![Missing {
                card: card("2S"),
                count: 1
            }]
        );
        assert!(!report.fills_exactly);
        assert!(
            report
                .to_string()
                .contains("  A♠ appears 3 times (expected 2): pile 1 face-down #1; pile 1 face-down #2; pile 10 face-down #4\n")
        );
    }

    #[test]
    fn a_dropped_card_is_missing() {
        let mut deal = full_deal();
        deal.stock[4][9] = CardSlot::Unknown;
        let dropped = Card::from_index(103 % 52);
        let report = check(&deal);
        assert!(report.consistent, "an XX where the card was fills it");
        assert_eq!(report.candidates(), vec![dropped]);
        deal.stock.pop();
        let report = check(&deal);
        assert!(!report.consistent);
        assert_eq!(report.missing_count, 10);
        assert_eq!(report.unknown_count, 0);
        assert!(
            report
                .missing
                .iter()
                .any(|m| m.card == dropped && m.count == 1)
        );
    }

    #[test]
    fn an_xx_too_many_does_not_fill_exactly() {
        let mut deal = full_deal();
        deal.stock[0][0] = CardSlot::Unknown;
        deal.stock[0][1] = CardSlot::Unknown;
        deal.piles[3].face_down.push(CardSlot::Unknown);
        let report = check(&deal);
        assert!(report.too_often.is_empty());
        assert_eq!(report.missing_count, 2);
        assert_eq!(report.unknown_count, 3);
        assert_eq!(
            report.unknown,
            vec![
                Place::FaceDown { pile: 4, index: 6 },
                Place::Stock { row: 1, pile: 1 },
                Place::Stock { row: 1, pile: 2 },
            ]
        );
        assert!(!report.fills_exactly && !report.consistent);
        assert!(
            report
                .to_string()
                .contains("the 2 missing cards cannot fill the 3 XX slots exactly\ninconsistent\n")
        );
    }

    #[test]
    fn one_and_two_suit_counts() {
        let spades: Vec<CardSlot> = (0..104u8)
            .map(|i| CardSlot::Known(Card::from_index(i % 13)))
            .collect();
        let deal = Deal::fresh(&spades, SuitCount::One, Rules::Standard).unwrap();
        assert!(check(&deal).consistent);
        let mut two = deal.clone();
        two.suits = SuitCount::Two;
        let report = check(&two);
        assert_eq!(report.too_often.len(), 13);
        assert_eq!(report.too_often[0].expected, 4);
        assert_eq!(report.too_often[0].found, 8);
        assert_eq!(report.missing.len(), 13);
        assert_eq!(
            report.missing[0],
            Missing {
                card: card("AH"),
                count: 4
            }
        );
        assert_eq!(report.candidates().len(), 52);
    }

    #[test]
    fn removed_runs_count() {
        // Two full decks and a spade run said to be removed: every spade
        // appears three times, the third time as the removed run.
        let mut deal = full_deal();
        deal.removed.push(crate::cards::Suit::Spades);
        let report = check(&deal);
        assert_eq!(report.cards, 117);
        assert_eq!(report.too_often.len(), 13);
        for card in &report.too_often {
            assert_eq!(card.card.suit(), crate::cards::Suit::Spades);
            assert_eq!(card.found, 3);
            assert_eq!(card.places.last(), Some(&Place::Removed { run: 1 }));
        }
        assert!(!report.consistent);
    }

    #[test]
    fn the_unwon_game() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("deals/unwon-2017.clips");
        let report = check(&load(&path).unwrap());
        assert!(report.consistent);
        assert!(report.too_often.is_empty());
        assert_eq!(report.cards, 104);
        assert_eq!(
            report.candidates(),
            ["3S", "7S", "KS", "4H"].map(card).to_vec()
        );
        assert_eq!(
            report.unknown,
            vec![
                Place::FaceDown { pile: 3, index: 1 },
                Place::FaceDown { pile: 3, index: 2 },
                Place::FaceDown { pile: 5, index: 1 },
                Place::FaceDown { pile: 5, index: 2 },
            ]
        );
        assert_eq!(
            report.to_string(),
            "4 suits (2 copies of each card): 104 cards, 4 of them XX
too often: none
missing (4): 3♠, 7♠, K♠, 4♥
XX slots (4): pile 3 face-down #1; pile 3 face-down #2; pile 5 face-down #1; pile 5 face-down #2
the 4 missing cards fill the 4 XX slots exactly
consistent
"
        );
        let json = serde_json::to_value(&report).unwrap();
        assert_eq!(json["consistent"], true);
        assert_eq!(json["missing"][2]["card"], "KS");
        assert_eq!(
            json["unknown"][3],
            serde_json::json!({"kind": "face_down", "pile": 5, "index": 2})
        );
    }
}
