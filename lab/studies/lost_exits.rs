//! Experiment: how many live positions of a search are one move past a
//! dead end, so lost by "every position reachable from a lost one is
//! lost", and would be skipped if the dead ends' successors were marked.
//!
//! ```text
//! cargo run --release --example lost_exits -- FILE [MAX_POSITIONS] [deal]
//! ```
//!
//! With `deal`, the search starts where every row left is dealt at once,
//! so that the room test runs too.
mod breadth;

use spider_analyzer::solve::prune::dead_end;

fn main() {
    let (file, game, max, start) = breadth::from_args();
    // Per position met: is it one move past a dead end, and was it so before it was expanded?
    let mut met = breadth::Met::new(&game, &start);
    let mut marked: Vec<bool> = vec![false];
    let mut marked_first: Vec<bool> = vec![false];
    let mut dead_count = 0u64;
    let mut live = 0u64;
    let mut moves = Vec::new();
    let mut next = 0usize;
    let t = std::time::Instant::now();
    while next < met.positions.len() && next < max {
        let pos = met.positions[next].clone();
        let dead = dead_end(&game, &pos).is_some();
        if dead {
            dead_count += 1;
        } else {
            live += 1;
            if marked[next] {
                marked_first[next] = true;
            }
        }
        moves.clear();
        game.moves(&pos, &mut moves);
        for &mv in &moves {
            let (j, new) = met.add(&game, game.apply(&pos, mv).position);
            if new {
                marked.push(false);
                marked_first.push(false);
            }
            if dead {
                marked[j] = true;
            }
        }
        next += 1;
    }
    // Live positions one move past a dead end (whenever the mark came).
    let mut live_marked = 0u64;
    let mut live_marked_first = 0u64;
    for i in 0..next {
        if marked[i] && dead_end(&game, &met.positions[i]).is_none() {
            live_marked += 1;
            live_marked_first += marked_first[i] as u64;
        }
    }
    println!(
        "{}: {next} expanded ({} met) in {:.1}s; {dead_count} dead ends, {live} live; {live_marked} live one move past a dead end ({:.1} % of live), {live_marked_first} of them marked before they were expanded ({:.1} %)",
        file,
        met.positions.len(),
        t.elapsed().as_secs_f64(),
        100.0 * live_marked as f64 / live.max(1) as f64,
        100.0 * live_marked_first as f64 / live.max(1) as f64,
    );
}
