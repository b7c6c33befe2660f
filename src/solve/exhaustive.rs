//! The exhaustive pass as a problem for the layered search.
//!
//! The solver's exhaustive pass examines every position reachable from the
//! start: when none wins, the deal is lost. It is the generic
//! [layered search](crate::explore::layered) run on [`ExhaustiveProblem`]:
//! layers are (rows dealt, runs removed, cards turned up), see
//! [`layer_of`]; positions are deduplicated by their sum-of-piles key
//! ([`Position::sum_key`], computed for a successor without building it,
//! see [`Game::preview`]), which once the stock is empty merges positions
//! that differ only by the order of piles without face-down cards (as
//! [`Game::key`] does); wins are goals, reveals (an `XX` card turned up)
//! are leaves.
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
//! one place where sound pruning belongs: a position the dead-end test
//! ([`super::prune::dead_end`]) proves lost is [`NodeKind::Dead`] (counted,
//! not expanded, and unlike a reveal it leaves the verdict decided); a
//! reduced move set would go in `successors` *and* in
//! `ExhaustiveProblem::expand_packed`, which the layered search calls
//! instead (the same moves in the same order: it previews them, and
//! `successor_packed` rebuilds a successor from its move). Each reduction
//! can be switched off ([`Reductions`]); without the symmetry reduction,
//! positions are keyed by their exact (ordered) sum-of-piles key.

use std::cell::RefCell;
use std::sync::atomic::{AtomicU8, Ordering};

use crate::cards::Card;
use crate::explore::layered::{PackedProblem, Successor};
use crate::explore::{NodeKind, Problem};
use crate::game::{Game, Move, PackedStep, Position, Step, layer_of, whole_layer_of};

use super::first_empty;
use super::prune::{Reductions, RoomRule, RoomTest, dead_end_learning};
use super::room::Learned;
use super::stage::push_previews;

/// A state of the exhaustive pass: a position (with the `XX` slots the move
/// into it turned up) and the move back to its parent, which is not played.
#[derive(Clone)]
pub struct Visit {
    /// The position and its reveals.
    pub step: Step,
    /// The move that would lead straight back to the parent, if any.
    pub back: Option<Move>,
    /// Whether the dead-end test is run on it (see
    /// `ExhaustiveProblem::worth_testing`).
    pub test: bool,
    /// Whether a deal led to it: where the room test runs by default
    /// ([`RoomTest::Deals`]; the start is tested before the search).
    pub dealt: bool,
}

/// Every position reachable from a game's start, for the layered search.
pub struct ExhaustiveProblem<'g> {
    game: &'g Game,
    reductions: Reductions,
    /// The fewest face-down cards on each pile in any position examined
    /// (updated from every thread).
    fewest_per_pile: [AtomicU8; crate::deal::PILES],
    /// The room test's learned conflicts ([`Reductions::learn`]), made
    /// visible to the tests of the next breadth-first step before each
    /// ([`PackedProblem::between_steps`]).
    learned: Option<Learned>,
    /// The states the test of the first empty pile has decided
    /// ([`first_empty::Learned`]), made visible to the tests of the next
    /// breadth-first step before each, as `learned`.
    first_empty_learned: Option<first_empty::Learned>,
    /// Whether layers are split by the pairs out of order ([`layer_of`]) or
    /// whole ([`whole_layer_of`], the default): see
    /// [`ExhaustiveProblem::split_layers`].
    split_layers: bool,
}

thread_local! {
    /// Scratch space for the legal moves of the position being expanded.
    static MOVES: RefCell<Vec<Move>> = RefCell::new(Vec::with_capacity(64));
}

impl<'g> ExhaustiveProblem<'g> {
    /// The problem of `game` from its start.
    pub fn new(game: &'g Game) -> ExhaustiveProblem<'g> {
        ExhaustiveProblem::with_reductions(game, Reductions::DEFAULT)
    }

    /// The problem of `game` from its start, with the `reductions` given.
    pub fn with_reductions(game: &'g Game, reductions: Reductions) -> ExhaustiveProblem<'g> {
        ExhaustiveProblem {
            game,
            reductions,
            fewest_per_pile: std::array::from_fn(|pile| {
                AtomicU8::new(game.start().face_down_count(pile) as u8)
            }),
            learned: (reductions.learn
                && reductions.dead_ends
                && reductions.room != RoomTest::Never)
                .then(|| Learned::new(reductions.make_way)),
            first_empty_learned: (reductions.first_empty && reductions.dead_ends)
                .then(first_empty::Learned::default),
            split_layers: false,
        }
    }

    /// Whether the test of the first empty pile learns the relaxed states
    /// it decides (on by default where it runs; see
    /// [`first_empty::Learned`]). A search that will be resumed, from a
    /// checkpoint or from disk, does not: it would start again with nothing
    /// learned, and could examine other positions than one not stopped.
    pub fn first_empty_learns(mut self, learns: bool) -> Self {
        if !learns {
            self.first_empty_learned = None;
        }
        self
    }

    /// Splits the layers by the pairs of face-up cards out of order
    /// ([`layer_of`]): the same positions are examined (a layer is a fact
    /// of a position, and no move lowers it), in smaller layers. The search
    /// on disk keeps only the current layer's seen set in memory, so this
    /// shrinks it; the search in memory keeps the later layers' states
    /// waiting in memory, so there it costs memory (docs/engine.md).
    pub fn split_layers(mut self, split: bool) -> Self {
        self.split_layers = split;
        self
    }

    /// The relaxed losses the room test has learned so far (see
    /// [`Learned`]).
    pub fn learned(&self) -> usize {
        self.learned.as_ref().map_or(0, Learned::len)
    }

    /// The relaxed states the test of the first empty pile holds learned
    /// (see [`first_empty::Learned`]).
    pub fn first_empty_learned(&self) -> usize {
        self.first_empty_learned
            .as_ref()
            .map_or(0, first_empty::Learned::len)
    }

    /// The fewest face-down cards on each pile in any position examined so
    /// far.
    pub fn fewest_per_pile(&self) -> [u8; crate::deal::PILES] {
        std::array::from_fn(|pile| self.fewest_per_pile[pile].load(Ordering::Relaxed))
    }

    /// Lowers the fewest face-down cards seen on each pile to `fewest` (a
    /// resumed search's, read from its checkpoint).
    pub fn note_fewest_per_pile(&self, fewest: [u8; crate::deal::PILES]) {
        for (seen, fewest) in self.fewest_per_pile.iter().zip(fewest) {
            seen.fetch_min(fewest, Ordering::Relaxed);
        }
    }

    /// The key of `position`: its sum-of-piles key
    /// ([`Position::sum_key`], which [`Game::preview`] computes without
    /// building the position), with the symmetry reduction unordered (the
    /// order of the piles without face-down cards ignored, as [`Game::key`]
    /// does) once the stock is empty.
    #[inline]
    fn key_of(&self, position: &Position) -> u128 {
        position.sum_key(self.unordered(position))
    }

    /// Whether `position` is keyed without the order of its open piles.
    #[inline]
    fn unordered(&self, position: &Position) -> bool {
        self.unordered_with_rows_left(self.game.rows_left(position))
    }

    /// Whether a position with `rows` stock rows left is keyed without the
    /// order of its open piles: with the symmetry reduction, once the
    /// stock is empty.
    #[inline]
    fn unordered_with_rows_left(&self, rows: usize) -> bool {
        self.reductions.symmetry && rows == 0
    }

    /// The move back to the parent for the step `mv` made from `position`:
    /// the reverse shift, when the move turned no card up, removed no run
    /// and can be undone (see [`Self::undoable`]). `None` marks the
    /// positions the dead-end test runs on by default.
    #[inline]
    fn back_of(position: &impl Piles, mv: Move, next: &impl Piles) -> Option<Move> {
        match mv {
            Move::Shift { from, to, count }
                if next.face_down_count(from as usize)
                    == position.face_down_count(from as usize)
                    && next.runs_removed() == position.runs_removed()
                    && Self::undoable(position, from as usize, count as usize) =>
            {
                Some(Move::Shift {
                    from: to,
                    to: from,
                    count,
                })
            }
            _ => None,
        }
    }

    /// Whether taking the top `count` cards off pile `from` of `position`
    /// can be undone: they lie on a known card one rank above the lowest of
    /// them, or on the bottom of the pile (an empty pile takes any run
    /// back). A move that cannot be undone lowers for good the number of
    /// face-up cards lying on a card they do not follow (only a deal adds
    /// such pairs).
    #[inline]
    fn undoable(position: &impl Piles, from: usize, count: usize) -> bool {
        match (
            position.card_from_top(from, count - 1),
            position.card_from_top(from, count),
        ) {
            (Some(moved), Some(below)) => below.rank() == moved.rank() + 1,
            (Some(_), None) => position.face_up_count(from) == count,
            _ => false,
        }
    }

    /// Whether the dead-end test is worth running on `step`, reached from
    /// `position` (which was not proved lost) by `mv`, with `back` its move
    /// back ([`Self::back_of`]). Not after a move that can be undone (see
    /// [`Problem::kind`](crate::explore::Problem::kind)). Nor after a run
    /// taken, from a card it does not follow or from a face-down card,
    /// onto a card one rank above its lowest card `r` (or onto an empty
    /// pile), when the piles then show another card of that rank: the
    /// relaxed game of the test can then move the run off again at once,
    /// which leaves it where the relaxed game of `position` was once that
    /// game moved the run (it may: the card under it was in view), with
    /// at least the same cards in view. So the test cannot prove `step`
    /// lost unless it proves `position` lost, or gives up on `position`
    /// where it does not on `step` (a bounded search). Either way leaving
    /// it out never loses a win: it only expands more. A deal or a removed
    /// run is always tested: a row covers every pile, and removed cards are
    /// no longer in view. (This argument is the first relaxation's; where
    /// the room test runs on every entry, it is left out here too, which
    /// is sound for the same reason: a test left out only expands more.)
    fn worth_testing(
        position: &impl Piles,
        mv: Move,
        next: &impl Piles,
        back: Option<Move>,
    ) -> bool {
        if back.is_some() {
            return false;
        }
        let Move::Shift { from, to, count } = mv else {
            return true;
        };
        if next.runs_removed() != position.runs_removed() {
            return true;
        }
        let Some(lowest) = position.card_from_top(from as usize, count as usize - 1) else {
            return true;
        };
        if lowest.rank() == crate::cards::KING {
            return true;
        }
        let above = lowest.rank() + 1;
        !(0..crate::deal::PILES).any(|pile| {
            pile != to as usize
                && next
                    .card_from_top(pile, 0)
                    .is_some_and(|top| top.rank() == above)
        })
    }

    /// The room test that runs on `visit` (where the dead-end test runs).
    #[inline]
    fn room(&self, visit: &Visit) -> RoomRule {
        let here = match self.reductions.room {
            // The position analyzed is tested before the search.
            RoomTest::Never | RoomTest::Start => false,
            // Outside the solver's passes, `Last` is `Deals` (see
            // `RoomTest::for_pass`).
            RoomTest::Deals | RoomTest::Last => visit.dealt,
            RoomTest::Entries => true,
        };
        if here {
            RoomRule::of(&self.reductions)
        } else {
            RoomRule::Off
        }
    }

    /// The three bytes after a packed step: its move back, or 255, whether
    /// the dead-end test is to be left out, and whether a deal led to it
    /// (see `pack`).
    #[inline]
    fn push_back(back: Option<Move>, test: bool, dealt: bool, out: &mut Vec<u8>) {
        match back {
            Some(Move::Shift { from, to, count }) => out.extend([from, to, count]),
            _ => out.extend([255, u8::from(!test), u8::from(dealt)]),
        }
    }

    /// The game.
    pub fn game(&self) -> &'g Game {
        self.game
    }
}

/// What the search reads of a position to tell the move back and where the
/// dead-end test runs: from a [`Position`], or straight from a step's bytes
/// ([`PackedStep`]) when a successor is built without one.
trait Piles {
    fn card_from_top(&self, pile: usize, depth: usize) -> Option<Card>;
    fn face_up_count(&self, pile: usize) -> usize;
    fn face_down_count(&self, pile: usize) -> usize;
    fn runs_removed(&self) -> usize;
}

impl Piles for Position {
    fn card_from_top(&self, pile: usize, depth: usize) -> Option<Card> {
        Position::card_from_top(self, pile, depth)
    }
    fn face_up_count(&self, pile: usize) -> usize {
        Position::face_up_count(self, pile)
    }
    fn face_down_count(&self, pile: usize) -> usize {
        Position::face_down_count(self, pile)
    }
    fn runs_removed(&self) -> usize {
        Position::runs_removed(self)
    }
}

impl Piles for PackedStep<'_> {
    fn card_from_top(&self, pile: usize, depth: usize) -> Option<Card> {
        PackedStep::card_from_top(self, pile, depth)
    }
    fn face_up_count(&self, pile: usize) -> usize {
        PackedStep::face_up_count(self, pile)
    }
    fn face_down_count(&self, pile: usize) -> usize {
        PackedStep::face_down_count(self, pile)
    }
    fn runs_removed(&self) -> usize {
        PackedStep::runs_removed(self)
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
            test: true,
            dealt: false,
        }
    }

    #[inline]
    fn key(&self, visit: &Visit) -> u128 {
        self.key_of(&visit.step.position)
    }

    #[inline]
    fn fingerprint(&self, visit: &Visit) -> u128 {
        self.key_of(&visit.step.position)
    }

    #[inline]
    fn layer(&self, visit: &Visit) -> u64 {
        if self.split_layers {
            layer_of(&visit.step.position)
        } else {
            whole_layer_of(&visit.step.position)
        }
    }

    /// The key without its pairs out of order ([`whole_layer_of`]'s).
    #[inline]
    fn whole_layer(&self, layer: u64) -> u64 {
        crate::game::whole_layer_key(layer)
    }

    /// Every legal move but the one straight back to the parent. (A
    /// reduced move set, from a proof that it keeps a win when there is
    /// one, would go here and in `expand_packed`, which the layered search
    /// calls.)
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
                let back = Self::back_of(position, mv, &step.position);
                let test = Self::worth_testing(position, mv, &step.position, back);
                let dealt = mv == Move::Deal;
                out.push((
                    mv,
                    Visit {
                        step,
                        back,
                        test,
                        dealt,
                    },
                ));
            }
        })
    }

    /// A win is a goal, a reveal a leaf, a position the dead-end test
    /// proves lost is dead: nothing reachable from it wins, so nothing
    /// below it needs examining (the argument is in [`super::prune`]).
    ///
    /// The test runs on the start and on the positions reached by a move
    /// that cannot be undone (those without a move back): a card turned
    /// up, a run removed, a row dealt, or a run taken off a card it does
    /// not follow. Or on every position, with
    /// [`Reductions::dead_ends_everywhere`]. Where it runs changes only
    /// how much is expanded, never a verdict: leaving out the test only
    /// expands more. Why these positions: moves that can be undone join
    /// positions into classes whose members all reach one another, so a
    /// class is lost as a whole or not at all. Measured on the ladder
    /// (`lab/studies/components.rs`), the test gave the same answer on every
    /// member of a class, so testing where a class is entered finds the
    /// dead ends that testing everywhere finds (the same positions
    /// examined, docs/proofs.md), at a fraction of the tests.
    #[inline]
    fn kind(&self, visit: &Visit) -> NodeKind {
        let position = &visit.step.position;
        for (pile, fewest) in self.fewest_per_pile.iter().enumerate() {
            // A plain read first: the shared minimum rarely falls, and a
            // read-modify-write on every position would pass its cache line
            // from core to core.
            let down = position.face_down_count(pile) as u8;
            if down < fewest.load(Ordering::Relaxed) {
                fewest.fetch_min(down, Ordering::Relaxed);
            }
        }
        if position.is_won() {
            NodeKind::Goal
        } else if !visit.step.reveals.is_empty() {
            NodeKind::Leaf
        } else if self.reductions.dead_ends
            && (visit.test || self.reductions.dead_ends_everywhere)
            && dead_end_learning(
                self.game,
                position,
                self.room(visit),
                self.reductions.deals_fill,
                self.reductions.first_empty,
                self.learned.as_ref(),
                self.first_empty_learned.as_ref(),
            )
            .is_some()
        {
            NodeKind::Dead
        } else {
            NodeKind::Inner
        }
    }
}

impl PackedProblem for ExhaustiveProblem<'_> {
    /// Between two breadth-first steps, the room test's losses learned in
    /// the step join the store the next step's tests read (see
    /// [`Learned`]: this is what keeps the counts the same on any number of
    /// threads), and so do the states the test of the first empty pile
    /// decided ([`first_empty::Learned`]).
    fn between_steps(&self) {
        if let Some(learned) = &self.learned {
            learned.absorb();
        }
        if let Some(learned) = &self.first_empty_learned {
            learned.absorb();
        }
    }

    /// The step's bytes, then the move back: three bytes, `from` 255 for
    /// none, then 0 when the dead-end test is to run on it, 1 when not.
    fn pack(&self, visit: &Visit, out: &mut Vec<u8>) {
        visit.step.pack_into(out);
        Self::push_back(visit.back, visit.test, visit.dealt, out);
    }

    /// The step's compact form ([`crate::game::compact_step`]), then the
    /// three bytes of the move back as they are.
    fn write_record(&self, bytes: &[u8], out: &mut Vec<u8>) {
        let used = crate::game::compact_step(bytes, out);
        out.extend_from_slice(&bytes[used..used + 3]);
    }

    fn read_record(&self, record: &[u8], out: &mut Vec<u8>) -> Option<usize> {
        let used = crate::game::uncompact_step(record, out)?;
        out.extend_from_slice(record.get(used..used + 3)?);
        Some(used + 3)
    }

    fn unpack(&self, bytes: &[u8]) -> Visit {
        let (step, used) =
            Step::unpack_from(bytes).expect("the layered search hands back the bytes pack wrote");
        let (back, test, dealt) = match bytes[used..used + 3] {
            [255, skip, dealt] => (None, skip == 0, dealt == 1),
            [from, to, count] => (Some(Move::Shift { from, to, count }), false, false),
            _ => unreachable!("a slice of three"),
        };
        Visit {
            step,
            back,
            test,
            dealt,
        }
    }

    /// The successors' keys and layers from the two piles each move
    /// touches ([`Game::preview`]), none of them built.
    fn expand_packed(&self, bytes: &[u8], out: &mut Vec<Successor>) -> NodeKind {
        let visit = self.unpack(bytes);
        let kind = self.kind(&visit);
        if kind != NodeKind::Inner {
            return kind;
        }
        let position = &visit.step.position;
        push_previews(
            self.game,
            position,
            [
                self.unordered(position),
                self.unordered_with_rows_left(self.game.rows_left(position).saturating_sub(1)),
            ],
            |mv| Some(mv) == visit.back,
            self.split_layers,
            out,
        );
        kind
    }

    /// The move is played on the parent's bytes ([`Game::apply_packed`]:
    /// the same bytes as `apply` then `pack`, without building a position).
    fn successor_packed(&self, bytes: &[u8], token: u32, out: &mut Vec<u8>) {
        let mv = Game::move_of_token(token);
        let parent = PackedStep::new(bytes);
        let start = out.len();
        self.game.apply_packed(&parent, mv, out);
        let next = PackedStep::new(&out[start..]);
        let back = Self::back_of(&parent, mv, &next);
        let test = Self::worth_testing(&parent, mv, &next, back);
        Self::push_back(back, test, mv == Move::Deal, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every successor is stored under the key and layer of the position
    /// it stands for, as `fingerprint` and `layer` give them once it is
    /// built: for every move, with and without symmetry, and for the last
    /// deal too (after it the key merges the piles without face-down
    /// cards; until 2026-11-25 a deal was keyed as its parent was, so a
    /// position entering the last stage could be stored twice).
    #[test]
    fn successors_are_stored_under_their_own_keys() {
        let mut deals = 0;
        for file in ["r1-g5006", "r2-g5009", "r1-g5017"] {
            let path = format!("{}/benches/ladder/{file}.yaml", env!("CARGO_MANIFEST_DIR"));
            let text = std::fs::read_to_string(&path).unwrap();
            let deal = crate::deal::files::parse(&text, path.as_ref()).unwrap();
            let game = Game::new(&deal).unwrap();
            for reductions in [Reductions::ALL, Reductions::NONE] {
                let problem = ExhaustiveProblem::with_reductions(&game, reductions);
                let mut queue = std::collections::VecDeque::from([problem.start()]);
                let mut seen = std::collections::HashSet::new();
                let (mut bytes, mut child, mut successors) = (Vec::new(), Vec::new(), Vec::new());
                let mut checked = 0;
                while let Some(visit) = queue.pop_front() {
                    if checked > 3_000 {
                        break;
                    }
                    bytes.clear();
                    problem.pack(&visit, &mut bytes);
                    successors.clear();
                    if problem.expand_packed(&bytes, &mut successors) != NodeKind::Inner {
                        continue;
                    }
                    for s in &successors {
                        child.clear();
                        problem.successor_packed(&bytes, s.token, &mut child);
                        let next = problem.unpack(&child);
                        assert_eq!(problem.fingerprint(&next), s.fingerprint, "{file}");
                        assert_eq!(problem.layer(&next), s.layer, "{file}");
                        deals += usize::from(Game::move_of_token(s.token) == Move::Deal);
                        checked += 1;
                        if seen.insert(s.fingerprint) {
                            queue.push_back(next);
                        }
                    }
                }
            }
        }
        assert!(deals > 100, "{deals} deals");
    }

    /// Which moves can be undone, so that the dead-end test runs after
    /// those that cannot: 5♠ lies on 9♥ (it does not follow it), 7♣ on
    /// 8♦ (it does), 4♥ alone on pile 6, 7♥ on 2♦. And where the test
    /// is left out after a move that cannot be undone: 5♠ onto 6♦ leaves
    /// 6♥ in view, 7♥ onto 8♠ leaves no other 8.
    #[test]
    fn moves_that_cannot_be_undone_have_no_move_back() {
        let text = "suits: 4\nrules: standard\npiles:\n\
            - {face_down: [2C], face_up: [9H, 5S]}\n\
            - {face_down: [3C], face_up: [6D]}\n\
            - {face_down: [4C], face_up: [6H]}\n\
            - {face_down: [5C], face_up: [8D, 7C]}\n\
            - {face_down: [6C], face_up: [8S]}\n\
            - {face_down: [], face_up: [4H]}\n\
            - {face_down: [7C], face_up: [5C]}\n\
            - {face_down: [8C], face_up: [2D, 7H]}\n\
            - {face_down: [9C], face_up: [KD]}\n\
            - {face_down: [10C], face_up: [KC]}\n\
            stock: []\nremoved: []\n";
        let deal = crate::deal::files::parse(text, "test.yaml".as_ref()).unwrap();
        let game = Game::new(&deal).unwrap();
        let problem = ExhaustiveProblem::new(&game);
        let mut successors = Vec::new();
        problem.successors(&problem.start(), &mut successors);
        let visit = |from: u8, to: u8| {
            let mv = Move::Shift { from, to, count: 1 };
            &successors
                .iter()
                .find(|(m, _)| *m == mv)
                .unwrap_or_else(|| panic!("{mv:?} is a legal move"))
                .1
        };
        let back = |from: u8, to: u8| visit(from, to).back;
        assert_eq!(back(0, 1), None, "9♥ does not take 5♠ back");
        assert!(!visit(0, 1).test, "6♥ can take 5♠ in the relaxed game");
        assert_eq!(back(7, 4), None, "2♦ does not take 7♥ back");
        assert!(visit(7, 4).test, "no other 8 for 7♥");
        assert!(!visit(3, 4).test && !visit(5, 6).test);
        assert_eq!(
            back(3, 4),
            Some(Move::Shift {
                from: 4,
                to: 3,
                count: 1
            })
        );
        assert_eq!(
            back(5, 6),
            Some(Move::Shift {
                from: 6,
                to: 5,
                count: 1
            }),
            "an empty pile takes 4♥ back"
        );
    }
}
