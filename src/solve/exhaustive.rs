//! The exhaustive pass as a problem for the layered search.
//!
//! The solver's exhaustive pass examines every position reachable from the
//! start: when none wins, the deal is lost. It is the generic
//! [layered search](crate::explore::layered) run on [`ExhaustiveProblem`]:
//! layers are (rows dealt, runs removed, cards turned up), see
//! [`layer_of`]; positions are deduplicated by [`Game::key`] (which merges
//! positions that differ only by the order of piles without face-down cards
//! once the stock is empty); wins are goals, reveals (an `XX` card turned
//! up) are leaves.
//!
//! Why deduplication keeps every win: a position's successors do not depend
//! on how it was reached, so a win reachable from a second visit is
//! reachable from the first, which the search expands. The move straight
//! back to the parent (the reverse of the move that reached a position,
//! when that move turned no card up and removed no run) is not played: it
//! leads to the parent, which is in the same layer and already stored, so
//! deduplication would drop it anyway.
//!
//! [`ExhaustiveProblem::kind`] and [`ExhaustiveProblem::successors`] are the
//! one place where sound pruning belongs: a position proved never to win is
//! [`NodeKind::Dead`] (counted, not expanded, and unlike a reveal it leaves
//! the verdict decided); a reduced move set goes in `successors`.

use std::cell::RefCell;

use crate::explore::layered::PackedProblem;
use crate::explore::{NodeKind, Problem};
use crate::game::{Game, Move, Step};

use super::stage::layer_of;

/// A state of the exhaustive pass: a position (with the `XX` slots the move
/// into it turned up) and the move back to its parent, which is not played.
#[derive(Clone)]
pub struct Visit {
    /// The position and its reveals.
    pub step: Step,
    /// The move that would lead straight back to the parent, if any.
    pub back: Option<Move>,
}

/// Every position reachable from a game's start, for the layered search.
pub struct ExhaustiveProblem<'g> {
    game: &'g Game,
}

thread_local! {
    /// Scratch space for the legal moves of the position being expanded.
    static MOVES: RefCell<Vec<Move>> = RefCell::new(Vec::with_capacity(64));
}

impl<'g> ExhaustiveProblem<'g> {
    /// The problem of `game` from its start.
    pub fn new(game: &'g Game) -> ExhaustiveProblem<'g> {
        ExhaustiveProblem { game }
    }

    /// The game.
    pub fn game(&self) -> &'g Game {
        self.game
    }
}

impl Problem for ExhaustiveProblem<'_> {
    type State = Visit;
    type Key = u128;
    type Move = Move;

    fn start(&self) -> Visit {
        Visit {
            step: Step {
                position: self.game.start().clone(),
                reveals: self.game.start_reveals(),
            },
            back: None,
        }
    }

    #[inline]
    fn key(&self, visit: &Visit) -> u128 {
        self.game.key(&visit.step.position)
    }

    #[inline]
    fn fingerprint(&self, visit: &Visit) -> u128 {
        self.game.key(&visit.step.position)
    }

    #[inline]
    fn layer(&self, visit: &Visit) -> u64 {
        layer_of(&visit.step.position)
    }

    /// Every legal move but the one straight back to the parent. (A
    /// reduced move set, from a proof that it keeps a win when there is
    /// one, would go here.)
    fn successors(&self, visit: &Visit, out: &mut Vec<(Move, Visit)>) {
        let position = &visit.step.position;
        MOVES.with_borrow_mut(|moves| {
            moves.clear();
            self.game.moves(position, moves);
            for &mv in moves.iter() {
                if Some(mv) == visit.back {
                    continue;
                }
                let step = self.game.apply(position, mv);
                let back = match mv {
                    Move::Shift { from, to, count }
                        if step.position.face_down_count(from as usize)
                            == position.face_down_count(from as usize)
                            && step.position.runs_removed() == position.runs_removed() =>
                    {
                        Some(Move::Shift {
                            from: to,
                            to: from,
                            count,
                        })
                    }
                    _ => None,
                };
                out.push((mv, Visit { step, back }));
            }
        })
    }

    /// A win is a goal, a reveal a leaf. (A dead-end test, returning
    /// [`NodeKind::Dead`] for a position proved never to win, would go
    /// here.)
    #[inline]
    fn kind(&self, visit: &Visit) -> NodeKind {
        if visit.step.position.is_won() {
            NodeKind::Goal
        } else if !visit.step.reveals.is_empty() {
            NodeKind::Leaf
        } else {
            NodeKind::Inner
        }
    }
}

impl PackedProblem for ExhaustiveProblem<'_> {
    /// The step's bytes, then the move back: three bytes, `from` 255 for
    /// none.
    fn pack(&self, visit: &Visit, out: &mut Vec<u8>) {
        visit.step.pack_into(out);
        match visit.back {
            Some(Move::Shift { from, to, count }) => out.extend([from, to, count]),
            _ => out.extend([255, 0, 0]),
        }
    }

    fn unpack(&self, bytes: &[u8]) -> Visit {
        let (step, used) =
            Step::unpack_from(bytes).expect("the layered search hands back the bytes pack wrote");
        let back = match bytes[used..used + 3] {
            [255, _, _] => None,
            [from, to, count] => Some(Move::Shift { from, to, count }),
            _ => unreachable!("a slice of three"),
        };
        Visit { step, back }
    }
}
