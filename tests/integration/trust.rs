//! What a newcomer must be able to trust, whatever they type: no command
//! writes over its input or replaces a file without `--force`, a batch
//! results file is never truncated nor mistaken for another file, every
//! numeric flag is read strictly, Ctrl-C stops any phase, hostile input
//! fails fast, a closed stdout ends quietly, and every `--help` states the
//! exit codes.

use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command as StdCommand, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use assert_cmd::Command;
use predicates::prelude::*;

use crate::NO_SHORTENING;
use proptest::prelude::*;
use spider_analyzer::deal::files;

fn spider() -> Command {
    Command::cargo_bin("spider").expect("the spider binary is built")
}

fn exe() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_spider"))
}

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

fn read(path: &Path) -> Vec<u8> {
    fs::read(path).expect("readable file")
}

/// The unwon game, copied into `dir` as `name`.
fn copy_deal(dir: &Path, name: &str) -> PathBuf {
    let path = dir.join(name);
    fs::copy(repo("deals/unwon-2017.yaml"), &path).expect("copy");
    path
}

/// Waits for `child` at most `limit`; kills it and fails if it runs longer.
fn wait_at_most(child: &mut Child, limit: Duration) -> ExitStatus {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            return status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            panic!("still running after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

// ---------------------------------------------------------------- outputs

#[test]
fn graph_refuses_to_write_onto_its_input() {
    let dir = crate::scratch();
    let deal = copy_deal(dir.path(), "X.yaml");
    let before = read(&deal);
    let link = dir.path().join("link.yaml");
    fs::hard_link(&deal, &link).unwrap();
    // However the input is spelled, and even with --force.
    for (output, force) in [
        ("X.yaml", false),
        ("X.yaml", true),
        ("./X.yaml", true),
        ("link.yaml", true),
    ] {
        let mut cmd = spider();
        cmd.current_dir(dir.path())
            .args(["graph", "X.yaml", "-o", output]);
        if force {
            cmd.arg("--force");
        }
        cmd.assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains(
                "is the input file X.yaml; not written over",
            ));
        assert_eq!(read(&deal), before, "{output}");
    }
    // convert, too.
    spider()
        .current_dir(dir.path())
        .args(["convert", "X.yaml", "--force", "-o", "link.yaml"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("is the input file"));
    assert_eq!(read(&deal), before);
}

#[test]
fn an_existing_output_is_replaced_only_with_force() {
    let dir = crate::scratch();
    let deal = copy_deal(dir.path(), "deal.yaml");
    let out = dir.path().join("out");
    let deal_arg = deal.to_str().unwrap();
    let out_arg = out.to_str().unwrap();
    let commands: [&[&str]; 3] = [
        &["graph", deal_arg, "-o", out_arg],
        &["convert", deal_arg, "-o", out_arg],
        &["deal", "--number", "1", "-o", out_arg],
    ];
    for args in commands {
        fs::write(&out, "keep me").unwrap();
        spider()
            .args(args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(
                "already exists; not written over (add --force to replace it)",
            ));
        assert_eq!(fs::read_to_string(&out).unwrap(), "keep me", "{args:?}");
        spider()
            .args(args)
            .arg("--force")
            .assert()
            .code(0)
            .stdout("");
        assert_ne!(fs::read_to_string(&out).unwrap(), "keep me", "{args:?}");
    }
    // Only the input and the output are left: no temporary file.
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 2);
}

#[test]
fn a_batch_results_file_identifies_itself_and_is_never_truncated() {
    let dir = crate::scratch();
    // A file that is not a results file is refused and left as it was, by
    // --output, by its old spelling --out, and by --summarize.
    let notes = dir.path().join("notes.txt");
    let text = "my notes\n{\"number\": 1}\nlast line without newline";
    fs::write(&notes, text).unwrap();
    for flag in ["-o", "--output", "--out"] {
        spider()
            .args(["batch", "--number", "1..2", "--suits", "1", flag])
            .arg(&notes)
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains(
                "notes.txt: not a spider batch results file (line 1 is not a result record)",
            ));
        assert_eq!(fs::read_to_string(&notes).unwrap(), text);
    }
    spider()
        .args(["batch", "--summarize"])
        .arg(&notes)
        .assert()
        .code(2);

    // A new results file starts with a header that says what it is; a torn
    // last line is kept (ended), never cut.
    let results = dir.path().join("r.jsonl");
    spider()
        .args(["batch", "--number", "1..2", "--suits", "1", "-j", "1"])
        .args(NO_SHORTENING)
        .arg("-o")
        .arg(&results)
        .assert()
        .code(0);
    let written = fs::read_to_string(&results).unwrap();
    let header = written.lines().next().unwrap();
    assert_eq!(
        header,
        format!(
            "{{\"spider_batch_results\":1,\"written_by\":\"spider {}\"}}",
            env!("CARGO_PKG_VERSION")
        )
    );
    assert_eq!(written.lines().count(), 3, "{written}");
    let torn = format!("{written}{{\"number\":3,\"sou");
    fs::write(&results, &torn).unwrap();
    spider()
        .args(["batch", "--number", "1..3", "--suits", "1"])
        .args(NO_SHORTENING)
        .arg("-o")
        .arg(&results)
        .assert()
        .code(0)
        .stderr(predicate::str::contains("line 4: torn last line"))
        .stdout(predicate::str::contains("deals                3"));
    let after = fs::read_to_string(&results).unwrap();
    assert!(after.starts_with(&format!("{torn}\n")), "{after}");
    assert_eq!(after.lines().count(), 5, "{after}");
}

// ---------------------------------------------------------------- flags

#[test]
fn numeric_flags_are_strict() {
    let deal = repo("deals/fresh-1-suit.yaml");
    let deal = deal.to_str().unwrap();
    let cases: [(&[&str], &str, &str); 9] = [
        (&["analyze", deal], "--time-limit", "0 (no limit)"),
        (&["analyze", deal], "--max-positions", "0 (no limit)"),
        (&["analyze", deal], "--memory-limit", "0 (no limit)"),
        (&["analyze", deal], "--max-completions", "0 (no limit)"),
        (&["analyze", deal], "--jobs", "from 1 to 1024"),
        (&["batch", "--number", "1"], "--time-limit", "0 (no limit)"),
        (
            &["batch", "--number", "1"],
            "--max-positions",
            "0 (no limit)",
        ),
        (&["batch", "--number", "1"], "--jobs", "from 1 to 1024"),
        (&["graph", deal], "--max-nodes", "0 (no limit)"),
    ];
    for (command, flag, range) in cases {
        for value in ["-1", "nan", "inf", "1e30", "99999999999999999999", "ten"] {
            spider()
                .args(command)
                .arg(format!("{flag}={value}"))
                .assert()
                .code(2)
                .stdout("")
                .stderr(predicate::str::contains(flag))
                .stderr(predicate::str::contains(range))
                .stderr(predicate::str::contains("panicked").not());
        }
    }
}

#[test]
fn the_room_flag_names_its_choices() {
    let deal = repo("deals/fresh-1-suit.yaml");
    for value in ["sometimes", "", "Deals"] {
        spider()
            .args(["analyze", deal.to_str().unwrap()])
            .arg(format!("--room={value}"))
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains("--room"))
            .stderr(predicate::str::contains(
                "expected never, start, deals, entries or last",
            ))
            .stderr(predicate::str::contains("panicked").not());
    }
}

#[test]
fn zero_means_no_limit_in_every_help() {
    for (command, flags) in [
        (
            "analyze",
            &[
                "--time-limit",
                "--max-positions",
                "--memory-limit",
                "--max-completions",
                "--verify-moves",
            ][..],
        ),
        (
            "hint",
            &[
                "--time-limit",
                "--max-positions",
                "--memory-limit",
                "--max-completions",
                "--verify-moves",
            ][..],
        ),
        ("batch", &["--time-limit", "--max-positions"][..]),
        ("graph", &["--max-nodes"][..]),
    ] {
        let help = spider().args([command, "--help"]).output().unwrap();
        let help = String::from_utf8(help.stdout).unwrap();
        for flag in flags {
            let at = help.find(&format!("{flag} <")).expect(flag);
            let entry = &help[at..];
            let end = entry[1..].find("\n  -").map_or(entry.len(), |n| n + 1);
            assert!(
                entry[..end].contains("0 for no limit"),
                "{command} {flag}: {}",
                &entry[..end]
            );
        }
    }
    // 0 really is no limit: a graph with --max-nodes 0 is drawn whole.
    spider()
        .args([
            "graph",
            "deals/unwon-2017.yaml",
            "--stats",
            "--max-nodes",
            "0",
        ])
        .current_dir(repo(""))
        .assert()
        .code(0)
        .stdout(predicate::str::contains("nodes:        2760 positions"));
}

#[test]
fn flags_are_spelled_alike() {
    // -j everywhere --jobs is; batch's budgets default as analyze's: work
    // (20 M positions), no deadline.
    for command in ["analyze", "batch"] {
        let help = spider().args([command, "--help"]).output().unwrap();
        let help = String::from_utf8(help.stdout).unwrap();
        assert!(help.contains("-j, --jobs <N>"), "{command}");
        for (flag, default) in [
            ("--time-limit <SECS>", "[default: 0]"),
            ("--max-positions <N>", "[default: 20000000]"),
            ("--shorten-positions <N>", "[default: 1500000]"),
            ("--memory-limit <SIZE>", "[default: auto]"),
        ] {
            let at = help.find(flag).expect(flag);
            let entry = &help[at..];
            let end = entry[1..].find("\n  -").map_or(entry.len(), |n| n + 1);
            assert!(
                entry[..end].contains(default),
                "{command} {flag}: {}",
                &entry[..end]
            );
        }
    }
    // -o/--output in batch; the old --out still works but is not shown.
    let help = spider().args(["batch", "--help"]).output().unwrap();
    let help = String::from_utf8(help.stdout).unwrap();
    assert!(help.contains("-o, --output <FILE>"), "{help}");
    assert!(!help.contains("--out "), "{help}");
    spider()
        .args(["analyze", "deals/fresh-1-suit.yaml", "-q", "-j", "1"])
        .args(NO_SHORTENING)
        .current_dir(repo(""))
        .assert()
        .code(0);
}

// ---------------------------------------------------------------- input

#[test]
fn check_and_analyze_read_standard_input() {
    let yaml = fs::read_to_string(repo("deals/unwon-2017.yaml")).unwrap();
    spider()
        .args(["check", "-"])
        .write_stdin(yaml)
        .assert()
        .code(0)
        .stdout(predicate::str::starts_with(
            "<stdin>: 4 suits (2 copies of each card): 104 cards, 4 of them XX",
        ));
    let clips = fs::read_to_string(repo("deals/unwon-2017.clips")).unwrap();
    spider()
        .args(["check", "-"])
        .write_stdin(clips)
        .assert()
        .code(0);
    spider()
        .args(["analyze", "-", "-q"])
        .args(NO_SHORTENING)
        .write_stdin(fs::read_to_string(repo("deals/fresh-1-suit.yaml")).unwrap())
        .assert()
        .code(0)
        .stdout(predicate::str::starts_with(
            "deal: <stdin> (1 suit, standard rules, 5 stock rows, 0 runs removed)\nconsistency: consistent\nverdict: winnable\n",
        ));
    spider()
        .args(["check", "-"])
        .write_stdin("suits: 4\npiles: [\n")
        .assert()
        .code(2)
        .stderr(predicate::str::starts_with("spider: error: <stdin>:"));
}

#[test]
fn a_byte_order_mark_is_accepted_in_both_formats() {
    let dir = crate::scratch();
    for name in ["unwon-2017.clips", "unwon-2017.yaml"] {
        let mut bytes = b"\xef\xbb\xbf".to_vec();
        bytes.extend(read(&repo(&format!("deals/{name}"))));
        let path = dir.path().join(name);
        fs::write(&path, bytes).unwrap();
        spider()
            .arg("check")
            .arg(&path)
            .assert()
            .code(0)
            .stdout(predicate::str::contains("\nconsistent\n"));
    }
}

#[test]
fn hostile_yaml_fails_in_well_under_a_second() {
    let dir = crate::scratch();
    // 200 KB of nested brackets took 55 s before failing.
    let nested = dir.path().join("nested.yaml");
    fs::write(
        &nested,
        format!("piles: {}{}\n", "[".repeat(100_000), "]".repeat(100_000)),
    )
    .unwrap();
    let big = dir.path().join("big.yaml");
    fs::write(&big, format!("# {}\n", "x".repeat(2 << 20))).unwrap();
    for (path, message) in [
        (&nested, "nested.yaml:1:1008: more than 1000 `[` and `{`"),
        (&big, "big.yaml: larger than 256 KiB"),
    ] {
        let start = Instant::now();
        spider()
            .arg("check")
            .arg(path)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(message));
        assert!(start.elapsed() < Duration::from_secs(1), "{message}");
    }
}

#[test]
fn ctrl_c_stops_reading_the_input_at_once() {
    // The shell starts spider with SIGINT ignored, as a background job of a
    // script is; it reads a deal from a pipe that never ends. Ctrl-C
    // (SIGINT) must still stop it at once, with 130.
    let mut child = StdCommand::new("sh")
        .args(["-c", "trap '' INT; exec \"$0\" analyze -"])
        .arg(exe())
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"suits: 4\n").unwrap();
    let pid = child.id().to_string();
    let start = Instant::now();
    // Send until it ends: the first signals may arrive before the handler.
    let status = loop {
        std::thread::sleep(Duration::from_millis(200));
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > Duration::from_secs(5) {
            let _ = child.kill();
            panic!("Ctrl-C did not stop `spider analyze -` while it read its input");
        }
        let _ = StdCommand::new("kill").args(["-INT", &pid]).status();
    };
    drop(stdin);
    assert_eq!(status.code(), Some(130));
}

// ---------------------------------------------------------------- pipes

#[test]
fn a_closed_stdout_ends_every_command_quietly() {
    let deal = repo("deals/unwon-2017.yaml");
    let fresh = repo("deals/fresh-1-suit.yaml");
    let (deal, fresh) = (deal.to_str().unwrap(), fresh.to_str().unwrap());
    let dir = crate::scratch();
    let moves = dir.path().join("moves.txt");
    fs::write(&moves, "1-2/1\n").unwrap();
    let moves = moves.to_str().unwrap();
    let commands: [&[&str]; 12] = [
        &["analyze", "--json", "--time-limit", "1", "--no-completions"],
        &["analyze", fresh, "--shorten-positions", "0"],
        &["check", deal],
        &["check", "--json", deal],
        &["convert", deal],
        &["graph", deal],
        &["graph", "--stats", deal],
        &["deal", "--number", "1"],
        &[
            "batch",
            "--number",
            "1..2",
            "--suits",
            "1",
            "--shorten-positions",
            "0",
        ],
        &["replay", fresh, moves],
        &["queens", "6", "--all"],
        &["quiz"],
    ];
    for args in commands {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let mut child = StdCommand::new(exe())
            .args(args)
            .stdout(writer)
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let status = wait_at_most(&mut child, Duration::from_secs(60));
        let mut stderr = String::new();
        std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
        assert_eq!(status.code(), Some(0), "{args:?}: {stderr}");
        assert_eq!(stderr, "", "{args:?}");
    }
}

// ---------------------------------------------------------------- help

/// The subcommands `spider --help` lists.
fn subcommands() -> Vec<String> {
    let help = spider().arg("--help").output().unwrap();
    let help = String::from_utf8(help.stdout).unwrap();
    let list = &help[help.find("Commands:").expect("a command list")..];
    list.lines()
        .skip(1)
        .take_while(|line| line.starts_with("  "))
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_string)
        .collect()
}

#[test]
fn every_help_states_the_exit_codes() {
    let commands = subcommands();
    assert!(commands.len() >= 9, "{commands:?}");
    let top = spider().arg("--help").output().unwrap();
    let top = String::from_utf8(top.stdout).unwrap();
    for code in ["  0  ", "  1  ", "  2  ", "  3  ", "  130  "] {
        assert!(top.contains(code), "spider --help: {code}");
    }
    for command in commands {
        let help = spider().args([&command, "--help"]).output().unwrap();
        assert_eq!(help.status.code(), Some(0));
        let help = String::from_utf8(help.stdout).unwrap();
        let codes = &help[help
            .find("Exit status, the same in every command:\n")
            .unwrap_or_else(|| panic!("spider {command} --help states no exit codes"))..];
        // The table of docs/commands.md, word for word, then this
        // command's own lines.
        for (code, meaning) in exit_table() {
            assert!(
                codes.contains(&format!("\n  {code:<4} {meaning}\n")),
                "{command}: {code} {meaning}\n{codes}"
            );
        }
        assert!(
            codes.contains("For this command:\n  0  "),
            "{command}: {codes}"
        );
    }
}

/// The rows of the exit-code table of docs/commands.md.
fn exit_table() -> Vec<(String, String)> {
    let text = std::fs::read_to_string(repo("docs/commands.md")).unwrap();
    let table = text.split("## Exit codes").nth(1).unwrap();
    let rows: Vec<(String, String)> = table
        .lines()
        .skip_while(|l| !l.starts_with("|---:"))
        .skip(1)
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            (cells[1].to_string(), cells[2].to_string())
        })
        .collect();
    assert_eq!(rows.len(), 5, "{rows:?}");
    rows
}

#[test]
fn the_docs_each_help_points_to_exist() {
    for command in subcommands() {
        let help = spider().args([&command, "--help"]).output().unwrap();
        let help = String::from_utf8(help.stdout).unwrap();
        for word in help.split(|c: char| c.is_whitespace() || c == '(' || c == ')') {
            let word = word.trim_end_matches(['.', ',', ';', ':']);
            if word.starts_with("docs/") {
                assert!(repo(word).is_file(), "spider {command} --help: {word}");
            }
        }
    }
    let quiz = spider().args(["quiz", "--help"]).output().unwrap();
    assert!(
        String::from_utf8(quiz.stdout)
            .unwrap()
            .contains("docs/explore.md")
    );
}

// ---------------------------------------------------------------- fuzzing

/// The valid deal files the mutations start from.
fn seeds() -> Vec<(&'static str, Vec<u8>)> {
    ["unwon-2017.yaml", "unwon-2017.clips", "mid-game.yaml"]
        .into_iter()
        .map(|name| (name, read(&repo(&format!("deals/{name}")))))
        .collect()
}

/// One way to damage a file.
#[derive(Clone, Debug)]
enum Mutation {
    /// Replace the byte at (a fraction of the length) with a byte.
    Flip(f64, u8),
    /// Keep only the first fraction of the file.
    Truncate(f64),
    /// Repeat the range between two fractions, in place.
    Duplicate(f64, f64),
    /// Insert `n` opening brackets (or parentheses) at a fraction.
    Nest(f64, usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (0.0..1.0f64, any::<u8>()).prop_map(|(at, byte)| Mutation::Flip(at, byte)),
        (
            0.0..1.0f64,
            prop::sample::select(&b"[]{}()-:,# \n\"'XxSsHh0123456789"[..])
        )
            .prop_map(|(at, byte)| Mutation::Flip(at, byte)),
        (0.0..1.0f64).prop_map(Mutation::Truncate),
        (0.0..1.0f64, 0.0..1.0f64).prop_map(|(a, b)| Mutation::Duplicate(a, b)),
        (0.0..1.0f64, 1..3000usize).prop_map(|(at, n)| Mutation::Nest(at, n)),
    ]
}

fn apply(bytes: &mut Vec<u8>, mutation: &Mutation, clips: bool) {
    let at = |f: f64, len: usize| ((f * len as f64) as usize).min(len);
    match *mutation {
        Mutation::Flip(f, byte) => {
            let i = at(f, bytes.len()).min(bytes.len().saturating_sub(1));
            if let Some(b) = bytes.get_mut(i) {
                *b = byte;
            }
        }
        Mutation::Truncate(f) => bytes.truncate(at(f, bytes.len())),
        Mutation::Duplicate(a, b) => {
            let (a, b) = (at(a.min(b), bytes.len()), at(a.max(b), bytes.len()));
            let copy = bytes[a..b].to_vec();
            bytes.splice(b..b, copy);
        }
        Mutation::Nest(f, n) => {
            let i = at(f, bytes.len());
            let open = if clips { b'(' } else { b'[' };
            bytes.splice(i..i, std::iter::repeat_n(open, n));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    /// A damaged deal file is read without panicking, fast: either a valid
    /// deal or an error that names the file, and a line within the file
    /// where it gives one.
    #[test]
    fn damaged_deal_files_never_panic(
        seed in 0..3usize,
        mutations in prop::collection::vec(mutation(), 1..4),
    ) {
        let (name, mut bytes) = seeds().swap_remove(seed);
        let clips = name.ends_with(".clips");
        for m in &mutations {
            apply(&mut bytes, m, clips);
        }
        let start = Instant::now();
        let result = files::load_from(&bytes[..], Path::new(name));
        prop_assert!(start.elapsed() < Duration::from_secs(1));
        match result {
            Ok(deal) => prop_assert!(deal.validate().is_ok()),
            Err(err) => {
                prop_assert!(err.to_string().starts_with(name), "{err}");
                if let Some(line) = err.line {
                    let lines = bytes.iter().filter(|&&b| b == b'\n').count() + 1;
                    prop_assert!(line >= 1 && line <= lines, "{err} ({lines} lines)");
                    prop_assert!(err.column.is_some_and(|c| c >= 1), "{err}");
                }
            }
        }
    }
}

#[test]
fn damaged_deal_files_through_the_command_line() {
    // A few damaged files through the real executable: exit 0/1 (a deal
    // read) or 2 (an error naming the file), never a panic.
    let dir = crate::scratch();
    let mutations = [
        Mutation::Truncate(0.5),
        Mutation::Nest(0.3, 2000),
        Mutation::Duplicate(0.2, 0.6),
        Mutation::Flip(0.4, 0xff),
        Mutation::Flip(0.1, b'['),
    ];
    for (name, bytes) in seeds() {
        for (i, m) in mutations.iter().enumerate() {
            let mut damaged = bytes.clone();
            apply(&mut damaged, m, name.ends_with(".clips"));
            let path = dir.path().join(format!("{i}-{name}"));
            fs::write(&path, &damaged).unwrap();
            let output = spider().arg("check").arg(&path).output().unwrap();
            let stderr = String::from_utf8_lossy(&output.stderr);
            let code = output.status.code();
            assert!(
                matches!(code, Some(0..=2)),
                "{m:?} {name}: {code:?} {stderr}"
            );
            if code == Some(2) {
                let expected = format!("spider: error: {}", path.display());
                assert!(stderr.starts_with(&expected), "{m:?} {name}: {stderr}");
            }
        }
    }
}
