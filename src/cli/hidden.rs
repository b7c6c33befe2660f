//! `spider batch --hidden`: each numbered deal played from the start by a
//! player who cannot see face-down or stock cards (moves chosen by the
//! hint, `spider_analyzer::unknown::blind`), beside the verdict with every
//! card known. A study, not a proof: the summary gives both shares with
//! their 95 % Wilson intervals and the settings that produced them.

use std::collections::HashSet;
use std::io::{IsTerminal, Write};
use std::path::Path;
use std::process::ExitCode;
use std::sync::Mutex;
use std::sync::atomic::Ordering;
use std::time::Instant;

use anyhow::Context;
use rayon::prelude::*;
use spider_analyzer::batch::{
    BatchConfig, BlindRecord, BlindSettings, Record, RecordWriter, Summary, decide, numbered_deal,
};
use spider_analyzer::game::compact_line;
use spider_analyzer::solve::Verdict;
use spider_analyzer::stats::Interval;
use spider_analyzer::text::count;
use spider_analyzer::unknown::blind::{HiddenSettings, Player, play_hidden};

/// The settings as a results file keeps them.
fn kept(settings: &HiddenSettings) -> BlindSettings {
    BlindSettings {
        player: settings.player.to_string(),
        samples: settings.samples,
        max_positions: settings.limits.max_positions,
        max_moves: settings.max_moves,
        lookahead: settings.lookahead,
        late_lookahead: settings.late_search(),
        // Only HOP checks: the other players' files stay the same.
        check: if settings.player == Player::Hop {
            settings.check
        } else {
            0
        },
        seed: settings.seed,
    }
}

/// Runs the study on the deals of `config`; `seed` seeds every game's
/// samples (mixed with the deal's number). With `output`, each game's
/// record is appended to that results file as it ends, and the games
/// already in it (played with the same settings) are not played again.
/// Returns the exit code and the records of every game played (this run
/// and before), for the report page.
pub fn run(
    config: &BatchConfig,
    settings: &HiddenSettings,
    jobs: Option<usize>,
    json: bool,
    output: Option<&Path>,
) -> anyhow::Result<(ExitCode, Vec<Record>)> {
    config.validate()?;
    let cancel = super::cancel_on_ctrl_c();
    let (writer, existing) = match output {
        Some(path) => {
            let (writer, existing) = RecordWriter::open(path)?;
            for warning in &existing.warnings {
                eprintln!("spider: warning: {}: {warning}", path.display());
            }
            (Some(writer), existing.records)
        }
        None => (None, Vec::new()),
    };
    let mine = kept(settings);
    let mut records: Vec<Record> = Vec::new();
    for record in existing.into_iter().filter(|r| config.includes(r)) {
        match &record.blind {
            Some(blind) if !blind.settings.plays_as(&mine) => anyhow::bail!(
                "{}: deal {} was played blind with other settings (player {}, {}, {} positions, lookahead {}, late lookahead {}, check {}, at most {}, seed {}): give the same flags, or another results file",
                output.map_or(String::new(), |p| p.display().to_string()),
                record.number,
                blind.settings.player,
                spider_analyzer::text::count(blind.settings.samples as u64, "sample"),
                blind
                    .settings
                    .max_positions
                    .map_or("no limit on".into(), |m| m.to_string()),
                blind.settings.lookahead,
                blind
                    .settings
                    .late_lookahead
                    .map_or("none".into(), |n| n.to_string()),
                blind.settings.check,
                spider_analyzer::text::count(blind.settings.max_moves as u64, "move"),
                blind.settings.seed
            ),
            Some(_) => records.push(record),
            None => {}
        }
    }
    let done: HashSet<u128> = records.iter().map(|r| r.number).collect();
    if !done.is_empty() {
        eprintln!(
            "spider: {} of {} already played in the results file, {} to go",
            done.len(),
            spider_analyzer::text::count(config.len(), "deal"),
            config.len().saturating_sub(done.len() as u128)
        );
    }
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
            let number = config.shard.number(&config.deals, i);
            if done.contains(&number) {
                return Ok(());
            }
            let deal = numbered_deal(config.source, number, config.suits, config.rules)?;
            let mut record = decide(config, number, &cancel).with_context(|| format!("deal {number}"))?;
            let mine = settings.for_deal(number as u64);
            let hidden =
                play_hidden(&deal, &mine, &cancel).with_context(|| format!("deal {number}"))?;
            if cancel.load(Ordering::Relaxed) {
                return Ok(());
            }
            if show {
                eprintln!(
                    "deal {number}: played blind {} after {} ({}, {:.1} s, {} removed); with the cards known {}",
                    if hidden.won { "won" } else { "lost" },
                    count(hidden.moves as u64, "move"),
                    count(hidden.decisions as u64, "decision"),
                    hidden.seconds,
                    count(hidden.runs_removed as u64, "run"),
                    record.verdict
                );
            }
            record.blind = Some(BlindRecord {
                won: hidden.won,
                moves: hidden.moves,
                decisions: hidden.decisions,
                unplanned_moves: hidden.unplanned_moves,
                runs_removed: hidden.runs_removed,
                face_down_left: hidden.face_down_left,
                seconds: hidden.seconds,
                cpu_seconds: hidden.cpu_seconds,
                slowest_move_seconds: Some(hidden.slowest_move_seconds),
                ended: hidden.ended.to_string(),
                settings: kept(settings),
                game_seed: Some(mine.seed),
                chances: hidden
                    .log
                    .iter()
                    .map(|m| m.win_estimate.map(|e| e.share as f32))
                    .collect(),
                line: compact_line(&hidden.log.iter().map(|m| m.mv).collect::<Vec<_>>()),
            });
            if let Some(writer) = &writer {
                writer.write(&record)?;
            }
            played
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .push(record);
            Ok(())
        })
    });
    result?;
    let wall = start.elapsed().as_secs_f64();
    let played_now = played.into_inner().unwrap_or_else(|p| p.into_inner());
    let played_now_count = played_now.len();
    let mut played = records;
    played.extend(played_now);
    played.sort_by_key(|p| p.number);
    let blind = |p: &Record| p.blind.clone().expect("only blind records are kept");

    let n = played.len();
    let won = played.iter().filter(|p| blind(p).won).count();
    let winnable = played
        .iter()
        .filter(|p| p.verdict == Verdict::Winnable)
        .count();
    let undecided = played
        .iter()
        .filter(|p| p.verdict == Verdict::Undecided)
        .count();
    let hidden_seconds: f64 = played.iter().map(|p| blind(p).seconds).sum();
    // The CPU a game and the slowest move, as `batch --summarize` counts them.
    let (cpu_per_game, with_cpu, slowest) = match Summary::of(&played, None).blind {
        Some(b) => (
            b.cpu_seconds_per_game,
            b.games_with_cpu as usize,
            b.slowest_move,
        ),
        None => (None, 0, None),
    };
    let known_seconds: f64 = played.iter().map(|p| p.seconds).sum();
    let mut out = std::io::stdout().lock();
    if json {
        let json = serde_json::json!({
            "source": config.source,
            "range": config.deals.to_string(),
            "suits": config.suits.count(),
            "rules": config.rules.to_string(),
            "settings": {
                "player": settings.player.name(),
                "samples": settings.samples,
                "max_positions": settings.limits.max_positions,
                "max_moves": settings.max_moves,
                "lookahead": settings.lookahead,
                "late_lookahead": kept(settings).late_lookahead,
                "check": kept(settings).check,
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
            "blind_seconds_per_game": if n > 0 { hidden_seconds / n as f64 } else { 0.0 },
            "blind_cpu_seconds_per_game": cpu_per_game,
            "games_with_cpu": with_cpu,
            "slowest_move_seconds": slowest.map(|(s, _)| s),
            "played_this_run": played_now_count,
            "wall_seconds": wall,
            "games": played,
        });
        serde_json::to_writer_pretty(&mut out, &json)?;
        writeln!(out)?;
    } else {
        writeln!(
            out,
            "deals                {n} ({} {}, {}, {} rules)",
            config.source,
            config.deals,
            count(config.suits.count() as u64, "suit"),
            config.rules
        )?;
        writeln!(
            out,
            "won played blind     {}",
            Interval::of(won, n).map_or("n/a (no game)".to_string(), |s| s.to_string())
        )?;
        writeln!(
            out,
            "winnable (known)     {}{}",
            Interval::of(winnable, n).map_or("n/a (no game)".to_string(), |s| s.to_string()),
            if undecided > 0 {
                format!(" ({undecided} undecided)")
            } else {
                String::new()
            }
        )?;
        let moves: Vec<usize> = played.iter().map(|p| blind(p).moves).collect();
        let decisions: usize = played.iter().map(|p| blind(p).decisions).sum();
        writeln!(
            out,
            "blind play           {}, {} in all; {:.1} s of solver time ({:.1} s with the cards known), wall {:.1} s",
            count(moves.iter().sum::<usize>() as u64, "move"),
            count(decisions as u64, "decision"),
            hidden_seconds,
            known_seconds,
            wall
        )?;
        writeln!(
            out,
            "CPU per game         {} (wall {:.1} s a game); {} played this run",
            match cpu_per_game {
                Some(cpu) if with_cpu == n => format!("{cpu:.1} s played blind"),
                Some(cpu) =>
                    format!("{cpu:.1} s played blind, over the {with_cpu} games that kept it"),
                None => "not kept (games played before it was)".to_string(),
            },
            if n > 0 {
                hidden_seconds / n as f64
            } else {
                0.0
            },
            count(played_now_count as u64, "game")
        )?;
        if let Some((seconds, number)) = slowest {
            writeln!(
                out,
                "slowest move         {seconds:.1} s to choose (deal {number})"
            )?;
        }
        writeln!(
            out,
            "settings             player {}, {} per decision, {} positions per solve, {}, at most {}, seed {} (--seed {} plays the same games)",
            settings.player,
            count(settings.samples as u64, "sample"),
            settings
                .limits
                .max_positions
                .map_or("no limit on".to_string(), |m| m.to_string()),
            match kept(settings).check {
                0 => "no check".to_string(),
                n => format!("{} a check", count(n as u64, "sample")),
            },
            count(settings.max_moves as u64, "move"),
            settings.seed,
            settings.seed
        )?;
    }
    out.flush()?;
    if cancel.load(Ordering::Relaxed) {
        eprintln!(
            "spider: interrupted; the summary covers the deals finished{}",
            match output {
                Some(path) => format!("; rerun with --output {} to continue", path.display()),
                None => "; use --output FILE to keep the games across runs".into(),
            }
        );
        return Ok((ExitCode::from(130), played));
    }
    Ok((ExitCode::SUCCESS, played))
}
