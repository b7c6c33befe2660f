//! The lines of blind decisions and what each is worth in rollouts: the
//! data to fit the lookahead's value to the choice between the lines of
//! one decision, not to the outcome of the game.
//!
//! For each own deal FIRST..=LAST of SUITS suits, the study's game is
//! played (the default player for the suits; `PLAYER=` names another).
//! At every `EVERY`-th decision of it (the start, and each position after
//! a move that turned up cards; default 8, the first chosen by the deal's
//! number), the lookahead's best `CANDIDATES` lines to a card (default 4,
//! within the player's budget of positions) are each played out
//! `ROLLOUTS` times (default 6) against the same completions of the cards
//! not seen: the line, then the lookahead player within `BASE` positions
//! (default 5,000) to the end of the game. One line is printed per line
//! and completion: the deal, the decision's move number, the line's rank
//! (0: the lookahead's choice), the completion, whether the rollout won,
//! the cards face down and the runs removed at its end, the lookahead's
//! score of the line (value and the worth of the card it turns up), that
//! worth alone, then the counts of `lookahead::features` of the position
//! the line reaches, as the player sees it.
//!
//! ```text
//! cargo run --release --example line_data -- 2 7001 7100 > lines.tsv
//! ```
use std::collections::HashSet;
use std::sync::atomic::AtomicBool;

use rayon::prelude::*;
use spider_analyzer::deal::numbered::SplitMix64;
use spider_analyzer::game::Game;
use spider_analyzer::unknown::blind::play_hidden;
use spider_analyzer::unknown::lookahead::{features, lines, reveal_bonus, unseen_ranks, value};
use spider_analyzer::unknown::referee::Referee;
use spider_analyzer::unknown::rollout::play_out;
use spider_analyzer::unknown::sample::draw;

mod study;

fn main() {
    let [suits, first, last] = study::three_args("line_data SUITS FIRST LAST");
    let every = study::setting("EVERY", 8).max(1);
    let candidates = study::setting("CANDIDATES", 4);
    let rollouts = study::setting("ROLLOUTS", 6);
    let base = study::setting("BASE", 5_000);
    let cancel = AtomicBool::new(false);
    for number in first..=last {
        let (real, settings) = study::game(study::suits(suits), number);
        let game = play_hidden(&real, &settings, &cancel).unwrap();
        let mut referee = Referee::new(&real).unwrap();
        let mut rng = SplitMix64::new(number ^ 0x5EED_11E5);
        let mut decision = number as usize;
        let mut at = 0usize;
        let mut fresh = true;
        let mut log = game.log.iter();
        loop {
            let view = referee.view().clone();
            if fresh && decision.is_multiple_of(every) && view.hidden_count() > 0 {
                let masked = view.deal();
                let found = lines(&masked, settings.lookahead, &HashSet::new()).unwrap();
                let mut leaves = found.leaves;
                leaves.truncate(candidates);
                if leaves.len() >= 2 && !leaves[0].moves.is_empty() {
                    let unseen = view.unseen();
                    let fills: Vec<_> = (0..rollouts).map(|_| draw(&unseen, &mut rng)).collect();
                    let shown = Game::new(&masked).unwrap();
                    let ranks = unseen_ranks(shown.start());
                    let jobs: Vec<(usize, usize)> = (0..leaves.len())
                        .flat_map(|c| (0..rollouts).map(move |s| (c, s)))
                        .collect();
                    let ends: Vec<_> = jobs
                        .par_iter()
                        .map(|&(c, s)| {
                            let deal = masked.with_unknowns_filled(&fills[s]).unwrap();
                            play_out(&deal, &leaves[c].moves, usize::MAX, base, &cancel).unwrap()
                        })
                        .collect();
                    for (c, leaf) in leaves.iter().enumerate() {
                        let mut reached = shown.start().clone();
                        for &mv in &leaf.moves {
                            reached = shown.apply(&reached, mv).position;
                        }
                        let bonus = reveal_bonus(&reached, &ranks);
                        assert_eq!(leaf.value, value(&reached, masked.suits) + bonus);
                        let counts: Vec<String> =
                            features(&reached).iter().map(|c| c.to_string()).collect();
                        for s in 0..rollouts {
                            let end = &ends[c * rollouts + s];
                            println!(
                                "{number}\t{at}\t{c}\t{s}\t{}\t{}\t{}\t{}\t{bonus}\t{}",
                                u8::from(end.won),
                                end.position.face_down_total(),
                                end.position.runs_removed(),
                                leaf.value,
                                counts.join("\t")
                            );
                        }
                    }
                }
            }
            let Some(played) = log.next() else {
                break;
            };
            referee.play(played.mv).unwrap();
            at += 1;
            fresh = !played.turned.is_empty();
            if fresh {
                decision += 1;
            }
        }
        eprintln!("deal {number}: won {}", game.won);
    }
}
