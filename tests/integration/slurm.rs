//! Through a real Slurm scheduler (`cargo test slurm -- --ignored`, with a
//! cluster answering, as `scripts/slurm-local start` makes one of this
//! machine): a sharded batch as a job array, and a proof on disk whose
//! rounds are job arrays. Where no cluster answers (no `sbatch`, or
//! `sinfo` fails), each test says so and passes.
//!
//! The tests' files go to a temporary directory, under
//! `$SPIDER_SLURM_SHARED` when it is set (on a cluster of several nodes, a
//! directory every node sees).

use std::path::Path;
use std::process::Command;

use assert_cmd::cargo::CommandCargoExt;
use serde_json::Value;
use spider_analyzer::batch::{self, ResultsFile};

/// Why no cluster answers, or `None` when one does.
fn no_cluster() -> Option<String> {
    match Command::new("sbatch").arg("--version").output() {
        Ok(out) if out.status.success() => {}
        _ => return Some("no sbatch".to_string()),
    }
    match Command::new("sinfo").args(["-h", "-o", "%T"]).output() {
        Ok(out) if out.status.success() => {
            let states = String::from_utf8_lossy(&out.stdout);
            if states.lines().any(|s| {
                ["idle", "mixed", "allocated"]
                    .iter()
                    .any(|a| s.starts_with(a))
            }) {
                None
            } else {
                Some(format!("no node up (sinfo: {})", states.trim()))
            }
        }
        Ok(out) => Some(format!(
            "sinfo failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        )),
        Err(err) => Some(format!("sinfo failed: {err}")),
    }
}

/// Says, past the test harness's capture, that `test` skipped.
fn skipped(test: &str, why: &str) {
    use std::io::Write;
    let _ = writeln!(
        std::io::stderr(),
        "skipped: {test}: no Slurm cluster ({why}); `scripts/slurm-local start` makes one"
    );
}

fn work_dir() -> tempfile::TempDir {
    match std::env::var_os("SPIDER_SLURM_SHARED") {
        Some(shared) => tempfile::tempdir_in(shared).unwrap(),
        None => tempfile::tempdir().unwrap(),
    }
}

fn spider() -> Command {
    Command::cargo_bin("spider").unwrap()
}

fn sbatch_wait(args: &[&str]) {
    let out = Command::new("sbatch")
        .arg("--wait")
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "sbatch --wait {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Each deal's verdict, positions and line, by number.
fn rows(paths: &[&Path]) -> Vec<(u128, String, u64, Option<String>)> {
    let files = paths
        .iter()
        .map(|p| ResultsFile::read(p).unwrap())
        .collect();
    let (records, duplicates) = batch::merge(files);
    assert_eq!(duplicates, 0);
    let mut rows: Vec<_> = records
        .into_iter()
        .map(|r| (r.number, r.verdict.to_string(), r.positions, r.line))
        .collect();
    rows.sort();
    rows
}

const DEALS: &str = "14930..14937";
const LIMITS: [&str; 4] = ["--max-positions", "300000", "--shorten-positions", "0"];

/// A batch of PySol games cut into four shards, run as a Slurm job array
/// by the job script docs/cluster.md gives (a task resubmitted resumes
/// from its file and adds nothing), merges to the local run's verdicts,
/// positions and lines, and every row checks.
#[test]
#[ignore = "needs a Slurm cluster: `scripts/slurm-local start`, then `cargo test slurm -- --ignored`"]
fn slurm_job_array_batch_merges_to_the_local_run() {
    if let Some(why) = no_cluster() {
        return skipped("slurm_job_array_batch_merges_to_the_local_run", &why);
    }
    let dir = work_dir();
    let local = dir.path().join("local.jsonl");
    let status = spider()
        .args(["batch", "--pysol", DEALS, "-j", "2"])
        .args(LIMITS)
        .arg("-o")
        .arg(&local)
        .output()
        .unwrap()
        .status;
    assert!(status.success());

    let spider_path = assert_cmd::cargo::cargo_bin("spider");
    let d = dir.path().display();
    let script = dir.path().join("census.sh");
    std::fs::write(
        &script,
        format!(
            "#!/bin/bash\n\
             #SBATCH --array=1-4\n\
             #SBATCH --cpus-per-task=1\n\
             #SBATCH --output={d}/shard-%a.log\n\
             exec {spider} batch --pysol {DEALS} --shard ${{SLURM_ARRAY_TASK_ID}}/4 -j 1 \
             {limits} -o {d}/shard-${{SLURM_ARRAY_TASK_ID}}.jsonl\n",
            spider = spider_path.display(),
            limits = LIMITS.join(" "),
        ),
    )
    .unwrap();
    sbatch_wait(&[script.to_str().unwrap()]);
    let shards: Vec<_> = (1..=4)
        .map(|k| dir.path().join(format!("shard-{k}.jsonl")))
        .collect();
    let shard_paths: Vec<&Path> = shards.iter().map(|p| p.as_path()).collect();
    // Shard 2 again: it resumes from its file, every deal already there.
    let before = std::fs::read(&shards[1]).unwrap();
    sbatch_wait(&["--array=2", script.to_str().unwrap()]);
    assert_eq!(std::fs::read(&shards[1]).unwrap(), before);
    let log = std::fs::read_to_string(dir.path().join("shard-2.log")).unwrap();
    assert!(
        log.contains("2 of 2 deals already in the results file, 0 to go"),
        "{log}"
    );

    let merged = rows(&shard_paths);
    assert_eq!(merged.len(), 8);
    assert_eq!(merged, rows(&[&local]));
    let summary = |paths: &[&Path]| -> Value {
        let out = spider()
            .args(["batch", "--json", "--summarize"])
            .args(paths)
            .output()
            .unwrap();
        assert!(out.status.success());
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let (a, b) = (summary(&shard_paths), summary(&[&local]));
    for key in [
        "deals",
        "winnable",
        "unwinnable",
        "undecided",
        "undecided_by",
    ] {
        assert_eq!(a[key], b[key], "{key}");
    }
    let verify = spider()
        .args(["batch", "--verify"])
        .args(&shard_paths)
        .output()
        .unwrap();
    assert!(
        verify.status.success(),
        "{}",
        String::from_utf8_lossy(&verify.stdout)
    );
}

/// A proof on disk whose rounds of 100 records or more run as Slurm job
/// arrays (`--disk-launcher 'sbatch --wait --array={tasks} ... --wrap
/// "{command}"'`), one task failing once and launched again alone, counts
/// what the proof in memory counts.
#[test]
#[ignore = "needs a Slurm cluster: `scripts/slurm-local start`, then `cargo test slurm -- --ignored`"]
fn slurm_job_arrays_prove_on_disk_what_memory_proves() {
    if let Some(why) = no_cluster() {
        return skipped("slurm_job_arrays_prove_on_disk_what_memory_proves", &why);
    }
    let dir = work_dir();
    let deal = dir.path().join("lost.yaml");
    std::fs::write(&deal, crate::layered::SMALL_LOST).unwrap();
    let analyze = |extra: &[&str]| -> Value {
        let out = spider()
            .arg("analyze")
            .arg(&deal)
            .args([
                "--exhaustive-only",
                "--no-completions",
                "--json",
                "--time-limit",
                "0",
            ])
            .args(extra)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{extra:?}");
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let memory = analyze(&[]);
    assert_eq!(memory["analysis"]["positions"], 820);

    // Part 3 of the first array fails once (exit 1 before its work), as a
    // task killed by the scheduler would.
    let failed = dir.path().join("failed-once");
    let wrapper = dir.path().join("task.sh");
    std::fs::write(
        &wrapper,
        format!(
            "if [ \"$SLURM_ARRAY_TASK_ID\" = 3 ] && [ ! -e {f} ]; then touch {f}; exit 1; fi\n\
             exec \"$@\"\n",
            f = failed.display()
        ),
    )
    .unwrap();
    let launches = dir.path().join("launches.log");
    std::fs::create_dir(dir.path().join("logs")).unwrap();
    let launcher = format!(
        "echo {{tasks}} >> {launches}; sbatch --wait --array={{tasks}} \
         --output={d}/logs/%A-%a.out --wrap \"sh {wrapper} {{command}}\"",
        launches = launches.display(),
        d = dir.path().display(),
        wrapper = wrapper.display(),
    );
    let proof = dir.path().join("proof");
    let disk = analyze(&[
        "--disk",
        proof.to_str().unwrap(),
        "--disk-launch-from",
        "100",
        "--disk-launcher",
        &launcher,
    ]);
    assert!(failed.exists());
    let launched = std::fs::read_to_string(&launches).unwrap();
    let launched: Vec<&str> = launched.lines().collect();
    let every = (0..16).map(|p| p.to_string()).collect::<Vec<_>>().join(",");
    assert_eq!(launched[..2], [every.as_str(), "3"], "{launched:?}");
    assert!(launched.len() > 2, "{launched:?}");
    for key in ["verdict", "positions", "dead_ends"] {
        assert_eq!(disk["analysis"][key], memory["analysis"][key], "{key}");
    }
}
