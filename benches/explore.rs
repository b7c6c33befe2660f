//! Benchmarks of the search engine.
//!
//! - `queens/engine/N` against `queens/baseline/N`: the engine's overhead on
//!   a tree search (deduplication off) against a hand-written iterative
//!   bitmask counter. Target: within 2x at n = 14.
//! - `dedup/sliding-RxC`: throughput with exact deduplication on the full
//!   state space of a sliding-tile puzzle (many ways into each state,
//!   cycles everywhere). Positions per second and bytes per stored position
//!   are printed before the measurements.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use spider_analyzer::explore::{Order, Problem, Search, Stop};
use spider_analyzer::puzzles::queens::Queens;

/// The plain bitmask N-queens counter, with an explicit stack.
fn baseline_queens(n: u32) -> u64 {
    let full = (1u32 << n) - 1;
    let mut stack = [(0u32, 0u32, 0u32, 0u32); 32];
    let mut depth = 0;
    let (mut cols, mut left, mut right) = (0u32, 0u32, 0u32);
    let mut free = full;
    let mut count = 0;
    loop {
        if free == 0 {
            if depth == 0 {
                return count;
            }
            depth -= 1;
            (cols, left, right, free) = stack[depth];
            continue;
        }
        let bit = free & free.wrapping_neg();
        free ^= bit;
        if cols | bit == full {
            count += 1;
            continue;
        }
        stack[depth] = (cols, left, right, free);
        depth += 1;
        cols |= bit;
        left = ((left | bit) << 1) & full;
        right = (right | bit) >> 1;
        free = full & !(cols | left | right);
    }
}

fn queens(c: &mut Criterion) {
    let mut group = c.benchmark_group("queens");
    group.sample_size(10);
    for n in 10..=14 {
        let problem = Queens::new(n).unwrap();
        let expected = baseline_queens(n as u32);
        assert_eq!(problem.count().stats.goals, expected);
        group.bench_with_input(BenchmarkId::new("engine", n), &problem, |b, p| {
            b.iter(|| black_box(p.count().stats.goals))
        });
        group.bench_with_input(BenchmarkId::new("baseline", n), &n, |b, &n| {
            b.iter(|| black_box(baseline_queens(black_box(n as u32))))
        });
    }
    group.finish();
}

/// A sliding-tile puzzle on `rows`×`cols` squares; a state packs one tile per
/// 4 bits (0 = the blank) and the blank's square.
struct Sliding {
    rows: u8,
    cols: u8,
}

impl Problem for Sliding {
    type State = (u64, u8);
    type Key = u64;
    type Move = u8;

    fn start(&self) -> (u64, u8) {
        let squares = self.rows * self.cols;
        let tiles = (1..squares).fold(0u64, |acc, t| acc | u64::from(t) << (4 * t));
        (tiles, 0)
    }

    fn key(&self, state: &(u64, u8)) -> u64 {
        state.0
    }

    fn successors(&self, &(tiles, blank): &(u64, u8), out: &mut Vec<(u8, (u64, u8))>) {
        let (r, c) = (blank / self.cols, blank % self.cols);
        let mut slide = |from: u8| {
            let tile = (tiles >> (4 * from)) & 0xF;
            let moved = (tiles & !(0xF << (4 * from))) | tile << (4 * blank);
            out.push((from, (moved, from)));
        };
        if r > 0 {
            slide(blank - self.cols);
        }
        if r + 1 < self.rows {
            slide(blank + self.cols);
        }
        if c > 0 {
            slide(blank - 1);
        }
        if c + 1 < self.cols {
            slide(blank + 1);
        }
    }
}

fn dedup(c: &mut Criterion) {
    let mut group = c.benchmark_group("dedup");
    group.sample_size(10);
    for (rows, cols) in [(3, 3), (2, 5)] {
        let problem = Sliding { rows, cols };
        for order in [Order::DepthFirst, Order::BreadthFirst] {
            let run = || Search::new(&problem).order(order).stop(Stop::Exhaust).run();
            let outcome = run();
            let s = &outcome.stats;
            let entry = std::mem::size_of::<(u64, u32)>();
            println!(
                "sliding {rows}x{cols} {order:?}: {} positions, {} moves, {:.2} M positions/s, \
                 table {:.1} bytes/position (entry {} B + control 1 B, load {:.2}), \
                 engine total {:.1} bytes/position",
                s.positions,
                s.moves,
                s.positions_per_second() / 1e6,
                s.table_bytes as f64 / s.positions as f64,
                entry,
                s.positions as f64 / (s.table_bytes as f64 / (entry + 1) as f64),
                s.memory_bytes as f64 / s.positions as f64,
            );
            group.throughput(Throughput::Elements(s.positions));
            group.bench_function(format!("sliding-{rows}x{cols}/{order:?}"), |b| {
                b.iter(|| black_box(run().stats.positions))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, queens, dedup);
criterion_main!(benches);
