//! The table as a player draws it ([`Board`]).

use std::fmt;

use crate::cards::{Card, Suit};
use crate::deal::PILES;
use crate::text::count;

use super::{Game, Position};

/// The table as a player draws it: the ten piles side by side, each
/// pile's face-down cards as `XX` on top (one row each) and its face-up
/// cards below them, the top card last; an empty pile is `--`; then the
/// stock rows left and the runs removed.
///
/// ```text
///   1    2    3    4    5    6    7    8    9   10
///  XX   XX   XX   XX   XX   XX   XX   XX   XX   XX
///  XX   XX   XX   XX   XX   XX   XX   XX   XX   XX
///  XX   XX   XX   XX   XX   XX   XX   XX   XX   XX
///  XX   XX   XX   XX   XX   XX   XX   XX   5♥   XX
///  XX   XX   XX   XX   8♥   3♥   A♥   K♠        4♥
///  7♥  10♠   4♥   K♠        2♥
/// stock: 5 rows left (50 cards); runs removed: 0 of 8
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Board {
    /// Pile 1 first: the face-down count, then the face-up cards bottom
    /// first (`None`: a face-up card never seen, drawn `??`).
    pub piles: Vec<(usize, Vec<Option<Card>>)>,
    pub rows_left: usize,
    pub removed: Vec<Suit>,
}

impl Board {
    /// `position` of `game` as its player sees it; `removed`: the suits of
    /// the runs removed (those of the deal file, then those of the moves).
    pub fn of(game: &Game, position: &Position, removed: &[Suit]) -> Board {
        Board {
            piles: (0..PILES)
                .map(|p| (position.face_down_count(p), position.face_up(p).collect()))
                .collect(),
            rows_left: game.rows_left(position),
            removed: removed.to_vec(),
        }
    }
}

/// A cell of the board: three characters, right-aligned.
fn cell(text: &str) -> String {
    format!("{text:>3}")
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let header: Vec<String> = (1..=self.piles.len())
            .map(|p| cell(&p.to_string()))
            .collect();
        writeln!(f, "{}", header.join("  "))?;
        let height = self
            .piles
            .iter()
            .map(|(down, up)| (down + up.len()).max(1))
            .max()
            .unwrap_or(0);
        for row in 0..height {
            let cells: Vec<String> = self
                .piles
                .iter()
                .map(|(down, up)| {
                    if row < *down {
                        cell("XX")
                    } else if let Some(card) = up.get(row - down) {
                        cell(&card.map_or("??".to_string(), Card::pretty))
                    } else if row == 0 {
                        cell("--")
                    } else {
                        cell("")
                    }
                })
                .collect();
            writeln!(f, "{}", cells.join("  ").trim_end())?;
        }
        let rows = self.rows_left;
        let stock = if rows == 0 {
            "empty".to_string()
        } else {
            format!(
                "{} left ({} cards)",
                count(rows as u64, "row"),
                rows * self.piles.len()
            )
        };
        write!(
            f,
            "stock: {stock}; runs removed: {} of 8",
            self.removed.len()
        )?;
        if !self.removed.is_empty() {
            let suits: Vec<String> = self
                .removed
                .iter()
                .map(|s| s.symbol().to_string())
                .collect();
            write!(f, " ({})", suits.join(" "))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_board_as_a_player_draws_it() {
        let card = |t: &str| Some(t.parse::<Card>().unwrap());
        let mut piles = vec![(0, vec![]); 10];
        piles[0] = (2, vec![card("7h")]);
        piles[1] = (0, vec![card("10s"), card("9s"), None]);
        piles[2] = (1, vec![card("KD")]);
        let board = Board {
            piles,
            rows_left: 1,
            removed: vec![Suit::Spades, Suit::Hearts],
        };
        assert_eq!(
            board.to_string(),
            "  1    2    3    4    5    6    7    8    9   10\n \
              XX  10♠   XX   --   --   --   --   --   --   --\n \
              XX   9♠   K♦\n \
              7♥   ??\n\
             stock: 1 row left (10 cards); runs removed: 2 of 8 (♠ ♥)"
        );
    }
}
