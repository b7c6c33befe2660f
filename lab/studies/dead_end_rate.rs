//! How often the dead-end test fires: 300 random playouts of each deal
//! file given (80 moves at most, a deal one time in twelve when it may),
//! each stopped at its first dead end. Prints, by stock rows left, the
//! dead ends over the positions met. A way to compare two versions of the
//! relaxation on the same positions:
//!
//! ```text
//! cargo run --release --example dead_end_rate -- benches/ladder/r1-*.yaml
//! ```
//!
//! Beside each count, in brackets, the dead ends of the test with a card
//! dealt onto an emptied pile counted as gone at once (the deal rule
//! before 2026-11-27, `Reductions::deals_fill` off) on the same positions.
use spider_analyzer::deal::load;
use spider_analyzer::game::{Game, Move};
use spider_analyzer::solve::prune::{RoomRule, dead_end, dead_end_filling};

fn main() {
    for path in std::env::args().skip(1) {
        let deal = load(path.as_ref()).unwrap();
        let game = Game::new(&deal).unwrap();
        let mut rng = 12345u64;
        let mut seen = [0u32; 6];
        let mut dead = [0u32; 6];
        let mut dead_before = [0u32; 6];
        let mut moves = Vec::new();
        let t = std::time::Instant::now();
        for _walk in 0..300 {
            let mut pos = game.start().clone();
            for _step in 0..80 {
                let left = game.rows_left(&pos);
                seen[left] += 1;
                dead_before[left] +=
                    dead_end_filling(&game, &pos, RoomRule::MakeWay, false).is_some() as u32;
                if dead_end(&game, &pos).is_some() {
                    dead[left] += 1;
                    break;
                }
                moves.clear();
                game.moves(&pos, &mut moves);
                if moves.is_empty() {
                    break;
                }
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                let shifts: Vec<_> = moves
                    .iter()
                    .filter(|m| **m != Move::Deal)
                    .copied()
                    .collect();
                let mv = if shifts.is_empty()
                    || (moves.contains(&Move::Deal) && rng.is_multiple_of(12))
                {
                    Move::Deal
                } else {
                    shifts[(rng / 16 % shifts.len() as u64) as usize]
                };
                pos = game.apply(&pos, mv).position;
            }
        }
        let cells: Vec<String> = (0..6)
            .filter(|&i| seen[i] > 0)
            .map(|i| format!("rows{i}: {} ({})/{}", dead[i], dead_before[i], seen[i]))
            .collect();
        println!(
            "{path}: {} ({:.2}s)",
            cells.join("  "),
            t.elapsed().as_secs_f64()
        );
    }
}
