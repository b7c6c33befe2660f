//! The solver's verdicts on positions whose answers are known, and against a
//! naive exhaustive search written separately.

use std::collections::{HashSet, VecDeque};
use std::sync::atomic::AtomicBool;

use spider_analyzer::cards::{Card, CardSlot, Suit, SuitCount};
use spider_analyzer::deal::{Deal, Pile, Rules, StockRow};
use spider_analyzer::game::{Game, Move, compact_line};
use spider_analyzer::solve::{Limits, StopReason, Verdict, analyze, verify};

fn cards(text: &str) -> Vec<Card> {
    text.split_whitespace().map(|t| t.parse().unwrap()).collect()
}

fn slots(text: &str) -> Vec<CardSlot> {
    text.split_whitespace().map(|t| t.parse().unwrap()).collect()
}

/// A one-suit position with seven runs removed: the thirteen spades left
/// lie on the piles given (face-down, face-up), the rest are empty.
fn endgame(piles: &[(&str, &str)], stock: &[&str], rules: Rules) -> Deal {
    let mut all: Vec<Pile> = piles
        .iter()
        .map(|(down, up)| Pile {
            face_down: slots(down),
            face_up: cards(up),
        })
        .collect();
    all.resize(10, Pile::default());
    Deal {
        suits: SuitCount::One,
        rules,
        piles: all,
        stock: stock
            .iter()
            .map(|row| -> StockRow { slots(row).try_into().unwrap() })
            .collect(),
        removed: vec![Suit::Spades; 7],
    }
}

fn decide(deal: &Deal) -> spider_analyzer::solve::Analysis {
    analyze(deal, &Limits::default(), &AtomicBool::new(false)).unwrap()
}

#[test]
fn one_move_from_the_win() {
    let deal = endgame(&[("", "KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S"), ("", "AS")], &[], Rules::Standard);
    let analysis = decide(&deal);
    assert_eq!(analysis.verdict, Verdict::Winnable);
    assert_eq!(compact_line(analysis.line.as_ref().unwrap()), "2-1/1");
}

#[test]
fn won_only_through_an_empty_pile() {
    // The 2S lies under the K..3 run: the run must go to an empty pile
    // before the 2S and the AS can join it.
    let deal = endgame(&[("", "2S KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S"), ("", "AS")], &[], Rules::Standard);
    let analysis = decide(&deal);
    assert_eq!(analysis.verdict, Verdict::Winnable);
    let line = analysis.line.unwrap();
    let game = Game::new(&deal).unwrap();
    let mut position = game.start().clone();
    let mut used_empty = false;
    for &mv in &line {
        if let Move::Shift { to, .. } = mv {
            used_empty |= position.is_empty_pile(to as usize);
        }
        position = game.apply(&position, mv).position;
    }
    assert!(used_empty, "{}", compact_line(&line));
    assert!(position.is_won());
}

#[test]
fn a_dead_position_is_unwinnable() {
    // Two suits, six runs removed: 26 cards, every top card an odd rank, no
    // empty pile, no stock: no move at all.
    let mut deal = endgame(
        &[
            ("2S 4S 6S", "KS"),
            ("8S 10S QS", "JS"),
            ("2H 4H 6H", "9S"),
            ("8H 10H QH", "7S"),
            ("AS", "5S"),
            ("", "3S"),
            ("", "KH"),
            ("", "JH"),
            ("AH", "9H"),
            ("3H 5H", "7H"),
        ],
        &[],
        Rules::Standard,
    );
    deal.suits = SuitCount::Two;
    deal.removed = vec![Suit::Spades, Suit::Spades, Suit::Spades, Suit::Hearts, Suit::Hearts, Suit::Hearts];
    let analysis = decide(&deal);
    assert_eq!(analysis.verdict, Verdict::Unwinnable);
    assert_eq!(analysis.positions, 1);
}

#[test]
fn winnable_under_relaxed_rules_but_not_standard() {
    // Three cards on the table, seven empty piles, the other ten spades in
    // the stock: under standard rules the row can never be dealt.
    let piles = [("", "KS"), ("", "QS"), ("", "JS")];
    let stock = ["10S 9S 8S 7S 6S 5S 4S 3S 2S AS"];
    let standard = decide(&endgame(&piles, &stock, Rules::Standard));
    assert_eq!(standard.verdict, Verdict::Unwinnable);
    let relaxed_deal = endgame(&piles, &stock, Rules::Relaxed);
    let relaxed = decide(&relaxed_deal);
    assert_eq!(relaxed.verdict, Verdict::Winnable);
    let line = relaxed.line.unwrap();
    assert!(line.contains(&Move::Deal));
    verify(&Game::new(&relaxed_deal).unwrap(), &line).unwrap();
}

#[test]
fn unknown_cards_leave_the_answer_open_unless_a_win_avoids_them() {
    // The win needs the face-down card under the AS: unknown, so undecided.
    let blocked = endgame(&[("", "KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S"), ("XX", "AS")], &[], Rules::Standard);
    let analysis = decide(&blocked);
    assert_eq!(analysis.verdict, Verdict::Undecided);
    assert_eq!(analysis.stopped_by, Some(StopReason::UnknownCards));
    assert_eq!(analysis.reveals.len(), 1);
    // Here the win does not touch the unknown card.
    let open = endgame(
        &[("", "KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S"), ("", "AS"), ("XX", "2S")],
        &[],
        Rules::Standard,
    );
    assert_eq!(decide(&open).verdict, Verdict::Winnable);
}

#[test]
fn limits_stop_the_search_with_a_reason() {
    let deal = endgame(&[("", "2S KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S"), ("", "AS")], &[], Rules::Standard);
    let limits = Limits {
        max_positions: Some(3),
        ..Limits::default()
    };
    let analysis = analyze(&deal, &limits, &AtomicBool::new(false)).unwrap();
    assert_eq!(analysis.verdict, Verdict::Undecided);
    assert_eq!(analysis.stopped_by, Some(StopReason::Positions));
    let cancelled = analyze(&deal, &Limits::default(), &AtomicBool::new(true)).unwrap();
    // A cancel flag is read every few thousand positions: this small search
    // may finish first, but it never claims a loss.
    assert_ne!(cancelled.verdict, Verdict::Unwinnable);
}

/// Whether a win is reachable, by plain breadth-first search over whole
/// positions with every legal move: no probes, no heuristic, no
/// fingerprints. `None` when the space is larger than `limit`.
fn naive_winnable(deal: &Deal, limit: usize) -> Option<bool> {
    let game = Game::new(deal).unwrap();
    let mut seen = HashSet::new();
    let mut queue = VecDeque::new();
    seen.insert(game.start().clone());
    queue.push_back(game.start().clone());
    let mut moves = Vec::new();
    while let Some(position) = queue.pop_front() {
        if position.is_won() {
            return Some(true);
        }
        moves.clear();
        game.moves(&position, &mut moves);
        for &mv in &moves {
            let next = game.apply(&position, mv).position;
            if seen.insert(next.clone()) {
                if seen.len() > limit {
                    return None;
                }
                queue.push_back(next);
            }
        }
    }
    Some(false)
}

/// A random small consistent position: `runs_left` runs still to build
/// (the others removed), spread over the piles with some face-down cards,
/// and with a stock row when there are enough cards.
fn small_position(seed: u64, suits: SuitCount, runs_left: usize, with_stock: bool, rules: Rules) -> Deal {
    let mut state = seed | 1;
    let mut next = |bound: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % bound as u64) as usize
    };
    let in_play = suits.suits();
    let mut runs: Vec<Suit> = (0..8).map(|i| in_play[i % in_play.len()]).collect();
    for i in (1..runs.len()).rev() {
        let j = next(i + 1);
        runs.swap(i, j);
    }
    let removed = runs.split_off(runs_left);
    let mut deck: Vec<Card> = runs
        .iter()
        .flat_map(|&suit| (1..=13).map(move |rank| Card::new(rank, suit)))
        .collect();
    for i in (1..deck.len()).rev() {
        let j = next(i + 1);
        deck.swap(i, j);
    }
    let stock = if with_stock && deck.len() >= 20 {
        let row: StockRow = std::array::from_fn(|i| CardSlot::Known(deck[i]));
        deck.drain(..10);
        vec![row]
    } else {
        Vec::new()
    };
    let mut piles = vec![Pile::default(); 10];
    for card in deck {
        let pile = &mut piles[next(10)];
        // Cards already face up may be turned down beneath a new one.
        if !pile.face_up.is_empty() && next(3) == 0 {
            let under = pile.face_up.pop().unwrap();
            pile.face_down.push(CardSlot::Known(under));
        }
        pile.face_up.push(card);
    }
    Deal {
        suits,
        rules,
        piles,
        stock,
        removed,
    }
}

/// On small positions the solver agrees with the naive search, and every
/// line it gives replays to a win. Both searches are bounded; most cases
/// must be decided by both, or the test proves nothing.
#[test]
fn the_solver_agrees_with_a_naive_search() {
    let limits = Limits {
        max_positions: Some(400_000),
        ..Limits::default()
    };
    let (mut compared, mut winnable, mut cases) = (0, 0, 0);
    for seed in 1..=120u64 {
        let suits = if seed % 2 == 0 { SuitCount::Two } else { SuitCount::One };
        let rules = if seed % 3 == 0 { Rules::Relaxed } else { Rules::Standard };
        let runs_left = 1 + (seed % 5 == 0) as usize;
        let deal = small_position(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15), suits, runs_left, seed % 4 < 2, rules);
        cases += 1;
        let Some(expected) = naive_winnable(&deal, 200_000) else {
            continue;
        };
        let analysis = analyze(&deal, &limits, &AtomicBool::new(false)).unwrap();
        if analysis.verdict == Verdict::Undecided {
            continue;
        }
        compared += 1;
        let expected_verdict = if expected { Verdict::Winnable } else { Verdict::Unwinnable };
        assert_eq!(analysis.verdict, expected_verdict, "seed {seed}:\n{deal:?}");
        if let Some(line) = &analysis.line {
            winnable += 1;
            verify(&Game::new(&deal).unwrap(), line).unwrap();
        }
    }
    assert!(compared * 10 >= cases * 8, "only {compared} of {cases} cases compared");
    assert!(winnable > 0 && winnable < compared, "{winnable} winnable of {compared}: both verdicts must occur");
}
