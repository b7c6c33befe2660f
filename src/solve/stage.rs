//! The Spider stage graph as a problem for the generic explorer.
//!
//! Deals cannot be undone, so a game falls into *stages*: stage 0 is every
//! position reachable from the deal file's position without dealing. Inside
//! a stage most moves can be undone, which makes it a dense graph with
//! cycles, and asking what it looks like (how many positions, how far the
//! farthest one is, how long a line can get before it cannot be undone,
//! which unknown cards can be turned up and how soon) is a question for the
//! explorer's [`MoveGraph`], not for the solver. This module is the bridge:
//! [`StageProblem`] tells the engine what a node and a move are, and
//! [`StageReport`] turns the recorded graph into the answers people asked.
//!
//! Choices that decide what the numbers mean:
//!
//! - A node is a distinct *position*, exactly: the key is the position's
//!   fingerprint ([`Position::fingerprint`], not the solver's
//!   [`Game::key`], which merges positions that differ only by the order of
//!   piles once the stock is empty). Two positions that look alike with
//!   their piles renamed are two nodes here.
//! - The key is the whole 128-bit fingerprint, held as two `u64` so that a
//!   table entry (key and node id) takes 24 bytes rather than the 32 a
//!   16-byte-aligned `u128` would. Collision odds are those of
//!   [`Position::fingerprint`]: below 10^-20 among a billion positions.
//! - A move that turns up an `XX` card leads to a *reveal* node, a leaf:
//!   nothing is known beyond it. Its label names the slots it turned up.
//! - Deals are left out ([`Scope::Stage`] with 0), or allowed while fewer
//!   than `n` rows have been dealt (stages 0 to `n`), or always
//!   ([`Scope::WholeGame`]).

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::fmt;

use petgraph::graph::NodeIndex;

use crate::deal::{Deal, Place};
use crate::explore::layered::{PackedProblem, Successor};
use crate::explore::{Chain, Depth, GraphCounts, MoveGraph, NodeKind, Problem};
use crate::game::{Game, Move, Position, Step};

// The layer of a position is a fact of the rules (src/game/layer.rs); it is
// named here too for the users of the stage graph.
pub use crate::game::{LayerKey, layer_of, whole_layer_of};

/// Which positions the graph covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Stages 0 to `last`: deals are allowed while fewer than `last` rows
    /// have been dealt. `Stage(0)` is the stage graph proper: no deals.
    Stage(usize),
    /// Every stage: deals are moves like any other.
    WholeGame,
}

impl Scope {
    /// The most rows the graph may deal.
    fn max_rows(self) -> usize {
        match self {
            Scope::Stage(last) => last,
            Scope::WholeGame => usize::MAX,
        }
    }
}

impl fmt::Display for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Scope::Stage(0) => f.write_str("stage 0 (no deals)"),
            Scope::Stage(last) => write!(
                f,
                "stages 0 to {last} (at most {})",
                crate::text::count(last as u64, "deal")
            ),
            Scope::WholeGame => f.write_str("the whole game (deals allowed)"),
        }
    }
}

/// The key of a graph node: the position's 128-bit fingerprint.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PositionKey([u64; 2]);

impl PositionKey {
    /// The key of `position`.
    #[inline]
    pub fn of(position: &Position) -> PositionKey {
        let f = position.fingerprint();
        PositionKey([f as u64, (f >> 64) as u64])
    }
}

/// The stage graph of a game as an explorer [`Problem`].
///
/// States are [`Step`]s (a position and the `XX` slots the move into it
/// turned up), so that a reveal node knows what it revealed; moves are
/// [`Move`]s; wins are goals and reveals are leaves.
///
/// ```
/// use spider_analyzer::deal::load;
/// use spider_analyzer::explore::{Search, Stop};
/// use spider_analyzer::game::Game;
/// use spider_analyzer::solve::stage::{Scope, StageProblem};
///
/// let deal = load("deals/unwon-2017.yaml".as_ref()).unwrap();
/// let game = Game::new(&deal).unwrap();
/// let problem = StageProblem::new(&game, Scope::Stage(0));
/// let outcome = Search::new(&problem).stop(Stop::Exhaust).run();
/// assert!(outcome.stats.positions > 1);
/// ```
pub struct StageProblem<'g> {
    game: &'g Game,
    max_rows: usize,
}

thread_local! {
    /// Scratch space for the legal moves of the state being expanded (one
    /// per thread: the layered search expands on every core).
    static MOVES: RefCell<Vec<Move>> = RefCell::new(Vec::with_capacity(64));
}

/// Pushes onto `out` the key, layer and token of each legal move's
/// successor of `position`, from the two piles the move touches
/// ([`Game::preview`]), none of them built; the moves `skip` names are
/// left out. `unordered`: the key ignores the order of the piles without
/// face-down cards (symmetry, once the stock is empty); `deal_unordered`:
/// the same for the position a deal leads to. `split`: the layers are
/// [`layer_of`]'s, split by the pairs out of order; otherwise whole
/// ([`whole_layer_of`]). The layered searches of the stage graph and of the
/// exhaustive pass both expand so.
pub(super) fn push_previews(
    game: &Game,
    position: &Position,
    [unordered, deal_unordered]: [bool; 2],
    skip: impl Fn(Move) -> bool,
    split: bool,
    out: &mut Vec<Successor>,
) {
    let mut hashes = position.pile_hashes(unordered);
    if split {
        hashes = hashes.split_layers();
    }
    MOVES.with_borrow_mut(|moves| {
        moves.clear();
        game.moves(position, moves);
        for &mv in moves.iter().filter(|&&mv| !skip(mv)) {
            let preview = match mv {
                Move::Deal => game.preview_deal(position, &hashes, deal_unordered),
                Move::Shift { .. } => game.preview(position, &hashes, mv),
            };
            out.push(Successor {
                fingerprint: preview.key,
                layer: preview.layer,
                token: Game::token_of(mv),
            });
        }
    });
}

/// The positions the next deal leads to from the stage `game` starts in:
/// the stage's positions, breadth first by the explorer (at most
/// `max_positions` of them), each with the next row dealt where the rules
/// allow it, in the order the stage's positions were found; and how many
/// positions of the stage were recorded. For measuring the tests on the
/// positions a stage is left by (`lab/studies/dealt_effort.rs`).
pub fn dealt_from_the_first_stage(
    game: &Game,
    max_positions: Option<u64>,
) -> (usize, Vec<Position>) {
    use crate::explore::{Limits, Order, Search, Stop};
    let problem = StageProblem::new(game, Scope::Stage(0));
    let (_, graph) = Search::new(&problem)
        .order(Order::BreadthFirst)
        .stop(Stop::Exhaust)
        .limits(Limits {
            max_positions,
            ..Limits::default()
        })
        .run_with_graph(|step: &Step| step.position.clone());
    let dealt = graph
        .graph()
        .node_weights()
        .map(|node| &node.label)
        .filter(|position| game.check(position, Move::Deal).is_ok())
        .map(|position| game.apply(position, Move::Deal).position)
        .collect();
    (graph.graph().node_count(), dealt)
}

impl<'g> StageProblem<'g> {
    /// The graph of `game` from its start, over `scope`.
    pub fn new(game: &'g Game, scope: Scope) -> StageProblem<'g> {
        StageProblem {
            game,
            max_rows: scope.max_rows(),
        }
    }

    /// The game.
    pub fn game(&self) -> &'g Game {
        self.game
    }

    /// A label function for [`Search::run_with_graph`](crate::explore::Search::run_with_graph):
    /// numbers the nodes in the order they are recorded (their node index)
    /// and names the slots each reveal turned up.
    pub fn labeller(&self) -> impl FnMut(&Step) -> NodeLabel + 'g {
        let game = self.game;
        let mut next = 0u32;
        move |step| {
            let id = next;
            next += 1;
            NodeLabel {
                id,
                rows_dealt: step.position.rows_dealt() as u8,
                face_down: step.position.face_down_total() as u8,
                won: step.position.is_won(),
                revealed: if step.reveals.is_empty() {
                    Vec::new()
                } else {
                    game.revealed_places(step)
                },
            }
        }
    }
}

impl Problem for StageProblem<'_> {
    type State = Step;
    type Key = PositionKey;
    type Move = Move;

    fn start(&self) -> Step {
        Step {
            position: self.game.start().clone(),
            reveals: self.game.start_reveals(),
        }
    }

    #[inline]
    fn key(&self, step: &Step) -> PositionKey {
        PositionKey::of(&step.position)
    }

    fn successors(&self, step: &Step, out: &mut Vec<(Move, Step)>) {
        MOVES.with_borrow_mut(|moves| {
            moves.clear();
            self.game.moves(&step.position, moves);
            let may_deal = step.position.rows_dealt() < self.max_rows;
            for &mv in moves.iter() {
                if mv == Move::Deal && !may_deal {
                    continue;
                }
                out.push((mv, self.game.apply(&step.position, mv)));
            }
        })
    }

    /// Whole layers ([`whole_layer_of`]): the graph reports its size so.
    #[inline]
    fn layer(&self, step: &Step) -> u64 {
        whole_layer_of(&step.position)
    }

    /// The sum-of-piles key ([`Position::sum_key`]), which
    /// [`Game::preview`] computes without building the position.
    #[inline]
    fn fingerprint(&self, step: &Step) -> u128 {
        step.position.sum_key(false)
    }

    #[inline]
    fn kind(&self, step: &Step) -> NodeKind {
        if step.position.is_won() {
            NodeKind::Goal
        } else if !step.reveals.is_empty() {
            NodeKind::Leaf
        } else {
            NodeKind::Inner
        }
    }
}

impl PackedProblem for StageProblem<'_> {
    fn pack(&self, step: &Step, out: &mut Vec<u8>) {
        step.pack_into(out);
    }

    fn unpack(&self, bytes: &[u8]) -> Step {
        Step::unpack_from(bytes)
            .expect("the layered search hands back the bytes pack wrote")
            .0
    }

    /// The step's compact form ([`crate::game::compact_step`]).
    fn write_record(&self, bytes: &[u8], out: &mut Vec<u8>) {
        crate::game::compact_step(bytes, out);
    }

    fn read_record(&self, record: &[u8], out: &mut Vec<u8>) -> Option<usize> {
        crate::game::uncompact_step(record, out)
    }

    /// The successors' keys and layers from the two piles each move
    /// touches ([`Game::preview`]), none of them built.
    fn expand_packed(&self, bytes: &[u8], out: &mut Vec<Successor>) -> NodeKind {
        let step = self.unpack(bytes);
        let kind = self.kind(&step);
        if kind != NodeKind::Inner {
            return kind;
        }
        let position = &step.position;
        let may_deal = position.rows_dealt() < self.max_rows;
        push_previews(
            self.game,
            position,
            [false, false],
            |mv| mv == Move::Deal && !may_deal,
            false,
            out,
        );
        kind
    }

    /// The move is played on the parent's bytes ([`Game::apply_packed`]).
    fn successor_packed(&self, bytes: &[u8], token: u32, out: &mut Vec<u8>) {
        self.game.apply_packed(
            &crate::game::PackedStep::new(bytes),
            Game::move_of_token(token),
            out,
        );
    }
}

/// What the graph keeps of a node: enough to colour it and to name the
/// `XX` slots it reveals.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeLabel {
    /// The node index (nodes are numbered in the order they were found).
    pub id: u32,
    /// Stock rows dealt since the deal file's position (its stage).
    pub rows_dealt: u8,
    /// Face-down cards left on the table.
    pub face_down: u8,
    /// Whether the position is won.
    pub won: bool,
    /// The `XX` slots the move into this node turned up (empty unless it is
    /// a reveal).
    pub revealed: Vec<Place>,
}

impl fmt::Display for NodeLabel {
    /// The DOT label: the node index; `won`; or what a reveal turns up.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.won {
            return write!(f, "{} won", self.id);
        }
        write!(f, "{}", self.id)?;
        for place in &self.revealed {
            write!(f, ": reveals {place}")?;
        }
        Ok(())
    }
}

/// The stage graph of a game with its node labels.
pub type StageGraph = MoveGraph<NodeLabel, Move>;

/// For one `XX` slot: whether the graph reveals it, and how soon.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlotReveal {
    /// The slot.
    pub place: Place,
    /// The fewest moves from the start to a node that turns it up, with one
    /// such line; `None` when no node of the graph does.
    pub first: Option<Vec<Move>>,
}

/// For one stage of the graph: the most cards that can be turned up in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StageTurnUp {
    /// Stock rows dealt.
    pub stage: usize,
    /// The fewest face-down cards left in any position of the stage.
    pub face_down: usize,
    /// The fewest moves from the start to such a position, with one such
    /// line.
    pub line: Vec<Move>,
}

/// The measures of a stage graph that `spider graph --stats` prints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StageReport {
    /// Nodes, edges, reveal nodes (leaves) and win nodes (goals).
    pub counts: GraphCounts,
    /// The largest of the fewest moves to reach each node, with a line.
    pub depth: Depth<Move>,
    /// The longest chain of strongly connected components, with a line.
    pub chain: Chain<Move>,
    /// Every `XX` slot of the deal, in the order of [`Deal::unknown_places`].
    pub reveals: Vec<SlotReveal>,
    /// For each stage the graph reaches, first stage first: the most cards
    /// turned up in it. Every position of the stage is in the graph, so this
    /// is exact: no line turns up more before the next deal.
    pub turn_ups: Vec<StageTurnUp>,
    /// Face-down cards in the deal file, for "k of n turned up".
    pub face_down_in_deal: usize,
}

impl StageReport {
    /// Measures `graph`, the graph of `deal`'s game.
    pub fn new(deal: &Deal, graph: &StageGraph) -> StageReport {
        let distances = graph.distances();
        // One pass over the reveal nodes: the nearest one for each slot.
        let mut nearest: BTreeMap<Place, (u32, NodeIndex<u32>)> = BTreeMap::new();
        for node in graph.graph().node_indices() {
            let label = &graph.graph()[node].label;
            let Some(moves) = (!label.revealed.is_empty())
                .then(|| distances.moves_to(node))
                .flatten()
            else {
                continue;
            };
            for &place in &label.revealed {
                let best = nearest.entry(place).or_insert((moves, node));
                *best = (*best).min((moves, node));
            }
        }
        let reveals = deal
            .unknown_places()
            .into_iter()
            .map(|place| SlotReveal {
                place,
                first: nearest
                    .get(&place)
                    .and_then(|&(_, node)| distances.line_to(graph, node)),
            })
            .collect();
        // Per stage, the node with the fewest face-down cards, nearest first.
        let mut fewest: BTreeMap<u8, (u8, u32, NodeIndex<u32>)> = BTreeMap::new();
        for node in graph.graph().node_indices() {
            let label = &graph.graph()[node].label;
            let Some(moves) = distances.moves_to(node) else {
                continue;
            };
            let candidate = (label.face_down, moves, node);
            let best = fewest.entry(label.rows_dealt).or_insert(candidate);
            *best = (*best).min(candidate);
        }
        let turn_ups = fewest
            .into_iter()
            .map(|(stage, (face_down, _, node))| StageTurnUp {
                stage: stage as usize,
                face_down: face_down as usize,
                line: distances.line_to(graph, node).unwrap_or_default(),
            })
            .collect();
        StageReport {
            turn_ups,
            face_down_in_deal: deal.piles.iter().map(|pile| pile.face_down.len()).sum(),
            counts: graph.counts(),
            depth: graph.depth(),
            chain: graph.longest_chain(),
            reveals,
        }
    }
}
