//! `spider check` and `spider convert` run as a user runs them: on files
//! written to a temporary directory, checking stdout, stderr and exit codes.

use std::fs;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use predicates::prelude::*;

fn spider() -> Command {
    Command::cargo_bin("spider").expect("the spider binary is built")
}

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// The unwon game as canonical YAML, to break one thing at a time.
fn unwon_yaml() -> String {
    fs::read_to_string(repo("deals/unwon-2017.yaml")).expect("committed deal file")
}

/// Writes `text` to `name` in `dir`, returning the path.
fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    fs::write(&path, text).expect("temp file");
    path
}

const UNWON_REPORT: &str = "4 suits (2 copies of each card): 104 cards, 4 of them XX
too often: none
missing (4): 3♠, 7♠, K♠, 4♥
XX slots (4): pile 3 face-down #1; pile 3 face-down #2; pile 5 face-down #1; pile 5 face-down #2
the 4 missing cards fill the 4 XX slots exactly
consistent
";

#[test]
fn check_the_unwon_game_in_both_formats() {
    for file in ["deals/unwon-2017.clips", "deals/unwon-2017.yaml"] {
        spider()
            .current_dir(repo(""))
            .args(["check", file])
            .assert()
            .code(0)
            .stdout(format!("{file}: {UNWON_REPORT}"))
            .stderr("");
    }
}

#[test]
fn check_json() {
    let output = spider()
        .args(["check", "--json"])
        .arg(repo("deals/unwon-2017.clips"))
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let json: serde_json::Value = serde_json::from_slice(&output).expect("JSON");
    assert_eq!(json["consistent"], true);
    assert_eq!(json["unknown_count"], 4);
    assert_eq!(json["missing_count"], 4);
    assert_eq!(
        json["missing"],
        serde_json::json!([
            {"card": "3S", "count": 1},
            {"card": "7S", "count": 1},
            {"card": "KS", "count": 1},
            {"card": "4H", "count": 1},
        ])
    );
    assert_eq!(
        json["unknown"][0],
        serde_json::json!({"kind": "face_down", "pile": 3, "index": 1})
    );
}

#[test]
fn every_committed_deal_is_consistent() {
    for file in [
        "deals/fresh-1-suit.yaml",
        "deals/fresh-2-suit.yaml",
        "deals/mid-game.yaml",
    ] {
        spider()
            .arg("check")
            .arg(repo(file))
            .assert()
            .code(0)
            .stdout(predicate::str::ends_with("\nconsistent\n"));
    }
    spider()
        .arg("check")
        .arg(repo("deals/mid-game.yaml"))
        .assert()
        .stdout(predicate::str::contains(
            "missing (2): 5♠, 10♣\nXX slots (2): pile 3 face-down #1; pile 7 face-down #2\n",
        ));
}

#[test]
fn check_an_inconsistent_deal_exits_1() {
    let dir = crate::scratch();
    // Pile 1's bottom card 5D becomes a third 8D.
    let text = unwon_yaml().replacen("[5D, JH, 3C", "[8D, JH, 3C", 1);
    let file = write(dir.path(), "bad.yaml", &text);
    spider()
        .arg("check")
        .arg(&file)
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "too often:\n  8♦ appears 3 times (expected 2): pile 1 face-down #1; stock row 1 pile 7; stock row 4 pile 7\n",
        ))
        .stdout(predicate::str::contains("missing (5): 3♠, 7♠, K♠, 4♥, 5♦\n"))
        .stdout(predicate::str::contains(
            "the 5 missing cards cannot fill the 4 XX slots exactly\ninconsistent\n",
        ));
}

/// Runs `spider check` on `text` saved as `name` and expects exit 2 with
/// `message` on stderr.
fn refused(name: &str, text: &str, message: &str) {
    let dir = crate::scratch();
    let file = write(dir.path(), name, text);
    spider()
        .arg("check")
        .arg(&file)
        .assert()
        .code(2)
        .stdout("")
        .stderr(format!("spider: error: {}{message}\n", file.display()));
}

#[test]
fn bad_yaml_is_refused_with_line_and_column() {
    refused(
        "malformed.yaml",
        "suits: 4\npiles: [\n  - face_down: [AS\n",
        ":3:3: did not find expected node content, while parsing a flow node",
    );
    let text = unwon_yaml().replace("[10H, 10D, 5H, 8H", "[10H, 10D, 5H, 8X");
    refused(
        "card.yaml",
        &text,
        ":27:20: stock row 1 entry 4: `8X` is not a card: expected a rank (A 2-10 T J Q K) then a suit (S H D C, or ♠ ♥ ♦ ♣), like `10h`, `QS`, `A♠`, or `XX` for an unknown card",
    );
    let text = unwon_yaml().replace(
        "  - face_down: [10S, 4H, 10C, 9D]                  # pile 10\n    face_up: [4D]\n",
        "",
    );
    refused(
        "nine.yaml",
        &text,
        ":6:3: piles: expected 10 piles, found 9",
    );
    let text = unwon_yaml().replace("face_up: [KS]", "face_up: [XX]");
    refused(
        "xx.yaml",
        &text,
        ":19:15: pile 7, face-up card 1: `XX` cannot be a face-up card: a face-up card is always known",
    );
    let text = unwon_yaml().replace("[5H, KH, 4D, QD, 2S, QH, 3D, 7C, AC, QC]", "[5H, KH, 4D]");
    refused(
        "short.yaml",
        &text,
        ":28:5: stock row 2: a stock row has 10 cards (entry i goes on pile i), this one has 3",
    );
    let text = unwon_yaml().replace(
        "removed:",
        "  - [3C, 8S, JS, 7H, KH, AS, QC, 9S, 9H, 2H]\nremoved:",
    );
    refused(
        "six.yaml",
        &text,
        ":27:3: stock: the stock has at most 5 rows, this one has 6",
    );
    refused(
        "empty.yaml",
        "",
        ": the file is empty: expected a deal (YAML or CLIPS facts)",
    );
    refused(
        "suits.yaml",
        &unwon_yaml().replace("suits: 4 ", "suits: 3 "),
        ":3:8: suits: suits is `3`: expected 1, 2 or 4",
    );
}

#[test]
fn bad_clips_is_refused_with_line_and_column() {
    let clips = fs::read_to_string(repo("deals/unwon-2017.clips")).unwrap();
    refused(
        "card.clips",
        &clips.replace("(deal P3  kc  5h 4d jd", "(deal P3  kc  5h 4d jj"),
        ":9:21: `jj` is not a card: expected a rank (A 2-10 T J Q K) then a suit (S H D C, or ♠ ♥ ♦ ♣), like `10h`, `QS`, `A♠`, or `XX` for an unknown card",
    );
    refused(
        "paren.clips",
        &clips.replace("(pile P6  3h  2d kd 9h)", "(pile P6  3h  2d kd 9h"),
        ":26:1: unbalanced parentheses: `(` inside the fact opened at line 25, column 1 (facts do not nest; is a `)` missing?)",
    );
    refused(
        "xx.clips",
        &clips.replace("(deal P5  10s", "(deal P5  XX "),
        ":11:11: the face-up card of P5 cannot be `XX`: a face-up card is always known",
    );
    refused(
        "missing.clips",
        &clips.replace("(pile P10 10s 4h 10c 9d)", ""),
        ": no (pile Pn ...) fact for P10: every pile P1..P10 needs one",
    );
}

#[test]
fn a_missing_file_is_refused() {
    let dir = crate::scratch();
    let file = dir.path().join("nope.yaml");
    spider()
        .arg("check")
        .arg(&file)
        .assert()
        .code(2)
        .stderr(format!(
            "spider: error: {}: cannot read the deal file: no such file\n",
            file.display()
        ));
}

#[test]
fn convert_clips_to_yaml_matches_the_committed_file() {
    spider()
        .arg("convert")
        .arg(repo("deals/unwon-2017.clips"))
        .assert()
        .code(0)
        .stdout(unwon_yaml());
}

#[test]
fn convert_writes_the_output_file_and_it_reads_back() {
    let dir = crate::scratch();
    let out = dir.path().join("out.yaml");
    spider()
        .arg("convert")
        .arg(repo("deals/unwon-2017.clips"))
        .arg("-o")
        .arg(&out)
        .assert()
        .code(0)
        .stdout("");
    assert_eq!(fs::read_to_string(&out).unwrap(), unwon_yaml());
    // YAML to YAML is the identity on canonical files.
    spider()
        .arg("convert")
        .arg(&out)
        .assert()
        .code(0)
        .stdout(unwon_yaml());
    // Nothing but the output file is left in the directory.
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn convert_bad_input_writes_nothing() {
    let dir = crate::scratch();
    let bad = write(
        dir.path(),
        "bad.yaml",
        &unwon_yaml().replace("face_up: [KS]", "face_up: [XX]"),
    );
    let out = dir.path().join("out.yaml");
    spider()
        .arg("convert")
        .arg(&bad)
        .arg("-o")
        .arg(&out)
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains(":19:15: pile 7, face-up card 1:"));
    assert!(!out.exists());
    // And an existing output is left as it was.
    fs::write(&out, "keep me").unwrap();
    spider()
        .arg("convert")
        .arg(&bad)
        .arg("-o")
        .arg(&out)
        .assert()
        .code(2);
    assert_eq!(fs::read_to_string(&out).unwrap(), "keep me");
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 2);
}

#[test]
fn convert_refuses_to_write_over_its_input() {
    let dir = crate::scratch();
    let file = write(dir.path(), "deal.yaml", &unwon_yaml());
    spider()
        .current_dir(dir.path())
        .args(["convert", "deal.yaml", "-o", "./deal.yaml"])
        .assert()
        .code(2)
        .stderr(
            "spider: error: ./deal.yaml: is the input file deal.yaml; not written over (choose another output file)\n",
        );
    assert_eq!(fs::read_to_string(&file).unwrap(), unwon_yaml());
}
