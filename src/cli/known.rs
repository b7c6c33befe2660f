//! The cards a deal file knows where a player cannot see them, kept
//! beside the live game ([`super::companion`]): the blind player never
//! reads them, the companion fills them in as they turn up and writes
//! them back into a saved file.

use spider_analyzer::cards::{Card, CardSlot};
use spider_analyzer::deal::{Deal, PILES, Place, StockRow};
use spider_analyzer::unknown::view::View;

/// The cards the file knows in the places a player cannot see: each
/// pile's face-down cards (bottom first, as in the file) and the stock
/// rows (the file's first row first). Places are the game's own, which
/// keeps the file's numbering, so this never changes during play.
pub(super) struct Known {
    face_down: Vec<Vec<Option<Card>>>,
    pub(super) stock: Vec<[Option<Card>; PILES]>,
}

impl Known {
    pub(super) fn of(deal: &Deal) -> Known {
        Known {
            face_down: deal
                .piles
                .iter()
                .map(|p| p.face_down.iter().map(|s| s.known()).collect())
                .collect(),
            stock: deal
                .stock
                .iter()
                .map(|row| row.map(|s| s.known()))
                .collect(),
        }
    }

    /// The card at a place the game turned up, if the file knows it.
    pub(super) fn at(&self, place: Place) -> Option<Card> {
        match place {
            Place::FaceDown { pile, index } => self.face_down[pile - 1][index - 1],
            Place::Stock { row, pile } => self.stock[row - 1][pile - 1],
            _ => None,
        }
    }

    /// The cards the file knows that are still out of sight in `view`.
    pub(super) fn hidden(&self, view: &View) -> Vec<Card> {
        let first_row = self.stock.len() - view.rows_left();
        (0..PILES)
            .flat_map(|p| self.face_down[p][..view.face_down(p)].iter().flatten())
            .chain(self.stock[first_row..].iter().flatten().flatten())
            .copied()
            .collect()
    }

    /// `view` as a deal file, with the cards the file knows in their
    /// places and `XX` for the others.
    pub(super) fn deal(&self, view: &View) -> Deal {
        let mut deal = view.deal();
        for (p, pile) in deal.piles.iter_mut().enumerate() {
            for (i, slot) in pile.face_down.iter_mut().enumerate() {
                if let Some(card) = self.face_down[p][i] {
                    *slot = CardSlot::Known(card);
                }
            }
        }
        let first_row = self.stock.len() - view.rows_left();
        for (row, known) in deal.stock.iter_mut().zip(&self.stock[first_row..]) {
            let filled: StockRow =
                std::array::from_fn(|i| known[i].map_or(CardSlot::Unknown, CardSlot::Known));
            *row = filled;
        }
        deal
    }
}
