//! Cards as players write them: rank then suit, case-insensitive, `10` or `T`
//! for ten, `XX` for a card whose face is not known.
//!
//! A [`Card`] is one byte (`suit * 13 + rank - 1`), so positions can hold
//! cards in flat arrays and hash them cheaply.

use std::fmt;
use std::str::FromStr;

/// A suit. Two-suit games use spades and hearts; one-suit games spades only.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Suit {
    Spades,
    Hearts,
    Diamonds,
    Clubs,
}

impl Suit {
    /// All four suits in the order S H D C.
    pub const ALL: [Suit; 4] = [Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs];

    /// The suit's letter: `S`, `H`, `D` or `C`.
    pub fn letter(self) -> char {
        ['S', 'H', 'D', 'C'][self as usize]
    }

    /// The suit's symbol for people: ♠ ♥ ♦ ♣.
    pub fn symbol(self) -> char {
        ['♠', '♥', '♦', '♣'][self as usize]
    }

    /// The suit named by a letter, in either case, or by its symbol (the
    /// one the tool prints, `♠ ♥ ♦ ♣`, or the white one, `♤ ♡ ♢ ♧`).
    pub fn from_letter(letter: char) -> Option<Suit> {
        match letter.to_ascii_uppercase() {
            'S' | '♠' | '♤' => Some(Suit::Spades),
            'H' | '♥' | '♡' => Some(Suit::Hearts),
            'D' | '♦' | '♢' => Some(Suit::Diamonds),
            'C' | '♣' | '♧' => Some(Suit::Clubs),
            _ => None,
        }
    }
}

impl fmt::Display for Suit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// A rank, 1 (ace) to 13 (king).
pub type Rank = u8;

/// The highest rank, the king.
pub const KING: Rank = 13;

/// Writes a rank as players do: `A 2 ... 10 J Q K`.
pub fn rank_name(rank: Rank) -> &'static str {
    [
        "?", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K",
    ][rank as usize]
}

/// How many suits a game is played with. The decks are always 104 cards:
/// with fewer suits each card appears more often.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum SuitCount {
    /// Spades only: eight copies of each card.
    One,
    /// Spades and hearts: four copies of each card.
    Two,
    /// Two full decks: two copies of each card.
    #[default]
    Four,
}

impl SuitCount {
    /// The number of suits, 1, 2 or 4.
    pub fn count(self) -> usize {
        match self {
            SuitCount::One => 1,
            SuitCount::Two => 2,
            SuitCount::Four => 4,
        }
    }

    /// The suit count for 1, 2 or 4.
    pub fn from_count(count: usize) -> Option<SuitCount> {
        match count {
            1 => Some(SuitCount::One),
            2 => Some(SuitCount::Two),
            4 => Some(SuitCount::Four),
            _ => None,
        }
    }

    /// The suits in play.
    pub fn suits(self) -> &'static [Suit] {
        &Suit::ALL[..self.count()]
    }

    /// How many copies of each card of a suit in play the two decks hold.
    pub fn copies(self) -> usize {
        8 / self.count()
    }
}

/// A card whose face is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card(u8);

/// The rank of each card index (`index % 13 + 1`), padded to 64 entries
/// (see [`Card::rank`]).
pub(crate) const RANK_OF: [Rank; 64] = {
    let mut ranks = [0; 64];
    let mut index = 0;
    while index < 64 {
        ranks[index] = (index % 13 + 1) as Rank;
        index += 1;
    }
    ranks
};

impl Card {
    /// The number of distinct cards (52).
    pub const DISTINCT: usize = 52;

    /// The card of this rank (1..=13) and suit.
    pub fn new(rank: Rank, suit: Suit) -> Card {
        assert!((1..=KING).contains(&rank), "rank {rank} out of 1..=13");
        Card(suit as u8 * 13 + rank - 1)
    }

    /// The card with this index, `0..52` (`suit * 13 + rank - 1`).
    pub fn from_index(index: u8) -> Card {
        assert!((index as usize) < Card::DISTINCT);
        Card(index)
    }

    /// This card's index, `0..52`.
    pub fn index(self) -> u8 {
        self.0
    }

    /// Rank 1 (ace) to 13 (king).
    #[inline]
    pub fn rank(self) -> Rank {
        // A table read, not a division by 13: the rank is read in the
        // innermost loops of the search and of the dead-end tests. The
        // table has 64 entries so that the index needs no bounds check.
        RANK_OF[self.0 as usize % 64]
    }

    pub fn suit(self) -> Suit {
        Suit::ALL[(self.0 / 13) as usize]
    }

    /// Whether `self` may lie on `below` inside a run that moves as one:
    /// same suit, one rank lower.
    pub fn continues_run(self, below: Card) -> bool {
        self.0 + 1 == below.0 && self.rank() != KING
    }

    /// The card written for people, with a suit symbol: `10♥`.
    pub fn pretty(self) -> String {
        format!("{}{}", rank_name(self.rank()), self.suit().symbol())
    }
}

impl fmt::Display for Card {
    /// The card in the notation files use: `10H`, `AS`, `QC`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", rank_name(self.rank()), self.suit().letter())
    }
}

/// A card as a deal file gives it: known, or `XX`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CardSlot {
    Known(Card),
    /// `XX`: a card whose face has never been seen.
    Unknown,
}

impl CardSlot {
    /// The card, if known.
    pub fn known(self) -> Option<Card> {
        match self {
            CardSlot::Known(card) => Some(card),
            CardSlot::Unknown => None,
        }
    }
}

impl fmt::Display for CardSlot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CardSlot::Known(card) => card.fmt(f),
            CardSlot::Unknown => f.write_str("XX"),
        }
    }
}

/// A card that could not be read, quoting the text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{}` is not a card: expected a rank (A 2-10 T J Q K) then a suit (S H D C, or ♠ ♥ ♦ ♣), like `10h`, `QS`, `A♠`, or `XX` for an unknown card",
    crate::text::excerpt(text)
)]
pub struct CardParseError {
    /// The text that was read.
    pub text: String,
}

impl FromStr for CardSlot {
    type Err = CardParseError;

    fn from_str(text: &str) -> Result<CardSlot, CardParseError> {
        let error = || CardParseError {
            text: text.to_string(),
        };
        if text.eq_ignore_ascii_case("xx") {
            return Ok(CardSlot::Unknown);
        }
        // Some systems add a variation selector after a suit symbol.
        let mut chars = text.trim_end_matches('\u{FE0F}').chars();
        let suit = chars
            .next_back()
            .and_then(Suit::from_letter)
            .ok_or_else(error)?;
        let rank = match chars.as_str().to_ascii_uppercase().as_str() {
            "A" => 1,
            "T" | "10" => 10,
            "J" => 11,
            "Q" => 12,
            "K" => 13,
            digit if digit.len() == 1 && ("2"..="9").contains(&digit) => {
                digit.parse::<u8>().map_err(|_| error())?
            }
            _ => return Err(error()),
        };
        Ok(CardSlot::Known(Card::new(rank, suit)))
    }
}

impl FromStr for Card {
    type Err = CardParseError;

    /// A known card; `XX` is refused.
    fn from_str(text: &str) -> Result<Card, CardParseError> {
        match text.parse::<CardSlot>()? {
            CardSlot::Known(card) => Ok(card),
            CardSlot::Unknown => Err(CardParseError {
                text: text.to_string(),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_spelling() {
        let ten_hearts = CardSlot::Known(Card::new(10, Suit::Hearts));
        for text in ["10h", "10H", "Th", "tH"] {
            assert_eq!(text.parse::<CardSlot>(), Ok(ten_hearts), "{text}");
        }
        assert_eq!(
            "QS".parse(),
            Ok(CardSlot::Known(Card::new(12, Suit::Spades)))
        );
        assert_eq!(
            "as".parse(),
            Ok(CardSlot::Known(Card::new(1, Suit::Spades)))
        );
        assert_eq!("A♠".parse(), Ok(Card::new(1, Suit::Spades)));
        assert_eq!("10♥".parse(), Ok(Card::new(10, Suit::Hearts)));
        assert_eq!(
            "7d".parse(),
            Ok(CardSlot::Known(Card::new(7, Suit::Diamonds)))
        );
        assert_eq!(
            "kc".parse(),
            Ok(CardSlot::Known(Card::new(13, Suit::Clubs)))
        );
        assert_eq!("xx".parse(), Ok(CardSlot::Unknown));
        assert_eq!("XX".parse(), Ok(CardSlot::Unknown));
        // What the tool prints, it reads.
        for card in ["A♠", "10♥", "Q♦", "3♣", "K♠\u{FE0F}"] {
            let read: Card = card.parse().unwrap();
            assert_eq!(read.pretty(), card.trim_end_matches('\u{FE0F}'), "{card}");
        }
    }

    #[test]
    fn refuses_non_cards_quoting_them() {
        for text in [
            "", "1", "1s", "11h", "0s", "ZS", "Qx", "10", "KSS", "♠A", "XXX",
        ] {
            let err = text.parse::<CardSlot>().unwrap_err();
            assert_eq!(err.text, text);
            assert!(err.to_string().contains(&format!("`{text}`")));
        }
        assert!("XX".parse::<Card>().is_err());
    }

    #[test]
    fn displays_round_trip() {
        for index in 0..52 {
            let card = Card::from_index(index);
            assert_eq!(card.to_string().parse::<Card>(), Ok(card));
            assert_eq!(card.index(), index);
        }
        assert_eq!(Card::new(10, Suit::Hearts).to_string(), "10H");
        assert_eq!(Card::new(10, Suit::Hearts).pretty(), "10♥");
        assert_eq!(CardSlot::Unknown.to_string(), "XX");
    }

    #[test]
    fn runs_are_same_suit_and_one_lower() {
        let nine_h = Card::new(9, Suit::Hearts);
        assert!(Card::new(8, Suit::Hearts).continues_run(nine_h));
        assert!(!Card::new(8, Suit::Spades).continues_run(nine_h));
        assert!(!Card::new(7, Suit::Hearts).continues_run(nine_h));
        // A king never continues a run, even though its index follows the
        // ace of the previous suit.
        assert!(!Card::new(13, Suit::Spades).continues_run(Card::new(1, Suit::Hearts)));
    }

    #[test]
    fn suit_counts() {
        assert_eq!(SuitCount::One.copies(), 8);
        assert_eq!(SuitCount::Two.copies(), 4);
        assert_eq!(SuitCount::Four.copies(), 2);
        assert_eq!(SuitCount::Two.suits(), &[Suit::Spades, Suit::Hearts]);
    }
}
