//! `spider batch --hidden`: each numbered deal played from the start by a
//! player who cannot see face-down or stock cards (moves chosen by the
//! hint, `spider_analyzer::unknown::blind`), beside the verdict with every
//! card known. A study, not a proof: the summary gives both shares with
//! their 95 % Wilson intervals and the settings that produced them.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::sync::Mutex;
use std::sync::atomic::Ordering;
use std::time::Instant;

use anyhow::Context;
use rayon::prelude::*;
use spider_analyzer::batch::{BatchConfig, numbered_deal};
use spider_analyzer::deal::numbered::SplitMix64;
use spider_analyzer::solve::{Verdict, analyze};
use spider_analyzer::stats::Interval;
use spider_analyzer::unknown::blind::{BlindGame, HiddenSettings, play_hidden};

/// One deal of the study.
#[derive(Clone, Debug, serde::Serialize)]
struct Played {
    number: u128,
    /// The verdict with every card known.
    known: Verdict,
    known_seconds: f64,
    hidden: BlindGame,
}

/// Runs the study on the deals of `config`; `seed` seeds every game's
/// samples (mixed with the deal's number).
pub fn run(
    config: &BatchConfig,
    settings: &HiddenSettings,
    jobs: Option<usize>,
    json: bool,
) -> anyhow::Result<ExitCode> {
    config.validate()?;
    let cancel = super::cancel_on_ctrl_c();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.unwrap_or(0))
        .build()
        .context("cannot start the worker threads")?;
    let show = std::io::stderr().is_terminal();
    let played = Mutex::new(Vec::new());
    let start = Instant::now();
    let result: anyhow::Result<()> = pool.install(|| {
        (0..config.len()).into_par_iter().try_for_each(|i| {
            if cancel.load(Ordering::Relaxed) {
                return Ok(());
            }
            let number = config.shard.number(config.range, i);
            let deal = numbered_deal(config.source, number, config.suits, config.rules)?;
            let t = Instant::now();
            let known = analyze(&deal, &config.limits, &cancel)
                .with_context(|| format!("deal {number}"))?;
            let known_seconds = t.elapsed().as_secs_f64();
            let mut mine = settings.clone();
            mine.seed = SplitMix64::new(settings.seed ^ number as u64).next_u64();
            let hidden =
                play_hidden(&deal, &mine, &cancel).with_context(|| format!("deal {number}"))?;
            if cancel.load(Ordering::Relaxed) {
                return Ok(());
            }
            if show {
                eprintln!(
                    "deal {number}: played blind {} after {} moves ({} decisions, {:.1} s, {} runs removed); with the cards known {}",
                    if hidden.won { "won" } else { "lost" },
                    hidden.moves,
                    hidden.decisions,
                    hidden.seconds,
                    hidden.runs_removed,
                    known.verdict
                );
            }
            played
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .push(Played {
                    number,
                    known: known.verdict,
                    known_seconds,
                    hidden,
                });
            Ok(())
        })
    });
    result?;
    let wall = start.elapsed().as_secs_f64();
    let mut played = played.into_inner().unwrap_or_else(|p| p.into_inner());
    played.sort_by_key(|p| p.number);

    let n = played.len();
    let won = played.iter().filter(|p| p.hidden.won).count();
    let winnable = played
        .iter()
        .filter(|p| p.known == Verdict::Winnable)
        .count();
    let undecided = played
        .iter()
        .filter(|p| p.known == Verdict::Undecided)
        .count();
    let hidden_seconds: f64 = played.iter().map(|p| p.hidden.seconds).sum();
    let known_seconds: f64 = played.iter().map(|p| p.known_seconds).sum();
    let mut out = std::io::stdout().lock();
    if json {
        let json = serde_json::json!({
            "source": config.source,
            "range": config.range.to_string(),
            "suits": config.suits.count(),
            "rules": config.rules.to_string(),
            "settings": {
                "samples": settings.samples,
                "max_positions": settings.limits.max_positions,
                "max_moves": settings.max_moves,
                "seed": settings.seed,
            },
            "deals": n,
            "won_blind": won,
            "won_blind_share": Interval::of(won, n),
            "winnable_known": winnable,
            "winnable_known_share": Interval::of(winnable, n),
            "known_undecided": undecided,
            "blind_seconds": hidden_seconds,
            "known_seconds": known_seconds,
            "wall_seconds": wall,
            "games": played,
        });
        serde_json::to_writer_pretty(&mut out, &json)?;
        writeln!(out)?;
    } else {
        writeln!(
            out,
            "deals                {n} ({} {}, {} suits, {} rules)",
            config.source,
            config.range,
            config.suits.count(),
            config.rules
        )?;
        writeln!(
            out,
            "won played blind     {won} of {n}{}",
            Interval::of(won, n).map_or(String::new(), |s| format!(", {s}"))
        )?;
        writeln!(
            out,
            "winnable, cards known {winnable} of {n}{}{}",
            Interval::of(winnable, n).map_or(String::new(), |s| format!(", {s}")),
            if undecided > 0 {
                format!(" ({undecided} undecided)")
            } else {
                String::new()
            }
        )?;
        let moves: Vec<usize> = played.iter().map(|p| p.hidden.moves).collect();
        let decisions: usize = played.iter().map(|p| p.hidden.decisions).sum();
        writeln!(
            out,
            "blind play           {} moves, {} decisions in all; {:.1} s of solver time ({:.1} s with the cards known), wall {:.1} s",
            moves.iter().sum::<usize>(),
            decisions,
            hidden_seconds,
            known_seconds,
            wall
        )?;
        writeln!(
            out,
            "settings             {} sampled completions per decision, {} positions per solve, at most {} moves, seed {} (--seed {} plays the same games)",
            settings.samples,
            settings
                .limits
                .max_positions
                .map_or("no limit on".to_string(), |m| m.to_string()),
            settings.max_moves,
            settings.seed,
            settings.seed
        )?;
    }
    out.flush()?;
    if cancel.load(Ordering::Relaxed) {
        eprintln!("spider: interrupted; the summary covers the deals finished");
        return Ok(ExitCode::from(130));
    }
    Ok(ExitCode::SUCCESS)
}
