//! Integration tests of the search engine, the puzzles and their commands.

use std::fmt;
use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use spider_analyzer::explore::{
    End, GraphNode, Limits, MoveGraph, NodeKind, Order, Problem, Search, Stop, StopReason,
};
use spider_analyzer::puzzles::queens::{Column, Queens};
use spider_analyzer::puzzles::quiz::{Quiz, QuizError};

// ---------------------------------------------------------------- problems

/// A move between two numbered states, shown `a>b`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Step(u32, u32);

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}>{}", self.0, self.1)
    }
}

/// A problem given by an explicit edge list; state 0 is the start.
#[derive(Clone, Debug)]
struct Edges {
    edges: Vec<(u32, u32)>,
    goals: Vec<u32>,
    leaves: Vec<u32>,
}

impl Problem for Edges {
    type State = u32;
    type Key = u32;
    type Move = Step;
    fn start(&self) -> u32 {
        0
    }
    fn key(&self, s: &u32) -> u32 {
        *s
    }
    fn successors(&self, &s: &u32, out: &mut Vec<(Step, u32)>) {
        out.extend(
            self.edges
                .iter()
                .filter(|e| e.0 == s)
                .map(|&(a, b)| (Step(a, b), b)),
        );
    }
    fn kind(&self, s: &u32) -> NodeKind {
        if self.goals.contains(s) {
            NodeKind::Goal
        } else if self.leaves.contains(s) {
            NodeKind::Leaf
        } else {
            NodeKind::Inner
        }
    }
}

/// Components {0,1,2} -> {3,4} -> {5} -> {6 goal}, plus 0 -> 7 (leaf) and a
/// shortcut 1 -> 5.
fn scc_example() -> Edges {
    Edges {
        edges: vec![
            (0, 1),
            (1, 2),
            (2, 0),
            (2, 3),
            (3, 4),
            (4, 3),
            (4, 5),
            (5, 6),
            (0, 7),
            (1, 5),
        ],
        goals: vec![6],
        leaves: vec![7],
    }
}

/// A `w`×`h` grid walked right or down from the top left corner; the goal is
/// the bottom right corner. Every inner square is reached two ways.
struct Grid {
    w: u32,
    h: u32,
}

impl Problem for Grid {
    type State = (u32, u32);
    type Key = (u32, u32);
    type Move = char;
    fn start(&self) -> (u32, u32) {
        (0, 0)
    }
    fn key(&self, s: &(u32, u32)) -> (u32, u32) {
        *s
    }
    fn successors(&self, &(x, y): &(u32, u32), out: &mut Vec<(char, (u32, u32))>) {
        if x + 1 < self.w {
            out.push(('R', (x + 1, y)));
        }
        if y + 1 < self.h {
            out.push(('D', (x, y + 1)));
        }
    }
    fn kind(&self, &(x, y): &(u32, u32)) -> NodeKind {
        if (x, y) == (self.w - 1, self.h - 1) {
            NodeKind::Goal
        } else {
            NodeKind::Inner
        }
    }
}

/// States 0..len in a line: forward always, backward too if `undo`.
struct Line {
    len: u32,
    undo: bool,
}

impl Problem for Line {
    type State = u32;
    type Key = u32;
    type Move = Step;
    fn start(&self) -> u32 {
        0
    }
    fn key(&self, s: &u32) -> u32 {
        *s
    }
    fn successors(&self, &s: &u32, out: &mut Vec<(Step, u32)>) {
        if s + 1 < self.len {
            out.push((Step(s, s + 1), s + 1));
        }
        if self.undo && s > 0 {
            out.push((Step(s, s - 1), s - 1));
        }
    }
    fn kind(&self, &s: &u32) -> NodeKind {
        if s + 1 == self.len {
            NodeKind::Goal
        } else {
            NodeKind::Inner
        }
    }
}

/// Weighted: 0 -> 1 -> 2 -> 3 costs 1 each, 0 -> 3 directly costs 10.
/// Fewest moves: the direct one; cheapest: the long way.
struct Weighted;

impl Problem for Weighted {
    type State = u32;
    type Key = u32;
    type Move = Step;
    fn start(&self) -> u32 {
        0
    }
    fn key(&self, s: &u32) -> u32 {
        *s
    }
    fn successors(&self, &s: &u32, out: &mut Vec<(Step, u32)>) {
        if s == 0 {
            out.push((Step(0, 3), 3));
        }
        if s < 3 {
            out.push((Step(s, s + 1), s + 1));
        }
    }
    fn kind(&self, &s: &u32) -> NodeKind {
        if s == 3 {
            NodeKind::Goal
        } else {
            NodeKind::Inner
        }
    }
    fn cost(&self, _: &u32, mv: &Step) -> u64 {
        if *mv == Step(0, 3) { 10 } else { 1 }
    }
    fn heuristic(&self, &s: &u32) -> u64 {
        u64::from(3 - s)
    }
}

// ---------------------------------------------------------------- queens

const QUEENS_COUNTS: [u64; 12] = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200];

#[test]
fn queens_counts_1_to_12() {
    for (n, &expected) in (1..).zip(&QUEENS_COUNTS) {
        let outcome = Queens::new(n).unwrap().count();
        assert_eq!(outcome.end, End::Exhausted, "n={n}");
        assert_eq!(outcome.stats.goals, expected, "n={n}");
        assert_eq!(outcome.stats.duplicates, 0);
    }
}

#[test]
fn queens_counts_agree_across_orders() {
    for n in 1..=8 {
        let queens = Queens::new(n).unwrap();
        for order in [
            Order::DepthFirst,
            Order::BreadthFirst,
            Order::BestFirst,
            Order::AStar,
        ] {
            {
                let dedup = false;
                let outcome = Search::new(&queens)
                    .order(order)
                    .dedup(dedup)
                    .stop(Stop::Exhaust)
                    .run();
                assert_eq!(
                    outcome.stats.goals,
                    QUEENS_COUNTS[n - 1],
                    "n={n} {order:?} {dedup}"
                );
                if let Some(goal) = outcome.first_goal {
                    assert_eq!(goal.line.len(), n);
                }
            }
        }
    }
}

#[test]
fn queens_with_dedup_merges_equal_masks() {
    // The state is the attacked columns and diagonals, not the placements:
    // with deduplication, placements leaving equal masks are one state, so
    // the 2 solutions of 4-queens (both attack everything) are one goal.
    let queens = Queens::new(4).unwrap();
    let outcome = Search::new(&queens).stop(Stop::Exhaust).run();
    assert_eq!(outcome.stats.goals, 1);
    assert!(outcome.stats.duplicates > 0);
}

#[test]
fn queens_solutions_are_valid_and_first_is_lexicographic() {
    let queens = Queens::new(8).unwrap();
    let all = queens.solutions();
    assert_eq!(all.len(), 92);
    assert_eq!(all[0], [0, 4, 7, 5, 2, 6, 1, 3].map(Column));
    for solution in &all {
        for (r1, a) in solution.iter().enumerate() {
            for (r2, b) in solution.iter().enumerate().skip(r1 + 1) {
                assert_ne!(a.0, b.0);
                assert_ne!((r2 - r1) as i32, (a.0 as i32 - b.0 as i32).abs());
            }
        }
    }
    let mut sorted = all.clone();
    sorted.sort_by_key(|s| s.iter().map(|c| c.0).collect::<Vec<_>>());
    assert_eq!(sorted, all);
    assert_eq!(
        queens.board(&all[0]).lines().next(),
        Some("Q . . . . . . .")
    );
}

#[test]
fn queens_rejects_bad_sizes() {
    assert!(Queens::new(0).is_err());
    assert!(Queens::new(17).is_err());
    assert!(Queens::new(16).is_ok());
}

// ---------------------------------------------------------------- search

#[test]
fn breadth_first_finds_a_fewest_move_line() {
    let grid = Grid { w: 4, h: 3 };
    let outcome = Search::new(&grid).order(Order::BreadthFirst).run();
    assert_eq!(outcome.end, End::GoalFound);
    let goal = outcome.first_goal.unwrap();
    assert_eq!(goal.state, (3, 2));
    assert_eq!(goal.line.len(), 5);
}

#[test]
fn depth_first_follows_the_first_successor() {
    let outcome = Search::new(&Grid { w: 4, h: 3 }).run();
    assert_eq!(outcome.end, End::GoalFound);
    assert_eq!(outcome.first_goal.unwrap().line, ['R', 'R', 'R', 'D', 'D']);
    // Depth-first dives: it stored the first row and column, not the grid.
    assert!(outcome.stats.positions < 12);
}

#[test]
fn a_star_finds_the_cheapest_line_and_breadth_first_the_shortest() {
    let astar = Search::new(&Weighted).order(Order::AStar).run();
    assert_eq!(
        astar.first_goal.unwrap().line,
        [Step(0, 1), Step(1, 2), Step(2, 3)]
    );
    let bfs = Search::new(&Weighted).order(Order::BreadthFirst).run();
    assert_eq!(bfs.first_goal.unwrap().line, [Step(0, 3)]);
    let greedy = Search::new(&Weighted).order(Order::BestFirst).run();
    assert_eq!(greedy.first_goal.unwrap().line, [Step(0, 3)]);
}

#[test]
fn dedup_counts_every_distinct_state_once() {
    let grid = Grid { w: 30, h: 20 };
    for order in [
        Order::DepthFirst,
        Order::BreadthFirst,
        Order::BestFirst,
        Order::AStar,
    ] {
        let outcome = Search::new(&grid).order(order).stop(Stop::Exhaust).run();
        assert_eq!(outcome.end, End::Exhausted);
        let s = &outcome.stats;
        assert_eq!(s.positions, 600, "{order:?}");
        assert_eq!(s.moves, 29 * 20 + 30 * 19, "{order:?}");
        assert_eq!(s.duplicates, s.moves - (s.positions - 1), "{order:?}");
        assert_eq!(s.goals, 1);
        assert_eq!(s.expanded, 599);
        assert!(s.memory_bytes >= s.table_bytes && s.table_bytes > 600 * 12);
    }
    // Without dedup the grid is a tree of paths: C(5, 2) = 10 ways to the goal of a 4×3 grid.
    let tree = Search::new(&Grid { w: 4, h: 3 })
        .dedup(false)
        .stop(Stop::Exhaust)
        .run();
    assert_eq!(tree.stats.goals, 10);
}

#[test]
fn dedup_terminates_on_cycles() {
    let ring = Line {
        len: 1000,
        undo: true,
    };
    let outcome = Search::new(&ring).stop(Stop::Exhaust).run();
    assert_eq!(outcome.end, End::Exhausted);
    assert_eq!(outcome.stats.positions, 1000);
    assert_eq!(outcome.stats.goals, 1);
}

#[test]
fn limits_say_what_stopped_the_search() {
    let grid = Grid { w: 300, h: 300 };
    let stopped = |limits: Limits| Search::new(&grid).stop(Stop::Exhaust).limits(limits).run();

    let outcome = stopped(Limits {
        max_positions: Some(500),
        ..Limits::default()
    });
    assert_eq!(outcome.end, End::Stopped(StopReason::Positions));
    assert!(outcome.stats.positions >= 500 && outcome.stats.positions < 510);

    let outcome = stopped(Limits {
        time: Some(Duration::ZERO),
        ..Limits::default()
    });
    assert_eq!(outcome.end, End::Stopped(StopReason::Time));

    let outcome = stopped(Limits {
        max_memory: Some(64 * 1024),
        ..Limits::default()
    });
    assert_eq!(outcome.end, End::Stopped(StopReason::Memory));

    let outcome = stopped(Limits {
        cancel: Some(Arc::new(AtomicBool::new(true))),
        ..Limits::default()
    });
    assert_eq!(outcome.end, End::Stopped(StopReason::Cancelled));
    assert!(outcome.stats.expanded <= 1024);
}

#[test]
fn goal_callback_sees_every_goal_and_can_stop() {
    let queens = Queens::new(6).unwrap();
    let mut seen = 0;
    let outcome = queens
        .search()
        .on_goal(|state, line| {
            assert_eq!(state.row, 6);
            assert_eq!(line.len(), 6);
            seen += 1;
            if seen == 3 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })
        .run();
    assert_eq!(outcome.end, End::Stopped(StopReason::Callback));
    assert_eq!(seen, 3);
}

#[test]
fn progress_is_reported_every_65536_expansions() {
    let queens = Queens::new(11).unwrap();
    let mut calls = Vec::new();
    let outcome = queens
        .search()
        .on_progress(|s| calls.push(s.expanded))
        .run();
    assert_eq!(outcome.stats.goals, 2680);
    let expected = outcome.stats.expanded / 65536;
    assert_eq!(calls.len() as u64, expected);
    assert_eq!(calls.first(), Some(&65536));
}

// ---------------------------------------------------------------- graph

#[test]
fn graph_counts_depth_distances_and_chain() {
    let (outcome, graph) = Search::new(&scc_example())
        .stop(Stop::Exhaust)
        .run_with_graph(|s| *s);
    assert_eq!(outcome.end, End::Exhausted);
    let counts = graph.counts();
    assert_eq!(
        (counts.nodes, counts.edges, counts.leaves, counts.goals),
        (8, 10, 1, 1)
    );

    let distances = graph.distances();
    let by_state = |state: u32| {
        let node = graph
            .graph()
            .node_indices()
            .find(|&n| graph.graph()[n].label == state)
            .unwrap();
        distances.moves_to(node).unwrap()
    };
    let expected = [
        (0, 0),
        (1, 1),
        (7, 1),
        (2, 2),
        (5, 2),
        (3, 3),
        (6, 3),
        (4, 4),
    ];
    for (state, moves) in expected {
        assert_eq!(by_state(state), moves, "state {state}");
    }

    let depth = graph.depth();
    assert_eq!(depth.moves, 4);
    assert_eq!(graph.graph()[depth.node].label, 4);
    assert_eq!(depth.line, [Step(0, 1), Step(1, 2), Step(2, 3), Step(3, 4)]);

    let chain = graph.longest_chain();
    assert_eq!(chain.components, 4);
    assert_eq!(chain.component_count, 5);
    assert_eq!(chain.largest_component, 3);
    assert_eq!(
        chain.line,
        [
            Step(0, 1),
            Step(1, 2),
            Step(2, 3),
            Step(3, 4),
            Step(4, 5),
            Step(5, 6)
        ]
    );
}

#[test]
fn graph_of_a_grid_is_a_dag_of_singletons() {
    let (_, graph) = Search::new(&Grid { w: 5, h: 4 })
        .order(Order::BreadthFirst)
        .stop(Stop::Exhaust)
        .run_with_graph(|_| ());
    assert_eq!(graph.counts().nodes, 20);
    assert_eq!(graph.counts().edges, 4 * 4 + 5 * 3);
    assert_eq!(graph.depth().moves, 7);
    let chain = graph.longest_chain();
    assert_eq!(chain.components, 8);
    assert_eq!(chain.component_count, 20);
    assert_eq!(chain.line.len(), 7);
}

#[test]
fn hand_built_graph_and_empty_graph() {
    let empty: MoveGraph<(), Step> = MoveGraph::from_graph(Default::default());
    assert_eq!(empty.counts().nodes, 0);
    assert_eq!(empty.depth().moves, 0);
    assert_eq!(empty.longest_chain().components, 0);

    let mut g = petgraph::Graph::default();
    let a = g.add_node(GraphNode {
        kind: NodeKind::Inner,
        label: "a",
    });
    let b = g.add_node(GraphNode {
        kind: NodeKind::Goal,
        label: "b",
    });
    g.add_edge(a, b, Step(0, 1));
    g.add_edge(b, a, Step(1, 0));
    let graph = MoveGraph::from_graph(g);
    let chain = graph.longest_chain();
    assert_eq!((chain.components, chain.component_count), (1, 1));
    assert!(chain.line.is_empty());
}

#[test]
fn dot_marks_start_leaves_goals_and_moves() {
    let (_, graph) = Search::new(&scc_example())
        .stop(Stop::Exhaust)
        .run_with_graph(|s| format!("s\"{s}\""));
    let dot = graph.to_dot();
    assert!(dot.starts_with("digraph {"));
    assert!(
        dot.contains(r#"0 [ label = "s\"0\"" shape = doublecircle ]"#),
        "{dot}"
    );
    assert_eq!(dot.matches("fillcolor = lightblue").count(), 1);
    assert_eq!(dot.matches("fillcolor = palegreen").count(), 1);
    assert!(dot.contains(r#"[ label = "2>3" ]"#), "{dot}");
    assert_eq!(dot.matches(" -> ").count(), 10);

    // Graphviz must accept it, when installed.
    if let Ok(mut child) = std::process::Command::new("dot")
        .arg("-Tsvg")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
    {
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(dot.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(String::from_utf8_lossy(&out.stdout).contains("<svg"));
    } else {
        crate::skipped(
            "dot_marks_start_leaves_goals_and_moves",
            "graphviz `dot`",
            "the DOT was not rendered",
        );
    }
}

/// Runs `f` on a thread with a 64 KiB stack: anything recursive over a
/// million states would overflow it.
fn on_small_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(64 * 1024)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap();
}

const DEEP: u32 = 1_000_000;

#[test]
fn a_million_states_deep_on_a_small_stack() {
    on_small_stack(|| {
        let line = Line {
            len: DEEP,
            undo: false,
        };
        for (order, dedup) in [
            (Order::DepthFirst, true),
            (Order::DepthFirst, false),
            (Order::BreadthFirst, true),
            (Order::BreadthFirst, false),
        ] {
            let outcome = Search::new(&line).order(order).dedup(dedup).run();
            assert_eq!(outcome.end, End::GoalFound);
            assert_eq!(outcome.stats.max_depth, DEEP - 1);
            assert_eq!(outcome.first_goal.unwrap().line.len(), (DEEP - 1) as usize);
        }

        let (_, graph) = Search::new(&line)
            .stop(Stop::Exhaust)
            .run_with_graph(|_| ());
        assert_eq!(graph.counts().nodes, DEEP as usize);
        let depth = graph.depth();
        assert_eq!(depth.moves, DEEP - 1);
        assert_eq!(depth.line.len(), (DEEP - 1) as usize);
        let chain = graph.longest_chain();
        assert_eq!(chain.components, DEEP);
        assert_eq!(chain.line.len(), (DEEP - 1) as usize);
    });
}

#[test]
fn a_million_state_component_on_a_small_stack() {
    on_small_stack(|| {
        let line = Line {
            len: DEEP,
            undo: true,
        };
        let (outcome, graph) = Search::new(&line)
            .stop(Stop::Exhaust)
            .run_with_graph(|_| ());
        assert_eq!(outcome.end, End::Exhausted);
        // The goal at the far end is not expanded: no move back from it, so
        // it is a component of its own after one of DEEP - 1 states.
        assert_eq!(graph.counts().edges, 2 * (DEEP as usize - 1) - 1);
        assert_eq!(graph.depth().moves, DEEP - 1);
        let chain = graph.longest_chain();
        assert_eq!((chain.components, chain.component_count), (2, 2));
        assert_eq!(chain.largest_component, DEEP as usize - 1);
        assert_eq!(chain.line.len(), DEEP as usize - 1);
        assert_eq!(chain.line.last(), Some(&Step(DEEP - 2, DEEP - 1)));
        let far = graph.distances();
        assert_eq!(far.as_slice().iter().max(), Some(&(DEEP - 1)));
    });
}

// ---------------------------------------------------------------- quiz

fn answers(quiz: &Quiz) -> Vec<String> {
    quiz.solve()
        .sets
        .iter()
        .map(|set| {
            set.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}

#[test]
fn builtin_quiz_has_exactly_one_answer() {
    let quiz = Quiz::builtin();
    assert_eq!(quiz.questions.len(), 4);
    assert_eq!(answers(&quiz), ["1=D 2=C 3=B 4=A"]);
}

#[test]
fn quiz_with_no_consistent_answers() {
    // Every option of the only question contradicts itself.
    let quiz = Quiz::from_yaml("questions:\n  - about: 1\n    options: {A: B, B: A}\n").unwrap();
    assert!(answers(&quiz).is_empty());
}

#[test]
fn quiz_with_several_consistent_answers() {
    let yaml = "
questions:
  - about: 2
    options: {A: A, B: B, C: A}
  - about: 1
    options: {A: A, B: B}
  - about: 3
    options: {X: X, Y: Y}
";
    let quiz = Quiz::from_yaml(yaml).unwrap();
    assert_eq!(
        answers(&quiz),
        ["1=A 2=A 3=X", "1=A 2=A 3=Y", "1=B 2=B 3=X", "1=B 2=B 3=Y"]
    );
    // Options may be numbers.
    let quiz = Quiz::from_yaml("questions:\n- about: 1\n  options: {1: 1, 2: 1}\n").unwrap();
    assert_eq!(answers(&quiz), ["1=1"]);
}

#[test]
fn quiz_errors_are_precise() {
    let err = Quiz::from_yaml("questions:\n  - about: 1\n    options: {A: B\n").unwrap_err();
    assert!(matches!(err, QuizError::Yaml(_)));
    assert!(err.to_string().contains("line"), "{err}");

    let err = Quiz::from_yaml("questions:\n  - abut: 1\n    options: {A: A}\n").unwrap_err();
    let message = err.to_string();
    assert!(message.contains("unknown field `abut`"), "{message}");
    assert!(message.contains("line 2 column 5"), "{message}");

    let err = Quiz::from_yaml("questions:\n  - about: 3\n    options: {A: A}\n").unwrap_err();
    assert!(matches!(
        err,
        QuizError::NoSuchQuestion {
            question: 1,
            about: 3,
            count: 1
        }
    ));

    let err = Quiz::from_yaml("questions:\n  - about: 1\n    options: {A: C}\n").unwrap_err();
    assert!(matches!(err, QuizError::NoSuchOption { question: 1, .. }));

    let err = Quiz::from_yaml("questions:\n  - about: 1\n    options: {A: A, A: A}\n").unwrap_err();
    assert!(err.to_string().contains("twice"), "{err}");

    assert!(matches!(
        Quiz::from_yaml("questions: []").unwrap_err(),
        QuizError::NoQuestions
    ));
}

mod quiz_against_brute_force {
    use super::*;
    use proptest::prelude::*;

    /// A random quiz: (about, claims) per question, claims as option indices.
    fn quiz_yaml(spec: &[(usize, Vec<usize>)]) -> String {
        let mut yaml = String::from("questions:\n");
        for (about, claims) in spec {
            let about = about % spec.len();
            let target_options = spec[about].1.len();
            let options: Vec<String> = claims
                .iter()
                .enumerate()
                .map(|(i, c)| format!("o{i}: o{}", c % target_options))
                .collect();
            yaml.push_str(&format!(
                "  - about: {}\n    options: {{{}}}\n",
                about + 1,
                options.join(", ")
            ));
        }
        yaml
    }

    fn brute_force(quiz: &Quiz) -> usize {
        let sizes: Vec<usize> = quiz.questions.iter().map(|q| q.options.len()).collect();
        let total: usize = sizes.iter().product();
        (0..total)
            .filter(|&mut_index| {
                let mut index = mut_index;
                let chosen: Vec<usize> = sizes
                    .iter()
                    .map(|&s| {
                        let c = index % s;
                        index /= s;
                        c
                    })
                    .collect();
                quiz.questions
                    .iter()
                    .zip(&chosen)
                    .all(|(q, &c)| q.options[c].claim == chosen[q.about])
            })
            .count()
    }

    proptest! {
        #[test]
        fn engine_finds_exactly_the_consistent_sets(
            spec in prop::collection::vec((0usize..6, prop::collection::vec(0usize..4, 1..5)), 1..6)
        ) {
            let quiz = Quiz::from_yaml(&quiz_yaml(&spec)).unwrap();
            let solutions = quiz.solve();
            prop_assert_eq!(solutions.sets.len(), brute_force(&quiz));
            for set in &solutions.sets {
                for answer in set {
                    let question = &quiz.questions[answer.question];
                    prop_assert_eq!(question.options[answer.option].claim, set[question.about].option);
                }
            }
        }
    }
}

// ---------------------------------------------------------------- commands

mod cli {
    use assert_cmd::Command;
    use predicates::prelude::*;

    fn spider() -> Command {
        Command::cargo_bin("spider").unwrap()
    }

    #[test]
    fn queens_8_counts_and_draws() {
        spider()
            .args(["queens", "8"])
            .assert()
            .success()
            .stdout(predicate::str::contains("8-queens: 92 solutions"))
            .stdout(predicate::str::contains("Q . . . . . . .\n. . . . Q . . ."));
    }

    #[test]
    fn queens_all_and_json() {
        let out = spider().args(["queens", "4", "--all"]).assert().success();
        let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
        assert_eq!(text.matches("Solution ").count(), 2);
        assert!(text.contains(". Q . .\n. . . Q\nQ . . .\n. . Q .\n"));

        let out = spider()
            .args(["queens", "6", "--json", "--all"])
            .assert()
            .success();
        let json: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
        assert_eq!(json["solutions"], 4);
        assert_eq!(json["first"], serde_json::json!([2, 4, 6, 1, 3, 5]));
        assert_eq!(json["all"].as_array().unwrap().len(), 4);
    }

    /// `queens` and `quiz` take `--memory-limit` (default `auto`, as every
    /// search) and a tiny one stops them with exit 3, the limit named and
    /// the count so far printed.
    #[test]
    fn queens_and_quiz_stop_at_their_memory_limit() {
        for command in ["queens", "quiz"] {
            let out = spider().args([command, "--help"]).assert().success();
            let help = String::from_utf8(out.get_output().stdout.clone()).unwrap();
            assert!(help.contains("--memory-limit <SIZE>"), "{help}");
            assert!(help.contains("[default: auto]"), "{help}");
            assert!(
                help.contains("3  stopped by the memory limit or Ctrl-C"),
                "{help}"
            );
        }
        let out = spider()
            .args(["queens", "12", "--memory-limit", "1"])
            .assert()
            .code(3);
        let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
        assert!(
            text.starts_with("12-queens: ")
                && text.contains(
                    " so far (stopped: the memory limit was reached: --memory-limit 1) ("
                ),
            "{text}"
        );
        // The whole count without the limit: 14,200 solutions.
        spider()
            .args(["queens", "12", "--memory-limit", "0"])
            .assert()
            .success()
            .stdout(predicate::str::contains("12-queens: 14200 solutions ("));

        // Eight questions, each about question 8: 4^7 partial sets to try,
        // past the engine's first check of its limits.
        let dir = crate::scratch();
        let quiz = dir.path().join("eight.yaml");
        let question = "  - about: 8\n    options: {A: A, B: B, C: C, D: D}\n";
        std::fs::write(&quiz, format!("questions:\n{}", question.repeat(8))).unwrap();
        let out = spider()
            .arg("quiz")
            .arg(&quiz)
            .args(["--memory-limit", "1K"])
            .assert()
            .code(3);
        let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
        assert!(
            text.contains(
                " of answers so far (stopped: the memory limit was reached: --memory-limit 1K) ("
            ),
            "{text}"
        );
        spider()
            .arg("quiz")
            .arg(&quiz)
            .assert()
            .success()
            .stdout(predicate::str::contains("4 consistent sets of answers ("));
        // One set, said in the singular.
        spider()
            .arg("quiz")
            .assert()
            .success()
            .stdout(predicate::str::ends_with(
                "1 consistent set of answers (built-in quiz, 4 questions).\n",
            ));
    }

    #[test]
    fn queens_without_solutions_exits_1() {
        spider()
            .args(["queens", "3"])
            .assert()
            .code(1)
            .stdout(predicate::str::contains("0 solutions"));
    }

    #[test]
    fn queens_bad_size_exits_2() {
        for n in ["0", "17"] {
            spider()
                .args(["queens", n])
                .assert()
                .code(2)
                .stderr(predicate::str::contains(
                    "out of range; expected a whole number from 1 to 16",
                ));
        }
        spider().args(["queens", "x"]).assert().code(2);
    }

    #[test]
    fn builtin_quiz() {
        spider().arg("quiz").assert().success().stdout(concat!(
            "1=D 2=C 3=B 4=A\n",
            "  1. The answer to Question 2 is: D, which says 2=C\n",
            "  2. The answer to Question 3 is: C, which says 3=B\n",
            "  3. The answer to Question 4 is: B, which says 4=A\n",
            "  4. The answer to Question 1 is: A, which says 1=D\n",
            "1 consistent set of answers (built-in quiz, 4 questions).\n",
        ));
        let out = spider().args(["quiz", "--json"]).assert().success();
        let json: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
        assert_eq!(json["consistent"], 1);
        assert_eq!(json["solutions"][0]["3"], "B");
    }

    #[test]
    fn quiz_files() {
        let dir = crate::scratch();
        let none = dir.path().join("none.yaml");
        std::fs::write(
            &none,
            "questions:\n  - about: 1\n    options: {A: B, B: A}\n",
        )
        .unwrap();
        spider()
            .arg("quiz")
            .arg(&none)
            .assert()
            .code(1)
            .stdout(predicate::str::contains("0 consistent sets"));

        let two = dir.path().join("two.yaml");
        std::fs::write(
            &two,
            "questions:\n  - about: 1\n    options: {A: A, B: B}\n",
        )
        .unwrap();
        spider().arg("quiz").arg(&two).assert().success().stdout(
            "1=A\n  1. A, which says 1=A\n1=B\n  1. B, which says 1=B\n2 consistent sets of answers ("
                .to_owned()
                + &two.display().to_string()
                + ", 1 question).\n",
        );

        let bad = dir.path().join("bad.yaml");
        std::fs::write(&bad, "questions:\n  - about: 1\n    optoins: {A: A}\n").unwrap();
        spider()
            .arg("quiz")
            .arg(&bad)
            .assert()
            .code(2)
            .stderr(predicate::str::contains("bad.yaml"))
            .stderr(predicate::str::contains("unknown field `optoins`"))
            .stderr(predicate::str::contains("line 3 column 5"))
            .stderr(predicate::function(|err: &str| {
                err.matches("optoins").count() == 1
            }));

        let dangling = dir.path().join("dangling.yaml");
        std::fs::write(&dangling, "questions:\n  - about: 2\n    options: {A: A}\n").unwrap();
        spider()
            .arg("quiz")
            .arg(&dangling)
            .assert()
            .code(2)
            .stderr(predicate::str::contains("dangling.yaml"))
            .stderr(predicate::str::contains("about question 2"));

        spider()
            .arg("quiz")
            .arg(dir.path().join("missing.yaml"))
            .assert()
            .code(2)
            .stderr(predicate::str::contains("missing.yaml"));
    }
}

mod random_graphs {
    use super::*;
    use proptest::prelude::*;

    fn edges() -> impl Strategy<Value = Edges> {
        (
            prop::collection::vec((0u32..12, 0u32..12), 0..40),
            prop::collection::vec(1u32..12, 0..3),
            prop::collection::vec(1u32..12, 0..3),
        )
            .prop_map(|(edges, goals, leaves)| Edges {
                edges,
                goals,
                leaves,
            })
    }

    proptest! {
        /// Every order finds a goal exactly when one is reachable through
        /// inner states; its line is a real walk to a goal; breadth-first's
        /// line is a shortest one.
        #[test]
        fn goal_lines_are_real_walks(problem in edges()) {
            let (_, graph) = Search::new(&problem).stop(Stop::Exhaust).run_with_graph(|s| *s);
            let distances = graph.distances();
            let shortest = graph
                .graph()
                .node_indices()
                .filter(|&n| graph.graph()[n].kind == NodeKind::Goal)
                .filter_map(|n| distances.moves_to(n))
                .min();
            for order in [Order::DepthFirst, Order::BreadthFirst, Order::BestFirst, Order::AStar] {
                let outcome = Search::new(&problem).order(order).run();
                prop_assert_eq!(outcome.end == End::GoalFound, shortest.is_some());
                if let Some(goal) = outcome.first_goal {
                    let mut at = 0;
                    for step in &goal.line {
                        prop_assert_eq!(step.0, at);
                        prop_assert!(problem.edges.contains(&(step.0, step.1)));
                        at = step.1;
                    }
                    prop_assert_eq!(at, goal.state);
                    prop_assert_eq!(problem.kind(&at), NodeKind::Goal);
                    if matches!(order, Order::BreadthFirst | Order::AStar) {
                        prop_assert_eq!(Some(goal.line.len() as u32), shortest);
                    }
                }
            }
        }
    }
}
