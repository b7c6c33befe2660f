//! The `--html` pages, tested as a person would use them: written by the
//! real executable, opened in headless Chromium (where it is installed;
//! each test says so and skips the browser part otherwise), stepped with
//! the page's own `#move=N` fragment, and what the page shows compared
//! with the rules engine.

use std::path::{Path, PathBuf};
use std::process::Command as Process;

use assert_cmd::Command;
use predicates::prelude::*;
use spider_analyzer::deal::load;
use spider_analyzer::game::{Game, parse_moves, replay};

fn spider() -> Command {
    Command::cargo_bin("spider").unwrap()
}

/// The Chromium executable, if one is installed.
fn chromium() -> Option<&'static str> {
    ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|name| {
            Process::new(name)
                .arg("--version")
                .output()
                .is_ok_and(|out| out.status.success())
        })
}

/// Runs headless Chromium on `page` with `extra` arguments; its stdout.
fn headless(browser: &str, page: &Path, fragment: &str, extra: &[&str]) -> String {
    let profile = crate::scratch();
    let url = format!("file://{}{fragment}", page.display());
    let output = Process::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .args(extra)
        .arg(&url)
        .output()
        .expect("chromium runs");
    assert!(output.status.success(), "chromium failed on {url}");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// The `data-` attributes of the page's `<main>` after its script ran
/// with `#move=N`, by name.
fn shown(browser: &str, page: &Path, mv: usize) -> std::collections::HashMap<String, usize> {
    let dom = headless(browser, page, &format!("#move={mv}"), &["--dump-dom"]);
    let main = dom
        .split("<main")
        .nth(1)
        .and_then(|rest| rest.split('>').next())
        .unwrap_or_else(|| panic!("no <main> in the page's DOM: {dom}"));
    main.split(" data-")
        .skip(1)
        .filter_map(|attr| {
            let (name, value) = attr.split_once("=\"")?;
            Some((name.to_string(), value.split('"').next()?.parse().ok()?))
        })
        .collect()
}

/// Face-down cards after the first `count` moves of `line` by the rules.
fn face_down_after(deal: &Path, line: &str, count: usize) -> usize {
    let game = Game::new(&load(deal).unwrap()).unwrap();
    let tokens = parse_moves(line).unwrap();
    let (_, end) = replay(&game, &tokens[..count]).unwrap();
    end.face_down_total()
}

/// A screenshot of the page that is not blank: a PNG with enough bytes to
/// hold cards (an empty page of this size compresses to a few KB).
fn screenshot_is_not_blank(browser: &str, page: &Path, dir: &Path) {
    let png: PathBuf = dir.join("page.png");
    headless(
        browser,
        page,
        "#move=3",
        &[
            &format!("--screenshot={}", png.display()),
            "--window-size=960,1000",
        ],
    );
    let bytes = std::fs::read(&png).expect("a screenshot");
    assert!(bytes.starts_with(b"\x89PNG"), "a PNG");
    assert!(bytes.len() > 20_000, "{} bytes: blank?", bytes.len());
}

fn no_network(page: &str) {
    for needle in ["http:", "https:", "src=", "<link", "@import"] {
        assert!(!page.contains(needle), "the page loads `{needle}`");
    }
}

#[test]
fn analyze_writes_a_page_that_plays_the_winning_line() {
    let dir = crate::scratch();
    let page = dir.path().join("won.html");
    let deal = Path::new("deals/fresh-2-suit.yaml");
    let output = spider()
        .args([
            "analyze",
            "deals/fresh-2-suit.yaml",
            "--json",
            "--shorten-positions",
            "200000",
        ])
        .arg("--html")
        .arg(&page)
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let json: serde_json::Value = serde_json::from_slice(&output).unwrap();
    let line = json["analysis"]["line"].as_str().unwrap().to_string();
    let moves = line.split_whitespace().count();
    let text = std::fs::read_to_string(&page).unwrap();
    no_network(&text);
    assert!(text.contains(&format!("data-moves=\"{moves}\"")));
    let Some(browser) = chromium() else {
        crate::skipped(
            "analyze_writes_a_page_that_plays_the_winning_line",
            "chromium",
            "the page was not opened in a browser",
        );
        return;
    };
    for mv in [0, moves / 3, moves] {
        let data = shown(browser, &page, mv);
        assert_eq!(
            data["face-down"],
            face_down_after(deal, &line, mv),
            "face-down cards at move {mv}"
        );
        assert_eq!(data["move"], mv);
        if mv == moves {
            assert_eq!(data["runs-removed"], 8);
            assert_eq!(data["stock-rows"], 0);
        }
    }
    screenshot_is_not_blank(browser, &page, dir.path());
}

#[test]
fn a_deal_with_unknown_cards_and_an_undecided_deal_still_get_a_page() {
    let dir = crate::scratch();
    let unknown = dir.path().join("xx.html");
    spider()
        .args([
            "analyze",
            "deals/mid-game.yaml",
            "--no-completions",
            "--time-limit",
            "2",
        ])
        .arg("--html")
        .arg(&unknown)
        .assert()
        .code(3);
    let undecided = dir.path().join("undecided.html");
    spider()
        .args([
            "analyze",
            "deals/fresh-2-suit.yaml",
            "--max-positions",
            "10",
        ])
        .arg("--html")
        .arg(&undecided)
        .assert()
        .code(3);
    let xx_deal = load(Path::new("deals/mid-game.yaml")).unwrap();
    assert!(
        !xx_deal.unknown_places().is_empty(),
        "the deal has XX cards"
    );
    let xx_text = std::fs::read_to_string(&unknown).unwrap();
    no_network(&xx_text);
    assert!(xx_text.contains("cards are XX (never seen)"));
    let undecided_text = std::fs::read_to_string(&undecided).unwrap();
    assert!(undecided_text.contains("No winning line."));
    assert!(xx_text.contains("lead to the best position a short beam search found"));
    let Some(browser) = chromium() else {
        crate::skipped(
            "a_deal_with_unknown_cards_and_an_undecided_deal_still_get_a_page",
            "chromium",
            "the pages were not opened in a browser",
        );
        return;
    };
    let start = |path: &str| {
        Game::new(&load(Path::new(path)).unwrap())
            .unwrap()
            .start()
            .face_down_total()
    };
    assert_eq!(
        shown(browser, &unknown, 0)["face-down"],
        start("deals/mid-game.yaml")
    );
    assert_eq!(
        shown(browser, &undecided, 0)["face-down"],
        start("deals/fresh-2-suit.yaml")
    );
    screenshot_is_not_blank(browser, &undecided, dir.path());
}

#[test]
fn replay_writes_a_page_up_to_the_first_illegal_move() {
    let dir = crate::scratch();
    let page = dir.path().join("replay.html");
    let moves = dir.path().join("moves.txt");
    // Deal 1 of the own 2-suit generator: the first legal move, a deal,
    // then a move from an empty... pile 1 to itself (illegal).
    let deal = Path::new("deals/fresh-2-suit.yaml");
    let game = Game::new(&load(deal).unwrap()).unwrap();
    let mut legal = Vec::new();
    game.moves(game.start(), &mut legal);
    let first = legal
        .iter()
        .find(|mv| **mv != spider_analyzer::game::Move::Deal)
        .unwrap();
    std::fs::write(&moves, format!("{first} deal 1-1/1")).unwrap();
    spider()
        .args(["replay", "deals/fresh-2-suit.yaml"])
        .arg(&moves)
        .arg("--html")
        .arg(&page)
        .assert()
        .code(1);
    let text = std::fs::read_to_string(&page).unwrap();
    assert!(text.contains("data-moves=\"2\""), "two legal moves shown");
    assert!(text.contains("2 of the 3 moves written are legal"));
    if let Some(browser) = chromium() {
        let data = shown(browser, &page, 2);
        assert_eq!(
            data["face-down"],
            face_down_after(deal, &format!("{first} deal"), 2)
        );
        assert_eq!(data["stock-rows"], 4);
    } else {
        crate::skipped(
            "replay_writes_a_page_up_to_the_first_illegal_move",
            "chromium",
            "the page was not opened in a browser",
        );
    }
}

#[test]
fn a_page_is_never_written_over_without_force_nor_over_an_input() {
    let dir = crate::scratch();
    let page = dir.path().join("page.html");
    std::fs::write(&page, "keep me").unwrap();
    spider()
        .args([
            "analyze",
            "deals/fresh-1-suit.yaml",
            "--shorten-positions",
            "0",
        ])
        .arg("--html")
        .arg(&page)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("not written over (add --force"));
    assert_eq!(std::fs::read_to_string(&page).unwrap(), "keep me");
    spider()
        .args([
            "analyze",
            "deals/fresh-1-suit.yaml",
            "--shorten-positions",
            "0",
            "--force",
        ])
        .arg("--html")
        .arg(&page)
        .assert()
        .code(0);
    assert!(
        std::fs::read_to_string(&page)
            .unwrap()
            .starts_with("<!DOCTYPE html>")
    );
    let deal = dir.path().join("deal.yaml");
    std::fs::copy("deals/fresh-1-suit.yaml", &deal).unwrap();
    let before = std::fs::read_to_string(&deal).unwrap();
    spider()
        .arg("analyze")
        .arg(&deal)
        .args(["--shorten-positions", "0", "--force", "--html"])
        .arg(&deal)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("is the input file"));
    assert_eq!(std::fs::read_to_string(&deal).unwrap(), before);
}

#[test]
fn batch_writes_a_one_page_report_of_its_results() {
    let dir = crate::scratch();
    let results = dir.path().join("results.jsonl");
    let page = dir.path().join("batch.html");
    spider()
        .args([
            "batch",
            "--number",
            "1..3",
            "--suits",
            "1",
            "--jobs",
            "1",
            "--time-limit",
            "10",
            "--shorten-positions",
            "0",
            "--out",
        ])
        .arg(&results)
        .arg("--html")
        .arg(&page)
        .assert()
        .code(0);
    let text = std::fs::read_to_string(&page).unwrap();
    no_network(&text);
    assert!(text.contains("<strong>100.0 %</strong> of 3 deals decided: 3 winnable"));
    assert!(text.contains("Solve time per deal"));
    assert!(text.contains("Winning-line lengths"));
    assert!(text.contains("No deal is undecided."));
    // The bars of each chart count every deal.
    let counted = |chart: &str| -> usize {
        let at = text.find(chart).unwrap();
        let part = text[at..].split("</svg>").next().unwrap();
        part.split("data-count=\"")
            .skip(1)
            .map(|rest| rest.split('"').next().unwrap().parse::<usize>().unwrap())
            .sum()
    };
    assert_eq!(counted("Solve time per deal"), 3);
    assert_eq!(counted("Winning-line lengths"), 3);
    // The same report from the results file, without solving; never over
    // the results file.
    let merged = dir.path().join("merged.html");
    spider()
        .arg("batch")
        .arg("--summarize")
        .arg(&results)
        .arg("--html")
        .arg(&merged)
        .assert()
        .code(0);
    assert!(
        std::fs::read_to_string(&merged)
            .unwrap()
            .contains("of 3 deals decided")
    );
    spider()
        .arg("batch")
        .arg("--summarize")
        .arg(&results)
        .args(["--force", "--html"])
        .arg(&results)
        .assert()
        .code(2);
    if let Some(browser) = chromium() {
        screenshot_is_not_blank(browser, &page, dir.path());
    } else {
        crate::skipped(
            "batch_writes_a_one_page_report_of_its_results",
            "chromium",
            "the report was not opened in a browser",
        );
    }
}

#[test]
fn graph_draws_svg_through_graphviz_or_says_how_to_get_it() {
    let dir = crate::scratch();
    let deal = dir.path().join("tiny.yaml");
    std::fs::write(&deal, super::graph::TINY).unwrap();
    let has_dot = Process::new("dot").arg("-V").output().is_ok();
    let run = spider().args(["graph", "--svg"]).arg(&deal).assert();
    if !has_dot {
        run.code(2)
            .stderr(predicate::str::contains("apt-get install graphviz"));
        crate::skipped(
            "graph_draws_svg_through_graphviz_or_says_how_to_get_it",
            "graphviz `dot`",
            "checked the message that says how to get it, drew nothing",
        );
        return;
    }
    let svg = String::from_utf8(run.code(0).get_output().stdout.clone()).unwrap();
    assert!(svg.contains("<svg"));
    // The start, the six reveals and the deepest node (4 moves) marked.
    assert!(svg.contains(">start</text>"));
    assert_eq!(svg.matches(">reveal</text>").count(), 5);
    assert!(svg.contains(">reveal, deepest, 4 moves</text>"));
    // -o OUT.svg draws too.
    let out = dir.path().join("tiny.svg");
    spider()
        .args(["graph", "-o"])
        .arg(&out)
        .arg(&deal)
        .assert()
        .code(0);
    assert!(std::fs::read_to_string(&out).unwrap().contains("<svg"));
}

/// `spider play FILE --html` of a live game: the page is written at the
/// start and again after every move, undo or fix, so it holds the game so
/// far when the game stops; it steps through each move played, with the
/// cards the player typed, and shows the cards never seen face down.
#[test]
fn play_writes_a_page_of_the_live_game_with_each_move() {
    let dir = crate::scratch();
    let seen = dir.path().join("seen.yaml");
    spider()
        .args(["deal", "--number", "1", "--suits", "2", "--as-seen", "-o"])
        .arg(&seen)
        .assert()
        .code(0);
    let page = dir.path().join("live.html");
    // 9-6/1 turns up 5♥; 6-3 (its count found: 3♥ 2♥) turns up Q♥, is
    // undone and played again; then the player quits.
    let output = spider()
        .arg("play")
        .arg(&seen)
        .args(crate::QUICK_PLAYER)
        .arg("--html")
        .arg(&page)
        .write_stdin("9-6/1\n5h\n6-3\nQH\nundo\n6-3\nQH\nquit\n")
        .output()
        .unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert_eq!(output.status.code(), Some(3), "{stdout}");
    let html = std::fs::read_to_string(&page).unwrap();
    no_network(&html);
    assert!(html.contains("data-moves=\"2\""), "{html}");
    assert!(html.contains("seen.yaml: a live game</title>"), "{html}");
    assert!(
        html.contains("\"text\":\"1. 2♥ from pile 9 onto 3♥ on pile 6; turned up 5♥\""),
        "{html}"
    );
    assert!(
        html.contains("\"text\":\"2. 3♥ 2♥ from pile 6 onto 4♥ on pile 3; turned up Q♥\""),
        "{html}"
    );
    assert!(html.contains(">9-6/1 6-3/2</p>"), "{html}");
    assert!(stdout.contains("  undone: 6-3/2"), "{stdout}");
    // A second game may not replace the page without --force.
    spider()
        .arg("play")
        .arg(&seen)
        .arg("--html")
        .arg(&page)
        .write_stdin("quit\n")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("already exists; not written over"));
    // Standard output carries the game: the page needs a file.
    spider()
        .arg("play")
        .arg(&seen)
        .args(["--html", "-"])
        .write_stdin("quit\n")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("needs a file"));
    let Some(browser) = chromium() else {
        crate::skipped(
            "play_writes_a_page_of_the_live_game_with_each_move",
            "chromium",
            "the page was checked as text only",
        );
        return;
    };
    // 94 cards not seen at the start, 44 of them face down; each move
    // turned one up.
    for (mv, down) in [(0, 44), (1, 43), (2, 42)] {
        let attrs = shown(browser, &page, mv);
        assert_eq!(attrs["move"], mv);
        assert_eq!(attrs["face-down"], down, "after move {mv}");
        assert_eq!(attrs["stock-rows"], 5);
    }
}
