//! The chance shown to a player, calibrated on the player's own games.
//!
//! The search player ([`super::search`]) rates the line it plays by the
//! share of its playouts won: what its fast policy makes of the game after
//! the line. The player itself plays better than its policy (it searches
//! again at every card), so that share is not its odds. What a player
//! reads must be: over the positions shown "about p", about p of the games
//! should be won. So the share is mapped to a chance by a table fitted on
//! the player's own recorded games ([`fit`], isotonic regression: the
//! monotone step function closest to the outcomes, by pool-adjacent-
//! violators), one table per suit count, shipped in `weights/playout.json`
//! with the command that fitted it (`spider train --calibrate`), and read
//! by [`super::playout::shipped_calibration`].
//!
//! [`Reliability`] is the check a player can read: the positions of a set
//! of games grouped by the chance shown, in tenths, each group's mean
//! chance beside the share of its games won, and the Brier score (the mean
//! squared distance between the chance and the outcome, 0 or 1).

use serde::{Deserialize, Serialize};

/// One step of a calibration: raw shares up to `raw` (from the previous
/// step's) are shown as `chance`; `positions` recorded positions made it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Step {
    pub raw: f32,
    pub chance: f32,
    pub positions: u32,
}

/// The calibration of one suit count.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Calibration {
    pub suits: usize,
    /// The steps, by increasing `raw`; the last covers every share above.
    pub steps: Vec<Step>,
    /// The games it was fitted on (the results files and the player).
    pub fitted_on: String,
}

impl Calibration {
    /// The chance shown for a raw share.
    pub fn chance(&self, raw: f64) -> f64 {
        self.steps
            .iter()
            .find(|s| raw <= s.raw as f64 + 1e-9)
            .or(self.steps.last())
            .map_or(raw, |s| s.chance as f64)
    }
}

/// Fits the isotonic step function of `points` (raw share, won): the
/// non-decreasing steps whose squared distance to the outcomes is least.
pub fn fit(points: &[(f32, bool)]) -> Vec<Step> {
    let mut sorted: Vec<(f32, bool)> = points.to_vec();
    sorted.sort_by(|a, b| a.0.total_cmp(&b.0));
    // Blocks of equal raw share first, then pooled while they violate order.
    let mut blocks: Vec<(f32, f64, u32)> = Vec::new(); // (raw upper, wins, count)
    for (raw, won) in sorted {
        match blocks.last_mut() {
            Some(last) if last.0 == raw => {
                last.1 += won as u8 as f64;
                last.2 += 1;
            }
            _ => blocks.push((raw, won as u8 as f64, 1)),
        }
        while blocks.len() >= 2 {
            let n = blocks.len();
            let (a, b) = (blocks[n - 2], blocks[n - 1]);
            if a.1 / a.2 as f64 >= b.1 / b.2 as f64 {
                blocks[n - 2] = (b.0, a.1 + b.1, a.2 + b.2);
                blocks.pop();
            } else {
                break;
            }
        }
    }
    blocks
        .into_iter()
        .map(|(raw, wins, count)| Step {
            raw,
            chance: (wins / count as f64) as f32,
            positions: count,
        })
        .collect()
}

/// The tenth a chance falls in: 0 for 0 to 10 %, ..., 9 for 90 to 100 %.
pub fn tenth_of(p: f64) -> usize {
    ((p * 10.0).floor() as usize).min(9)
}

/// One tenth of a [`Reliability`] table.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tenth {
    pub positions: usize,
    /// Mean chance shown.
    pub shown: f64,
    /// Share of those positions whose game was won.
    pub won: f64,
}

/// How well chances shown match outcomes (see the module docs).
#[derive(Clone, Debug, PartialEq)]
pub struct Reliability {
    pub tenths: [Tenth; 10],
    pub brier: f64,
    pub positions: usize,
}

impl Reliability {
    /// The table of `points` (chance shown, won).
    pub fn of(points: &[(f64, bool)]) -> Reliability {
        let mut sums = [(0usize, 0.0f64, 0usize); 10];
        let mut brier = 0.0;
        for &(p, won) in points {
            let bin = tenth_of(p);
            sums[bin].0 += 1;
            sums[bin].1 += p;
            sums[bin].2 += won as usize;
            brier += (p - won as u8 as f64).powi(2);
        }
        let tenths = sums.map(|(n, shown, won)| Tenth {
            positions: n,
            shown: if n > 0 { shown / n as f64 } else { 0.0 },
            won: if n > 0 { won as f64 / n as f64 } else { 0.0 },
        });
        Reliability {
            tenths,
            brier: brier / points.len().max(1) as f64,
            positions: points.len(),
        }
    }

    /// The table as text, a line a tenth with positions.
    pub fn text(&self) -> String {
        let mut out = String::from("chance shown   positions   mean shown   won\n");
        for (i, t) in self.tenths.iter().enumerate() {
            if t.positions == 0 {
                continue;
            }
            out += &format!(
                "{:>3} to {:>3} %   {:>9}   {:>9.1} %   {:>5.1} %\n",
                i * 10,
                i * 10 + 10,
                t.positions,
                t.shown * 100.0,
                t.won * 100.0
            );
        }
        out += &format!(
            "Brier score {:.4} over {} positions\n",
            self.brier, self.positions
        );
        out
    }
}

/// The (raw chance, won) points of blind games in results files: every
/// move that showed a chance, with its game's outcome.
pub fn points_of(records: &[crate::batch::Record]) -> Vec<(f32, bool)> {
    records
        .iter()
        .filter_map(|r| r.blind.as_ref())
        .flat_map(|b| b.chances.iter().flatten().map(move |&c| (c, b.won)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn isotonic_fit_pools_what_is_out_of_order() {
        let points = [
            (0.0, false),
            (0.0, true),
            (0.2, true),
            (0.4, false),
            (0.9, true),
            (0.9, true),
        ];
        let steps = fit(&points);
        // 0.0: 1 of 2; 0.2 (won) and 0.4 (lost) pool to 1 of 2, equal to
        // the block before, so all three pool: 2 of 4; then 0.9: 2 of 2.
        assert_eq!(steps.len(), 2);
        assert_eq!(
            (steps[0].raw, steps[0].chance, steps[0].positions),
            (0.4, 0.5, 4)
        );
        assert_eq!(
            (steps[1].raw, steps[1].chance, steps[1].positions),
            (0.9, 1.0, 2)
        );
        let c = Calibration {
            suits: 1,
            steps,
            fitted_on: String::new(),
        };
        assert_eq!(c.chance(0.1), 0.5);
        assert_eq!(c.chance(0.95), 1.0);
    }

    #[test]
    fn the_reliability_table_counts_by_tenths() {
        let r = Reliability::of(&[(0.05, false), (0.95, true), (0.91, false)]);
        assert_eq!(r.tenths[0].positions, 1);
        assert_eq!(r.tenths[9].positions, 2);
        assert!((r.tenths[9].won - 0.5).abs() < 1e-12);
        let brier = (0.05f64.powi(2) + 0.05f64.powi(2) + 0.91f64.powi(2)) / 3.0;
        assert!((r.brier - brier).abs() < 1e-12);
    }
}
