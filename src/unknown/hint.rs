//! The move to play now, for a player who cannot see the `XX` cards.
//!
//! The method is *hindsight optimisation* (Bjarnason, Fern and Tadepalli,
//! "Lower bounding Klondike solitaire with Monte-Carlo planning", ICAPS
//! 2009): take completions of the unknown cards (all of them, or a uniform
//! sample), solve each as if its cards were known, and play the move that
//! starts a win in the most of them.
//!
//! For each legal move `m` of the position (the deal included, where the
//! rules allow it) the share is: in how many of the decided completions a
//! win was found that starts with `m`. It is computed in two steps:
//!
//! 1. each completion is solved once (that is [`super::sample`]'s job); a
//!    winnable one credits the first move of its winning line;
//! 2. *verification* (the default): for each completion found winnable and
//!    each other candidate move, the position after that move is solved
//!    with the completion's cards, under the same limits; a win credits
//!    the move. The candidates are every legal move, or the few that step
//!    1 ranks best (most credited, then the tie-breaks below) and a move
//!    named besides (the blind player's): a move left out keeps the wins
//!    that start with it in step 1 only, and says so ([`MoveShare::tried`]). A completion proved unwinnable credits no move (no move can
//!    win it), and one left undecided credits none either (nothing was
//!    found), so a share counts only wins actually found and replayed.
//!
//! Without verification ([`Method::FirstMoves`], for the many hints of a
//! hidden-play study) only step 1 runs: cheap, but a move that wins as well
//! as another is credited only when a solver happened to start with it.
//!
//! What the share assumes: each completion is solved *with its cards
//! known*. A player who cannot see them cannot follow a different line for
//! each completion, so the share is an optimistic estimate of that
//! player's chance (an upper bound, up to the limits of the solver).
//!
//! Ties (common: moves that turn up nothing and change nothing that matters
//! win in the same completions) are broken toward moves that turn up a
//! face-down card (those that also build a same-suit run first), then
//! moves that build a same-suit run, then other moves, and the deal last.

use std::sync::atomic::AtomicBool;

use rayon::prelude::*;

use crate::cards::{Card, CardSlot, Suit};
use crate::deal::{Deal, PILES, Pile, ShapeError};
use crate::game::{Game, Move, Position};

use crate::solve::{Limits, SolveError, Verdict};
use crate::stats::Interval;

use super::Decided;

/// A game in play from a deal file's position: the deal, its rules, the
/// position reached and the suits of the runs removed so far (which the
/// position alone does not keep), so that any position reached can be
/// written back as a [`Deal`] and solved on its own.
#[derive(Clone, Debug)]
pub struct Play {
    deal: Deal,
    game: Game,
    position: Position,
    removed: Vec<Suit>,
}

impl Play {
    /// The game of `deal` at its start.
    pub fn new(deal: &Deal) -> Result<Play, ShapeError> {
        let game = Game::new(deal)?;
        let position = game.start().clone();
        // Runs the file left complete on top of a pile were removed at once.
        let mut cards: Vec<Card> = deal
            .piles
            .iter()
            .flat_map(|p| p.face_up.iter().copied())
            .collect();
        cards.extend(turned_up(deal, deal_start_down(deal), &position));
        let mut removed = deal.removed.clone();
        removed.extend(runs_gone(cards, &position));
        Ok(Play {
            deal: deal.clone(),
            game,
            position,
            removed,
        })
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The legal moves now.
    pub fn moves(&self) -> Vec<Move> {
        let mut moves = Vec::new();
        self.game.moves(&self.position, &mut moves);
        moves
    }

    /// Plays a legal move; returns how many cards it turned up (face-down
    /// cards uncovered and stock cards dealt).
    pub fn apply(&mut self, mv: Move) -> usize {
        let before = self.position.clone();
        let after = self.game.apply(&before, mv).position;
        let down_before: Vec<usize> = (0..PILES).map(|p| before.face_down_count(p)).collect();
        let mut turned: usize = (0..PILES)
            .map(|p| down_before[p] - after.face_down_count(p))
            .sum();
        if after.runs_removed() > before.runs_removed() {
            let mut cards: Vec<Card> = (0..PILES)
                .flat_map(|p| before.face_up(p).flatten())
                .collect();
            cards.extend(turned_up(&self.deal, down_before, &after));
            if mv == Move::Deal {
                cards.extend(
                    self.deal.stock[before.rows_dealt()]
                        .iter()
                        .filter_map(|s| s.known()),
                );
            }
            self.removed.extend(runs_gone(cards, &after));
        }
        if mv == Move::Deal {
            turned += PILES;
        }
        self.position = after;
        turned
    }

    /// The position now as a deal file would describe it: the face-down
    /// and stock cards still to come as the original deal has them. Fails
    /// only for a position with an unknown card face up (a reveal).
    pub fn deal_now(&self) -> Result<Deal, ShapeError> {
        let p = &self.position;
        let piles = (0..PILES)
            .map(|pile| {
                Ok(Pile {
                    face_down: self.deal.piles[pile].face_down[..p.face_down_count(pile)].to_vec(),
                    face_up: p
                        .face_up(pile)
                        .map(|c| {
                            c.ok_or_else(|| {
                                ShapeError(format!("pile {} has an unknown card face up", pile + 1))
                            })
                        })
                        .collect::<Result<_, _>>()?,
                })
            })
            .collect::<Result<_, ShapeError>>()?;
        Ok(Deal {
            suits: self.deal.suits,
            rules: self.deal.rules,
            piles,
            stock: self.deal.stock[p.rows_dealt()..].to_vec(),
            removed: self.removed.clone(),
            moves_played: 0,
        })
    }

    /// The position now as a player sees it: every face-down and stock
    /// card `XX` (a player has never seen one).
    pub fn hidden_view(&self) -> Result<Deal, ShapeError> {
        let mut deal = self.deal_now()?;
        for pile in &mut deal.piles {
            pile.face_down.fill(CardSlot::Unknown);
        }
        for row in &mut deal.stock {
            row.fill(CardSlot::Unknown);
        }
        Ok(deal)
    }
}

fn deal_start_down(deal: &Deal) -> Vec<usize> {
    deal.piles.iter().map(|p| p.face_down.len()).collect()
}

/// The known face-down cards turned up between `down_before` (face-down
/// counts) and `after`.
fn turned_up<'a>(
    deal: &'a Deal,
    down_before: Vec<usize>,
    after: &'a Position,
) -> impl Iterator<Item = Card> + 'a {
    (0..PILES).flat_map(move |pile| {
        deal.piles[pile].face_down[after.face_down_count(pile)..down_before[pile]]
            .iter()
            .filter_map(|slot| slot.known())
    })
}

/// The suits of the runs removed on the way to `after`, given `cards`: the
/// face-up cards before plus the cards turned up or dealt on the way. Less
/// the face-up cards of `after`, what is left is the removed runs' cards,
/// 13 of one suit each.
fn runs_gone(mut cards: Vec<Card>, after: &Position) -> Vec<Suit> {
    for pile in 0..PILES {
        for card in after.face_up(pile).flatten() {
            if let Some(at) = cards.iter().position(|&c| c == card) {
                cards.swap_remove(at);
            }
        }
    }
    let mut suits = Vec::new();
    for suit in [Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs] {
        let n = cards.iter().filter(|c| c.suit() == suit).count();
        suits.extend(std::iter::repeat_n(suit, n / 13));
    }
    suits
}

/// How many moves verification tries by default ([`Method::Verify`]'s
/// `best`), besides the blind player's: the moves that the first moves
/// of the wins rank best. On PySol 5 as its player sees it (6 legal moves,
/// 100 sampled completions) the hint takes about a third of the CPU it
/// takes trying every move, and plays the same move (docs/analyze.md).
pub const VERIFIED_MOVES: usize = 2;

/// How a hint is computed (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Moves are tried in every winnable completion: the `best` that the
    /// first moves of the wins rank best (every legal move when `None`),
    /// and `also`.
    Verify {
        best: Option<usize>,
        also: Option<Move>,
    },
    /// Only the first move of each completion's winning line is credited.
    FirstMoves,
}

/// What kind of move, for breaking ties: higher is preferred.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// Deal a stock row.
    Deal,
    /// Any other move.
    Other,
    /// Puts a run on a card of its own suit one rank higher.
    BuildsSuit,
    /// Uncovers a face-down card.
    TurnsUp,
    /// Uncovers a face-down card and builds a same-suit run.
    TurnsUpAndBuilds,
}

/// One legal move with its share.
#[derive(Clone, Debug)]
pub struct MoveShare {
    pub mv: Move,
    /// The move for people (`7♥ 6♥ from pile 3 onto 8♣ on pile 8`).
    pub words: String,
    pub kind: Kind,
    /// Completions in which a win was found that starts with this move.
    pub wins: usize,
    /// Completions decided (the share's denominator).
    pub of: usize,
    pub share: Option<Interval>,
    /// Whether the move was tried in every winnable completion; if not,
    /// `wins` counts only the wins found that start with it.
    pub tried: bool,
}

/// The legal moves of a position, best first.
#[derive(Clone, Debug)]
pub struct Hint {
    pub moves: Vec<MoveShare>,
    pub method: Method,
    /// Solves run for the hint, besides the completions' own.
    pub extra_solves: usize,
    /// How far the tries of the moves went (all of them unless cancelled).
    pub tries: Tries,
}

/// How far the verification (step 2: each legal move tried in each
/// winnable completion) went, for a progress bar and for what a stop
/// finished. A try that returns once cancel is set may have been cut
/// short, so it is not counted done.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Tries {
    /// Tries (a move in a completion) finished, and planned.
    pub done: usize,
    pub planned: usize,
    /// Moves tried whose every try finished, and moves tried (every legal
    /// move, or the candidates of [`Method::Verify`]).
    pub moves_done: usize,
    pub moves: usize,
}

impl Hint {
    /// The move to play now, if the position has one.
    pub fn best(&self) -> Option<&MoveShare> {
        self.moves.first()
    }
}

/// The kind of `mv` in `position` (see [`Kind`]).
pub fn kind(position: &Position, mv: Move) -> Kind {
    match mv {
        Move::Deal => Kind::Deal,
        Move::Shift { from, to, count } => {
            let (from, to) = (from as usize, to as usize);
            let turns_up = count as usize == position.face_up_count(from)
                && position.face_down_count(from) > 0;
            let moved = position.card_from_top(from, count as usize - 1);
            let target = position.card_from_top(to, 0);
            let builds = matches!((moved, target), (Some(m), Some(t)) if m.suit() == t.suit());
            match (turns_up, builds) {
                (true, true) => Kind::TurnsUpAndBuilds,
                (true, false) => Kind::TurnsUp,
                (false, true) => Kind::BuildsSuit,
                (false, false) => Kind::Other,
            }
        }
    }
}

/// The hint for `deal` (its `XX` cards filled by the completions of
/// `decided`), each solve under `limits`, in parallel on the current rayon
/// pool.
pub fn hint(
    deal: &Deal,
    decided: &Decided,
    method: Method,
    limits: &Limits,
    cancel: &AtomicBool,
) -> Result<Hint, SolveError> {
    hint_with_progress(deal, decided, method, limits, cancel, &|_| {})
}

/// [`hint`], telling `on_try` where the tries stand: once before the
/// first, then after each.
pub fn hint_with_progress(
    deal: &Deal,
    decided: &Decided,
    method: Method,
    limits: &Limits,
    cancel: &AtomicBool,
    on_try: &(dyn Fn(Tries) + Sync),
) -> Result<Hint, SolveError> {
    let play = Play::new(deal)?;
    let moves = play.moves();
    let n = decided.completions.len();
    let mut wins = vec![vec![false; n]; moves.len()];
    for (c, completion) in decided.completions.iter().enumerate() {
        if completion.analysis.verdict != Verdict::Winnable {
            continue;
        }
        if let Some(first) = completion.analysis.line.as_ref().and_then(|l| l.first())
            && let Some(i) = moves.iter().position(|m| m == first)
        {
            wins[i][c] = true;
        }
    }
    let mut extra_solves = 0;
    let mut tried = vec![false; moves.len()];
    let tries = if let Method::Verify { best, also } = method {
        // The candidates: by the first moves' credit, then the tie-breaks.
        let mut ranked: Vec<usize> = (0..moves.len()).collect();
        let credit = |i: usize| wins[i].iter().filter(|&&w| w).count();
        ranked.sort_by(|&a, &b| {
            credit(b)
                .cmp(&credit(a))
                .then(kind(play.position(), moves[b]).cmp(&kind(play.position(), moves[a])))
        });
        for &i in ranked.iter().take(best.unwrap_or(usize::MAX)) {
            tried[i] = true;
        }
        if let Some(i) = also.and_then(|m| moves.iter().position(|&x| x == m)) {
            tried[i] = true;
        }
        let tasks: Vec<(usize, usize)> = (0..moves.len())
            .filter(|&i| tried[i])
            .flat_map(|i| (0..n).map(move |c| (i, c)))
            .filter(|&(i, c)| {
                decided.completions[c].analysis.verdict == Verdict::Winnable && !wins[i][c]
            })
            .collect();
        extra_solves = tasks.len();
        // The tries left of each move, and where they all stand.
        let mut left = vec![0usize; moves.len()];
        for &(i, _) in &tasks {
            left[i] += 1;
        }
        let start = Tries {
            done: 0,
            planned: tasks.len(),
            moves_done: (0..moves.len())
                .filter(|&i| tried[i] && left[i] == 0)
                .count(),
            moves: tried.iter().filter(|&&t| t).count(),
        };
        on_try(start);
        let progress = std::sync::Mutex::new((start, left));
        let found = tasks
            .into_par_iter()
            .map(|(i, c)| {
                let cards = &decided.completions[c].cards;
                let won = super::sample::won_after(deal, cards, &[moves[i]], limits, cancel)?;
                if !cancel.load(std::sync::atomic::Ordering::Relaxed) {
                    let mut guard = progress.lock().unwrap_or_else(|e| e.into_inner());
                    let (tries, left) = &mut *guard;
                    tries.done += 1;
                    left[i] -= 1;
                    if left[i] == 0 {
                        tries.moves_done += 1;
                    }
                    on_try(*tries);
                }
                Ok(won.then_some((i, c)))
            })
            .collect::<Result<Vec<_>, SolveError>>()?;
        for (i, c) in found.into_iter().flatten() {
            wins[i][c] = true;
        }
        progress.into_inner().unwrap_or_else(|e| e.into_inner()).0
    } else {
        Tries {
            moves_done: moves.len(),
            moves: moves.len(),
            ..Tries::default()
        }
    };
    let mut shares: Vec<MoveShare> = moves
        .iter()
        .enumerate()
        .map(|(i, &mv)| {
            let count = wins[i].iter().filter(|&&w| w).count();
            MoveShare {
                mv,
                words: play.game().describe(play.position(), mv),
                kind: kind(play.position(), mv),
                wins: count,
                of: n,
                share: Interval::of(count, n),
                tried: tried[i],
            }
        })
        .collect();
    // Stable: equal moves keep the order of `Game::moves`.
    shares.sort_by(|a, b| b.wins.cmp(&a.wins).then(b.kind.cmp(&a.kind)));
    Ok(Hint {
        moves: shares,
        method,
        extra_solves,
        tries,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deal::yaml;
    use std::path::Path;

    /// One suit, seven runs removed: K..2 on pile 1, the ace on pile 2.
    const NEAR_WON: &str = "\
suits: 1
piles:
  - {face_down: [], face_up: [KS, QS, JS, 10S, 9S, 8S, 7S, 6S, 5S, 4S, 3S, 2S]}
  - {face_down: [], face_up: [AS]}
  - {face_down: [], face_up: []}
  - {face_down: [], face_up: []}
  - {face_down: [], face_up: []}
  - {face_down: [], face_up: []}
  - {face_down: [], face_up: []}
  - {face_down: [], face_up: []}
  - {face_down: [], face_up: []}
  - {face_down: [], face_up: []}
removed: [S, S, S, S, S, S, S]
";

    #[test]
    fn a_play_writes_back_the_runs_it_removed() {
        let deal = yaml::from_str(NEAR_WON, Path::new("near-won.yaml")).unwrap();
        let mut play = Play::new(&deal).unwrap();
        let mv = Move::Shift {
            from: 1,
            to: 0,
            count: 1,
        };
        assert_eq!(kind(play.position(), mv), Kind::BuildsSuit);
        assert_eq!(play.apply(mv), 0);
        let now = play.deal_now().unwrap();
        assert_eq!(now.removed, vec![Suit::Spades; 8]);
        assert!(now.piles[0].face_up.is_empty() && now.piles[1].face_up.is_empty());
        assert!(Game::new(&now).unwrap().start().is_won());
    }

    #[test]
    fn the_hidden_view_hides_every_face_down_and_stock_card() {
        let deal = crate::deal::numbered::deal(
            3,
            crate::cards::SuitCount::Two,
            crate::deal::Rules::Standard,
        );
        let mut play = Play::new(&deal).unwrap();
        let mv = play.moves()[0];
        play.apply(mv);
        let view = play.hidden_view().unwrap();
        let now = play.deal_now().unwrap();
        assert_eq!(
            view.unknown_places().len(),
            44 + 50 - (54 - 10 - now.piles.iter().map(|p| p.face_down.len()).sum::<usize>())
        );
        for (seen, real) in view.piles.iter().zip(&now.piles) {
            assert_eq!(seen.face_up, real.face_up);
            assert_eq!(seen.face_down.len(), real.face_down.len());
        }
        // The candidates are exactly the unseen cards.
        let report = crate::deal::check::check(&view);
        assert!(report.consistent);
    }
}
