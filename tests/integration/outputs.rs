//! Outputs that never clobber and fail before the work, and messages that
//! read well (issue 48, points 2, 4 and 5), tested on the real executable
//! with real FIFOs, symbolic links and a locked results file.

use std::fs;
use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};
use std::process::{Command as StdCommand, Stdio};
use std::time::{Duration, Instant};

use assert_cmd::Command;

fn spider() -> Command {
    Command::cargo_bin("spider").expect("the spider binary is built")
}

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

fn stderr(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn mkfifo(path: &Path) {
    let status = StdCommand::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(status.success());
}

fn has_graphviz() -> bool {
    let found = StdCommand::new("dot").arg("-V").output().is_ok();
    if !found {
        eprintln!("note: Graphviz's dot is not installed; the SVG tests are skipped");
    }
    found
}

/// A missing directory or a directory as the output is refused at once,
/// before a search that would take its whole time limit.
#[test]
fn a_bad_output_path_fails_before_the_search() {
    let dir = crate::scratch();
    let missing = dir.path().join("no/such/dir/page.html");
    let started = Instant::now();
    let out = spider()
        .args([
            "analyze",
            "--no-completions",
            "--time-limit",
            "60",
            "--html",
        ])
        .arg(&missing)
        .output()
        .unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        format!(
            "spider: error: {}: no such directory: {}\n",
            missing.display(),
            missing.parent().unwrap().display()
        )
    );
    let out = spider()
        .arg("graph")
        .arg(repo("deals/unwon-2017.yaml"))
        .arg("-o")
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        format!(
            "spider: error: {}: is a directory; expected the name of a file to write\n",
            dir.path().display()
        )
    );
    // A results file in a missing directory: the reason said once.
    let results = dir.path().join("gone/results.jsonl");
    let out = spider()
        .args(["batch", "--number", "1..1", "--suits", "1", "-o"])
        .arg(&results)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        format!(
            "spider: error: {}: no such file or directory\n",
            results.display()
        )
    );
}

/// An output in a directory that refuses new files is refused at once
/// with exit 2, naming the path, before any search: the directory is
/// `/sys`, where not even root may create a file (`chmod 000` does not
/// stop root, and tests may run as root).
#[test]
fn an_output_without_permission_fails_before_the_search() {
    let test = "an_output_without_permission_fails_before_the_search";
    if !Path::new("/sys").is_dir() {
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr(),
            "skipped: {test}: there is no /sys, a directory nobody may create files in"
        );
        return;
    }
    let deal = repo("deals/unwon-2017.yaml");
    let cases: Vec<(Vec<&str>, &str)> = vec![
        // The built-in unwon game: its search takes tens of seconds.
        (vec!["analyze", "--html"], "/sys/spider-page.html"),
        (
            vec!["batch", "--number", "1..3", "--suits", "4", "-o"],
            "/sys/spider-results.jsonl",
        ),
        (
            vec!["batch", "--number", "1..3", "--suits", "4", "--html"],
            "/sys/spider-report.html",
        ),
        (
            vec![
                "batch", "--number", "1..3", "--suits", "4", "--hidden", "-o",
            ],
            "/sys/spider-blind.jsonl",
        ),
    ];
    for (args, path) in cases {
        let out = spider()
            .args(&args)
            .arg(path)
            .timeout(Duration::from_secs(60))
            .output()
            .unwrap();
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?} {path}: {err}");
        assert!(
            err.starts_with(&format!("spider: error: {path}: ")),
            "{err}"
        );
        assert!(err.contains("permission denied"), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        // Refused before the search: no verdict, no summary.
        assert!(
            out.stdout.is_empty(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stdout)
        );
    }
    let out = spider()
        .arg("graph")
        .arg(&deal)
        .args(["-o", "/sys/spider-graph.dot"])
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "spider: error: /sys/spider-graph.dot: cannot create a file in /sys: permission denied\n"
    );
    assert!(out.stdout.is_empty());
}

/// A count of one is said in the singular: "1 position", "1 suit".
#[test]
fn a_count_of_one_is_singular() {
    let dir = crate::scratch();
    // PySol 14934 is proved lost at the start, in one position.
    let deal = dir.path().join("14934.yaml");
    spider()
        .args(["deal", "--pysol", "14934", "-o"])
        .arg(&deal)
        .assert()
        .code(0);
    let out = spider().arg("analyze").arg(&deal).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("\nsearch: 1 position in "), "{text}");
    // A one-suit batch's report is titled "1 suit", not "1 suits" (the
    // win not shortened: 0.3 s of CPU instead of 6).
    let page = dir.path().join("report.html");
    spider()
        .args(["batch", "--number", "1..1", "--suits", "1"])
        .args(["--shorten-positions", "0", "--html"])
        .arg(&page)
        .assert()
        .code(0);
    let html = fs::read_to_string(&page).unwrap();
    assert!(
        html.contains("<title>Own deals 1, 1 suit</title>"),
        "{html}"
    );
    assert!(html.contains("of 1 deal decided"), "{html}");
}

/// A FIFO is written into, never replaced, with or without --force.
#[test]
fn a_fifo_is_written_into_not_replaced() {
    let dir = crate::scratch();
    let fifo = dir.path().join("deal.fifo");
    mkfifo(&fifo);
    for force in [false, true] {
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || fs::read_to_string(fifo).unwrap())
        };
        let mut command = spider();
        command.args(["deal", "--number", "7", "-o"]).arg(&fifo);
        if force {
            command.arg("--force");
        }
        let out = command.output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let read = reader.join().unwrap();
        assert!(read.starts_with("# spider deal --number 7"), "{read}");
        assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
    }
}

/// `-o -` is standard output: no file named `-` appears.
#[test]
fn dash_is_standard_output() {
    let dir = crate::scratch();
    let out = spider()
        .current_dir(dir.path())
        .args(["deal", "--number", "7", "-o", "-"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("# spider deal --number 7"));
    assert!(!dir.path().join("-").exists());
}

/// A symbolic link is written through with --force (the link stays, its
/// target gets the content), refused without; a link to nothing is refused.
#[test]
fn a_symlink_is_written_through_or_refused() {
    let dir = crate::scratch();
    let target = dir.path().join("target.yaml");
    let link = dir.path().join("link.yaml");
    fs::write(&target, "old").unwrap();
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let out = spider()
        .args(["deal", "--number", "7", "-o"])
        .arg(&link)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        format!(
            "spider: error: {}: already exists; not written over (add --force to replace it)\n",
            link.display()
        )
    );
    assert_eq!(fs::read_to_string(&target).unwrap(), "old");
    let out = spider()
        .args(["deal", "--number", "7", "--force", "-o"])
        .arg(&link)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(
        fs::read_to_string(&target)
            .unwrap()
            .starts_with("# spider deal --number 7")
    );

    let dangling = dir.path().join("dangling.yaml");
    std::os::unix::fs::symlink("nowhere.yaml", &dangling).unwrap();
    let out = spider()
        .args(["deal", "--number", "7", "--force", "-o"])
        .arg(&dangling)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        format!(
            "spider: error: {}: is a symbolic link to nowhere.yaml, which does not exist; not written through\n",
            dangling.display()
        )
    );
    assert!(!dir.path().join("nowhere.yaml").exists());
}

/// Results to /dev/stdout on a pipe: the batch writes and ends (it used to
/// block reading the pipe it writes to); the summary goes to stderr.
#[test]
fn batch_results_to_a_pipe_do_not_hang() {
    let out = spider()
        .args([
            "batch",
            "--number",
            "1..1",
            "--suits",
            "1",
            "--shorten-positions",
            "0",
            "-o",
            "/dev/stdout",
        ])
        .timeout(Duration::from_secs(120))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    assert!(
        lines[0].starts_with("{\"spider_batch_results\":1"),
        "{stdout}"
    );
    assert!(lines[1].starts_with("{\"number\":1,"), "{stdout}");
    assert!(
        stderr(&out).contains("deals                1\n"),
        "{}",
        stderr(&out)
    );
}

/// A results file another batch holds (here: this test holds its lock) is
/// refused at once, and left as it was.
#[test]
fn a_locked_results_file_is_refused() {
    let dir = crate::scratch();
    let results = dir.path().join("results.jsonl");
    let header = "{\"spider_batch_results\":1,\"written_by\":\"spider 0.1.0\"}\n";
    fs::write(&results, header).unwrap();
    let held = fs::OpenOptions::new().read(true).open(&results).unwrap();
    held.try_lock().expect("the test takes the lock");
    let out = spider()
        .args(["batch", "--number", "1..3", "--suits", "1", "-o"])
        .arg(&results)
        .timeout(Duration::from_secs(30))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        format!(
            "spider: error: {}: another spider batch is writing to this results file (it holds its lock); wait for it to finish, or choose another results file\n",
            results.display()
        )
    );
    assert_eq!(fs::read_to_string(&results).unwrap(), header);
    drop(held);
}

/// Too many positions for Graphviz: refused with the size and what to do.
#[test]
fn a_graph_too_large_to_draw_is_refused_with_its_size() {
    if !has_graphviz() {
        return;
    }
    let dir = crate::scratch();
    let svg = dir.path().join("unwon.svg");
    let out = spider()
        .arg("graph")
        .arg(repo("deals/unwon-2017.yaml"))
        .arg("-o")
        .arg(&svg)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let message = stderr(&out);
    assert!(
        message.starts_with(
            "spider: graph not drawn: it has 2760 positions and 20272 moves, more than the 250 moves Graphviz draws in reasonable time"
        ) && message.contains("or give --max-nodes 2760 to draw it anyway"),
        "{message}"
    );
    assert!(!svg.exists());
}

/// Ctrl-C while Graphviz draws: dot is stopped, nothing is written, exit 3.
#[test]
fn ctrl_c_while_graphviz_draws_writes_nothing() {
    if !has_graphviz() {
        return;
    }
    let dir = crate::scratch();
    let svg = dir.path().join("unwon.svg");
    let child = StdCommand::new(env!("CARGO_BIN_EXE_spider"))
        .arg("graph")
        .arg(repo("deals/unwon-2017.yaml"))
        .args(["--max-nodes", "0", "-o"])
        .arg(&svg)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id().to_string();
    // Wait until dot draws (it takes minutes on this graph); not the
    // `dot -V` that checks Graphviz is there, before anything watches
    // Ctrl-C.
    let started = Instant::now();
    while !StdCommand::new("pgrep")
        .args(["-P", &pid, "-f", "dot -Tsvg"])
        .stdout(Stdio::null())
        .status()
        .unwrap()
        .success()
    {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "dot never started"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    StdCommand::new("kill")
        .args(["-INT", &pid])
        .status()
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert_eq!(
        stderr(&out),
        "spider: graph stopped: Ctrl-C while Graphviz drew it (2760 positions); nothing written\n"
    );
    assert!(!svg.exists());
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
}

/// `graph --count` stops at its memory limit and reports what it counted.
#[test]
fn graph_count_stops_at_its_memory_limit() {
    let dir = crate::scratch();
    let deal = dir.path().join("deal7.yaml");
    spider()
        .args(["deal", "--number", "7", "-o"])
        .arg(&deal)
        .assert()
        .code(0);
    let out = spider()
        .arg("graph")
        .arg(&deal)
        .args(["--count", "-j", "1", "--memory-limit", "48M"])
        .timeout(Duration::from_secs(120))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert!(
        stderr(&out).starts_with("spider: count stopped: memory limit reached, after "),
        "{}",
        stderr(&out)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("(so far: incomplete)"));
}

/// Numbers out of range name the flag and its range, negative ones too.
#[test]
fn numbers_out_of_range_name_the_flag_and_range() {
    let cases: [(&[&str], &str); 8] = [
        (
            &["queens", "99999999999999999999"],
            "spider: error: invalid value '99999999999999999999' for '<N>': `99999999999999999999` is out of range; expected a whole number from 1 to 16\n",
        ),
        (
            &["analyze", "--samples", "99999999999999999999"],
            "spider: error: invalid value '99999999999999999999' for '--samples <N>': `99999999999999999999` is out of range; expected a whole number from 0 to 1000000\n",
        ),
        (
            &["analyze", "--time-limit", "-1"],
            "spider: error: invalid value '-1' for '--time-limit <SECS>': `-1` is out of range; expected 0 (no limit) or a number of seconds from 0.001 to 2592000\n",
        ),
        (
            &["deal", "--number", "18446744073709551616"],
            "spider: error: invalid value '18446744073709551616' for '--number <N>': `18446744073709551616` is out of range; expected a whole number from 0 to 18446744073709551615\n",
        ),
        // A PySol game number, in `deal` and `play` alike.
        (
            &["deal", "--pysol", "-1"],
            "spider: error: invalid value '-1' for '--pysol <N>': `-1` is not a whole number; expected a PySol game number from 0 to 100000000000000000000\n",
        ),
        (
            &["play", "--pysol", "100000000000000000001"],
            "spider: error: invalid value '100000000000000000001' for '--pysol <N>': `100000000000000000001` is out of range; expected a PySol game number from 0 to 100000000000000000000\n",
        ),
        // `play`'s seed and move limit as every command's.
        (
            &["play", "--pysol", "5", "--seed", "-1"],
            "spider: error: invalid value '-1' for '--seed <N>': `-1` is not a whole number; expected a whole number from 0 to 18446744073709551615\n",
        ),
        (
            &["play", "--pysol", "5", "--max-moves", "x"],
            "spider: error: invalid value 'x' for '--max-moves <N>': `x` is not a whole number; expected a whole number from 0 to 18446744073709551615\n",
        ),
    ];
    for (args, first_line) in cases {
        let out = spider().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let message = stderr(&out);
        assert!(message.starts_with(first_line), "{args:?}: {message}");
    }
}

/// Cards written as the tool prints them (`A♠`, `10♠`) are read.
#[test]
fn cards_with_suit_symbols_are_read() {
    let dir = crate::scratch();
    let plain = fs::read_to_string(repo("deals/fresh-1-suit.yaml")).unwrap();
    let symbols = plain
        .replace("[AS, JS, 10S, 10S, JS]", "[A♠, J♠, 10♠, 10♠, J♠]")
        .replace("face_up: [7S]", "face_up: [7♠]");
    assert_ne!(plain, symbols);
    let path = dir.path().join("symbols.yaml");
    fs::write(&path, &symbols).unwrap();
    let expected = spider()
        .arg("check")
        .arg(repo("deals/fresh-1-suit.yaml"))
        .output()
        .unwrap();
    let out = spider().arg("check").arg(&path).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let body = |stdout: &[u8]| {
        let text = String::from_utf8_lossy(stdout).into_owned();
        text.split_once('\n').unwrap().1.to_string()
    };
    assert_eq!(body(&out.stdout), body(&expected.stdout));
}

/// A message names the place once and quotes a short excerpt of the input.
#[test]
fn messages_name_things_once_and_quote_short_excerpts() {
    let dir = crate::scratch();
    let moves = dir.path().join("mv.txt");
    fs::write(&moves, "1-2 xx\n").unwrap();
    let deal = repo("deals/fresh-1-suit.yaml");
    let out = spider()
        .arg("replay")
        .arg(&deal)
        .arg(&moves)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        format!(
            "spider: error: {}:1:5: `xx` is not a move: expected F-T/K (move K cards from pile F to pile T, piles 1-10), F-T (onto a card) or deal\n",
            moves.display()
        )
    );
    // A 240 KB line comes back as a short excerpt, in a move file and in a
    // deal file.
    fs::write(&moves, "x".repeat(240_000)).unwrap();
    let out = spider()
        .arg("replay")
        .arg(&deal)
        .arg(&moves)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).len() < 400, "{}", stderr(&out));
    assert!(stderr(&out).contains("… (240000 characters)`"));
    let long = fs::read_to_string(&deal).unwrap().replace(
        "[AS, JS, 10S, 10S, JS]",
        &format!("[AS, JS, 10S, 10S, {}]", "Q".repeat(240_000)),
    );
    let path = dir.path().join("long.yaml");
    fs::write(&path, long).unwrap();
    let out = spider().arg("check").arg(&path).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).len() < 400, "{}", stderr(&out));
    assert!(stderr(&out).contains(":6:"), "{}", stderr(&out));
}

/// A key one column off gets a message about indentation.
#[test]
fn a_key_off_its_column_is_an_indentation_error() {
    let dir = crate::scratch();
    let text = fs::read_to_string(repo("deals/fresh-1-suit.yaml"))
        .unwrap()
        .replacen("    face_up: [8S]", "     face_up: [8S]", 1);
    let path = dir.path().join("indent.yaml");
    fs::write(&path, text).unwrap();
    let out = spider().arg("check").arg(&path).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        format!(
            "spider: error: {}:9:6: indentation: `face_up` is in column 6, but this pile's keys start in column 5 (line 8); move it 1 column left so that they line up\n",
            path.display()
        )
    );
}

/// More than two decks' worth of a card: the per-card report still comes;
/// a 2-suit deal without `suits: 2` gets a hint; analyze and hint refuse
/// an inconsistent deal alike.
#[test]
fn inconsistent_deals_get_the_card_report_and_one_treatment() {
    let dir = crate::scratch();
    let text = fs::read_to_string(repo("deals/fresh-1-suit.yaml"))
        .unwrap()
        .replacen(
            "[AS, JS, 10S, 10S, JS]",
            "[AS, JS, 10S, 10S, JS, JS, JS]",
            1,
        );
    let path = dir.path().join("more.yaml");
    fs::write(&path, text).unwrap();
    let out = spider().arg("check").arg(&path).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(
        report.contains("1 suit (8 copies of each card): 106 cards, 0 of them XX, more than the 104 of two decks\n"),
        "{report}"
    );
    assert!(
        report.contains("  J♠ appears 10 times (expected 8): "),
        "{report}"
    );

    let two = fs::read_to_string(repo("deals/fresh-2-suit.yaml"))
        .unwrap()
        .replace("suits: 2", "");
    let path = dir.path().join("two.yaml");
    fs::write(&path, two).unwrap();
    let out = spider().arg("check").arg(&path).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains(
        "hint: every known card is a spade or a heart: is `suits: 2` missing from the file? (without it a deal has 4 suits)\n"
    ));
    let analyze = spider().arg("analyze").arg(&path).output().unwrap();
    let hint = spider().arg("hint").arg(&path).output().unwrap();
    assert_eq!(analyze.status.code(), Some(2));
    assert_eq!(hint.status.code(), Some(2));
    assert_eq!(stderr(&analyze), stderr(&hint));
    assert!(
        stderr(&analyze).starts_with(&format!(
            "spider: error: {}: the deal is inconsistent: 26 cards too often (",
            path.display()
        )),
        "{}",
        stderr(&analyze)
    );
    assert!(stderr(&analyze).ends_with("is `suits: 2` missing?)\n"));
}

/// Every error starts the same way, `spider: error: `, on one line of
/// standard error with exit 2: the command line's own (an unknown flag, a
/// value out of range, a missing argument), a bad file, an output refused.
#[test]
fn every_error_starts_the_same_way() {
    let dir = crate::scratch();
    let bad = dir.path().join("bad.yaml");
    std::fs::write(&bad, "suits: 4\npiles: []\n").unwrap();
    let cases: Vec<Vec<String>> = vec![
        vec!["analyze".into(), "--no-such-flag".into()],
        vec!["analyze".into(), "--time-limit".into(), "-1".into()],
        vec!["replay".into()],
        vec!["check".into(), bad.display().to_string()],
        vec![
            "play".into(),
            "--number".into(),
            "1".into(),
            "--html".into(),
            "/no/such/dir/x.html".into(),
        ],
        vec![
            "deal".into(),
            "--number".into(),
            "1".into(),
            "-o".into(),
            "/".into(),
        ],
    ];
    for args in cases {
        let output = assert_cmd::Command::cargo_bin("spider")
            .unwrap()
            .args(&args)
            .write_stdin("")
            .output()
            .unwrap();
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.starts_with("spider: error: "), "{args:?}: {stderr}");
        assert_eq!(stderr.matches("error:").count(), 1, "{args:?}: {stderr}");
    }
}
