//! An independent check of a proof by dead ends, with as little of the
//! solver as possible: a plain breadth-first search over whole positions
//! (every legal move, exact positions, no fingerprints, no symmetry, no
//! skipped moves) of stages 0 to N, then the dead-end test on every
//! position one deal later. When every one of them is dead, no line of the
//! deal gets past stage N, so the deal is lost. Optionally, a plain search
//! from the first entry checks what the dead-end test claims of it: that no
//! pile is ever emptied, whatever is played (up to a cap).
//!
//! ```text
//! spider deal --pysol 14934 -o 14934.yaml
//! cargo run --release --example verify_dead_entries -- 14934.yaml 2 1000000
//! ```

use std::collections::HashSet;

use spider_analyzer::deal::load;
use spider_analyzer::game::{Game, Move, Position};
use spider_analyzer::solve::prune::dead_end;

fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(path), Some(last)) = (args.next(), args.next()) else {
        eprintln!("usage: verify_dead_entries FILE LAST_STAGE [CAP]");
        std::process::exit(2);
    };
    let last: usize = last.parse().expect("LAST_STAGE is a number");
    let cap: usize = args
        .next()
        .map_or(0, |c| c.parse().expect("CAP is a number"));
    let deal = load(path.as_ref()).expect("a deal file");
    let game = Game::new(&deal).expect("a valid deal");

    let mut seen = HashSet::new();
    seen.insert(game.start().clone());
    let mut queue = vec![game.start().clone()];
    let mut entries = HashSet::new();
    let mut moves = Vec::new();
    let mut next = 0;
    let mut won = false;
    while next < queue.len() {
        let position = queue[next].clone();
        next += 1;
        moves.clear();
        game.moves(&position, &mut moves);
        for &mv in &moves {
            let child = game.apply(&position, mv).position;
            won |= child.is_won();
            if mv == Move::Deal && child.rows_dealt() > last {
                entries.insert(child);
            } else if seen.insert(child.clone()) {
                queue.push(child);
            }
        }
    }
    let dead = entries
        .iter()
        .filter(|e| dead_end(&game, e).is_some())
        .count();
    println!(
        "stages 0 to {last}: {} positions, won: {won}; stage {} entries: {}, dead ends: {dead}",
        queue.len(),
        last + 1,
        entries.len()
    );
    if !won && dead == entries.len() {
        println!("lost: no line gets past stage {last} alive");
    }
    let Some(entry) = entries.iter().next().filter(|_| cap > 0) else {
        return;
    };
    println!(
        "a stage {} entry:\n{entry}\n{}",
        last + 1,
        dead_end(&game, entry).map_or("not a dead end".into(), |d| d.to_string())
    );
    let mut seen: HashSet<Position> = HashSet::new();
    seen.insert(entry.clone());
    let mut queue = vec![entry.clone()];
    let (mut next, mut emptied, mut won) = (0, 0, 0);
    while next < queue.len() && queue.len() < cap {
        let position = queue[next].clone();
        next += 1;
        moves.clear();
        game.moves(&position, &mut moves);
        for &mv in &moves {
            let child = game.apply(&position, mv).position;
            if seen.insert(child.clone()) {
                emptied += (0..10).any(|pile| child.is_empty_pile(pile)) as usize;
                won += child.is_won() as usize;
                queue.push(child);
            }
        }
    }
    println!(
        "from it: {} positions ({}), {emptied} with an empty pile, {won} won",
        queue.len(),
        if next == queue.len() {
            "all of them"
        } else {
            "cut at the cap"
        }
    );
}
