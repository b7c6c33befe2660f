//! A position with its suits merged: the 2-suit games that pair the four
//! suits (three ways: ♠♣ ♥♦, ♠♥ ♦♣, ♠♦ ♥♣) and the 1-suit game, each
//! under the relaxed rules. Written as deal files, for `spider analyze`.
//!
//! ```text
//! cargo run --release --example merged_suits -- OUT FILE...
//! for f in OUT/*.yaml; do spider analyze $f -q -j 1 --time-limit 20; done
//! ```
//!
//! Why: merging suits is an *abstraction* of the game (planning's dead-end
//! pattern databases search such smaller games to prove the real one
//! lost). Every real move is a move of the merged game (a run of one suit
//! is a run of its merged suit, dealing onto an empty pile is allowed in
//! the relaxed rules). But the tool's rules remove a completed run at
//! once, a completed run of a merged suit may mix two real suits, and
//! removing a run at once can lose a win: so a merged `unwinnable` is a
//! measurement, not a proof. A merged `winnable` says the abstraction
//! cannot prove the real position lost. The figures, and a position where
//! removing a run at once loses the win, are in lab/notes/proofs.md ("Nor do
//! the games with suits merged prove them lost").
//!
//! Each FILE is written as `OUT/NAME-1.yaml` (one suit) and
//! `OUT/NAME-sc.yaml`, `OUT/NAME-sh.yaml`, `OUT/NAME-sd.yaml` (spades
//! paired with clubs, hearts or diamonds).
use std::path::Path;

use spider_analyzer::cards::{Card, CardSlot, Suit, SuitCount};
use spider_analyzer::deal::files::save;
use spider_analyzer::deal::{Deal, Rules, load};

/// The abstractions written: the name's suffix, the suit count, and where
/// each suit (S H D C) goes.
const MERGES: [(&str, SuitCount, [Suit; 4]); 4] = {
    use Suit::{Hearts as H, Spades as S};
    [
        ("1", SuitCount::One, [S, S, S, S]),
        ("sc", SuitCount::Two, [S, H, H, S]),
        ("sh", SuitCount::Two, [S, S, H, H]),
        ("sd", SuitCount::Two, [S, H, S, H]),
    ]
};

fn merged(deal: &Deal, suits: SuitCount, to: [Suit; 4]) -> Deal {
    let card = |card: Card| Card::new(card.rank(), to[card.suit() as usize]);
    let slot = |slot: &CardSlot| match *slot {
        CardSlot::Known(c) => CardSlot::Known(card(c)),
        CardSlot::Unknown => CardSlot::Unknown,
    };
    let mut out = deal.clone();
    out.suits = suits;
    out.rules = Rules::Relaxed;
    for pile in &mut out.piles {
        pile.face_down = pile.face_down.iter().map(slot).collect();
        pile.face_up = pile.face_up.iter().map(|&c| card(c)).collect();
    }
    for row in &mut out.stock {
        *row = row.map(|s| slot(&s));
    }
    out.removed = out.removed.iter().map(|&s| to[s as usize]).collect();
    out
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: merged_suits OUT FILE...";
    let out = Path::new(args.get(1).expect(usage));
    std::fs::create_dir_all(out).unwrap();
    for file in &args[2..] {
        let deal = load(file.as_ref()).unwrap();
        assert_eq!(
            deal.suits,
            SuitCount::Four,
            "{file}: merging needs a 4-suit deal"
        );
        let name = Path::new(file).file_stem().unwrap().to_string_lossy();
        for (suffix, suits, to) in MERGES {
            let merged = merged(&deal, suits, to);
            merged.validate().unwrap();
            let path = out.join(format!("{name}-{suffix}.yaml"));
            save(&merged, &path, None).unwrap();
            println!("{}", path.display());
        }
    }
}
