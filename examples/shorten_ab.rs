//! A/B of line shortening variants on cached first wins (dev tool).
//! shorten_ab SUITS FIRST LAST SECONDS VARIANTS...
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use spider_analyzer::cards::SuitCount;
use spider_analyzer::deal::{Rules, numbered, pysol};
use spider_analyzer::game::{Game, Move, compact_line, parse_moves, replay};
use spider_analyzer::solve::{self, Limits};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let suits: u32 = args[1].parse().unwrap();
    let first: u64 = args[2].parse().unwrap();
    let last: u64 = args[3].parse().unwrap();
    let seconds: f64 = args[4].parse().unwrap();
    let variants: Vec<usize> = args[5..].iter().map(|v| v.parse().unwrap()).collect();
    let mut lens: Vec<Vec<usize>> = vec![Vec::new(); variants.len()];
    let mut firsts = Vec::new();
    for n in first..=last {
        let deal = match suits {
            4 => pysol::deal(n as u128, Rules::Standard).unwrap(),
            2 => numbered::deal(n, SuitCount::Two, Rules::Standard),
            _ => numbered::deal(n, SuitCount::One, Rules::Standard),
        };
        let game = Game::new(&deal).unwrap();
        let cache = format!("/tmp/i17/first-{suits}-{n}.txt");
        let line: Vec<Move> = match std::fs::read_to_string(&cache) {
            Ok(text) => replay(&game, &parse_moves(&text).unwrap()).unwrap().0,
            Err(_) => {
                let limits = Limits {
                    time_limit: Some(Duration::from_secs(10)),
                    shorten_time: Duration::ZERO,
                    ..Limits::default()
                };
                let a = solve::analyze(&deal, &limits, &AtomicBool::new(false)).unwrap();
                let Some(line) = a.line else {
                    eprintln!("{n}: no win");
                    continue;
                };
                std::fs::write(&cache, compact_line(&line)).unwrap();
                line
            }
        };
        firsts.push(line.len());
        let mut row = format!("{n:4} first {:4}", line.len());
        for (i, &v) in variants.iter().enumerate() {
            solve::IMPROVE_VARIANT.store(v, Ordering::Relaxed);
            let t = Instant::now();
            let better = solve::shorter_winning_line(
                &game,
                &line,
                Instant::now() + Duration::from_secs_f64(seconds),
                &AtomicBool::new(false),
            );
            solve::verify(&game, &better).unwrap();
            assert!(better.len() <= line.len());
            row += &format!("  v{v}:{:4} ({:.1}s)", better.len(), t.elapsed().as_secs_f64());
            lens[i].push(better.len());
        }
        println!("{row}");
    }
    let median = |v: &mut Vec<usize>| {
        v.sort();
        let n = v.len();
        if n % 2 == 1 { v[n / 2] as f64 } else { (v[n / 2 - 1] + v[n / 2]) as f64 / 2.0 }
    };
    let mut row = format!("median first {}", median(&mut firsts));
    for (i, &v) in variants.iter().enumerate() {
        let sum: usize = lens[i].iter().sum();
        row += &format!("  v{v}: median {} sum {sum}", median(&mut lens[i]));
    }
    println!("{row}");
}
