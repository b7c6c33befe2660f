//! The fast playout policy: a whole blind game in about a millisecond.
//!
//! Each move is chosen from what the player sees, one move ahead: every
//! legal move is played on the *masked* game (every face-down and stock
//! card `XX`), and the position it leads to is scored by a weighted sum of
//! what a player counts there ([`move_features`]: runs removed, cards face
//! down, empty piles, same-suit pairs, breaks, piles one run from turning
//! a card up, the cards a move turns up and what such a card is worth on
//! average over the cards not seen, a deal). The move with the best score
//! is played, unless it leads back to a position met since the last card
//! turned up (no move that undoes the last, no shuffling). The weights are
//! learned from the outcomes of blind games ([`super::train`]), never from
//! lines solved with the cards known, and ship in `weights/playout.json`.
//!
//! A *playout* ([`play_out`]) plays the policy to the end of a game on a
//! completion of the unseen cards. The policy scores its moves on the
//! masked game, so a card of the completion comes into play only when it
//! turns up: playing on a completion drawn in advance or drawing each card
//! as it turns up is the same draw. It never reads a hidden card.

use std::sync::LazyLock;

use crate::cards::SuitCount;
use crate::deal::{Deal, PILES, ShapeError};
use crate::game::{Game, Move, Position};

use super::lookahead::{FEATURES, features, keep_runs_whole, line_to, reveal_bonus, unseen_ranks};

/// How many things a move is scored on: [`features`]' counts of the
/// position it leads to, then the cards it turns up, what they are worth
/// on average ([`reveal_bonus`], in hundreds) and whether it deals.
pub const MOVE_FEATURES: usize = FEATURES + 3;

/// The names of [`move_features`]' counts, in order.
pub fn feature_names() -> [&'static str; MOVE_FEATURES] {
    let mut names = [""; MOVE_FEATURES];
    names[..FEATURES].copy_from_slice(&super::lookahead::FEATURE_NAMES);
    names[FEATURES] = "cards the move turns up";
    names[FEATURES + 1] = "worth of those cards on average (hundreds)";
    names[FEATURES + 2] = "the move deals a row";
    names
}

/// The policy's weights for one suit count.
pub type Weights = [f32; MOVE_FEATURES];

/// The weights file that ships with the tool, written by `spider train`.
pub const WEIGHTS_FILE: &str = include_str!("../../weights/playout.json");

/// The weights file's contents: one set of weights per suit count, and
/// how they were trained.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct WeightsFile {
    /// What wrote the file and how (the training command's settings).
    pub trained: Vec<TrainedWith>,
    pub one_suit: Vec<f32>,
    pub two_suits: Vec<f32>,
    pub four_suits: Vec<f32>,
    /// The calibration of the search player's chance, per suit count
    /// ([`super::chance`]).
    #[serde(default)]
    pub chance: Vec<super::chance::Calibration>,
    /// The chance shown to a player of the other blind players, per suit
    /// count and player ([`super::odds`], `spider train --odds`).
    #[serde(default)]
    pub odds: Vec<super::odds::Odds>,
}

/// How one suit count's weights were trained.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct TrainedWith {
    pub suits: usize,
    pub command: String,
    /// The training games' mean score with the weights written, and their
    /// win share.
    pub score: f64,
    pub won: f64,
}

impl WeightsFile {
    /// Reads a weights file (JSON).
    pub fn parse(text: &str) -> Result<WeightsFile, String> {
        let file: WeightsFile = serde_json::from_str(text).map_err(|e| e.to_string())?;
        for (name, w) in [
            ("one_suit", &file.one_suit),
            ("two_suits", &file.two_suits),
            ("four_suits", &file.four_suits),
        ] {
            if w.len() != MOVE_FEATURES {
                return Err(format!(
                    "{name} has {} weights, expected {MOVE_FEATURES}",
                    w.len()
                ));
            }
            if w.iter().any(|x| !x.is_finite()) {
                return Err(format!("{name} holds a weight that is not a number"));
            }
        }
        for odds in &file.odds {
            if odds.weights.len() != super::odds::INPUTS + 1
                || odds.weights.iter().any(|x| !x.is_finite())
                || odds.tenths.len() != 10
            {
                return Err(format!(
                    "the chance model of the {} player at {} suits needs {} finite weights and 10 tenths",
                    odds.player,
                    odds.suits,
                    super::odds::INPUTS + 1
                ));
            }
        }
        Ok(file)
    }

    /// The weights for `suits`.
    pub fn weights(&self, suits: SuitCount) -> Weights {
        let w = match suits {
            SuitCount::One => &self.one_suit,
            SuitCount::Two => &self.two_suits,
            SuitCount::Four => &self.four_suits,
        };
        let mut out = [0.0; MOVE_FEATURES];
        out.copy_from_slice(w);
        out
    }

    /// Sets the weights for `suits`.
    pub fn set(&mut self, suits: SuitCount, weights: &Weights) {
        let w = weights.to_vec();
        match suits {
            SuitCount::One => self.one_suit = w,
            SuitCount::Two => self.two_suits = w,
            SuitCount::Four => self.four_suits = w,
        }
    }
}

static SHIPPED: LazyLock<WeightsFile> = LazyLock::new(|| {
    WeightsFile::parse(WEIGHTS_FILE).expect("weights/playout.json is checked by a unit test")
});

/// The shipped weights for `suits`.
pub fn shipped(suits: SuitCount) -> Weights {
    SHIPPED.weights(suits)
}

/// The shipped calibration of the search player's chance for `suits`
/// ([`super::chance`]), if one was fitted.
pub fn shipped_calibration(suits: SuitCount) -> Option<&'static super::chance::Calibration> {
    SHIPPED.chance.iter().find(|c| c.suits == suits.count())
}

/// The shipped chance model of `player` at `suits` ([`super::odds`]), if
/// one was fitted.
pub fn shipped_odds(suits: SuitCount, player: &str) -> Option<&'static super::odds::Odds> {
    SHIPPED
        .odds
        .iter()
        .find(|o| o.is_for(suits.count(), player))
}

/// The shipped weights file.
pub fn shipped_file() -> &'static WeightsFile {
    &SHIPPED
}

/// The weights the policy starts from before any training: the
/// lookahead's learned value of a position ([`super::lookahead::weights`])
/// and its worth of the cards turned up, as the lookahead player weighs
/// them.
pub fn starting_weights(suits: SuitCount) -> Weights {
    let mut w = [0.0; MOVE_FEATURES];
    for (to, &from) in w.iter_mut().zip(super::lookahead::weights(suits)) {
        *to = from as f32;
    }
    w[FEATURES + 1] = 100.0;
    w
}

/// What a player counts in the position `next` that a move from `before`
/// leads to (see the module docs); `ranks` is [`unseen_ranks`] of
/// `before`. `next` may be a reveal: its unknown cards count as what they
/// are, cards nobody has seen yet.
pub fn move_features(
    before: &Position,
    next: &Position,
    mv: Move,
    ranks: &[f32; 14],
) -> [f32; MOVE_FEATURES] {
    let mut out = [0.0; MOVE_FEATURES];
    for (to, from) in out.iter_mut().zip(features(next)) {
        *to = from as f32;
    }
    let turned = next
        .unknown_face_up()
        .saturating_sub(before.unknown_face_up());
    out[FEATURES] = turned as f32;
    out[FEATURES + 1] = if turned > 0 {
        reveal_bonus(next, ranks) as f32 / 100.0
    } else {
        0.0
    };
    out[FEATURES + 2] = (mv == Move::Deal) as u8 as f32;
    out
}

fn score(weights: &Weights, counts: &[f32; MOVE_FEATURES]) -> f32 {
    weights.iter().zip(counts).map(|(w, c)| w * c).sum()
}

/// The positions the policy's line search may reach at a decision
/// ([`best_line`]) at default settings.
pub const LINE_POSITIONS: usize = 30;

/// A line search's scratch space, kept between decisions so that a
/// playout allocates nothing after its first.
#[derive(Default)]
pub struct Scratch {
    tree: Vec<(u32, Move, Position)>,
    seen: ahash::AHashSet<u128>,
    moves: Vec<Move>,
    queue: std::collections::VecDeque<u32>,
    best: std::collections::BinaryHeap<Scored>,
}

/// A position waiting in a best-first search: its score, then the order
/// it was reached in (equal scores: the first reached comes out first).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Scored(f32, u32);

impl Eq for Scored {}

impl Ord for Scored {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0
            .total_cmp(&other.0)
            .then_with(|| other.1.cmp(&self.1))
    }
}

impl PartialOrd for Scored {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// The policy's line from `position` of the masked game `masked` (every
/// face-down and stock card `XX`): it searches breadth first, within
/// `budget` positions, the moves that turn up nothing (as good as known)
/// and scores with `weights` every move that ends such a line by turning
/// up cards (a face-down card uncovered, or a deal) and every position
/// reached on the way. The line to play is the one to the best of those
/// moves; with none, the line to the best position that scores better
/// than `position` and is not in `met`; with none while a deal waits for
/// empty piles to be filled, the line that fills one. The lookahead
/// player's search ([`super::lookahead::lines`]), small and with learned
/// weights. With none of these and `explore`, the line to the best
/// position not in `met`, even one that scores lower (a way round).
/// `None` when no line leads anywhere new.
pub fn best_line(
    masked: &Game,
    position: &Position,
    weights: &Weights,
    budget: usize,
    met: &[u128],
    explore: bool,
    scratch: &mut Scratch,
) -> Option<Vec<Move>> {
    lines(masked, position, weights, budget, met, explore, 1, scratch)
        .into_iter()
        .next()
}

/// [`best_line`]'s search, keeping up to `most` lines, best first: for
/// each way of turning up cards (the piles a move uncovers, or the deal)
/// the best line that ends by turning them up; with none, [`best_line`]'s
/// line that turns up nothing, alone. Empty when no line leads anywhere
/// new. A line that wins comes alone.
#[allow(clippy::too_many_arguments)]
pub fn lines(
    masked: &Game,
    position: &Position,
    weights: &Weights,
    budget: usize,
    met: &[u128],
    explore: bool,
    most: usize,
    scratch: &mut Scratch,
) -> Vec<Vec<Move>> {
    // At 4 suits the positions are searched best first, by their score:
    // the same lines are scored the same way, but the search reaches
    // further along the arrangements that score well within the same
    // budget. Measured on 400 PySol deals (23001..23200, 24001..24200)
    // with the lookahead player, whose search this is, game by game: 45
    // won against 19 at 1,000 positions, 64 against 36 at 3,000, 81
    // against 57 at 10,000, the same CPU a game; on 400 fresh ones
    // (27001..27400) 59 against 31 at 3,000. This policy at 4 suits, own
    // deals 30001..30600: 45 against 24 with its shipped weights at 1,000
    // positions, 65 against 47 at 3,000 (benches/playout.rs). At the
    // lookahead's own budgets the gain is gone (77 against 76 of 300 PySol
    // deals), and at 2 suits it was none (60 against 58 of 100 own deals at
    // 50,000): breadth first there. Only which positions are searched
    // changes; nothing here reads a hidden card.
    let best_first = masked.suits() == SuitCount::Four;
    search(
        masked, position, weights, budget, met, explore, most, scratch, best_first,
    )
}

/// [`lines`]' search, breadth first or best first.
#[allow(clippy::too_many_arguments)]
fn search(
    masked: &Game,
    position: &Position,
    weights: &Weights,
    budget: usize,
    met: &[u128],
    explore: bool,
    most: usize,
    scratch: &mut Scratch,
    best_first: bool,
) -> Vec<Vec<Move>> {
    let Scratch {
        tree,
        seen,
        moves,
        queue,
        best,
    } = scratch;
    tree.clear();
    seen.clear();
    queue.clear();
    best.clear();
    tree.push((u32::MAX, Move::Deal, position.clone()));
    seen.insert(masked.key(position));
    queue.push_back(0);
    let ranks = unseen_ranks(position);
    let standing = score(
        weights,
        &move_features(position, position, Move::Deal, &ranks),
    ) - weights[FEATURES + 2];
    let empty_piles = |p: &Position| (0..PILES).filter(|&i| p.is_empty_pile(i)).count();
    let start_empty = empty_piles(position);
    let blocked = masked.rows_left(position) > 0 && start_empty > 0;
    // The best leaf of each way of turning up cards (way, score, node, last
    // move), the best inner node (score, node) and the best node with
    // fewer empty piles (empty, score, node).
    let mut leaves: Vec<(u32, f32, u32, Move)> = Vec::new();
    let mut inner: Option<(f32, u32)> = None;
    let mut fill: Option<(usize, f32, u32)> = None;
    let mut wander: Option<(f32, u32)> = None;
    while let Some(at) = best
        .pop()
        .map(|Scored(_, at)| at)
        .or_else(|| queue.pop_front())
    {
        let from = tree[at as usize].2.clone();
        moves.clear();
        let runs = masked.moves(&from, moves);
        if masked.suits() == SuitCount::Four {
            keep_runs_whole(&from, runs, moves);
        }
        if let Some(first) = (0..PILES).find(|&pile| from.is_empty_pile(pile)) {
            moves.retain(|&mv| match mv {
                Move::Shift { to, .. } => to as usize == first || !from.is_empty_pile(to as usize),
                Move::Deal => true,
            });
        }
        for &mv in moves.iter() {
            let step = masked.apply(&from, mv);
            if step.position.is_won() {
                return vec![line_to(tree, at, Some(mv))];
            }
            let s = score(weights, &move_features(&from, &step.position, mv, &ranks));
            if !step.reveals.is_empty() {
                let way = step.reveals.places();
                match leaves.iter_mut().find(|l| l.0 == way) {
                    Some(best) if s > best.1 => *best = (way, s, at, mv),
                    Some(_) => {}
                    None => leaves.push((way, s, at, mv)),
                }
                continue;
            }
            let key = masked.key(&step.position);
            if tree.len() >= budget || !seen.insert(key) {
                continue;
            }
            let fresh = !met.contains(&key);
            let empty = if blocked {
                empty_piles(&step.position)
            } else {
                0
            };
            tree.push((at, mv, step.position));
            let node = (tree.len() - 1) as u32;
            if fresh && s > standing && inner.is_none_or(|(b, _)| s > b) {
                inner = Some((s, node));
            }
            if fresh && wander.is_none_or(|(b, _)| s > b) {
                wander = Some((s, node));
            }
            if fresh
                && blocked
                && empty < start_empty
                && fill.is_none_or(|(e, b, _)| (empty, -s) < (e, -b))
            {
                fill = Some((empty, s, node));
            }
            if best_first {
                best.push(Scored(s, node));
            } else {
                queue.push_back(node);
            }
        }
    }
    if !leaves.is_empty() {
        // Best first; equal scores in the order found (the stable sort).
        leaves.sort_by(|a, b| b.1.total_cmp(&a.1));
        return leaves
            .iter()
            .take(most)
            .map(|&(_, _, at, mv)| line_to(tree, at, Some(mv)))
            .collect();
    }
    inner
        .map(|(_, at)| at)
        .or(fill.map(|(.., at)| at))
        .or(if explore {
            wander.map(|(_, at)| at)
        } else {
            None
        })
        .map(|at| line_to(tree, at, None))
        .into_iter()
        .collect()
}

/// How a playout ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub won: bool,
    /// Runs removed during the playout (not counting those removed before).
    pub runs_removed: u8,
    /// Face-down cards left at the end, and at the start.
    pub face_down_left: u8,
    pub face_down_start: u8,
    /// Moves played (deals included).
    pub moves: u32,
}

impl Outcome {
    /// A graded score in 0..=1 for comparing lines where wins are rare:
    /// 1 for a win, else what was made of the game, runs removed counting
    /// most and cards turned up next (a player's progress).
    pub fn score(&self) -> f64 {
        if self.won {
            return 1.0;
        }
        let turned = if self.face_down_start > 0 {
            1.0 - self.face_down_left as f64 / self.face_down_start as f64
        } else {
            1.0
        };
        0.5 * self.runs_removed as f64 / 8.0 + 0.3 * turned
    }
}

/// The most moves a playout plays before it is called lost.
pub const MAX_MOVES: u32 = 1_500;

/// The lines a playout plays without turning up a card before it stops
/// exploring (see [`best_line`]'s `explore`).
pub const MAX_WANDERS: u32 = 20;

/// The positions the solver may examine to decide a playout's end, when
/// nothing is hidden any more.
pub const ENDGAME_POSITIONS: u64 = 20_000;

/// Whether `position` of `real` (nothing hidden) can be won, by the solver
/// within [`ENDGAME_POSITIONS`] (undecided counts as lost).
pub fn endgame_won(real: &Game, position: &Position) -> bool {
    let Some(deal) = real.deal_at(position) else {
        return false;
    };
    let limits = crate::solve::Limits {
        max_positions: Some(ENDGAME_POSITIONS),
        shorten_positions: 0,
        ..crate::solve::Limits::default()
    };
    let never = std::sync::atomic::AtomicBool::new(false);
    crate::solve::analyze_unshortened(&deal, &limits, &never)
        .is_ok_and(|a| a.verdict == crate::solve::Verdict::Winnable)
}

/// A completion of the masked game's unseen cards, as a game with every
/// card known, from the same position: `deal` is the view's deal (its
/// `XX` slots are the unseen cards) and `fill` fills them in
/// [`Deal::unknown_places`] order.
pub fn completed_game(deal: &Deal, fill: &[crate::cards::Card]) -> Result<Game, ShapeError> {
    Game::new(&deal.with_unknowns_filled(fill)?)
}

/// Plays the policy from `position` to the end of the game: lines chosen
/// on `masked` (it never sees a card before it turns up), played on
/// `real`, the same game with every card known. `met` holds the keys of
/// positions met since the last card turned up before `position` (the
/// policy does not go back to them).
pub fn play_out(
    masked: &Game,
    real: &Game,
    position: &Position,
    weights: &Weights,
    budget: usize,
    met: &[u128],
    scratch: &mut Scratch,
) -> Outcome {
    let runs_before = position.runs_removed();
    let face_down_start = position.face_down_total() as u8;
    let mut position = position.clone();
    let mut met: Vec<u128> = met.to_vec();
    let mut played = 0;
    let hidden = |p: &Position| p.face_down_total() + masked.rows_left(p) * PILES;
    let mut wandered = 0;
    'game: while !position.is_won() && played < MAX_MOVES {
        if hidden(&position) == 0 {
            // Nothing hidden any more: what a player who sees every card
            // can do, decided by the solver.
            let won = endgame_won(real, &position);
            return Outcome {
                won,
                runs_removed: if won { 8 } else { position.runs_removed() } as u8
                    - runs_before as u8,
                face_down_left: 0,
                face_down_start,
                moves: played,
            };
        }
        met.push(masked.key(&position));
        let explore = wandered < MAX_WANDERS;
        let Some(line) = best_line(masked, &position, weights, budget, &met, explore, scratch)
        else {
            break;
        };
        wandered += 1;
        for mv in line {
            let before = hidden(&position);
            position = real.apply(&position, mv).position;
            played += 1;
            if hidden(&position) < before {
                met.clear();
                wandered = 0;
                continue 'game;
            }
            met.push(masked.key(&position));
        }
    }
    Outcome {
        won: position.is_won(),
        runs_removed: (position.runs_removed() - runs_before) as u8,
        face_down_left: position.face_down_total() as u8,
        face_down_start,
        moves: played,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deal::Rules;
    use crate::deal::numbered;
    use crate::unknown::view::View;

    #[test]
    fn the_shipped_weights_load() {
        let file = WeightsFile::parse(WEIGHTS_FILE).unwrap();
        assert_eq!(file.one_suit.len(), MOVE_FEATURES);
        assert!(!file.trained.is_empty(), "the file says how it was trained");
        // A chance model for the default player of each suit count, and HOP's at 1 suit.
        for (suits, player) in [(1, "lookahead"), (1, "hop"), (2, "lookahead"), (4, "hop")] {
            assert!(file.odds.iter().any(|o| o.is_for(suits, player)));
        }
        let mut broken = file.clone();
        broken.odds[0].weights.pop();
        let text = serde_json::to_string(&broken).unwrap();
        assert!(
            WeightsFile::parse(&text)
                .unwrap_err()
                .contains("chance model")
        );
        assert!(WeightsFile::parse("{}").is_err());
    }

    /// A playout on a deal with every card known ends, and plays only
    /// legal moves (the real game's apply checks them in debug builds).
    #[test]
    fn a_playout_ends() {
        let deal = numbered::deal(3, SuitCount::One, Rules::Standard);
        let view = View::of(&deal).unwrap();
        let masked = Game::new(&view.deal()).unwrap();
        let real = Game::new(&deal).unwrap();
        let out = play_out(
            &masked,
            &real,
            masked.start(),
            &shipped(SuitCount::One),
            LINE_POSITIONS,
            &[],
            &mut Scratch::default(),
        );
        assert!(out.moves > 0);
        assert!(out.won || out.moves <= MAX_MOVES);
        assert_eq!(out.face_down_start, 44);
    }

    /// At 4 suits the policy's line search keeps same-suit runs whole, as
    /// the lookahead's does: in whole games of own 4-suit deals 1..3 (the
    /// cards turned up as they come), no move of any line it plays splits
    /// a same-suit run elsewhere than onto its own suit, though the games
    /// pass through such moves (without the rule its lines play some).
    #[test]
    fn at_four_suits_its_lines_break_no_same_suit_run() {
        let mut splits_passed = 0;
        four_suit_games(
            1..=3,
            |_, _, _, _| {},
            |number, masked, position, mv| {
                let mut legal = Vec::new();
                let runs = masked.moves(position, &mut legal);
                let mut kept = legal.clone();
                keep_runs_whole(position, runs, &mut kept);
                splits_passed += legal.len() - kept.len();
                assert!(kept.contains(&mv), "deal {number}: {mv} splits a run");
            },
        );
        assert!(splits_passed > 0);
    }

    /// Whole blind games of own 4-suit deals `numbers`, each decision the
    /// policy's line at 300 positions with the starting weights, the cards
    /// turned up as they come: `decision` hears each decision (the deal's
    /// number, the masked game, the position, the keys met so far), then
    /// `each_move` each move of its line before it is played.
    fn four_suit_games(
        numbers: std::ops::RangeInclusive<u64>,
        mut decision: impl FnMut(u64, &Game, &Position, &[u128]),
        mut each_move: impl FnMut(u64, &Game, &Position, Move),
    ) {
        let weights = starting_weights(SuitCount::Four);
        for number in numbers {
            let deal = numbered::deal(number, SuitCount::Four, Rules::Standard);
            let masked = Game::new(&View::of(&deal).unwrap().deal()).unwrap();
            let real = Game::new(&deal).unwrap();
            let mut position = masked.start().clone();
            let mut met = Vec::new();
            let mut scratch = Scratch::default();
            for _ in 0..300 {
                met.push(masked.key(&position));
                decision(number, &masked, &position, &met);
                let Some(line) =
                    best_line(&masked, &position, &weights, 300, &met, true, &mut scratch)
                else {
                    break;
                };
                for mv in line {
                    each_move(number, &masked, &position, mv);
                    position = real.apply(&position, mv).position;
                    met.push(masked.key(&position));
                }
            }
        }
    }

    /// Best first or breadth first, a search that reaches every position
    /// finds lines of the same scores: the order decides only which
    /// positions a small budget reaches. Through whole games of own 4-suit
    /// deals 1 and 2 (the policy's lines at 300 positions, the cards turned
    /// up as they come), at every decision whose positions number under
    /// 5,000, both orders give the same scores for their best ten lines;
    /// and with 300 positions they differ at some decision.
    #[test]
    fn the_order_of_the_search_changes_what_it_reaches_not_how_it_scores() {
        let line_score = |masked: &Game, from: &Position, line: &[Move], weights: &Weights| {
            let ranks = unseen_ranks(from);
            let mut position = from.clone();
            let mut last = 0.0;
            for &mv in line {
                let next = masked.apply(&position, mv).position;
                last = score(weights, &move_features(&position, &next, mv, &ranks));
                position = next;
            }
            last
        };
        let weights = starting_weights(SuitCount::Four);
        let (mut compared, mut differed) = (0, 0);
        let mut scratch = Scratch::default();
        four_suit_games(
            1..=2,
            |number, masked, position, met| {
                let mut scores = |best_first, budget| {
                    let found = search(
                        masked,
                        position,
                        &weights,
                        budget,
                        met,
                        true,
                        10,
                        &mut scratch,
                        best_first,
                    );
                    let scores: Vec<f32> = found
                        .iter()
                        .map(|line| line_score(masked, position, line, &weights))
                        .collect();
                    (scores, scratch.tree.len())
                };
                let (best, reached) = scores(true, 5_000);
                if reached < 5_000 {
                    assert_eq!(best, scores(false, 5_000).0, "deal {number}");
                    compared += 1;
                }
                differed += (scores(true, 300).0 != scores(false, 300).0) as usize;
            },
            |_, _, _, _| {},
        );
        assert!(compared > 40, "{compared} decisions compared");
        assert!(differed > 0);
    }

    /// The shipped 1-suit calibration holds on the recorded games it was
    /// fitted on (`results/blind/search-1-suit-30001-30025.jsonl`): each
    /// tenth of the chances shown with 100 positions or more is won within
    /// 5 points of its mean chance, and the Brier score is lower than the
    /// raw share's. (Fitted and read on the same games: the check on games
    /// of another range is still to be played.)
    #[test]
    fn the_shipped_calibration_holds_on_its_recorded_games() {
        let text = include_str!("../../results/blind/search-1-suit-30001-30025.jsonl");
        let records = crate::batch::ResultsFile::parse(text).records;
        let points = crate::unknown::chance::points_of(&records);
        assert_eq!(points.len(), 3208);
        let calibration = shipped_calibration(SuitCount::One).expect("a 1-suit calibration ships");
        let raw: Vec<(f64, bool)> = points.iter().map(|&(p, w)| (p as f64, w)).collect();
        let shown: Vec<(f64, bool)> = raw
            .iter()
            .map(|&(p, w)| (calibration.chance(p), w))
            .collect();
        let (before, after) = (
            crate::unknown::chance::Reliability::of(&raw),
            crate::unknown::chance::Reliability::of(&shown),
        );
        assert!(after.brier < before.brier, "{before:?} {after:?}");
        for t in after.tenths.iter().filter(|t| t.positions >= 100) {
            assert!((t.shown - t.won).abs() <= 0.05, "{t:?}");
        }
    }
}
