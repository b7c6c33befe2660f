//! The stage graph: the engine's exploration against a naive search written
//! separately here, and the `spider graph` command.

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use spider_analyzer::cards::{CardSlot, SuitCount};
use spider_analyzer::deal::{Deal, Place, Rules, load, numbered};
use spider_analyzer::explore::{End, Limits, Order, Search, Stop, StopReason};
use spider_analyzer::game::{Game, Move, Position};
use spider_analyzer::solve::stage::{Scope, StageProblem, StageReport};

/// A small deal with two `XX` cards: one can be turned up in stage 0, one
/// cannot; no pile can be emptied, so the graph stays tiny.
pub const TINY: &str = "\
suits: 4
rules: standard
piles:
  - {face_down: [XX], face_up: [3S]}
  - {face_down: [KS, QS, JS, 10S, 9S, 8S, 7S, 6S], face_up: [5S, 4S]}
  - {face_down: [9H], face_up: [2S]}
  - {face_down: [XX, 5H], face_up: [AS]}
  - {face_down: [], face_up: [QH]}
  - {face_down: [], face_up: [QD]}
  - {face_down: [], face_up: [QC]}
  - {face_down: [], face_up: [QH]}
  - {face_down: [], face_up: [QD]}
  - {face_down: [], face_up: [QC]}
stock: []
removed: []
";

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

fn tiny() -> (tempfile::TempDir, PathBuf) {
    let dir = crate::scratch();
    let path = dir.path().join("tiny.yaml");
    std::fs::write(&path, TINY).unwrap();
    (dir, path)
}

/// What the naive search finds.
#[derive(Debug, PartialEq, Eq)]
struct Counts {
    nodes: usize,
    edges: usize,
    reveals: usize,
    wins: usize,
    /// For each `XX` slot turned up: the fewest moves that do it.
    first_reveal: BTreeMap<Place, usize>,
    /// The fewest face-down cards left in any position, and the fewest
    /// moves to such a position.
    fewest_face_down: (usize, usize),
}

/// Breadth-first over full positions in a plain `HashSet`, every move but
/// `deal`; reveals and wins are counted and not expanded. Written without
/// the engine, the stage problem or fingerprints.
fn naive(game: &Game) -> Counts {
    let start = game.start().clone();
    let mut seen: HashSet<Position> = HashSet::new();
    let mut queue: VecDeque<(Position, usize)> = VecDeque::new();
    seen.insert(start.clone());
    queue.push_back((start, 0));
    let mut counts = Counts {
        nodes: 0,
        edges: 0,
        reveals: 0,
        wins: 0,
        first_reveal: BTreeMap::new(),
        fewest_face_down: (usize::MAX, 0),
    };
    let mut moves = Vec::new();
    while let Some((position, depth)) = queue.pop_front() {
        counts.nodes += 1;
        counts.fewest_face_down = counts
            .fewest_face_down
            .min((position.face_down_total(), depth));
        if position.is_won() {
            counts.wins += 1;
            continue;
        }
        if position.is_reveal() {
            counts.reveals += 1;
            // The unknown face-up card sits right above the face-down ones.
            for pile in 0..10 {
                if position.face_up(pile).any(|card| card.is_none()) {
                    let place = Place::FaceDown {
                        pile: pile + 1,
                        index: position.face_down_count(pile) + 1,
                    };
                    counts.first_reveal.entry(place).or_insert(depth);
                }
            }
            continue;
        }
        moves.clear();
        game.moves(&position, &mut moves);
        for &mv in &moves {
            if mv == Move::Deal {
                continue;
            }
            counts.edges += 1;
            let next = game.apply(&position, mv).position;
            if seen.insert(next.clone()) {
                queue.push_back((next, depth + 1));
            }
        }
    }
    counts
}

/// The engine's stage graph of `deal`, in the same terms.
fn engine(deal: &Deal) -> Counts {
    let game = Game::new(deal).unwrap();
    let problem = StageProblem::new(&game, Scope::Stage(0));
    let (outcome, graph) = Search::new(&problem)
        .order(Order::BreadthFirst)
        .stop(Stop::Exhaust)
        .run_with_graph(problem.labeller());
    assert_eq!(outcome.end, End::Exhausted);
    let counts = graph.counts();
    // The searches without a graph, in both orders, count the same.
    for order in [Order::DepthFirst, Order::BreadthFirst] {
        let plain = Search::new(&problem).order(order).stop(Stop::Exhaust).run();
        assert_eq!(plain.end, End::Exhausted);
        assert_eq!(plain.stats.positions as usize, counts.nodes, "{order:?}");
        assert_eq!(plain.stats.moves as usize, counts.edges, "{order:?}");
        assert_eq!(plain.stats.leaves as usize, counts.leaves, "{order:?}");
        assert_eq!(plain.stats.goals as usize, counts.goals, "{order:?}");
    }
    let report = StageReport::new(deal, &graph);
    assert_eq!(report.reveals.len(), deal.unknown_places().len());
    // Stage 0 only: one turn-up line, and it replays to a position with
    // that many face-down cards.
    assert_eq!(report.turn_ups.len(), 1);
    let turn_up = &report.turn_ups[0];
    let mut position = game.start().clone();
    for &mv in &turn_up.line {
        position = game.apply(&position, mv).position;
    }
    assert_eq!(position.face_down_total(), turn_up.face_down);
    Counts {
        nodes: counts.nodes,
        edges: counts.edges,
        reveals: counts.leaves,
        wins: counts.goals,
        first_reveal: report
            .reveals
            .iter()
            .filter_map(|slot| slot.first.as_ref().map(|line| (slot.place, line.len())))
            .collect(),
        fewest_face_down: (turn_up.face_down, turn_up.line.len()),
    }
}

/// Cross-checks `deal` and returns the counts.
fn cross_check(name: &str, deal: &Deal) -> Counts {
    let expected = naive(&Game::new(deal).unwrap());
    let got = engine(deal);
    assert_eq!(got, expected, "{name}");
    got
}

/// Deal files whose stage 0 is too large to cross-check in the dev profile,
/// with the position count the engine must exceed.
const TOO_LARGE: &[(&str, u64)] = &[("fresh-2-suit.yaml", 500_000), ("mid-game.yaml", 500_000)];

/// Deal files cross-checked, with their exact stage-0 counts
/// (nodes, edges, reveals, wins).
/// Nodes, edges, reveal nodes and win nodes.
type Sizes = (usize, usize, usize, usize);

const CROSS_CHECKED: &[(&str, Sizes)] = &[
    ("unwon-2017.yaml", (2760, 20272, 0, 0)),
    ("unwon-2017.clips", (2760, 20272, 0, 0)),
    ("fresh-1-suit.yaml", (38111, 440475, 0, 0)),
];

#[test]
fn every_deal_file_is_cross_checked_or_shown_too_large() {
    let mut names: Vec<String> = std::fs::read_dir(repo("deals"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    for name in &names {
        let listed = CROSS_CHECKED.iter().any(|(n, _)| n == name)
            || TOO_LARGE.iter().any(|(n, _)| n == name);
        assert!(
            listed,
            "deals/{name} is neither cross-checked nor listed as too large"
        );
    }
    for (name, (nodes, edges, reveals, wins)) in CROSS_CHECKED {
        let deal = load(&repo(&format!("deals/{name}"))).unwrap();
        let counts = cross_check(name, &deal);
        assert_eq!(
            (counts.nodes, counts.edges, counts.reveals, counts.wins),
            (*nodes, *edges, *reveals, *wins),
            "{name}"
        );
    }
    for (name, at_least) in TOO_LARGE {
        let deal = load(&repo(&format!("deals/{name}"))).unwrap();
        let game = Game::new(&deal).unwrap();
        let problem = StageProblem::new(&game, Scope::Stage(0));
        let outcome = Search::new(&problem)
            .stop(Stop::Exhaust)
            .limits(Limits {
                max_positions: Some(*at_least),
                ..Limits::default()
            })
            .run();
        assert_eq!(
            outcome.end,
            End::Stopped(StopReason::Positions),
            "{name}: stage 0 is smaller than {at_least} positions: cross-check it"
        );
    }
}

#[test]
fn the_unwon_game_cannot_reveal_its_unknown_cards_in_stage_0() {
    let deal = load(&repo("deals/unwon-2017.yaml")).unwrap();
    let counts = cross_check("unwon", &deal);
    assert!(counts.first_reveal.is_empty());
    // At most 8 of its 44 face-down cards turn up before the first deal.
    assert_eq!(counts.fewest_face_down.0, 36);
    assert_eq!(deal.unknown_places().len(), 4);
}

#[test]
fn the_tiny_deal_reveals_one_slot_of_two() {
    let (_dir, path) = tiny();
    let deal = load(&path).unwrap();
    let counts = cross_check("tiny", &deal);
    assert_eq!((counts.nodes, counts.edges, counts.reveals), (12, 15, 6));
    assert_eq!(
        counts.first_reveal,
        BTreeMap::from([(Place::FaceDown { pile: 1, index: 1 }, 1)])
    );
}

#[test]
fn numbered_deals_match_the_naive_search() {
    // Deals 4 and 8 have small stage-0 graphs for every suit count (most
    // fresh deals have millions of positions).
    let mut sizes = HashMap::new();
    for (number, suits) in [
        (4, SuitCount::One),
        (8, SuitCount::One),
        (4, SuitCount::Two),
        (8, SuitCount::Two),
        (4, SuitCount::Four),
        (8, SuitCount::Four),
    ] {
        let deal = numbered::deal(number, suits, Rules::Standard);
        let counts = cross_check(&format!("deal {number} {suits:?}"), &deal);
        sizes.insert((number, format!("{suits:?}")), counts.nodes);
    }
    assert_eq!(sizes[&(4, "One".to_string())], 145);
    assert_eq!(sizes[&(8, "Four".to_string())], 3483);
}

#[test]
fn numbered_deals_with_unknown_cards_match_the_naive_search() {
    // The top face-down card of every pile unknown: every move that empties
    // a pile's face-up cards is a reveal.
    for number in [4, 8] {
        for suits in [SuitCount::One, SuitCount::Four] {
            let mut deal = numbered::deal(number, suits, Rules::Standard);
            for pile in &mut deal.piles {
                if let Some(top) = pile.face_down.last_mut() {
                    *top = CardSlot::Unknown;
                }
            }
            let counts = cross_check(&format!("deal {number} {suits:?} with XX"), &deal);
            assert!(counts.reveals > 0, "deal {number} {suits:?}");
            assert!(!counts.first_reveal.is_empty());
        }
    }
}

fn spider() -> Command {
    Command::cargo_bin("spider").unwrap()
}

#[test]
fn stats_of_the_unwon_game() {
    let out = spider()
        .args(["graph", "deals/unwon-2017.yaml", "--stats"])
        .current_dir(repo(""))
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "deals/unwon-2017.yaml: stage 0 (no deals)");
    assert_eq!(lines[1], "nodes:        2760 positions");
    assert_eq!(lines[2], "edges:        20272 moves");
    assert_eq!(lines[3], "reveal nodes: 0");
    assert_eq!(lines[4], "win nodes:    0");
    assert!(
        lines[5].starts_with("depth:        11 moves: "),
        "{}",
        lines[5]
    );
    assert!(
        lines[6].starts_with("longest chain: 9 components of 174 (largest 144 positions), "),
        "{}",
        lines[6]
    );
    // At most 8 of the 44 face-down cards can be turned up before the
    // first deal (checked against the naive search in
    // `the_unwon_game_cannot_reveal_its_unknown_cards_in_stage_0`).
    assert!(
        lines[7].starts_with("turned up:    stage 0: 36 face-down left (8 of 44 turned up), "),
        "{}",
        lines[7]
    );
    assert_eq!(lines[8], "reveals:");
    for slot in [
        "pile 3 face-down #1",
        "pile 3 face-down #2",
        "pile 5 face-down #1",
        "pile 5 face-down #2",
    ] {
        assert!(
            text.contains(&format!("  {slot}: cannot be revealed in this stage")),
            "{text}"
        );
    }
    // The depth line has its 11 moves.
    let depth_line = lines[5].rsplit(": ").next().unwrap();
    assert_eq!(depth_line.split_whitespace().count(), 11);
}

#[test]
fn json_stats_of_the_tiny_deal() {
    let (_dir, path) = tiny();
    let out = spider()
        .args(["graph", "--json"])
        .arg(&path)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let json: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(json["complete"], true);
    assert_eq!(json["nodes"], 12);
    assert_eq!(json["edges"], 15);
    assert_eq!(json["reveal_nodes"], 6);
    assert_eq!(json["win_nodes"], 0);
    assert_eq!(json["depth"]["moves"], 4);
    assert_eq!(json["longest_chain"]["components"], 4);
    let reveals = json["reveals"].as_array().unwrap();
    assert_eq!(reveals.len(), 2);
    assert_eq!(reveals[0]["name"], "pile 1 face-down #1");
    assert_eq!(reveals[0]["moves"], 1);
    assert_eq!(reveals[0]["line"], "1-2/1");
    assert_eq!(reveals[1]["revealed"], false);
    assert_eq!(reveals[1]["moves"], serde_json::Value::Null);
    // A♠ onto 2♠ turns up 5♥, 2♠ A♠ onto 3♠ turns up 9♥, and 3♠ 2♠ A♠
    // onto 4♠ turns up pile 1's XX: three of the twelve.
    assert_eq!(json["face_down_at_start"], 12);
    let turned_up = json["turned_up"].as_array().unwrap();
    assert_eq!(turned_up.len(), 1);
    assert_eq!(turned_up[0]["stage"], 0);
    assert_eq!(turned_up[0]["fewest_face_down"], 9);
    assert_eq!(turned_up[0]["moves"], 3);
    assert_eq!(turned_up[0]["line"], "4-3/1 3-1/2 1-2/3");
}

#[test]
fn dot_output_renders_with_graphviz() {
    let (dir, path) = tiny();
    let dot_file = dir.path().join("tiny.dot");
    spider()
        .args(["graph", "-o"])
        .arg(&dot_file)
        .arg(&path)
        .assert()
        .success()
        .stdout("");
    let dot = std::fs::read_to_string(&dot_file).unwrap();
    assert!(dot.starts_with("digraph {"));
    assert_eq!(dot.matches("fillcolor = lightblue").count(), 6);
    assert!(dot.contains("reveals pile 1 face-down #1"));
    assert!(dot.contains("label = \"1-2/1\""));
    // Only the output file is left in the directory.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
    // The same DOT on stdout.
    let stdout = spider().arg("graph").arg(&path).assert().success();
    assert_eq!(String::from_utf8_lossy(&stdout.get_output().stdout), dot);

    match std::process::Command::new("dot").arg("-V").output() {
        Ok(_) => {
            let svg = std::process::Command::new("dot")
                .arg("-Tsvg")
                .arg(&dot_file)
                .output()
                .unwrap();
            assert!(
                svg.status.success(),
                "{}",
                String::from_utf8_lossy(&svg.stderr)
            );
            assert!(String::from_utf8_lossy(&svg.stdout).contains("<svg"));
        }
        Err(_) => crate::skipped(
            "dot_output_renders_with_graphviz",
            "graphviz `dot`",
            "the DOT was not rendered",
        ),
    }
}

#[test]
fn bad_input_exits_2() {
    let (dir, path) = tiny();
    let missing = dir.path().join("missing.yaml");
    spider()
        .arg("graph")
        .arg(&missing)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("spider: error:"));
    let broken = dir.path().join("broken.yaml");
    std::fs::write(&broken, "suits: 4\npiles: [\n").unwrap();
    spider().arg("graph").arg(&broken).assert().code(2);
    // The tiny deal has no stock: only stage 0 exists.
    spider()
        .args(["graph", "--stage", "1"])
        .arg(&path)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("0 stock rows"));
    spider()
        .args(["graph", "--stage", "1", "--deals"])
        .arg(&path)
        .assert()
        .code(2);
    spider()
        .args(["graph", "--max-nodes", "-1"])
        .arg(&path)
        .assert()
        .code(2);
}

#[test]
fn over_max_nodes_exits_3_and_writes_nothing() {
    let dir = crate::scratch();
    let out = dir.path().join("unwon.dot");
    spider()
        .args(["graph", "deals/unwon-2017.yaml", "--max-nodes", "100", "-o"])
        .arg(&out)
        .current_dir(repo(""))
        .assert()
        .code(3)
        .stdout("")
        .stderr(predicates::str::contains(
            "more than 100 positions (--max-nodes 100)",
        ));
    assert!(!out.exists());
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    // An existing file is left as it was (even with --force).
    std::fs::write(&out, "old").unwrap();
    spider()
        .args([
            "graph",
            "deals/unwon-2017.yaml",
            "--force",
            "--max-nodes",
            "2759",
            "-o",
        ])
        .arg(&out)
        .current_dir(repo(""))
        .assert()
        .code(3);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "old");
    // Exactly the graph's size is enough.
    spider()
        .args([
            "graph",
            "deals/unwon-2017.yaml",
            "--max-nodes",
            "2760",
            "--force",
            "-o",
        ])
        .arg(&out)
        .current_dir(repo(""))
        .assert()
        .success();
    assert!(
        std::fs::read_to_string(&out)
            .unwrap()
            .starts_with("digraph")
    );
    // JSON says it is incomplete.
    let json = spider()
        .args([
            "graph",
            "deals/unwon-2017.yaml",
            "--json",
            "--max-nodes",
            "100",
        ])
        .current_dir(repo(""))
        .assert()
        .code(3)
        .get_output()
        .stdout
        .clone();
    let json: serde_json::Value = serde_json::from_slice(&json).unwrap();
    assert_eq!(json["complete"], false);
    assert_eq!(json["stopped"], "positions");
}

#[test]
fn later_stages_and_the_whole_game_grow_the_graph() {
    let deal = load(&repo("deals/unwon-2017.yaml")).unwrap();
    let game = Game::new(&deal).unwrap();
    let stage0 = StageProblem::new(&game, Scope::Stage(0));
    let outcome = Search::new(&stage0).stop(Stop::Exhaust).run();
    assert_eq!(outcome.stats.positions, 2760);
    for scope in [Scope::Stage(1), Scope::WholeGame] {
        let problem = StageProblem::new(&game, scope);
        let outcome = Search::new(&problem)
            .stop(Stop::Exhaust)
            .limits(Limits {
                max_positions: Some(20_000),
                ..Limits::default()
            })
            .run();
        // Dealing from any of the 2760 positions opens a new stage.
        assert_eq!(outcome.end, End::Stopped(StopReason::Positions), "{scope}");
    }
}
