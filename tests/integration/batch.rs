//! `spider batch` on the command line: records, resume, shards, merging.
//! Assertions are about counts and fields, not verdicts, so they hold for
//! any solver.

use std::path::Path;

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;

fn spider() -> Command {
    Command::cargo_bin("spider").unwrap()
}

/// The records of a results file: its lines after the header that are
/// JSON objects with a deal number (a torn line is skipped).
fn records(path: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let header: Value = serde_json::from_str(lines.next().unwrap()).unwrap();
    assert_eq!(header["spider_batch_results"], 1, "{text}");
    lines
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter(|record| record.get("number").is_some())
        .collect()
}

/// The deal numbers of a results file, in the order its rows were written.
fn numbers_in_order(path: &Path) -> Vec<u64> {
    records(path)
        .iter()
        .map(|r| r["number"].as_u64().unwrap())
        .collect()
}

/// The deal numbers of a results file, sorted.
fn numbers(path: &Path) -> Vec<u64> {
    let mut numbers = numbers_in_order(path);
    numbers.sort();
    numbers
}

/// Limits small enough that any solver answers at once.
const QUICK: [&str; 4] = ["--time-limit", "0.2", "--max-positions", "1000"];

#[test]
fn writes_one_record_per_deal_with_every_field() {
    let dir = crate::scratch();
    let out = dir.path().join("r.jsonl");
    spider()
        .args([
            "batch", "--number", "1..6", "--suits", "2", "--rules", "relaxed", "--jobs", "2",
        ])
        .args(QUICK)
        .args(["--out", out.to_str().unwrap()])
        .assert()
        .success()
        .stdout(predicate::str::contains("deals                6"));
    let records = records(&out);
    assert_eq!(numbers(&out), [1, 2, 3, 4, 5, 6]);
    for r in &records {
        assert_eq!(r["source"], "own");
        assert_eq!(r["suits"], 2);
        assert_eq!(r["rules"], "relaxed");
        assert!(["winnable", "unwinnable", "undecided"].contains(&r["verdict"].as_str().unwrap()));
        assert!(r["seconds"].as_f64().unwrap() >= 0.0);
        assert!(r["positions"].is_u64());
        assert!(r.get("line_length").is_some());
        assert_eq!(r["line_length"].is_null(), r["verdict"] != "winnable");
    }
}

#[test]
fn resumes_skipping_done_deals_and_a_torn_line() {
    let dir = crate::scratch();
    let out = dir.path().join("r.jsonl");
    let out_text = out.to_str().unwrap();
    spider()
        .args(["batch", "--pysol", "100..103"])
        .args(QUICK)
        .args(["--out", out_text])
        .assert()
        .success();
    assert_eq!(numbers(&out), [100, 101, 102, 103]);
    // Keep the header and two records and tear a third, as a crash would.
    let text = std::fs::read_to_string(&out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let torn = format!(
        "{}\n{}\n{}\n{}",
        lines[0],
        lines[1],
        lines[2],
        &lines[3][..10]
    );
    std::fs::write(&out, &torn).unwrap();
    let kept: Vec<Value> = lines[1..3]
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();

    spider()
        .args(["batch", "--pysol", "100..105"])
        .args(QUICK)
        .args(["--out", out_text, "--json"])
        .assert()
        .success()
        .stderr(predicate::str::contains("torn last line"))
        .stderr(predicate::str::contains("2 of 6 deals already"));
    // Nothing was cut: the torn line is kept (ended by a newline) and skipped.
    assert!(
        std::fs::read_to_string(&out)
            .unwrap()
            .starts_with(&format!("{torn}\n"))
    );
    let after = records(&out);
    assert_eq!(after.len(), 6);
    assert_eq!(after[..2], kept[..]);
    assert_eq!(numbers(&out), [100, 101, 102, 103, 104, 105]);

    // Everything done: nothing is added.
    spider()
        .args(["batch", "--pysol", "100..105", "--out", out_text])
        .assert()
        .success();
    assert_eq!(records(&out).len(), 6);
}

#[test]
fn shards_cover_the_range_and_summaries_merge() {
    let dir = crate::scratch();
    let mut files = Vec::new();
    for k in 1..=3 {
        let out = dir.path().join(format!("shard{k}.jsonl"));
        spider()
            .args(["batch", "--number", "10..19", "--shard", &format!("{k}/3")])
            .args(QUICK)
            .args(["--out", out.to_str().unwrap()])
            .assert()
            .success();
        files.push(out);
    }
    assert_eq!(numbers(&files[0]), [10, 13, 16, 19]);
    assert_eq!(numbers(&files[1]), [11, 14, 17]);
    assert_eq!(numbers(&files[2]), [12, 15, 18]);

    let output = spider()
        .args(["batch", "--json", "--summarize"])
        .args(files.iter().map(|f| f.to_str().unwrap()))
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let summary: Value = serde_json::from_slice(&output).unwrap();
    assert_eq!(summary["deals"], 10);
    let total = summary["winnable"].as_u64().unwrap()
        + summary["unwinnable"].as_u64().unwrap()
        + summary["undecided"].as_u64().unwrap();
    assert_eq!(total, 10);
    assert_eq!(summary["winnable_of_all"]["of"], 10);
    assert!(summary["median_seconds"].is_number());
    assert!(summary["p95_seconds"].is_number());

    // The same file twice: duplicates are counted once.
    spider()
        .args(["batch", "--summarize"])
        .args([files[0].to_str().unwrap(), files[0].to_str().unwrap()])
        .assert()
        .success()
        .stdout(predicate::str::contains("deals                4"))
        .stderr(predicate::str::contains("4 duplicate records"));
}

/// A list of games (`--pysol 3,1..2`) is played in the order given (one
/// at a time: `-j 1`), each once, and resumes like a range; a bad list is
/// refused naming the flag and the item, with no file written.
#[test]
fn a_list_of_games_is_played_in_its_order_and_resumes() {
    let dir = crate::scratch();
    let out = dir.path().join("list.jsonl");
    let out_text = out.to_str().unwrap();
    spider()
        .args(["batch", "--pysol", "3,1..2", "-j", "1"])
        .args(QUICK)
        .args(["-o", out_text])
        .assert()
        .success()
        .stdout(predicate::str::contains("deals                3"));
    assert_eq!(numbers_in_order(&out), [3, 1, 2]);
    assert!(records(&out).iter().all(|r| r["source"] == "pysol"));

    // A longer list over the same file: the three are kept, the new ones
    // added after them, in their order.
    spider()
        .args(["batch", "--pysol", "5,1..3,4", "-j", "1"])
        .args(QUICK)
        .args(["-o", out_text])
        .assert()
        .success()
        .stderr(predicate::str::contains("3 of 5 deals already"));
    assert_eq!(numbers_in_order(&out), [3, 1, 2, 5, 4]);

    // Shards of a list follow its order: 5, 2 and 4 for shard 1/2.
    let shard = dir.path().join("shard.jsonl");
    spider()
        .args(["batch", "--pysol", "5,1..3,4", "--shard", "1/2", "-j", "1"])
        .args(QUICK)
        .args(["-o", shard.to_str().unwrap()])
        .assert()
        .success();
    assert_eq!(numbers(&shard), [2, 4, 5]);

    for (list, says) in [
        ("1..10,5", "deal 5 is given twice, in `1..10` and in `5`"),
        ("1,,2", "item 2 is empty"),
        (
            "4,9..7",
            "in `9..7`, the first number is larger than the last",
        ),
        ("1,x", "in `x`, `x` is not a deal number"),
        (
            "3,5..100000000000000000001",
            "`5..100000000000000000001` goes past 100000000000000000000",
        ),
        (
            "1,999999999999999999999999999999999999999999",
            "is too large a number",
        ),
    ] {
        let bad = dir.path().join("bad.jsonl");
        spider()
            .args(["batch", "--pysol", list])
            .args(QUICK)
            .args(["-o", bad.to_str().unwrap()])
            .assert()
            .code(2)
            .stderr(predicate::str::contains("--pysol"))
            .stderr(predicate::str::contains(says));
        assert!(!bad.exists(), "{list}: a file was written");
    }
}

#[test]
fn text_summary_without_a_results_file() {
    spider()
        .args(["batch", "--number", "1..3"])
        .args(QUICK)
        .assert()
        .success()
        .stdout(predicate::str::contains("deals                3"))
        .stdout(predicate::str::contains("winnable of all"))
        .stdout(predicate::str::contains("time per deal        median"))
        .stdout(predicate::str::contains("deals/s"));
}

#[test]
fn bad_usage_exits_2() {
    for args in [
        vec!["batch"],
        vec!["batch", "--number", "5..1"],
        vec!["batch", "--number", "x"],
        vec!["batch", "--number", "1..3", "--shard", "4/3"],
        vec!["batch", "--number", "1..3", "--shard", "0/3"],
        vec!["batch", "--number", "1..3", "--pysol", "1..3"],
        vec!["batch", "--pysol", "1..3", "--suits", "1"],
        vec!["batch", "--pysol", "1..100000000000000000001"],
        vec!["batch", "--number", "1..18446744073709551616"],
        vec!["batch", "--number", "1..3", "--time-limit", "-1"],
        vec!["batch", "--number", "1..3", "--jobs", "0"],
        vec!["batch", "--number", "1..3", "--suits", "3"],
        vec!["batch", "--summarize", "/nonexistent/results.jsonl"],
    ] {
        spider()
            .args(&args)
            .assert()
            .code(2)
            .stderr(predicate::str::is_empty().not());
    }
    spider()
        .args(["batch", "--number", "1..3", "--shard", "4/3"])
        .assert()
        .stderr(predicate::str::contains("K must be between 1 and N"));
}

/// A small census (PySol games 14934 to 14936: one lost, two won, their
/// lines kept) checked row by row; compressed, it reads the same; a
/// tampered row, a stray line and a row written twice each fail.
#[test]
fn verify_replays_each_line_proves_each_loss_and_names_a_tampered_row() {
    let dir = crate::scratch();
    let out = dir.path().join("census.jsonl");
    let out_text = out.to_str().unwrap();
    spider()
        .args(["batch", "--pysol", "14934..14936", "-j", "2"])
        .args(crate::NO_SHORTENING)
        .args(["-o", out_text])
        .assert()
        .success();
    let rows = records(&out);
    let verdicts: Vec<&str> = rows
        .iter()
        .map(|r| r["verdict"].as_str().unwrap())
        .collect();
    assert_eq!(verdicts.iter().filter(|v| **v == "winnable").count(), 2);
    assert_eq!(verdicts.iter().filter(|v| **v == "unwinnable").count(), 1);

    let checked = |args: &[&str]| {
        spider()
            .args(["batch", "--verify"])
            .args(args)
            .assert()
            .success()
            .stdout(predicate::str::contains("rows checked             3"))
            .stdout(predicate::str::contains("lines replayed           2"))
            .stdout(predicate::str::contains("failing                  0"))
            .stdout(predicate::str::contains(
                "pysol deals, 4 suits, standard: 3 deals from 14934 to 14936, none missing",
            ))
    };
    checked(&[out_text]).stdout(predicate::str::contains("losses proved            1"));
    checked(&[out_text, "--verify-lines-only"])
        .stdout(predicate::str::contains("losses unchecked         1"));

    // Compressed with Zstandard: verified, summarized and reported as is.
    let zst = dir.path().join("census.jsonl.zst");
    std::fs::write(
        &zst,
        zstd::encode_all(std::fs::read(&out).unwrap().as_slice(), 19).unwrap(),
    )
    .unwrap();
    let zst_text = zst.to_str().unwrap();
    checked(&[zst_text]);
    let plain = spider()
        .args(["batch", "--summarize", out_text, "--json"])
        .output()
        .unwrap();
    let packed = spider()
        .args(["batch", "--summarize", zst_text, "--json"])
        .output()
        .unwrap();
    assert!(plain.status.success() && packed.status.success());
    assert_eq!(plain.stdout, packed.stdout);
    let page = dir.path().join("census.html");
    spider()
        .args(["batch", "--summarize", zst_text, "--html"])
        .arg(&page)
        .assert()
        .success();
    assert!(
        std::fs::read_to_string(&page)
            .unwrap()
            .contains("data-deals=\"3\"")
    );
    // It is not appended to: the way to resume is said, the file untouched.
    let before = std::fs::read(&zst).unwrap();
    spider()
        .args(["batch", "--pysol", "14934..14937", "-o", zst_text])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("decompress it (zstd -d), rerun"));
    assert_eq!(std::fs::read(&zst).unwrap(), before);
    // Nor is a new file of that name begun.
    let new_zst = dir.path().join("new.jsonl.zst");
    spider()
        .args(["batch", "--pysol", "14934", "-o", new_zst.to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "never a compressed (.zst) results file",
        ));
    assert!(!new_zst.exists());

    // Tampered: game 14935's row given game 14936's line; a stray line;
    // game 14934 written twice.
    let text = std::fs::read_to_string(&out).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let row_of = |lines: &[String], n: u64| {
        lines
            .iter()
            .position(|l| l.contains(&format!("\"number\":{n},")))
            .unwrap()
    };
    let (i35, i36, i34) = (
        row_of(&lines, 14935),
        row_of(&lines, 14936),
        row_of(&lines, 14934),
    );
    let mut r35: Value = serde_json::from_str(&lines[i35]).unwrap();
    let r36: Value = serde_json::from_str(&lines[i36]).unwrap();
    r35["line"] = r36["line"].clone();
    lines[i35] = r35.to_string();
    lines.push("not a record".to_string());
    lines.push(lines[i34].clone());
    let tampered = dir.path().join("tampered.jsonl");
    std::fs::write(&tampered, lines.join("\n") + "\n").unwrap();
    let name = tampered.to_str().unwrap();
    spider()
        .args(["batch", "--verify", name, "--verify-lines-only"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(format!(
            "{name}:{}: pysol 14935 (4 suits, standard): the line: move ",
            i35 + 1
        )))
        .stdout(predicate::str::contains(format!(
            "{name}:{}: not a result record",
            lines.len() - 1
        )))
        .stdout(predicate::str::contains(format!(
            "{name}:{}: pysol 14934 (4 suits, standard): recorded twice: first at {name}:{}",
            lines.len(),
            i34 + 1
        )))
        .stdout(predicate::str::contains("failing                  3"));

    // Not a results file: bad input, exit 2.
    let notes = dir.path().join("notes.txt");
    std::fs::write(&notes, "my notes\n").unwrap();
    spider()
        .args(["batch", "--verify", notes.to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("not a spider batch results file"));
}
