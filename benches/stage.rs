//! Stage-graph exploration throughput: how many distinct Spider positions
//! per second the engine stores with deduplication on, without and with
//! recording the move graph, and how many bytes the deduplication table
//! takes per stored position. Targets: at least 3 million positions per
//! second on one core, at most 32 bytes per stored position.
//!
//! Workloads (each stops at a position limit where the space is larger):
//!
//! - `fresh-1-suit`: stage 0 of `deals/fresh-1-suit.yaml` (38,111 positions);
//! - `deal-1-1suit`: stage 0 of own deal 1, 1 suit (millions of positions;
//!   the first 1,000,000);
//! - `unwon-whole`: the whole game of `deals/unwon-2017.yaml`, deals allowed
//!   (the first 1,000,000 positions).

use std::hint::black_box;
use std::path::Path;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use spider_analyzer::cards::SuitCount;
use spider_analyzer::deal::{Deal, Rules, load, numbered};
use spider_analyzer::explore::{Limits, Order, Search, Stats, Stop};
use spider_analyzer::game::Game;
use spider_analyzer::solve::stage::{Scope, StageProblem};

const LIMIT: u64 = 1_000_000;

fn workloads() -> Vec<(&'static str, Deal, Scope)> {
    let file = |name: &str| load(&Path::new(env!("CARGO_MANIFEST_DIR")).join(name)).unwrap();
    vec![
        (
            "fresh-1-suit",
            file("deals/fresh-1-suit.yaml"),
            Scope::Stage(0),
        ),
        (
            "deal-1-1suit",
            numbered::deal(1, SuitCount::One, Rules::Standard),
            Scope::Stage(0),
        ),
        (
            "unwon-whole",
            file("deals/unwon-2017.yaml"),
            Scope::WholeGame,
        ),
    ]
}

fn limits() -> Limits {
    Limits {
        max_positions: Some(LIMIT),
        ..Limits::default()
    }
}

fn explore(problem: &StageProblem, order: Order) -> Stats {
    Search::new(problem)
        .order(order)
        .stop(Stop::Exhaust)
        .limits(limits())
        .run()
        .stats
}

fn explore_with_graph(problem: &StageProblem) -> (Stats, usize) {
    let (outcome, graph) = Search::new(problem)
        .order(Order::BreadthFirst)
        .stop(Stop::Exhaust)
        .limits(limits())
        .run_with_graph(problem.labeller());
    (outcome.stats, graph.graph().edge_count())
}

fn stage(c: &mut Criterion) {
    let mut group = c.benchmark_group("stage");
    group.sample_size(10);
    for (name, deal, scope) in workloads() {
        let game = Game::new(&deal).unwrap();
        let problem = StageProblem::new(&game, scope);
        // One run outside the measurements for the counts and the memory.
        for order in [Order::DepthFirst, Order::BreadthFirst] {
            let stats = explore(&problem, order);
            eprintln!(
                "{name} {order:?}: {} positions, {} moves, {:.1} M positions/s, \
                 table {:.1} bytes/position, engine {:.1} bytes/position",
                stats.positions,
                stats.moves,
                stats.positions_per_second() / 1e6,
                stats.table_bytes as f64 / stats.positions as f64,
                stats.memory_bytes as f64 / stats.positions as f64,
            );
        }
        let (stats, edges) = explore_with_graph(&problem);
        eprintln!(
            "{name} with graph: {} positions, {edges} edges, {:.1} M positions/s, \
             engine {:.1} bytes/position",
            stats.positions,
            stats.positions_per_second() / 1e6,
            stats.memory_bytes as f64 / stats.positions as f64,
        );
        group.throughput(Throughput::Elements(stats.positions));
        group.bench_with_input(BenchmarkId::new("dfs", name), &problem, |b, p| {
            b.iter(|| black_box(explore(p, Order::DepthFirst).positions))
        });
        group.bench_with_input(BenchmarkId::new("bfs", name), &problem, |b, p| {
            b.iter(|| black_box(explore(p, Order::BreadthFirst).positions))
        });
        group.bench_with_input(BenchmarkId::new("graph", name), &problem, |b, p| {
            b.iter(|| black_box(explore_with_graph(p).1))
        });
    }
    group.finish();
}

criterion_group!(benches, stage);
criterion_main!(benches);
