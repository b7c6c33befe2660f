//! Hunts for positions where the dead-end test's deal rule
//! (`Reductions::deals_fill`: a card dealt onto a pile the relaxed game
//! emptied must leave it again) proves a loss that the rule before it
//! does not: random positions of a few runs left (two decks' cards, one
//! copy of each card of the runs), one stock row, most cards face down,
//! some piles empty. Prints how many positions were tried, how many each
//! rule proves lost, and the first positions only the new rule proves
//! lost, as deal files.
//!
//! ```text
//! RUNS=2-3 cargo run --release --example deal_rule_hunt -- 2000000
//! ```
use spider_analyzer::cards::{Card, CardSlot, Suit, SuitCount};
use spider_analyzer::deal::{Deal, Pile, Rules, StockRow};
use spider_analyzer::game::Game;
use spider_analyzer::solve::prune::{RoomRule, dead_end_filling};

fn main() {
    let tries: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(100_000);
    // The fewest and most runs left (`RUNS=2-4`; 3 to 8 unless told).
    let (fewest, most) = std::env::var("RUNS")
        .ok()
        .and_then(|v| {
            let (a, b) = v.split_once('-')?;
            Some((a.parse::<usize>().ok()?, b.parse::<usize>().ok()?))
        })
        .unwrap_or((3, 8));
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = |bound: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % bound as u64) as usize
    };
    let (mut tried, mut before, mut after, mut only) = (0u64, 0u64, 0u64, 0u64);
    for _ in 0..tries {
        let runs_left = fewest + next(most - fewest + 1);
        let suits_all = [Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs];
        let mut runs: Vec<Suit> = (0..8).map(|i| suits_all[i % 4]).collect();
        for i in (1..8).rev() {
            runs.swap(i, next(i + 1));
        }
        let removed = runs.split_off(runs_left);
        let mut cards: Vec<Card> = runs
            .iter()
            .flat_map(|&suit| (1..=13).map(move |rank| Card::new(rank, suit)))
            .collect();
        for i in (1..cards.len()).rev() {
            cards.swap(i, next(i + 1));
        }
        let row: Vec<CardSlot> = cards.drain(..10).map(CardSlot::Known).collect();
        let stock: StockRow = row.try_into().unwrap();
        let empty = next(2);
        let mut piles = vec![Pile::default(); 10];
        let used = 10 - empty;
        for (i, card) in cards.into_iter().enumerate() {
            let pile = if i < used { i } else { next(used) };
            piles[pile].face_up.push(card);
        }
        for pile in piles.iter_mut() {
            let up = 1 + usize::from(next(4) == 0);
            while pile.face_up.len() > up {
                let card = pile.face_up.remove(0);
                pile.face_down.push(CardSlot::Known(card));
            }
        }
        let deal = Deal {
            suits: SuitCount::Four,
            rules: if next(2) == 0 {
                Rules::Standard
            } else {
                Rules::Relaxed
            },
            piles,
            stock: vec![stock],
            removed,
            moves_played: 0,
        };
        let Ok(game) = Game::new(&deal) else {
            continue;
        };
        tried += 1;
        let old = dead_end_filling(&game, game.start(), RoomRule::Off, false).is_some();
        let new = dead_end_filling(&game, game.start(), RoomRule::Off, true).is_some();
        before += old as u64;
        after += new as u64;
        if new && !old {
            only += 1;
            if only <= 30 {
                println!(
                    "# only the new deal rule:\n{}",
                    spider_analyzer::deal::yaml::to_string(&deal)
                );
            }
        }
    }
    println!(
        "tried {tried}: lost {before} by the rule before, {after} by the new one, {only} only by the new one"
    );
}
