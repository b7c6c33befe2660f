//! `spider hint FILE`: the move to play now, for a player who cannot see
//! the `XX` cards. Every legal move with the share of completions (all of
//! them when there are few, else a seeded uniform sample) in which a win
//! starts with it, best first. The method and what it assumes are in
//! `spider_analyzer::unknown::hint` and docs/unknown-cards.md.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use num_bigint::BigUint;
use spider_analyzer::deal::Place;
use spider_analyzer::deal::check;
use spider_analyzer::solve::{Analysis, Limits, StopReason};
use spider_analyzer::stats::{exact_share_text, share_column};
use spider_analyzer::text::count as plural;
use spider_analyzer::unknown::blind::{Choice, HiddenSettings};
use spider_analyzer::unknown::hint::{self, Hint, Kind, Method, MoveShare, Tries};
use spider_analyzer::unknown::view::View;
use spider_analyzer::unknown::{Completion, Decided, completions, sample};

#[derive(Debug, clap::Args)]
// `--time-limit -1` reaches the flag's reader, which names the range.
#[command(allow_negative_numbers = true)]
#[command(after_help = super::exit_codes!(
    "0  a move to play (or the position is already won)",
    "1  no legal move",
    "2  bad usage or bad input (an inconsistent deal included: its candidates cannot fill the XX slots)",
    "3  no move can be told better: no sampled completion was won within the limits, or Ctrl-C stopped the completions or the moves' tries",
))]
pub struct Args {
    /// The deal file (YAML, or CLIPS facts), as the player sees it: every
    /// card never seen written `XX`.
    file: PathBuf,
    #[command(flatten)]
    sampling: super::budget::Sampling,
    /// Seed of the sample and of the blind player (printed; the same seed
    /// draws the same sample, the same default as in every command).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = super::flags::whole(0, u64::MAX))]
    seed: u64,
    #[command(flatten)]
    budget: super::budget::Budget,
    /// Credit only the first move of each completion's winning line
    /// instead of trying moves in every winnable completion (faster, less
    /// exact: see docs/unknown-cards.md).
    #[arg(long, conflicts_with = "verify_moves")]
    first_moves: bool,
    /// Threads, 1 to 1024 (default: all cores).
    #[arg(short, long, value_name = "N", value_parser = super::flags::jobs)]
    jobs: Option<usize>,
    /// Print the hint as JSON.
    #[arg(long)]
    json: bool,
    /// When standard error is not a terminal, write how far the hint has
    /// got there every SECONDS (0: never), as `analyze` does; a terminal
    /// shows it in a bar.
    #[arg(long, value_name = "SECONDS", default_value = "600", value_parser = super::flags::time_limit)]
    progress_every: super::flags::TimeLimit,
    /// The blind player whose move is the move to play now (the same as
    /// `spider play`'s; its own budgets, not --samples and
    /// --sample-max-positions, which size the list of shares).
    #[command(flatten)]
    player: super::player::PlayerArgs,
}

/// Exit 0 with a move to play (or a won position), 1 when the position has
/// no legal move, 3 when no completion was won within the limits (the
/// hint knows nothing) or Ctrl-C stopped it, 2 for bad input (an inconsistent deal included: its candidates cannot
/// fill the `XX` slots).
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let deal = super::input::load_deal(&args.file)?;
    let name = super::input::name(&args.file);
    spider_analyzer::game::Game::new(&deal).map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
    let report = check::check(&deal);
    super::input::refuse_inconsistent(&name, &report)?;
    let limits = args.budget.limits(super::flags::threads(args.jobs));
    let candidates = report.candidates();
    let count = sample::count(&candidates);
    let seed = args.seed;
    let sampled = args.sampling.sampled(&count);
    if args.sampling.samples == 0 {
        anyhow::bail!("--samples 0 decides no sampled completion: the hint needs at least 1");
    }
    let cancel = super::cancel_on_ctrl_c();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.jobs.unwrap_or(0))
        .build()?;
    if deal_is_won(&deal) {
        let mut out = std::io::stdout().lock();
        if args.json {
            let json = serde_json::json!({"file": name, "won": true, "hint": null});
            serde_json::to_writer_pretty(&mut out, &json)?;
            writeln!(out)?;
        } else {
            writeln!(
                out,
                "{name}: the position is won (every run removed): nothing to play"
            )?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    let samples = args.sampling.samples;
    let size = if sampled {
        samples as u64
    } else {
        u64::try_from(&count).unwrap_or(u64::MAX)
    };
    let bar = indicatif::ProgressBar::new(size);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:40} {pos}/{len} completions solved, elapsed {elapsed} {msg}",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let log = super::ProgressLog::new(args.progress_every.0);
    let on_done = |_: &Completion| {
        bar.inc(1);
        log.note(&format!("{} of {size} completions solved", bar.position()));
    };
    // A sample's solves: the smaller position budget.
    let limits = super::budget::for_samples(&limits, sampled, args.sampling.sample_max_positions);
    let decided = pool.install(|| {
        if sampled {
            sample::decide_sample(
                &deal,
                &candidates,
                samples,
                seed,
                &limits,
                &cancel,
                &on_done,
            )
        } else {
            completions::decide(
                &deal,
                &candidates,
                &limits,
                &cancel,
                args.sampling.max_completions.0.unwrap_or(u64::MAX),
                &on_done,
            )
        }
    })?;
    bar.finish_and_clear();
    // Ctrl-C while the completions were decided, or only after them.
    let stopped_in_sample = cancel.load(std::sync::atomic::Ordering::Relaxed);
    let spinner = super::spinner();
    // The move itself is the blind player's (the same policy as `spider
    // play` and `batch --hidden`) when the file shows what a player sees:
    // every face-down and stock card XX. A file that knows some of them
    // (a position studied with its cards) is hinted by its completions.
    spinner.set_message("the blind player chooses");
    let as_seen = deal.slots().all(|(place, slot)| {
        !matches!(place, Place::FaceDown { .. } | Place::Stock { .. }) || slot.known().is_none()
    });
    let (choice, odds) = if as_seen {
        let settings = args
            .player
            .settings(deal.suits, seed, usize::MAX, args.jobs);
        let choice = pool.install(|| blind_choice(&deal, &settings, &cancel))?;
        let odds = super::player::odds_line(
            &View::of(&deal)?,
            settings.player,
            choice.as_ref().and_then(|c| c.win_estimate),
        );
        (choice, odds)
    } else {
        (None, None)
    };
    spinner.finish_and_clear();
    let method = if args.first_moves {
        Method::FirstMoves
    } else {
        // The blind player's move is tried with the best few.
        Method::Verify {
            best: args.sampling.verified_moves(),
            also: choice.as_ref().map(|c| c.mv),
        }
    };
    let hint = pool.install(|| {
        try_moves(&deal, &decided, method, &limits, &cancel, &|words| {
            log.note(words)
        })
    })?;

    let mut out = std::io::stdout().lock();
    if args.json {
        let json = serde_json::json!({
            "file": name,
            "completions_total": decided.total.to_string(),
            "sampled": decided.is_sample(),
            "seed": decided.seed,
            "summary": decided.summary(),
            "hint": hint_json(&hint),
            "blind_player": choice.as_ref().map(|c| serde_json::json!({
                "move": c.mv.to_string(),
                "win_estimate": c.win_estimate,
                "chance_to_win": odds_json(&deal, &args.player.settings(deal.suits, seed, usize::MAX, args.jobs)),
            })),
        });
        serde_json::to_writer_pretty(&mut out, &json)?;
        writeln!(out)?;
    } else {
        let summary = decided.summary();
        writeln!(
            out,
            "deal: {name} ({}, {} completion{})",
            plural(decided.slots.len() as u64, "XX card"),
            sample::approximate(&decided.total),
            if decided.total == BigUint::from(1u32) {
                ""
            } else {
                "s"
            }
        )?;
        match decided.seed {
            Some(seed) => writeln!(
                out,
                "sample: {} drawn uniformly, seed {seed} (--seed {seed} draws it again): winnable in {}{}, {} undecided",
                plural(summary.decided as u64, "completion"),
                summary.winnable,
                summary.share.map_or(String::new(), |s| format!(", {s}")),
                summary.undecided
            )?,
            None => writeln!(
                out,
                "completions: {} decided: winnable in {}, {} undecided",
                if summary.decided == 1 {
                    "the only one".to_string()
                } else {
                    format!("all {}", summary.decided)
                },
                summary.winnable,
                summary.undecided
            )?,
        }
        if let Some(words) = super::completions::undecided_words(&decided, limits.max_positions) {
            writeln!(out, "{words}")?;
        }
        if cancel.load(std::sync::atomic::Ordering::Relaxed) {
            let planned = if sampled {
                format!("{samples} sampled completions")
            } else {
                format!("{} completions", sample::approximate(&decided.total))
            };
            let cut = decided
                .completions
                .iter()
                .filter(|c| c.analysis.stopped_by == Some(StopReason::Cancelled))
                .count();
            if stopped_in_sample {
                writeln!(
                    out,
                    "stopped by Ctrl-C: {} of {planned} decided{}, the others not started; the shares below are of those",
                    decided.completions.len() - cut,
                    if cut > 0 {
                        format!(" ({cut} cut short, counted undecided)")
                    } else {
                        String::new()
                    }
                )?;
            } else {
                writeln!(out, "{}", stopped_while_trying(&planned, hint.tries))?;
            }
        }
        print_hint(
            &mut out,
            &hint,
            decided.is_sample(),
            choice.as_ref(),
            odds.as_deref(),
            MORE,
        )?;
    }
    out.flush()?;
    if cancel.load(std::sync::atomic::Ordering::Relaxed) {
        return Ok(ExitCode::from(3));
    }
    Ok(if hint.moves.is_empty() {
        ExitCode::from(1)
    } else if knows_nothing(&hint) {
        ExitCode::from(3)
    } else {
        ExitCode::SUCCESS
    })
}

/// Each legal move tried in each winnable completion of `decided`
/// ([`hint::hint`]) on the current rayon pool, with a bar on standard
/// error (hidden when it is not a terminal): the moves tried of the moves, in how many
/// winnable completions, and the tries (a move in a completion) done.
/// `note`: the same words, for a log.
pub(crate) fn try_moves(
    deal: &spider_analyzer::deal::Deal,
    decided: &Decided,
    method: Method,
    limits: &Limits,
    cancel: &std::sync::atomic::AtomicBool,
    note: &(dyn Fn(&str) + Sync),
) -> anyhow::Result<Hint> {
    let winnable = decided.count(spider_analyzer::solve::Verdict::Winnable);
    let bar = indicatif::ProgressBar::new(0);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:40} {msg}, {pos}/{len} tries, elapsed {elapsed}, eta {eta}",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar.set_message(format!(
        "trying moves in {}",
        plural(winnable as u64, "winnable completion")
    ));
    bar.enable_steady_tick(std::time::Duration::from_millis(500));
    let on_try = |t: Tries| {
        let words = format!(
            "{} of {} moves tried in {}",
            t.moves_done,
            t.moves,
            plural(winnable as u64, "winnable completion")
        );
        bar.set_length(t.planned as u64);
        bar.set_position(t.done as u64);
        note(&format!("{words}, {} of {} tries", t.done, t.planned));
        bar.set_message(words);
    };
    let hint = hint::hint_with_progress(deal, decided, method, limits, cancel, &on_try);
    bar.finish_and_clear();
    Ok(hint?)
}

/// What a Ctrl-C while each move was tried left: the completions
/// (`planned`: "30 sampled completions") all decided, the tries cut.
pub(crate) fn stopped_while_trying(planned: &str, tries: Tries) -> String {
    format!(
        "stopped by Ctrl-C while each move was tried: the {planned} decided (the share is complete); the moves' tries were cut after {} of {} moves ({} of {} tries of a move in a completion), and a move's share below counts a try not finished as not won",
        tries.moves_done, tries.moves, tries.done, tries.planned
    )
}

/// The player's odds from the deal as seen, for `--json`: the chance, its
/// interval and the games it counts; `null` where no chance model ships.
fn odds_json(deal: &spider_analyzer::deal::Deal, settings: &HiddenSettings) -> serde_json::Value {
    let Ok(view) = View::of(deal) else {
        return serde_json::Value::Null;
    };
    match spider_analyzer::unknown::playout::shipped_odds(
        deal.suits,
        settings.player.to_string().as_str(),
    ) {
        Some(model) => {
            let shown = model.chance(&view);
            serde_json::json!({"share": shown.chance, "low": shown.low, "high": shown.high, "games": shown.games})
        }
        None => serde_json::Value::Null,
    }
}

/// How to learn more when no sampled completion was won, in `hint` and
/// `analyze --hint` (the companion's `hint` word says its own).
pub(crate) const MORE: &str = "raise --sample-max-positions or --samples";

/// Whether no decided completion credited any move: no win was found
/// within the limits, so the ranking is the tie-breaks' alone.
fn knows_nothing(hint: &Hint) -> bool {
    hint.moves.iter().all(|m| m.wins == 0)
}

/// Whether the deal's position is already won.
fn deal_is_won(deal: &spider_analyzer::deal::Deal) -> bool {
    spider_analyzer::game::Game::new(deal).is_ok_and(|game| game.start().is_won())
}

/// Whether `m` cannot be told apart from `best`: over a sample, their 95 %
/// intervals overlap; over every completion, they win in as many.
fn tied(m: &MoveShare, best: &MoveShare, sampled: bool) -> bool {
    match (m.share, best.share) {
        (Some(a), Some(b)) if sampled => a.high >= b.low,
        _ => m.wins == best.wins,
    }
}

/// The one completion of a deal without `XX` cards: the deal itself.
pub(crate) fn known_deal(analysis: &Analysis) -> Decided {
    Decided {
        slots: Vec::new(),
        total: BigUint::from(1u32),
        seed: None,
        completions: vec![Completion {
            cards: Vec::new(),
            analysis: analysis.clone(),
        }],
    }
}

fn kind_words(kind: Kind) -> &'static str {
    match kind {
        Kind::TurnsUpAndBuilds => "turns up a card, builds a same-suit run",
        Kind::TurnsUp => "turns up a card",
        Kind::BuildsSuit => "builds a same-suit run",
        Kind::Other => "",
        Kind::Deal => "",
    }
}

/// The blind player's move in `deal` as a player sees it (every face-down
/// and stock card masked): the default player of `spider play` and
/// `batch --hidden` at their defaults for the deal's suits
/// ([`HiddenSettings::for_suits`]: the player the studies measure), with
/// `seed` and the memory limit of `limits`.
fn blind_choice(
    deal: &spider_analyzer::deal::Deal,
    settings: &HiddenSettings,
    cancel: &std::sync::atomic::AtomicBool,
) -> anyhow::Result<Option<Choice>> {
    let view = View::of(deal)?;
    let mut player = settings.new_player();
    Ok(player.choose(&view, cancel)?)
}

/// The hint for people: the move to play (the blind player's when given,
/// else the best share), then every legal move.
pub(crate) fn print_hint(
    out: &mut impl Write,
    hint: &Hint,
    sampled: bool,
    blind: Option<&Choice>,
    odds: Option<&str>,
    more: &str,
) -> anyhow::Result<()> {
    let which = if sampled {
        "sampled completion"
    } else {
        "completion"
    };
    let Some(top) = hint.best() else {
        writeln!(out, "move to play now: none (no legal move)")?;
        return Ok(());
    };
    if knows_nothing(hint) {
        writeln!(
            out,
            "move to play now: unknown: no win was found in {} within the limits, so no move can be told better than another ({more}); the legal moves, by the tie-breaks only:",
            any_of(top.of, which)
        )?;
        for (index, m) in hint.moves.iter().enumerate() {
            writeln!(out, "{:>4}. {:<8} {}", index + 1, m.mv.to_string(), m.words)?;
        }
        if let Some(choice) = blind {
            writeln!(
                out,
                "the blind player would play {} by looking ahead (the best card to turn up; no chance to win is known)",
                choice.mv
            )?;
        }
        return Ok(());
    }
    // The blind player's move, where it is one of the legal moves shown.
    let best = blind
        .and_then(|c| hint.moves.iter().find(|m| m.mv == c.mv))
        .unwrap_or(top);
    writeln!(out, "move to play now: {}  ({})", best.mv, best.words)?;
    if let Some(odds) = odds.filter(|_| blind.is_some_and(|c| c.mv == best.mv)) {
        writeln!(out, "{odds}")?;
    }
    if let Some(choice) = blind.filter(|c| c.mv == best.mv) {
        writeln!(
            out,
            "  the blind player's move (the same player as `spider play`): {}",
            if choice.checked {
                "its line to a card to turn up won in more sampled completions than the card its plans would turn up (see docs/unknown-cards.md)"
            } else if choice.win_estimate.is_some() {
                "most of its sampled wins start with it"
            } else {
                "by looking ahead: the line to the best card to turn up (the default player; HOP's move when no move starts enough sampled wins, one at 1 and 2 suits, two at 4)"
            }
        )?;
    }
    match best.share {
        Some(_) if best.wins > 0 && best.of == 1 => {
            writeln!(out, "  a win starts with it in the only {which}")?
        }
        Some(share) if best.wins > 0 && sampled => {
            writeln!(out, "  a win starts with it in {share} of the {which}s")?
        }
        Some(_) if best.wins > 0 => writeln!(
            out,
            "  a win starts with it in {} of the {which}s",
            exact_share_text(best.wins as u64, best.of as u64)
        )?,
        _ => writeln!(
            out,
            "  no win was found in {} within the limits: the moves are ranked by the tie-breaks only",
            any_of(best.of, which)
        )?,
    }
    writeln!(out, "every legal move, best first:")?;
    for (index, m) in hint.moves.iter().enumerate() {
        // Ties are with the first move listed, the largest share (the
        // blind player's move may be another).
        // The interval only for a sample: over every completion the share
        // is exact.
        let untried = !m.tried && matches!(hint.method, Method::Verify { .. });
        // A move not tried has no share: its wins are a lower bound.
        let share = m.share.filter(|_| !untried).map_or(String::new(), |s| {
            if sampled {
                share_column(s.share, s.low, s.high)
            } else {
                format!("{:>3.0} %", s.share * 100.0)
            }
        });
        let note = kind_words(m.kind);
        let tie = if index > 0 && !untried && tied(m, top, sampled) {
            if sampled {
                "  (tied with the best: the intervals overlap)"
            } else {
                "  (tied with the best)"
            }
        } else {
            ""
        };
        let width = if sampled { 25 } else { 6 };
        let untried = if untried {
            "  (not tried: only the wins that start with it)"
        } else {
            ""
        };
        writeln!(
            out,
            "{:>4}. {:<8} {:>4} of {:<4} {:<width$} {}{}{tie}{untried}",
            index + 1,
            m.mv.to_string(),
            m.wins,
            m.of,
            share,
            m.words,
            if note.is_empty() {
                String::new()
            } else {
                format!("  [{note}]")
            }
        )?;
    }
    writeln!(
        out,
        "assumes: each completion is solved with its cards known{}; a player who cannot see them cannot follow a different line for each, so a share is optimistic for that player. Ties go to moves that turn up a card, then same-suit builds, the deal last.",
        match hint.method {
            _ if hint.moves.iter().all(|m| m.tried) =>
                ", and every legal move is tried in every winnable one".to_string(),
            Method::Verify { .. } => {
                let tried = hint.moves.iter().filter(|m| m.tried).count();
                format!(
                    ", and {tried} of the {} legal moves (those the first moves of the wins rank best, and the blind player's) {} tried in every winnable one",
                    hint.moves.len(),
                    if tried == 1 { "is" } else { "are" }
                )
            }
            Method::FirstMoves =>
                "; only the first move of each winning line found is credited (--first-moves)"
                    .to_string(),
        }
    )?;
    Ok(())
}

/// "any of the 24 completions", or "the only completion" when there is one.
fn any_of(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("the only {noun}")
    } else {
        format!("any of the {n} {noun}s")
    }
}

pub(crate) fn hint_json(hint: &Hint) -> serde_json::Value {
    serde_json::json!({
        "method": match hint.method {
            Method::Verify { .. } => "verify",
            Method::FirstMoves => "first-moves",
        },
        "extra_solves": hint.extra_solves,
        "tries": hint.tries,
        "best": hint.best().map(|m| m.mv.to_string()),
        "moves": hint.moves.iter().map(|m| serde_json::json!({
            "move": m.mv.to_string(),
            "words": m.words,
            "kind": m.kind,
            "wins": m.wins,
            "of": m.of,
            "share": m.share,
            "tried": m.tried,
        })).collect::<Vec<_>>(),
    })
}
