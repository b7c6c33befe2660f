//! The summary of any set of records: counts per verdict, the winnable
//! share with a 95% Wilson interval, time percentiles, line lengths,
//! throughput.

use std::fmt;

use serde::Serialize;

use crate::solve::{StopReason, Verdict};

use super::Record;
use crate::stats::{Z95, percentile, wilson_interval};

/// A share with its 95% Wilson interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Share {
    pub count: u64,
    pub of: u64,
    pub share: f64,
    pub low: f64,
    pub high: f64,
}

impl fmt::Display for Share {
    /// As every report prints a share: [`crate::stats::share_text`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&crate::stats::share_text(
            self.count, self.of, self.share, self.low, self.high,
        ))
    }
}

impl Share {
    fn new(count: u64, of: u64) -> Option<Share> {
        let (low, high) = wilson_interval(count, of, Z95)?;
        Some(Share {
            count,
            of,
            share: count as f64 / of as f64,
            low,
            high,
        })
    }
}

/// Undecided deals by the limit that stopped them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct StopCounts {
    pub positions: u64,
    pub time: u64,
    pub memory: u64,
    pub cancelled: u64,
    /// Decided but for lines that turn up unknown cards.
    pub unknown_cards: u64,
    /// Records that give no reason.
    pub unknown: u64,
}

/// What a set of records says.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    pub deals: u64,
    pub winnable: u64,
    pub unwinnable: u64,
    pub undecided: u64,
    pub undecided_by: StopCounts,
    /// Decided deals (winnable or unwinnable) over all deals.
    pub decided_share: Option<f64>,
    /// Winnable deals among the decided ones.
    pub winnable_of_decided: Option<Share>,
    /// Winnable deals among all deals (undecided counted as not won).
    pub winnable_of_all: Option<Share>,
    pub median_seconds: Option<f64>,
    pub p95_seconds: Option<f64>,
    pub median_line_length: Option<f64>,
    /// Median seconds to the first win, over winnable deals that record it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub median_first_win_seconds: Option<f64>,
    /// Sum of the per-deal seconds.
    pub solve_seconds: f64,
    /// Wall-clock seconds of the run (measured by a live run; for merged
    /// files, from the first deal's start to the last deal's end).
    pub wall_seconds: Option<f64>,
    /// Deals per wall-clock second.
    pub deals_per_second: Option<f64>,
    /// The games played blind (`batch --hidden`), when the records hold
    /// any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blind: Option<BlindSummary>,
}

/// What the games played blind say, beside the same deals with their cards
/// known.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BlindSummary {
    /// Games played blind.
    pub games: u64,
    /// Won blind, of the games.
    pub won: Option<Share>,
    /// Winnable with the cards known, of the same deals.
    pub winnable_known: Option<Share>,
    /// Wall seconds a game took played blind, on average.
    pub seconds_per_game: f64,
    /// CPU seconds a game took played blind, on average over the games
    /// that kept it (files written before 2026-11-28 did not), and how
    /// many those are.
    pub cpu_seconds_per_game: Option<f64>,
    pub games_with_cpu: u64,
    /// The move that took longest to choose (wall seconds) and its deal,
    /// over the games that kept it.
    pub slowest_move: Option<(f64, u128)>,
    /// The players and their settings, as `player, N samples, seed S`
    /// (more than one when files of several studies were merged).
    pub settings: Vec<String>,
}

impl Summary {
    /// Summarizes records. `wall` is the run's measured wall-clock seconds
    /// and `deals_in_wall` how many deals it decided in that time; with
    /// `None` the wall time is the span of the records' own timestamps.
    pub fn of(records: &[Record], wall: Option<(f64, u64)>) -> Summary {
        let count = |outcome| records.iter().filter(|r| r.verdict == outcome).count() as u64;
        let (winnable, unwinnable, undecided) = (
            count(Verdict::Winnable),
            count(Verdict::Unwinnable),
            count(Verdict::Undecided),
        );
        let mut undecided_by = StopCounts::default();
        for record in records.iter().filter(|r| r.verdict == Verdict::Undecided) {
            match record.stopped_by {
                Some(StopReason::Positions) => undecided_by.positions += 1,
                Some(StopReason::Time) => undecided_by.time += 1,
                Some(StopReason::Memory | StopReason::MachineMemory | StopReason::Disk) => {
                    undecided_by.memory += 1
                }
                Some(StopReason::Cancelled) => undecided_by.cancelled += 1,
                Some(StopReason::UnknownCards) => undecided_by.unknown_cards += 1,
                None => undecided_by.unknown += 1,
            }
        }
        let deals = records.len() as u64;
        let decided = winnable + unwinnable;
        let mut seconds: Vec<f64> = records.iter().map(|r| r.seconds).collect();
        seconds.sort_by(f64::total_cmp);
        let mut lines: Vec<f64> = records
            .iter()
            .filter(|r| r.verdict == Verdict::Winnable)
            .filter_map(|r| r.line_length)
            .map(|n| n as f64)
            .collect();
        lines.sort_by(f64::total_cmp);
        let mut first_wins: Vec<f64> = records.iter().filter_map(|r| r.first_win_seconds).collect();
        first_wins.sort_by(f64::total_cmp);
        let (wall_seconds, rate_deals) = match wall {
            Some((seconds, deals_in_wall)) => (Some(seconds), deals_in_wall),
            None => {
                let stamped: Vec<&Record> =
                    records.iter().filter(|r| r.finished_at > 0.0).collect();
                let start = stamped
                    .iter()
                    .map(|r| r.finished_at - r.seconds)
                    .min_by(f64::total_cmp);
                let end = stamped.iter().map(|r| r.finished_at).max_by(f64::total_cmp);
                (start.zip(end).map(|(s, e)| e - s), stamped.len() as u64)
            }
        };
        let blind: Vec<(&Record, &super::BlindRecord)> = records
            .iter()
            .filter_map(|r| r.blind.as_ref().map(|b| (r, b)))
            .collect();
        let blind = (!blind.is_empty()).then(|| {
            let games = blind.len() as u64;
            let won = blind.iter().filter(|(_, b)| b.won).count() as u64;
            let known = blind
                .iter()
                .filter(|(r, _)| r.verdict == Verdict::Winnable)
                .count() as u64;
            let mut settings: Vec<String> = blind
                .iter()
                .map(|(_, b)| {
                    let s = &b.settings;
                    format!(
                        "{}, {} sample{}, seed {}",
                        s.player,
                        s.samples,
                        if s.samples == 1 { "" } else { "s" },
                        s.seed
                    )
                })
                .collect();
            settings.sort();
            settings.dedup();
            BlindSummary {
                games,
                won: Share::new(won, games),
                winnable_known: Share::new(known, games),
                seconds_per_game: blind.iter().map(|(_, b)| b.seconds).sum::<f64>() / games as f64,
                cpu_seconds_per_game: cpu_per_game(blind.iter().map(|(_, b)| *b)),
                games_with_cpu: blind
                    .iter()
                    .filter(|(_, b)| b.cpu_seconds.is_some())
                    .count() as u64,
                slowest_move: blind
                    .iter()
                    .filter_map(|(r, b)| Some((b.slowest_move_seconds?, r.number)))
                    .max_by(|a, b| a.0.total_cmp(&b.0)),
                settings,
            }
        });
        Summary {
            blind,
            deals,
            winnable,
            unwinnable,
            undecided,
            undecided_by,
            decided_share: (deals > 0).then(|| decided as f64 / deals as f64),
            winnable_of_decided: Share::new(winnable, decided),
            winnable_of_all: Share::new(winnable, deals),
            median_seconds: percentile(&seconds, 50.0),
            p95_seconds: percentile(&seconds, 95.0),
            median_line_length: percentile(&lines, 50.0),
            median_first_win_seconds: percentile(&first_wins, 50.0),
            solve_seconds: seconds.iter().sum(),
            wall_seconds,
            deals_per_second: wall_seconds
                .filter(|&w| w > 0.0)
                .map(|w| rate_deals as f64 / w),
        }
    }
}

fn percent(x: f64) -> String {
    format!("{:.1} %", 100.0 * x)
}

/// The mean CPU seconds of the games that kept them, `None` when none did.
fn cpu_per_game<'a>(games: impl Iterator<Item = &'a crate::batch::BlindRecord>) -> Option<f64> {
    let cpu: Vec<f64> = games.filter_map(|b| b.cpu_seconds).collect();
    (!cpu.is_empty()).then(|| cpu.iter().sum::<f64>() / cpu.len() as f64)
}

fn duration(seconds: f64) -> String {
    if seconds < 60.0 {
        format!("{seconds:.3} s")
    } else {
        let total = seconds.round() as u64;
        let (h, m, s) = (total / 3600, total / 60 % 60, total % 60);
        if h > 0 {
            format!("{h}h {m:02}m {s:02}s")
        } else {
            format!("{m}m {s:02}s")
        }
    }
}

impl fmt::Display for Summary {
    /// The summary for people, one fact a line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let of_all = |n: u64| {
            if self.deals == 0 {
                String::new()
            } else {
                format!("  {:>8}", percent(n as f64 / self.deals as f64))
            }
        };
        writeln!(f, "deals         {:>8}", self.deals)?;
        writeln!(
            f,
            "winnable      {:>8}{}",
            self.winnable,
            of_all(self.winnable)
        )?;
        writeln!(
            f,
            "unwinnable    {:>8}{}",
            self.unwinnable,
            of_all(self.unwinnable)
        )?;
        write!(
            f,
            "undecided     {:>8}{}",
            self.undecided,
            of_all(self.undecided)
        )?;
        let by = self.undecided_by;
        let reasons: Vec<String> = [
            ("time", by.time),
            ("positions", by.positions),
            ("memory", by.memory),
            ("cancelled", by.cancelled),
            ("unknown cards", by.unknown_cards),
            ("no reason given", by.unknown),
        ]
        .iter()
        .filter(|(_, n)| *n > 0)
        .map(|(name, n)| format!("{name} {n}"))
        .collect();
        if reasons.is_empty() {
            writeln!(f)?;
        } else {
            writeln!(f, "  (stopped by {})", reasons.join(", "))?;
        }
        if let Some(decided) = self.decided_share {
            writeln!(f, "decided       {:>8}", percent(decided))?;
        }
        for (name, share, none) in [
            (
                "winnable of decided",
                self.winnable_of_decided,
                "no deal decided",
            ),
            ("winnable of all", self.winnable_of_all, "no deals"),
        ] {
            match share {
                Some(s) => writeln!(f, "{name:<20} {s}")?,
                None => writeln!(f, "{name:<20} n/a ({none})")?,
            }
        }
        match (self.median_seconds, self.p95_seconds) {
            (Some(median), Some(p95)) => writeln!(
                f,
                "time per deal        median {}, 95th percentile {}",
                duration(median),
                duration(p95)
            )?,
            _ => writeln!(f, "time per deal        n/a")?,
        }
        match self.median_line_length {
            Some(median) => writeln!(
                f,
                "winning line         median {median} move{}",
                if median == 1.0 { "" } else { "s" }
            )?,
            None => writeln!(f, "winning line         n/a (no winnable deal)")?,
        }
        if let Some(first) = self.median_first_win_seconds {
            writeln!(f, "first win            median {}", duration(first))?;
        }
        write!(f, "wall time            ")?;
        match self.wall_seconds {
            Some(wall) => write!(f, "{}", duration(wall))?,
            None => write!(f, "n/a")?,
        }
        if let Some(rate) = self.deals_per_second {
            write!(f, ", {rate:.2} deals/s")?;
        }
        writeln!(f, " (solver time {})", duration(self.solve_seconds))?;
        if let Some(blind) = &self.blind {
            for (name, share) in [
                ("won played blind", blind.won),
                ("winnable (known)", blind.winnable_known),
            ] {
                if let Some(s) = share {
                    writeln!(f, "{name:<20} {s}")?;
                }
            }
            writeln!(
                f,
                "blind game           {} on average ({})",
                duration(blind.seconds_per_game),
                blind.settings.join("; ")
            )?;
            if let Some((seconds, number)) = blind.slowest_move {
                writeln!(
                    f,
                    "slowest move         {} to choose (deal {number})",
                    duration(seconds)
                )?;
            }
            if let Some(cpu) = blind.cpu_seconds_per_game {
                writeln!(
                    f,
                    "blind game CPU       {} on average{}",
                    duration(cpu),
                    if blind.games_with_cpu < blind.games {
                        format!(" (over the {} games that kept it)", blind.games_with_cpu)
                    } else {
                        String::new()
                    }
                )?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::batch::test_support::{close, record};

    #[test]
    fn summary_counts_shares_and_times() {
        let records = vec![
            record(1, Verdict::Winnable, 1.0, Some(100)),
            record(2, Verdict::Winnable, 2.0, Some(200)),
            record(3, Verdict::Unwinnable, 3.0, None),
            record(4, Verdict::Undecided, 4.0, None),
        ];
        let summary = Summary::of(&records, None);
        assert_eq!(
            (
                summary.deals,
                summary.winnable,
                summary.unwinnable,
                summary.undecided
            ),
            (4, 2, 1, 1)
        );
        assert_eq!(summary.undecided_by.time, 1);
        assert_eq!(summary.decided_share, Some(0.75));
        let decided = summary.winnable_of_decided.unwrap();
        assert_eq!((decided.count, decided.of), (2, 3));
        assert!(close(decided.share, 2.0 / 3.0));
        let (lo, hi) = wilson_interval(2, 3, Z95).unwrap();
        assert_eq!((decided.low, decided.high), (lo, hi));
        assert_eq!(summary.winnable_of_all.unwrap().of, 4);
        assert_eq!(summary.median_seconds, Some(2.5));
        assert!(close(summary.p95_seconds.unwrap(), 3.85));
        assert_eq!(summary.median_line_length, Some(150.0));
        assert_eq!(summary.solve_seconds, 10.0);
        // Deal 1 started at 1001 - 1 = 1000, deal 4 ended at 1004.
        assert_eq!(summary.wall_seconds, Some(4.0));
        assert_eq!(summary.deals_per_second, Some(1.0));
        let text = summary.to_string();
        assert!(
            text.contains("winnable of decided  66.7 % (2 of 3; 95 % CI"),
            "{text}"
        );
        assert!(text.contains("(stopped by time 1)"), "{text}");

        let live = Summary::of(&records, Some((8.0, 2)));
        assert_eq!(live.wall_seconds, Some(8.0));
        assert_eq!(live.deals_per_second, Some(0.25));

        let empty = Summary::of(&[], None);
        assert_eq!(empty.winnable_of_all, None);
        assert!(empty.to_string().contains("n/a"));
    }

    /// Games played blind: the share won beside the share winnable with
    /// the cards known, each with its interval, and the time a game.
    #[test]
    fn blind_games_are_summarized_beside_the_known_cards() {
        let blind = |won: bool, seconds: f64| crate::batch::BlindRecord {
            cpu_seconds: (seconds < 7.0).then_some(seconds / 2.0),
            slowest_move_seconds: (seconds > 3.0).then_some(seconds / 4.0),
            won,
            moves: 100,
            decisions: 10,
            unplanned_moves: 0,
            runs_removed: if won { 8 } else { 2 },
            face_down_left: 0,
            seconds,
            ended: if won { "won" } else { "no move left" }.into(),
            settings: crate::batch::BlindSettings {
                player: "lookahead".into(),
                samples: 3,
                max_positions: Some(100_000),
                max_moves: 1000,
                lookahead: 5000,
                late_lookahead: None,
                check: 0,
                seed: 1,
            },
            game_seed: None,
            chances: Vec::new(),
            line: String::new(),
        };
        let mut records = vec![
            record(1, Verdict::Winnable, 1.0, Some(100)),
            record(2, Verdict::Winnable, 1.0, Some(100)),
            record(3, Verdict::Winnable, 1.0, Some(100)),
            record(4, Verdict::Undecided, 1.0, None),
        ];
        for (record, (won, seconds)) in
            records
                .iter_mut()
                .zip([(true, 2.0), (false, 4.0), (true, 6.0), (false, 8.0)])
        {
            record.blind = Some(blind(won, seconds));
        }
        let summary = Summary::of(&records, None);
        let blind = summary.blind.as_ref().expect("blind games");
        assert_eq!(blind.games, 4);
        assert_eq!(blind.won.map(|s| (s.count, s.of)), Some((2, 4)));
        assert_eq!(blind.winnable_known.map(|s| (s.count, s.of)), Some((3, 4)));
        assert!(close(blind.seconds_per_game, 5.0));
        // CPU kept by three games of four (2, 4 and 6 wall s: 1, 2 and 3 CPU s).
        assert_eq!(blind.games_with_cpu, 3);
        // The slowest move kept: a quarter of deal 4's 8 s.
        assert_eq!(blind.slowest_move, Some((2.0, 4)));
        assert!(close(blind.cpu_seconds_per_game.unwrap(), 2.0));
        assert_eq!(
            blind.settings,
            vec!["lookahead, 3 samples, seed 1".to_string()]
        );
        let text = summary.to_string();
        assert!(
            text.contains("won played blind     50.0 % (2 of 4; 95 % CI 15.0–85.0 %)"),
            "{text}"
        );
        assert!(
            text.contains("winnable (known)     75.0 % (3 of 4;"),
            "{text}"
        );
        assert!(
            text.contains("blind game           5.000 s on average (lookahead, 3 samples, seed 1)"),
            "{text}"
        );
        assert!(
            text.contains(
                "blind game CPU       2.000 s on average (over the 3 games that kept it)"
            ),
            "{text}"
        );
        assert!(Summary::of(&records[..0], None).blind.is_none());
    }
}
