//! The statistics every report shares: a share with its 95 % Wilson
//! interval, and percentiles.

use std::fmt;

/// The 95% two-sided normal quantile.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The Wilson score interval for `successes` out of `trials` at normal
/// quantile `z`; `None` for no trials.
pub fn wilson_interval(successes: u64, trials: u64, z: f64) -> Option<(f64, f64)> {
    if trials == 0 {
        return None;
    }
    let n = trials as f64;
    let p = successes as f64 / n;
    let z2 = z * z;
    let denominator = 1.0 + z2 / n;
    let center = (p + z2 / (2.0 * n)) / denominator;
    let half = z / denominator * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    Some(((center - half).max(0.0), (center + half).min(1.0)))
}

/// The `p`-th percentile (0 to 100) of ascending `sorted` values, by linear
/// interpolation between closest ranks (the usual median for p = 50; NumPy's
/// and R's default); `None` for no values.
pub fn percentile(sorted: &[f64], p: f64) -> Option<f64> {
    if sorted.is_empty() {
        return None;
    }
    let rank = p.clamp(0.0, 100.0) / 100.0 * (sorted.len() - 1) as f64;
    let below = rank.floor() as usize;
    let above = rank.ceil() as usize;
    Some(sorted[below] + (sorted[above] - sorted[below]) * (rank - below as f64))
}

/// A share as every report prints it, with its counts and its 95 %
/// interval: `54.5 % (109 of 200; 95 % CI 47.6–61.3 %)`.
pub fn share_text(count: u64, of: u64, share: f64, low: f64, high: f64) -> String {
    format!(
        "{:.1} % ({count} of {of}; 95 % CI {:.1}–{:.1} %)",
        share * 100.0,
        low * 100.0,
        high * 100.0
    )
}

/// The same share in a table's column, whose counts stand in the column
/// beside it: `55 % (95 % CI 48–61 %)`.
pub fn share_column(share: f64, low: f64, high: f64) -> String {
    format!(
        "{:.0} % (95 % CI {:.0}–{:.0} %)",
        share * 100.0,
        low * 100.0,
        high * 100.0
    )
}

/// A share of every case there is, not of a sample, so exact and without
/// an interval: `12.5 % (3 of 24)`.
pub fn exact_share_text(count: u64, of: u64) -> String {
    let share = if of == 0 {
        0.0
    } else {
        count as f64 / of as f64
    };
    format!("{:.1} % ({count} of {of})", share * 100.0)
}

/// A model's estimate of a chance, with its 95 % interval in the words of
/// [`share_text`] and what it stands on (`from`, left out when empty):
/// `about 54 % (95 % CI 43–64 %; from 80 recorded games)`.
pub fn estimate_text(chance: f64, low: f64, high: f64, from: &str) -> String {
    format!(
        "about {:.0} % (95 % CI {:.0}–{:.0} %{}{from})",
        chance * 100.0,
        low * 100.0,
        high * 100.0,
        if from.is_empty() { "" } else { "; " }
    )
}

/// A share with its 95 % Wilson interval.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Interval {
    pub share: f64,
    pub low: f64,
    pub high: f64,
    /// The count and the total it is a share of.
    #[serde(skip)]
    pub count: usize,
    #[serde(skip)]
    pub of: usize,
}

impl Interval {
    /// `count` of `of`; `None` for none at all.
    pub fn of(count: usize, of: usize) -> Option<Interval> {
        let (low, high) = wilson_interval(count as u64, of as u64, Z95)?;
        Some(Interval {
            share: count as f64 / of as f64,
            low,
            high,
            count,
            of,
        })
    }
}

impl fmt::Display for Interval {
    /// `63.0 % (63 of 100; 95 % CI 53.2–71.7 %)`: [`share_text`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&share_text(
            self.count as u64,
            self.of as u64,
            self.share,
            self.low,
            self.high,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 5e-5
    }

    #[test]
    fn wilson_interval_known_values() {
        // Textbook values: 0 of 10 -> [0, 0.2775]; 5 of 10 -> [0.2366,
        // 0.7634]; 10 of 10 -> [0.7225, 1]; 1 of 10 -> [0.0179, 0.4042].
        let (lo, hi) = wilson_interval(0, 10, Z95).unwrap();
        assert!(close(lo, 0.0) && close(hi, 0.2775), "{lo} {hi}");
        let (lo, hi) = wilson_interval(5, 10, Z95).unwrap();
        assert!(close(lo, 0.2366) && close(hi, 0.7634), "{lo} {hi}");
        let (lo, hi) = wilson_interval(10, 10, Z95).unwrap();
        assert!(close(lo, 0.7225) && close(hi, 1.0), "{lo} {hi}");
        let (lo, hi) = wilson_interval(1, 10, Z95).unwrap();
        assert!(close(lo, 0.0179) && close(hi, 0.4042), "{lo} {hi}");
        assert_eq!(wilson_interval(0, 0, Z95), None);
    }

    #[test]
    fn percentiles_interpolate_between_ranks() {
        assert_eq!(percentile(&[], 50.0), None);
        assert_eq!(percentile(&[7.0], 95.0), Some(7.0));
        assert_eq!(percentile(&[1.0, 2.0, 3.0, 4.0], 50.0), Some(2.5));
        assert_eq!(percentile(&[1.0, 2.0, 3.0], 50.0), Some(2.0));
        let twenty: Vec<f64> = (1..=20).map(f64::from).collect();
        // NumPy: np.percentile(range(1, 21), 95) == 19.05
        assert!(close(percentile(&twenty, 95.0).unwrap(), 19.05));
        assert_eq!(percentile(&twenty, 0.0), Some(1.0));
        assert_eq!(percentile(&twenty, 100.0), Some(20.0));
    }

    #[test]
    fn intervals() {
        let i = Interval::of(0, 10).unwrap();
        assert_eq!(i.low, 0.0);
        assert!((i.high - 0.2775).abs() < 1e-3, "{}", i.high);
        assert_eq!(Interval::of(0, 0), None);
        assert_eq!(
            Interval::of(109, 200).unwrap().to_string(),
            "54.5 % (109 of 200; 95 % CI 47.6–61.3 %)"
        );
        assert_eq!(share_column(0.553, 0.476, 0.613), "55 % (95 % CI 48–61 %)");
        assert_eq!(exact_share_text(3, 24), "12.5 % (3 of 24)");
        assert_eq!(
            estimate_text(0.54, 0.43, 0.64, "from 80 recorded games"),
            "about 54 % (95 % CI 43–64 %; from 80 recorded games)"
        );
        assert_eq!(
            estimate_text(0.54, 0.43, 0.64, ""),
            "about 54 % (95 % CI 43–64 %)"
        );
        let half = Interval::of(50, 100).unwrap();
        assert!((half.low - 0.4038).abs() < 1e-3 && (half.high - 0.5962).abs() < 1e-3);
    }
}
