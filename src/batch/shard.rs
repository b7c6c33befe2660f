//! Which deals a batch runs: the source of deal numbers, an inclusive range
//! of them, and a shard of that range.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::cards::SuitCount;
use crate::deal::{Deal, Rules, numbered, pysol};

use super::BatchError;

/// Where deal numbers come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// The project's own generator ([`numbered`]).
    Own,
    /// PySol's game numbers ([`pysol`]), 4 suits.
    Pysol,
}

impl Source {
    /// The highest number this source has.
    pub fn max_number(self) -> u128 {
        match self {
            Source::Own => u128::from(u64::MAX),
            Source::Pysol => pysol::MAX_GAME,
        }
    }
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Source::Own => "own",
            Source::Pysol => "pysol",
        })
    }
}

/// The deal `number` of `source` with these suits and rules.
pub fn numbered_deal(
    source: Source,
    number: u128,
    suits: SuitCount,
    rules: Rules,
) -> Result<Deal, BatchError> {
    match source {
        Source::Own => {
            let number = u64::try_from(number).map_err(|_| {
                BatchError::Number(format!(
                    "own deal numbers go from 0 to {}; {number} is out of range",
                    u64::MAX
                ))
            })?;
            Ok(numbered::deal(number, suits, rules))
        }
        Source::Pysol => {
            if suits != SuitCount::Four {
                return Err(BatchError::Number(format!(
                    "PySol game numbers are 4-suit Spider deals, not {}-suit",
                    suits.count()
                )));
            }
            pysol::deal(number, rules).map_err(|err| BatchError::Number(err.to_string()))
        }
    }
}

/// An inclusive range of deal numbers, written `A..B` (or just `A`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DealRange {
    pub first: u128,
    pub last: u128,
}

impl FromStr for DealRange {
    type Err = BatchError;

    fn from_str(text: &str) -> Result<DealRange, BatchError> {
        let error = |reason: &str| BatchError::Range {
            text: text.to_string(),
            reason: reason.to_string(),
        };
        let number = |part: &str| {
            part.trim()
                .parse::<u128>()
                .map_err(|_| error(&format!("`{}` is not a deal number", part.trim())))
        };
        let (first, last) = match text.split_once("..") {
            Some((a, b)) => (number(a)?, number(b.strip_prefix('=').unwrap_or(b))?),
            None => {
                let n = number(text)?;
                (n, n)
            }
        };
        if first > last {
            return Err(error("the first number is larger than the last"));
        }
        Ok(DealRange { first, last })
    }
}

impl fmt::Display for DealRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}..{}", self.first, self.last)
    }
}

/// Part `index` of `count` (1-based) of a range: its deals `index`,
/// `index + count`, `index + 2 count`, ... counted from the range's first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u128,
    pub count: u128,
}

impl Shard {
    /// The whole range: shard 1/1.
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// How many deals of `range` this shard holds.
    pub fn len(self, range: DealRange) -> u128 {
        let start = range.first.saturating_add(self.index - 1);
        if start > range.last {
            0
        } else {
            (range.last - start) / self.count + 1
        }
    }

    /// Whether this shard holds no deal of `range`.
    pub fn is_empty(self, range: DealRange) -> bool {
        self.len(range) == 0
    }

    /// The `i`-th deal number (0-based) of this shard of `range`.
    pub fn number(self, range: DealRange, i: u128) -> u128 {
        range.first + (self.index - 1) + i * self.count
    }

    /// Whether deal `number` belongs to this shard of `range`.
    pub fn contains(self, range: DealRange, number: u128) -> bool {
        number >= range.first
            && number <= range.last
            && (number - range.first) % self.count == self.index - 1
    }
}

impl FromStr for Shard {
    type Err = BatchError;

    fn from_str(text: &str) -> Result<Shard, BatchError> {
        let error = |reason: &str| BatchError::Shard {
            text: text.to_string(),
            reason: reason.to_string(),
        };
        let (k, n) = text.split_once('/').ok_or_else(|| error("no `/`"))?;
        let number = |part: &str| {
            part.trim()
                .parse::<u128>()
                .map_err(|_| error(&format!("`{}` is not a number", part.trim())))
        };
        let (index, count) = (number(k)?, number(n)?);
        if count == 0 {
            return Err(error("N must be at least 1"));
        }
        if index == 0 || index > count {
            return Err(error("K must be between 1 and N"));
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_parse_inclusive() {
        assert_eq!(
            "1..1000".parse::<DealRange>().unwrap(),
            DealRange {
                first: 1,
                last: 1000
            }
        );
        assert_eq!(
            "5..=7".parse::<DealRange>().unwrap(),
            DealRange { first: 5, last: 7 }
        );
        assert_eq!(
            "42".parse::<DealRange>().unwrap(),
            DealRange {
                first: 42,
                last: 42
            }
        );
        assert_eq!(
            " 3 .. 3 ".parse::<DealRange>().unwrap(),
            DealRange { first: 3, last: 3 }
        );
        for bad in ["", "..", "a..b", "5..1", "1..", "..4", "-1..3", "1...3"] {
            let err = bad.parse::<DealRange>().unwrap_err();
            assert!(err.to_string().contains(&format!("`{bad}`")), "{err}");
        }
    }

    #[test]
    fn shards_split_a_range_without_overlap() {
        assert_eq!(
            "3/8".parse::<Shard>().unwrap(),
            Shard { index: 3, count: 8 }
        );
        for bad in ["0/3", "4/3", "1/0", "3", "a/b", "/2", "1/"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        let range = DealRange {
            first: 10,
            last: 29,
        };
        let mut all = Vec::new();
        for k in 1..=3 {
            let shard = Shard { index: k, count: 3 };
            let numbers: Vec<u128> = (0..shard.len(range))
                .map(|i| shard.number(range, i))
                .collect();
            assert!(numbers.iter().all(|&n| shard.contains(range, n)));
            all.extend(numbers);
        }
        all.sort();
        assert_eq!(all, (10..=29).collect::<Vec<u128>>());
        let shard = Shard { index: 1, count: 3 };
        assert_eq!(
            (0..shard.len(range))
                .map(|i| shard.number(range, i))
                .collect::<Vec<_>>(),
            [10, 13, 16, 19, 22, 25, 28]
        );
        // A shard can be empty when the range is short.
        let tiny = DealRange { first: 1, last: 2 };
        assert_eq!(Shard { index: 3, count: 4 }.len(tiny), 0);
        assert_eq!(Shard::WHOLE.len(tiny), 2);
    }

    #[test]
    fn numbered_deal_checks_the_source() {
        assert!(numbered_deal(Source::Own, 5, SuitCount::One, Rules::Standard).is_ok());
        assert!(
            numbered_deal(
                Source::Own,
                u128::from(u64::MAX) + 1,
                SuitCount::Four,
                Rules::Standard
            )
            .is_err()
        );
        assert!(numbered_deal(Source::Pysol, 5, SuitCount::Two, Rules::Standard).is_err());
        assert!(
            numbered_deal(
                Source::Pysol,
                pysol::MAX_GAME + 1,
                SuitCount::Four,
                Rules::Standard
            )
            .is_err()
        );
    }
}
