//! `spider analyze` and `spider replay` as a person runs them.

use assert_cmd::Command;
use predicates::prelude::*;

use crate::NO_SHORTENING;

fn spider() -> Command {
    Command::cargo_bin("spider").unwrap()
}

fn write(dir: &tempfile::TempDir, name: &str, text: &str) -> std::path::PathBuf {
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// The compact line that `analyze --json` printed.
fn line_of(output: &[u8]) -> String {
    let json: serde_json::Value = serde_json::from_slice(output).unwrap();
    json["analysis"]["line"].as_str().unwrap().to_string()
}

/// The line is shortened (with a smaller budget than the default, which
/// takes seconds) and still replays.
#[test]
fn a_one_suit_deal_is_won_and_its_line_replays() {
    let output = spider()
        .args(["analyze", "deals/fresh-1-suit.yaml", "--json"])
        .args(["--shorten-positions", "100000"])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let json: serde_json::Value = serde_json::from_slice(&output).unwrap();
    assert_eq!(json["analysis"]["verdict"], "winnable");
    assert_eq!(json["consistency"]["consistent"], true);
    let line = line_of(&output);
    assert_eq!(
        json["analysis"]["line_length"].as_u64().unwrap() as usize,
        line.split_whitespace().count()
    );
    spider()
        .args(["replay", "deals/fresh-1-suit.yaml", "-"])
        .write_stdin(line)
        .assert()
        .code(0)
        .stdout(predicate::str::contains("the game is won"));
}

#[test]
fn the_text_report_numbers_the_moves_for_people() {
    spider()
        .args(["analyze", "deals/fresh-2-suit.yaml"])
        .args(NO_SHORTENING)
        .assert()
        .code(0)
        .stdout(predicate::str::contains("verdict: winnable"))
        .stdout(predicate::str::contains(
            "replayed and checked by the rules",
        ))
        .stdout(predicate::str::is_match(r"\n +1\. \d+-\d+/\d+ +\S+ from pile \d+ ").unwrap())
        .stdout(predicate::str::contains("compact: "));
}

const DEAD: &str = "\
suits: 2
piles:
  - {face_down: [2S, 4S, 6S], face_up: [KS]}
  - {face_down: [8S, 10S, QS], face_up: [JS]}
  - {face_down: [2H, 4H, 6H], face_up: [9S]}
  - {face_down: [8H, 10H, QH], face_up: [7S]}
  - {face_down: [AS], face_up: [5S]}
  - {face_down: [], face_up: [3S]}
  - {face_down: [], face_up: [KH]}
  - {face_down: [], face_up: [JH]}
  - {face_down: [AH], face_up: [9H]}
  - {face_down: [3H, 5H], face_up: [7H]}
removed: [S, S, S, H, H, H]
";

#[test]
fn a_dead_position_is_unwinnable_with_exit_1() {
    let dir = crate::scratch();
    let file = write(&dir, "dead.yaml", DEAD);
    spider()
        .arg("analyze")
        .arg(&file)
        .assert()
        .code(1)
        .stdout(predicate::str::contains("verdict: unwinnable"))
        .stdout(predicate::str::contains("why: K♠ can never leave pile 1"));
    // The plain search reaches the same verdict, by examining everything.
    spider()
        .arg("analyze")
        .arg(&file)
        .arg("--no-dead-ends")
        .assert()
        .code(1)
        .stdout(predicate::str::contains("verdict: unwinnable"))
        .stdout(predicate::str::contains("proof: every position reachable"));
}

#[test]
fn a_limit_leaves_an_undecided_report_with_exit_3() {
    spider()
        .args(["analyze", "--max-positions", "500", "--no-completions"])
        .assert()
        .code(3)
        .stdout(predicate::str::contains("unwon-2017.yaml (built in)"))
        .stdout(predicate::str::contains("candidates 3♠ 7♠ K♠ 4♥"))
        .stdout(predicate::str::contains(
            "verdict: undecided (the position limit was reached)",
        ))
        // How far it got: the first moves turn up face-down cards (44 at
        // the start), but no run is complete yet.
        .stdout(
            predicate::str::is_match(
                "best reached: 0 runs removed, (4[0-3]|[1-3][0-9]) face-down cards left",
            )
            .unwrap(),
        )
        .stdout(predicate::str::contains("--no-completions"));
}

/// When the machine's free memory runs low, every search stops with a
/// report (undecided, exit 3) instead of being killed by the system. The
/// floor is raised above any machine's memory to make it happen at once.
#[test]
fn low_machine_memory_stops_with_a_report() {
    let dir = crate::scratch();
    let deal = dir.path().join("210.yaml");
    spider()
        .args(["deal", "--pysol", "210", "-o", deal.to_str().unwrap()])
        .assert()
        .success();
    for extra in [&[][..], &["--exhaustive-only"][..]] {
        let output = spider()
            .env("SPIDER_MEMORY_FLOOR", "1000000000000000000")
            .args(["analyze", deal.to_str().unwrap(), "--json"])
            .args(["--time-limit", "20"])
            .args(extra)
            .assert()
            .code(3)
            .get_output()
            .stdout
            .clone();
        let json: serde_json::Value = serde_json::from_slice(&output).unwrap();
        assert_eq!(json["analysis"]["verdict"], "undecided");
        assert_eq!(json["analysis"]["stopped_by"], "machine-memory");
    }
    spider()
        .env("SPIDER_MEMORY_FLOOR", "1000000000000000000")
        .args(["analyze", "--no-completions", "-q"])
        .assert()
        .code(3)
        .stdout(predicate::str::contains(
            "verdict: undecided (the machine's free memory ran low)",
        ));
}

#[test]
fn completions_fill_the_unknown_cards_every_way() {
    let output = spider()
        .args([
            "analyze",
            "deals/mid-game.yaml",
            "--json",
            "--time-limit",
            "20",
        ])
        .args(NO_SHORTENING)
        .assert()
        .get_output()
        .stdout
        .clone();
    let json: serde_json::Value = serde_json::from_slice(&output).unwrap();
    assert_eq!(json["analysis"]["verdict"], "undecided");
    assert_eq!(json["analysis"]["stopped_by"], "unknown-cards");
    let completions = &json["completions"];
    assert_eq!(completions["total"], "2");
    let cards: Vec<String> = completions["completions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            c["cards"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_str().unwrap())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    assert_eq!(cards, ["5S 10C", "10C 5S"]);
    let winnable = completions["winnable"].as_u64().unwrap();
    let decided = winnable + completions["unwinnable"].as_u64().unwrap();
    assert_eq!(decided + completions["undecided"].as_u64().unwrap(), 2);
}

#[test]
fn bad_input_exits_2_with_file_line_and_column() {
    let dir = crate::scratch();
    let file = write(
        &dir,
        "bad.yaml",
        "piles:\n  - face_down: []\n    face_up: [QZ]\n",
    );
    spider()
        .arg("analyze")
        .arg(&file)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("bad.yaml:3:"))
        .stderr(predicate::str::contains("`QZ` is not a card"));
    spider()
        .args(["analyze", "no-such-deal.yaml"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no-such-deal.yaml"));
    spider()
        .args([
            "analyze",
            "deals/fresh-1-suit.yaml",
            "--memory-limit",
            "lots",
        ])
        .assert()
        .code(2);
}

#[test]
fn replay_stops_at_the_first_illegal_move_with_exit_1() {
    let dir = crate::scratch();
    let moves = write(
        &dir,
        "moves.txt",
        "# a bad line\ndeal deal deal deal deal\ndeal\n",
    );
    spider()
        .arg("replay")
        .arg("deals/fresh-1-suit.yaml")
        .arg(&moves)
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "move 6 `deal` (line 3, column 1) is illegal: the stock is empty",
        ))
        .stdout(predicate::str::contains("the position before it:"));
}

#[test]
fn replay_refuses_a_token_that_is_not_a_move_with_exit_2() {
    let dir = crate::scratch();
    let moves = write(&dir, "moves.txt", "deal\n  1-2/3 12-1\n");
    spider()
        .arg("replay")
        .arg("deals/fresh-1-suit.yaml")
        .arg(&moves)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("moves.txt:2:9:"))
        .stderr(predicate::str::contains("`12-1` is not a move"));
}

#[test]
fn replay_reads_clips_files_too() {
    spider()
        .args(["replay", "deals/unwon-2017.clips", "-", "--json"])
        .write_stdin("deal\n")
        .assert()
        .code(0)
        .stdout(predicate::str::contains("\"legal\": true"))
        .stdout(predicate::str::contains("\"rows_left\": 4"));
}

/// When the budget runs out in a guided pass after a capped exhaustive
/// pass, the proof reported is the capped pass's, which gave up at its cap
/// of 150,000 positions: the report says so, and gives no time to wait
/// (that pass does not go on; its estimate was a few seconds on a
/// position that two hours on disk estimate at 10^13 and more).
#[test]
fn a_capped_pass_is_reported_as_stopped_at_its_cap() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/ladder/r1-g5016.yaml");
    let args = [
        "analyze",
        file,
        "-j",
        "1",
        "--max-positions",
        "800000",
        "--time-limit",
        "0",
    ];
    spider()
        .args(args)
        .assert()
        .code(3)
        .stdout(predicate::str::contains(
            "(34.9 % dead ends); stopped past its cap of 150 thousand positions with about 279 thousand more to go",
        ))
        .stdout(predicate::str::contains(" positions/s (the estimate").not());
    let out = spider().args(args).arg("--json").output().unwrap().stdout;
    let json: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let proof = &json["analysis"]["proof"];
    assert_eq!(proof["capped_at"], 150_000, "{proof}");
    assert_eq!(proof["positions"], 191_648, "{proof}");
    assert_eq!(proof["dead_ends"], 66_922, "{proof}");
}

/// A stuck player's position (ladder corpus) whose proof a limit stops:
/// the report says how far the proof got. Stage 0 (before the last deal)
/// is one layer of 3 positions; the limit stops the search in the first
/// layer after the deal, which still has all 29 face-down cards.
#[test]
fn an_undecided_proof_says_how_far_it_got() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/ladder/r1-g5006.yaml");
    let run = |json: bool| {
        let mut command = spider();
        command.args([
            "analyze",
            file,
            "--exhaustive-only",
            "--max-positions",
            "20000",
            "-j",
            "1",
            // The test on every position, so that the share of dead ends
            // it reports is not zero.
            "--dead-ends-everywhere",
        ]);
        if json {
            command.arg("--json");
        }
        command.assert().code(3)
    };
    run(false)
        .stdout(predicate::str::contains(
            "proof so far (last exhaustive pass): examined ",
        ))
        .stdout(predicate::str::contains(
            "; 1 layer done, now stage 1 with 0 runs removed and 29 cards face down\n",
        ))
        .stdout(predicate::str::contains(" more to go, about "))
        .stdout(predicate::str::contains(" positions/s (the estimate grows"));
    let out = run(true).get_output().stdout.clone();
    let json: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let proof = &json["analysis"]["proof"];
    assert_eq!(proof["layers_finished"], 1);
    assert_eq!(proof["layer"]["rows_dealt"], 1);
    assert_eq!(proof["layer"]["face_down"], 29);
    let positions = proof["positions"].as_u64().unwrap();
    let dead = proof["dead_ends"].as_u64().unwrap();
    assert!(
        positions >= 20_000 && dead > 0 && dead < positions,
        "{proof}"
    );
    assert!(proof["queued"].as_u64().unwrap() > 0, "{proof}");
    assert!(proof["estimate_left"].as_u64().unwrap() > 0, "{proof}");
    assert_eq!(proof["threads"], 1, "-j limits the search of the deal too");
    assert!(
        proof["capped_at"].is_null(),
        "the pass stopped at the limit"
    );
}

/// `-j N` gives the deal's own search N threads, not only the completions.
#[test]
fn jobs_limit_the_proof_of_the_deal() {
    for jobs in [1, 2] {
        let out = spider()
            .args([
                "analyze",
                "benches/ladder/r1-g5006.yaml",
                "--exhaustive-only",
                "--max-positions",
                "5000",
                "--json",
                "-j",
            ])
            .arg(jobs.to_string())
            .assert()
            .code(3)
            .get_output()
            .stdout
            .clone();
        let json: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(json["analysis"]["proof"]["threads"], jobs, "{json}");
    }
}

/// The default budgets count work, not seconds: the same command gives the
/// same verdict, counts and line on one thread or two (and so whatever
/// else the machine is doing). Covers a win and its shortening, a guided
/// pass schedule stopped by its position limit, and an exhaustive pass
/// stopped by it part-way through a layer (its batches do not adapt to
/// speed without a time limit). The quick run shortens the win with a
/// smaller budget than the default;
/// [`the_default_budget_gives_the_same_answer_on_one_thread_or_two`]
/// with the default.
#[test]
fn the_same_budget_gives_the_same_answer_on_one_thread_or_two() {
    same_answer_on_one_thread_or_two(&["--shorten-positions", "100000"]);
}

#[test]
#[ignore = "slow: runs with `cargo test -- --ignored` (CI runs it)"]
fn the_default_budget_gives_the_same_answer_on_one_thread_or_two() {
    same_answer_on_one_thread_or_two(&[]);
}

/// The cases of [`the_same_budget_gives_the_same_answer_on_one_thread_or_two`],
/// the win with `shortening` flags.
fn same_answer_on_one_thread_or_two(shortening: &[&str]) {
    let cases: [(&str, &[&str], i32); 3] = [
        ("deals/fresh-2-suit.yaml", shortening, 0),
        (
            "benches/ladder/r1-g5001.yaml",
            &["--max-positions", "300000"],
            3,
        ),
        (
            "benches/ladder/r1-g5001.yaml",
            &["--exhaustive-only", "--max-positions", "200000"],
            3,
        ),
    ];
    for (deal, extra, code) in cases {
        let run = |jobs: &str| {
            let out = spider()
                .args(["analyze", deal, "--json", "-j", jobs])
                .args(extra)
                .assert()
                .code(code)
                .get_output()
                .stdout
                .clone();
            let json: serde_json::Value = serde_json::from_slice(&out).unwrap();
            let analysis = &json["analysis"];
            (
                analysis["verdict"].clone(),
                analysis["stopped_by"].clone(),
                analysis["positions"].clone(),
                analysis["line"].clone(),
                analysis["proof"]["positions"].clone(),
            )
        };
        let (one, two) = (run("1"), run("2"));
        assert_eq!(one, two, "{deal} {extra:?}");
        if code == 3 {
            assert_eq!(one.1, "positions", "{deal} {extra:?}: {one:?}");
        }
    }
}

/// `--board` draws the position given as a player sees it: the piles side
/// by side, face-down cards `XX` above the face-up ones (top card last),
/// the stock rows left and the runs removed; cards print with their suit
/// symbols, as everywhere for people.
#[test]
fn analyze_board_draws_the_position_given() {
    let output = spider()
        .args(["analyze", "deals/mid-game.yaml", "--board", "-q"])
        .args(["--no-completions", "--max-positions", "1000"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(3));
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(
        text.contains(
            "consistency: consistent; 2 XX cards, candidates 5♠ 10♣
  1    2    3    4    5    6    7    8    9   10
 XX   XX   XX   K♦   XX   XX   XX   5♣   XX   XX
 XX   XX   XX        XX   XX   XX   4♣   3♦   XX
 XX   XX   XX        Q♣   XX   XX             XX
 XX   4♥   XX        J♥   XX   XX             Q♠
 K♠   3♠   XX       10♣   9♥   5♠
 Q♠   7♣   XX             8♥   3♣
 J♠  10♦   8♦             7♥   A♣
10♠   2♠   7♦             6♥   2♦
 9♠   3♠   6♦                  9♦
      9♣                       8♣
                               4♠
stock: 3 rows left (30 cards); runs removed: 1 of 8 (♥)
verdict: "
        ),
        "{text}"
    );
    // Not with --json, which has no drawing.
    spider()
        .args(["analyze", "deals/mid-game.yaml", "--board", "--json"])
        .assert()
        .code(2);
}

/// `--lines` prints the winning line of each completion decided, in the
/// compact form; without it the report says where the lines are.
#[test]
fn analyze_lines_prints_each_completions_winning_line() {
    let run = |extra: &[&str]| {
        let output = spider()
            .args(["analyze", "deals/mid-game.yaml", "-q", "--samples", "3"])
            .args(["--max-completions", "1", "--seed", "7"])
            .args(NO_SHORTENING)
            .args(extra)
            .output()
            .unwrap();
        String::from_utf8(output.stdout).unwrap()
    };
    let without = run(&[]);
    assert!(
        without.contains("every completion in --json, each winning line with --lines\n"),
        "{without}"
    );
    let with = run(&["--lines"]);
    let lines = with
        .split("winning lines (each against its own completion, whose cards --json gives; `spider replay` reads them):\n")
        .nth(1)
        .unwrap_or_else(|| panic!("{with}"));
    let numbered: Vec<&str> = lines.lines().collect();
    assert_eq!(numbered.len(), 3, "{with}");
    for (i, line) in numbered.iter().enumerate() {
        let (head, moves) = line
            .split_once(" moves: ")
            .unwrap_or_else(|| panic!("{line}"));
        assert!(head.starts_with(&format!("{:>5}. ", i + 1)), "{line}");
        let count: usize = head.trim()[3..].parse().unwrap();
        assert_eq!(moves.split_whitespace().count(), count, "{line}");
    }
}

/// `replay` draws the table at the end (or before the illegal move) the
/// same way as `play` and `analyze --board`.
#[test]
fn replay_draws_the_table_at_the_end_as_a_player_sees_it() {
    spider()
        .args(["replay", "deals/fresh-2-suit.yaml", "-"])
        .write_stdin("4-5/1 3-4/1")
        .assert()
        .code(0)
        .stdout(
            "all 2 moves are legal
  1    2    3    4    5    6    7    8    9   10
 XX   XX   XX   XX   XX   XX   XX   XX   XX   XX
 XX   XX   XX   XX   XX   XX   XX   XX   XX   XX
 XX   XX   XX   XX   XX   XX   XX   XX   XX   XX
 XX   XX   XX   XX   XX   XX   XX   XX   XX   XX
 XX   XX  10♠   K♥   7♥   Q♥   6♠   J♥   J♥   7♥
 2♠   4♥        Q♥   6♥
stock: 5 rows left (50 cards); runs removed: 0 of 8
not won yet: 0 runs removed, 5 stock rows left, 42 cards face down
",
        );
}
