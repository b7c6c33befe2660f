//! `spider play FILE`: a companion for a live game, or (`--blind`) a whole
//! game played by the blind player against a deal whose every card is
//! known. The player ([`spider_analyzer::unknown::blind::Hop`]) is given
//! only a [`View`]: what a player at the table sees.
//!
//! Live ([`super::companion`]): it prints the move to play with the
//! estimated chance to win and follows the game the player plays, reading
//! standard input (a terminal or a pipe): the cards a move turned up,
//! another move, `undo`, `fix`, `board`, `save`, `hint`, `quit`, `help`.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use spider_analyzer::cards::Card;
use spider_analyzer::deal::{Rules, check, numbered, pysol};
use spider_analyzer::game::{Game, Move};
use spider_analyzer::html::play as page;
use spider_analyzer::text::count;
use spider_analyzer::unknown::blind::{HiddenSettings, PlayedMove, play_blind};
use spider_analyzer::unknown::referee::Referee;
use spider_analyzer::unknown::view::View;

#[derive(Debug, clap::Args)]
// `--seed -1` reaches the flag's reader, which names the range.
#[command(allow_negative_numbers = true)]
#[command(after_help = super::exit_codes!(
    "0  the game is won",
    "1  no move left (or, --blind, the game is lost)",
    "2  bad usage or bad input (file, line and column)",
    "3  stopped before the game ended: end of input, `quit` or --max-moves (live)",
))]
#[command(group(clap::ArgGroup::new("source").required(true).args(["file", "number", "pysol"])))]
pub struct Args {
    /// The deal file (YAML, or CLIPS facts): as the player sees it (every
    /// card never seen written `XX`), or with --blind every card known.
    file: Option<PathBuf>,
    /// PySol(FC) game N of 4-suit Spider instead of a file, as its player
    /// sees it (only the face-up cards; with --blind, the whole deal for
    /// the referee).
    #[arg(long, value_name = "N", conflicts_with = "file", value_parser = super::flags::game_number)]
    pysol: Option<u128>,
    /// Deal N of the project's own generator instead of a file (with
    /// --suits), as its player sees it.
    #[arg(long, value_name = "N", conflicts_with_all = ["file", "pysol"], value_parser = super::flags::whole(0, u64::MAX))]
    number: Option<u64>,
    /// With --number: the suit count, 1, 2 or 4 (default 4).
    #[arg(long, value_name = "1|2|4", requires = "number", value_parser = super::deal::parse_suits)]
    suits: Option<spider_analyzer::cards::SuitCount>,
    /// Play the whole game as a player who sees only face-up cards,
    /// against the cards of FILE (every card must be known).
    #[arg(long)]
    blind: bool,
    #[command(flatten)]
    player: super::player::PlayerArgs,
    /// Seed of the samples (the same seed plays the same game).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = super::flags::whole(0, u64::MAX))]
    seed: u64,
    /// Give up after this many moves played by this command (a resumed
    /// game's moves before its file are not counted).
    #[arg(long, value_name = "N", default_value_t = 1000, value_parser = super::flags::whole_usize(0, usize::MAX))]
    max_moves: usize,
    /// Threads for the sampled solves, 1 to 1024 (default: all cores).
    #[arg(short, long, value_name = "N", value_parser = super::flags::jobs)]
    jobs: Option<usize>,
    /// With --blind: print the move log as JSON.
    #[arg(long, requires = "blind")]
    json: bool,
    /// Write the page that steps through the game (HTML, self-contained;
    /// the same page as `analyze --html`). Live, it shows the table as the
    /// player saw it and is written again after every move, undo or fix,
    /// so it holds the game so far whenever the game stops.
    #[arg(long, value_name = "OUT.html")]
    html: Option<PathBuf>,
    #[arg(long, requires = "html", help = super::output::FORCE_HELP)]
    force: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    // clap's `requires` lets --suits through once the source group is
    // given: say here what it goes with, as `spider deal` does.
    match (args.suits, args.number, args.pysol, &args.file) {
        (Some(suits), None, Some(_), _) if suits != spider_analyzer::cards::SuitCount::Four => {
            anyhow::bail!(
                "PySol game numbers are 4-suit Spider deals; --suits {} cannot be used with --pysol",
                suits.count()
            )
        }
        (Some(_), None, None, Some(_)) => {
            anyhow::bail!("--suits goes with --number: a deal file gives its own `suits:`")
        }
        _ => {}
    }
    let (deal, name, file) = match (&args.file, args.number, args.pysol) {
        (Some(file), _, _) => (
            super::input::load_deal(file)?,
            super::input::name(file),
            Some(file.as_path()),
        ),
        (None, Some(number), _) => {
            let suits = args.suits.unwrap_or_default();
            let deal = numbered::deal(number, suits, Rules::Standard);
            (
                deal,
                format!("deal {number} ({}-suit)", suits.count()),
                None,
            )
        }
        (None, None, Some(game)) => (
            pysol::deal(game, Rules::Standard)?,
            format!("PySol game {game}"),
            None,
        ),
        (None, None, None) => unreachable!("clap requires a file, --number or --pysol"),
    };
    // A numbered deal live is played as its player sees it: the real cards
    // are not kept, so nothing can peek at them.
    let deal = if file.is_none() && !args.blind {
        View::of(&deal)
            .map_err(|e| anyhow::anyhow!("{name}: {e}"))?
            .deal()
    } else {
        deal
    };
    let inputs: Vec<&std::path::Path> = file.into_iter().collect();
    if !args.blind && file.is_some_and(super::input::is_stdin) {
        anyhow::bail!(
            "the live game reads the cards turned up from standard input: give the deal as a file, not `-`"
        );
    }
    if let Some(path) = &args.html {
        if !args.blind && super::output::is_stdout(path) {
            anyhow::bail!(
                "--html -: the live game's page is written again after every move, so it needs a file (standard output carries the game)"
            );
        }
        super::output::check(path, &inputs, args.force)?;
    }
    Game::new(&deal).map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
    let report = check::check(&deal);
    if !report.consistent {
        anyhow::bail!(
            "{name}: the deal is inconsistent, so the unseen cards are not known: see `spider check {name}`"
        );
    }
    let settings = args
        .player
        .settings(deal.suits, args.seed, args.max_moves, args.jobs);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.jobs.unwrap_or(0))
        .build()?;
    if args.blind {
        let referee = Referee::new(&deal).map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
        pool.install(|| blind(&args, &name, &inputs, referee, &settings))
    } else {
        let view = View::of(&deal).map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
        let companion = super::companion::Companion {
            name: &name,
            inputs: &inputs,
            settings: &settings,
            max_moves: args.max_moves,
            seed: args.seed,
            html: args.html.as_deref().map(|path| (path, args.force)),
        };
        pool.install(|| companion.run(&deal, view))
    }
}

/// How a blind game ended, in words: `won after 131 moves`, `lost after
/// 54 moves: no move left`, or why the player stopped.
pub(crate) fn how_it_ended(ended: &str, moves: usize, settings: &HiddenSettings) -> String {
    let moves = count(moves as u64, "move");
    match ended {
        "won" => format!("won after {moves}"),
        "no move left" => format!("lost after {moves}: no move left"),
        "gave up" => format!(
            "lost after {moves}: {}",
            super::player::gave_up_why(settings)
        ),
        "no progress" => format!(
            "lost after {moves}: the player gives up, 200 moves in a row without a plan (no winning line in any sample, no line of the lookahead)"
        ),
        "move limit" => format!("stopped after {moves} (--max-moves)"),
        "cancelled" => format!("stopped by Ctrl-C after {moves}"),
        other => format!("ended after {moves} ({other})"),
    }
}

fn cards_text(cards: &[Card]) -> String {
    cards
        .iter()
        .map(|c| c.pretty())
        .collect::<Vec<_>>()
        .join(" ")
}

fn blind(
    args: &Args,
    name: &str,
    inputs: &[&std::path::Path],
    mut referee: Referee,
    settings: &HiddenSettings,
) -> anyhow::Result<ExitCode> {
    let cancel = super::cancel_on_ctrl_c();
    let mut player = settings.new_player();
    let player_name = settings.player;
    let suits = referee.view().suits();
    let mut out = std::io::stdout().lock();
    if !args.json {
        writeln!(
            out,
            "{name}: played blind (the player sees only face-up cards), seed {}",
            args.seed
        )?;
        writeln!(out, "{}", super::companion::board(referee.view()))?;
    }
    let json = args.json;
    let mut write_error = None;
    let game = play_blind(
        &mut referee,
        player.as_mut(),
        settings.max_moves,
        &cancel,
        &mut |played: &PlayedMove| {
            if json {
                return;
            }
            let mut line = format!(
                "{:>4}. {:<8} {}  [chance {}]",
                played.number,
                played.mv.to_string(),
                played.words,
                super::player::chance(
                    played.win_estimate,
                    Some(&played.counts),
                    player_name,
                    suits,
                    super::player::ChanceForm::Short
                )
            );
            if !played.turned.is_empty() {
                line.push_str(&format!(
                    "\n      turned up: {}",
                    cards_text(&played.turned)
                ));
            }
            if let Err(e) = writeln!(out, "{line}") {
                write_error.get_or_insert(e);
            }
        },
    )?;
    if let Some(e) = write_error {
        return Err(e.into());
    }
    if json {
        let report = serde_json::json!({
            "file": name,
            "seed": args.seed,
            "samples": settings.samples,
            "max_positions": settings.limits.max_positions,
            "won": game.won,
            "ended": game.ended,
            "moves": game.moves,
            "decisions": game.decisions,
            "unplanned_moves": game.unplanned_moves,
            "runs_removed": game.runs_removed,
            "face_down_left": game.face_down_left,
            "seconds": game.seconds,
            "cpu_seconds": game.cpu_seconds,
            "slowest_move_seconds": game.slowest_move_seconds,
            "log": game.log,
        });
        serde_json::to_writer_pretty(&mut out, &report)?;
        writeln!(out)?;
    } else {
        writeln!(
            out,
            "{}: {} removed, {} face down, {}, {:.1} s (the slowest move {:.1} s)",
            how_it_ended(game.ended, game.moves, settings),
            count(game.runs_removed as u64, "run"),
            count(game.face_down_left as u64, "card"),
            count(game.decisions as u64, "decision"),
            game.seconds,
            game.slowest_move_seconds
        )?;
    }
    out.flush()?;
    if let Some(path) = &args.html {
        let start = referee.start().clone();
        let real = Game::new(&start)?;
        let line: Vec<Move> = game.log.iter().map(|p| p.mv).collect();
        let caption = page::Caption {
            title: format!("{name}: played blind, seed {}", args.seed),
            lines: vec![
                format!(
                    "The player saw only face-up cards; it {} after {}.",
                    if game.won { "won" } else { "lost" },
                    count(game.moves as u64, "move")
                ),
                "Step with the buttons, the arrow keys or the slider; the moved cards are yellow, a card that turned up is marked blue.".into(),
            ],
        };
        let text = page::page(&real, &start, &caption, &line);
        super::output::write(path, inputs, args.force, |out| {
            out.write_all(text.as_bytes())
        })?;
    }
    if cancel.load(std::sync::atomic::Ordering::Relaxed) {
        return Ok(ExitCode::from(super::EXIT_INTERRUPTED));
    }
    Ok(ExitCode::from(if game.won { 0 } else { 1 }))
}
