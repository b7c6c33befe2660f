//! The one-page report of a batch's results (`spider batch --html`): the
//! decided share and the share won with its interval, the distribution of
//! solve times, of times to a first win and of winning-line lengths as
//! inline SVG bar charts, the lost deals with why each is lost, the hardest
//! deals (most positions, most seconds), the summary `spider batch` prints,
//! and the undecided deals listed, so they can be rerun with more time.

use std::fmt::Write as _;

use crate::batch::{Record, Source, Summary};
use crate::solve::Verdict;

use super::escape;
use crate::text::count;

/// The most undecided (or lost) deals listed (the count is always given).
const MOST_LISTED: usize = 2_000;

/// The hardest deals listed, by positions and by seconds.
const HARDEST: usize = 10;

/// A bar chart: one bar per `(label, count)`.
fn bar_chart(title: &str, unit: &str, bins: &[(String, usize)], colour: &str) -> String {
    let (width, height, left, bottom, top) = (680.0, 250.0, 40.0, 46.0, 44.0);
    let most = bins.iter().map(|(_, n)| *n).max().unwrap_or(0).max(1) as f64;
    let slot = (width - left - 10.0) / bins.len().max(1) as f64;
    let plot = height - bottom - top;
    let mut svg = format!(
        "<svg class=\"chart\" viewBox=\"0 0 {width} {height}\" role=\"img\" aria-label=\"{}\">\
         <text x=\"{left}\" y=\"18\" font-size=\"14\" font-weight=\"600\">{}</text>",
        escape(title),
        escape(title)
    );
    let _ = write!(
        svg,
        "<line x1=\"{left}\" y1=\"{y}\" x2=\"{x2}\" y2=\"{y}\" stroke=\"#555\"/>",
        y = height - bottom,
        x2 = width - 10.0
    );
    for (index, (label, count)) in bins.iter().enumerate() {
        let x = left + index as f64 * slot;
        let h = plot * *count as f64 / most;
        let y = height - bottom - h;
        let _ = write!(
            svg,
            "<rect class=\"bar\" data-count=\"{count}\" x=\"{:.1}\" y=\"{y:.1}\" width=\"{:.1}\" height=\"{h:.1}\" fill=\"{colour}\"><title>{}: {count}</title></rect>",
            x + slot * 0.1,
            slot * 0.8,
            escape(label)
        );
        if *count > 0 {
            let _ = write!(
                svg,
                "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\" text-anchor=\"middle\">{count}</text>",
                x + slot / 2.0,
                y - 3.0
            );
        }
        let _ = write!(
            svg,
            "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"10\" text-anchor=\"middle\">{}</text>",
            x + slot / 2.0,
            height - bottom + 14.0,
            escape(label)
        );
    }
    let _ = write!(
        svg,
        "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\" text-anchor=\"middle\" fill=\"#444\">{}</text></svg>",
        left + (width - left) / 2.0,
        height - 8.0,
        escape(unit)
    );
    svg
}

/// Solve times in bins that grow by about three times each.
fn time_bins(records: &[Record]) -> Vec<(String, usize)> {
    seconds_bins(records.iter().map(|r| r.seconds))
}

/// Seconds to the first win of the winnable deals (their whole time when
/// the record does not keep it).
fn first_win_bins(records: &[Record]) -> Vec<(String, usize)> {
    seconds_bins(
        records
            .iter()
            .filter(|r| r.verdict == Verdict::Winnable)
            .map(|r| r.first_win_seconds.unwrap_or(r.seconds)),
    )
}

/// Seconds in bins that grow by about three times each.
fn seconds_bins(seconds: impl Iterator<Item = f64>) -> Vec<(String, usize)> {
    const EDGES: [f64; 8] = [0.03, 0.1, 0.3, 1.0, 3.0, 10.0, 30.0, 100.0];
    let mut counts = [0usize; EDGES.len() + 1];
    for seconds in seconds {
        let bin = EDGES
            .iter()
            .position(|&edge| seconds < edge)
            .unwrap_or(EDGES.len());
        counts[bin] += 1;
    }
    let last = counts.iter().rposition(|&n| n > 0).unwrap_or(0);
    (0..=last.max(3))
        .map(|bin| {
            let label = match bin {
                0 => format!("< {}", EDGES[0]),
                b if b == EDGES.len() => format!("≥ {}", EDGES[b - 1]),
                b => format!("{}–{}", EDGES[b - 1], EDGES[b]),
            };
            (label, counts[bin])
        })
        .collect()
}

/// Winning-line lengths in bins of 10 moves (20 when they spread wide).
fn line_bins(records: &[Record]) -> Vec<(String, usize)> {
    let lengths: Vec<usize> = records.iter().filter_map(|r| r.line_length).collect();
    let (Some(&low), Some(&high)) = (lengths.iter().min(), lengths.iter().max()) else {
        return Vec::new();
    };
    let step = if high - low > 300 { 20 } else { 10 };
    let first = low / step * step;
    let bins = (high - first) / step + 1;
    let mut counts = vec![0usize; bins];
    for length in lengths {
        counts[(length - first) / step] += 1;
    }
    counts
        .into_iter()
        .enumerate()
        .map(|(bin, n)| (format!("{}", first + bin * step), n))
        .collect()
}

fn source_name(source: Source) -> &'static str {
    match source {
        Source::Own => "own",
        Source::Pysol => "PySol",
    }
}

fn verdict_name(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Winnable => "winnable",
        Verdict::Unwinnable => "unwinnable",
        Verdict::Undecided => "undecided",
    }
}

/// A share as every report prints it: `97.1 % (970 of 999; 95 % CI
/// 95.8–98.0 %)`.
fn share_text(share: Option<crate::batch::Share>) -> String {
    share.map_or("n/a".to_string(), |s| s.to_string())
}

/// The lost deals, each with why it is lost.
fn lost_section(records: &[Record]) -> String {
    let lost: Vec<&Record> = records
        .iter()
        .filter(|r| r.verdict == Verdict::Unwinnable)
        .collect();
    if lost.is_empty() {
        return "<p>No deal is proved lost.</p>".to_string();
    }
    let mut rows = String::new();
    for record in lost.iter().take(MOST_LISTED) {
        let _ = writeln!(
            rows,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{:.2}</td><td>{}</td><td class=\"why\">{}</td></tr>",
            record.number,
            source_name(record.source),
            record.suits.count(),
            record.rules,
            record.seconds,
            record.positions,
            escape(&crate::batch::why_lost(record))
        );
    }
    format!(
        "<p>{}{}, each proved lost (a search that examined every position it could reach, or the \
         dead-end test on the deal itself); <code>spider batch --verify</code> proves each again.</p>\n\
         <table id=\"lost\"><thead><tr><th>deal</th><th>numbers</th><th>suits</th><th>rules</th><th>seconds</th><th>positions</th><th>why lost</th></tr></thead>\n<tbody>\n{rows}</tbody></table>",
        count(lost.len() as u64, "lost deal"),
        if lost.len() > MOST_LISTED {
            format!(" (the first {MOST_LISTED} listed)")
        } else {
            String::new()
        },
    )
}

/// The deals that took the most positions, and the most seconds.
fn hardest_section(records: &[Record]) -> String {
    if records.is_empty() {
        return "<p>No deal.</p>".to_string();
    }
    let table = |id: &str, by: &str, mut sorted: Vec<&Record>| {
        sorted.truncate(HARDEST);
        let mut rows = String::new();
        for record in sorted {
            let _ = writeln!(
                rows,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{:.2}</td><td>{}</td></tr>",
                record.number,
                verdict_name(record.verdict),
                record.positions,
                record.seconds,
                record.line_length.map_or(String::new(), |n| n.to_string())
            );
        }
        format!(
            "<h3>By {by}</h3>\n<table id=\"{id}\"><thead><tr><th>deal</th><th>verdict</th><th>positions</th><th>seconds</th><th>line</th></tr></thead>\n<tbody>\n{rows}</tbody></table>"
        )
    };
    let mut by_positions: Vec<&Record> = records.iter().collect();
    by_positions.sort_by(|a, b| b.positions.cmp(&a.positions).then(a.number.cmp(&b.number)));
    let mut by_seconds: Vec<&Record> = records.iter().collect();
    by_seconds.sort_by(|a, b| {
        b.seconds
            .total_cmp(&a.seconds)
            .then(a.number.cmp(&b.number))
    });
    format!(
        "{}\n{}",
        table("hardest-positions", "positions examined", by_positions),
        table("hardest-seconds", "seconds", by_seconds)
    )
}

/// The whole report page.
pub fn page(title: &str, records: &[Record], summary: &Summary) -> String {
    let decided = summary
        .decided_share
        .map_or("n/a".to_string(), |share| format!("{:.1} %", share * 100.0));
    let undecided: Vec<&Record> = records
        .iter()
        .filter(|r| r.verdict == Verdict::Undecided)
        .collect();
    let mut rows = String::new();
    for record in undecided.iter().take(MOST_LISTED) {
        let _ = writeln!(
            rows,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{:.2}</td><td>{}</td></tr>",
            record.number,
            source_name(record.source),
            record.suits.count(),
            record.rules,
            record
                .stopped_by
                .map_or("not given".to_string(), |reason| reason.to_string()),
            record.seconds,
            record.positions
        );
    }
    let undecided_section = if undecided.is_empty() {
        "<p>No deal is undecided.</p>".to_string()
    } else {
        format!(
            "<p>{}{}; rerun {} with a larger <code>--max-positions</code> (or a longer <code>--time-limit</code>, when one stopped {}).</p>\n\
             <table id=\"undecided\"><thead><tr><th>deal</th><th>numbers</th><th>suits</th><th>rules</th><th>stopped by</th><th>seconds</th><th>positions</th></tr></thead>\n<tbody>\n{rows}</tbody></table>",
            count(undecided.len() as u64, "undecided deal"),
            if undecided.len() > MOST_LISTED {
                format!(" (the first {MOST_LISTED} listed)")
            } else {
                String::new()
            },
            if undecided.len() == 1 { "it" } else { "them" },
            if undecided.len() == 1 { "it" } else { "them" },
        )
    };
    let lines = line_bins(records);
    let line_chart = if lines.is_empty() {
        "<p>No winnable deal: no winning lines to show.</p>".to_string()
    } else {
        bar_chart(
            "Winning-line lengths",
            "moves (deals included), bins of the given lower bound",
            &lines,
            "#2e7d32",
        )
    };
    let first_wins = first_win_bins(records);
    let first_win_chart = if summary.winnable == 0 {
        String::new()
    } else {
        bar_chart(
            "Time to a first win (winnable deals)",
            "seconds",
            &first_wins,
            "#6a1b9a",
        )
    };
    let won_line = format!(
        "<p class=\"won\" data-won=\"{}\" data-deals=\"{}\">Won: <strong>{}</strong> of all deals \
         (undecided ones counted as not won); of the decided deals, {}.</p>\n",
        summary.winnable,
        summary.deals,
        share_text(summary.winnable_of_all),
        share_text(summary.winnable_of_decided),
    );
    let blind_line = summary.blind.as_ref().map_or(String::new(), |blind| {
        let share = share_text;
        format!(
            "<p class=\"blind\" data-won=\"{}\" data-games=\"{}\">Played blind (seeing only the face-up cards): \
             <strong>{}</strong> won; with every card known, {} winnable. \
             {:.1} s a game (one thread){}; {}.</p>\n",
            blind.won.map_or(0, |s| s.count),
            blind.games,
            share(blind.won),
            share(blind.winnable_known),
            blind.seconds_per_game,
            blind
                .cpu_seconds_per_game
                .map_or(String::new(), |cpu| format!(", {cpu:.1} s of CPU")),
            escape(&blind.settings.join("; "))
        )
    });
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{title}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<main>\n\
         <h1>{title}</h1>\n\
         <p class=\"headline\" data-decided=\"{decided_count}\" data-deals=\"{deals}\"><strong>{decided}</strong> of {deals_words} decided: \
         {winnable} winnable, {unwinnable} unwinnable, {undecided_count} undecided.</p>\n\
         {won_line}{blind_line}{time_chart}\n{first_win_chart}\n{line_chart}\n\
         <h2>Lost deals</h2>\n{lost_section}\n<h2>The hardest deals</h2>\n{hardest_section}\n<h2>Summary</h2>\n<pre>{summary_text}</pre>\n<h2>Undecided deals</h2>\n{undecided_section}\n\
         </main>\n</body>\n</html>\n",
        title = escape(title),
        decided_count = summary.winnable + summary.unwinnable,
        deals = summary.deals,
        deals_words = count(summary.deals, "deal"),
        winnable = summary.winnable,
        unwinnable = summary.unwinnable,
        undecided_count = summary.undecided,
        time_chart = bar_chart(
            "Solve time per deal",
            "seconds",
            &time_bins(records),
            "#1565c0"
        ),
        summary_text = escape(&summary.to_string()),
        lost_section = lost_section(records),
        hardest_section = hardest_section(records),
    )
}

const STYLE: &str = r##"
body { font-family: system-ui, sans-serif; margin: 0; background: #f6f7f4; color: #1b1f1b; }
main { max-width: 760px; margin: 0 auto; padding: 12px 18px 30px; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.4em; } h3 { font-size: 1em; }
.headline { font-size: 1.15em; }
.headline strong { font-size: 1.6em; color: #1b5e20; }
.chart { display: block; width: 100%; height: auto; background: #fff; border: 1px solid #ddd; border-radius: 6px; margin: 12px 0; }
pre { background: #fff; border: 1px solid #ddd; padding: 8px; overflow-x: auto; }
table { border-collapse: collapse; width: 100%; background: #fff; }
th, td { border: 1px solid #ddd; padding: 3px 8px; text-align: right; }
td.why { text-align: left; font-size: 0.9em; }
"##;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::SuitCount;
    use crate::deal::Rules;
    use crate::solve::StopReason;

    fn record(number: u128, verdict: Verdict, seconds: f64, line: Option<usize>) -> Record {
        Record {
            number,
            source: Source::Pysol,
            suits: SuitCount::Four,
            rules: Rules::Standard,
            verdict,
            stopped_by: (verdict == Verdict::Undecided).then_some(StopReason::Time),
            seconds,
            positions: 10,
            line_length: line,
            line: None,
            first_win_seconds: None,
            finished_at: 0.0,
            blind: None,
        }
    }

    #[test]
    fn the_report_charts_times_and_lines_and_lists_the_undecided() {
        let records = vec![
            record(1, Verdict::Winnable, 0.05, Some(121)),
            record(2, Verdict::Winnable, 0.5, Some(139)),
            record(3, Verdict::Winnable, 0.6, Some(125)),
            record(4, Verdict::Undecided, 10.0, None),
        ];
        let summary = Summary::of(&records, None);
        let page = page("PySol 1..4", &records, &summary);
        assert!(page.contains("<strong>75.0 %</strong> of 4 deals decided"));
        assert!(page.contains("data-decided=\"3\""));
        // Times: 1 in 0.03–0.1, 2 in 0.3–1, 1 in 10–30.
        assert_eq!(time_bins(&records)[1], ("0.03–0.1".to_string(), 1));
        assert_eq!(time_bins(&records)[3], ("0.3–1".to_string(), 2));
        assert_eq!(time_bins(&records)[6], ("10–30".to_string(), 1));
        // Lines: 120–129 holds two, 130–139 one.
        assert_eq!(
            line_bins(&records),
            vec![("120".to_string(), 2), ("130".to_string(), 1)]
        );
        assert!(page.contains("<tr><td>4</td><td>PySol</td><td>4</td><td>standard</td><td>the time limit was reached</td>"));
        assert!(!page.contains("http"), "nothing is loaded from the network");
    }

    #[test]
    fn the_report_gives_the_share_won_the_lost_deals_first_wins_and_the_hardest() {
        let mut records = vec![
            record(1, Verdict::Winnable, 0.5, Some(121)),
            record(2, Verdict::Winnable, 20.0, Some(139)),
            record(14934, Verdict::Unwinnable, 0.001, None),
            record(4, Verdict::Undecided, 10.0, None),
        ];
        records[0].first_win_seconds = Some(0.2);
        records[1].first_win_seconds = Some(5.0);
        records[1].positions = 9_000_000;
        records[2].positions = 1;
        records[3].positions = 20_000_000;
        let summary = Summary::of(&records, None);
        let page = page("PySol", &records, &summary);
        assert!(
            page.contains(
                "Won: <strong>50.0 % (2 of 4; 95 % CI 15.0–85.0 %)</strong> of all deals"
            ),
            "{page}"
        );
        assert!(page.contains("of the decided deals, 66.7 % (2 of 3;"));
        // First wins: 0.2 s in 0.1–0.3, 5 s in 3–10.
        assert_eq!(first_win_bins(&records)[2], ("0.1–0.3".to_string(), 1));
        assert_eq!(first_win_bins(&records)[5], ("3–10".to_string(), 1));
        assert!(page.contains("Time to a first win (winnable deals)"));
        // The lost deal, with why: game 14934 is lost from the deal.
        assert!(page.contains("1 lost deal, each proved lost"));
        assert!(
            page.contains(
                "<tr><td>14934</td><td>PySol</td><td>4</td><td>standard</td><td>0.00</td><td>1</td><td class=\"why\">lost from the deal: "
            ),
            "{page}"
        );
        // The hardest: by positions 4, 2, 1, 14934; by seconds 2, 4, 1, 14934.
        let order = |id: &str| {
            let table = &page[page.find(&format!("id=\"{id}\"")).unwrap()..];
            let table = &table[..table.find("</table>").unwrap()];
            table
                .split("<tr><td>")
                .skip(1)
                .map(|row| row[..row.find('<').unwrap()].to_string())
                .collect::<Vec<_>>()
        };
        assert_eq!(order("hardest-positions"), ["4", "2", "1", "14934"]);
        assert_eq!(order("hardest-seconds"), ["2", "4", "1", "14934"]);
        assert!(page.contains(
            "<tr><td>2</td><td>winnable</td><td>9000000</td><td>20.00</td><td>139</td></tr>"
        ));
    }
}
