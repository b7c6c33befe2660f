//! `spider graph FILE`: the move graph of a stage, as DOT or as statistics.
//!
//! For the puzzle enthusiast who asks what the reachable positions of a deal
//! look like: the whole graph as Graphviz DOT (reveals light blue, wins pale
//! green, the start double-circled), or `--stats` with the counts, the
//! depth, the longest chain and how soon each `XX` slot can be turned up.
//! The exploration is the generic engine's ([`StageProblem`]); this module
//! only reads the deal, sets the limits and prints.
//!
//! A graph larger than `--max-nodes` is not drawn at all (exit 3): a partial
//! graph would have the wrong depth, chain and reveals, and a DOT file of
//! millions of nodes is of no use to Graphviz anyway.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use spider_analyzer::deal::files::write_atomically;
use spider_analyzer::deal::load;
use spider_analyzer::explore::{End, Limits, Order, Search, Stats, Stop};
use spider_analyzer::game::{Game, Move, compact_line};
use spider_analyzer::solve::stage::{Scope, StageProblem, StageReport};

/// Exit code when a limit (`--max-nodes`, Ctrl-C) stopped the exploration.
const EXIT_UNDECIDED: u8 = 3;
/// Default `--max-nodes` when DOT is written.
const MAX_NODES_DOT: u64 = 200_000;
/// Default `--max-nodes` for statistics only.
const MAX_NODES_STATS: u64 = 5_000_000;

/// Arguments of `spider graph`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The deal file (YAML, or CLIPS facts).
    file: PathBuf,
    /// Cover stages 0 to N: allow up to N deals (0, the default: the stage
    /// graph proper, every position reachable without dealing).
    #[arg(long, value_name = "N", default_value_t = 0, conflicts_with = "deals")]
    stage: usize,
    /// Let deals in: the graph of the whole game.
    #[arg(long)]
    deals: bool,
    /// Write the DOT to this file (atomically; nothing is written on error)
    /// instead of stdout.
    #[arg(short, long, value_name = "OUT.dot")]
    output: Option<PathBuf>,
    /// Print the counts, depth, longest chain and reveals instead of the DOT
    /// (with `-o`, the DOT still goes to the file).
    #[arg(long)]
    stats: bool,
    /// Stop (exit 3, nothing written) when the graph has more positions than
    /// this [default: 200000 when writing DOT, 5000000 for --stats only].
    #[arg(long, value_name = "N")]
    max_nodes: Option<u64>,
    /// Print the statistics as JSON (implies --stats).
    #[arg(long)]
    json: bool,
    /// Draw the graph as SVG through Graphviz's `dot` (implied by `-o
    /// OUT.svg`): the start, reveals, wins and the deepest position marked.
    #[arg(long)]
    svg: bool,
}

/// Explores, then prints the DOT or the statistics. Exit 0 done, 2 bad input
/// (by the dispatcher), 3 stopped by `--max-nodes` or Ctrl-C.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let deal = load(&args.file)?;
    let game = Game::new(&deal).with_context(|| format!("{}", args.file.display()))?;
    let scope = if args.deals {
        Scope::WholeGame
    } else {
        if args.stage > game.stock_rows() {
            anyhow::bail!(
                "--stage {}: {} has {} stock rows to deal, so stages 0 to {}",
                args.stage,
                args.file.display(),
                game.stock_rows(),
                game.stock_rows()
            );
        }
        Scope::Stage(args.stage)
    };
    let svg_wanted = args.svg
        || args.output.as_ref().is_some_and(|path| {
            path.extension()
                .is_some_and(|ext| ext.eq_ignore_ascii_case("svg"))
        });
    if svg_wanted
        && std::process::Command::new("dot")
            .arg("-V")
            .output()
            .is_err()
    {
        anyhow::bail!(spider_analyzer::html::dot::GET_GRAPHVIZ);
    }
    let stats_wanted = args.stats || args.json;
    let dot_wanted = !stats_wanted || args.output.is_some();
    let max_nodes = args.max_nodes.unwrap_or(if dot_wanted {
        MAX_NODES_DOT
    } else {
        MAX_NODES_STATS
    });
    if max_nodes == 0 {
        anyhow::bail!("--max-nodes must be at least 1");
    }

    let cancel = super::cancel_on_ctrl_c();
    let problem = StageProblem::new(&game, scope);
    let spinner = super::spinner();
    let (outcome, graph) = Search::new(&problem)
        .order(Order::BreadthFirst)
        .stop(Stop::Exhaust)
        .limits(Limits {
            // One more than allowed: reaching it means the graph is larger.
            max_positions: Some(max_nodes.saturating_add(1)),
            cancel: Some(cancel),
            ..Limits::default()
        })
        .on_progress(|stats| spinner.set_message(format!("{} positions", stats.positions)))
        .run_with_graph(problem.labeller());
    spinner.finish_and_clear();

    if let End::Stopped(reason) = outcome.end {
        return stopped(&args, reason, max_nodes, &outcome.stats);
    }
    if dot_wanted && svg_wanted {
        let svg = spider_analyzer::html::dot::render_svg(&spider_analyzer::html::dot::styled_dot(
            &graph,
        ))?;
        match &args.output {
            Some(path) => write_atomically(path, |out| out.write_all(&svg))
                .with_context(|| format!("{}: cannot write the SVG file", path.display()))?,
            None if !stats_wanted => {
                let mut out = io::stdout().lock();
                out.write_all(&svg)?;
                out.flush()?;
            }
            None => {}
        }
    } else if dot_wanted {
        match &args.output {
            Some(path) => write_atomically(path, |out| graph.write_dot(out))
                .with_context(|| format!("{}: cannot write the DOT file", path.display()))?,
            None if !stats_wanted => {
                let mut out = io::stdout().lock();
                graph.write_dot(&mut out)?;
                out.flush()?;
            }
            None => {}
        }
    }
    if stats_wanted {
        let report = StageReport::new(&deal, &graph);
        let mut out = io::stdout().lock();
        if args.json {
            serde_json::to_writer_pretty(&mut out, &json(&args, scope, &report, &outcome.stats))?;
            writeln!(out)?;
        } else {
            text(&mut out, &args, scope, &report, &outcome.stats)?;
        }
        out.flush()?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Reports a search that a limit stopped: nothing is written.
fn stopped(
    args: &Args,
    reason: spider_analyzer::explore::StopReason,
    max_nodes: u64,
    stats: &Stats,
) -> anyhow::Result<ExitCode> {
    use spider_analyzer::explore::StopReason;
    let why = match reason {
        StopReason::Positions => {
            format!("the graph has more than {max_nodes} positions (--max-nodes {max_nodes})")
        }
        other => other.to_string(),
    };
    if args.json {
        let mut out = io::stdout().lock();
        let json = serde_json::json!({
            "file": args.file.display().to_string(),
            "complete": false,
            "stopped": reason,
            "max_nodes": max_nodes,
            "stats": super::stats_json(stats),
        });
        serde_json::to_writer_pretty(&mut out, &json)?;
        writeln!(out)?;
        out.flush()?;
    }
    eprintln!(
        "spider: graph stopped: {why}, after {} positions in {:.1} s; nothing written",
        stats.positions,
        stats.elapsed.as_secs_f64()
    );
    Ok(ExitCode::from(EXIT_UNDECIDED))
}

/// The statistics for people.
fn text(
    out: &mut impl Write,
    args: &Args,
    scope: Scope,
    report: &StageReport,
    stats: &Stats,
) -> io::Result<()> {
    let line = |moves: &[Move]| {
        if moves.is_empty() {
            "(the start)".to_string()
        } else {
            compact_line(moves)
        }
    };
    let counts = report.counts;
    writeln!(out, "{}: {scope}", args.file.display())?;
    writeln!(out, "nodes:        {} positions", counts.nodes)?;
    writeln!(out, "edges:        {} moves", counts.edges)?;
    writeln!(out, "reveal nodes: {}", counts.leaves)?;
    writeln!(out, "win nodes:    {}", counts.goals)?;
    writeln!(
        out,
        "depth:        {} moves: {}",
        report.depth.moves,
        line(&report.depth.line)
    )?;
    let chain = &report.chain;
    writeln!(
        out,
        "longest chain: {} components of {} (largest {} positions), {} moves: {}",
        chain.components,
        chain.component_count,
        chain.largest_component,
        chain.line.len(),
        line(&chain.line)
    )?;
    let hidden = report.face_down_in_deal;
    for (index, turn_up) in report.turn_ups.iter().enumerate() {
        writeln!(
            out,
            "{} stage {}: {} face-down left ({} of {hidden} turned up), {} moves: {}",
            if index == 0 {
                "turned up:   "
            } else {
                "             "
            },
            turn_up.stage,
            turn_up.face_down,
            hidden.saturating_sub(turn_up.face_down),
            turn_up.line.len(),
            line(&turn_up.line)
        )?;
    }
    if report.reveals.is_empty() {
        writeln!(out, "reveals:      no XX cards in the deal")?;
    } else {
        let stage = match scope {
            Scope::Stage(0) => "in this stage",
            _ => "in this graph",
        };
        writeln!(out, "reveals:")?;
        for slot in &report.reveals {
            match &slot.first {
                Some(moves) => writeln!(
                    out,
                    "  {}: {} moves: {}",
                    slot.place,
                    moves.len(),
                    line(moves)
                )?,
                None => writeln!(out, "  {}: cannot be revealed {stage}", slot.place)?,
            }
        }
    }
    writeln!(
        out,
        "explored in {:.3} s ({:.0} positions/s)",
        stats.elapsed.as_secs_f64(),
        stats.positions_per_second()
    )
}

/// The statistics as JSON.
fn json(args: &Args, scope: Scope, report: &StageReport, stats: &Stats) -> serde_json::Value {
    let (first, last) = match scope {
        Scope::Stage(last) => (0, Some(last)),
        Scope::WholeGame => (0, None),
    };
    let counts = report.counts;
    serde_json::json!({
        "file": args.file.display().to_string(),
        "complete": true,
        "stages": { "first": first, "last": last },
        "nodes": counts.nodes,
        "edges": counts.edges,
        "reveal_nodes": counts.leaves,
        "win_nodes": counts.goals,
        "depth": {
            "moves": report.depth.moves,
            "line": compact_line(&report.depth.line),
        },
        "longest_chain": {
            "components": report.chain.components,
            "component_count": report.chain.component_count,
            "largest_component": report.chain.largest_component,
            "moves": report.chain.line.len(),
            "line": compact_line(&report.chain.line),
        },
        "face_down_at_start": report.face_down_in_deal,
        "turned_up": report.turn_ups.iter().map(|turn_up| serde_json::json!({
            "stage": turn_up.stage,
            "fewest_face_down": turn_up.face_down,
            "moves": turn_up.line.len(),
            "line": compact_line(&turn_up.line),
        })).collect::<Vec<_>>(),
        "reveals": report.reveals.iter().map(|slot| serde_json::json!({
            "place": slot.place,
            "name": slot.place.to_string(),
            "revealed": slot.first.is_some(),
            "moves": slot.first.as_ref().map(Vec::len),
            "line": slot.first.as_deref().map(compact_line),
        })).collect::<Vec<_>>(),
        "stats": super::stats_json(stats),
    })
}
