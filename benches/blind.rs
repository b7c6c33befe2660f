//! The blind player: a few deals per suit count, each played by every
//! player at a fixed seed against the real cards, one game at a time on
//! one thread. Prints each game (won or lost, moves, runs removed, CPU
//! seconds) and per player and suit count the share won with its 95 %
//! interval and the CPU per game. A few deals tell two players apart only
//! when they differ a lot; the studies of docs/unknown-cards.md play 100.
//!
//! `cargo bench --bench blind` (own deals 1..4 at 1 and 2 suits, PySol
//! games 1..4 at 4 suits; the default player, lookahead, beside hop; about ten minutes);
//! `BLIND_DEALS=N` deals per suit count, `BLIND_FIRST=N` the first deal
//! number, `BLIND_SUITS=1,2` some suit counts, `BLIND_PLAYERS=hop,search`
//! some players, `BLIND_SAMPLES=N` samples per decision (default: each
//! player's, as `spider play`: 48 playouts for search, 3 for the others).

use std::sync::atomic::AtomicBool;

use spider_analyzer::cards::SuitCount;
use spider_analyzer::deal::{Deal, Rules, numbered, pysol};
use spider_analyzer::stats::Interval;
use spider_analyzer::unknown::blind::{HiddenSettings, Player, play_hidden};

fn env<T: std::str::FromStr>(name: &str) -> Option<T> {
    std::env::var(name).ok().and_then(|v| v.trim().parse().ok())
}

fn env_list(name: &str) -> Option<Vec<String>> {
    std::env::var(name)
        .ok()
        .map(|v| v.split(',').map(|s| s.trim().to_string()).collect())
}

/// The process's CPU time so far (user and system, all threads), in
/// seconds, from `/proc/self/stat` (clock ticks of 10 ms).
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let rest = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<f64>().ok());
    ticks(11)
        .zip(ticks(12))
        .map_or(0.0, |(u, s)| (u + s) / 100.0)
}

fn deal(suits: usize, number: u64) -> Deal {
    match suits {
        4 => pysol::deal(number as u128, Rules::Standard).expect("a PySol game number"),
        1 => numbered::deal(number, SuitCount::One, Rules::Standard),
        _ => numbered::deal(number, SuitCount::Two, Rules::Standard),
    }
}

fn main() {
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let deals: u64 = env("BLIND_DEALS").unwrap_or(4);
    let first: u64 = env("BLIND_FIRST").unwrap_or(1);
    let samples: Option<usize> = env("BLIND_SAMPLES");
    let suits: Vec<usize> = env_list("BLIND_SUITS")
        .map(|l| l.iter().filter_map(|s| s.parse().ok()).collect())
        .unwrap_or_else(|| vec![1, 2, 4]);
    let players: Vec<Player> = env_list("BLIND_PLAYERS")
        .map(|l| l.iter().filter_map(|s| Player::named(s)).collect())
        .unwrap_or_else(|| vec![Player::Hop, Player::Lookahead]);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a thread pool");
    let cancel = AtomicBool::new(false);
    println!(
        "blind player: deals {first}..{} per suit count, {} samples, seed 1, one thread",
        first + deals - 1,
        samples.map_or("each player's".to_string(), |n| n.to_string())
    );
    println!("suits  player   deal  won    moves  runs  cpu s");
    let mut summary = Vec::new();
    for &suit in &suits {
        for &player in &players {
            let (mut won, mut cpu) = (0usize, 0.0);
            for number in first..first + deals {
                let the_deal = deal(suit, number);
                // The default budget of a solve at this suit count.
                let settings = HiddenSettings {
                    player,
                    samples: samples.unwrap_or(player.default_samples()),
                    seed: 1 ^ number,
                    ..HiddenSettings::for_suits(the_deal.suits)
                };
                let before = cpu_seconds();
                let game = pool
                    .install(|| play_hidden(&the_deal, &settings, &cancel))
                    .expect("a game played");
                let spent = cpu_seconds() - before;
                won += usize::from(game.won);
                cpu += spent;
                println!(
                    "{suit:>5}  {:<7}  {number:>4}  {:<5}  {:>5}  {:>4}  {spent:>5.1}",
                    player.name(),
                    if game.won { "won" } else { "lost" },
                    game.moves,
                    game.runs_removed,
                );
            }
            summary.push((suit, player, won, cpu));
        }
    }
    println!();
    println!("| suits | player | won | share (95 % CI) | CPU per game |");
    println!("|---|---|---|---|---|");
    for (suit, player, won, cpu) in summary {
        let share = Interval::of(won, deals as usize).map_or("-".into(), |i| i.to_string());
        println!(
            "| {suit} | {} | {won} of {deals} | {share} | {:.1} s |",
            player.name(),
            cpu / deals as f64
        );
    }
}
