//! The disk-backed layered search against the search in memory, on the
//! same complete search: `spider graph FILE --stage N --count -j 2 --json`
//! with and without `--disk DIR`, run as child processes under
//! `/usr/bin/time` (wall, CPU, peak resident memory), then the counts
//! compared (they must be equal) and the figures of issue 49 printed:
//!
//! - bytes of memory (peak resident) per position examined; target under
//!   8 with the search on disk;
//! - bytes on disk per position (the largest the directory held, sampled
//!   every 0.2 s);
//! - positions per second, and the time 10^10 positions would take at
//!   that rate (target: about 2 hours on this machine's 2 cores).
//!
//! `DISK_BENCH_FILE` (default `deals/unwon-2017.yaml`) and
//! `DISK_BENCH_STAGE` (default 1: 11,977,064 positions) choose the search;
//! `DISK_BENCH_DIR` where the files go (default a temporary directory);
//! `DISK_BENCH_RUNS` how many times each way, in turn (default 3; the
//! medians are printed, and the ratio of the CPU times).
//! `DISK_BENCH_ARGS` adds flags to this build's search on disk (say
//! `--memory-limit 4G`, which keeps its seen sets to a quarter of it).
//! `DISK_BENCH_BASE`, a path to another `spider` (say, main's), adds its
//! search on disk to each turn, A against B in the same run: its counts
//! must be the same, and its medians are printed beside this one's;
//! `DISK_BENCH_BASE_ARGS` adds flags to its run (none by default).
//! Run: `cargo bench --bench disk` (about 4 minutes on a quiet machine).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

fn du(path: &Path) -> u64 {
    let mut total = 0;
    if let Ok(entries) = std::fs::read_dir(path) {
        for entry in entries.flatten() {
            let Ok(meta) = entry.metadata() else { continue };
            total += if meta.is_dir() {
                du(&entry.path())
            } else {
                meta.len()
            };
        }
    }
    total
}

struct Run {
    wall: f64,
    cpu: f64,
    rss: u64,
    disk: u64,
    json: serde_json::Value,
}

fn run(exe: &str, file: &str, stage: &str, disk: Option<&Path>, extra: &[String]) -> Run {
    let mut command = Command::new("/usr/bin/time");
    command
        .args(["-f", "%e %U %S %M", exe, "graph", file, "--stage", stage])
        .args(["--count", "-j", "2", "--json"]);
    if let Some(dir) = disk {
        let _ = std::fs::remove_dir_all(dir);
        command.arg("--disk").arg(dir).args(extra);
    }
    let peak = AtomicU64::new(0);
    let done = AtomicBool::new(false);
    let output = std::thread::scope(|scope| {
        if let Some(dir) = disk {
            scope.spawn(|| {
                while !done.load(Ordering::Relaxed) {
                    peak.fetch_max(du(dir), Ordering::Relaxed);
                    std::thread::sleep(Duration::from_millis(200));
                }
            });
        }
        let output = command.output().expect("spider runs");
        done.store(true, Ordering::Relaxed);
        output
    });
    let stderr = String::from_utf8_lossy(&output.stderr);
    let times: Vec<f64> = stderr
        .lines()
        .last()
        .unwrap_or_default()
        .split_whitespace()
        .filter_map(|f| f.parse().ok())
        .collect();
    assert_eq!(times.len(), 4, "time's line: {stderr}");
    Run {
        wall: times[0],
        cpu: times[1] + times[2],
        rss: times[3] as u64 * 1024,
        disk: peak.load(Ordering::Relaxed),
        json: serde_json::from_slice(&output.stdout).expect("--json output"),
    }
}

/// The run with the median CPU time, with the median wall time, peak
/// resident memory and disk of all.
fn median(mut runs: Vec<Run>) -> Run {
    let mid = runs.len() / 2;
    let pick = |values: &mut Vec<f64>| {
        values.sort_by(f64::total_cmp);
        values[mid]
    };
    let wall = pick(&mut runs.iter().map(|r| r.wall).collect());
    let rss = pick(&mut runs.iter().map(|r| r.rss as f64).collect()) as u64;
    let disk = pick(&mut runs.iter().map(|r| r.disk as f64).collect()) as u64;
    runs.sort_by(|a, b| a.cpu.total_cmp(&b.cpu));
    let mut run = runs.swap_remove(mid);
    run.wall = wall;
    run.rss = rss;
    run.disk = disk;
    run
}

fn main() {
    let file = std::env::var("DISK_BENCH_FILE").unwrap_or_else(|_| "deals/unwon-2017.yaml".into());
    let stage = std::env::var("DISK_BENCH_STAGE").unwrap_or_else(|_| "1".into());
    let temp = tempfile::tempdir().expect("a temporary directory");
    let dir = std::env::var("DISK_BENCH_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|_| temp.path().join("disk"));
    let load = || std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    let runs: usize = std::env::var("DISK_BENCH_RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(3)
        .max(1);
    println!(
        "disk bench: {file} stage {stage}, {runs} runs each way, load {}",
        load().trim()
    );
    // More flags for this build's search on disk (not the base's), e.g.
    // `--memory-limit 4G`: its seen sets then keep to a quarter of it.
    let extra: Vec<String> = std::env::var("DISK_BENCH_ARGS")
        .unwrap_or_default()
        .split_whitespace()
        .map(String::from)
        .collect();
    if !extra.is_empty() {
        println!("  this build on disk with: {}", extra.join(" "));
    }
    let exe = env!("CARGO_BIN_EXE_spider");
    let base = std::env::var("DISK_BENCH_BASE").ok();
    if let Some(base) = &base {
        println!("  base (B): {base}; this build (A): {exe}");
    }
    // Flags for the base's search on disk (none by default: an older
    // build may not know this build's), e.g. the same seen-set budget.
    let base_extra: Vec<String> = std::env::var("DISK_BENCH_BASE_ARGS")
        .unwrap_or_default()
        .split_whitespace()
        .map(String::from)
        .collect();
    if base.is_some() && !base_extra.is_empty() {
        println!("  the base on disk with: {}", base_extra.join(" "));
    }
    let mut memories = Vec::new();
    let mut disks = Vec::new();
    let mut bases = Vec::new();
    for _ in 0..runs {
        memories.push(run(exe, &file, &stage, None, &[]));
        disks.push(run(exe, &file, &stage, Some(&dir), &extra));
        let _ = std::fs::remove_dir_all(&dir);
        if let Some(base) = &base {
            bases.push(run(base, &file, &stage, Some(&dir), &base_extra));
            let _ = std::fs::remove_dir_all(&dir);
        }
    }
    for (b, d) in bases.iter().zip(&disks) {
        for key in ["positions", "moves", "layers", "stages", "reveals"] {
            assert_eq!(d.json[key], b.json[key], "{key} differ from the base's");
        }
        println!(
            "  run: base on disk {:.1} s CPU, {:.0} MB, {:.0} MB on disk; \
             this on disk {:.1} s CPU, {:.0} MB, {:.0} MB on disk",
            b.cpu,
            b.rss as f64 / 1e6,
            b.disk as f64 / 1e6,
            d.cpu,
            d.rss as f64 / 1e6,
            d.disk as f64 / 1e6,
        );
    }
    for (m, d) in memories.iter().zip(&disks) {
        for key in ["positions", "moves", "layers", "stages", "reveals"] {
            assert_eq!(d.json[key], m.json[key], "{key} differ");
        }
        assert_eq!(
            d.json["engine"]["duplicates"], m.json["engine"]["duplicates"],
            "duplicates differ"
        );
        println!(
            "  run: in memory {:.1} s CPU, {:.0} MB; on disk {:.1} s CPU, {:.0} MB: {:.2}x the CPU",
            m.cpu,
            m.rss as f64 / 1e6,
            d.cpu,
            d.rss as f64 / 1e6,
            d.cpu / m.cpu
        );
    }
    let memory = median(memories);
    let disk = median(disks);
    let base = (!bases.is_empty()).then(|| median(bases));
    let positions = memory.json["positions"].as_f64().unwrap_or(1.0);
    println!("same counts: {positions} positions, layer by layer");
    let mut named = vec![("in memory", &memory), ("on disk", &disk)];
    if let Some(base) = &base {
        named.push(("base disk", base));
    }
    for (name, r) in named {
        let rate = positions / r.wall;
        println!(
            "{name:>9}: {:.1} s wall, {:.1} s CPU, {:.2} M positions/s, \
             {:.2} M per CPU-second; peak resident {:.0} MB = {:.1} bytes a \
             position; engine estimate {:.0} MB; seen set/table {:.1} bytes a \
             stored position (dropped {} times); disk at most {:.0} MB = {:.1} \
             bytes a position; 10^10 positions at this rate: {:.1} h",
            r.wall,
            r.cpu,
            rate / 1e6,
            positions / r.cpu / 1e6,
            r.rss as f64 / 1e6,
            r.rss as f64 / positions,
            r.json["engine"]["peak_memory_bytes"]
                .as_f64()
                .unwrap_or(0.0)
                / 1e6,
            r.json["engine"]["table_bytes_per_position"]
                .as_f64()
                .unwrap_or(0.0),
            r.json["engine"]["seen_dropped"].as_u64().unwrap_or(0),
            r.disk as f64 / 1e6,
            r.disk as f64 / positions,
            1e10 / rate / 3600.0,
        );
    }
    println!(
        "on disk / in memory (medians): {:.2}x the CPU, {:.2}x the wall time, {:.2}x the memory",
        disk.cpu / memory.cpu,
        disk.wall / memory.wall,
        disk.rss as f64 / memory.rss as f64
    );
    if let Some(base) = &base {
        println!(
            "on disk, this / the base (medians): {:.2}x the CPU, {:.2}x the memory, {:.2}x the disk",
            disk.cpu / base.cpu,
            disk.rss as f64 / base.rss as f64,
            disk.disk as f64 / base.disk.max(1) as f64
        );
    }
    println!(
        "targets: under 8 bytes of memory a position on disk: {}; 10^10 within about 2 h: {}",
        if (disk.rss as f64 / positions) < 8.0 {
            "met"
        } else {
            "not met"
        },
        if 1e10 / (positions / disk.wall) < 2.5 * 3600.0 {
            "met"
        } else {
            "not met"
        },
    );
    println!("load at the end {}", load().trim());
}
