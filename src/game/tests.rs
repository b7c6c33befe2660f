//! The rules, one at a time, on hand-made positions.

use proptest::prelude::*;

use super::*;
use crate::cards::{Card, CardSlot, SuitCount};
use crate::deal::{Deal, Pile, Place, Rules, StockRow};

fn slots(text: &str) -> Vec<CardSlot> {
    text.split_whitespace()
        .map(|t| t.parse().unwrap())
        .collect()
}

fn cards(text: &str) -> Vec<Card> {
    text.split_whitespace()
        .map(|t| t.parse().unwrap())
        .collect()
}

/// A deal from `(face-down, face-up)` texts for piles 1.. (missing piles
/// are empty) and stock rows.
fn table(piles: &[(&str, &str)], stock: &[&str], rules: Rules) -> Deal {
    let mut all: Vec<Pile> = piles
        .iter()
        .map(|(down, up)| Pile {
            face_down: slots(down),
            face_up: cards(up),
        })
        .collect();
    all.resize(10, Pile::default());
    Deal {
        suits: SuitCount::Four,
        rules,
        piles: all,
        stock: stock
            .iter()
            .map(|row| -> StockRow { slots(row).try_into().unwrap() })
            .collect(),
        removed: Vec::new(),
        moves_played: 0,
    }
}

fn game(piles: &[(&str, &str)], stock: &[&str]) -> Game {
    Game::new(&table(piles, stock, Rules::Standard)).unwrap()
}

fn all_moves(game: &Game, position: &Position) -> Vec<String> {
    let mut out = Vec::new();
    game.moves(position, &mut out);
    out.iter().map(Move::to_string).collect()
}

fn pile_text(position: &Position, pile: usize) -> String {
    position
        .face_up(pile)
        .map(|c| c.map_or("??".into(), |c| c.to_string()))
        .collect::<Vec<_>>()
        .join(" ")
}

fn shift(from: u8, to: u8, count: u8) -> Move {
    Move::Shift {
        from: from - 1,
        to: to - 1,
        count,
    }
}

/// Checks that [`Game::shifted_piles`] gives exactly the piles, runs
/// removed, face-down cards and reveal of the position `apply` builds.
fn assert_shifted_piles_match(game: &Game, position: &Position, mv: Move) {
    let Move::Shift { from, to, count } = mv else {
        return;
    };
    let (from, to) = (from as usize, to as usize);
    let step = game.apply(position, mv);
    let shifted = game.shifted_piles(position, from, to, count as usize);
    for (which, pile) in [from, to].into_iter().enumerate() {
        assert_eq!(
            shifted.face_down(which),
            step.position.face_down_count(pile),
            "{mv}"
        );
        assert!(
            shifted.face_up(which).eq(step.position.face_up(pile)),
            "{mv}"
        );
    }
    assert_eq!(shifted.runs_removed(), step.position.runs_removed(), "{mv}");
    assert_eq!(
        shifted.face_down_total(),
        step.position.face_down_total(),
        "{mv}"
    );
    assert_eq!(shifted.is_won(), step.position.is_won(), "{mv}");
    assert_eq!(shifted.turns_up_unknown(), !step.reveals.is_empty(), "{mv}");
}

/// The piles a shift leaves, read without building the successor, are
/// those `apply` builds: a card turned up, a run completed on the target
/// (and the card under it turned up), a complete run left under the cards
/// moved (a position given may hold one), an unknown card turned up.
#[test]
fn shifted_piles_are_the_piles_apply_builds() {
    let g = game(
        &[
            ("9D", "KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S"),
            ("", "AS"),
            ("4C 5D", "7H"),
            ("", "8S"),
            ("XX", "KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H AH 6C"),
            ("XX", "7D"),
        ],
        &[],
    );
    let mut moves = Vec::new();
    g.moves(g.start(), &mut moves);
    assert!(moves.len() > 5);
    for &mv in &moves {
        assert_shifted_piles_match(&g, g.start(), mv);
    }
    // The cases above, each checked by name.
    let complete = g.shifted_piles(g.start(), 1, 0, 1);
    assert_eq!((complete.runs_removed(), complete.face_down(1)), (1, 0));
    let buried = g.shifted_piles(g.start(), 4, 5, 1);
    assert_eq!(buried.runs_removed(), 1);
    assert!(buried.turns_up_unknown());
}

const FULL_ROW: &str = "AS AS AS AS AS AS AS AS AS AS";

#[test]
fn runs_move_whole_or_in_part_onto_one_rank_higher_of_any_suit() {
    let g = game(
        &[
            ("", "9H 8H 7H"),
            ("", "10S"),
            ("", "8C"),
            ("", "KD"),
            ("", "KD"),
            ("", "KD"),
            ("", "KD"),
            ("", "KD"),
            ("", "KD"),
            ("", "KD"),
        ],
        &[],
    );
    // 9H 8H 7H onto 10S; 7H onto 8C; nothing else fits (no empty pile, no stock).
    assert_eq!(all_moves(&g, g.start()), ["1-3/1", "1-2/3"]);
}

#[test]
fn a_run_breaks_at_a_change_of_suit_or_a_gap() {
    let g = game(
        &[("", "9H 8S"), ("", "9D"), ("", "10C 8D 7D"), ("", "9S")],
        &[],
    );
    assert_eq!(g.start().run_length(0), 1);
    assert_eq!(g.start().run_length(2), 2);
    let moves = all_moves(&g, g.start());
    // 8S onto 9D or 9S; 8D 7D onto 9D or 9S; 9S onto 10C? No: 10C is covered.
    // Empty piles 5-10 take any run, whole or in part.
    assert!(moves.contains(&"1-2/1".to_string()));
    assert!(moves.contains(&"3-4/2".to_string()));
    assert!(!moves.contains(&"1-2/2".to_string()), "9H 8S is not a run");
    assert!(!moves.contains(&"3-2/3".to_string()), "10C 8D is not a run");
    for count in 1..=2 {
        assert!(moves.contains(&format!("3-5/{count}")));
    }
    // Standard rules: no deal while a pile is empty (and there is no stock).
    assert!(!moves.contains(&"deal".to_string()));
}

#[test]
fn links_count_run_pairs_and_cards_out_of_order() {
    // KS QS: a run pair; QS JH: one rank lower, another suit (neither);
    // JH 10H: a run pair; 10H 3C: out of order. 9H 8S: neither; 10C 8D: out
    // of order; 8D 7D: a run pair.
    let g = game(
        &[("", "KS QS JH 10H 3C"), ("", "9H 8S"), ("", "10C 8D 7D")],
        &[],
    );
    let links: Vec<(u32, u32)> = (0..3).map(|pile| g.start().pile_links(pile)).collect();
    assert_eq!(links, [(2, 1), (0, 0), (1, 1)]);
    assert_eq!(g.start().run_lengths()[..3], [1, 1, 2]);
}

#[test]
fn uncovering_a_face_down_card_turns_it_up_in_the_same_move() {
    let g = game(&[("4C 5D", "7H"), ("", "8S")], &[]);
    let step = g.apply(g.start(), shift(1, 2, 1));
    assert_eq!(pile_text(&step.position, 0), "5D");
    assert_eq!(step.position.face_down_count(0), 1);
    assert_eq!(pile_text(&step.position, 1), "8S 7H");
    assert!(step.reveals.is_empty());
}

#[test]
fn a_completed_run_is_removed_in_the_move_that_completes_it() {
    let g = game(
        &[("9D", "KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S"), ("", "AS")],
        &[],
    );
    let step = g.apply(g.start(), shift(2, 1, 1));
    assert_eq!(step.position.runs_removed(), 1);
    // Removal uncovered the 9D, which turned up at once.
    assert_eq!(pile_text(&step.position, 0), "9D");
    assert_eq!(step.position.face_down_count(0), 0);
    assert!(step.position.is_empty_pile(1));
}

#[test]
fn a_deal_can_complete_a_run() {
    let mut piles = vec![("", "KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H")];
    piles.extend(std::iter::repeat_n(("", "5C"), 9));
    let g = game(&piles, &["AH 2C 2C 2C 2C 2C 2C 2C 2C 2C"]);
    assert_eq!(all_moves(&g, g.start()).last().unwrap(), "deal");
    let step = g.apply(g.start(), Move::Deal);
    assert_eq!(step.position.runs_removed(), 1);
    assert!(step.position.is_empty_pile(0));
    assert_eq!(pile_text(&step.position, 1), "5C 2C");
    assert_eq!(g.rows_left(&step.position), 0);
}

#[test]
fn no_deal_onto_an_empty_pile_under_standard_rules_but_yes_under_relaxed() {
    let piles = [("", "5C"); 9];
    let standard = Game::new(&table(&piles, &[FULL_ROW], Rules::Standard)).unwrap();
    assert!(!all_moves(&standard, standard.start()).contains(&"deal".to_string()));
    assert_eq!(
        standard.check(standard.start(), Move::Deal),
        Err(IllegalMove::DealOntoEmpty(10))
    );
    let relaxed = Game::new(&table(&piles, &[FULL_ROW], Rules::Relaxed)).unwrap();
    assert!(all_moves(&relaxed, relaxed.start()).contains(&"deal".to_string()));
    let step = relaxed.apply(relaxed.start(), Move::Deal);
    assert_eq!(pile_text(&step.position, 9), "AS");
    assert_eq!(
        relaxed.check(&step.position, Move::Deal),
        Err(IllegalMove::StockEmpty)
    );
}

#[test]
fn every_run_goes_to_every_empty_pile_whole_or_in_part() {
    let mut piles = vec![("", "6D 5D 4D")];
    piles.extend(std::iter::repeat_n(("", "KC"), 7));
    let g = game(&piles, &[]);
    // Piles 9 and 10 are empty; the kings may go there too.
    let from_first: Vec<String> = all_moves(&g, g.start())
        .into_iter()
        .filter(|m| m.starts_with("1-"))
        .collect();
    assert_eq!(
        from_first,
        ["1-9/1", "1-10/1", "1-9/2", "1-10/2", "1-9/3", "1-10/3"]
    );
}

#[test]
fn turning_up_an_unknown_card_is_a_reveal() {
    let g = game(&[("XX 3C", "7H"), ("XX", "8H")], &[]);
    // 7H onto 8H turns up the 3C: no reveal.
    let first = g.apply(g.start(), shift(1, 2, 1));
    assert!(first.reveals.is_empty());
    // 8H 7H onto an empty pile turns up pile 2's XX.
    let second = g.apply(&first.position, shift(2, 3, 2));
    assert!(second.position.is_reveal());
    assert_eq!(
        g.revealed_places(&second),
        [Place::FaceDown { pile: 2, index: 1 }]
    );
    assert!(all_moves(&g, &second.position).is_empty());
    assert_eq!(
        g.check(&second.position, Move::Deal),
        Err(IllegalMove::BeyondReveal)
    );
}

#[test]
fn dealing_an_unknown_stock_card_is_a_reveal() {
    let piles = [("", "5C"); 10];
    let g = game(&piles, &["AS AS XX AS AS AS AS AS AS XX"]);
    let step = g.apply(g.start(), Move::Deal);
    assert!(step.position.is_reveal());
    assert_eq!(
        g.revealed_places(&step),
        [
            Place::Stock { row: 1, pile: 3 },
            Place::Stock { row: 1, pile: 10 }
        ]
    );
}

#[test]
fn the_game_is_won_when_eight_runs_are_removed() {
    let mut deal = table(
        &[("", "KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S"), ("", "AS")],
        &[],
        Rules::Standard,
    );
    deal.suits = SuitCount::One;
    deal.removed = vec![crate::cards::Suit::Spades; 7];
    let g = Game::new(&deal).unwrap();
    assert!(!g.start().is_won());
    let step = g.apply(g.start(), shift(2, 1, 1));
    assert!(step.position.is_won());
    assert!(all_moves(&g, &step.position).is_empty());
    assert_eq!(
        g.check(&step.position, Move::Deal),
        Err(IllegalMove::GameOver)
    );
}

#[test]
fn illegal_moves_say_why() {
    let g = game(&[("", "9H 8S"), ("", "9D"), ("", "JC")], &[]);
    let start = g.start();
    assert!(matches!(
        g.check(start, shift(1, 2, 2)),
        Err(IllegalMove::NotARun {
            pile: 1,
            count: 2,
            run: 1
        })
    ));
    assert!(matches!(
        g.check(start, shift(1, 3, 1)),
        Err(IllegalMove::DoesNotFit { .. })
    ));
    assert_eq!(
        g.check(start, shift(5, 3, 1)),
        Err(IllegalMove::EmptySource(5))
    );
    assert_eq!(g.check(start, shift(1, 1, 1)), Err(IllegalMove::SamePile));
    assert_eq!(g.check(start, Move::Deal), Err(IllegalMove::StockEmpty));
    assert_eq!(g.check(start, shift(1, 2, 1)), Ok(()));
}

#[test]
fn move_lists_parse_with_positions_and_comments() {
    let tokens = parse_moves("1-2/3 deal # a comment 9-9\n  10-4  DEAL\n").unwrap();
    let texts: Vec<_> = tokens
        .iter()
        .map(|t| (t.text.as_str(), t.line, t.column))
        .collect();
    assert_eq!(
        texts,
        [
            ("1-2/3", 1, 1),
            ("deal", 1, 7),
            ("10-4", 2, 3),
            ("DEAL", 2, 9)
        ]
    );
    assert_eq!(
        tokens[2].step,
        WrittenMove::Shift {
            from: 9,
            to: 3,
            count: None
        }
    );
    for bad in ["11-2", "0-1", "1-2/0", "1-2/x", "1_2", "dealt", "1-", "-2"] {
        let err = parse_moves(&format!("deal\n  {bad}")).unwrap_err();
        assert_eq!((err.text.as_str(), err.line, err.column), (bad, 2, 3));
    }
}

#[test]
fn replay_resolves_counts_and_stops_at_the_first_illegal_move() {
    let g = game(&[("4C", "9H 8H 7H"), ("", "10S"), ("", "8C")], &[]);
    let (moves, end) = replay(&g, &parse_moves("1-2 2-3/1").unwrap()).unwrap();
    assert_eq!(compact_line(&moves), "1-2/3 2-3/1");
    assert_eq!(pile_text(&end, 0), "4C");
    assert_eq!(pile_text(&end, 2), "8C 7H");
    let err = replay(&g, &parse_moves("1-2/3\n1-3").unwrap()).unwrap_err();
    assert_eq!((err.index, err.token.as_str(), err.line), (2, "1-3", 2));
    assert!(matches!(err.reason, IllegalMove::NoMatchingRun { .. }));
}

#[test]
fn packed_sizes_of_a_fresh_and_a_mid_game_position() {
    let deck: Vec<CardSlot> = (0..104u32)
        .map(|i| CardSlot::Known(Card::from_index((i % 52) as u8)))
        .collect();
    let fresh = Game::new(&Deal::fresh(&deck, SuitCount::Four, Rules::Standard).unwrap()).unwrap();
    let packed = PackedPosition::pack(fresh.start());
    assert_eq!(packed.len(), 20);
    assert_eq!(packed.unpack().as_ref(), Some(fresh.start()));

    // Mid-game: 25 face-down cards, 40 face-up of which 28 continue a run.
    let mid = game(
        &[
            ("AS AS AS", "KH QH JH 10H 9H 5C"),
            ("AS AS AS", "8D 7D 6D 5D 2S"),
            ("AS AS AS", "QS JS 10S 9S"),
            ("AS AS AS", "3C 2C AC"),
            ("AS AS AS", "JD 10D 9D 8D 7D"),
            ("AS AS", "6H 5H 4H 3H"),
            ("AS AS", "KC"),
            ("AS AS", "7S 6S 5S 4S 3S"),
            ("AS AS", "9C 8C 7C"),
            ("AS AS", "4D 3D 2D AD"),
        ],
        &[FULL_ROW, FULL_ROW],
    );
    assert_eq!(mid.start().face_down_total(), 25);
    assert_eq!(mid.start().face_up_total(), 40);
    let packed = PackedPosition::pack(mid.start());
    assert_eq!(packed.len(), 26);
    assert_eq!(packed.unpack().as_ref(), Some(mid.start()));
}

/// A random consistent fresh deal for `suits` (a plain shuffle driven by
/// the proptest seed).
fn random_deal(seed: u64, suits: SuitCount, rules: Rules) -> Deal {
    let mut deck: Vec<CardSlot> = Vec::with_capacity(104);
    for &suit in suits.suits() {
        for _ in 0..suits.copies() {
            for rank in 1..=13 {
                deck.push(CardSlot::Known(Card::new(rank, suit)));
            }
        }
    }
    let mut state = seed;
    for i in (1..deck.len()).rev() {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let j = (state >> 33) as usize % (i + 1);
        deck.swap(i, j);
    }
    Deal::fresh(&deck, suits, rules).unwrap()
}

/// Cards anywhere: face-up, face-down, still in the stock, and in removed runs.
fn card_total(game: &Game, position: &Position) -> usize {
    position.face_up_total()
        + position.face_down_total()
        + game.rows_left(position) * 10
        + position.runs_removed() * 13
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Random legal play never creates or destroys a card, keeps the packed
    /// form a faithful copy, offers exactly the moves `check` accepts, and
    /// never lowers a position's layer (`layer_of`, with its pairs out of
    /// order): the layered search relies on it.
    #[test]
    fn random_play_keeps_every_card(
        seed in any::<u64>(),
        suits in prop::sample::select(vec![SuitCount::One, SuitCount::Two, SuitCount::Four]),
        relaxed in any::<bool>(),
        choices in prop::collection::vec(any::<prop::sample::Index>(), 1..300),
    ) {
        let rules = if relaxed { Rules::Relaxed } else { Rules::Standard };
        let game = Game::new(&random_deal(seed, suits, rules)).unwrap();
        let mut position = game.start().clone();
        let mut counts = [0usize; 52];
        let mut moves = Vec::new();
        for choice in choices {
            moves.clear();
            let runs = game.moves(&position, &mut moves);
            if moves.is_empty() {
                break;
            }
            // The run lengths `moves` gives are the piles' own, and the
            // cards read through the piles' starts are theirs.
            let starts = position.starts();
            for (pile, &run) in runs.iter().enumerate() {
                prop_assert_eq!(run as usize, position.run_length(pile));
                for depth in 0..=position.face_up_count(pile) {
                    prop_assert_eq!(
                        position.card_from_top_at(&starts, pile, depth),
                        position.card_from_top(pile, depth)
                    );
                }
            }
            // `moves` offers exactly the shifts `check` accepts, in order.
            let mut accepted: Vec<Move> = (0..10u8)
                .flat_map(|from| (1..=13u8).flat_map(move |count| {
                    (0..10u8).map(move |to| Move::Shift { from, to, count })
                }))
                .filter(|&mv| game.check(&position, mv).is_ok())
                .collect();
            if game.check(&position, Move::Deal).is_ok() {
                accepted.push(Move::Deal);
            }
            prop_assert_eq!(&moves, &accepted);
            // The one-pass run lengths agree with the per-pile ones.
            for (pile, &run) in position.run_lengths().iter().enumerate() {
                prop_assert_eq!(run as usize, position.run_length(pile));
            }
            // Every move played on the step's bytes writes what `apply`
            // then `pack_into` write.
            let parent = Step { position: position.clone(), reveals: Reveals::default() }.packed();
            for &mv in &moves {
                // And the piles a shift leaves, read without building it.
                assert_shifted_piles_match(&game, &position, mv);
                let mut bytes = Vec::new();
                game.apply_packed(&PackedStep::new(&parent), mv, &mut bytes);
                prop_assert_eq!(bytes, game.apply(&position, mv).packed());
            }
            for &mv in &moves {
                let next = game.apply(&position, mv).position;
                prop_assert!(super::layer_of(&next) >= super::layer_of(&position), "{}", mv);
                if mv != Move::Deal
                    && next.runs_removed() == position.runs_removed()
                    && next.face_down_total() == position.face_down_total()
                {
                    prop_assert!(next.out_of_order_total() <= position.out_of_order_total());
                }
            }
            let mv = moves[choice.index(moves.len())];
            prop_assert_eq!(game.check(&position, mv), Ok(()));
            position = game.apply(&position, mv).position;
            prop_assert_eq!(card_total(&game, &position), 104);
            let packed = PackedPosition::pack(&position);
            prop_assert_eq!(packed.unpack(), Some(position.clone()));
            // Face-up cards are never more copies than two decks hold.
            counts.fill(0);
            for pile in 0..10 {
                for card in position.face_up(pile) {
                    counts[card.unwrap().index() as usize] += 1;
                }
            }
            prop_assert!(counts.iter().all(|&n| n <= suits.copies()));
        }
    }
}

/// Both 64-bit halves of a fingerprint vary from position to position, in
/// the exact and the pile-order-free form (one half was once always 0,
/// which left deduplication 64 bits wide).
#[test]
fn both_halves_of_a_fingerprint_vary() {
    let deal = crate::deal::numbered::deal(1, crate::cards::SuitCount::Four, Rules::Standard);
    let game = Game::new(&deal).unwrap();
    let start = game.start().clone();
    let mut moves = Vec::new();
    game.moves(&start, &mut moves);
    let mut positions = vec![start.clone()];
    positions.extend(moves.iter().map(|&mv| game.apply(&start, mv).position));
    let mut halves = std::collections::HashSet::new();
    for position in &positions {
        for fingerprint in [position.fingerprint(), position.fingerprint_unordered()] {
            let (high, low) = ((fingerprint >> 64) as u64, fingerprint as u64);
            assert!(high != 0 && low != 0, "{fingerprint:032x}");
            halves.insert(high);
            halves.insert(low);
        }
    }
    assert_eq!(halves.len(), 4 * positions.len());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The compact form of the search on disk's files (`compact_step`)
    /// gives back every step of random play byte for byte, each read in
    /// turn from one stream as the files hold them, in fewer bytes: no card
    /// is created or destroyed on the way.
    #[test]
    fn compact_steps_of_random_play_read_back_as_they_were(
        seed in any::<u64>(),
        suits in prop::sample::select(vec![SuitCount::One, SuitCount::Two, SuitCount::Four]),
        choices in prop::collection::vec(any::<prop::sample::Index>(), 1..200),
    ) {
        let game = Game::new(&random_deal(seed, suits, Rules::Standard)).unwrap();
        let mut position = game.start().clone();
        let mut moves = Vec::new();
        let mut plain = Vec::new();
        let mut stream = Vec::new();
        let mut steps = 0;
        for choice in choices {
            let step = Step { position: position.clone(), reveals: Reveals::default() };
            let bytes = step.packed();
            let before = stream.len();
            prop_assert_eq!(compact_step(&bytes, &mut stream), bytes.len());
            prop_assert!(stream.len() - before < bytes.len());
            plain.extend_from_slice(&bytes);
            steps += 1;
            moves.clear();
            game.moves(&position, &mut moves);
            if moves.is_empty() {
                break;
            }
            position = game.apply(&position, moves[choice.index(moves.len())]).position;
        }
        let mut back = Vec::new();
        let mut at = 0;
        let mut read = 0;
        while at < stream.len() {
            let used = uncompact_step(&stream[at..], &mut back);
            prop_assert!(used.is_some());
            at += used.unwrap();
            read += 1;
        }
        prop_assert_eq!(read, steps);
        prop_assert_eq!(&back, &plain);
        // Every step read back is a position of the game, all 104 cards
        // accounted for.
        let mut at = 0;
        while at < back.len() {
            let (step, used) = Step::unpack_from(&back[at..]).unwrap();
            prop_assert_eq!(card_total(&game, &step.position), 104);
            at += used;
        }
    }
}
