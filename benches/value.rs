//! The lookahead's value of a position: `lookahead::features` (its
//! sixteen counts) and `lookahead::value`, which the lookahead computes for
//! every position it reaches, so their cost is much of a blind game's CPU.
//! The positions are those of two blind games as their player saw them
//! (own 2-suit deal 1 and PySol game 1, the lookahead player at 5,000
//! positions, seed 1), so the piles are as long and as mixed as in play.
//!
//! `cargo bench --bench value` prints the positions and the time per
//! position of each function.

use std::hint::black_box;
use std::sync::atomic::AtomicBool;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use spider_analyzer::cards::SuitCount;
use spider_analyzer::deal::{Deal, Rules, numbered, pysol};
use spider_analyzer::game::Position;
use spider_analyzer::unknown::blind::{play_hidden, positions_seen};
use spider_analyzer::unknown::lookahead::{features, value};
use spider_analyzer::unknown::policy::{HiddenSettings, Player, default_late_lookahead};

/// Every position of the blind game of `deal`, as the player saw it.
fn seen_positions(deal: &Deal) -> Vec<Position> {
    let settings = HiddenSettings {
        player: Player::Lookahead,
        lookahead: 5000,
        late_lookahead: default_late_lookahead(deal.suits, 5000),
        ..HiddenSettings::for_suits(deal.suits)
    }
    .for_deal(1);
    let game = play_hidden(deal, &settings, &AtomicBool::new(false)).unwrap();
    positions_seen(deal, &game.log).unwrap()
}

fn lookahead_value(c: &mut Criterion) {
    let mut group = c.benchmark_group("value");
    for (name, deal) in [
        (
            "2-suit-1",
            numbered::deal(1, SuitCount::Two, Rules::Standard),
        ),
        ("pysol-1", pysol::deal(1, Rules::Standard).unwrap()),
    ] {
        let positions = seen_positions(&deal);
        println!("{name}: {} positions", positions.len());
        group.throughput(Throughput::Elements(positions.len() as u64));
        group.bench_function(format!("features/{name}"), |b| {
            b.iter(|| {
                positions
                    .iter()
                    .map(|p| features(black_box(p))[1])
                    .sum::<i32>()
            })
        });
        group.bench_function(format!("value/{name}"), |b| {
            b.iter(|| {
                positions
                    .iter()
                    .map(|p| value(black_box(p), deal.suits))
                    .sum::<i32>()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, lookahead_value);
criterion_main!(benches);
