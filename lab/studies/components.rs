//! Experiment: how the positions of a deal's first layers fall into
//! classes of mutually reachable positions, and how many of those classes
//! the dead-end test touches.
//!
//! ```text
//! cargo run --release --example components -- FILE [MAX_POSITIONS] [deal]
//! ```
use std::collections::HashMap;

mod breadth;

use spider_analyzer::game::{Move, Position};
use spider_analyzer::solve::prune::dead_end;
use spider_analyzer::solve::stage::layer_of;

fn find(parent: &mut [u32], mut i: u32) -> u32 {
    while parent[i as usize] != i {
        let p = parent[i as usize];
        parent[i as usize] = parent[p as usize];
        i = p;
    }
    i
}

fn main() {
    let (file, game, max, start) = breadth::from_args();
    let key = |p: &Position| breadth::key(&game, p);
    let mut met = breadth::Met::new(&game, &start);
    let mut parent: Vec<u32> = vec![0];
    let mut dead: Vec<bool> = Vec::new();
    let mut moves = Vec::new();
    let mut next = 0usize;
    let t = std::time::Instant::now();
    while next < met.positions.len() && next < max {
        let pos = met.positions[next].clone();
        dead.push(dead_end(&game, &pos).is_some());
        moves.clear();
        game.moves(&pos, &mut moves);
        for &mv in &moves {
            let step = game.apply(&pos, mv);
            if !step.reveals.is_empty() {
                continue;
            }
            let q = step.position;
            let reversible = match mv {
                Move::Shift { from, to, count } if layer_of(&q) == layer_of(&pos) => {
                    let back = Move::Shift {
                        from: to,
                        to: from,
                        count,
                    };
                    game.check(&q, back).is_ok() && key(&game.apply(&q, back).position) == key(&pos)
                }
                _ => false,
            };
            let (j, new) = met.add(&game, q);
            let j = j as u32;
            if new {
                parent.push(j);
            }
            if reversible {
                let (a, b) = (find(&mut parent, next as u32), find(&mut parent, j));
                if a != b {
                    parent[a as usize] = b;
                }
            }
        }
        next += 1;
    }
    let expanded = next;
    // Classes among the expanded positions.
    let mut classes: HashMap<u32, (u64, u64, u64)> = HashMap::new(); // size, dead hits, layer
    for (i, &d) in dead.iter().enumerate() {
        let r = find(&mut parent, i as u32);
        let e = classes
            .entry(r)
            .or_insert((0, 0, layer_of(&met.positions[i])));
        e.0 += 1;
        e.1 += d as u64;
    }
    let dead_positions: u64 = dead.iter().filter(|&&d| d).count() as u64;
    let in_dead_classes: u64 = classes.values().filter(|c| c.1 > 0).map(|c| c.0).sum();
    let dead_classes = classes.values().filter(|c| c.1 > 0).count();
    println!(
        "{}: {expanded} positions expanded ({} met) in {:.1}s; {dead_positions} dead ends; {} classes, {dead_classes} with a dead end, holding {in_dead_classes} positions ({:.1} %)",
        file,
        met.positions.len(),
        t.elapsed().as_secs_f64(),
        classes.len(),
        100.0 * in_dead_classes as f64 / expanded as f64
    );
    let mut big: Vec<_> = classes.values().copied().collect();
    big.sort_by_key(|c| std::cmp::Reverse(c.0));
    for (size, hits, layer) in big.iter().take(8) {
        println!(
            "  class of {size} positions, {hits} dead ends, layer stage {} removed {} down {}",
            layer >> 16,
            (layer >> 8) & 255,
            255 - (layer & 255)
        );
    }
}
