//! The move graph a search can record, and its measures.
//!
//! Spider players and puzzle enthusiasts ask how big the reachable graph is,
//! how far its farthest position is, how long a line can get before it can no
//! longer be undone, and what it looks like. All of that is answered here,
//! generically, with iterative algorithms only (petgraph's `kosaraju_scc`,
//! breadth-first searches with explicit queues, a dynamic programme over the
//! components): graphs millions of moves deep are fine on small stacks.

use std::collections::VecDeque;
use std::fmt;
use std::io;

use petgraph::Directed;
use petgraph::algo::kosaraju_scc;
use petgraph::dot::Dot;
use petgraph::graph::{EdgeIndex, Graph, NodeIndex};
use petgraph::visit::EdgeRef;

use super::NodeKind;

/// The petgraph type a [`MoveGraph`] wraps.
pub(crate) type PetGraph<L, M> = Graph<GraphNode<L>, M, Directed, u32>;

/// A node of the move graph: a distinct state, what kind of node it is, and
/// the label the problem gave it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GraphNode<L> {
    /// Goal, leaf (not expanded) or inner.
    pub kind: NodeKind,
    /// The problem's label (for Spider: whether it is a reveal, which unknown
    /// slot it reveals, a short text for DOT).
    pub label: L,
}

impl<L: fmt::Display> fmt::Display for GraphNode<L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.label.fmt(f)
    }
}

/// Node, edge, leaf and goal counts of a graph.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct GraphCounts {
    /// Distinct states.
    pub nodes: usize,
    /// Moves (parallel edges count once each).
    pub edges: usize,
    /// Leaf nodes (Spider: reveals).
    pub leaves: usize,
    /// Goal nodes (Spider: wins).
    pub goals: usize,
}

/// The fewest moves from the start to every node, with the last move of one
/// shortest line to each (breadth-first search).
#[derive(Clone, Debug)]
pub struct Distances {
    moves: Vec<u32>,
    via: Vec<EdgeIndex<u32>>,
}

impl Distances {
    /// The fewest moves from the start to `node`, `None` if unreachable.
    pub fn moves_to(&self, node: NodeIndex<u32>) -> Option<u32> {
        self.moves
            .get(node.index())
            .copied()
            .filter(|&d| d != u32::MAX)
    }

    /// One line of fewest moves from the start to `node`, `None` if unreachable.
    pub fn line_to<L, M: Clone>(
        &self,
        graph: &MoveGraph<L, M>,
        node: NodeIndex<u32>,
    ) -> Option<Vec<M>> {
        self.moves_to(node)?;
        let g = &graph.graph;
        let mut line = Vec::new();
        let mut at = node;
        while let Some(&edge) = self.via.get(at.index()).filter(|e| **e != EdgeIndex::end()) {
            line.push(g[edge].clone());
            at = g.edge_endpoints(edge).expect("edge of the graph").0;
        }
        line.reverse();
        Some(line)
    }

    /// Fewest moves for every node by index (`u32::MAX`: unreachable).
    pub fn as_slice(&self) -> &[u32] {
        &self.moves
    }
}

/// The depth of a graph: the largest, over all reachable nodes, of the fewest
/// moves needed to reach it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Depth<M> {
    /// The number of moves.
    pub moves: u32,
    /// A node that far away (the lowest index among them).
    pub node: NodeIndex<u32>,
    /// One line of `moves` moves from the start to `node`.
    pub line: Vec<M>,
}

/// The longest chain: the longest path, from the start, through the graph of
/// strongly connected components (moves inside a component can be undone;
/// moves between components cannot).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chain<M> {
    /// The number of components the chain passes through (the start's
    /// component included; 0 for an empty graph).
    pub components: u32,
    /// The number of strongly connected components of the graph.
    pub component_count: usize,
    /// The number of nodes of the largest component.
    pub largest_component: usize,
    /// One line of moves from the start that passes through `components`
    /// components (within a component it takes fewest moves).
    pub line: Vec<M>,
}

/// A directed move graph: node 0 is the start, nodes are distinct states,
/// edges are moves. Built by [`Search::run_with_graph`](super::Search::run_with_graph).
#[derive(Clone, Debug)]
pub struct MoveGraph<L, M> {
    graph: PetGraph<L, M>,
}

impl<L, M> MoveGraph<L, M> {
    /// Wraps a petgraph graph whose node 0 is the start (for graphs built by
    /// hand; searches build their own).
    pub fn from_graph(graph: Graph<GraphNode<L>, M, Directed, u32>) -> Self {
        Self { graph }
    }

    /// The underlying petgraph graph.
    pub fn graph(&self) -> &Graph<GraphNode<L>, M, Directed, u32> {
        &self.graph
    }

    /// Unwraps the petgraph graph.
    pub fn into_graph(self) -> Graph<GraphNode<L>, M, Directed, u32> {
        self.graph
    }

    /// The start node (index 0).
    pub fn start(&self) -> NodeIndex<u32> {
        NodeIndex::new(0)
    }

    /// Node, edge, leaf and goal counts.
    pub fn counts(&self) -> GraphCounts {
        let mut counts = GraphCounts {
            nodes: self.graph.node_count(),
            edges: self.graph.edge_count(),
            ..GraphCounts::default()
        };
        for node in self.graph.node_weights() {
            match node.kind {
                NodeKind::Leaf => counts.leaves += 1,
                NodeKind::Goal => counts.goals += 1,
                NodeKind::Inner | NodeKind::Dead => {}
            }
        }
        counts
    }

    /// The fewest moves from the start to every node. O(V + E).
    pub fn distances(&self) -> Distances {
        let n = self.graph.node_count();
        let mut moves = vec![u32::MAX; n];
        let mut via = vec![EdgeIndex::end(); n];
        if n == 0 {
            return Distances { moves, via };
        }
        let mut queue = VecDeque::new();
        moves[0] = 0;
        queue.push_back(self.start());
        while let Some(node) = queue.pop_front() {
            let next = moves[node.index()] + 1;
            for edge in self.graph.edges(node) {
                let target = edge.target().index();
                if moves[target] == u32::MAX {
                    moves[target] = next;
                    via[target] = edge.id();
                    queue.push_back(edge.target());
                }
            }
        }
        Distances { moves, via }
    }

    /// The depth and one line that long. O(V + E).
    pub fn depth(&self) -> Depth<M>
    where
        M: Clone,
    {
        let distances = self.distances();
        let mut node = self.start();
        let mut moves = 0;
        for (index, &d) in distances.moves.iter().enumerate() {
            if d != u32::MAX && d > moves {
                moves = d;
                node = NodeIndex::new(index);
            }
        }
        let line = distances.line_to(self, node).unwrap_or_default();
        Depth { moves, node, line }
    }

    /// The longest chain of strongly connected components from the start,
    /// with one line of moves along it. O(V + E).
    pub fn longest_chain(&self) -> Chain<M>
    where
        M: Clone,
    {
        let g = &self.graph;
        let n = g.node_count();
        if n == 0 {
            return Chain {
                components: 0,
                component_count: 0,
                largest_component: 0,
                line: Vec::new(),
            };
        }
        // Kosaraju (iterative) lists components sinks first: a reverse
        // topological order of the condensation.
        let sccs = kosaraju_scc(g);
        let mut component = vec![0u32; n];
        for (c, members) in sccs.iter().enumerate() {
            for node in members {
                component[node.index()] = c as u32;
            }
        }
        // chain[c]: most components on a path starting in c; exit[c]: the
        // edge leaving c on such a path.
        let mut chain = vec![0u32; sccs.len()];
        let mut exit = vec![EdgeIndex::<u32>::end(); sccs.len()];
        for (c, members) in sccs.iter().enumerate() {
            let mut best = 1;
            for &node in members {
                for edge in g.edges(node) {
                    let d = component[edge.target().index()] as usize;
                    if d == c {
                        continue;
                    }
                    debug_assert!(d < c, "kosaraju_scc order is not reverse topological");
                    if chain[d] + 1 > best {
                        best = chain[d] + 1;
                        exit[c] = edge.id();
                    }
                }
            }
            chain[c] = best;
        }

        // Spell out the chain: inside each component, a fewest-move path from
        // where we entered to the exit edge's source.
        let mut line = Vec::new();
        let mut seen = vec![u32::MAX; n]; // component stamp of the inner search
        let mut via = vec![EdgeIndex::<u32>::end(); n];
        let mut queue = VecDeque::new();
        let mut at = self.start();
        loop {
            let c = component[at.index()];
            let leave = exit[c as usize];
            if leave == EdgeIndex::end() {
                break;
            }
            let (from, to) = g.edge_endpoints(leave).expect("edge of the graph");
            queue.clear();
            seen[at.index()] = c;
            via[at.index()] = EdgeIndex::end();
            queue.push_back(at);
            while let Some(node) = queue.pop_front() {
                if node == from {
                    break;
                }
                for edge in g.edges(node) {
                    let t = edge.target().index();
                    if component[t] == c && seen[t] != c {
                        seen[t] = c;
                        via[t] = edge.id();
                        queue.push_back(edge.target());
                    }
                }
            }
            let mark = line.len();
            let mut node = from;
            while via[node.index()] != EdgeIndex::end() && node != at {
                let edge = via[node.index()];
                line.push(g[edge].clone());
                node = g.edge_endpoints(edge).expect("edge of the graph").0;
            }
            line[mark..].reverse();
            line.push(g[leave].clone());
            at = to;
        }

        Chain {
            components: chain[component[0] as usize],
            component_count: sccs.len(),
            largest_component: sccs.iter().map(Vec::len).max().unwrap_or(0),
            line,
        }
    }

    /// The graph in Graphviz DOT: nodes labelled by their label, the start a
    /// double circle, leaves filled light blue, goals filled pale green,
    /// edges labelled by their move.
    pub fn to_dot(&self) -> String
    where
        L: fmt::Display,
        M: fmt::Display,
    {
        let no_attrs = |_, _| String::new();
        let node_attrs = |_, (index, node): (NodeIndex<u32>, &GraphNode<L>)| {
            let mut attrs = String::new();
            if index.index() == 0 {
                attrs.push_str("shape = doublecircle ");
            }
            match node.kind {
                NodeKind::Inner => {}
                NodeKind::Dead => attrs.push_str("style = filled fillcolor = lightgrey "),
                NodeKind::Leaf => attrs.push_str("style = filled fillcolor = lightblue "),
                NodeKind::Goal => attrs.push_str("style = filled fillcolor = palegreen "),
            }
            attrs
        };
        Dot::with_attr_getters(&self.graph, &[], &no_attrs, &node_attrs).to_string()
    }

    /// Writes [`to_dot`](MoveGraph::to_dot) to `out`.
    pub fn write_dot(&self, mut out: impl io::Write) -> io::Result<()>
    where
        L: fmt::Display,
        M: fmt::Display,
    {
        out.write_all(self.to_dot().as_bytes())
    }
}
