//! A measurement, not a reduction of the solver: how many positions of a
//! stage differ only in where loose runs lie, and whether a search that
//! puts them back in one place still finds every win.
//!
//! A *loose run* is the same-suit run on top of a pile when it lies on a
//! card one rank above its lowest card that it does not follow in suit
//! (7♠ on 8♥), or alone on a pile with no face-down card. It can go back
//! where it was after any move that takes it away, so the positions that
//! differ only in where such runs lie reach one another. The search below
//! is a plain depth-first search (every position once, nothing pruned)
//! whose every successor is first *normalized* by a rule:
//!
//! - `none`: nothing moved (the plain search);
//! - `join`: once the stock is empty, a loose run that lies on a card it
//!   does not follow goes onto a card in view that it does follow (7♠ from
//!   8♥ onto an 8♠ on top of another pile), unless that completes a K..A
//!   run; as long as one such move is left;
//! - `any`: a loose run goes to the card (or off an empty pile onto the
//!   card) it prefers: one it follows in suit, else the lowest-numbered
//!   pile. This rule is **unsound**: the search it makes calls won
//!   positions lost (`r0-g5005` of the bench ladder; 95 of the 147 positions
//!   with the stock empty of `r1-g5006`'s winning line that it decides). It
//!   is kept to show that the checks below can catch a rule that loses
//!   wins.
//! - `lazy`: nothing normalized; at a position with the stock empty where
//!   a loose run could join a card it follows (the first such move, as
//!   `join` makes them), the search goes on from the joined position and
//!   from the successors of the moves the joined position does not
//!   match: a move is matched when its twin from the joined position (the
//!   same move, with the run's cards moved from or counted in the pile it
//!   joined) reaches the same position or that position with the run
//!   joined again, both played to check it. What is left out is always
//!   reached, up to where the run lies, from the joined position; that a
//!   search so cut still finds every win is not proved either (a chain of
//!   such positions defers to one another), so it measures what a
//!   version of `join` that keeps every move the joined position cannot
//!   match could save.
//!
//! Each normalizing move is legal and can be undone, so a normalized
//! position reaches the position it was made from: a win the normalized
//! search finds is a real one. The converse, that every win is still
//! found, is what `any` breaks and what `join` has no proof of yet
//! (lab/notes/proofs.md, *What is not proved yet*), so neither is in the
//! solver. The modes (`RULE` is one of the four):
//!
//! ```text
//! cargo run --release --example loose_runs -- count FILE CAP RULE [deal]
//! cargo run --release --example loose_runs -- layer FILE CAP RULE
//! cargo run --release --example loose_runs -- line FILE LINE CAP RULE
//! cargo run --release --example loose_runs -- cross FIRST LAST CAP RULE
//! ```
//!
//! `count`: the positions the search examines from FILE's position (after
//! dealing every row left, with `deal`), at most CAP, and whether it wins.
//! `layer`: the positions of the first layer after dealing every row left
//! (no card turned up, no run removed) and the positions it leads to in
//! later layers. `line`: every position with the stock empty along the
//! winning line in the file LINE (moves as `spider analyze` writes them),
//! each searched with the rule; all are won, so any search that ends
//! without a win is a rule that loses wins. `cross`: numbered deals FIRST
//! to LAST (1, 2 and 4 suits in turn) played at random; every seventh
//! position with the stock empty is searched plainly and with the rule,
//! and the verdicts are compared where both end within CAP.
use std::path::Path;

use ahash::AHashSet;
use spider_analyzer::cards::SuitCount;
use spider_analyzer::deal::files::load;
use spider_analyzer::deal::{Rules, numbered};
use spider_analyzer::game::{Game, Move, Position, parse_moves, replay};

#[derive(Clone, Copy, PartialEq)]
enum Rule {
    None,
    Join,
    Any,
    Lazy,
}

/// Applies `rule`'s moves to `position` until none is left (at most 40);
/// returns how many were made.
fn normalize(game: &Game, rule: Rule, position: &mut Position) -> usize {
    if rule == Rule::None || rule == Rule::Lazy {
        return 0;
    }
    let mut made = 0;
    'again: while made < 40 {
        for from in 0..10 {
            let run = position.run_length(from);
            if run == 0 {
                continue;
            }
            let Some(lowest) = position.card_from_top(from, run - 1) else {
                continue;
            };
            // 1: on a card one rank higher it does not follow in suit (the
            // run is the whole run on top); 0: alone on an empty pile.
            let lies = match position.card_from_top(from, run) {
                Some(below) if below.rank() == lowest.rank() + 1 => 1,
                Some(_) => continue,
                None if position.face_up_count(from) == run
                    && position.face_down_count(from) == 0 =>
                {
                    0
                }
                None => continue,
            };
            let mut best: Option<(i32, usize)> = None;
            for to in (0..10).filter(|&to| to != from) {
                let Some(top) = position.card_from_top(to, 0) else {
                    continue;
                };
                if top.rank() != lowest.rank() + 1 {
                    continue;
                }
                let follows = top.suit() == lowest.suit();
                if follows && position.run_length(to) + run >= 13 {
                    continue; // it would complete a run: not undone
                }
                let score = if follows { 2 } else { 1 };
                let better = match rule {
                    Rule::Join => follows && lies == 1 && game.rows_left(position) == 0,
                    Rule::Any => score > lies || (score == lies && to < from),
                    Rule::None | Rule::Lazy => false,
                };
                if better && best.is_none_or(|(s, t)| score > s || (score == s && to < t)) {
                    best = Some((score, to));
                }
            }
            if let Some((_, to)) = best {
                let mv = Move::Shift {
                    from: from as u8,
                    to: to as u8,
                    count: run as u8,
                };
                assert_eq!(game.check(position, mv), Ok(()), "a legal move");
                *position = game.apply(position, mv).position;
                made += 1;
                continue 'again;
            }
        }
        break;
    }
    made
}

/// The first join of `position` (as `join` makes them): the loose run on
/// top of pile `a`, on a card it does not follow, and the pile `b` whose
/// top card it follows, as the move that puts it there.
fn first_join(game: &Game, position: &Position) -> Option<Move> {
    if game.rows_left(position) > 0 {
        return None;
    }
    for from in 0..10 {
        let run = position.run_length(from);
        if run == 0 {
            continue;
        }
        let (Some(lowest), Some(below)) = (
            position.card_from_top(from, run - 1),
            position.card_from_top(from, run),
        ) else {
            continue;
        };
        if below.rank() != lowest.rank() + 1 {
            continue;
        }
        for to in (0..10).filter(|&to| to != from) {
            let Some(top) = position.card_from_top(to, 0) else {
                continue;
            };
            if top.rank() == lowest.rank() + 1
                && top.suit() == lowest.suit()
                && position.run_length(to) + run < 13
            {
                return Some(Move::Shift {
                    from: from as u8,
                    to: to as u8,
                    count: run as u8,
                });
            }
        }
    }
    None
}

/// The successors the search goes on from. For `lazy`, at a position with
/// a join (see [`first_join`]): the joined position, and the successors of
/// the moves the joined position does not match, a move it matches being
/// one whose twin from the joined position (the same move, with the loose
/// run's cards counted in or moved from the pile it joined) reaches the
/// same position or that position with the run joined again; each match
/// is checked by playing both. For the other rules: every move's result,
/// normalized.
fn successors(game: &Game, rule: Rule, position: &Position, out: &mut Vec<Position>) {
    out.clear();
    let mut moves = Vec::new();
    game.moves(position, &mut moves);
    let join = if rule == Rule::Lazy {
        first_join(game, position)
    } else {
        None
    };
    let Some(
        join @ Move::Shift {
            from: a,
            to: b,
            count: run,
        },
    ) = join
    else {
        for &mv in &moves {
            let mut next = game.apply(position, mv).position;
            normalize(game, rule, &mut next);
            out.push(next);
        }
        return;
    };
    let joined = game.apply(position, join).position;
    out.push(joined.clone());
    for &mv in &moves {
        if mv == join {
            continue;
        }
        let next = game.apply(position, mv).position;
        let twin = match mv {
            Move::Shift { from, to, count } if from == a => {
                Some(Move::Shift { from: b, to, count })
            }
            Move::Shift { from, to, count } if from == b => Some(Move::Shift {
                from: b,
                to,
                count: count + run,
            }),
            Move::Shift { to, .. } if to == b => None,
            Move::Shift { from, to, count } if to == a => Some(Move::Shift { from, to: b, count }),
            other => Some(other),
        };
        let matched = twin.is_some_and(|twin| {
            if game.check(&joined, twin).is_err() {
                return false;
            }
            let reached = game.key(&game.apply(&joined, twin).position);
            if reached == game.key(&next) {
                return true;
            }
            let again = Move::Shift {
                from: a,
                to: b,
                count: next.run_length(a as usize) as u8,
            };
            game.check(&next, again).is_ok()
                && game.key(&game.apply(&next, again).position) == reached
        });
        if !matched {
            out.push(next);
        }
    }
}

/// The depth-first search from `start`: `Some((won, positions))` when it
/// ends within `cap` positions.
fn search(game: &Game, rule: Rule, start: &Position, cap: usize) -> Option<(bool, usize)> {
    search_reaching(game, rule, start, cap).0
}

/// [`search`], and the fewest face-down cards of any position it examined.
fn search_reaching(
    game: &Game,
    rule: Rule,
    start: &Position,
    cap: usize,
) -> (Option<(bool, usize)>, usize) {
    let mut start = start.clone();
    normalize(game, rule, &mut start);
    let mut seen = AHashSet::new();
    seen.insert(game.key(&start));
    let mut fewest = start.face_down_total();
    let mut stack = vec![start];
    let mut found = Vec::new();
    while let Some(position) = stack.pop() {
        fewest = fewest.min(position.face_down_total());
        if position.is_won() {
            return (Some((true, seen.len())), fewest);
        }
        successors(game, rule, &position, &mut found);
        for next in found.drain(..) {
            if seen.insert(game.key(&next)) {
                stack.push(next);
            }
        }
        if seen.len() >= cap {
            return (None, fewest);
        }
    }
    (Some((false, seen.len())), fewest)
}

fn dealt_out(game: &Game) -> Position {
    let mut position = game.start().clone();
    while game.rows_left(&position) > 0 {
        position = game.apply(&position, Move::Deal).position;
    }
    position
}

fn layer(game: &Game, rule: Rule, cap: usize) {
    let mut start = dealt_out(game);
    normalize(game, rule, &mut start);
    let layer = |p: &Position| (p.face_down_total(), p.runs_removed());
    let here = layer(&start);
    let (mut seen, mut exits) = (AHashSet::new(), AHashSet::new());
    seen.insert(game.key(&start));
    let mut stack = vec![start];
    let mut found = Vec::new();
    while let Some(position) = stack.pop() {
        successors(game, rule, &position, &mut found);
        for next in found.drain(..) {
            if layer(&next) != here {
                exits.insert(game.key(&next));
            } else if seen.insert(game.key(&next)) {
                stack.push(next);
            }
        }
        if seen.len() >= cap {
            break;
        }
    }
    println!(
        "first layer: {} positions, {} in later layers, whole: {}",
        seen.len(),
        exits.len(),
        stack.is_empty()
    );
}

fn line(game: &Game, rule: Rule, text: &str, cap: usize) {
    let tokens = parse_moves(text).unwrap_or_else(|e| fail(&format!("the line: {e:?}")));
    let (moves, _) = replay(game, &tokens).unwrap_or_else(|e| fail(&format!("the line: {e:?}")));
    let mut position = game.start().clone();
    let (mut tested, mut ended, mut lost) = (0, 0, 0);
    for (index, &mv) in moves.iter().enumerate() {
        position = game.apply(&position, mv).position;
        if game.rows_left(&position) > 0 || position.is_won() {
            continue;
        }
        tested += 1;
        if let Some((won, positions)) = search(game, rule, &position, cap) {
            ended += 1;
            if !won {
                lost += 1;
                println!(
                    "called lost after move {}: {positions} positions",
                    index + 1
                );
            }
        }
    }
    println!(
        "{tested} positions of the line with the stock empty, {ended} searches ended, {lost} called lost"
    );
}

fn cross(first: u64, last: u64, rule: Rule, cap: usize) {
    let (mut compared, mut won, mut differ) = (0, 0, 0);
    let (mut plain, mut ruled) = (0, 0);
    for number in first..=last {
        let suits = [SuitCount::One, SuitCount::Two, SuitCount::Four][(number % 3) as usize];
        let game = Game::new(&numbered::deal(number, suits, Rules::Standard))
            .expect("a numbered deal has the shape of a deal");
        let mut random = numbered::SplitMix64::new(number);
        let mut position = game.start().clone();
        let mut moves = Vec::new();
        for played in 0..600 {
            moves.clear();
            game.moves(&position, &mut moves);
            let shifts: Vec<Move> = moves.iter().copied().filter(|&m| m != Move::Deal).collect();
            let mv = if moves.contains(&Move::Deal) && (shifts.is_empty() || random.below(6) == 0) {
                Move::Deal
            } else if shifts.is_empty() {
                break;
            } else {
                shifts[random.below(shifts.len() as u64) as usize]
            };
            position = game.apply(&position, mv).position;
            if position.is_won() {
                break;
            }
            if game.rows_left(&position) > 0 || played % 7 != 0 {
                continue;
            }
            if let (Some((a, na)), Some((b, nb))) = (
                search(&game, Rule::None, &position, cap),
                search(&game, rule, &position, cap),
            ) {
                compared += 1;
                won += usize::from(a);
                if a != b {
                    differ += 1;
                    println!("deal {number} ({suits:?}) after {played} moves: plain {a}, rule {b}");
                } else if !a {
                    plain += na;
                    ruled += nb;
                }
            }
        }
    }
    println!(
        "{compared} positions compared, {won} won, {differ} verdicts differ; the lost ones took {plain} positions plainly, {ruled} with the rule"
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |at: usize| -> &str { args.get(at).unwrap_or_else(|| fail("too few arguments")) };
    let number = |at: usize| -> u64 {
        arg(at)
            .parse()
            .unwrap_or_else(|_| fail(&format!("{} is not a whole number", arg(at))))
    };
    let rule = |at: usize| match arg(at) {
        "none" => Rule::None,
        "join" => Rule::Join,
        "any" => Rule::Any,
        "lazy" => Rule::Lazy,
        other => fail(&format!("no rule {other}: none, join, any or lazy")),
    };
    let game = |at: usize| {
        let deal = load(Path::new(arg(at))).unwrap_or_else(|e| fail(&e.to_string()));
        Game::new(&deal).unwrap_or_else(|e| fail(&e.to_string()))
    };
    match arg(1) {
        "count" => {
            let game = game(2);
            let start = if args.get(5).is_some_and(|a| a == "deal") {
                dealt_out(&game)
            } else {
                game.start().clone()
            };
            let (end, fewest) = search_reaching(&game, rule(4), &start, number(3) as usize);
            match end {
                Some((won, positions)) => print!("{positions} positions, won: {won}"),
                None => print!("stopped at {} positions", number(3)),
            }
            println!(", fewest face-down cards reached: {fewest}");
        }
        "layer" => layer(&game(2), rule(4), number(3) as usize),
        "line" => {
            let text = std::fs::read_to_string(arg(3)).unwrap_or_else(|e| fail(&e.to_string()));
            line(&game(2), rule(5), &text, number(4) as usize);
        }
        "cross" => cross(number(2), number(3), rule(5), number(4) as usize),
        other => fail(&format!("no mode {other}")),
    }
}

/// Says what is wrong and exits with status 2.
fn fail(message: &str) -> ! {
    eprintln!("loose_runs: {message} (see the comment at the top of lab/studies/loose_runs.rs)");
    std::process::exit(2);
}
