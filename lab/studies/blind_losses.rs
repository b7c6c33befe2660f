//! Where a blind player loses its games: plays own deals FIRST..=LAST of
//! SUITS suits blind (the default player and settings of `spider batch
//! --hidden`, seed 1, so the games are the study's), and for each game
//! lost finds, with every card known, the first move after which the real
//! position can no longer be won. Positions are solved with the cards
//! known (at most `BUDGET` positions each, default 2,000,000); since a
//! position after a lost one is lost too, a bisection over the moves finds
//! the first lost one. A position the solver leaves undecided counts as
//! lost (so the move found may be early, never late). Prints, per game:
//! the moves played, that first losing move, what it was (a deal or a
//! move turning up a card or not), the stock rows and face-down cards
//! left before it.
//!
//! `CHECK=0` plays HOP without its check of the card to turn up (the
//! player the first study measured).
//!
//! ```text
//! cargo run --release --example blind_losses -- 2 1 20
//! ```
use std::sync::atomic::AtomicBool;

use spider_analyzer::game::{Game, Move, Position};
use spider_analyzer::solve::{Limits, Verdict, analyze_unshortened};
use spider_analyzer::unknown::blind::play_blind;
use spider_analyzer::unknown::referee::Referee;

mod study;

fn main() {
    let [suits, first, last] = study::three_args("blind_losses SUITS FIRST LAST");
    let suits = study::suits(suits);
    let budget: u64 = std::env::var("BUDGET")
        .ok()
        .and_then(|b| b.parse().ok())
        .unwrap_or(2_000_000);
    let cancel = AtomicBool::new(false);
    let (mut lost_by_deal, mut lost_by_reveal, mut lost_quiet, mut never) = (0, 0, 0, 0);
    for number in first..=last {
        let (real, settings) = study::game(suits, number);
        let mut referee = Referee::new(&real).unwrap();
        let mut player = settings.new_player();
        let mut moves: Vec<Move> = Vec::new();
        let game = play_blind(&mut referee, player.as_mut(), 1000, &cancel, &mut |m| {
            moves.push(m.mv)
        })
        .unwrap();
        if game.won {
            println!("deal {number}: won in {} moves", game.moves);
            continue;
        }
        // The real positions along the game.
        let truth = Game::new(referee.start()).unwrap();
        let mut positions: Vec<Position> = vec![truth.start().clone()];
        for &mv in &moves {
            let next = truth.apply(positions.last().unwrap(), mv).position;
            positions.push(next);
        }
        let winnable = |at: usize| -> Option<bool> {
            let deal = truth.deal_at(&positions[at]).unwrap();
            let limits = Limits {
                max_positions: Some(budget),
                shorten_positions: 0,
                ..Limits::default()
            };
            let analysis = analyze_unshortened(&deal, &limits, &cancel).unwrap();
            match analysis.verdict {
                Verdict::Winnable => Some(true),
                Verdict::Unwinnable => Some(false),
                Verdict::Undecided => None,
            }
        };
        if winnable(0) != Some(true) {
            never += 1;
            println!("deal {number}: lost; the start not won within the budget");
            continue;
        }
        // Invariant: positions[low] winnable, positions[high] not (or undecided).
        let (mut low, mut high) = (0, positions.len() - 1);
        let mut undecided = false;
        while high - low > 1 {
            let mid = (low + high) / 2;
            match winnable(mid) {
                Some(true) => low = mid,
                Some(false) => high = mid,
                None => {
                    undecided = true;
                    high = mid
                }
            }
        }
        let mv = moves[low];
        let before = &positions[low];
        let kind = if mv == Move::Deal {
            lost_by_deal += 1;
            "a deal"
        } else if positions[high].face_down_total() < before.face_down_total() {
            lost_by_reveal += 1;
            "a move turning up a card"
        } else {
            lost_quiet += 1;
            "a move turning up nothing"
        };
        println!(
            "deal {number}: lost after {} moves; the last winnable position is after move {low}, move {} ({mv}, {kind}) loses it{}; before it {} stock rows left, {} cards face down, {} runs removed",
            game.moves,
            low + 1,
            if undecided {
                " (or a later one: a position after it was undecided, counted as lost)"
            } else {
                ""
            },
            truth.rows_left(before),
            before.face_down_total(),
            before.runs_removed()
        );
    }
    println!(
        "lost by a deal {lost_by_deal}, by a move turning up a card {lost_by_reveal}, by a move turning up nothing {lost_quiet}; start not won {never}"
    );
}
