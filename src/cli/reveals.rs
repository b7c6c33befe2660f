//! What `spider analyze` says of the `XX` cards a winning line turns up:
//! for each pile's face-down cards, and for the stock, how many of its
//! unknown cards the line turns up, and the line to the deepest.

use spider_analyzer::deal::{Deal, Place};
use spider_analyzer::solve::Analysis;

/// The reveals of one pile's face-down `XX` cards, or of the stock's.
pub(super) struct RevealGroup {
    /// `Some(pile)` for a pile's face-down cards, `None` for the stock.
    pile: Option<usize>,
    unknown: usize,
    turned_up: usize,
    /// The rows of the stock with an `XX` card turned up.
    rows: Vec<usize>,
    /// The line to the deepest face-down card (or the last stock row)
    /// turned up.
    deepest_moves: Option<usize>,
}

impl std::fmt::Display for RevealGroup {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let moves = |n: usize| {
            if n == 1 {
                "1 move".to_string()
            } else {
                format!("{n} moves")
            }
        };
        match self.pile {
            Some(pile) => {
                write!(f, "pile {pile}: ")?;
                match (self.turned_up, self.deepest_moves) {
                    (0, _) | (_, None) => write!(
                        f,
                        "none of {} face-down XX cards turned up by the search",
                        self.unknown
                    ),
                    (1, Some(n)) => write!(
                        f,
                        "1 of {} face-down XX cards can be turned up, by a line of {}",
                        self.unknown,
                        moves(n)
                    ),
                    (k, Some(n)) => write!(
                        f,
                        "{k} of {} face-down XX cards can be turned up, the deepest by a line of {}",
                        self.unknown,
                        moves(n)
                    ),
                }
            }
            None => {
                write!(f, "stock: ")?;
                match (self.rows.as_slice(), self.deepest_moves) {
                    ([], _) | (_, None) => write!(
                        f,
                        "none of {} XX cards turned up by the search",
                        self.unknown
                    ),
                    ([row], Some(n)) => write!(
                        f,
                        "{} of {} XX cards can be turned up (row {row}, by a line of {})",
                        self.turned_up,
                        self.unknown,
                        moves(n)
                    ),
                    (rows, Some(n)) => write!(
                        f,
                        "{} of {} XX cards can be turned up (rows {}; row {} by a line of {})",
                        self.turned_up,
                        self.unknown,
                        rows.iter()
                            .map(ToString::to_string)
                            .collect::<Vec<_>>()
                            .join(", "),
                        rows[rows.len() - 1],
                        moves(n)
                    ),
                }
            }
        }
    }
}

/// The reveals grouped per pile, then the stock: one line each.
pub(super) fn reveal_groups(deal: &Deal, analysis: &Analysis) -> Vec<RevealGroup> {
    let moves_to = |place: Place| {
        analysis
            .reveals
            .iter()
            .find(|(p, _)| *p == place)
            .map(|&(_, n)| n)
    };
    let places = deal.unknown_places();
    let mut groups = Vec::new();
    for pile in 1..=deal.piles.len() {
        let mine: Vec<(usize, Option<usize>)> = places
            .iter()
            .filter_map(|&place| match place {
                Place::FaceDown { pile: p, index } if p == pile => Some((index, moves_to(place))),
                _ => None,
            })
            .collect();
        if mine.is_empty() {
            continue;
        }
        let turned: Vec<_> = mine.iter().filter(|(_, m)| m.is_some()).collect();
        groups.push(RevealGroup {
            pile: Some(pile),
            unknown: mine.len(),
            turned_up: turned.len(),
            rows: Vec::new(),
            // The deepest is the lowest index (counted from the bottom).
            deepest_moves: turned
                .iter()
                .min_by_key(|(index, _)| *index)
                .and_then(|(_, m)| *m),
        });
    }
    let stock: Vec<(usize, Option<usize>)> = places
        .iter()
        .filter_map(|&place| match place {
            Place::Stock { row, .. } => Some((row, moves_to(place))),
            _ => None,
        })
        .collect();
    if !stock.is_empty() {
        let mut rows: Vec<usize> = stock
            .iter()
            .filter(|(_, m)| m.is_some())
            .map(|&(r, _)| r)
            .collect();
        rows.dedup();
        let last = rows.last().copied();
        groups.push(RevealGroup {
            pile: None,
            unknown: stock.len(),
            turned_up: stock.iter().filter(|(_, m)| m.is_some()).count(),
            deepest_moves: stock
                .iter()
                .filter(|&&(r, _)| Some(r) == last)
                .filter_map(|&(_, m)| m)
                .min(),
            rows,
        });
    }
    groups
}

/// Every `XX` slot with the line that turns it up (`null`: the search did
/// not).
pub(super) fn reveal_groups_json(deal: &Deal, analysis: &Analysis) -> serde_json::Value {
    deal.unknown_places()
        .into_iter()
        .map(|place| {
            serde_json::json!({
                "place": place,
                "moves": analysis.reveals.iter().find(|(p, _)| *p == place).map(|&(_, n)| n),
            })
        })
        .collect()
}
