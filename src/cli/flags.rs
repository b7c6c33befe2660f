//! Strict readers for the numeric flags every command shares.
//!
//! A limit flag takes a number in a stated range, or `0` for no limit: the
//! one meaning of "no limit" in every command. Negative, NaN, infinite and
//! absurdly large values are refused by clap (exit 2) with a message that
//! names the flag and the accepted range, instead of panicking or silently
//! meaning something else.

use spider_analyzer::explore::memory::machine_total;
use std::time::Duration;

/// The longest time limit accepted: 30 days, in seconds.
pub const MAX_SECONDS: f64 = 30.0 * 24.0 * 3600.0;
/// The largest count limit accepted (positions, nodes, completions).
pub const MAX_COUNT: u64 = 1_000_000_000_000_000;
/// The largest memory limit accepted: 1 PiB.
pub const MAX_BYTES: u64 = 1 << 50;
/// The most threads `-j/--jobs` accepts.
pub const MAX_JOBS: usize = 1024;

/// A time limit: `None` is no limit (written `0`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeLimit(pub Option<Duration>);

/// A limit on a count (positions, nodes, completions): `None` is no limit
/// (written `0`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CountLimit(pub Option<u64>);

/// A memory limit in bytes: `None` is no limit (written `0`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SizeLimit(pub Option<u64>);

/// A `--memory-limit`: a size, or `auto`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemoryLimit {
    /// Half the machine's memory, shared by the searches run at once.
    Auto,
    /// The size given.
    Size(SizeLimit),
}

impl MemoryLimit {
    /// The limit of each of `searches` searches run at once. `auto` shares
    /// half the machine's memory between them (4 GiB in all where the
    /// machine's memory cannot be read), at least 256 MiB each.
    pub fn per_search(self, searches: usize) -> Option<u64> {
        match self {
            MemoryLimit::Size(size) => size.0,
            MemoryLimit::Auto => {
                let budget = machine_total().map_or(4 << 30, |total| total / 2);
                Some((budget / searches.max(1) as u64).max(256 << 20))
            }
        }
    }
}

/// The searches run at once with `-j/--jobs` (`None`: one per core).
pub fn threads(jobs: Option<usize>) -> usize {
    jobs.unwrap_or_else(rayon::current_num_threads)
}

/// Reads a memory limit: `auto`, or what [`size_limit`] reads.
pub fn memory_limit(text: &str) -> Result<MemoryLimit, String> {
    if text.trim().eq_ignore_ascii_case("auto") {
        Ok(MemoryLimit::Auto)
    } else {
        size_limit(text)
            .map(MemoryLimit::Size)
            .map_err(|error| format!("{error}, or auto"))
    }
}

/// A size as `--memory-limit` reads it: `100` (bytes), `48K`, `512M`,
/// `1.5G` (powers of 1024, one decimal at most).
pub fn show_size(bytes: u64) -> String {
    const UNITS: [(&str, u32); 4] = [("T", 40), ("G", 30), ("M", 20), ("K", 10)];
    for (unit, shift) in UNITS {
        if bytes >= 1 << shift {
            let value = bytes as f64 / (1u64 << shift) as f64;
            let text = format!("{value:.1}");
            return format!("{}{unit}", text.trim_end_matches(".0"));
        }
    }
    bytes.to_string()
}

/// Reads a time limit in seconds: `0` for no limit, or a number from 0.001
/// to 30 days (2592000).
pub fn time_limit(text: &str) -> Result<TimeLimit, String> {
    let range =
        || format!("expected 0 (no limit) or a number of seconds from 0.001 to {MAX_SECONDS:.0}");
    let seconds: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a number; {}", range()))?;
    if seconds == 0.0 {
        return Ok(TimeLimit(None));
    }
    if !(0.001..=MAX_SECONDS).contains(&seconds) {
        return Err(format!("`{text}` is out of range; {}", range()));
    }
    Ok(TimeLimit(Some(Duration::from_secs_f64(seconds))))
}

/// Reads a count limit: `0` for no limit, or a whole number up to 10^15.
pub fn count_limit(text: &str) -> Result<CountLimit, String> {
    let range = || format!("expected 0 (no limit) or a whole number from 1 to {MAX_COUNT}");
    let count =
        parse_whole(text).ok_or_else(|| format!("`{text}` is not a whole number; {}", range()))?;
    match count {
        0 => Ok(CountLimit(None)),
        n if n <= u128::from(MAX_COUNT) => Ok(CountLimit(Some(n as u64))),
        _ => Err(format!("`{text}` is out of range; {}", range())),
    }
}

/// Reads the blind player's name for `--player`.
pub fn player(text: &str) -> Result<spider_analyzer::unknown::blind::Player, String> {
    use spider_analyzer::unknown::blind::Player;
    Player::named(text.trim()).ok_or_else(|| {
        format!(
            "`{text}` is not a player; expected one of: {}",
            Player::NAMES.join(", ")
        )
    })
}

/// Reads a thread count for `-j/--jobs`: 1 to 1024.
pub fn jobs(text: &str) -> Result<usize, String> {
    let range = || format!("expected a number of threads from 1 to {MAX_JOBS}");
    let jobs =
        parse_whole(text).ok_or_else(|| format!("`{text}` is not a whole number; {}", range()))?;
    if (1..=MAX_JOBS as u128).contains(&jobs) {
        Ok(jobs as usize)
    } else {
        Err(format!("`{text}` is out of range; {}", range()))
    }
}

/// Reads a memory limit: `0` for no limit, or a size with an optional K, M,
/// G or T suffix (powers of 1024; `B`, `iB` accepted) up to 1 PiB.
pub fn size_limit(text: &str) -> Result<SizeLimit, String> {
    let range = "expected 0 (no limit) or a size like 512M or 4G (K, M, G, T: powers of 1024), at most 1024T";
    let trimmed = text.trim();
    let (number, unit) = match trimmed
        .char_indices()
        .find(|(_, c)| c.is_ascii_alphabetic())
    {
        Some((at, _)) => (&trimmed[..at], &trimmed[at..]),
        None => (trimmed, ""),
    };
    let shift = match unit
        .to_ascii_uppercase()
        .trim_end_matches("IB")
        .trim_end_matches('B')
    {
        "" => 0,
        "K" => 10,
        "M" => 20,
        "G" => 30,
        "T" => 40,
        _ => return Err(format!("`{text}` is not a size; {range}")),
    };
    let value: f64 = number
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a size; {range}"))?;
    let bytes = value * (1u64 << shift) as f64;
    if !(0.0..=MAX_BYTES as f64).contains(&bytes) {
        return Err(format!("`{text}` is out of range; {range}"));
    }
    Ok(SizeLimit(match bytes as u64 {
        0 => None,
        n => Some(n),
    }))
}

/// The most completions `--samples` draws.
pub const MAX_SAMPLES: usize = 1_000_000;

/// A reader for a whole number from `min` to `max` (a flag with no "no
/// limit" value, like `--seed` or `queens N`): anything else is refused
/// naming the range.
pub fn whole(min: u64, max: u64) -> impl Fn(&str) -> Result<u64, String> + Clone + Send + Sync {
    move |text| {
        let range = || format!("expected a whole number from {min} to {max}");
        let value = parse_whole(text)
            .ok_or_else(|| format!("`{text}` is not a whole number; {}", range()))?;
        if (u128::from(min)..=u128::from(max)).contains(&value) {
            Ok(value as u64)
        } else {
            Err(format!("`{text}` is out of range; {}", range()))
        }
    }
}

/// [`whole`] for a count held in a `usize`.
pub fn whole_usize(
    min: usize,
    max: usize,
) -> impl Fn(&str) -> Result<usize, String> + Clone + Send + Sync {
    let read = whole(min as u64, max as u64);
    move |text| read(text).map(|value| value as usize)
}

/// A PySol game number, 0 to 10^20 (PySolFC's own range): anything else
/// is refused naming the range, as by [`whole`].
pub fn game_number(text: &str) -> Result<u128, String> {
    use spider_analyzer::deal::pysol::MAX_GAME;
    let range = format!("expected a PySol game number from 0 to {MAX_GAME}");
    let value =
        parse_whole(text).ok_or_else(|| format!("`{text}` is not a whole number; {range}"))?;
    if value <= MAX_GAME {
        Ok(value)
    } else {
        Err(format!("`{text}` is out of range; {range}"))
    }
}

/// A whole number, digits only (with `_` as a separator, as in 1_000_000).
fn parse_whole(text: &str) -> Option<u128> {
    let digits: String = text.trim().chars().filter(|&c| c != '_').collect();
    if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    // Too many digits for a number is out of range, not "not a number".
    Some(digits.parse().unwrap_or(u128::MAX))
}

/// The flags of the disk-backed exhaustive search, shared by `analyze`
/// and `graph --count` (see docs/engine.md).
#[derive(clap::Args, Clone, Debug, Default)]
pub struct DiskArgs {
    /// Keep the exhaustive search's states on disk in DIR (frontiers and
    /// successors in compressed files, duplicates removed in bulk, only the
    /// current layer's seen set in memory, up to --disk-seen-memory):
    /// the same counts as in memory, for proofs that outgrow it; the same
    /// command on the same DIR resumes a stopped search. Default with
    /// --disk-limit or --disk-launcher: DIR/disk of --checkpoint.
    #[arg(long, value_name = "DIR")]
    pub disk: Option<std::path::PathBuf>,
    /// With --disk: stop (resumably) once DIR holds more than SIZE, like
    /// 60G (K, M, G, T: powers of 1024; 0: no limit) [default: no limit].
    #[arg(long, value_name = "SIZE", value_parser = size_limit)]
    pub disk_limit: Option<SizeLimit>,
    /// With --disk: run each round's 16 tasks through this shell command,
    /// as separate processes or a job array on a cluster sharing DIR:
    /// `{tasks}` becomes the parts to run (0,1,...,15), `{command}` this
    /// command; each task reads its part from SPIDER_DISK_PART or
    /// SLURM_ARRAY_TASK_ID. Example: 'sbatch --wait --array={tasks}
    /// --wrap "{command}"'. A round that reads fewer than 100,000 records
    /// runs in this process instead.
    #[arg(long, value_name = "CMD")]
    pub disk_launcher: Option<String>,
    /// With --disk-launcher: rounds that read fewer records than this run
    /// in this process instead (default: 100000; see docs/engine.md).
    #[arg(long, value_name = "RECORDS", hide = true)]
    pub disk_launch_from: Option<u64>,
    /// With --disk: keep at most SIZE of the current layer's seen sets in
    /// memory, like 2G (K, M, G, T: powers of 1024); past it the layer's
    /// earlier rounds are looked up on disk, in bulk (the same counts)
    /// [default: a quarter of --memory-limit].
    #[arg(long, value_name = "SIZE", value_parser = size_limit)]
    pub disk_seen_memory: Option<SizeLimit>,
}

impl DiskArgs {
    /// The options of the search, if it runs on disk: `--disk DIR`, or
    /// `CHECKPOINT/disk` when only the limit or the launcher is given.
    pub fn options(
        &self,
        checkpoint: Option<&std::path::Path>,
    ) -> Result<Option<spider_analyzer::explore::layered::DiskOptions>, String> {
        let dir = match (&self.disk, checkpoint) {
            (Some(dir), _) => dir.clone(),
            (None, _)
                if self.disk_limit.is_none()
                    && self.disk_launcher.is_none()
                    && self.disk_seen_memory.is_none() =>
            {
                return Ok(None);
            }
            (None, Some(checkpoint)) => checkpoint.join("disk"),
            (None, None) => {
                return Err(
                    "--disk-limit, --disk-launcher and --disk-seen-memory need --disk DIR (or \
                     --checkpoint DIR)"
                        .into(),
                );
            }
        };
        Ok(Some(spider_analyzer::explore::layered::DiskOptions {
            dir,
            max_bytes: self.disk_limit.and_then(|limit| limit.0),
            launcher: self.disk_launcher.clone(),
            launch_from: self
                .disk_launch_from
                .unwrap_or(spider_analyzer::explore::layered::LAUNCH_FROM),
            seen_memory: self.disk_seen_memory.and_then(|limit| limit.0),
            split_from: None,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_limits_are_strict() {
        assert_eq!(time_limit("0"), Ok(TimeLimit(None)));
        assert_eq!(
            time_limit("2.5"),
            Ok(TimeLimit(Some(Duration::from_millis(2500))))
        );
        for bad in [
            "-1",
            "nan",
            "NaN",
            "inf",
            "-inf",
            "1e30",
            "99999999999999999999",
            "0.0001",
            "",
            "ten",
        ] {
            let err = time_limit(bad).unwrap_err();
            assert!(err.contains("from 0.001 to 2592000"), "{bad}: {err}");
        }
    }

    #[test]
    fn count_limits_are_strict() {
        assert_eq!(count_limit("0"), Ok(CountLimit(None)));
        assert_eq!(count_limit("1_000"), Ok(CountLimit(Some(1000))));
        for bad in ["-1", "1.5", "nan", "1e6", "99999999999999999999999", ""] {
            assert!(count_limit(bad).is_err(), "{bad}");
        }
        assert_eq!(jobs("4"), Ok(4));
        for bad in ["0", "-2", "100000", "x"] {
            assert!(jobs(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn whole_numbers_name_their_range() {
        let seed = whole(0, u64::MAX);
        assert_eq!(seed("18446744073709551615"), Ok(u64::MAX));
        assert_eq!(
            seed("18446744073709551616"),
            Err("`18446744073709551616` is out of range; expected a whole number from 0 to 18446744073709551615".into())
        );
        let queens = whole_usize(1, 16);
        assert_eq!(queens("8"), Ok(8));
        assert_eq!(
            queens("99999999999999999999"),
            Err(
                "`99999999999999999999` is out of range; expected a whole number from 1 to 16"
                    .into()
            )
        );
        assert_eq!(
            queens("-1"),
            Err("`-1` is not a whole number; expected a whole number from 1 to 16".into())
        );
    }

    #[test]
    fn sizes() {
        assert_eq!(show_size(1), "1");
        assert_eq!(show_size(100), "100");
        assert_eq!(show_size(48 << 10), "48K");
        assert_eq!(show_size(3 << 29), "1.5G");
        assert_eq!(show_size(512 << 20), "512M");
        assert_eq!(size_limit("0"), Ok(SizeLimit(None)));
        assert_eq!(size_limit("512M"), Ok(SizeLimit(Some(512 << 20))));
        assert_eq!(size_limit("4G"), Ok(SizeLimit(Some(4 << 30))));
        assert_eq!(size_limit("1.5GiB"), Ok(SizeLimit(Some(3 << 29))));
        assert_eq!(size_limit("100"), Ok(SizeLimit(Some(100))));
        for bad in ["4X", "-1G", "G", "nan", "infG", "1e30", "2000T"] {
            assert!(size_limit(bad).is_err(), "{bad}");
        }
    }

    /// `auto` is half the machine's memory for one search, shared when
    /// several run at once, never under 256 MiB; a size is itself, however
    /// many searches run.
    #[test]
    fn memory_limits() {
        assert_eq!(memory_limit("auto"), Ok(MemoryLimit::Auto));
        assert_eq!(memory_limit(" AUTO "), Ok(MemoryLimit::Auto));
        let four = MemoryLimit::Size(SizeLimit(Some(4 << 30)));
        assert_eq!(memory_limit("4G"), Ok(four));
        assert_eq!(four.per_search(8), Some(4 << 30));
        assert_eq!(memory_limit("0").unwrap().per_search(1), None);
        let error = memory_limit("lots").unwrap_err();
        assert!(
            error.contains("0 (no limit)") && error.ends_with("or auto"),
            "{error}"
        );
        let one = MemoryLimit::Auto.per_search(1).unwrap();
        match machine_total() {
            Some(total) => assert_eq!(one, (total / 2).max(256 << 20)),
            None => assert_eq!(one, 4 << 30),
        }
        assert_eq!(
            MemoryLimit::Auto.per_search(2),
            Some((one / 2).max(256 << 20))
        );
        assert_eq!(MemoryLimit::Auto.per_search(1 << 20), Some(256 << 20));
    }
}
