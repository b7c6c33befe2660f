//! The referee of a blind game: it holds the real deal (every card known),
//! shows the player only a [`View`], plays the player's moves on the real
//! cards (refusing illegal ones) and tells the player the cards each move
//! turned up. The player's code never gets the referee, only views and
//! turned-up cards, so it cannot peek.

use crate::cards::{Card, CardSlot};
use crate::deal::{Deal, PILES, ShapeError};
use crate::game::{Game, IllegalMove, Move, Position};

use super::view::{View, ViewError};

/// The real game and what the player sees of it.
#[derive(Clone, Debug)]
pub struct Referee {
    /// The real game: every card known.
    game: Game,
    position: Position,
    view: View,
    /// The real deal at the start, settled (runs complete in the file
    /// removed), for pages that replay the game.
    start: Deal,
}

/// Why the referee refused a move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RefereeError {
    #[error("{0}")]
    Illegal(#[from] IllegalMove),
    #[error("the player's view disagrees with the real deal: {0}")]
    View(#[from] ViewError),
}

impl Referee {
    /// A referee for `deal`, whose every card must be known.
    pub fn new(deal: &Deal) -> Result<Referee, ViewError> {
        let unknown = deal.unknown_places();
        if !unknown.is_empty() {
            return Err(ShapeError(format!(
                "a blind game needs every card known, this deal has {} XX cards (first at {})",
                unknown.len(),
                unknown[0]
            ))
            .into());
        }
        let first = Game::new(deal)?;
        let start = first
            .deal_at(first.start())
            .expect("a deal with every card known has no reveal");
        let game = Game::new(&start)?;
        let position = game.start().clone();
        let view = View::of(&start)?;
        Ok(Referee {
            game,
            position,
            view,
            start,
        })
    }

    /// What the player sees now.
    pub fn view(&self) -> &View {
        &self.view
    }

    /// The real deal at the start (after the runs lying complete in the
    /// file were removed). Not for the player.
    pub fn start(&self) -> &Deal {
        &self.start
    }

    /// The real game. Not for the player.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The real position now. Not for the player.
    pub fn position(&self) -> &Position {
        &self.position
    }

    pub fn is_won(&self) -> bool {
        self.position.is_won()
    }

    /// Whether the player has a legal move (the view and the real game
    /// have the same ones).
    pub fn has_move(&self) -> bool {
        !self.view.moves().is_empty()
    }

    /// Plays `mv` on the real deal, if it is legal, and returns the cards
    /// it turned up, in the order [`View::after`] takes them: for a deal
    /// the ten cards of the row, pile 1 first; then the face-down cards
    /// uncovered, pile 1 first. The view moves on with them.
    pub fn play(&mut self, mv: Move) -> Result<Vec<Card>, RefereeError> {
        self.game.check(&self.position, mv)?;
        let before = self.position.clone();
        let after = self.game.apply(&before, mv).position;
        let mut turned = Vec::new();
        if mv == Move::Deal {
            let row = self.game.stock()[before.rows_dealt()];
            turned.extend(row.iter().map(|slot| known(*slot)));
        }
        for pile in 0..PILES {
            let (was, now) = (before.face_down_count(pile), after.face_down_count(pile));
            for index in (now..was).rev() {
                turned.push(known(self.game.face_down_cards(pile)[index]));
            }
        }
        self.view = self.view.after(mv, &turned)?;
        self.position = after;
        Ok(turned)
    }
}

fn known(slot: CardSlot) -> Card {
    slot.known()
        .expect("the referee's deal has every card known")
}
