//! `spider replay FILE MOVES`: play a move list against a deal, checking
//! every move by the rules, so a line from anywhere (this tool, another
//! solver, a player's notes) can be trusted or shown wrong.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use spider_analyzer::game::{Game, Move, parse_moves, replay};

#[derive(Debug, clap::Args)]
// `--time-limit -1` reaches the flag's reader, which names the range.
#[command(allow_negative_numbers = true)]
#[command(after_help = super::exit_codes!(
    "0  every move is legal",
    "1  a move is illegal (the report names it and shows the position before it)",
    "2  bad usage or bad input: the deal, or a token of the move list, is not readable",
))]
pub struct Args {
    /// The deal file (YAML, or CLIPS facts); `-` reads standard input (then
    /// the move list must be a file).
    file: PathBuf,
    /// The move list: a file, or `-` for standard input. Tokens `F-T/K`,
    /// `F-T` (onto a card) and `deal`, separated by white space; `#` starts
    /// a comment.
    moves: PathBuf,
    /// Print each move for people as it is played.
    #[arg(short, long)]
    verbose: bool,
    /// Print the outcome as JSON.
    #[arg(long)]
    json: bool,
    /// Also write a page that plays the moves (one self-contained HTML
    /// file; up to the first illegal move).
    #[arg(long, value_name = "OUT.html")]
    html: Option<PathBuf>,
    #[arg(long, requires = "html", help = super::output::FORCE_HELP)]
    force: bool,
}

/// Exit 0 when every move is legal, 1 at the first illegal move.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if super::input::is_stdin(&args.file) && super::input::is_stdin(&args.moves) {
        anyhow::bail!("the deal and the move list cannot both be read from standard input");
    }
    if let Some(path) = &args.html {
        super::output::check(path, &[&args.file, &args.moves], args.force)?;
    }
    let deal = super::input::load_deal(&args.file)?;
    let game = Game::new(&deal).with_context(|| super::input::name(&args.file))?;
    let text = read_moves(&args.moves)?;
    let tokens = parse_moves(&text).map_err(|err| {
        anyhow::anyhow!(
            "{}:{}:{}: {err}",
            args.moves.display(),
            err.line,
            err.column
        )
    })?;
    let mut out = std::io::stdout().lock();
    let outcome = replay(&game, &tokens);
    if let Some(path) = &args.html {
        let legal = match &outcome {
            Ok((moves, _)) => moves.clone(),
            Err(err) => replay(&game, &tokens[..err.index - 1])
                .map_or_else(|_| Vec::new(), |(moves, _)| moves),
        };
        let inputs = [args.file.as_path(), args.moves.as_path()];
        super::show::write_replay_page(
            path,
            args.force,
            &inputs,
            &args.file.display().to_string(),
            &game,
            &deal,
            &legal,
            tokens.len(),
        )?;
    }
    match outcome {
        Ok((moves, end)) => {
            if args.json {
                let report = serde_json::json!({
                    "legal": true,
                    "moves": moves.len(),
                    "line": moves.iter().map(Move::to_string).collect::<Vec<_>>(),
                    "won": end.is_won(),
                    "runs_removed": end.runs_removed(),
                    "rows_left": game.rows_left(&end),
                    "face_down_left": end.face_down_total(),
                });
                serde_json::to_writer_pretty(&mut out, &report)?;
                writeln!(out)?;
            } else {
                if args.verbose {
                    print_moves(&mut out, &game, &moves)?;
                }
                match moves.len() {
                    1 => writeln!(out, "the 1 move is legal")?,
                    n => writeln!(out, "all {n} moves are legal")?,
                }
                writeln!(out, "{}", board_after(&game, &deal, &moves))?;
                writeln!(
                    out,
                    "{}",
                    if end.is_won() {
                        "the game is won".to_string()
                    } else {
                        format!(
                            "not won yet: {} removed, {} left, {} face down",
                            spider_analyzer::text::count(end.runs_removed() as u64, "run"),
                            spider_analyzer::text::count(game.rows_left(&end) as u64, "stock row"),
                            spider_analyzer::text::count(end.face_down_total() as u64, "card")
                        )
                    }
                )?;
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(err) => {
            if args.json {
                let report = serde_json::json!({
                    "legal": false,
                    "index": err.index,
                    "token": err.token,
                    "line": err.line,
                    "column": err.column,
                    "reason": err.reason.to_string(),
                });
                serde_json::to_writer_pretty(&mut out, &report)?;
                writeln!(out)?;
            } else {
                writeln!(out, "{}: {err}", args.moves.display())?;
                writeln!(out, "the position before it:")?;
                let legal = replay(&game, &tokens[..err.index - 1])
                    .map_or_else(|_| Vec::new(), |(moves, _)| moves);
                writeln!(out, "{}", board_after(&game, &deal, &legal))?;
            }
            Ok(ExitCode::from(1))
        }
    }
}

/// The table after `moves` from the start, drawn as a player sees it
/// (with the suits of the runs the moves removed).
fn board_after(
    game: &Game,
    deal: &spider_analyzer::deal::Deal,
    moves: &[Move],
) -> spider_analyzer::game::Board {
    let mut removed = deal.removed.clone();
    let mut position = game.start().clone();
    for &mv in moves {
        let after = game.apply(&position, mv).position;
        removed.extend(spider_analyzer::html::play::runs_removed_by(
            game, &position, mv, &after,
        ));
        position = after;
    }
    spider_analyzer::game::Board::of(game, &position, &removed)
}

fn read_moves(path: &PathBuf) -> anyhow::Result<String> {
    let mut text = String::new();
    if path.as_os_str() == "-" {
        std::io::stdin()
            .read_to_string(&mut text)
            .context("cannot read the move list from standard input")?;
    } else {
        text = std::fs::read_to_string(path)
            .with_context(|| format!("{}: cannot read the move list", path.display()))?;
    }
    Ok(text)
}

/// Prints moves numbered, for people, from the game's start.
pub fn print_moves(out: &mut impl Write, game: &Game, moves: &[Move]) -> std::io::Result<()> {
    let mut position = game.start().clone();
    for (index, &mv) in moves.iter().enumerate() {
        writeln!(
            out,
            "{:>4}. {:<8} {}",
            index + 1,
            mv.to_string(),
            game.describe(&position, mv)
        )?;
        position = game.apply(&position, mv).position;
    }
    Ok(())
}
