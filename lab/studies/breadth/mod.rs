//! What the breadth-first experiments (`components`, `lost_exits`) share:
//! their arguments `FILE [MAX_POSITIONS] [deal]`, the position they start
//! from, the key that tells positions apart and the positions met.

use std::collections::HashMap;

use spider_analyzer::deal::load;
use spider_analyzer::game::{Game, Move, Position};

/// The deal file's name, its game, the positions to expand at most
/// (2 M by default) and the start: the deal's, or with `deal` the
/// position where every row left is dealt at once.
pub fn from_args() -> (String, Game, usize, Position) {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: FILE [MAX_POSITIONS] [deal]";
    let file = args.get(1).expect(usage).clone();
    let deal = load(file.as_ref()).unwrap();
    let game = Game::new(&deal).unwrap();
    let max: usize = args.get(2).map_or(2_000_000, |s| s.parse().expect(usage));
    let mut start = game.start().clone();
    if args.get(3).is_some_and(|s| s == "deal") {
        while game.rows_left(&start) > 0 {
            start = game.apply(&start, Move::Deal).position;
        }
    }
    (file, game, max, start)
}

/// The key two positions share when they are the same up to symmetry.
pub fn key(game: &Game, position: &Position) -> u128 {
    position.sum_key(game.rows_left(position) == 0)
}

/// The positions a breadth-first search has met, in the order met (the
/// start first), each with its number in that order.
pub struct Met {
    pub positions: Vec<Position>,
    index: HashMap<u128, u32>,
}

impl Met {
    pub fn new(game: &Game, start: &Position) -> Met {
        Met {
            positions: vec![start.clone()],
            index: HashMap::from([(key(game, start), 0)]),
        }
    }

    /// The number of `position`, and whether it was met just now.
    pub fn add(&mut self, game: &Game, position: Position) -> (usize, bool) {
        let k = key(game, &position);
        if let Some(&j) = self.index.get(&k) {
            return (j as usize, false);
        }
        let j = self.positions.len();
        self.index.insert(k, j as u32);
        self.positions.push(position);
        (j, true)
    }
}
