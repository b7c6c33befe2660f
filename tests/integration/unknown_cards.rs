//! Unknown cards as a player has them: exact completion counts, the one
//! headline, seeded samples, `spider hint` and `spider batch --hidden`.

use assert_cmd::Command;
use num_bigint::BigUint;
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

fn json_of(output: &[u8]) -> serde_json::Value {
    serde_json::from_slice(output).unwrap()
}

/// Two suits, six runs removed: a spade and a heart run left. `{p5}`,
/// `{p6}`, `{p9}` are the face-down cards of piles 5, 6 and 9, and `{p10}`
/// is pile 10's face-up card (with 3H 7H face down).
fn small(p5: &str, p6: &str, p9: &str, p1: &str, p10: &str) -> String {
    format!(
        "suits: 2
piles:
  - {{face_down: {p1}, face_up: [KS]}}
  - {{face_down: [8S, 10S, QS], face_up: [JS]}}
  - {{face_down: [2H, 6H], face_up: [9S]}}
  - {{face_down: [8H, 10H, QH], face_up: [7S]}}
  - {{face_down: {p5}, face_up: [5S]}}
  - {{face_down: {p6}, face_up: [4H]}}
  - {{face_down: [], face_up: [KH]}}
  - {{face_down: [], face_up: [JH]}}
  - {{face_down: {p9}, face_up: [9H]}}
  - {{face_down: [3H, 7H], face_up: [{p10}]}}
removed: [S, S, S, H, H, H]
"
    )
}

/// XX = AS, AH (2 completions): 4♥ can go onto 5♠ or 5♥, and either
/// way pile 6 turns up an ace that nothing takes: every completion is
/// lost.
fn all_lost() -> String {
    small("[XX]", "[XX, 3S]", "[]", "[2S, 4S, 6S]", "5H")
}

/// XX = 3S, AH: with 3S under 4♥, pile 6 empties and the game is won;
/// with AH there, it is stuck.
fn mixed() -> String {
    small("[AS]", "[XX]", "[XX]", "[2S, 4S, 6S]", "5H")
}

/// XX = AS, AH: two legal moves, both turn up 3♠ or a card; 4♥ onto 5♠
/// wins in both completions, 4♠ onto 5♠ (a same-suit build, preferred in
/// a tie) buries the only 5 that 4♥ could go on and loses in both.
fn one_winning_move() -> String {
    small("[XX]", "[3S]", "[XX]", "[2S, 5H, 6S]", "4S")
}

#[test]
fn every_completion_winnable_makes_the_headline_winnable_with_exit_0() {
    let output = spider()
        .args(["analyze", "deals/mid-game.yaml", "--json", "-q"])
        .args(NO_SHORTENING)
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let json = json_of(&output);
    assert_eq!(json["verdict"], "winnable");
    assert_eq!(json["completions"]["winnable"], 2);
    assert_eq!(json["completions"]["total"], "2");
    spider()
        .args(["analyze", "deals/mid-game.yaml", "-q"])
        .args(NO_SHORTENING)
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "verdict: winnable (every one of the 2 completions of the XX cards is winnable)\n",
        ))
        .stdout(predicate::str::contains(
            "winnable in 2 of 2 completions (0 unwinnable, 0 undecided)",
        ));
}

#[test]
fn every_completion_lost_makes_the_headline_unwinnable_with_exit_1() {
    let dir = crate::scratch();
    let file = write(&dir, "lost.yaml", &all_lost());
    spider()
        .arg("analyze")
        .arg(&file)
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "verdict: unwinnable (all 2 completions of the XX cards are unwinnable)\n",
        ));
}

#[test]
fn mixed_completions_give_k_of_n_in_the_headline_with_exit_3() {
    let dir = crate::scratch();
    let file = write(&dir, "mixed.yaml", &mixed());
    spider()
        .arg("analyze")
        .arg(&file)
        .args(NO_SHORTENING)
        .assert()
        .code(3)
        .stdout(predicate::str::contains(
            "verdict: undecided: winnable in 1 of 2 completions of the XX cards (1 unwinnable, 0 undecided)\n",
        ))
        .stdout(predicate::str::contains("3♠ A♥            winnable"))
        .stdout(predicate::str::contains("A♥ 3♠            unwinnable"));
}

#[test]
fn a_sample_never_yields_a_proof() {
    // Every completion of the mid-game deal is winnable, but decided by a
    // sample the headline gives the share and its interval, and exit 3.
    let args = [
        "analyze",
        "deals/mid-game.yaml",
        "--max-completions",
        "1",
        "--samples",
        "4",
        "--seed",
        "7",
        "-q",
        "--shorten-positions",
        "0",
    ];
    spider()
        .args(args)
        .assert()
        .code(3)
        .stdout(predicate::str::contains(
            "verdict: undecided: winnable in 4 of 4 sampled completions, 100.0 % (4 of 4; 95 % CI 51.0–100.0 %) of the 2 completions\n",
        ))
        .stdout(predicate::str::contains("seed 7 (--seed 7 draws it again)"));
    let mut json_args = args.to_vec();
    json_args.push("--json");
    let json = json_of(
        &spider()
            .args(&json_args)
            .assert()
            .code(3)
            .get_output()
            .stdout,
    );
    assert_eq!(json["completions"]["sampled"], true);
    assert_eq!(json["completions"]["seed"], 7);
    assert_eq!(json["completions"]["decided"], 4);
    assert_eq!(json["verdict"], "undecided");
}

/// 94! / 2^42, computed here from the formula: the completions of a fresh
/// 4-suit deal typed with every hidden card XX (ten face-up cards, all
/// different, so 42 cards are missing twice and 10 once).
#[test]
fn a_fresh_deal_typed_as_seen_has_its_exact_completion_count() {
    let dir = crate::scratch();
    let output = spider()
        .args(["deal", "--pysol", "5"])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(output).unwrap();
    // Every face-down and stock card becomes XX.
    let mut seen = String::new();
    for line in text.lines() {
        let hidden = line.trim_start().starts_with("- face_down: [")
            || (line.trim_start().starts_with("- [") && !line.contains("face"));
        if hidden {
            let open = line.find('[').unwrap();
            let close = line.find(']').unwrap();
            let n = line[open + 1..close]
                .split(',')
                .filter(|c| !c.trim().is_empty())
                .count();
            seen.push_str(&format!(
                "{}{}{}\n",
                &line[..open + 1],
                vec!["XX"; n].join(", "),
                &line[close..]
            ));
        } else {
            seen.push_str(line);
            seen.push('\n');
        }
    }
    let file = write(&dir, "seen.yaml", &seen);
    let json = json_of(
        &spider()
            .arg("analyze")
            .arg(&file)
            .args(["--samples", "0", "--max-positions", "1000", "--json"])
            .assert()
            .code(3)
            .get_output()
            .stdout,
    );
    let factorial = (1..=94u32).fold(BigUint::from(1u32), |acc, i| acc * i);
    let expected: BigUint = factorial / (BigUint::from(1u32) << 42usize);
    assert_eq!(json["completions_total"], expected.to_string());
    assert_eq!(expected.to_string().len(), 134);
    spider()
        .arg("analyze")
        .arg(&file)
        .args(["--samples", "0", "--max-positions", "1000"])
        .assert()
        .code(3)
        .stdout(predicate::str::contains(
            "completions: not decided (2.47 × 10^133 of them; --samples N decides a sample)",
        ))
        .stdout(predicate::str::contains(
            "pile 1: 1 of 5 face-down XX cards can be turned up, by a line of 1 move",
        ))
        .stdout(predicate::str::contains(
            "stock: 10 of 50 XX cards can be turned up (row 1, by a line of 1 move)",
        ));
}

#[test]
fn the_hint_puts_the_only_winning_move_first() {
    let dir = crate::scratch();
    let file = write(&dir, "one.yaml", &one_winning_move());
    let json = json_of(
        &spider()
            .arg("hint")
            .arg(&file)
            .arg("--json")
            .assert()
            .code(0)
            .get_output()
            .stdout,
    );
    let moves = json["hint"]["moves"].as_array().unwrap();
    let row = |m: &serde_json::Value| {
        (
            m["move"].as_str().unwrap().to_string(),
            m["wins"].as_u64().unwrap(),
            m["of"].as_u64().unwrap(),
        )
    };
    assert_eq!(
        moves.iter().map(row).collect::<Vec<_>>(),
        [("6-5/1".to_string(), 2, 2), ("10-5/1".to_string(), 0, 2)]
    );
    // Both completions start their wins with 6-5/1, so 10-5/1 is tried in
    // each: 2 tries, every one finished, both moves tried.
    assert_eq!(
        json["hint"]["tries"],
        serde_json::json!({"done": 2, "planned": 2, "moves_done": 2, "moves": 2})
    );
    // The losing move is the one the tie-breaks prefer: only the shares
    // put the winning move first.
    assert_eq!(moves[1]["kind"], "turns-up-and-builds");
    assert_eq!(moves[0]["kind"], "turns-up");
    // The same from a seeded sample (of the 2 completions), in words.
    spider()
        .arg("hint")
        .arg(&file)
        .args(["--max-completions", "1", "--samples", "6", "--seed", "3"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "move to play now: 6-5/1  (4♥ from pile 6 onto 5♠ on pile 5)\n  a win starts with it in 100.0 % (6 of 6; 95 % CI 61.0–100.0 %) of the sampled completions",
        ))
        // Each move's share in its column with its interval said the same
        // way, its counts beside it.
        .stdout(predicate::str::contains(
            "   1. 6-5/1       6 of 6    100 % (95 % CI 61–100 %)  4♥ from pile 6",
        ))
        .stdout(predicate::str::contains(
            "   2. 10-5/1      0 of 6    0 % (95 % CI 0–39 %)      4♠ from pile 10",
        ));
    // Over every completion the share is exact: no interval.
    spider()
        .arg("hint")
        .arg(&file)
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "  a win starts with it in 100.0 % (2 of 2) of the completions\n",
        ))
        .stdout(predicate::str::contains(
            "   1. 6-5/1       2 of 2    100 %  4♥ from pile 6",
        ));
    // analyze --hint gives the same move.
    spider()
        .arg("analyze")
        .arg(&file)
        .arg("--hint")
        .args(NO_SHORTENING)
        .assert()
        .code(0)
        .stdout(predicate::str::contains("move to play now: 6-5/1"));
}

/// `batch --hidden` of own deals 1 and 2 at 1 suit with the default
/// player (about 5 s of CPU a run): see [`hidden_play`].
#[test]
#[ignore = "slow: runs with `cargo test -- --ignored` (CI runs it)"]
fn hidden_play_reports_both_shares_and_repeats_with_its_seed() {
    hidden_play(&[]);
}

/// [`hidden_play_reports_both_shares_and_repeats_with_its_seed`] with a
/// lookahead of 2,000 positions: under a second a run.
#[test]
fn hidden_play_with_a_short_lookahead_reports_both_shares_and_repeats() {
    hidden_play(&["--lookahead", "2000"]);
}

/// `batch --hidden` of own deals 1 and 2 at 1 suit with the player
/// `flags`: both are winnable with the cards known, the share won blind is
/// reported, and the same seed plays the same games (the same lines).
fn hidden_play(flags: &[&str]) {
    let run = || {
        json_of(
            &spider()
                .args([
                    "batch",
                    "--hidden",
                    "--number",
                    "1..2",
                    "--suits",
                    "1",
                    "--hidden-samples",
                    "2",
                    "--hidden-max-positions",
                    "5000",
                    "--shorten-positions",
                    "0",
                    "--seed",
                    "5",
                    "--jobs",
                    "1",
                    "--json",
                ])
                .args(flags)
                .assert()
                .code(0)
                .get_output()
                .stdout,
        )
    };
    let a = run();
    assert_eq!(a["deals"], 2);
    assert_eq!(a["winnable_known"], 2);
    let won = a["won_blind"].as_u64().unwrap();
    assert!(won <= 2);
    let games = |j: &serde_json::Value| {
        j["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| {
                let blind = &g["blind"];
                assert!(blind["moves"].as_u64().unwrap() > 0, "{g}");
                (
                    blind["won"].as_bool().unwrap(),
                    blind["moves"].clone(),
                    blind["line"].as_str().unwrap().to_string(),
                )
            })
            .collect::<Vec<_>>()
    };
    let played = games(&a);
    assert_eq!(
        played.iter().filter(|(won, ..)| *won).count() as u64,
        won,
        "{a}"
    );
    assert_eq!(played, games(&run()));
}

/// A hint that knows nothing says so and exits 3 instead of naming a move;
/// `--samples 0` is refused; a won position says it is won.
#[test]
fn the_hint_says_when_it_knows_nothing() {
    let dir = crate::scratch();
    // Every completion is lost: no win starts with any move.
    let file = write(&dir, "lost.yaml", &all_lost());
    spider()
        .arg("hint")
        .arg(&file)
        .assert()
        .code(3)
        .stdout(predicate::str::contains(
            "move to play now: unknown: no win was found in any of the 2 completions within the limits",
        ))
        .stdout(predicate::str::contains("every legal move, best first").not());
    spider()
        .arg("hint")
        .arg(&file)
        .args(["--samples", "0"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--samples"));
    // Every run removed: won.
    let won = "suits: 1\npiles: [{face_up: []}, {face_up: []}, {face_up: []}, {face_up: []}, {face_up: []}, {face_up: []}, {face_up: []}, {face_up: []}, {face_up: []}, {face_up: []}]\nremoved: [S, S, S, S, S, S, S, S]\n";
    let file = write(&dir, "won.yaml", won);
    spider()
        .arg("hint")
        .arg(&file)
        .assert()
        .code(0)
        .stdout(predicate::str::contains("the position is won"));
}

/// `--verify-moves N` tries only the N moves the first moves of the wins
/// rank best: here 6-5/1 starts the win of both completions, so with
/// `--verify-moves 1` the losing 10-5/1 is not tried (no try at all), is
/// said not tried, and the only winning move still comes first; the
/// default (2) tries both moves; 0 tries every legal move.
#[test]
fn the_hint_tries_only_the_best_moves_and_says_which() {
    let dir = crate::scratch();
    let file = write(&dir, "one.yaml", &one_winning_move());
    let hint = |extra: &[&str]| {
        json_of(
            &spider()
                .arg("hint")
                .arg(&file)
                .arg("--json")
                .args(extra)
                .assert()
                .code(0)
                .get_output()
                .stdout,
        )["hint"]
            .clone()
    };
    let rows = |hint: &serde_json::Value| {
        hint["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| {
                (
                    m["move"].as_str().unwrap().to_string(),
                    m["wins"].as_u64().unwrap(),
                    m["tried"].as_bool().unwrap(),
                )
            })
            .collect::<Vec<_>>()
    };
    let one = hint(&["--verify-moves", "1"]);
    assert_eq!(
        rows(&one),
        [
            ("6-5/1".to_string(), 2, true),
            ("10-5/1".to_string(), 0, false)
        ]
    );
    assert_eq!(
        one["tries"],
        serde_json::json!({"done": 0, "planned": 0, "moves_done": 1, "moves": 1})
    );
    for every in [&[][..], &["--verify-moves", "0"][..]] {
        let all = hint(every);
        assert_eq!(
            rows(&all),
            [
                ("6-5/1".to_string(), 2, true),
                ("10-5/1".to_string(), 0, true)
            ]
        );
        assert_eq!(all["tries"]["done"], 2);
    }
    // In words: the row not tried says so, and the footnote says which.
    spider()
        .arg("hint")
        .arg(&file)
        .args(["--verify-moves", "1"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "move to play now: 6-5/1  (4♥ from pile 6 onto 5♠ on pile 5)",
        ))
        // No share for the move not tried: its wins are only those found.
        .stdout(predicate::str::contains(
            "   2. 10-5/1      0 of 2           4♠ from pile 10 onto 5♠ on pile 5  [turns up a card, builds a same-suit run]  (not tried: only the wins that start with it)\n",
        ))
        .stdout(predicate::str::contains(
            "1 of the 2 legal moves (those the first moves of the wins rank best, and the blind player's) is tried",
        ));
    // --first-moves tries none: the two flags do not go together.
    spider()
        .arg("hint")
        .arg(&file)
        .args(["--first-moves", "--verify-moves", "1"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--verify-moves"));
}

/// Over every completion, moves that win in as many as the best are shown
/// as tied with it.
#[test]
fn the_hint_marks_moves_tied_with_the_best() {
    let dir = crate::scratch();
    let file = write(&dir, "one.yaml", &one_winning_move());
    spider()
        .arg("hint")
        .arg(&file)
        .assert()
        .code(0)
        .stdout(predicate::str::contains("tied with the best").not());
}
