//! A game saved at a `spider play` prompt and resumed: the file keeps the
//! count of moves played (`moves_played:`), the resumed game numbers its
//! moves on from it, and a bad count is refused with its file, line and
//! column (exit 2). A file without the key starts at move 1, as before.

use assert_cmd::Command;
use spider_analyzer::cards::SuitCount;
use spider_analyzer::deal::{Rules, numbered, yaml};
use spider_analyzer::unknown::view::View;

use crate::QUICK_PLAYER as QUICK;

fn spider() -> Command {
    Command::cargo_bin("spider").unwrap()
}

/// `spider play FILE` at the quick settings: its exit code and standard output.
fn play(path: &std::path::Path, stdin: &str) -> (Option<i32>, String) {
    play_with(path, stdin, &[])
}

fn play_with(path: &std::path::Path, stdin: &str, extra: &[&str]) -> (Option<i32>, String) {
    let (code, out, _) = crate::companion::play(path, stdin, extra);
    (code, out)
}

/// Own 2-suit deal 1 as its player sees it, after `moves` moves (the
/// count only: the position is the fresh deal's). Its real face-down
/// cards: pile 6 `9S 8H 9H QH` (QH under 3♥), pile 9 `JH 10H 5H 5H` (5H
/// under 2♥).
fn seen(dir: &tempfile::TempDir, name: &str, moves: usize) -> std::path::PathBuf {
    let deal = numbered::deal(1, SuitCount::Two, Rules::Standard);
    let mut seen = View::of(&deal).unwrap().deal();
    seen.moves_played = moves;
    let path = dir.path().join(name);
    std::fs::write(&path, yaml::to_string(&seen)).unwrap();
    path
}

/// The player plays 6-3 (Q♥ turns up) and saves: the file says
/// `moves_played: 1`. Resumed, the game says where the file stands and
/// suggests move 2; `undo` has nothing of this session to take back (and
/// asks the same question again); 9-3/1 turns up 5♥, the next suggestion
/// is move 3, and the second save and the summary count 2 moves, 1 of
/// them in this session.
#[test]
fn a_saved_game_resumes_at_the_next_move_number() {
    let dir = crate::scratch();
    let path = seen(&dir, "seen.yaml", 0);
    let first = dir.path().join("first.yaml");
    let (code, text) = play(&path, &format!("6-3\nQH\nsave {}\nquit\n", first.display()));
    assert_eq!(code, Some(3), "{text}");
    assert!(text.contains("move 1: "), "{text}");
    assert!(text.contains("\nmove 2: "), "{text}");
    let saved = std::fs::read_to_string(&first).unwrap();
    assert!(
        saved.starts_with(&format!(
            "# {}: the position after 1 move (spider play resumes it)\n",
            path.display()
        )),
        "{saved}"
    );
    assert!(
        saved.ends_with(
            "\nmoves_played: 1    # moves played so far; `spider play` numbers the next one 2\n"
        ),
        "{saved}"
    );
    assert_eq!(yaml::from_str(&saved, &first).unwrap().moves_played, 1);

    let second = dir.path().join("second.yaml");
    let (code, text) = play(
        &first,
        &format!("undo\n9-3/1\n5H\nsave {}\nquit\n", second.display()),
    );
    assert_eq!(code, Some(3), "{text}");
    assert!(
        text.contains(
            "the file's position is after move 1 (its `moves_played`): the next move is move 2\n"
        ),
        "{text}"
    );
    assert!(!text.contains("move 1: "), "{text}");
    assert!(
        text.contains("  nothing to undo: no move played in this session (the file's position is after move 1; its moves are not known)\n"),
        "{text}"
    );
    // Nothing undone: the question is asked again, not the move suggested anew.
    assert_eq!(text.matches("\nmove 2: ").count(), 1, "{text}");
    assert!(text.contains("  turned up: 5♥\n"), "{text}");
    assert!(text.contains("\nmove 3: "), "{text}");
    assert!(
        text.contains(&format!(
            "quit: stopped after 2 moves, 1 in this session; 0 runs removed, 92 cards not seen yet; saved in {} after move 2\n",
            second.display()
        )),
        "{text}"
    );
    let back = yaml::from_str(&std::fs::read_to_string(&second).unwrap(), &second).unwrap();
    assert_eq!(back.moves_played, 2);
    assert_eq!(back.stock.len(), 5);
}

/// A player who saved at move 40 is offered move 41; the end of input
/// counts all 40 and the one played here, and the page of the game says
/// where its steps start.
#[test]
fn a_game_saved_at_move_40_goes_on_with_move_41() {
    let dir = crate::scratch();
    let path = seen(&dir, "forty.yaml", 40);
    let page = dir.path().join("game.html");
    let (code, text) = play_with(&path, "9-6/1\n5H\n", &["--html", page.to_str().unwrap()]);
    let page = std::fs::read_to_string(&page).unwrap();
    // The caption, as the page escapes it.
    assert!(
        page.contains("<p>1 move played from the file&#39;s position after move 40 (the page&#39;s steps count from there), as the player told the companion;"),
        "{page}"
    );
    assert_eq!(code, Some(3), "{text}");
    assert!(text.contains("\nmove 41: "), "{text}");
    assert!(text.contains("  turned up: 5♥\n"), "{text}");
    assert!(text.contains("\nmove 42: "), "{text}");
    assert!(
        text.contains("end of input: stopped after 41 moves, 1 in this session; 0 runs removed, 93 cards not seen yet\n"),
        "{text}"
    );
}

/// A file without `moves_played` is read as before (move 1 first), and
/// `convert` keeps the key of a file that has it.
#[test]
fn files_without_the_count_start_at_move_one_and_convert_keeps_it() {
    let dir = crate::scratch();
    let path = seen(&dir, "fresh.yaml", 0);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(!text.contains("moves_played"), "{text}");
    let (code, out) = play(&path, "");
    assert_eq!(code, Some(3), "{out}");
    assert!(out.contains("\nmove 1: "), "{out}");
    assert!(!out.contains("the file's position is after move"), "{out}");

    let path = seen(&dir, "seven.yaml", 7);
    let output = spider().arg("convert").arg(&path).output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    let converted = String::from_utf8(output.stdout).unwrap();
    assert!(
        converted.contains("\nmoves_played: 7    # moves played so far"),
        "{converted}"
    );
}

/// A count that is not a whole number from 0 to 99999 is refused where it
/// stands, by `play` and by every command that reads the file: exit 2,
/// file, line and column, nothing played.
#[test]
fn a_bad_moves_played_is_refused_with_its_line_and_column() {
    let dir = crate::scratch();
    let base = std::fs::read_to_string("deals/fresh-2-suit.yaml").unwrap();
    let line = base.lines().count() + 1;
    for (value, column, why) in [
        (
            "-3",
            15,
            "`-3` is not a number of moves: expected the moves played so far, a whole number from 0 to 99999",
        ),
        (
            "forty",
            15,
            "`forty` is not a number of moves: expected the moves played so far, a whole number from 0 to 99999",
        ),
        (
            "1.5",
            15,
            "`1.5` is not a number of moves: expected the moves played so far, a whole number from 0 to 99999",
        ),
        (
            "100000",
            15,
            "`100000` is not a number of moves: expected the moves played so far, a whole number from 0 to 99999",
        ),
        (
            "[40]",
            15,
            "invalid type: sequence, expected the number of moves played so far, like 40",
        ),
    ] {
        let path = dir.path().join("bad.yaml");
        std::fs::write(&path, format!("{base}moves_played: {value}\n")).unwrap();
        let expected = format!(
            "spider: error: {}:{line}:{column}: moves_played: {why}\n",
            path.display()
        );
        for command in ["play", "check", "analyze"] {
            let output = spider()
                .arg(command)
                .arg(&path)
                .args(if command == "play" { &QUICK[..] } else { &[] })
                .write_stdin("")
                .output()
                .unwrap();
            assert_eq!(output.status.code(), Some(2), "{command} {value}");
            assert!(output.stdout.is_empty(), "{command} {value}");
            assert_eq!(
                String::from_utf8(output.stderr).unwrap(),
                expected,
                "{command} {value}"
            );
        }
    }
    // Twice is once too often.
    let path = dir.path().join("twice.yaml");
    std::fs::write(&path, format!("{base}moves_played: 4\nmoves_played: 5\n")).unwrap();
    let output = spider().arg("check").arg(&path).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.starts_with(&format!("spider: error: {}:", path.display()))
            && stderr.ends_with(": duplicate field `moves_played`\n"),
        "{stderr}"
    );
}
