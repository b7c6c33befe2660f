//! A ladder of mid-game positions, made like the bench corpus in
//! `benches/ladder/` but from other games, to check that the solver's
//! figures hold on positions it was never tried on.
//!
//! Each PySol 4-suit game from FIRST to LAST is played from the fresh deal
//! by a careless player: after each move the deal one time in sixteen (and
//! whenever no other move is left), else a legal move at random, one that
//! turns a card up two times in three when there is one.
//! The position right after the 2nd, 3rd, 4th and 5th deal (3, 2, 1 and 0
//! stock rows left) is written as `OUT/rR-gN.yaml`, with the line that
//! leads to it from the fresh deal in its header. Whether a position can
//! still be won is not known: that is for `spider analyze` to say.
//!
//! ```text
//! cargo run --release --example ladder -- FIRST LAST OUT [SEED]
//! ```
use std::fmt::Write as _;
use std::path::PathBuf;

use spider_analyzer::deal::{Rules, pysol, yaml};
use spider_analyzer::game::{Game, Move};

/// After each move, the deal one time in this many.
const DEAL_ODDS: usize = 16;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let number = |at: usize, what: &str| -> u128 {
        args.get(at)
            .and_then(|text| text.parse().ok())
            .unwrap_or_else(|| fail(&format!("{what} must be a whole number")))
    };
    if args.len() < 4 {
        fail("expected FIRST LAST OUT [SEED]");
    }
    let (first, last) = (number(1, "FIRST"), number(2, "LAST"));
    let out = PathBuf::from(&args[3]);
    let seed = if args.len() > 4 {
        number(4, "SEED") as u64
    } else {
        1
    };
    if let Err(error) = std::fs::create_dir_all(&out) {
        fail(&format!("{}: {error}", out.display()));
    }
    for number in first..=last {
        let deal = pysol::deal(number, Rules::Standard)
            .unwrap_or_else(|error| fail(&format!("game {number}: {error}")));
        let game = Game::new(&deal).expect("a PySol deal has the shape of a deal");
        // xorshift, seeded by the game and SEED (never zero).
        let mut state = (number as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ seed | 1;
        let mut next = |bound: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % bound as u64) as usize
        };
        let mut position = game.start().clone();
        let mut line: Vec<String> = Vec::new();
        let mut played = 0;
        let mut moves = Vec::new();
        // At most 400 moves in all: a careless player stops long before.
        while played < 400 && game.rows_left(&position) > 0 {
            moves.clear();
            game.moves(&position, &mut moves);
            let shifts: Vec<Move> = moves.iter().copied().filter(|&m| m != Move::Deal).collect();
            let may_deal = moves.contains(&Move::Deal);
            let reveals: Vec<Move> = shifts
                .iter()
                .copied()
                .filter(|&m| {
                    game.apply(&position, m).position.face_down_total() < position.face_down_total()
                })
                .collect();
            let mv = match (shifts.is_empty(), may_deal) {
                (true, false) => break,
                (true, true) => Move::Deal,
                (false, true) if next(DEAL_ODDS) == 0 => Move::Deal,
                (false, _) if !reveals.is_empty() && next(3) != 0 => reveals[next(reveals.len())],
                (false, _) => shifts[next(shifts.len())],
            };
            line.push(mv.to_string());
            position = game.apply(&position, mv).position;
            played += 1;
            let rows = game.rows_left(&position);
            if mv == Move::Deal && rows <= 3 {
                let Some(snapshot) = game.deal_at(&position) else {
                    continue;
                };
                let mut text = String::new();
                let _ = writeln!(
                    text,
                    "# A mid-game position: PySol game {number}, {rows} stock rows left, {played} moves played ({} deals), {} runs removed, {} cards face down",
                    game.stock_rows() - rows,
                    position.runs_removed(),
                    position.face_down_total()
                );
                let _ = writeln!(
                    text,
                    "# made by `cargo run --example ladder -- {number} {number} OUT {seed}`; line from the fresh deal:"
                );
                for chunk in line.chunks(20) {
                    let _ = writeln!(text, "#   {}", chunk.join(" "));
                }
                text.push_str(&yaml::to_string(&snapshot));
                let file = out.join(format!("r{rows}-g{number}.yaml"));
                if let Err(error) = std::fs::write(&file, text) {
                    fail(&format!("{}: {error}", file.display()));
                }
            }
        }
    }
}

/// Says what is wrong and exits with status 2.
fn fail(message: &str) -> ! {
    eprintln!(
        "ladder: {message}\nusage: cargo run --release --example ladder -- FIRST LAST OUT [SEED]"
    );
    std::process::exit(2);
}
