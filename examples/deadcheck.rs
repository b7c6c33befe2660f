//! Scratch: verify dead-end claims by plain search.
use spider_analyzer::{
    deal::load,
    game::{Game, Move, Position},
    solve::prune::dead_end,
};
use std::collections::HashSet;
fn main() {
    let path = std::env::args().nth(1).unwrap();
    let stages: usize = std::env::args().nth(2).unwrap().parse().unwrap();
    let cap: usize = std::env::args().nth(3).unwrap().parse().unwrap();
    let deal = load(path.as_ref()).unwrap();
    let game = Game::new(&deal).unwrap();
    // plain BFS of stages 0..stages, collect dealt entries of the next stage
    let mut seen = HashSet::new();
    let mut q = vec![game.start().clone()];
    seen.insert(game.start().clone());
    let mut entries = Vec::new();
    let mut i = 0;
    let mut mv = Vec::new();
    while i < q.len() {
        let p = q[i].clone();
        i += 1;
        mv.clear();
        game.moves(&p, &mut mv);
        for &m in &mv {
            let c = game.apply(&p, m).position;
            if m == Move::Deal && c.rows_dealt() > stages {
                entries.push(c);
                continue;
            }
            if seen.insert(c.clone()) {
                q.push(c);
            }
        }
    }
    let dead = entries
        .iter()
        .filter(|e| dead_end(&game, e).is_some())
        .count();
    println!(
        "stages 0..={stages}: {} positions, {} next-stage entries, {} dead",
        q.len(),
        entries.len(),
        dead
    );
    let e = &entries[0];
    println!(
        "{e}\nreason: {}",
        dead_end(&game, e)
            .map(|d| d.to_string())
            .unwrap_or("-".into())
    );
    // plain BFS of everything reachable from the entry (all later stages): any empty pile or win?
    let mut seen: HashSet<Position> = HashSet::new();
    let mut q = vec![e.clone()];
    seen.insert(e.clone());
    let mut i = 0;
    let (mut empty, mut won, mut fd) = (0, 0, 99);
    while i < q.len() && q.len() < cap {
        let p = q[i].clone();
        i += 1;
        mv.clear();
        game.moves(&p, &mut mv);
        for &m in &mv {
            let c = game.apply(&p, m).position;
            if seen.insert(c.clone()) {
                if (0..10).any(|x| c.is_empty_pile(x)) {
                    empty += 1;
                }
                if c.is_won() {
                    won += 1;
                }
                fd = fd.min(c.face_down_total());
                q.push(c);
            }
        }
    }
    println!(
        "from entry 0: {} positions (exhausted: {}), empty-pile positions {empty}, won {won}, fewest face-down {fd}, rows dealt max {}",
        q.len(),
        i == q.len(),
        q.iter().map(|p| p.rows_dealt()).max().unwrap()
    );
}
