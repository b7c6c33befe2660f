//! `analyze` and `hint` on a position with many `XX` cards, as a player
//! has it mid-game (tests/data/mid-game/): a sample of completions, each
//! searched within a budget in positions, the ones left undecided counted
//! both ways in the share's interval and said so; the same answer on any
//! number of threads; a stop by Ctrl-C says what was finished.

use std::process::Command as StdCommand;
use std::time::Duration;

use assert_cmd::Command;

const TWO_SUIT_77: &str = "tests/data/mid-game/two-suit-77.yaml";

fn spider() -> Command {
    Command::cargo_bin("spider").unwrap()
}

/// 12 sampled completions of the 2-suit position, each within 30,000
/// positions: 6 are won within it (they need 17,000 to 29,000 with this
/// seed), 6 are not (31,000 to 51,000).
const TINY: [&str; 8] = [
    "--samples",
    "12",
    "--sample-max-positions",
    "30000",
    "--seed",
    "1",
    "-q",
    "--shorten-positions",
];

fn analyze(jobs: &str, json: bool) -> (Option<i32>, String) {
    let mut command = spider();
    command
        .args(["analyze", TWO_SUIT_77])
        .args(TINY)
        .args(["0", "-j", jobs]);
    if json {
        command.arg("--json");
    }
    let output = command.output().unwrap();
    (
        output.status.code(),
        String::from_utf8(output.stdout).unwrap(),
    )
}

/// The undecided completions are said plainly, with the budget, and the
/// interval runs from 6 of 12 won (their Wilson low end, 25 %) to 12 of 12
/// (100 %); undecided, exit 3.
#[test]
fn completions_undecided_at_the_budget_are_counted_both_ways() {
    let (code, text) = analyze("1", false);
    assert_eq!(code, Some(3), "{text}");
    assert!(
        text.contains(
            "verdict: undecided: winnable in 6 of 12 sampled completions, 50.0 % (6 of 12; 95 % CI 25.4–100.0 %)"
        ),
        "{text}"
    );
    assert!(
        text.contains("  winnable 6, unwinnable 0, undecided 6\n"),
        "{text}"
    );
    assert!(
        text.contains(
            "  6 of 12 sampled completions undecided at 30000 positions each: counted both ways (lost for the low end of the interval, won for its high end)\n"
        ),
        "{text}"
    );
    assert!(
        text.contains("  winnable share: 50.0 % (6 of 12; 95 % CI 25.4–100.0 %)\n"),
        "{text}"
    );
    let (_, json) = analyze("1", true);
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    let completions = &json["completions"];
    assert_eq!(completions["undecided"], 6);
    let low = completions["bounds"]["low"].as_f64().unwrap();
    assert!((low - 0.2538).abs() < 1e-3, "{low}");
    assert_eq!(completions["bounds"]["high"], 1.0);
    assert_eq!(completions["winnable_share"]["high"], 1.0);
    for c in completions["completions"].as_array().unwrap() {
        let analysis = &c["analysis"];
        if analysis["verdict"] == "undecided" {
            assert_eq!(analysis["stopped_by"], "positions");
            assert!(analysis["positions"].as_u64().unwrap() >= 30_000);
        } else {
            assert!(analysis["positions"].as_u64().unwrap() <= 30_000);
        }
    }
}

/// The budget is work, not time: one thread and two decide the same
/// completions the same way, with the same positions and lines.
#[test]
fn one_thread_and_two_give_the_same_answer() {
    let strip = |text: &str| {
        let json: serde_json::Value = serde_json::from_str(text).unwrap();
        let completions = &json["completions"];
        let each: Vec<_> = completions["completions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                (
                    c["cards"].clone(),
                    c["analysis"]["verdict"].clone(),
                    c["analysis"]["positions"].clone(),
                    c["analysis"]["line"].clone(),
                )
            })
            .collect();
        (
            json["headline"].clone(),
            completions["bounds"].clone(),
            each,
        )
    };
    let (one_code, one) = analyze("1", true);
    let (two_code, two) = analyze("2", true);
    assert_eq!(one_code, two_code);
    assert_eq!(strip(&one), strip(&two));
}

/// `hint` has the same flag with the same meaning and says the same of
/// its undecided completions.
#[test]
fn hint_says_its_undecided_completions_too() {
    let output = spider()
        .args(["hint", TWO_SUIT_77])
        .args(["--samples", "12", "--sample-max-positions", "30000"])
        .args(["--first-moves", "-j", "1"])
        .output()
        .unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    assert_eq!(output.status.code(), Some(0), "{text}");
    assert!(
        text.contains("winnable in 6, 50.0 % (6 of 12; 95 % CI 25.4–100.0 %), 6 undecided\n"),
        "{text}"
    );
    assert!(
        text.contains(
            "6 of 12 sampled completions undecided at 30000 positions each: counted both ways"
        ),
        "{text}"
    );
}

/// `hint` stopped by Ctrl-C while it decides its sample says how many of
/// the sample it decided, and exits 3, as its --help says.
#[test]
fn hint_stopped_by_ctrl_c_says_how_many_completions_it_decided() {
    let mut command = StdCommand::new(env!("CARGO_BIN_EXE_spider"));
    command.args(["hint", TWO_SUIT_77, "--samples", "5000", "-j", "1"]);
    let (code, text) = super::companion::interrupt_once(command, Duration::from_secs(3));
    assert_eq!(code, Some(3), "{text}");
    let (line, decided) = super::companion::decided_before_ctrl_c(&text);
    assert!(decided < 5000, "{line}");
    assert!(
        line.contains(" of 5000 sampled completions decided"),
        "{line}"
    );
}
