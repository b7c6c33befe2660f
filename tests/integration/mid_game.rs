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

/// Runs spider with `args`, sends Ctrl-C once its standard error (not a
/// terminal) logs a line containing `marker`, and returns its exit code
/// and standard output.
fn interrupt_when_logged(args: &[&str], marker: &str) -> (Option<i32>, String) {
    use std::io::{BufRead, Read};
    let mut child = StdCommand::new(env!("CARGO_BIN_EXE_spider"))
        .args(args)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut log = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    loop {
        line.clear();
        assert!(
            log.read_line(&mut line).unwrap() > 0,
            "`{marker}` was never logged"
        );
        if line.contains(marker) {
            break;
        }
    }
    let _ = StdCommand::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status();
    // The rest of the log, so that the child never waits on a full pipe.
    let drain = std::thread::spawn(move || {
        let mut rest = String::new();
        let _ = log.read_to_string(&mut rest);
    });
    let mut text = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut text)
        .unwrap();
    let code = child.wait().unwrap().code();
    drain.join().unwrap();
    (code, text)
}

/// The line of `text` that says Ctrl-C stopped the tries of the moves of
/// a hint over `samples` sampled completions, and after how many of its
/// 14 moves.
fn tries_cut(text: &str, samples: usize) -> (&str, usize) {
    let said = format!(
        "stopped by Ctrl-C while each move was tried: the {samples} sampled completions decided (the share is complete); the moves' tries were cut after "
    );
    let said = said.as_str();
    let stop = text
        .lines()
        .find(|l| l.starts_with(said))
        .unwrap_or_else(|| panic!("{text}"));
    let moves: usize = stop[said.len()..]
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(moves < 14, "{stop}");
    assert!(stop.contains(&format!("{moves} of 14 moves (")), "{stop}");
    (stop, moves)
}

/// `analyze --hint --verify-moves 0` stopped by Ctrl-C while it tries
/// each move (its 60
/// sampled completions all decided, 767 tries of a move in a completion
/// planned, about 45 s of one core) says so: the share is complete, the
/// tries were cut after M of the 14 moves; it exits 3 (Ctrl-C stopped
/// it), as its --help says. The signal is sent once standard error logs
/// the tries (`--progress-every 1`), so the sample is done by then.
/// [`analyze_hint_of_30_stopped_by_ctrl_c_while_it_tries_the_moves_says_so`]
/// is the same over 30 completions, in half the time.
#[test]
#[ignore = "slow: runs with `cargo test -- --ignored` (CI runs it)"]
fn analyze_hint_stopped_by_ctrl_c_while_it_tries_the_moves_says_so() {
    analyze_hint_interrupted(60);
}

#[test]
fn analyze_hint_of_30_stopped_by_ctrl_c_while_it_tries_the_moves_says_so() {
    analyze_hint_interrupted(30);
}

fn analyze_hint_interrupted(samples: usize) {
    let samples_text = samples.to_string();
    let (code, text) = interrupt_when_logged(
        &[
            "analyze",
            TWO_SUIT_77,
            "--hint",
            "--samples",
            &samples_text,
            "--verify-moves",
            "0",
            "-j",
            "1",
            "--seed",
            "1",
            "--progress-every",
            "1",
            "-q",
        ],
        ": hint: ",
    );
    assert_eq!(code, Some(3), "{text}");
    let (stop, _) = tries_cut(&text, samples);
    // The verdict line says it too, over the whole sample; nothing says
    // the sample was cut.
    let verdict = text.lines().find(|l| l.starts_with("verdict: ")).unwrap();
    assert!(
        verdict.contains(&format!(" of {samples} sampled completions, "))
            && verdict.contains(&format!("({stop})")),
        "{verdict}"
    );
    assert!(!text.contains("stopped by Ctrl-C: "), "{text}");
    assert!(text.contains("move to play now: "), "{text}");
}

/// `hint` says the same when Ctrl-C stops it while it tries each move,
/// and exits 3, as its --help says (over 60 completions;
/// [`hint_of_30_stopped_by_ctrl_c_while_it_tries_the_moves_says_so`]
/// over 30).
#[test]
#[ignore = "slow: runs with `cargo test -- --ignored` (CI runs it)"]
fn hint_stopped_by_ctrl_c_while_it_tries_the_moves_says_so() {
    hint_interrupted(60);
}

#[test]
fn hint_of_30_stopped_by_ctrl_c_while_it_tries_the_moves_says_so() {
    hint_interrupted(30);
}

fn hint_interrupted(samples: usize) {
    let samples_text = samples.to_string();
    let (code, text) = interrupt_when_logged(
        &[
            "hint",
            TWO_SUIT_77,
            "--samples",
            &samples_text,
            "--verify-moves",
            "0",
            "-j",
            "1",
            "--progress-every",
            "1",
        ],
        " moves tried in ",
    );
    assert_eq!(code, Some(3), "{text}");
    tries_cut(&text, samples);
    assert!(
        text.contains(&format!("sample: {samples} completions drawn uniformly")),
        "{text}"
    );
    assert!(!text.contains("stopped by Ctrl-C: "), "{text}");
}
