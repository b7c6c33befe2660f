//! A generic explorer of state spaces: one engine for Spider, N-queens and the quiz.
//!
//! The question "can this deal be won?" and the question "what does the
//! position graph look like?" are both searches over positions joined by
//! moves. This module knows nothing about cards: a [`Problem`] supplies a
//! start, the legal moves out of a state and what kind of node a state is
//! (a goal, a leaf that must not be expanded such as a Spider *reveal*, or an
//! ordinary inner node). The engine supplies the rest:
//!
//! - search orders: depth-first, breadth-first, best-first (by heuristic) and
//!   A* (cost + heuristic), see [`Order`];
//! - exact deduplication keyed by [`Problem::Key`] (an `ahash` table), which
//!   can be switched off for problems whose space is a tree;
//! - stopping at the first goal with the line of moves to it, or exploring
//!   everything and counting goals, see [`Stop`];
//! - limits on positions, time and memory, and a cancel flag for Ctrl-C, with
//!   the [`End`] of the search saying which one stopped it;
//! - statistics ([`Stats`]) and a progress callback;
//! - optionally the whole move graph ([`MoveGraph`], a petgraph `Graph`) with
//!   its measures: counts, depth, fewest moves to every node, the longest chain
//!   of strongly connected components, and DOT output.
//!
//! Nothing here recurses: every search and every graph analysis uses explicit
//! stacks or queues, so graphs millions of moves deep run on small stacks.
//!
//! # Example
//!
//! A counter that starts at 1 and may double or add one; the goal is 10. A
//! depth-first search with deduplication finds a line of moves to it:
//!
//! ```
//! use spider_analyzer::explore::{End, NodeKind, Order, Problem, Search, Stop};
//!
//! struct Reach10;
//!
//! impl Problem for Reach10 {
//!     type State = u32;
//!     type Key = u32;
//!     type Move = &'static str;
//!
//!     fn start(&self) -> u32 {
//!         1
//!     }
//!     fn key(&self, state: &u32) -> u32 {
//!         *state
//!     }
//!     fn successors(&self, &n: &u32, out: &mut Vec<(&'static str, u32)>) {
//!         if n * 2 <= 10 {
//!             out.push(("double", n * 2));
//!         }
//!         if n < 10 {
//!             out.push(("inc", n + 1));
//!         }
//!     }
//!     fn kind(&self, &n: &u32) -> NodeKind {
//!         if n == 10 { NodeKind::Goal } else { NodeKind::Inner }
//!     }
//! }
//!
//! let outcome = Search::new(&Reach10).order(Order::BreadthFirst).run();
//! assert_eq!(outcome.end, End::GoalFound);
//! let goal = outcome.first_goal.unwrap();
//! assert_eq!(goal.state, 10);
//! assert_eq!(goal.line, ["double", "double", "inc", "double"]);
//!
//! // The whole graph: 10 positions, and every position is at most 4 moves away.
//! let (_, graph) = Search::new(&Reach10).stop(Stop::Exhaust).run_with_graph(|n| *n);
//! assert_eq!(graph.counts().nodes, 10);
//! assert_eq!(graph.depth().moves, 4);
//! ```
//!
//! A Spider solver plugs in the same way: `State` is the position, `Key` its
//! packed form, `Move` a move or deal, `kind` says `Goal` for a win and `Leaf`
//! for a reveal, and `Search::new(&problem).order(Order::DepthFirst).run()`
//! returns the verdict's [`End`] and the winning line.

pub mod fptable;
mod graph;
pub mod layered;
pub mod memory;
mod search;
pub mod sortedfp;

pub use graph::{Chain, Depth, Distances, GraphCounts, GraphNode, MoveGraph};
pub use search::{
    End, Goal, Limits, Order, Outcome, ProblemOutcome, Search, Stats, Stop, StopReason,
};

/// What a state is to the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum NodeKind {
    /// An ordinary state: its successors are explored.
    #[default]
    Inner,
    /// A state that is known but not expanded: nothing is known beyond it (a
    /// Spider *reveal*, where a card whose face is unknown turns up).
    Leaf,
    /// A solution or a win. Goals are counted and not expanded.
    Goal,
    /// A state proven to have no goal below it (a dead end): counted, not
    /// expanded, and, unlike a leaf, it leaves nothing unknown behind.
    Dead,
}

/// A search problem: a start state, the moves out of each state, and what
/// kind of node a state is.
///
/// Only [`start`](Problem::start), [`key`](Problem::key) and
/// [`successors`](Problem::successors) are required. The other hooks default
/// to "every state is inner", "every move costs 1" and "no estimate".
pub trait Problem {
    /// A state of the problem, as the successor function needs it.
    type State: Clone;
    /// The exact identity of a state: two states with equal keys are one node.
    /// Used for deduplication; keep it compact, it is what the table stores.
    type Key: Eq + std::hash::Hash + Clone;
    /// A move from one state to the next (an edge label; `Display` it for DOT).
    type Move: Clone;

    /// The state the search starts from.
    fn start(&self) -> Self::State;

    /// The key of `state`.
    fn key(&self, state: &Self::State) -> Self::Key;

    /// Appends `(move, next state)` for every legal move out of `state`, in
    /// the order they should be tried.
    ///
    /// Only append: `out` may already hold other states (depth-first search
    /// passes its own stack, so that successors are never copied). Do not
    /// read, clear or reorder what is already there.
    fn successors(&self, state: &Self::State, out: &mut Vec<(Self::Move, Self::State)>);

    /// What kind of node `state` is. Goals and leaves are not expanded.
    fn kind(&self, _state: &Self::State) -> NodeKind {
        NodeKind::Inner
    }

    /// The cost of playing `mv` from `from`, for [`Order::AStar`].
    fn cost(&self, _from: &Self::State, _mv: &Self::Move) -> u64 {
        1
    }

    /// An estimate of the cost still needed to reach a goal, for
    /// [`Order::BestFirst`] and [`Order::AStar`]. For A* to return a cheapest
    /// line it must never overestimate and be consistent.
    fn heuristic(&self, _state: &Self::State) -> u64 {
        0
    }

    /// The layer of `state`, for the [layered search](layered): every move
    /// must keep or raise it, so that states of different layers never meet
    /// and each layer is searched (and forgotten) in turn. The default puts
    /// every state in one layer.
    fn layer(&self, _state: &Self::State) -> u64 {
        0
    }

    /// The *whole* layer `layer` is part of, when the problem splits its
    /// layers finer than the parts that make its states grow (Spider, on
    /// disk: by the pairs out of order, inside the layer of rows dealt,
    /// runs removed and cards turned up). The layered search counts apart
    /// the entries of a layer that came from another whole layer
    /// ([`layered::LayerStats::entries_across`]), so that how much the
    /// search grows can be told per whole layer. It must keep the order of
    /// the layers (a later layer's whole layer is never lower). The default:
    /// every layer is whole.
    fn whole_layer(&self, layer: u64) -> u64 {
        layer
    }

    /// A 128-bit fingerprint of `state`'s key: what the layered search
    /// stores instead of the key. The default hashes the key with two fixed
    /// seeds; a problem whose key is already a fingerprint returns it.
    fn fingerprint(&self, state: &Self::State) -> u128 {
        fingerprint_of(&self.key(state))
    }
}

/// Two independent 64-bit hashes of `value`, with fixed seeds (the same
/// fingerprint in every run, so checkpoints can be resumed).
pub fn fingerprint_of<T: std::hash::Hash + ?Sized>(value: &T) -> u128 {
    static SEEDS: std::sync::LazyLock<[ahash::RandomState; 2]> = std::sync::LazyLock::new(|| {
        [
            ahash::RandomState::with_seeds(1, 2, 3, 4),
            ahash::RandomState::with_seeds(5, 6, 7, 8),
        ]
    });
    (SEEDS[0].hash_one(value) as u128) << 64 | SEEDS[1].hash_one(value) as u128
}
