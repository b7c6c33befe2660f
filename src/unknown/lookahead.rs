//! A blind player's lookahead: the moves that turn up nothing are as good
//! as known, so a player can search them all before committing to one that
//! turns up a card.
//!
//! From the position as the player sees it (every face-down and stock card
//! `XX`), [`best_line`] searches, breadth first, every line of moves that
//! turns up no card (each position once), up to a number of positions. The
//! moves that end such a line by turning up a card, a face-down card
//! uncovered or a row dealt, are its *leaves*: what lies beyond them is not
//! known. Each leaf is valued by [`value`] of the position it reaches (runs
//! removed above all, then face-down cards left, empty piles, same-suit
//! runs, the cards that can surely be turned up next; an unknown card face
//! up counts as a break), and by what the card it turns up is worth on
//! average over the cards not seen ([`reveal_bonus`]: the chance it can
//! move at once); the line to the best leaf is the one to play: arrange
//! what can be arranged, then turn up the card that leaves the best
//! position, and deal only when no card can
//! be turned up to a better position (a deal puts ten unknown cards on the
//! piles: ten breaks). This is what strong players describe (turn up cards
//! as soon as possible, keep same-suit runs, keep piles empty, deal last),
//! searched exactly within what can be seen.
//!
//! It reads only the position it is given, which holds no hidden card.

use std::collections::{HashSet, VecDeque};

use crate::cards::{Card, SuitCount};
use crate::deal::PILES;
use crate::deal::{Deal, ShapeError};
use crate::game::{Game, Move, Position};

/// What a position is worth to a player who cannot see the hidden cards:
/// the counts of [`features`] (runs removed, cards face down, empty piles,
/// same-suit pairs, breaks, piles one run from turning a card up, ...),
/// each times its weight for the deal's suits ([`weights`]). A pair that holds an unknown card
/// counts as a break: a deal puts ten cards nobody knows on the piles, ten
/// breaks until they turn up.
///
/// The weights are learned from blind games, not set by hand: they are a
/// logistic regression of "the game was won" on the counts of every
/// position 800 games of own 2-suit deals 4001..4400 passed through (400
/// played with the hand-made weights before them, 400 with weights fitted
/// on the first 400), scaled to the hand-made value's units so that
/// [`reveal_bonus`] weighs as before (`lab/studies/value_data`,
/// `lab/results/tuning/learned-value/`). A weight alone means little: the
/// counts are tied (the cards face up are 54 plus ten a row dealt, less
/// those face down and in runs removed, and also one a pile plus its
/// pairs), so the same value has many sets of weights; only the sum
/// decides. Measured game by game against the hand-made weights, the
/// lookahead player at its defaults won more 2-suit games on deals no
/// fit used (docs/unknown-cards.md). At 4 suits the weights are fitted
/// to 4-suit games ([`FOUR_SUIT_WEIGHTS`]).
pub fn value(position: &Position, suits: SuitCount) -> i32 {
    let counts = features(position);
    weights(suits).iter().zip(counts).map(|(w, c)| w * c).sum()
}

/// The weights [`value`] gives [`features`]' counts at `suits` suits:
/// [`FOUR_SUIT_WEIGHTS`] at 4, [`WEIGHTS`] at 1 and 2.
pub fn weights(suits: SuitCount) -> &'static [i32; FEATURES] {
    match suits {
        SuitCount::Four => &FOUR_SUIT_WEIGHTS,
        SuitCount::One | SuitCount::Two => &WEIGHTS,
    }
}

/// How many things [`features`] counts.
pub const FEATURES: usize = 16;

/// The names of [`features`]' counts, in order.
pub const FEATURE_NAMES: [&str; FEATURES] = [
    "runs removed",
    "cards face down",
    "empty piles",
    "same-suit pairs",
    "off-suit pairs in order over face-down cards",
    "breaks",
    "breaks over face-down cards",
    "piles ready to turn",
    "piles ready to turn now",
    "off-suit pairs in order over no face-down card",
    "piles with no face-down card",
    "rows dealt",
    "face-down cards squared, pile by pile",
    "piles with one face-down card",
    "piles whose last run can move",
    "piles whose last card a same-suit card could join",
];

/// What [`value`] pays for each of [`features`]' counts, learned (see
/// [`value`]). The hand-made weights before them were 400, -12, 40, 10,
/// -3, -3, -3, 6, 46 and nothing for the last seven counts.
pub const WEIGHTS: [i32; FEATURES] = [
    -35, -141, -141, -9, -62, -25, -11, -5, 19, -62, -187, -62, 8, -93, 33, 39,
];

/// The weights at 4 suits, learned from 4-suit games of the lookahead
/// player (own 4-suit deals 4001..4400, played with [`WEIGHTS`] and again
/// with a first 4-suit fit). At 4 suits few games are won (22 and 33 of
/// those 400), so the outcome fitted is graded: the mean of "won", the
/// share of the 44 face-down cards turned up and the runs removed over
/// 8 (`TARGET=mix` in `lab/results/tuning/learned-value/fit.py`). Against
/// [`WEIGHTS`] they differ most where 4 suits differ: a row dealt and a
/// run removed are worth more than what they cost in face-down cards.
pub const FOUR_SUIT_WEIGHTS: [i32; FEATURES] = [
    82, -128, -128, -8, -41, -37, 17, 5, 13, -36, -145, 94, 12, -70, 16, 26,
];

/// The counts [`value`] weighs ([`FEATURE_NAMES`]): what a player sees
/// of a position, with a pair that holds an unknown card out of order.
pub fn features(position: &Position) -> [i32; FEATURES] {
    let mut counts = [0; FEATURES];
    counts[0] = position.runs_removed() as i32;
    counts[11] = position.rows_dealt() as i32;
    let ends = PileEnds::of(position);
    let any_empty = ends.any_empty;
    for pile in 0..PILES {
        if position.is_empty_pile(pile) {
            counts[2] += 1;
            continue;
        }
        let down = position.face_down_count(pile);
        counts[1] += down as i32;
        counts[12] += (down * down) as i32;
        match down {
            0 => counts[10] += 1,
            1 => counts[13] += 1,
            _ => {}
        }
        let up = position.face_up(pile);
        // The last run: the cards at the end of the pile in order; its
        // head, and whether cards lie under it.
        let first = up.clone().next().flatten();
        let mut head = first;
        let mut under_head = false;
        let mut one_run = first.is_some();
        for (below, above) in up.clone().zip(up.clone().skip(1)) {
            match (below, above) {
                (Some(below), Some(above))
                    if above.rank() + 1 == below.rank() && above.suit() == below.suit() =>
                {
                    counts[3] += 1
                }
                (Some(below), Some(above)) if above.rank() + 1 == below.rank() => {
                    one_run = false;
                    counts[if down > 0 { 4 } else { 9 }] += 1;
                }
                _ => {
                    one_run = false;
                    head = above;
                    under_head = true;
                    counts[5] += 1;
                    if down > 0 {
                        counts[6] += 1;
                    }
                }
            };
        }
        if let Some(head) = head {
            let onto = ends.others_of_rank(pile, head.rank() + 1);
            if onto || (any_empty && (under_head || down > 0)) {
                counts[14] += 1;
            }
        }
        if let Some(Some(end)) = up.clone().next_back()
            && ends.others_a_card_below(pile, end)
        {
            counts[15] += 1;
        }
        if down > 0 && one_run {
            let room = any_empty || first.is_some_and(|c| ends.others_of_rank(pile, c.rank() + 1));
            counts[if room { 8 } else { 7 }] += 1;
        }
    }
    counts
}

/// Where a run can move: the piles whose last card is of each rank and
/// those whose last card is each card (bit `pile` set; an empty pile or an
/// unknown last card sets none), and whether a pile is empty.
struct PileEnds {
    by_rank: [u16; 15],
    by_card: [u16; Card::DISTINCT],
    any_empty: bool,
}

impl PileEnds {
    fn of(position: &Position) -> PileEnds {
        let mut ends = PileEnds {
            by_rank: [0; 15],
            by_card: [0; Card::DISTINCT],
            any_empty: false,
        };
        for pile in 0..PILES {
            ends.any_empty |= position.is_empty_pile(pile);
            if let Some(Some(card)) = position.face_up(pile).next_back() {
                ends.by_rank[card.rank() as usize] |= 1 << pile;
                ends.by_card[card.index() as usize] |= 1 << pile;
            }
        }
        ends
    }

    /// Whether a pile other than `pile` ends with a card of `rank`.
    fn others_of_rank(&self, pile: usize, rank: u8) -> bool {
        self.by_rank
            .get(rank as usize)
            .is_some_and(|&piles| piles & !(1 << pile) != 0)
    }

    /// Whether a pile other than `pile` ends with the card of `card`'s
    /// suit one rank below it, which `card` could join as a same-suit pair.
    fn others_a_card_below(&self, pile: usize, card: Card) -> bool {
        card.rank() > 1 && self.by_card[card.index() as usize - 1] & !(1 << pile) != 0
    }
}

/// The share of the cards not seen that is of each rank (index 1 to 13):
/// eight cards of each rank in the deck, less the runs removed and the
/// cards face up.
pub fn unseen_ranks(position: &Position) -> [f32; 14] {
    let mut count = [8 - position.runs_removed() as i32; 14];
    count[0] = 0;
    for pile in 0..PILES {
        for card in position.face_up(pile).flatten() {
            count[card.rank() as usize] -= 1;
        }
    }
    let total: i32 = count.iter().map(|&c| c.max(0)).sum();
    count.map(|c| {
        if total > 0 {
            c.max(0) as f32 / total as f32
        } else {
            0.0
        }
    })
}

/// What the card a line turns up is worth on average, [`REVEAL_WEIGHT`]
/// times: the card is any of those not seen, each rank as likely as its
/// share of them ([`unseen_ranks`]). In each pile whose one face-up card
/// is the card just turned up, it is worth [`READY_TO_TURN`] and
/// [`TURN_NOW`] by the chance that it can move now (when cards are still
/// face down under it), or an empty pile by the chance that it can move
/// onto another pile's card (when none is). [`value`] cannot count these,
/// since the card is not known; a player can, and so chooses, among the
/// cards to turn up, the one most likely to be of use. No card is read:
/// the chances are those of every card not seen.
pub fn reveal_bonus(position: &Position, ranks: &[f32; 14]) -> i32 {
    let ends = PileEnds::of(position);
    let mut bonus = 0f32;
    for pile in 0..PILES {
        let mut up = position.face_up(pile);
        if !(matches!(up.next(), Some(None)) && up.next().is_none()) {
            continue;
        }
        let onto = |rank: usize| ends.others_of_rank(pile, rank as u8 + 1);
        let fits: f32 = (1..14).filter(|&r| onto(r)).map(|r| ranks[r]).sum();
        if position.face_down_count(pile) > 0 {
            let can_move = if ends.any_empty { 1.0 } else { fits };
            bonus += READY_TO_TURN as f32 + TURN_NOW as f32 * can_move;
        } else {
            bonus += 40.0 * fits;
        }
    }
    (bonus * REVEAL_WEIGHT as f32).round() as i32
}

/// How many times [`reveal_bonus`] counts: measured with the lookahead
/// player alone on deals no other study uses (docs/unknown-cards.md), 1
/// to 4 times; twice won the most at 2 suits (82 of 200 against 68 without
/// it, 68 once, 78 and 79 three and four times) and left the fewest cards
/// face down at 4 suits (18.9 against 20.1).
pub const REVEAL_WEIGHT: i32 = 2;

/// [`reveal_bonus`]'s worth of a pile whose face-up cards over face-down
/// ones are one same-suit run (one move from turning up a card): the
/// hand-made value's weight, kept with its scale when the value's weights
/// were learned.
pub const READY_TO_TURN: i32 = 6;
/// [`reveal_bonus`]'s further worth when that run can move now.
pub const TURN_NOW: i32 = 40;

/// The best line found by [`best_line`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The moves, the last of which turns up a card (or wins); empty when
    /// no move leads anywhere new.
    pub moves: Vec<Move>,
    /// [`value`] of the position the line reaches, and the worth of the
    /// card it turns up on average ([`reveal_bonus`]).
    pub value: i32,
    /// Whether the line ends by turning up a card (or a win), rather than
    /// at the best position that turns up nothing.
    pub turns_up: bool,
}

/// The line to play from `view` (a deal whose face-down and stock cards are
/// all `XX`): the best leaf within `max_positions` positions reached
/// without turning up a card, or, when no move turns up a card, the line to
/// the best position that scores higher than the start and is not in
/// `avoid` (keys of [`Game::key`] already played through). `None` when no
/// line leads anywhere better.
pub fn best_line(
    view: &Deal,
    max_positions: usize,
    avoid: &HashSet<u128>,
) -> Result<Option<Line>, ShapeError> {
    let found = lines(view, max_positions, avoid)?;
    Ok(found.leaves.into_iter().next().or(found.inner))
}

/// What [`lines`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lines {
    /// For each set of places a card can be turned up from (the piles a
    /// move uncovers, or the deal), the best line that ends by turning them
    /// up, best first (equal values: the one found first, the shortest).
    /// A line that wins comes alone.
    pub leaves: Vec<Line>,
    /// The line to the best position that turns up nothing, scores higher
    /// than the start and is not in `avoid`. When there is none and no
    /// leaf either, while stock rows are left and some pile is empty (the
    /// rules deal onto no empty pile): the line to the position, not in
    /// `avoid`, with the fewest empty piles, fewer than at the start, and
    /// of those the best. Filling empty piles scores lower (an empty pile
    /// is worth more than a card on it), but the deal is the only way on,
    /// and the line to it is deeper than the search reaches: with four
    /// empty piles it is four moves into them, each one of some twenty
    /// cards or runs, and breadth first the positions run out after three.
    /// One pile filled at a time, the next search reaches the deal.
    pub inner: Option<Line>,
}

/// Searches, breadth first, every line of moves from `view` (a deal whose
/// face-down and stock cards are all `XX`) that turns up no card, up to
/// `max_positions` positions, and keeps the best line to each way of
/// turning up cards (see [`Lines`]).
pub fn lines(
    view: &Deal,
    max_positions: usize,
    avoid: &HashSet<u128>,
) -> Result<Lines, ShapeError> {
    let game = Game::new(view)?;
    let start = game.start().clone();
    // Every position reached, with its parent and the move from it.
    let mut tree: Vec<(u32, Move, Position)> = vec![(u32::MAX, Move::Deal, start.clone())];
    let mut seen: HashSet<u128> = HashSet::from([game.key(&start)]);
    let mut queue = VecDeque::from([0u32]);
    // The best leaf of each way of turning up cards: (value, order found,
    // node, move), in the order the ways were first found.
    let mut leaves: Vec<(u32, (i32, usize, u32, Move))> = Vec::new();
    let mut found = 0usize;
    // Only a position better than the start is worth a line that turns
    // up nothing: anything else wanders.
    let mut best_inner: Option<(i32, u32)> = None;
    let suits = view.suits;
    let start_value = value(&start, suits);
    // While the deal waits for the empty piles to be filled: the best
    // position with the fewest of them (then the highest value), fewer
    // than at the start and not in `avoid`.
    let empty_piles = |p: &Position| (0..PILES).filter(|&i| p.is_empty_pile(i)).count();
    let start_empty = empty_piles(&start);
    let blocked = game.rows_left(&start) > 0 && start_empty > 0;
    let mut best_fill: Option<(usize, i32, u32)> = None;
    let ranks = unseen_ranks(&start);
    let mut moves = Vec::new();
    while let Some(at) = queue.pop_front() {
        let position = tree[at as usize].2.clone();
        moves.clear();
        let runs = game.moves(&position, &mut moves);
        skip_other_empty_piles(&position, &mut moves);
        if suits == SuitCount::Four {
            keep_runs_whole(&position, runs, &mut moves);
        }
        for &mv in &moves {
            let step = game.apply(&position, mv);
            if step.position.is_won() {
                let line = Line {
                    moves: line_to(&tree, at, Some(mv)),
                    value: value(&step.position, suits),
                    turns_up: true,
                };
                return Ok(Lines {
                    leaves: vec![line],
                    inner: None,
                });
            }
            if !step.reveals.is_empty() {
                let value = value(&step.position, suits) + reveal_bonus(&step.position, &ranks);
                let way = step.reveals.places();
                found += 1;
                match leaves.iter_mut().find(|(w, _)| *w == way) {
                    // Strictly better only: the first (shortest) line wins ties.
                    Some((_, best)) if value > best.0 => *best = (value, found, at, mv),
                    Some(_) => {}
                    None => leaves.push((way, (value, found, at, mv))),
                }
                continue;
            }
            let key = game.key(&step.position);
            if tree.len() >= max_positions || !seen.insert(key) {
                continue;
            }
            let value = value(&step.position, suits);
            tree.push((at, mv, step.position));
            let index = (tree.len() - 1) as u32;
            if value > start_value
                && !avoid.contains(&key)
                && best_inner.is_none_or(|(best, _)| value > best)
            {
                best_inner = Some((value, index));
            }
            if blocked && !avoid.contains(&key) {
                let empty = empty_piles(&tree[index as usize].2);
                if empty < start_empty
                    && best_fill.is_none_or(|(e, v, _)| (empty, -value) < (e, -v))
                {
                    best_fill = Some((empty, value, index));
                }
            }
            queue.push_back(index);
        }
    }
    if leaves.is_empty() && best_inner.is_none() {
        // Nothing to turn up and nothing better: fill the empty piles the
        // deal waits for (see [`Lines::inner`]).
        best_inner = best_fill.map(|(_, value, at)| (value, at));
    }
    let mut best: Vec<(i32, usize, u32, Move)> = leaves.into_iter().map(|(_, b)| b).collect();
    best.sort_by_key(|&(value, order, ..)| (std::cmp::Reverse(value), order));
    Ok(Lines {
        leaves: best
            .into_iter()
            .map(|(value, _, at, mv)| Line {
                moves: line_to(&tree, at, Some(mv)),
                value,
                turns_up: true,
            })
            .collect(),
        inner: best_inner.map(|(value, at)| Line {
            moves: line_to(&tree, at, None),
            value,
            turns_up: false,
        }),
    })
}

/// Drops from `moves` those that break a same-suit run: part of a pile's
/// run moved anywhere but onto a card of its own suit (the other copy of
/// the card it leaves, in a deck of two). The rule strong players give
/// first at 4 suits: a same-suit run is what a suit is removed from, and a
/// run broken onto another suit, or into an empty pile, is a run to build
/// again, with cards that at 4 suits seldom come back in order. The lookahead
/// searches the moves it keeps: whole runs, and parts onto their own suit.
/// `runs` are the piles' run lengths ([`Position::run_lengths`], as
/// [`Game::moves`] returns them).
/// Measured game by game with the same seeds (docs/unknown-cards.md): at 4
/// suits the lookahead player with the rule won about three times as many
/// games as without it, in half the CPU; at 1 suit it lost games (there
/// every card is of the one suit, so the rule only keeps runs out of empty
/// piles, which 1-suit play needs), and at 2 suits it changed nothing
/// measurable. So it holds at 4 suits only. A rule of the player's
/// search, not of the game: the solver and every verdict are untouched.
pub(super) fn keep_runs_whole(position: &Position, runs: [u8; PILES], moves: &mut Vec<Move>) {
    moves.retain(|&mv| match mv {
        Move::Shift { from, to, count } if count < runs[from as usize] => {
            let moved = position
                .face_up(from as usize)
                .nth_back(count as usize - 1)
                .flatten();
            let onto = position.face_up(to as usize).next_back().flatten();
            matches!((moved, onto), (Some(moved), Some(onto)) if moved.suit() == onto.suit())
        }
        _ => true,
    });
}

/// Drops from `moves` those into an empty pile after the first: every
/// empty pile is worth the same to a player who cannot see the cards. An
/// empty pile holds nothing, and what the deals will put on it is as
/// unknown as what they will put on any other (the unseen cards are
/// equally likely in every place), so a run moved into empty pile `j`
/// rather than `i` reaches the same position with piles `i` and `j`
/// swapped: the same lines from it, the same values, the same chances.
/// Searching one of them keeps every choice and spares the copies, which
/// late in a game, with several empty piles, would take most of the
/// lookahead's positions.
fn skip_other_empty_piles(position: &Position, moves: &mut Vec<Move>) {
    let Some(first) = (0..PILES).find(|&pile| position.is_empty_pile(pile)) else {
        return;
    };
    moves.retain(|&mv| match mv {
        Move::Shift { to, .. } => to as usize == first || !position.is_empty_pile(to as usize),
        Move::Deal => true,
    });
}

/// The moves from the start to node `at` of `tree`, then `last`.
pub(super) fn line_to(
    tree: &[(u32, Move, Position)],
    mut at: u32,
    last: Option<Move>,
) -> Vec<Move> {
    let mut line: Vec<Move> = last.into_iter().collect();
    while at != 0 {
        let (parent, mv, _) = &tree[at as usize];
        line.push(*mv);
        at = *parent;
    }
    line.reverse();
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deal::yaml;
    use std::path::Path;

    fn game_move(game: &Game, text: &str) -> Move {
        let mut moves = Vec::new();
        game.moves(game.start(), &mut moves);
        moves
            .into_iter()
            .find(|mv| mv.to_string() == text)
            .expect("a legal move")
    }

    /// With three empty piles, the moves into the second and third are
    /// dropped and every other move is kept.
    #[test]
    fn runs_go_into_the_first_empty_pile_only() {
        let text = "\
suits: 1
piles:
  - face_up: [KS, QS]
  - face_up: []
  - face_up: [5S, 4S, 3S, 2S]
  - face_up: []
  - face_down: [XX]
    face_up: [9S]
  - face_up: []
  - face_up: [4S]
  - face_up: [JS, 10S]
  - face_up: [8S]
  - face_up: [7S, 6S]
stock:
  - [XX, XX, XX, XX, XX, XX, XX, XX, XX, XX]
removed: [S, S, S, S, S]
";
        let deal = yaml::from_str(text, Path::new("t.yaml")).unwrap();
        let game = Game::new(&deal).unwrap();
        let mut all = Vec::new();
        game.moves(game.start(), &mut all);
        let mut kept = all.clone();
        skip_other_empty_piles(game.start(), &mut kept);
        let into = |mv: &Move, pile: u8| matches!(mv, Move::Shift { to, .. } if *to == pile);
        assert!(all.iter().any(|mv| into(mv, 3)) && all.iter().any(|mv| into(mv, 5)));
        let expected: Vec<Move> = all
            .iter()
            .copied()
            .filter(|mv| !into(mv, 3) && !into(mv, 5))
            .collect();
        assert_eq!(kept, expected);
        assert!(kept.iter().any(|mv| into(mv, 1)));
    }

    /// At 4 suits the search keeps same-suit runs whole: of 8♥ 7♥ 6♥ on
    /// 9♠, the whole run goes anywhere it fits (onto 9♣, into the empty
    /// pile), and a part only onto its own suit (6♥ onto the other 7♥);
    /// 6♥ onto 7♠ and a part into the empty pile are dropped.
    #[test]
    fn at_four_suits_a_same_suit_run_moves_whole_or_onto_its_own_suit() {
        let text = "\
suits: 4
piles:
  - face_up: [9S, 8H, 7H, 6H]
  - face_up: [7H]
  - face_up: [9C]
  - face_up: [7S]
  - face_up: []
  - face_up: [KD]
  - face_up: [KD]
  - face_up: [KC]
  - face_up: [KC]
  - face_up: [KS]
stock:
  - [XX, XX, XX, XX, XX, XX, XX, XX, XX, XX]
";
        let deal = yaml::from_str(text, Path::new("t.yaml")).unwrap();
        let game = Game::new(&deal).unwrap();
        let mut moves = Vec::new();
        let runs = game.moves(game.start(), &mut moves);
        let all: Vec<String> = moves.iter().map(Move::to_string).collect();
        for dropped in ["1-4/1", "1-5/1", "1-5/2"] {
            assert!(all.contains(&dropped.to_owned()), "{dropped} in {all:?}");
        }
        keep_runs_whole(game.start(), runs, &mut moves);
        let kept: Vec<String> = moves.iter().map(Move::to_string).collect();
        assert_eq!(
            kept,
            [
                "1-2/1", "1-3/3", "1-5/3", "2-5/1", "3-5/1", "4-5/1", "6-5/1", "7-5/1", "8-5/1",
                "9-5/1", "10-5/1"
            ]
        );
    }

    /// The position of `piles` (one line each, as in a deal file) with six
    /// runs removed, no stock, one suit.
    fn position(piles: &[&str]) -> Position {
        let mut text = String::from("suits: 1\npiles:\n");
        for pile in piles {
            text.push_str(&format!("  - {pile}\n"));
        }
        text.push_str("stock: []\nremoved: [S, S, S, S, S, S]\n");
        let deal = yaml::from_str(&text, Path::new("t.yaml")).unwrap();
        Game::new(&deal).unwrap().start().clone()
    }

    /// The piles of the two tests below (six runs removed, see
    /// [`position`]).
    const SIX_RUNS_REMOVED: [&str; PILES] = [
        "{face_down: [XX], face_up: [5S, 4S]}",
        "{face_up: [6S]}",
        "{face_down: [XX, XX], face_up: [9S, 3S]}",
        "{face_down: [XX], face_up: [KS]}",
        "{face_up: [QS]}",
        "{face_up: [JS]}",
        "{face_up: [10S]}",
        "{face_up: [8S]}",
        "{face_up: [7S]}",
        "{face_up: [2S]}",
    ];

    /// The cards that can surely be turned up: pile 1's 5-4 over one
    /// face-down card can go on pile 2's 6 (ready now); pile 4's king over
    /// one has nowhere to go (ready). Without the 6 the 5-4 cannot move;
    /// with an empty pile the king can.
    #[test]
    fn value_counts_the_cards_that_can_surely_be_turned_up() {
        const READY: usize = 7;
        const NOW: usize = 8;
        let mut piles = SIX_RUNS_REMOVED.to_vec();
        let counts = features(&position(&piles));
        assert_eq!((counts[READY], counts[NOW]), (1, 1));
        piles[1] = "{face_up: [AS]}";
        let counts = features(&position(&piles));
        assert_eq!((counts[READY], counts[NOW]), (2, 0));
        piles[1] = "{face_up: [6S]}";
        piles[4] = "{face_up: []}";
        let counts = features(&position(&piles));
        assert_eq!((counts[READY], counts[NOW]), (0, 2));
    }

    /// The counts of the same position, one by one (see
    /// [`FEATURE_NAMES`]), and the value is the counts times [`WEIGHTS`]
    /// (the position is of 1 suit), and would be times
    /// [`FOUR_SUIT_WEIGHTS`] at 4.
    #[test]
    fn features_count_what_the_value_weighs() {
        let piles = SIX_RUNS_REMOVED;
        let counts = features(&position(&piles));
        // Six runs; 4 face down; no empty pile; 5S-4S; no pair in order
        // off suit; 9S-3S a break, over face-down cards; pile 4's king
        // ready to turn, pile 1's run ready now (onto 6S); piles 2 and 5
        // to 10 with nothing face down; no row dealt; 1 + 4 + 1 face down
        // squared; piles 1 and 4 with one face-down card; every last run
        // but KS and 8S can move; 4S, 3S, KS, QS, JS, 8S, 7S can be joined
        // by the same suit's next card down.
        assert_eq!(counts, [6, 4, 0, 1, 0, 1, 1, 1, 1, 0, 7, 0, 6, 2, 8, 7]);
        let weighed: i32 = counts.iter().zip(WEIGHTS).map(|(c, w)| c * w).sum();
        assert_eq!(value(&position(&piles), SuitCount::One), weighed);
        assert_eq!(weights(SuitCount::Two), &WEIGHTS);
        assert_eq!(weights(SuitCount::Four), &FOUR_SUIT_WEIGHTS);
    }

    /// The position of `piles` (see [`position`]) after `mv`.
    fn after(piles: &[&str], mv: &str) -> Position {
        let mut text = String::from("suits: 1\npiles:\n");
        for pile in piles {
            text.push_str(&format!("  - {pile}\n"));
        }
        text.push_str("stock: []\nremoved: [S, S, S, S, S, S]\n");
        let deal = yaml::from_str(&text, Path::new("t.yaml")).unwrap();
        let game = Game::new(&deal).unwrap();
        game.apply(game.start(), game_move(&game, mv)).position
    }

    /// The queen of pile 1 goes onto the king: the card under it turns up
    /// (face up, not known) over one face-down card. Of the 16 cards not
    /// seen (two of each rank, less the ten face up), 11 can go on another
    /// pile's last card: the two jacks on the queen, an eight on the 9, the
    /// two aces and a 2 to 7 on the 2 to 8. So it is worth twice 6 + 40 ×
    /// 11/16, 67; with an empty pile it can always move: twice 46. Before
    /// the move no card is turned up: nothing.
    #[test]
    fn a_card_turned_up_is_worth_its_chance_to_move() {
        let mut piles = vec![
            "{face_down: [XX, XX], face_up: [QS]}",
            "{face_up: [KS]}",
            "{face_up: [9S]}",
            "{face_up: [2S]}",
            "{face_up: [3S]}",
            "{face_up: [4S]}",
            "{face_up: [5S]}",
            "{face_up: [6S]}",
            "{face_up: [7S]}",
            "{face_up: [8S]}",
        ];
        let before = position(&piles);
        let ranks = unseen_ranks(&before);
        assert_eq!(ranks[11], 2.0 / 16.0);
        assert_eq!(ranks[12], 1.0 / 16.0);
        assert_eq!(reveal_bonus(&before, &ranks), 0);
        let at = after(&piles, "1-2/1");
        assert_eq!(at.face_up(0).collect::<Vec<_>>(), vec![None]);
        assert_eq!(reveal_bonus(&at, &ranks), 67);
        piles[9] = "{face_up: []}";
        let at = after(&piles, "1-2/1");
        assert_eq!(
            reveal_bonus(&at, &unseen_ranks(&at)),
            2 * (READY_TO_TURN + TURN_NOW)
        );
    }

    /// A position where a card can be turned up: the line ends by turning
    /// one up, every move before it turns up nothing, and it reaches a
    /// position at least as good as turning up at once (here it first
    /// gathers the spades into longer runs).
    #[test]
    fn turns_up_a_card_when_one_can_be() {
        let text = "\
suits: 1
piles:
  - face_down: [XX]
    face_up: [5S]
  - face_up: [6S]
  - face_down: [XX, XX]
    face_up: [KS]
  - face_up: [9S]
  - face_up: [QS]
  - face_up: [JS]
  - face_up: [10S]
  - face_up: [8S]
  - face_up: [7S]
  - face_up: [4S]
stock: []
removed: [S, S, S, S, S, S]
";
        let deal = yaml::from_str(text, Path::new("t.yaml")).unwrap();
        let line = best_line(&deal, 1000, &HashSet::new()).unwrap().unwrap();
        assert!(line.turns_up);
        let game = Game::new(&deal).unwrap();
        let mut position = game.start().clone();
        for (at, &mv) in line.moves.iter().enumerate() {
            game.check(&position, mv).unwrap();
            let step = game.apply(&position, mv);
            assert_eq!(step.reveals.is_empty(), at + 1 < line.moves.len(), "{at}");
            position = step.position;
        }
        let ranks = unseen_ranks(game.start());
        assert_eq!(
            line.value,
            value(&position, SuitCount::One) + reveal_bonus(&position, &ranks)
        );
        // Turning up pile 1's card at once (5S onto 6S) is worth less.
        let at_once = game.apply(game.start(), game_move(&game, "1-2/1")).position;
        assert!(line.value >= value(&at_once, SuitCount::One));
    }
}
