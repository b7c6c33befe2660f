//! The layered search: the same counts as the graph-building explorer, on
//! one thread or several, uninterrupted or resumed from a checkpoint; the
//! solver's exhaustive problem against the naive search; the puzzles.

use std::ops::ControlFlow;
use std::path::Path;

use assert_cmd::Command;
use spider_analyzer::deal::{Deal, Rules, load, pysol};
use spider_analyzer::explore::layered::{
    Layered, LayeredStats, PARTS, PackedProblem, part_of, read_spill_part,
};
use spider_analyzer::explore::{End, Limits, NodeKind, Order, Problem, Search, Stop, StopReason};
use spider_analyzer::game::Game;
use spider_analyzer::puzzles::queens::Queens;
use spider_analyzer::solve::exhaustive::ExhaustiveProblem;
use spider_analyzer::solve::stage::{Scope, StageProblem};
use spider_analyzer::solve::verify;

use super::graph::TINY;
use super::solver::{naive_winnable, small_case};

fn repo(path: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// Counts of a stage graph by the layered search on `jobs` threads.
fn layered_counts(deal: &Deal, scope: Scope, jobs: usize) -> LayeredStats {
    let game = Game::new(deal).unwrap();
    let problem = StageProblem::new(&game, scope);
    let outcome = Layered::new(&problem)
        .stop(Stop::Exhaust)
        .jobs(Some(jobs))
        .run()
        .unwrap();
    assert_eq!(outcome.end, End::Exhausted);
    outcome.stats
}

/// The per-layer figures that must not depend on threads or resumption.
fn layer_figures(stats: &LayeredStats) -> Vec<(u64, u64, u64, u64, u64)> {
    stats
        .layers
        .iter()
        .map(|l| (l.layer, l.positions, l.moves, l.leaves, l.goals))
        .collect()
}

#[test]
fn stage_0_counts_equal_the_graph_explorer_s() {
    let unwon = load(&repo("deals/unwon-2017.yaml")).unwrap();
    let cases = [
        (unwon, 2_760, 20_272),
        (pysol::deal(2, Rules::Standard).unwrap(), 99, 264),
        (pysol::deal(3, Rules::Standard).unwrap(), 28_081, 129_643),
        (pysol::deal(14934, Rules::Standard).unwrap(), 7, 12),
    ];
    for (deal, positions, moves) in cases {
        let stats = layered_counts(&deal, Scope::Stage(0), 2);
        assert_eq!((stats.positions, stats.moves), (positions, moves));
        // The graph-building explorer agrees, reveals and wins included.
        let game = Game::new(&deal).unwrap();
        let problem = StageProblem::new(&game, Scope::Stage(0));
        let graph = Search::new(&problem)
            .order(Order::BreadthFirst)
            .stop(Stop::Exhaust)
            .run();
        assert_eq!(graph.stats.positions, stats.positions);
        assert_eq!(graph.stats.moves, stats.moves);
        assert_eq!(graph.stats.leaves, stats.leaves);
        assert_eq!(graph.stats.goals, stats.goals);
        // Every layer is a distinct (runs removed, face-down) pair.
        assert!(stats.layers.windows(2).all(|w| w[0].layer < w[1].layer));
    }
}

/// A search of every state of `problem` on two threads.
fn exhausting<'a>(problem: &'a StageProblem<'a>) -> Layered<'a, StageProblem<'a>> {
    Layered::new(problem).stop(Stop::Exhaust).jobs(Some(2))
}

/// Batches of one unit (1,024 states) after the first, as a search whose
/// states are slow to expand gets them under a time limit, find what whole
/// batches find.
#[test]
fn batches_of_one_unit_count_the_same_as_whole_batches() {
    for (deal, scope, positions) in [
        (
            pysol::deal(3, Rules::Standard).unwrap(),
            Scope::Stage(0),
            28_081,
        ),
        (
            pysol::deal(14934, Rules::Standard).unwrap(),
            Scope::Stage(2),
            7 + 94 + 50_709,
        ),
    ] {
        let game = Game::new(&deal).unwrap();
        let problem = StageProblem::new(&game, scope);
        let run = |batch_time| {
            // Batches adapt only under a time limit.
            let outcome = exhausting(&problem)
                .limits(Limits {
                    time: Some(std::time::Duration::from_secs(3600)),
                    ..Limits::default()
                })
                .batch_time(batch_time)
                .run()
                .unwrap();
            assert_eq!(outcome.end, End::Exhausted);
            outcome.stats
        };
        let whole = run(std::time::Duration::from_secs(3600));
        let small = run(std::time::Duration::ZERO);
        assert_eq!(whole.positions, positions);
        assert_eq!(layer_figures(&small), layer_figures(&whole));
        assert_eq!(
            (small.positions, small.moves, small.max_depth),
            (whole.positions, whole.moves, whole.max_depth)
        );
    }
}

/// A search whose time is up, or that is cancelled, before it starts
/// expands nothing: each unit of a batch asks before it starts, so a slow
/// batch does not overrun the limit.
#[test]
fn a_search_out_of_time_or_cancelled_expands_no_unit() {
    let deal = pysol::deal(3, Rules::Standard).unwrap();
    let game = Game::new(&deal).unwrap();
    let problem = StageProblem::new(&game, Scope::Stage(0));
    for (limits, reason) in [
        (
            Limits {
                time: Some(std::time::Duration::ZERO),
                ..Limits::default()
            },
            StopReason::Time,
        ),
        (
            Limits {
                cancel: Some(std::sync::Arc::new(std::sync::atomic::AtomicBool::new(
                    true,
                ))),
                ..Limits::default()
            },
            StopReason::Cancelled,
        ),
    ] {
        let outcome = exhausting(&problem).limits(limits).run().unwrap();
        assert_eq!(outcome.end, End::Stopped(reason));
        assert_eq!(outcome.stats.expanded, 0);
    }
}

#[test]
fn parallel_runs_count_the_same_as_one_thread() {
    // PySol 14934, stages 0-2: 7, 94 and 50,709 positions.
    let deal = pysol::deal(14934, Rules::Standard).unwrap();
    let one = layered_counts(&deal, Scope::Stage(2), 1);
    assert_eq!(one.positions, 7 + 94 + 50_709);
    for jobs in [2, 3] {
        let many = layered_counts(&deal, Scope::Stage(2), jobs);
        assert_eq!(many.threads, jobs);
        assert_eq!(layer_figures(&many), layer_figures(&one), "{jobs} threads");
        assert_eq!(many.positions, one.positions);
    }
}

#[test]
fn a_resumed_search_counts_the_same_as_an_uninterrupted_one() {
    let deal = pysol::deal(14934, Rules::Standard).unwrap();
    let game = Game::new(&deal).unwrap();
    let problem = StageProblem::new(&game, Scope::Stage(2));
    let whole = layered_counts(&deal, Scope::Stage(2), 1);
    let dir = crate::scratch();
    let checkpoint = dir.path().join("search");
    // Stopped three times by a position limit, resumed each time.
    let mut runs = 0;
    let stats = loop {
        runs += 1;
        let outcome = Layered::new(&problem)
            .stop(Stop::Exhaust)
            .jobs(Some(2))
            .limits(Limits {
                max_positions: (runs < 4).then(|| whole.positions * runs / 4),
                ..Limits::default()
            })
            .checkpoint(&checkpoint, "pysol 14934, stages 0-2")
            .run()
            .unwrap();
        if outcome.end == End::Exhausted {
            break outcome.stats;
        }
        assert_eq!(outcome.end, End::Stopped(StopReason::Positions));
        assert!(runs < 4);
    };
    assert_eq!(runs, 4);
    assert!(stats.resumed_layers > 0);
    assert_eq!(layer_figures(&stats), layer_figures(&whole));
    assert_eq!(stats.positions, whole.positions);
    assert_eq!(stats.moves, whole.moves);
    // Each finished layer's file is split by fingerprint: part `p` holds
    // the states of part `p` only (what lets machines share a search),
    // and together the parts hold every state that entered a later layer.
    let mut sent = std::collections::HashSet::new();
    for layer in &stats.layers {
        for part in 0..PARTS {
            read_spill_part(&checkpoint, layer.layer, part, |target, fp, _| {
                assert!(target > layer.layer);
                assert_eq!(part_of(fp), part);
                sent.insert((target, fp));
            })
            .unwrap();
        }
    }
    let entries: u64 = whole.layers.iter().map(|l| l.entries).sum();
    assert_eq!(sent.len() as u64, entries - 1, "all but the start");
    // Run again on the finished checkpoint: nothing left, same counts.
    let again = Layered::new(&problem)
        .stop(Stop::Exhaust)
        .checkpoint(&checkpoint, "pysol 14934, stages 0-2")
        .run()
        .unwrap();
    assert_eq!(again.end, End::Exhausted);
    assert_eq!(again.stats.resumed_layers, whole.layers.len());
    assert_eq!(layer_figures(&again.stats), layer_figures(&whole));
    // A checkpoint of another search is refused.
    let other = Layered::new(&problem)
        .stop(Stop::Exhaust)
        .checkpoint(&checkpoint, "something else")
        .run();
    assert!(other.is_err());
}

/// A crash while a layer was being written leaves a temporary file behind;
/// the next run ignores it and writes the layer again.
#[test]
fn a_torn_layer_file_is_ignored() {
    let deal = pysol::deal(3, Rules::Standard).unwrap();
    let game = Game::new(&deal).unwrap();
    let problem = StageProblem::new(&game, Scope::Stage(0));
    let dir = crate::scratch();
    let first = Layered::new(&problem)
        .stop(Stop::Exhaust)
        .limits(Limits {
            max_positions: Some(10_000),
            ..Limits::default()
        })
        .checkpoint(dir.path(), "torn")
        .run()
        .unwrap();
    assert_eq!(first.end, End::Stopped(StopReason::Positions));
    let torn: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "tmp"))
        .collect();
    // The interrupted layer's file, in its parts.
    assert_eq!(torn.len(), PARTS, "{torn:?}");
    let layer = |p: &Path| p.file_name().unwrap().to_str().unwrap()[..22].to_string();
    assert!(torn.iter().all(|p| layer(p) == layer(&torn[0])), "{torn:?}");
    for path in &torn {
        std::fs::write(path, b"garbage from a crash").unwrap();
    }
    let second = Layered::new(&problem)
        .stop(Stop::Exhaust)
        .checkpoint(dir.path(), "torn")
        .run()
        .unwrap();
    assert_eq!(second.end, End::Exhausted);
    assert_eq!(second.stats.positions, 28_081);
}

#[test]
fn graph_count_on_the_command_line_resumes_from_its_checkpoint() {
    let dir = crate::scratch();
    let checkpoint = dir.path().join("cp");
    let deal = dir.path().join("pysol3.yaml");
    Command::cargo_bin("spider")
        .unwrap()
        .args(["deal", "--pysol", "3", "-o"])
        .arg(&deal)
        .assert()
        .success();
    let count = |extra: &[&str]| {
        Command::cargo_bin("spider")
            .unwrap()
            .arg("graph")
            .arg(&deal)
            .args(["--count", "--json", "--checkpoint"])
            .arg(&checkpoint)
            .args(extra)
            .output()
            .unwrap()
    };
    let stopped = count(&["--max-nodes", "5000", "-j", "2"]);
    assert_eq!(stopped.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&stopped.stderr).contains("run the same command again"));
    let done = count(&[]);
    assert_eq!(done.status.code(), Some(0));
    let json: serde_json::Value = serde_json::from_slice(&done.stdout).unwrap();
    assert_eq!(json["positions"], 28_081);
    assert_eq!(json["moves"], 129_643);
    assert_eq!(json["stages"][0]["positions"], 28_081);
    assert!(json["engine"]["resumed_layers"].as_u64().unwrap() > 0);
    // Without a checkpoint, the same counts.
    let plain = Command::cargo_bin("spider")
        .unwrap()
        .arg("graph")
        .arg(&deal)
        .args(["--count", "--json"])
        .output()
        .unwrap();
    let plain: serde_json::Value = serde_json::from_slice(&plain.stdout).unwrap();
    assert_eq!(plain["layers"], json["layers"]);
}

#[test]
fn graph_count_prints_stages_and_the_fewest_face_down_cards() {
    let output = Command::cargo_bin("spider")
        .unwrap()
        .arg("graph")
        .arg(repo("deals/unwon-2017.yaml"))
        .arg("--count")
        .output()
        .unwrap();
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[1],
        "positions: 2760, moves: 20272, reveals: 0, wins: 0"
    );
    assert_eq!(
        lines[2],
        "stage 0: 2760 positions, 20272 moves, 0 reveals, 0 wins; fewest face-down 36 (8 of 44 turned up)"
    );
}

/// Stages 0 and 1 of the unwon game: about 12 million positions (a minute
/// on two cores in a release build).
#[test]
#[ignore = "slow: runs with `cargo test -- --ignored` (CI runs it)"]
fn stages_0_and_1_of_the_unwon_game() {
    let deal = load(&repo("deals/unwon-2017.yaml")).unwrap();
    let stats = layered_counts(&deal, Scope::Stage(1), 2);
    assert_eq!(stats.positions, 11_977_064);
    assert_eq!(stats.moves, 59_592_853);
}

/// The exhaustive problem finds a win exactly when the naive search does,
/// and the line it recovers replays to a win.
#[test]
#[ignore = "slow: runs with `cargo test -- --ignored` (CI runs it)"]
fn the_exhaustive_problem_agrees_with_the_naive_search() {
    let (mut compared, mut won) = (0, 0);
    for seed in 1..=40u64 {
        let deal = small_case(seed, 0x9e37_79b9_7f4a_7c15);
        let Some(expected) = naive_winnable(&deal, 100_000) else {
            continue;
        };
        let game = Game::new(&deal).unwrap();
        let problem = ExhaustiveProblem::new(&game);
        let outcome = Layered::new(&problem).jobs(Some(2)).run().unwrap();
        compared += 1;
        match outcome.end {
            End::GoalFound => {
                assert!(
                    expected,
                    "seed {seed}: a win the naive search does not know"
                );
                let goal = outcome.goal.unwrap();
                let line = Layered::new(&problem).line_to(goal.fingerprint).unwrap();
                verify(&game, &line).unwrap();
                won += 1;
            }
            End::Exhausted => assert!(!expected, "seed {seed}: a win missed"),
            other => panic!("seed {seed}: {other:?}"),
        }
    }
    assert!(
        compared >= 25 && won > 0 && won < compared,
        "{won} won of {compared}"
    );
}

/// A problem with dead ends: numbers 0..; a move adds 1 or 2; multiples of
/// 7 are dead, 20 is the goal, nothing goes past 20.
struct Steps;

impl Problem for Steps {
    type State = u32;
    type Key = u32;
    type Move = u32;
    fn start(&self) -> u32 {
        1
    }
    fn key(&self, n: &u32) -> u32 {
        *n
    }
    fn successors(&self, &n: &u32, out: &mut Vec<(u32, u32)>) {
        for step in [1, 2] {
            if n + step <= 20 {
                out.push((step, n + step));
            }
        }
    }
    fn kind(&self, &n: &u32) -> NodeKind {
        match n {
            20 => NodeKind::Goal,
            n if n % 7 == 0 => NodeKind::Dead,
            _ => NodeKind::Inner,
        }
    }
    fn layer(&self, &n: &u32) -> u64 {
        n as u64 / 5
    }
}

impl PackedProblem for Steps {
    fn pack(&self, n: &u32, out: &mut Vec<u8>) {
        out.extend(n.to_le_bytes());
    }
    fn unpack(&self, bytes: &[u8]) -> u32 {
        u32::from_le_bytes(bytes.try_into().unwrap())
    }
}

#[test]
fn dead_ends_are_counted_and_not_expanded() {
    let outcome = Layered::new(&Steps).stop(Stop::Exhaust).run().unwrap();
    assert_eq!(outcome.end, End::Exhausted);
    // 1..=20 all reached (a dead 7 or 14 is stepped over by +2).
    assert_eq!(outcome.stats.positions, 20);
    assert_eq!(outcome.stats.dead, 2);
    assert_eq!(outcome.stats.goals, 1);
    // Everything but the two dead ends and the goal is expanded.
    assert_eq!(outcome.stats.expanded, 17);
    let line = Layered::new(&Steps)
        .line_to(outcome.goal.unwrap().fingerprint)
        .unwrap();
    assert_eq!(line.iter().sum::<u32>(), 19);
    assert!(!line.is_empty());
}

#[test]
fn leaves_are_seen_and_a_leaf_callback_can_stop_the_search() {
    let dir = crate::scratch();
    let path = dir.path().join("tiny.yaml");
    std::fs::write(&path, TINY).unwrap();
    let deal = load(&path).unwrap();
    let game = Game::new(&deal).unwrap();
    let problem = ExhaustiveProblem::new(&game);
    let limits = Limits {
        max_positions: Some(1_000_000),
        ..Limits::default()
    };
    let mut seen = Vec::new();
    let outcome = Layered::new(&problem)
        .stop(Stop::Exhaust)
        .limits(limits.clone())
        .on_leaf(|visit, depth| {
            seen.push((game.revealed_places(&visit.step), depth));
            ControlFlow::Continue(())
        })
        .run()
        .unwrap();
    assert_eq!(outcome.end, End::Exhausted);
    assert!(!seen.is_empty());
    assert_eq!(seen.len() as u64, outcome.stats.leaves);
    let mut stopped_after = 0;
    let outcome = Layered::new(&problem)
        .limits(limits)
        .on_leaf(|_, _| {
            stopped_after += 1;
            ControlFlow::Break(())
        })
        .run()
        .unwrap();
    assert_eq!(outcome.end, End::Stopped(StopReason::Callback));
    assert_eq!(stopped_after, 1);
}

#[test]
fn queens_through_the_layered_engine() {
    for (n, solutions) in [(1, 1), (4, 2), (6, 4), (8, 92), (10, 724)] {
        let queens = Queens::new(n).unwrap();
        let old = queens.count();
        let outcome = Layered::new(&queens)
            .dedup(false)
            .stop(Stop::Exhaust)
            .jobs(Some(2))
            .run()
            .unwrap();
        assert_eq!(outcome.end, End::Exhausted);
        assert_eq!(outcome.stats.goals, solutions, "n = {n}");
        assert_eq!(outcome.stats.positions, old.stats.positions, "n = {n}");
        assert_eq!(outcome.stats.moves, old.stats.moves, "n = {n}");
    }
}

/// The exhaustive pass alone, with a checkpoint directory and a limit.
fn prove_with_checkpoint(
    deal: &Deal,
    checkpoint: Option<&Path>,
    max_positions: Option<u64>,
) -> spider_analyzer::solve::Analysis {
    let limits = spider_analyzer::solve::Limits {
        max_positions,
        exhaustive_only: true,
        checkpoint: checkpoint.map(Path::to_path_buf),
        ..spider_analyzer::solve::Limits::default()
    };
    spider_analyzer::solve::analyze(deal, &limits, &std::sync::atomic::AtomicBool::new(false))
        .unwrap()
}

/// An unwinnable deal whose proof spans five layers and 262,531
/// positions: six cards on the table can never fill the ten piles, so the
/// stock can never be dealt.
const LOST: &str = "suits: 1
rules: standard
piles:
  - {face_down: [KS, QS, JS, 9S], face_up: [2S, 8S]}
  - {face_down: [], face_up: []}
  - {face_down: [], face_up: []}
  - {face_down: [], face_up: []}
  - {face_down: [], face_up: []}
  - {face_down: [], face_up: []}
  - {face_down: [], face_up: []}
  - {face_down: [], face_up: []}
  - {face_down: [], face_up: []}
  - {face_down: [], face_up: []}
stock:
  - [AS, AS, 2S, 3S, 3S, 4S, 4S, 5S, 5S, 6S]
  - [6S, 7S, 7S, 8S, 9S, 10S, 10S, JS, QS, KS]
removed: [S, S, S, S, S, S]
";

/// A smaller unwinnable deal, for the command-line proofs: three cards on
/// the table can never fill the ten piles; 820 positions in three layers.
pub(crate) const SMALL_LOST: &str = "suits: 1
rules: standard
piles:
  - {face_down: [KS, QS], face_up: [2S]}
  - {face_down: [], face_up: []}
  - {face_down: [], face_up: []}
  - {face_down: [], face_up: []}
  - {face_down: [], face_up: []}
  - {face_down: [], face_up: []}
  - {face_down: [], face_up: []}
  - {face_down: [], face_up: []}
  - {face_down: [], face_up: []}
  - {face_down: [], face_up: []}
stock:
  - [AS, 3S, 4S, 5S, 6S, 7S, 8S, 9S, 10S, JS]
removed: [S, S, S, S, S, S, S]
";

fn lost_case() -> Deal {
    spider_analyzer::deal::yaml::from_str(LOST, Path::new("lost.yaml")).unwrap()
}

#[test]
#[ignore = "slow: runs with `cargo test -- --ignored` (CI runs it)"]
fn an_interrupted_proof_resumes_to_the_same_verdict_and_counts() {
    use spider_analyzer::solve::{StopReason as Why, Verdict};
    let deal = lost_case();
    let whole = prove_with_checkpoint(&deal, None, None);
    assert_eq!(whole.verdict, Verdict::Unwinnable);
    assert_eq!(whole.positions, 262_531);
    let dir = crate::scratch();
    let stopped = prove_with_checkpoint(&deal, Some(dir.path()), Some(whole.positions / 2));
    assert_eq!(stopped.verdict, Verdict::Undecided);
    assert_eq!(stopped.stopped_by, Some(Why::Positions));
    assert!(dir.path().join("manifest.json").exists());
    let resumed = prove_with_checkpoint(&deal, Some(dir.path()), None);
    assert_eq!(resumed.verdict, Verdict::Unwinnable);
    assert_eq!(resumed.positions, whole.positions);
    assert_eq!(resumed.dead_ends, whole.dead_ends);
    assert_eq!(resumed.fewest_per_pile, whole.fewest_per_pile);
    assert_eq!(resumed.best_runs_removed, whole.best_runs_removed);
    assert_eq!(resumed.fewest_face_down, whole.fewest_face_down);
    // A finished checkpoint gives the verdict again at once.
    let again = prove_with_checkpoint(&deal, Some(dir.path()), None);
    assert_eq!(again.verdict, Verdict::Unwinnable);
    assert_eq!(again.positions, whole.positions);
    // Another deal's checkpoint is refused.
    let other = small_case(1_000, 0x2545_f491_4f6c_dd1d);
    let limits = spider_analyzer::solve::Limits {
        exhaustive_only: true,
        checkpoint: Some(dir.path().to_path_buf()),
        ..spider_analyzer::solve::Limits::default()
    };
    let refused = spider_analyzer::solve::analyze(
        &other,
        &limits,
        &std::sync::atomic::AtomicBool::new(false),
    );
    if Game::new(&other).is_ok_and(|game| !game.start().is_won()) {
        assert!(refused.unwrap_err().to_string().contains("another search"));
    }
}

/// With the whole schedule, only the last exhaustive pass is saved: the
/// capped passes between the guided ones test other entries
/// (`RoomTest::for_pass`). Here a capped pass proves the loss, so no
/// checkpoint is written, and a second run gives the same verdict.
#[test]
#[ignore = "slow: runs with `cargo test -- --ignored` (CI runs it)"]
fn the_capped_passes_of_the_schedule_write_no_checkpoint() {
    use spider_analyzer::solve::Verdict;
    let deal = lost_case();
    let dir = crate::scratch();
    let limits = spider_analyzer::solve::Limits {
        checkpoint: Some(dir.path().to_path_buf()),
        ..spider_analyzer::solve::Limits::default()
    };
    let cancel = std::sync::atomic::AtomicBool::new(false);
    for _ in 0..2 {
        let analysis = spider_analyzer::solve::analyze(&deal, &limits, &cancel).unwrap();
        assert_eq!(analysis.verdict, Verdict::Unwinnable);
        assert!(!dir.path().join("manifest.json").exists());
    }
}

/// `analyze --checkpoint` resumes a proof stopped half-way by a position
/// limit to the same counts. The quick run proves [`SMALL_LOST`];
/// [`analyze_on_the_command_line_resumes_a_longer_proof_from_a_checkpoint`]
/// [`LOST`].
#[test]
fn analyze_on_the_command_line_resumes_its_proof_from_a_checkpoint() {
    resumes_from_a_checkpoint(SMALL_LOST);
}

#[test]
#[ignore = "slow: runs with `cargo test -- --ignored` (CI runs it)"]
fn analyze_on_the_command_line_resumes_a_longer_proof_from_a_checkpoint() {
    resumes_from_a_checkpoint(LOST);
}

fn resumes_from_a_checkpoint(deal: &str) {
    let dir = crate::scratch();
    let file = dir.path().join("lost.yaml");
    std::fs::write(&file, deal).unwrap();
    let checkpoint = dir.path().join("proof");
    let analyze = |extra: &[&str]| {
        let output = Command::cargo_bin("spider")
            .unwrap()
            .arg("analyze")
            .arg(&file)
            .args(["--exhaustive-only", "--no-completions", "--json"])
            .args(extra)
            .output()
            .unwrap();
        let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        (output.status.code(), json)
    };
    let (code, whole) = analyze(&[]);
    assert_eq!(code, Some(1));
    let with_checkpoint = ["--checkpoint", checkpoint.to_str().unwrap()];
    let stopped = stopped_and_resumed(&analyze, &whole, &with_checkpoint);
    assert!(
        stopped["analysis"]["proof"]["layers_finished"]
            .as_u64()
            .unwrap()
            > 0
    );
}

/// Runs `analyze` with `flags` stopped at half of `whole`'s positions
/// (undecided, exit 3), then again to the end (resumed): asserts that the
/// resumed run proves the deal lost (exit 1) with `whole`'s positions and
/// dead ends, and returns the stopped run's report.
fn stopped_and_resumed(
    analyze: &impl Fn(&[&str]) -> (Option<i32>, serde_json::Value),
    whole: &serde_json::Value,
    flags: &[&str],
) -> serde_json::Value {
    let half = (whole["analysis"]["positions"].as_u64().unwrap() / 2).to_string();
    let (code, stopped) = analyze(&[flags, &["--max-positions", &half]].concat());
    assert_eq!(code, Some(3));
    assert_eq!(stopped["analysis"]["verdict"], "undecided");
    let (code, resumed) = analyze(flags);
    assert_eq!(code, Some(1));
    assert_eq!(resumed["analysis"]["verdict"], "unwinnable");
    assert_eq!(
        resumed["analysis"]["positions"],
        whole["analysis"]["positions"]
    );
    assert_eq!(
        resumed["analysis"]["dead_ends"],
        whole["analysis"]["dead_ends"]
    );
    stopped
}

/// `graph --count --disk` counts what the search in memory counts, in one
/// process and with its rounds' tasks run as separate processes by a
/// launcher (standing in for a job array), one of which fails once and is
/// launched again; and with a launcher, the rounds that read few records
/// run in the driver, the others through the launcher.
#[test]
fn graph_count_on_disk_in_one_process_or_many_counts_the_same() {
    let dir = crate::scratch();
    let count = |extra: &[&str]| {
        let output = Command::cargo_bin("spider")
            .unwrap()
            .args([
                "graph",
                "deals/unwon-2017.yaml",
                "--stage",
                "0",
                "--count",
                "--json",
            ])
            .args(extra)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "{extra:?}");
        serde_json::from_slice::<serde_json::Value>(&output.stdout).unwrap()
    };
    // A launcher that runs each task as a process of its own and notes
    // each round it is given in `log` (its layer, round and the records
    // its tasks read).
    let launcher = |log: &Path, failed: Option<&Path>| {
        let fail = failed.map_or(String::new(), |failed| {
            format!(
                "if [ $p = 3 ] && [ ! -e {failed} ]; then touch {failed}; continue; fi; ",
                failed = failed.display()
            )
        });
        format!(
            "cat \"$SPIDER_DISK_ROUND\" >> {log}; echo >> {log}; \
             for p in $(echo {{tasks}} | tr , ' '); do {fail}\
             SPIDER_DISK_PART=$p {{command}} & done; wait",
            log = log.display()
        )
    };
    let launched = |log: &Path| -> Vec<(u64, u64, u64)> {
        let text = std::fs::read_to_string(log).unwrap_or_default();
        text.lines()
            .filter(|line| !line.trim().is_empty())
            .map(|line| {
                let round: serde_json::Value = serde_json::from_str(line).unwrap();
                let layer = round["layer"].as_u64().unwrap();
                let records = (round["files"].as_array().unwrap().iter())
                    .flat_map(|file| file[1]["blocks"].as_array().unwrap())
                    .filter(|block| block["target"] == layer)
                    .map(|block| block["count"].as_u64().unwrap())
                    .sum();
                (layer, round["step"].as_u64().unwrap(), records)
            })
            .collect()
    };
    let memory = count(&[]);
    assert_eq!(memory["positions"], 2_760);
    let one = dir.path().join("one");
    let disk = count(&["--disk", one.to_str().unwrap()]);
    // Every round through the launcher; part 3 of the first round fails
    // once.
    // A search on disk through `launcher`, named `name` (its directory
    // and log), with `--disk-launch-from` at `from` (default: None).
    let through = |name: &str, from: Option<&str>, failed: Option<&Path>| {
        let disk = dir.path().join(name);
        let log = dir.path().join(format!("{name}.log"));
        let mut args = vec![
            "--disk".to_string(),
            disk.to_str().unwrap().to_string(),
            "--disk-launcher".to_string(),
            launcher(&log, failed),
        ];
        if let Some(from) = from {
            args.extend(["--disk-launch-from".to_string(), from.to_string()]);
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        (count(&args), log)
    };
    let failed = dir.path().join("failed-once");
    let (processes, every_log) = through("every", Some("0"), Some(&failed));
    assert!(failed.exists());
    // The first round is launched twice (part 3 again), the others once.
    let mut every = launched(&every_log);
    assert_eq!(every[0], every[1]);
    every.remove(0);
    // Rounds of fewer than 1,000 records in the driver.
    let (mixed, mixed_log) = through("mixed", Some("1000"), None);
    let mixed_launched = launched(&mixed_log);
    assert!(
        mixed_launched.iter().all(|r| r.2 >= 1000),
        "{mixed_launched:?}"
    );
    assert!(mixed_launched.len() < every.len() / 2, "{every:?}");
    // A layer's first round reads what earlier layers sent, the same
    // records either way (a later round reads fewer after a round in the
    // driver, which looks its successors up in every part's seen set).
    let firsts = |rounds: &[(u64, u64, u64)]| -> Vec<(u64, u64, u64)> {
        rounds.iter().filter(|r| r.1 == 0).cloned().collect()
    };
    let big = firsts(&every)
        .into_iter()
        .filter(|r| r.2 >= 1000)
        .collect::<Vec<_>>();
    assert!(!big.is_empty(), "{every:?}");
    assert_eq!(firsts(&mixed_launched), big);
    // By default, every round of this small search runs in the driver.
    let (default, default_log) = through("default", None, None);
    assert_eq!(launched(&default_log), []);
    // The seen sets dropped after every round (a budget of 1 byte), in one
    // process and with every round through the launcher: each task looks
    // the states it reads up in the layer's earlier rounds on disk.
    let dropped_dir = dir.path().join("dropped");
    let dropped = count(&[
        "--disk",
        dropped_dir.to_str().unwrap(),
        "--disk-seen-memory",
        "1",
    ]);
    let tasks_dir = dir.path().join("dropped-tasks");
    let tasks_log = dir.path().join("dropped-tasks.log");
    let tasks = count(&[
        "--disk",
        tasks_dir.to_str().unwrap(),
        "--disk-launcher",
        &launcher(&tasks_log, None),
        "--disk-launch-from",
        "0",
        "--disk-seen-memory",
        "1",
    ]);
    assert_eq!(launched(&tasks_log).len(), every.len());
    for json in [&dropped, &tasks] {
        assert!(json["engine"]["seen_dropped"].as_u64().unwrap() > 10);
    }
    assert_eq!(disk["engine"]["seen_dropped"], 0);
    for json in [&disk, &processes, &mixed, &default, &dropped, &tasks] {
        for key in ["positions", "moves", "layers", "stages", "reveals"] {
            assert_eq!(json[key], memory[key], "{key}");
        }
        assert_eq!(json["engine"]["duplicates"], memory["engine"]["duplicates"]);
        assert_eq!(json["engine"]["max_depth"], memory["engine"]["max_depth"]);
    }
}

/// A run whose standard error is not a terminal (here, a pipe) writes its
/// progress there every `--progress-every` seconds, from the first
/// interval on: never within the default 600 s of a short proof, at every
/// report with an interval of a millisecond (the same verdict either way);
/// `0` writes none, and a value that is no number of seconds is refused;
/// `graph --count` alike. The runs that write nothing prove
/// [`SMALL_LOST`]; those that log prove [`LOST`] (some 0.4 s, many reports).
#[test]
fn analyze_in_the_background_writes_its_progress_every_so_often() {
    progress_every_so_often(SMALL_LOST);
}

/// [`analyze_in_the_background_writes_its_progress_every_so_often`] with
/// every run proving [`LOST`].
#[test]
#[ignore = "slow: runs with `cargo test -- --ignored` (CI runs it)"]
fn analyze_in_the_background_writes_its_progress_every_so_often_on_a_longer_proof() {
    progress_every_so_often(LOST);
}

/// The progress checks, with the runs that log none proving `quiet`.
fn progress_every_so_often(quiet: &str) {
    let dir = crate::scratch();
    let (file, quiet_file) = (dir.path().join("lost.yaml"), dir.path().join("quiet.yaml"));
    std::fs::write(&file, LOST).unwrap();
    std::fs::write(&quiet_file, quiet).unwrap();
    let analyze = |extra: &[&str], file: &std::path::Path| {
        Command::cargo_bin("spider")
            .unwrap()
            .arg("analyze")
            .arg(file)
            .args(["--exhaustive-only", "--no-completions", "--time-limit", "0"])
            .args(extra)
            .output()
            .unwrap()
    };
    let lines = |output: &std::process::Output| {
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        stderr
            .lines()
            .filter(|l| l.starts_with("after ") && l.contains(": exhaustive pass: examined "))
            .count()
    };
    for (extra, logged) in [
        (&[][..], false),
        (&["--progress-every", "0.001"][..], true),
        (&["--progress-every", "0"][..], false),
    ] {
        let output = analyze(extra, if logged { &file } else { &quiet_file });
        assert_eq!(output.status.code(), Some(1), "{extra:?}");
        assert!(String::from_utf8_lossy(&output.stdout).contains("unwinnable"));
        assert_eq!(lines(&output) > 0, logged, "{extra:?}");
    }
    let output = analyze(&["--progress-every", "soon"], &quiet_file);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("--progress-every") && stderr.contains("`soon` is not a number"));
    // `graph --count` writes its count of positions so far the same way.
    for (every, logged) in [("600", false), ("0.001", true)] {
        let output = Command::cargo_bin("spider")
            .unwrap()
            .args(["graph", "--count", "--progress-every", every])
            .arg(if logged { &file } else { &quiet_file })
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "{output:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        let lines = stderr
            .lines()
            .filter(|l| l.starts_with("after ") && l.contains(" positions (stage "))
            .count();
        assert_eq!(lines > 0, logged, "{stderr}");
    }
}

/// `analyze --disk` proves the same deal lost with the same counts, also
/// when a position limit stops it half-way and the same command resumes.
/// The quick run proves [`SMALL_LOST`];
/// [`analyze_on_disk_proves_a_longer_proof_the_same_and_resumes`] [`LOST`].
#[test]
fn analyze_on_disk_proves_the_same_and_resumes() {
    on_disk_proves_the_same(SMALL_LOST);
}

#[test]
#[ignore = "slow: runs with `cargo test -- --ignored` (CI runs it)"]
fn analyze_on_disk_proves_a_longer_proof_the_same_and_resumes() {
    on_disk_proves_the_same(LOST);
}

fn on_disk_proves_the_same(deal: &str) {
    let dir = crate::scratch();
    let file = dir.path().join("lost.yaml");
    std::fs::write(&file, deal).unwrap();
    let analyze = |extra: &[&str]| {
        let output = Command::cargo_bin("spider")
            .unwrap()
            .arg("analyze")
            .arg(&file)
            .args([
                "--exhaustive-only",
                "--no-completions",
                "--json",
                "--time-limit",
                "0",
            ])
            .args(extra)
            .output()
            .unwrap();
        let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        (output.status.code(), json)
    };
    let (code, whole) = analyze(&[]);
    assert_eq!(code, Some(1));
    let disk = dir.path().join("disk");
    let with_disk = ["--disk", disk.to_str().unwrap()];
    let stopped = stopped_and_resumed(&analyze, &whole, &with_disk);
    assert!(
        stopped["analysis"]["proof"]["layers_finished"]
            .as_u64()
            .unwrap()
            > 0
    );
    // The same with a launcher, the rounds of fewer than 200 records in
    // the driver: stopped half-way, resumed, and the same proof.
    let disk = dir.path().join("launched");
    let log = dir.path().join("launched.log");
    // Written as `sbatch --wrap "{command}"` would run it: the command
    // inside double quotes, and the launcher printing to its standard
    // output, which must not reach the search's JSON.
    let launcher = format!(
        "echo >> {log}; echo Submitted batch job 1; for p in $(echo {{tasks}} | tr , ' '); do \
         SPIDER_DISK_PART=$p sh -c \"{{command}}\" & done; wait",
        log = log.display()
    );
    let with_launcher = [
        "--disk",
        disk.to_str().unwrap(),
        "--disk-launch-from",
        "200",
        "--disk-launcher",
        &launcher,
    ];
    stopped_and_resumed(&analyze, &whole, &with_launcher);
    assert!(std::fs::read_to_string(&log).is_ok_and(|text| !text.is_empty()));
    // The seen sets dropped after every round (`--disk-seen-memory 1`),
    // every earlier round looked up on disk: stopped, resumed, the same
    // proof.
    let disk = dir.path().join("dropped");
    let with_dropped = ["--disk", disk.to_str().unwrap(), "--disk-seen-memory", "1"];
    let stopped = stopped_and_resumed(&analyze, &whole, &with_dropped);
    assert!(
        stopped["analysis"]["proof"]["seen_dropped"]
            .as_u64()
            .unwrap()
            > 0
    );
    // `--learn` does not learn on disk (a resumed search would start with
    // nothing learned): the proof's recorded settings say so, and stopped
    // and resumed it is the proof without it.
    let disk = dir.path().join("learn");
    stopped_and_resumed(
        &analyze,
        &whole,
        &["--disk", disk.to_str().unwrap(), "--learn"],
    );
    let manifest = std::fs::read_to_string(disk.join("disk-manifest.json")).unwrap();
    let manifest: serde_json::Value = serde_json::from_str(&manifest).unwrap();
    let id = manifest["id"].as_str().unwrap();
    assert!(id.contains("learn: false"), "{id}");
}

/// `--disk-seen-memory` needs a size and a disk directory: otherwise exit
/// 2 with what was expected, and nothing searched.
#[test]
fn a_seen_memory_budget_without_a_disk_or_a_size_is_refused() {
    for (flags, expected) in [
        (&["--disk-seen-memory", "1G"][..], "need --disk DIR"),
        (&["--disk-seen-memory", "abc"][..], "`abc` is not a size"),
    ] {
        let output = Command::cargo_bin("spider")
            .unwrap()
            .args(["graph", "deals/unwon-2017.yaml", "--stage", "0", "--count"])
            .args(flags)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{flags:?}");
        assert!(output.stdout.is_empty(), "{flags:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(expected), "{flags:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}
