//! Which deals a batch runs: the source of deal numbers, a list of them
//! (numbers and inclusive ranges), and a shard of that list.

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

/// The deals of a batch: numbers and inclusive ranges joined by commas,
/// like `1..10,27296,30001..30004` (or one range `A..B`, or one number),
/// kept in the order given: deals are run and sharded in that order. No
/// deal may be given twice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DealList {
    /// The items as given, each `(first, last)`, both inclusive.
    spans: Vec<(u128, u128)>,
    /// How many deals the items up to and including each one hold.
    ends: Vec<u128>,
    /// The items' indices, by their first number (for [`DealList::position`]).
    by_first: Vec<usize>,
}

impl DealList {
    /// The deals `first..=last` (`first <= last`).
    pub fn range(first: u128, last: u128) -> DealList {
        DealList::of(vec![(first, last.max(first))])
    }

    fn of(spans: Vec<(u128, u128)>) -> DealList {
        let mut ends = Vec::with_capacity(spans.len());
        let mut total: u128 = 0;
        for &(first, last) in &spans {
            total = total.saturating_add(last - first + 1);
            ends.push(total);
        }
        let mut by_first: Vec<usize> = (0..spans.len()).collect();
        by_first.sort_by_key(|&i| spans[i]);
        DealList {
            spans,
            ends,
            by_first,
        }
    }

    /// How many deals the list holds.
    pub fn len(&self) -> u128 {
        self.ends.last().copied().unwrap_or(0)
    }

    /// Whether the list holds no deal (never, once parsed).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The largest deal number of the list.
    pub fn max(&self) -> u128 {
        self.spans.iter().map(|&(_, last)| last).max().unwrap_or(0)
    }

    /// The `i`-th deal (0-based, `i < len`), in the order given.
    pub fn nth(&self, i: u128) -> u128 {
        let item = self.ends.partition_point(|&end| end <= i);
        let before = if item == 0 { 0 } else { self.ends[item - 1] };
        self.spans[item].0 + (i - before)
    }

    /// Where deal `number` stands in the list (0-based), if it is in it.
    pub fn position(&self, number: u128) -> Option<u128> {
        let at = self
            .by_first
            .partition_point(|&i| self.spans[i].0 <= number)
            .checked_sub(1)?;
        let item = self.by_first[at];
        let (first, last) = self.spans[item];
        let before = if item == 0 { 0 } else { self.ends[item - 1] };
        (number <= last).then(|| before + (number - first))
    }

    /// Every deal of the list, in the order given.
    pub fn numbers(&self) -> impl Iterator<Item = u128> + '_ {
        self.spans.iter().flat_map(|&(first, last)| first..=last)
    }

    /// Reads a list whose numbers go up to `max` (the source's last number),
    /// as [`FromStr`] does; a number past `max` is refused, naming it.
    pub fn parse_up_to(text: &str, max: u128) -> Result<DealList, BatchError> {
        let list: DealList = text.parse()?;
        if let Some(&(first, last)) = list.spans.iter().find(|&&(_, last)| last > max) {
            return Err(BatchError::Range {
                text: text.to_string(),
                reason: format!(
                    "`{}` goes past {max}, the last deal number there is",
                    Item(first, last)
                ),
            });
        }
        Ok(list)
    }
}

/// One item of a list, as it is written.
struct Item(u128, u128);

impl fmt::Display for Item {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 == self.1 {
            write!(f, "{}", self.0)
        } else {
            write!(f, "{}..{}", self.0, self.1)
        }
    }
}

impl FromStr for DealList {
    type Err = BatchError;

    fn from_str(text: &str) -> Result<DealList, BatchError> {
        let error = |reason: String| BatchError::Range {
            text: text.to_string(),
            reason,
        };
        let number = |item: &str, part: &str| {
            let part = part.trim();
            if part.is_empty() || !part.chars().all(|c| c.is_ascii_digit()) {
                return Err(error(format!(
                    "in `{}`, `{part}` is not a deal number",
                    item.trim()
                )));
            }
            part.parse::<u128>().map_err(|_| {
                error(format!(
                    "in `{}`, `{part}` is too large a number",
                    item.trim()
                ))
            })
        };
        let mut spans = Vec::new();
        for (i, item) in text.split(',').enumerate() {
            if item.trim().is_empty() {
                return Err(error(format!(
                    "item {} is empty (a comma too many?)",
                    i + 1
                )));
            }
            let (first, last) = match item.split_once("..") {
                Some((a, b)) => (
                    number(item, a)?,
                    number(item, b.strip_prefix('=').unwrap_or(b))?,
                ),
                None => {
                    let n = number(item, item)?;
                    (n, n)
                }
            };
            if first > last {
                return Err(error(format!(
                    "in `{}`, the first number is larger than the last",
                    item.trim()
                )));
            }
            spans.push((first, last));
        }
        let list = DealList::of(spans);
        // Sorted by first number, an item that starts at or before the
        // furthest end so far overlaps an earlier one.
        let mut furthest: Option<usize> = None;
        for &i in &list.by_first {
            let (first, last) = list.spans[i];
            if let Some(j) = furthest {
                let (_, end) = list.spans[j];
                if first <= end {
                    let (a, b) = (i.min(j), i.max(j));
                    return Err(error(format!(
                        "deal {first} is given twice, in `{}` and in `{}`; give each deal once",
                        Item(list.spans[a].0, list.spans[a].1),
                        Item(list.spans[b].0, list.spans[b].1)
                    )));
                }
                if last > end {
                    furthest = Some(i);
                }
            } else {
                furthest = Some(i);
            }
        }
        Ok(list)
    }
}

impl fmt::Display for DealList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, &(first, last)) in self.spans.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{}", Item(first, last))?;
        }
        Ok(())
    }
}

/// Part `index` of `count` (1-based) of a list of deals: its deals `index`,
/// `index + count`, `index + 2 count`, ... counted in the list's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u128,
    pub count: u128,
}

impl Shard {
    /// The whole list: shard 1/1.
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// How many deals of `deals` this shard holds.
    pub fn len(self, deals: &DealList) -> u128 {
        let (total, start) = (deals.len(), self.index - 1);
        if start >= total {
            0
        } else {
            (total - 1 - start) / self.count + 1
        }
    }

    /// Whether this shard holds no deal of `deals`.
    pub fn is_empty(self, deals: &DealList) -> bool {
        self.len(deals) == 0
    }

    /// The `i`-th deal number (0-based) of this shard of `deals`.
    pub fn number(self, deals: &DealList, i: u128) -> u128 {
        deals.nth((self.index - 1) + i * self.count)
    }

    /// Whether deal `number` belongs to this shard of `deals`.
    pub fn contains(self, deals: &DealList, number: u128) -> bool {
        deals
            .position(number)
            .is_some_and(|at| at % self.count == self.index - 1)
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

    fn list(text: &str) -> Vec<u128> {
        text.parse::<DealList>().unwrap().numbers().collect()
    }

    #[test]
    fn ranges_parse_inclusive() {
        assert_eq!(list("1..5"), [1, 2, 3, 4, 5]);
        assert_eq!(list("5..=7"), [5, 6, 7]);
        assert_eq!(list("42"), [42]);
        assert_eq!(list(" 3 .. 3 "), [3]);
        let range: DealList = "1..1000".parse().unwrap();
        assert_eq!(range, DealList::range(1, 1000));
        assert_eq!((range.len(), range.max()), (1000, 1000));
        assert_eq!(range.to_string(), "1..1000");
        for bad in [
            "", "..", "a..b", "5..1", "1..", "..4", "-1..3", "1...3", "+3",
        ] {
            let err = bad.parse::<DealList>().unwrap_err();
            assert!(err.to_string().contains(&format!("`{bad}`")), "{err}");
        }
    }

    #[test]
    fn lists_keep_the_order_given() {
        assert_eq!(list("1131,2680,2857"), [1131, 2680, 2857]);
        assert_eq!(list("3,1..2"), [3, 1, 2]);
        assert_eq!(
            list("1..3,27296, 30001..=30002"),
            [1, 2, 3, 27296, 30001, 30002]
        );
        let deals: DealList = "30001..30004,27296,1..10".parse().unwrap();
        assert_eq!(deals.to_string(), "30001..30004,27296,1..10");
        assert_eq!((deals.len(), deals.max()), (15, 30004));
        let all: Vec<u128> = deals.numbers().collect();
        for (i, &number) in all.iter().enumerate() {
            assert_eq!(deals.nth(i as u128), number);
            assert_eq!(deals.position(number), Some(i as u128));
        }
        for absent in [0, 11, 27295, 27297, 30000, 30005, u128::MAX] {
            assert_eq!(deals.position(absent), None, "{absent}");
        }
    }

    #[test]
    fn bad_lists_are_refused_naming_the_item() {
        let reason = |text: &str| match text.parse::<DealList>() {
            Err(BatchError::Range { text: t, reason }) => {
                assert_eq!(t, text);
                reason
            }
            other => panic!("{text}: {other:?}"),
        };
        assert_eq!(reason("1,,2"), "item 2 is empty (a comma too many?)");
        assert_eq!(reason("1,2,"), "item 3 is empty (a comma too many?)");
        assert_eq!(reason(",1"), "item 1 is empty (a comma too many?)");
        assert_eq!(
            reason("1,10..5"),
            "in `10..5`, the first number is larger than the last"
        );
        assert_eq!(reason("1,x"), "in `x`, `x` is not a deal number");
        assert_eq!(reason("1,2..y"), "in `2..y`, `y` is not a deal number");
        assert_eq!(reason("1,-2"), "in `-2`, `-2` is not a deal number");
        assert_eq!(
            reason("1,999999999999999999999999999999999999999999"),
            "in `999999999999999999999999999999999999999999`, \
             `999999999999999999999999999999999999999999` is too large a number"
        );
        assert_eq!(
            reason("1..10,5"),
            "deal 5 is given twice, in `1..10` and in `5`; give each deal once"
        );
        assert_eq!(
            reason("20..30,1..3,3..5"),
            "deal 3 is given twice, in `1..3` and in `3..5`; give each deal once"
        );
        assert_eq!(
            reason("7,1..3,7"),
            "deal 7 is given twice, in `7` and in `7`; give each deal once"
        );
        assert_eq!(
            reason("40..50,1..100"),
            "deal 40 is given twice, in `40..50` and in `1..100`; give each deal once"
        );
        // An item inside a long earlier one, past a short one between.
        assert_eq!(
            reason("1..100,5,50"),
            "deal 5 is given twice, in `1..100` and in `5`; give each deal once"
        );
        assert_eq!(
            reason("1..100,200,50"),
            "deal 50 is given twice, in `1..100` and in `50`; give each deal once"
        );
        // Past the source's last number, by the item.
        assert!(DealList::parse_up_to("1..10,32000", 32000).is_ok());
        match DealList::parse_up_to("1..10,31990..32001", 32000) {
            Err(BatchError::Range { reason, .. }) => assert_eq!(
                reason,
                "`31990..32001` goes past 32000, the last deal number there is"
            ),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn shards_split_a_list_in_its_order() {
        let deals: DealList = "9,1..4".parse().unwrap();
        let shard = |k| Shard { index: k, count: 2 };
        let of = |k| -> Vec<u128> {
            (0..shard(k).len(&deals))
                .map(|i| shard(k).number(&deals, i))
                .collect()
        };
        assert_eq!(of(1), [9, 2, 4]);
        assert_eq!(of(2), [1, 3]);
        assert!([9, 2, 4].iter().all(|&n| shard(1).contains(&deals, n)));
        assert!([1, 3, 5, 8].iter().all(|&n| !shard(1).contains(&deals, n)));
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
