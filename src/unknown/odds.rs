//! The player's odds: the chance that a blind player wins from a position
//! it sees, learned from its own recorded games.
//!
//! The share of sampled completions won with every card known (what HOP
//! weighs its moves by) is an upper bound of a blind player's chance, and a
//! loose one: 83 % on a fresh 4-suit deal that the player wins about one
//! time in seven. A player reads a chance as their odds, so the chance
//! shown is this module's instead: the share of the player's own games that
//! were won from positions like this one.
//!
//! "Like this one" is four things the player sees ([`inputs`]): the
//! lookahead's value of the position (its sixteen counts of runs removed,
//! cards face down, empty piles, same-suit pairs, breaks and more, weighed
//! as [`super::lookahead::value`] weighs them), and three of those counts
//! alone: the runs removed, the cards face down and the rows dealt. An
//! [`Odds`] model is fitted per suit count and player by `spider train
//! --odds` on `batch --hidden` results files (which keep each game's
//! moves): every game is replayed by the rules, every position the player
//! met is counted as the player saw it (a [`View`]: face-down and stock
//! cards `XX`), and labelled with whether that game was won. A logistic
//! regression of "won" on the four inputs ([`fit_weighted`], with a ridge
//! of [`RIDGE`]) gives the chance. Four inputs and a ridge, not the
//! sixteen counts or a step fitted on top: the positions of one game are
//! alike, so a hundred games are about a hundred samples, not twenty
//! thousand; on games held out the sixteen counts fitted no better, and an
//! isotonic step on top was far off (lab/notes/unknown-cards.md, "The
//! chance shown"). The games that passed positions of each tenth
//! give the interval ([`Odds::chance`]). The check is on games the fit
//! did not use: the reliability table by tenths and the Brier score
//! (`spider train --odds ... --held-out FILE`).
//!
//! The model never reads a hidden card: it is given the [`View`].

use serde::{Deserialize, Serialize};

use super::lookahead::{FEATURES, features};
use super::referee::Referee;
use super::view::View;
use crate::batch::Record;
use crate::cards::SuitCount;
use crate::game::{Move, WrittenMove, parse_moves};
use crate::stats::{Z95, wilson_interval};

/// The chance model of one suit count and player (see the module docs).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Odds {
    pub suits: usize,
    /// The blind player whose games it was fitted on (`hop`, `lookahead`,
    /// ...).
    pub player: String,
    /// The logistic model: the constant, then a weight for each of
    /// [`inputs`].
    pub weights: Vec<f64>,
    /// By tenth of the chance shown: the games of the fit that passed a
    /// position shown in that tenth, and how many of them were won (the
    /// interval of a chance in that tenth).
    pub tenths: Vec<Games>,
    /// The games it was fitted on: files, games, positions.
    pub fitted_on: String,
    /// The games it was fitted on, and how many were won: the one chance
    /// for every position that it must beat.
    #[serde(default)]
    pub games: u32,
    #[serde(default)]
    pub won: u32,
}

/// Games that passed positions of one tenth, and those won.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Games {
    pub games: u32,
    pub won: u32,
}

/// A chance shown: the estimate and its 95 % interval, and the games the
/// interval counts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shown {
    pub chance: f64,
    pub low: f64,
    pub high: f64,
    pub games: u32,
}

impl Odds {
    /// The chance shown for `counts` ([`counts_of`]).
    pub fn shown(&self, counts: &[f64; FEATURES]) -> f64 {
        let x = inputs(counts, self.suits);
        let z = self.weights[0]
            + self.weights[1..]
                .iter()
                .zip(&x)
                .map(|(w, c)| w * c)
                .sum::<f64>();
        1.0 / (1.0 + (-z).exp())
    }

    /// The chance that the player wins from what `view` shows, with its
    /// 95 % interval as a share of the fit's games that passed positions
    /// shown in the same tenth (a Wilson interval over that many games).
    pub fn chance(&self, view: &View) -> Shown {
        self.chance_of(&counts_of(view))
    }

    /// [`Odds::chance`] of a view's counts ([`counts_of`]).
    pub fn chance_of(&self, counts: &[f64; FEATURES]) -> Shown {
        let chance = self.shown(counts);
        let tenth = self
            .tenths
            .get(tenth_of(chance))
            .copied()
            .unwrap_or_default();
        // The chance as a share of the games that stand behind it: their
        // number, not the positions (alike within a game), sizes it.
        let won = (chance * tenth.games as f64).round() as u64;
        let (low, high) = wilson_interval(won, tenth.games as u64, Z95).unwrap_or((0.0, 1.0));
        Shown {
            chance,
            low: low.min(chance),
            high: high.max(chance),
            games: tenth.games,
        }
    }

    /// Whether this model is for `suits` and `player`.
    pub fn is_for(&self, suits: usize, player: &str) -> bool {
        self.suits == suits && self.player == player
    }
}

use super::chance::tenth_of;

/// The games `samples` come from, and how many of them were won.
pub fn games_won(samples: &[Sample]) -> (u32, u32) {
    let outcomes: std::collections::BTreeMap<u32, bool> =
        samples.iter().map(|s| (s.game, s.won)).collect();
    (
        outcomes.len() as u32,
        outcomes.values().filter(|&&w| w).count() as u32,
    )
}

/// How many inputs the model weighs ([`inputs`]).
pub const INPUTS: usize = 4;

/// The model's inputs from a view's counts at `suits` suits: the
/// lookahead's value in thousands, the runs removed, the cards face down
/// and the rows dealt.
pub fn inputs(counts: &[f64; FEATURES], suits: usize) -> [f64; INPUTS] {
    let weights =
        super::lookahead::weights(SuitCount::from_count(suits).unwrap_or(SuitCount::Four));
    let value: f64 = counts.iter().zip(weights).map(|(c, &w)| c * w as f64).sum();
    [value / 1000.0, counts[0], counts[1], counts[11]]
}

/// What the model counts in a view: [`features`] of its position.
pub fn counts_of(view: &View) -> [f64; FEATURES] {
    features(view.position()).map(|c| c as f64)
}

/// One position a player met: what it counted there and whether its game
/// was won.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    pub counts: [f64; FEATURES],
    pub won: bool,
    /// The game it comes from (an index over the games read).
    pub game: u32,
}

/// The positions a recorded blind game passed through, as its player saw
/// them (the start and the position before each move), replayed by the
/// rules from the record's deal and line. `None` for a record with no
/// blind game or no line (files written before lines were kept); an error
/// when the line is not legal in the deal.
pub fn samples_of(record: &Record, game: u32) -> Result<Option<Vec<Sample>>, String> {
    let Some(blind) = &record.blind else {
        return Ok(None);
    };
    if blind.line.is_empty() {
        return Ok(None);
    }
    let deal =
        crate::batch::numbered_deal(record.source, record.number, record.suits, record.rules)
            .map_err(|e| e.to_string())?;
    let mut referee = Referee::new(&deal).map_err(|e| e.to_string())?;
    let tokens =
        parse_moves(&blind.line).map_err(|e| format!("deal {}: its line: {e}", record.number))?;
    let mut out = Vec::with_capacity(tokens.len() + 1);
    for token in tokens {
        out.push(Sample {
            counts: counts_of(referee.view()),
            won: blind.won,
            game,
        });
        let mv = match token.step {
            WrittenMove::Shift {
                from,
                to,
                count: Some(count),
            } => Move::Shift { from, to, count },
            WrittenMove::Deal => Move::Deal,
            WrittenMove::Shift { count: None, .. } => {
                return Err(format!(
                    "deal {}: `{}` gives no card count (a blind game's line gives F-T/K)",
                    record.number, token.text
                ));
            }
        };
        referee
            .play(mv)
            .map_err(|e| format!("deal {}: move {}: {e}", record.number, token.text))?;
    }
    Ok(Some(out))
}

/// The logistic regression of "won" on `rows` (inputs, won, weight), by
/// Newton's method on inputs scaled to unit spread, with a ridge (`ridge`
/// times the sum of the weights; the constant is not shrunk) so that
/// inputs that never vary, or vary together, keep finite weights. The
/// constant first, then a weight an input, in the inputs' own units.
pub fn fit_weighted(rows: &[(Vec<f64>, bool, f64)], ridge: f64) -> Vec<f64> {
    let inputs = rows.first().map_or(0, |r| r.0.len());
    let d = inputs + 1;
    let n: f64 = rows.iter().map(|r| r.2).sum::<f64>().max(1e-12);
    let mut mean = vec![0.0; inputs];
    let mut spread = vec![0.0; inputs];
    for (x, _, w) in rows {
        for (m, c) in mean.iter_mut().zip(x) {
            *m += w * c / n;
        }
    }
    for (x, _, w) in rows {
        for j in 0..inputs {
            spread[j] += w * (x[j] - mean[j]).powi(2) / n;
        }
    }
    let spread: Vec<f64> = spread
        .iter()
        .map(|&v| if v > 1e-12 { v.sqrt() } else { 1.0 })
        .collect();
    let scaled = |x: &[f64]| {
        let mut z = vec![1.0; d];
        for j in 0..inputs {
            z[j + 1] = (x[j] - mean[j]) / spread[j];
        }
        z
    };
    let lambda = ridge * n;
    let mut w = vec![0.0; d];
    for _ in 0..50 {
        let mut gradient = vec![0.0; d];
        let mut hessian = vec![vec![0.0; d]; d];
        for (x, won, weight) in rows {
            let x = scaled(x);
            let z: f64 = w.iter().zip(&x).map(|(a, b)| a * b).sum();
            let p = 1.0 / (1.0 + (-z).exp());
            let y = *won as u8 as f64;
            for i in 0..d {
                gradient[i] += weight * (y - p) * x[i];
                for k in 0..d {
                    hessian[i][k] += weight * p * (1.0 - p) * x[i] * x[k];
                }
            }
        }
        // The constant is not shrunk.
        for i in 1..d {
            gradient[i] -= lambda * w[i];
            hessian[i][i] += lambda;
        }
        hessian[0][0] += 1e-9;
        let step = solve(hessian, gradient);
        let size: f64 = step.iter().map(|v| v.abs()).fold(0.0, f64::max);
        for (a, b) in w.iter_mut().zip(&step) {
            *a += b;
        }
        if size < 1e-10 {
            break;
        }
    }
    // Back to the counts' own units.
    let mut out = vec![0.0; d];
    out[0] = w[0];
    for j in 0..inputs {
        out[j + 1] = w[j + 1] / spread[j];
        out[0] -= w[j + 1] * mean[j] / spread[j];
    }
    out
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting (`a` is
/// the small, positive definite matrix of [`fit_weighted`]).
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Vec<f64> {
    let d = b.len();
    for col in 0..d {
        let pivot = (col..d)
            .max_by(|&i, &k| a[i][col].abs().total_cmp(&a[k][col].abs()))
            .unwrap_or(col);
        a.swap(col, pivot);
        b.swap(col, pivot);
        let head = a[col][col];
        if head.abs() < 1e-300 {
            continue;
        }
        let (above, below) = a.split_at_mut(col + 1);
        let pivot_row = &above[col];
        for (offset, row) in below.iter_mut().enumerate() {
            let f = row[col] / head;
            if f == 0.0 {
                continue;
            }
            for (x, p) in row[col..].iter_mut().zip(&pivot_row[col..]) {
                *x -= f * p;
            }
            b[col + 1 + offset] -= f * b[col];
        }
    }
    let mut x = vec![0.0; d];
    for row in (0..d).rev() {
        let rest: f64 = (row + 1..d).map(|k| a[row][k] * x[k]).sum();
        x[row] = if a[row][row].abs() < 1e-300 {
            0.0
        } else {
            (b[row] - rest) / a[row][row]
        };
    }
    x
}

/// The ridge [`fit`] uses, a hundredth of the positions: the strongest of
/// those tried that kept the 2-suit fit's chances as good on games it had
/// not seen (docs/unknown-cards.md).
pub const RIDGE: f64 = 1e-2;

/// Fits the model of `suits` and `player` on `samples` (see the module
/// docs); `fitted_on` says where they come from.
pub fn fit(suits: usize, player: &str, samples: &[Sample], fitted_on: String) -> Odds {
    let rows: Vec<(Vec<f64>, bool, f64)> = samples
        .iter()
        .map(|s| (inputs(&s.counts, suits).to_vec(), s.won, 1.0))
        .collect();
    let mut odds = Odds {
        suits,
        player: player.to_string(),
        weights: fit_weighted(&rows, RIDGE),
        tenths: Vec::new(),
        fitted_on,
        games: 0,
        won: 0,
    };
    (odds.games, odds.won) = games_won(samples);
    // The games that passed positions of each tenth shown.
    let mut seen = vec![std::collections::BTreeMap::<u32, bool>::new(); 10];
    for s in samples {
        seen[tenth_of(odds.shown(&s.counts))].insert(s.game, s.won);
    }
    odds.tenths = seen
        .iter()
        .map(|games| Games {
            games: games.len() as u32,
            won: games.values().filter(|&&w| w).count() as u32,
        })
        .collect();
    odds
}

/// The (chance shown, won) points of `samples` under `odds`, for a
/// [`super::chance::Reliability`] table.
pub fn points(odds: &Odds, samples: &[Sample]) -> Vec<(f64, bool)> {
    samples
        .iter()
        .map(|s| (odds.shown(&s.counts), s.won))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(runs: f64, won: bool, game: u32) -> Sample {
        let mut counts = [0.0; FEATURES];
        counts[0] = runs;
        Sample { counts, won, game }
    }

    #[test]
    fn the_logistic_fit_finds_the_share_won_at_each_input() {
        // Input 0: 1 of 4 won; 4: 3 of 4 won. A logistic in one input fits
        // both shares exactly: logit(1/4) = -ln 3 at 0 and ln 3 at 4, so
        // the weight is ln 3 / 2 and the constant -ln 3.
        let row = |x: f64, won: bool, weight: f64| (vec![x, 7.0], won, weight);
        let rows = vec![
            row(0.0, true, 1.0),
            row(0.0, false, 1.0),
            row(0.0, false, 1.0),
            row(0.0, false, 1.0),
            row(4.0, true, 1.0),
            row(4.0, true, 1.0),
            row(4.0, true, 1.0),
            row(4.0, false, 1.0),
        ];
        let w = fit_weighted(&rows, 0.0);
        assert!((w[0] + 3f64.ln()).abs() < 1e-6, "{w:?}");
        assert!((w[1] - 3f64.ln() / 2.0).abs() < 1e-6, "{w:?}");
        // The second input never varies: its weight stays 0.
        assert!(w[2].abs() < 1e-9, "{w:?}");
        // A row of weight 3 counts as three rows.
        let weighted = vec![
            row(0.0, true, 1.0),
            row(0.0, false, 3.0),
            row(4.0, true, 3.0),
            row(4.0, false, 1.0),
        ];
        let v = fit_weighted(&weighted, 0.0);
        assert!(w.iter().zip(&v).all(|(a, b)| (a - b).abs() < 1e-6), "{v:?}");
    }

    #[test]
    fn the_fitted_chance_rises_with_the_runs_removed_and_counts_games_by_tenth() {
        let mut samples = Vec::new();
        for (i, won) in [true, false, false, false].into_iter().enumerate() {
            samples.push(sample(0.0, won, i as u32));
        }
        for (i, won) in [true, true, true, false].into_iter().enumerate() {
            samples.push(sample(4.0, won, 4 + i as u32));
        }
        let odds = fit(1, "hop", &samples, String::new());
        let (low, high) = (
            odds.shown(&sample(0.0, false, 0).counts),
            odds.shown(&sample(4.0, false, 0).counts),
        );
        // The ridge pulls both toward the half won, in order.
        assert!(0.25 < low && low < high && high < 0.75, "{low} {high}");
        assert_eq!(odds.tenths.iter().map(|t| t.games).sum::<u32>(), 8);
        assert_eq!(odds.tenths[tenth_of(low)], Games { games: 4, won: 1 });
        let shown = odds.chance_of(&sample(0.0, false, 0).counts);
        assert_eq!(shown.games, 4);
        assert!(shown.low <= shown.chance && shown.chance <= shown.high);
    }

    #[test]
    fn a_recorded_game_is_replayed_to_the_positions_its_player_saw() {
        use crate::batch::{BlindRecord, BlindSettings, Source};
        use crate::cards::SuitCount;
        use crate::deal::Rules;
        // Own 1-suit deal 1: its first legal move and a deal.
        let deal = crate::deal::numbered::deal(1, SuitCount::One, Rules::Standard);
        let referee = Referee::new(&deal).unwrap();
        let first = referee.view().moves()[0];
        let line = format!("{first} deal");
        let mut record: Record = serde_json::from_str(
            r#"{"number":1,"source":"own","suits":1,"rules":"standard","verdict":"undecided","seconds":0.0,"positions":1,"line_length":null}"#,
        )
        .unwrap();
        assert_eq!(record.source, Source::Own);
        assert!(samples_of(&record, 0).unwrap().is_none());
        record.blind = Some(BlindRecord {
            won: true,
            moves: 2,
            decisions: 0,
            unplanned_moves: 2,
            runs_removed: 0,
            face_down_left: 40,
            seconds: 0.0,
            cpu_seconds: None,
            slowest_move_seconds: None,
            ended: "won".into(),
            settings: serde_json::from_str::<BlindSettings>(
                r#"{"player":"hop","samples":1,"max_positions":1,"max_moves":1,"lookahead":1,"seed":1}"#,
            )
            .unwrap(),
            game_seed: None,
            chances: Vec::new(),
            line,
        });
        let samples = samples_of(&record, 7).unwrap().unwrap();
        assert_eq!(samples.len(), 2);
        assert_eq!(samples[0].counts, counts_of(referee.view()));
        assert!(samples.iter().all(|s| s.won && s.game == 7));
        // 44 cards face down at the start, as the player sees them.
        assert_eq!(samples[0].counts[1], 44.0);
        // A line the deal does not allow is an error that names the deal.
        record.blind.as_mut().unwrap().line = "1-1/1".into();
        assert!(samples_of(&record, 0).unwrap_err().contains("deal 1"));
    }
}
