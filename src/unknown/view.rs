//! What a player sees, and nothing more.
//!
//! A [`View`] is a position as a player at the table knows it: each pile's
//! face-up cards, how many face-down cards lie under them, how many stock
//! rows are left, the suits of the runs removed, the suit count and the
//! rules; and so the multiset of cards not yet seen ([`View::unseen`]). It
//! holds no hidden card: its only constructor masks every face-down and
//! stock slot (`XX`), and it learns a card only when it is told one turned
//! up ([`View::after`]). A player's code that receives a `View` cannot
//! peek, whatever it does: the real cards are not in its reach. The real
//! deal lives in the [`super::referee::Referee`].
//!
//! The rules are [`crate::game`]'s: a move is played on the masked game,
//! which stops at a reveal (the unknown cards face up), and
//! [`Game::fill_revealed`] puts the faces in and settles the piles.

use std::fmt;

use crate::cards::{Card, CardSlot, Suit, SuitCount};
use crate::deal::{Deal, PILES, Pile, Rules, ShapeError, check};
use crate::game::{Game, IllegalMove, Move, Position};

/// A position as a player sees it (see the module docs).
#[derive(Clone, Debug)]
pub struct View {
    /// The game of the masked deal the view started from: every face-down
    /// and stock slot `XX`.
    game: Game,
    /// The position reached, never a reveal.
    position: Position,
    /// The suits of the runs removed, in order.
    removed: Vec<Suit>,
}

/// Why [`View::after`] or [`View::of`] refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ViewError {
    #[error("{0}")]
    Illegal(#[from] IllegalMove),
    #[error("{0}")]
    Shape(#[from] ShapeError),
    /// Fewer cards given than the move turned up (a deal whose card
    /// completes a run can uncover one more card: `needed` counts it).
    #[error("the move turned up {}, {given} given", crate::text::count(*needed as u64, "card"))]
    NotEnough { needed: usize, given: usize },
    #[error("the move turned up {}, {given} given", crate::text::count(*needed as u64, "card"))]
    TooMany { needed: usize, given: usize },
    /// A card that cannot be there: every copy is already seen.
    #[error("{card} cannot be there: {why}")]
    CannotBe { card: String, why: String },
}

impl View {
    /// The view of a player who sees `deal`: its face-down and stock cards
    /// are masked (`XX`), whatever the deal holds; its face-up cards and
    /// removed runs are seen. Fails when the deal is not one (shape), or
    /// when a K..A run lying complete in the file, removed at once,
    /// uncovers a face-down card (write that card face up in the file).
    pub fn of(deal: &Deal) -> Result<View, ViewError> {
        let mut masked = deal.clone();
        for pile in &mut masked.piles {
            pile.face_down.fill(CardSlot::Unknown);
        }
        for row in &mut masked.stock {
            row.fill(CardSlot::Unknown);
        }
        let game = Game::new(&masked)?;
        if !game.start_reveals().is_empty() {
            return Err(ShapeError(
                "a complete K..A run in the file, removed at once, uncovers a face-down card: write the position after it (that card face up)".into(),
            )
            .into());
        }
        let position = game.start().clone();
        let mut removed = deal.removed.clone();
        // A run lying complete on top of a pile in the file was removed.
        for (pile, cards) in masked.piles.iter().enumerate() {
            if position.face_up_count(pile) < cards.face_up.len()
                && let Some(top) = cards.face_up.last()
            {
                removed.push(top.suit());
            }
        }
        Ok(View {
            game,
            position,
            removed,
        })
    }

    /// The position as a deal file: every face-down and stock card `XX`.
    /// Its `XX` slots are exactly the cards of [`View::unseen`], so the
    /// solver can draw completions of it.
    pub fn deal(&self) -> Deal {
        let p = &self.position;
        Deal {
            suits: self.game.suits(),
            rules: self.game.rules(),
            piles: (0..PILES)
                .map(|pile| Pile {
                    face_down: vec![CardSlot::Unknown; p.face_down_count(pile)],
                    face_up: p
                        .face_up(pile)
                        .map(|c| c.expect("a view is never a reveal"))
                        .collect(),
                })
                .collect(),
            stock: vec![[CardSlot::Unknown; PILES]; self.game.rows_left(p)],
            removed: self.removed.clone(),
            moves_played: 0,
        }
    }

    /// The cards not yet seen (neither face up nor in a removed run), each
    /// as often as it is unseen, sorted. Any of them may be under any
    /// face-down card or in any stock slot. (For an inconsistent file,
    /// which shows a card more often than two decks hold it, the cards
    /// missing from it.)
    pub fn unseen(&self) -> Vec<Card> {
        let mut cards = check::check(&self.deal()).candidates();
        cards.sort();
        cards
    }

    /// The masked game the view plays on (its `XX` slots never change).
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The position as seen (never a reveal).
    pub fn position(&self) -> &Position {
        &self.position
    }

    pub fn suits(&self) -> SuitCount {
        self.game.suits()
    }

    pub fn rules(&self) -> Rules {
        self.game.rules()
    }

    /// The suits of the runs removed so far.
    pub fn removed(&self) -> &[Suit] {
        &self.removed
    }

    /// Stock rows still to deal.
    pub fn rows_left(&self) -> usize {
        self.game.rows_left(&self.position)
    }

    /// Face-down cards on `pile` (0-based).
    pub fn face_down(&self, pile: usize) -> usize {
        self.position.face_down_count(pile)
    }

    /// The face-up cards of `pile` (0-based), bottom first.
    pub fn face_up(&self, pile: usize) -> Vec<Card> {
        self.position.face_up(pile).flatten().collect()
    }

    /// Cards not yet seen in all: face-down plus stock.
    pub fn hidden_count(&self) -> usize {
        self.position.face_down_total() + PILES * self.rows_left()
    }

    pub fn is_won(&self) -> bool {
        self.position.is_won()
    }

    /// The legal moves now, in [`Game::moves`] order.
    pub fn moves(&self) -> Vec<Move> {
        let mut moves = Vec::new();
        self.game.moves(&self.position, &mut moves);
        moves
    }

    /// The move for people: `8♥ 7♥ from pile 3 onto 9♠ on pile 5`.
    pub fn describe(&self, mv: Move) -> String {
        self.game.describe(&self.position, mv)
    }

    /// The key under which this position is the same as another seen in
    /// play ([`Game::key`]).
    pub fn key(&self) -> u128 {
        self.game.key(&self.position)
    }

    /// How many cards `mv` turns up at once (face-down cards uncovered,
    /// the row a deal puts down), in the order [`View::after`] takes them:
    /// pile 1 first. A dealt card that completes a run can uncover one more
    /// card; that one is asked for after these ([`ViewError::NotEnough`]).
    pub fn turns_up(&self, mv: Move) -> Result<usize, IllegalMove> {
        self.game.check(&self.position, mv)?;
        let step = self.game.apply(&self.position, mv);
        Ok(self.game.revealed_places(&step).len())
    }

    /// The view after the player plays `mv` and sees `turned` turn up, in
    /// pile order (pile 1 first; for a deal, the ten dealt cards, then any
    /// card a completed run uncovered). Each card is checked against the
    /// cards still unseen: a card every copy of which is already seen is an
    /// error, and so is a count that does not match what the move turned
    /// up. A completed K..A run is removed and its suit kept.
    pub fn after(&self, mv: Move, turned: &[Card]) -> Result<View, ViewError> {
        self.game.check(&self.position, mv)?;
        let mut step = self.game.apply(&self.position, mv);
        let mut pool = self.unseen();
        let mut used = 0;
        while step.position.is_reveal() {
            let n = step.position.unknown_face_up();
            let needed = used + n;
            if turned.len() < needed {
                return Err(ViewError::NotEnough {
                    needed,
                    given: turned.len(),
                });
            }
            let cards = &turned[used..needed];
            for &card in cards {
                if !self.suits().suits().contains(&card.suit()) {
                    return Err(ViewError::CannotBe {
                        card: card.pretty(),
                        why: format!("this is a {}-suit game", self.suits().count()),
                    });
                }
                match pool.iter().position(|&c| c == card) {
                    Some(at) => {
                        pool.remove(at);
                    }
                    None => {
                        return Err(ViewError::CannotBe {
                            card: card.pretty(),
                            why: "every copy of it is already face up, removed or named before"
                                .into(),
                        });
                    }
                }
            }
            step = self.game.fill_revealed(&step.position, cards)?;
            used = needed;
        }
        if turned.len() > used {
            return Err(ViewError::TooMany {
                needed: used,
                given: turned.len(),
            });
        }
        // The cards of runs removed: those face up before or turned up,
        // less those face up after; 13 of one suit a run.
        let mut gone: Vec<Card> = (0..PILES)
            .flat_map(|p| self.position.face_up(p).flatten())
            .chain(turned.iter().copied())
            .collect();
        for pile in 0..PILES {
            for card in step.position.face_up(pile).flatten() {
                if let Some(at) = gone.iter().position(|&c| c == card) {
                    gone.swap_remove(at);
                }
            }
        }
        let mut removed = self.removed.clone();
        for &suit in self.suits().suits() {
            let n = gone.iter().filter(|c| c.suit() == suit).count();
            removed.extend(std::iter::repeat_n(suit, n / 13));
        }
        Ok(View {
            game: self.game.clone(),
            position: step.position,
            removed,
        })
    }
}

impl fmt::Display for View {
    /// The table as seen: one line per pile (face-down count, face-up
    /// cards), then the stock rows left and the runs removed.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for pile in 0..PILES {
            let up: Vec<String> = self.face_up(pile).iter().map(|c| c.pretty()).collect();
            writeln!(
                f,
                "pile {:>2}: {}{}",
                pile + 1,
                "XX ".repeat(self.face_down(pile)),
                up.join(" ")
            )?;
        }
        write!(
            f,
            "stock: {} row{} left; runs removed: {}",
            self.rows_left(),
            if self.rows_left() == 1 { "" } else { "s" },
            self.removed.len()
        )
    }
}
