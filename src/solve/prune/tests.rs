//! The dead-end and room tests against plain searches of random games: no
//! position they call lost reaches a win.

use super::*;
use crate::cards::SuitCount;
use crate::deal::Rules;
use crate::game::Move;

/// The states' key holds the cards lying on emptied piles: two lines of
/// the relaxed game can leave the same cards in the piles, one with a
/// card held on an emptied pile and one without. Here pile 1 holds 5♠,
/// pile 2 J♠ 3♣ 3♦ 5♥, piles 3 to 9 a ten each, pile 0 is empty, and
/// the row to deal is 6♥ K♦ and queens. Dealing at once puts K♦ on 5♠,
/// and K♦ must then be held on pile 0 for 5♠ to leave: one emptied
/// pile to spare after the 6♥ frees 5♥, where 3♦ and 3♣ need two.
/// Holding 5♠ on pile 0 first lets the row's 6♥ and K♦ fall on empty
/// piles, gone; 5♠ and 5♥ leave on the 6, both threes are held and
/// everything leaves. The search tries the deal first, so a key
/// without the held cards would take the second line's state for the
/// first's, seen, and prove the position lost: wrongly.
#[test]
fn the_cards_held_on_emptied_piles_tell_states_apart() {
    use crate::cards::Suit::{Clubs, Diamonds, Hearts, Spades};
    let card = |rank, suit| Card::new(rank, suit).index();
    let tens = [Hearts, Diamonds, Clubs, Spades, Hearts, Diamonds, Clubs];
    let mut piles: Vec<Vec<u8>> = vec![
        vec![],
        vec![card(5, Spades)],
        vec![
            card(11, Spades),
            card(3, Clubs),
            card(3, Diamonds),
            card(5, Hearts),
        ],
    ];
    piles.extend(tens.iter().map(|&suit| vec![card(10, suit)]));
    let mut row = [0; PILES];
    row[0] = card(6, Hearts);
    row[1] = card(KING, Diamonds);
    for (pile, &suit) in (2..PILES).zip([Hearts, Spades, Diamonds, Clubs].iter().cycle()) {
        row[pile] = card(12, suit);
    }
    let stock = [row];
    let mut table = Table::unlaid(&stock);
    let mut n = 0;
    for (pile, cards) in piles.iter().enumerate() {
        table.start[pile] = n;
        table.cards[n..n + cards.len()].copy_from_slice(cards);
        table.remaining[pile] = cards.len();
        n += cards.len();
    }
    let mut search = SlotSearch::new(100_000);
    assert!(table.clone().can_clear(&mut search));
    assert!(search.budget > 0);
    // Dealing at once, no line clears.
    let mut dealt = table.clone();
    dealt.settle();
    dealt.deal();
    assert!(!dealt.can_clear(&mut SlotSearch::new(100_000)));
}

/// A small generator of random numbers for the tests (xorshift), so
/// that the cases are the same in every run.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }

    /// A random playout's next move from `position`: a random move
    /// of cards, or the deal one time in `deal_odds` when it may (and
    /// always when nothing else can be played); `None` when no move is
    /// left. `moves` is scratch space.
    fn random_move(
        &mut self,
        game: &Game,
        position: &Position,
        moves: &mut Vec<Move>,
        deal_odds: usize,
    ) -> Option<Move> {
        moves.clear();
        game.moves(position, moves);
        let shifts: Vec<Move> = moves.iter().copied().filter(|&m| m != Move::Deal).collect();
        match (shifts.is_empty(), moves.contains(&Move::Deal)) {
            (true, false) => None,
            (true, true) => Some(Move::Deal),
            (false, deal) if deal && self.below(deal_odds) == 0 => Some(Move::Deal),
            (false, _) => Some(shifts[self.below(shifts.len())]),
        }
    }
}

/// The positions reachable from `game`'s start without reductions,
/// breadth-first: all of them, or the first `cap` or so.
fn reachable(game: &Game, cap: usize) -> Vec<Position> {
    reachable_from(game, game.start(), cap)
}

/// [`reachable`] from `start`.
fn reachable_from(game: &Game, start: &Position, cap: usize) -> Vec<Position> {
    let mut seen = std::collections::HashSet::new();
    let mut positions = vec![start.clone()];
    seen.insert(start.clone());
    let mut moves = Vec::new();
    let mut next = 0;
    while next < positions.len() {
        moves.clear();
        game.moves(&positions[next], &mut moves);
        for &mv in &moves {
            let child = game.apply(&positions[next], mv).position;
            if seen.insert(child.clone()) {
                positions.push(child);
            }
        }
        if positions.len() > cap {
            break;
        }
        next += 1;
    }
    positions
}

/// Numbered deal `number`, of one, two or four suits and either rules
/// in turn.
fn varied_deal(number: u64) -> crate::deal::Deal {
    let suits = [SuitCount::One, SuitCount::Two, SuitCount::Four][number as usize % 3];
    let rules = if number.is_multiple_of(2) {
        Rules::Standard
    } else {
        Rules::Relaxed
    };
    crate::deal::numbered::deal(number, suits, rules)
}

/// Checks what the dead-end tests claim of `position` against a plain
/// search from it, as a deal of its own (breadth-first, up to 20,000
/// positions): it reaches no win, and no emptied pile when the claim
/// is that none empties. Returns the positions checked.
fn check_plainly(game: &Game, position: &Position) -> usize {
    check_plainly_with(game, position, RoomRule::MakeWay)
}

/// [`check_plainly`] of what [`dead_end_with`] `room` claims.
fn check_plainly_with(game: &Game, position: &Position, room: RoomRule) -> usize {
    let game = Game::new(&game.deal_at(position).unwrap()).unwrap();
    let position = game.start();
    let reason = dead_end_with(&game, position, room).unwrap();
    let all = reachable(&game, 20_000);
    for reached in &all {
        assert!(
            !reached.is_won(),
            "called dead ({reason}) but winnable:\n{position}"
        );
        assert!(
            !reason.no_pile_empties() || (0..PILES).all(|pile| !reached.is_empty_pile(pile)),
            "called dead ({reason}) but a pile empties:\n{position}\nreaches\n{reached}"
        );
    }
    all.len()
}

/// The soundness of the dead-end test, against a plain search, where
/// it fires: positions met on random playouts of numbered deals (one,
/// two and four suits, both rules; a random move each time, the deal
/// when there is none). For each position the test calls dead, the
/// plain search from it (breadth-first, up to 20,000 positions) meets
/// no win and never empties a pile, which is what the relaxation
/// claims. Enough dead positions must turn up for this to mean
/// something. The quick run plays 60 deals;
/// [`a_dead_end_never_reaches_a_win_in_240_deals`] plays 240.
#[test]
fn a_dead_end_never_reaches_a_win() {
    dead_ends_checked(40, 10, 1);
}

#[test]
#[ignore = "slow: runs with `cargo test -- --ignored` (CI runs it)"]
fn a_dead_end_never_reaches_a_win_in_240_deals() {
    dead_ends_checked(240, 40, 10);
}

/// Random play on numbered deals 1 to `deals` ([`varied_deal`]), from
/// the start, at most `steps` moves a game ([`Rng::random_move`] with
/// `deal_odds`), seeded by `seed`; `stop(game, position)` sees every
/// position reached and ends its game by returning true.
fn random_walks(
    deals: u64,
    seed: u64,
    steps: usize,
    deal_odds: usize,
    mut stop: impl FnMut(&Game, &Position) -> bool,
) {
    let mut rng = Rng(seed);
    let mut moves = Vec::new();
    for number in 1..=deals {
        let game = Game::new(&varied_deal(number)).unwrap();
        let mut position = game.start().clone();
        for _ in 0..steps {
            let Some(mv) = rng.random_move(&game, &position, &mut moves, deal_odds) else {
                break;
            };
            position = game.apply(&position, mv).position;
            if stop(&game, &position) {
                break;
            }
        }
    }
}

/// [`a_dead_end_never_reaches_a_win`] on deals 1 to `deals`: at least
/// `min_dead` dead positions, `min_with_stock` of them with stock rows.
fn dead_ends_checked(deals: u64, min_dead: usize, min_with_stock: usize) {
    let (mut dead, mut checked, mut with_stock) = (0, 0, 0);
    random_walks(deals, 0x9e37_79b9_7f4a_7c15, 400, 20, |game, position| {
        if dead_end(game, position).is_none() {
            return false;
        }
        dead += 1;
        with_stock += (game.rows_left(position) > 0) as usize;
        checked += check_plainly(game, position);
        true
    });
    eprintln!("dead {dead} ({with_stock} with stock rows), positions checked {checked}");
    assert!(
        dead >= min_dead && with_stock >= min_with_stock,
        "only {dead} dead positions, {with_stock} with stock rows ({checked} positions checked)"
    );
}

/// Random games of numbered deals (one, two and four suits, both
/// rules) with every row dealt as soon as it may be, played at random
/// until the room test fires where the first relaxation does not, once
/// with each rule of the room test (counting places only, and with the
/// make-way rule). Each such position, searched plainly
/// (breadth-first, up to 20,000 positions), reaches no win, and no
/// emptied pile when the test says none empties. The make-way rule
/// proves lost some positions that counting alone does not. And the
/// test's verdict on each position met is the same after all the
/// others ran on the thread as on its own (the states it remembers
/// change its speed, never its verdict). The quick run plays 40
/// deals; [`a_position_without_room_never_reaches_a_win_in_150_deals`]
/// plays 150.
#[test]
fn a_position_without_room_never_reaches_a_win() {
    room_checked(10, 3, 3);
}

#[test]
#[ignore = "slow: runs with `cargo test -- --ignored` (CI runs it)"]
fn a_position_without_room_never_reaches_a_win_in_150_deals() {
    // Counted on 2026-11-26: 95 with counting alone, 122 with the
    // make-way rule, of which 40 counting alone does not prove.
    room_checked(150, 20, 20);
}

/// [`a_position_without_room_never_reaches_a_win`] on deals 1 to
/// `deals`: at least `min_dead` positions without room under each
/// rule, and `min_make_way` that only the make-way rule proves.
fn room_checked(deals: u64, min_dead: usize, min_make_way: usize) {
    let mut found = Vec::new();
    for rule in [RoomRule::Counts, RoomRule::MakeWay] {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        let (mut dead, mut checked, mut met) = (0, 0, Vec::new());
        let mut only_this_rule = 0;
        let mut moves = Vec::new();
        for number in 1..=deals {
            let deal = varied_deal(number);
            let game = Game::new(&deal).unwrap();
            let mut position = game.start().clone();
            for _ in 0..300 {
                moves.clear();
                game.moves(&position, &mut moves);
                let mv = if moves.contains(&Move::Deal) {
                    Move::Deal
                } else if moves.is_empty() {
                    break;
                } else {
                    moves[rng.below(moves.len())]
                };
                position = game.apply(&position, mv).position;
                if game.rows_left(&position) > 0
                    || dead_end_with(&game, &position, RoomRule::Off).is_some()
                {
                    continue;
                }
                let verdict = dead_end_with(&game, &position, rule);
                met.push((game.clone(), position.clone(), verdict));
                let Some(reason) = verdict else {
                    continue;
                };
                assert!(matches!(reason, DeadEnd::NoRoom(_)));
                dead += 1;
                checked += check_plainly_with(&game, &position, rule);
                if rule == RoomRule::MakeWay
                    && dead_end_with(&game, &position, RoomRule::Counts).is_none()
                {
                    only_this_rule += 1;
                }
                break;
            }
        }
        eprintln!(
            "{rule:?}: no room {dead} ({only_this_rule} only with this rule), \
             positions checked {checked}, tested {}",
            met.len()
        );
        assert!(
            dead >= min_dead,
            "{rule:?}: only {dead} positions without room"
        );
        for (game, position, verdict) in &met {
            room::forget();
            assert_eq!(
                dead_end_with(game, position, rule),
                *verdict,
                "{rule:?} alone:\n{position}"
            );
        }
        found.push((dead, only_this_rule));
    }
    assert!(
        found[1].1 >= min_make_way,
        "the make-way rule proved little: {found:?}"
    );
}

/// The room test's answers kept by the settled start
/// (`room::ANSWERS`) are those of a search: on the first
/// positions of `r1-g5015`'s last stage, from its last row dealt at
/// once (breadth-first, as the exhaustive search meets them), each
/// tested in turn on one thread, many tests are answered from what was
/// kept, and every verdict is the one of the test made alone with
/// nothing remembered; and so are the verdicts of the same positions
/// tested again on two threads at once, each taking every other
/// position, sharing what is kept.
#[test]
fn the_room_tests_answers_kept_are_those_of_a_search() {
    let path = format!(
        "{}/benches/ladder/r1-g5015.yaml",
        env!("CARGO_MANIFEST_DIR")
    );
    let deal = crate::deal::load(path.as_ref()).unwrap();
    let game = Game::new(&deal).unwrap();
    let dealt = game.apply(game.start(), Move::Deal).position;
    assert_eq!(game.rows_left(&dealt), 0);
    let positions = reachable_from(&game, &dealt, 4_000);
    room::forget_all();
    let verdicts: Vec<_> = positions
        .iter()
        .map(|position| dead_end_with(&game, position, RoomRule::MakeWay))
        .collect();
    let given = room::answers_given();
    let lost = verdicts.iter().filter(|verdict| verdict.is_some()).count();
    eprintln!(
        "{} positions, {lost} lost, {given} answered from what was kept",
        positions.len()
    );
    assert!(
        given >= 500,
        "only {given} tests answered from what was kept"
    );
    assert!(lost >= 500 && lost + 500 <= positions.len(), "{lost} lost");
    room::forget_all();
    let shared: Vec<Vec<_>> = std::thread::scope(|scope| {
        let threads: Vec<_> = (0..2)
            .map(|half| {
                let (game, positions) = (&game, &positions);
                scope.spawn(move || {
                    let mine = positions.iter().skip(half).step_by(2);
                    mine.map(|position| dead_end_with(game, position, RoomRule::MakeWay))
                        .collect()
                })
            })
            .collect();
        threads
            .into_iter()
            .map(|thread| thread.join().unwrap())
            .collect()
    });
    for (index, verdict) in verdicts.iter().enumerate() {
        assert_eq!(
            shared[index % 2][index / 2],
            *verdict,
            "on two threads:\n{}",
            positions[index]
        );
    }
    for (position, verdict) in positions.iter().zip(&verdicts) {
        room::forget();
        assert_eq!(
            dead_end_with(&game, position, RoomRule::MakeWay),
            *verdict,
            "alone:\n{position}"
        );
    }
}

/// The deal rule of the first relaxation ([`Reductions::deals_fill`]):
/// a card dealt onto a pile the relaxed game emptied is that pile's
/// card, which must leave again. Random playouts of numbered deals
/// (one, two and four suits, both rules; a random move each time, the
/// deal one time in eight when it may), every position with a stock
/// row left tested both ways (the room test off: it needs an empty
/// stock), each playout stopped at its first dead end. Each position
/// only the new rule proves lost, searched plainly (breadth-first, up
/// to 20,000 positions), reaches no win, and no position is proved
/// lost without the rule alone (the test with it plays the same
/// relaxed game first, then perhaps a second). Counted on
/// 2026-11-27: 11,020 positions tested, 11 dead ends, none proved by
/// one rule alone. Random play rarely empties a pile and then meets a
/// dead end: the positions on which the new rule fires are in
/// `tests/data/deals-fill/` (`proofs::the_rows_left_use_up_the_empty_piles`).
#[test]
fn a_deal_onto_an_emptied_pile_never_loses_a_win() {
    let (mut tested, mut dead, mut only_filling, mut only_before) = (0, 0, 0, 0);
    let mut checked = 0;
    random_walks(300, 0x5851_f42d_4c95_7f2d, 600, 8, |game, position| {
        if game.rows_left(position) == 0 {
            return true;
        }
        tested += 1;
        let filling = dead_end_filling(game, position, RoomRule::Off, true);
        let before = dead_end_filling(game, position, RoomRule::Off, false);
        only_before += (filling.is_none() && before.is_some()) as usize;
        if filling.is_none() {
            return false;
        }
        dead += 1;
        if before.is_none() {
            only_filling += 1;
            let game = Game::new(&game.deal_at(position).unwrap()).unwrap();
            let all = reachable(&game, 20_000);
            assert!(
                all.iter().all(|reached| !reached.is_won()),
                "called dead by the deal rule but winnable:\n{position}"
            );
            checked += all.len();
        }
        true
    });
    eprintln!(
        "tested {tested}, dead {dead}, only with the deal rule {only_filling} \
         (positions checked {checked}), only without {only_before}"
    );
    assert!(dead >= 5, "only {dead} dead ends");
    assert_eq!(only_before, 0);
}

/// The soundness of the test of the first empty pile
/// ([`super::super::first_empty`]) against a plain search, where it
/// fires and the first relaxation does not: positions with stock rows
/// left met on random playouts of numbered deals (one, two and four
/// suits, both rules; a random move each time, the deal one time in
/// `deal_odds`). Each walk stops at the first such position; a plain
/// search from it (breadth-first, deals included, up to 20,000
/// positions) meets no win and never empties a pile, which is what
/// the test claims. Making a leave need one place too few (no room
/// read from the card under it) makes this fail. The quick run plays
/// 60 deals; [`no_pile_empties_where_the_test_says_so_in_300_deals`]
/// plays 300.
#[test]
fn no_pile_empties_where_the_test_says_so() {
    first_empty_checked(60, 5);
}

#[test]
#[ignore = "slow: runs with `cargo test -- --ignored` (CI runs it)"]
fn no_pile_empties_where_the_test_says_so_in_300_deals() {
    first_empty_checked(300, 25);
}

/// [`no_pile_empties_where_the_test_says_so`] on deals 1 to `deals`: at
/// least `min_fired` positions proved lost by the test alone.
fn first_empty_checked(deals: u64, min_fired: usize) {
    let (mut fired, mut checked, mut tested) = (0, 0, 0);
    random_walks(deals, 0x5851_f42d_4c95_7f2d, 300, 25, |game, position| {
        if game.rows_left(position) == 0 {
            return true;
        }
        tested += 1;
        let with = dead_end_learning(game, position, RoomRule::MakeWay, false, true, None, None);
        let without =
            dead_end_learning(game, position, RoomRule::MakeWay, false, false, None, None);
        if without.is_some() {
            // The first relaxation proves it: the test never runs.
            assert_eq!(with, without);
            return true;
        }
        let Some(reason) = with else { return false };
        assert!(reason.no_pile_empties(), "{reason}");
        fired += 1;
        checked += no_pile_empties_from(game, position, &reason);
        true
    });
    eprintln!("tested {tested}, fired {fired}, positions checked {checked}");
    assert!(fired >= min_fired, "only {fired} fired ({tested} tested)");
}

/// The plain search from `position` (up to 20,000 positions) never
/// empties a pile nor wins, as the first-empty test's `reason` says:
/// the positions it checked.
fn no_pile_empties_from(
    game: &Game,
    position: &Position,
    reason: &impl std::fmt::Display,
) -> usize {
    let game = Game::new(&game.deal_at(position).unwrap()).unwrap();
    let all = reachable(&game, 20_000);
    for reached in &all {
        assert!(
            !reached.is_won() && (0..PILES).all(|pile| !reached.is_empty_pile(pile)),
            "called dead ({reason}) but a pile empties:\n{position}\nreaches\n{reached}"
        );
    }
    all.len()
}

/// The states the test of the first empty pile learns
/// ([`first_empty::Learned`]), against the test that learns nothing:
/// every position with rows left on random playouts of numbered deals
/// (as [`no_pile_empties_where_the_test_says_so`], the walks going on
/// past the dead ends) is tested with one table that each test reads
/// and adds to (absorbed after each: the positions of a walk follow
/// one another, as in a search), without one (*cold*), and, where the
/// cold test says nothing, without one and with the position
/// analyzed's budget, 100 times larger (*large*). Where the cold test
/// proves a position lost the warm one does (a learned state only
/// spares a search); where the large test finds a relaxed line that
/// empties a pile the warm one says nothing (a learned state is what
/// its own search would find); a warm "lost" is a large one. So where
/// both finish within budget, warm and cold agree. Each position only
/// the warm test proves lost is searched plainly (as above): no pile
/// empties. Some must be (the table is used). Recording a state dead
/// when the budget ran out below it makes this fail.
#[test]
fn the_first_empty_pile_learns_only_what_its_search_would_find() {
    let learned = first_empty::Learned::with_slots(1 << 16);
    let (mut tested, mut cold_lost, mut warm_only, mut checked) = (0, 0, 0, 0);
    random_walks(40, 0x2545_f491_4f6c_dd1d, 300, 25, |game, position| {
        if game.rows_left(position) == 0 {
            return true;
        }
        tested += 1;
        let cold = dead_end_learning(game, position, RoomRule::MakeWay, false, true, None, None);
        let warm = dead_end_learning(
            game,
            position,
            RoomRule::MakeWay,
            false,
            true,
            None,
            Some(&learned),
        );
        learned.absorb();
        if cold.is_some() {
            cold_lost += 1;
            assert!(warm.is_some(), "lost cold, not warm:\n{position}");
            return false;
        }
        let large = dead_end_at_start_filling(game, position, RoomRule::MakeWay, false, true);
        assert!(
            warm.is_none() || large.is_some(),
            "lost warm, not large:\n{position}"
        );
        if let Some(reason) = warm {
            warm_only += 1;
            checked += no_pile_empties_from(game, position, &reason);
        }
        false
    });
    eprintln!(
        "tested {tested}, lost cold {cold_lost}, warm only {warm_only} \
         (positions checked {checked}), states learned {}",
        learned.len()
    );
    assert!(
        warm_only >= 1,
        "the table proved nothing more ({tested} tested)"
    );
}
