//! The run: decide every deal of a batch in parallel, handing each record
//! over the moment it is decided.

use std::collections::HashSet;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use rayon::prelude::*;

use crate::cards::SuitCount;
use crate::deal::Rules;
use crate::solve::{self, Limits, Verdict};

use super::{BatchError, DealKey, DealList, Record, Shard, Source, numbered_deal};

/// What to run: which deals, how, within which limits.
#[derive(Clone, Debug)]
pub struct BatchConfig {
    pub source: Source,
    pub deals: DealList,
    pub shard: Shard,
    pub suits: SuitCount,
    pub rules: Rules,
    pub limits: Limits,
}

impl BatchConfig {
    /// Checks that the deals fit the source and the suits the source.
    pub fn validate(&self) -> Result<(), BatchError> {
        if self.deals.max() > self.source.max_number() {
            return Err(BatchError::Number(format!(
                "{} deal numbers go from 0 to {}; the deals {} go past it",
                self.source,
                self.source.max_number(),
                self.deals
            )));
        }
        if self.source == Source::Pysol && self.suits != SuitCount::Four {
            return Err(BatchError::Number(format!(
                "PySol game numbers are 4-suit Spider deals, not {}-suit",
                self.suits.count()
            )));
        }
        Ok(())
    }

    /// The key of deal `number` under this configuration.
    pub fn key(&self, number: u128) -> DealKey {
        DealKey {
            source: self.source,
            number,
            suits: self.suits,
            rules: self.rules,
        }
    }

    /// Whether `record` is one of this batch's deals.
    pub fn includes(&self, record: &Record) -> bool {
        record.source == self.source
            && record.suits == self.suits
            && record.rules == self.rules
            && self.shard.contains(&self.deals, record.number)
    }

    /// How many deals this batch has.
    pub fn len(&self) -> u128 {
        self.shard.len(&self.deals)
    }

    /// Whether this batch has no deal.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Decides one deal and makes its record.
pub fn decide(
    config: &BatchConfig,
    number: u128,
    cancel: &AtomicBool,
) -> Result<Record, BatchError> {
    let start = Instant::now();
    let deal = numbered_deal(config.source, number, config.suits, config.rules)?;
    let analysis = solve::analyze(&deal, &config.limits, cancel)
        .map_err(|err| BatchError::Number(format!("deal {number}: {err}")))?;
    let seconds = start.elapsed().as_secs_f64();
    Ok(Record {
        number,
        source: config.source,
        suits: config.suits,
        rules: config.rules,
        verdict: analysis.verdict,
        stopped_by: match analysis.verdict {
            Verdict::Undecided => analysis.stopped_by,
            _ => None,
        },
        seconds,
        positions: analysis.positions,
        line_length: analysis.line.as_ref().map(Vec::len),
        line: analysis.line.as_deref().map(crate::game::compact_line),
        first_win_seconds: analysis.first_win.map(|(time, _)| time.as_secs_f64()),
        finished_at: SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_secs_f64())
            .unwrap_or(0.0),
        blind: None,
    })
}

/// Decides every deal of the batch not in `done`, in parallel on the current
/// rayon pool, handing each record to `on_record` as soon as it is decided.
///
/// Once `cancel` is set no new deal starts, and a deal that ends undecided
/// while it is set is dropped (it was cut short, not decided). The first
/// error from `on_record` sets `cancel` and is returned. Returns how many
/// records were handed over.
pub fn run(
    config: &BatchConfig,
    done: &HashSet<DealKey>,
    cancel: &AtomicBool,
    on_record: &(dyn Fn(Record) -> Result<(), BatchError> + Sync),
) -> Result<u64, BatchError> {
    config.validate()?;
    let failure: Mutex<Option<BatchError>> = Mutex::new(None);
    let written = std::sync::atomic::AtomicU64::new(0);
    (0..config.len()).into_par_iter().for_each(|i| {
        if cancel.load(Ordering::Relaxed) {
            return;
        }
        let number = config.shard.number(&config.deals, i);
        if done.contains(&config.key(number)) {
            return;
        }
        let result = decide(config, number, cancel).and_then(|record| {
            if record.verdict == Verdict::Undecided && cancel.load(Ordering::Relaxed) {
                return Ok(());
            }
            on_record(record)?;
            written.fetch_add(1, Ordering::Relaxed);
            Ok(())
        });
        if let Err(err) = result {
            cancel.store(true, Ordering::Relaxed);
            failure
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .get_or_insert(err);
        }
    });
    match failure
        .into_inner()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
    {
        Some(err) => Err(err),
        None => Ok(written.into_inner()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_decides_each_deal_once_and_skips_done_ones() {
        let config = BatchConfig {
            source: Source::Own,
            deals: DealList::range(1, 10),
            shard: Shard { index: 2, count: 3 },
            suits: SuitCount::Four,
            rules: Rules::Standard,
            // Small budgets: which deals are run is what counts here.
            limits: Limits {
                max_positions: Some(100_000),
                shorten_positions: 0,
                ..Limits::default()
            },
        };
        let done: HashSet<DealKey> = [config.key(5)].into_iter().collect();
        let got = Mutex::new(Vec::new());
        let cancel = AtomicBool::new(false);
        let n = run(&config, &done, &cancel, &|r| {
            got.lock().unwrap().push(r.number);
            Ok(())
        })
        .unwrap();
        let mut got = got.into_inner().unwrap();
        got.sort();
        assert_eq!(got, [2, 8]);
        assert_eq!(n, 2);

        // Once cancelled, nothing more is written.
        let cancel = AtomicBool::new(true);
        assert_eq!(
            run(&config, &HashSet::new(), &cancel, &|_| Ok(())).unwrap(),
            0
        );
    }
}
