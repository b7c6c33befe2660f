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
use spider_analyzer::explore::layered::{Layered, LayeredStats};
use spider_analyzer::explore::{End, Limits, Order, Search, Stats, Stop};
use spider_analyzer::game::{Game, LayerKey, Move, compact_line};
use spider_analyzer::solve::stage::{Scope, StageProblem, StageReport};
use spider_analyzer::text::count as plural;

/// Exit code when a limit (`--max-nodes`, Ctrl-C) stopped the exploration.
const EXIT_UNDECIDED: u8 = 3;
/// Default `--max-nodes` when DOT is written.
const MAX_NODES_DOT: u64 = 200_000;
/// Default `--max-nodes` for statistics only.
const MAX_NODES_STATS: u64 = 5_000_000;
/// The most moves (edges) drawn as SVG unless `--max-nodes` is given:
/// Graphviz's `dot` lays out labelled edges slowly, and more than linearly
/// in their number. Measured: 180 moves (36 positions) in 3 s of CPU, 864
/// (144 positions) in over 10 minutes, the unwon game's stage 0 (20,272)
/// in hours.
const MAX_MOVES_SVG: u64 = 250;

/// Arguments of `spider graph`.
#[derive(Debug, clap::Args)]
// `--time-limit -1` reaches the flag's reader, which names the range.
#[command(allow_negative_numbers = true)]
#[command(after_help = super::exit_codes!(
    "0  done: the DOT or the statistics of the whole graph",
    "2  bad usage or bad input, or OUT.dot exists or is the input: nothing written",
    "3  stopped by --max-nodes, the memory limit or Ctrl-C (Graphviz's drawing included), or a graph too large to draw as SVG: nothing written",
))]
pub struct Args {
    /// The deal file (YAML, or CLIPS facts); `-` reads standard input.
    file: PathBuf,
    /// Cover stages 0 to N: allow up to N deals (0, the default: the stage
    /// graph proper, every position reachable without dealing).
    #[arg(long, value_name = "N", default_value_t = 0, conflicts_with = "deals", value_parser = super::flags::whole_usize(0, 5))]
    stage: usize,
    /// Let deals in: the graph of the whole game.
    #[arg(long)]
    deals: bool,
    /// Write the DOT to this file (atomically; nothing is written on error)
    /// instead of stdout.
    #[arg(short, long, value_name = "OUT.dot")]
    output: Option<PathBuf>,
    #[arg(long, requires = "output", help = super::output::FORCE_HELP)]
    force: bool,
    /// Print the counts, depth, longest chain and reveals instead of the DOT
    /// (with `-o`, the DOT still goes to the file).
    #[arg(long)]
    stats: bool,
    /// Stop (exit 3, nothing written) when the graph has more positions than
    /// this; 0 for no limit [default: 200000 when writing DOT, 5000000 for
    /// --stats only, no limit for --count]. SVG is drawn for at most 250
    /// moves unless this is given (Graphviz took over 10 minutes on 864).
    #[arg(long, value_name = "N", value_parser = super::flags::count_limit)]
    max_nodes: Option<super::flags::CountLimit>,
    /// Stop (exit 3, nothing written; --count prints what it counted) when
    /// the search's memory estimate reaches this, like `512M` or `4G`;
    /// `auto` is half the machine's memory; 0 for no limit. In practice a
    /// position takes about 260 bytes with the graph kept (185 MB resident
    /// for the 719,210 positions of deals/fresh-2-suit.yaml) and about 57
    /// with --count (2.9 GB for 51.7 million).
    #[arg(long, value_name = "SIZE", default_value = "auto", value_parser = super::flags::memory_limit)]
    memory_limit: super::flags::MemoryLimit,
    /// Print the statistics as JSON (implies --stats, or goes with
    /// --count).
    #[arg(long)]
    json: bool,
    /// Count positions, moves and reveals per layer and per stage, and the
    /// fewest face-down cards reached, with the layered search (every core,
    /// no graph kept; no limit on positions unless --max-nodes is given,
    /// stopped by --memory-limit).
    #[arg(long, conflicts_with_all = ["stats", "output"])]
    count: bool,
    /// With --count, when standard error is not a terminal (a run in the
    /// background, its standard error in a file): write the progress line
    /// there every SECONDS (0: never); a terminal shows it in a spinner.
    #[arg(long, value_name = "SECONDS", default_value = "600", value_parser = super::flags::time_limit)]
    progress_every: super::flags::TimeLimit,
    /// With --count: save the search at every layer boundary in DIR, and
    /// continue from what DIR holds (the same command again resumes after a
    /// limit, Ctrl-C or a crash).
    #[arg(long, value_name = "DIR", requires = "count")]
    checkpoint: Option<PathBuf>,
    #[command(flatten)]
    disk: super::flags::DiskArgs,
    /// With --count: at most N threads, 1 to 1024 [default: every core].
    #[arg(short, long, value_name = "N", requires = "count", value_parser = super::flags::jobs)]
    jobs: Option<usize>,
    /// Draw the graph as SVG through Graphviz's `dot` (implied by `-o
    /// OUT.svg`): the start, reveals, wins and the deepest position marked.
    #[arg(long)]
    svg: bool,
}

/// Explores, then prints the DOT or the statistics. Exit 0 done, 2 bad input
/// (by the dispatcher), 3 stopped by `--max-nodes` or Ctrl-C.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if let Some(path) = &args.output {
        super::output::check(path, &[&args.file], args.force)?;
    }
    let deal = super::input::load_deal(&args.file)?;
    let game = Game::new(&deal).with_context(|| super::input::name(&args.file))?;
    let scope = if args.deals {
        Scope::WholeGame
    } else {
        if args.stage > game.stock_rows() {
            anyhow::bail!(
                "--stage {}: {} has {} stock rows to deal, so stages 0 to {}",
                args.stage,
                super::input::name(&args.file),
                game.stock_rows(),
                game.stock_rows()
            );
        }
        Scope::Stage(args.stage)
    };
    if args.count {
        return count(&args, &game, scope);
    }
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
    let max_nodes = match args.max_nodes {
        Some(limit) => limit.0,
        None if dot_wanted => Some(MAX_NODES_DOT),
        None => Some(MAX_NODES_STATS),
    };
    // Drawn only up to MAX_MOVES_SVG unless --max-nodes says otherwise.
    let svg_cap = (svg_wanted && dot_wanted && args.max_nodes.is_none()).then_some(MAX_MOVES_SVG);

    let cancel = super::cancel_on_ctrl_c();
    let problem = StageProblem::new(&game, scope);
    let spinner = super::spinner();
    let (outcome, graph) = Search::new(&problem)
        .order(Order::BreadthFirst)
        .stop(Stop::Exhaust)
        .limits(Limits {
            // One more than allowed: reaching it means the graph is larger.
            max_positions: max_nodes.map(|max| max.saturating_add(1)),
            max_memory: args.memory_limit.per_search(1),
            cancel: Some(std::sync::Arc::clone(&cancel)),
            ..Limits::default()
        })
        .on_progress(|stats| spinner.set_message(format!("{} positions", stats.positions)))
        .run_with_graph(problem.labeller());
    spinner.finish_and_clear();

    if let End::Stopped(reason) = outcome.end {
        return stopped(&args, reason, max_nodes, &outcome.stats);
    }
    let nodes = graph.graph().node_count();
    let moves = graph.graph().edge_count();
    if let Some(cap) = svg_cap
        && moves as u64 > cap
    {
        eprintln!(
            "spider: graph not drawn: it has {} and {}, more than the {cap} moves \
             Graphviz draws in reasonable time (864 took over 10 minutes); nothing written. \
             Write the DOT with -o OUT.dot (and try `sfdp -Tsvg`), look at --stats, \
             or give --max-nodes {nodes} to draw it anyway",
            plural(nodes as u64, "position"),
            plural(moves as u64, "move"),
        );
        return Ok(ExitCode::from(EXIT_UNDECIDED));
    }
    if dot_wanted && svg_wanted {
        let dot = spider_analyzer::html::dot::styled_dot(&graph);
        let svg = match spider_analyzer::html::dot::render_svg(&dot, Some(&cancel)) {
            Err(spider_analyzer::html::dot::RenderError::Cancelled) => {
                eprintln!(
                    "spider: graph stopped: Ctrl-C while Graphviz drew it ({nodes} positions); nothing written"
                );
                return Ok(ExitCode::from(EXIT_UNDECIDED));
            }
            svg => svg?,
        };
        match &args.output {
            Some(path) => {
                super::output::write(path, &[&args.file], args.force, |out| out.write_all(&svg))?
            }
            None if !stats_wanted => {
                let mut out = io::stdout().lock();
                out.write_all(&svg)?;
                out.flush()?;
            }
            None => {}
        }
    } else if dot_wanted {
        match &args.output {
            Some(path) => {
                super::output::write(path, &[&args.file], args.force, |out| graph.write_dot(out))?
            }
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
    max_nodes: Option<u64>,
    stats: &Stats,
) -> anyhow::Result<ExitCode> {
    use spider_analyzer::explore::StopReason;
    let why = match reason {
        StopReason::Positions => {
            let max = max_nodes.unwrap_or(u64::MAX);
            format!(
                "the graph has more than {} (--max-nodes {max})",
                plural(max, "position")
            )
        }
        other => other.to_string(),
    };
    if args.json {
        let mut out = io::stdout().lock();
        let json = serde_json::json!({
            "file": super::input::name(&args.file),
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
        "spider: graph stopped: {why}, after {} in {:.1} s; nothing written",
        plural(stats.positions, "position"),
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
    writeln!(out, "{}: {scope}", super::input::name(&args.file))?;
    writeln!(
        out,
        "nodes:        {}",
        plural(counts.nodes as u64, "position")
    )?;
    writeln!(out, "edges:        {}", plural(counts.edges as u64, "move"))?;
    writeln!(out, "reveal nodes: {}", counts.leaves)?;
    writeln!(out, "win nodes:    {}", counts.goals)?;
    writeln!(
        out,
        "depth:        {}: {}",
        plural(report.depth.moves as u64, "move"),
        line(&report.depth.line)
    )?;
    let chain = &report.chain;
    writeln!(
        out,
        "longest chain: {} of {} (largest {}), {}: {}",
        plural(chain.components as u64, "component"),
        chain.component_count,
        plural(chain.largest_component as u64, "position"),
        plural(chain.line.len() as u64, "move"),
        line(&chain.line)
    )?;
    let hidden = report.face_down_in_deal;
    for (index, turn_up) in report.turn_ups.iter().enumerate() {
        writeln!(
            out,
            "{} stage {}: {} face-down left ({} of {hidden} turned up), {}: {}",
            if index == 0 {
                "turned up:   "
            } else {
                "             "
            },
            turn_up.stage,
            turn_up.face_down,
            hidden.saturating_sub(turn_up.face_down),
            plural(turn_up.line.len() as u64, "move"),
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
                    "  {}: {}: {}",
                    slot.place,
                    plural(moves.len() as u64, "move"),
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
        "file": super::input::name(&args.file),
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

/// `--count`: the layered search, counts per layer and per stage.
fn count(args: &Args, game: &Game, scope: Scope) -> anyhow::Result<ExitCode> {
    let max_nodes = args.max_nodes.and_then(|limit| limit.0);
    let cancel = super::cancel_on_ctrl_c();
    let problem = StageProblem::new(game, scope);
    let spinner = super::spinner();
    let log = super::ProgressLog::new(args.progress_every.0);
    let mut search = Layered::new(&problem)
        .stop(Stop::Exhaust)
        .jobs(args.jobs)
        .limits(Limits {
            max_positions: max_nodes.map(|max| max.saturating_add(1)),
            max_memory: args.memory_limit.per_search(1),
            cancel: Some(cancel),
            ..Limits::default()
        })
        .on_progress(|stats| {
            let layer = stats.layers.last().map(|l| LayerKey::decode(l.layer));
            let message = format!(
                "{}{}",
                plural(stats.positions, "position"),
                layer.map_or(String::new(), |l| format!(
                    " (stage {}, {} removed, {} face down)",
                    l.rows_dealt,
                    plural(l.runs_removed as u64, "run"),
                    l.face_down
                ))
            );
            log.note(&message);
            spinner.set_message(message)
        });
    let disk = args
        .disk
        .options(args.checkpoint.as_deref())
        .map_err(anyhow::Error::msg)?;
    if args.checkpoint.is_some() || disk.is_some() {
        // The search is this deal file's content over this scope.
        let bytes = std::fs::read(&args.file)
            .with_context(|| format!("{}: cannot read", args.file.display()))?;
        let id = format!(
            "spider graph --count, {scope}, deal file content {:032x}",
            spider_analyzer::explore::fingerprint_of(&bytes)
        );
        search = match (disk, &args.checkpoint) {
            (Some(options), _) => search.disk(options, id),
            (None, Some(dir)) => search.checkpoint(dir, id),
            (None, None) => unreachable!("checked above"),
        };
    }
    let outcome = search.run()?;
    spinner.finish_and_clear();
    let stats = &outcome.stats;
    let complete = outcome.end == End::Exhausted;
    let stages = per_stage(stats);
    let face_down_at_start = game.start().face_down_total();
    let mut out = io::stdout().lock();
    if args.json {
        let json = serde_json::json!({
            "file": args.file.display().to_string(),
            "complete": complete,
            "stopped": match outcome.end { End::Stopped(reason) => Some(reason), _ => None },
            "positions": stats.positions,
            "moves": stats.moves,
            "reveals": stats.leaves,
            "wins": stats.goals,
            "face_down_at_start": face_down_at_start,
            "stages": stages.iter().map(|s| serde_json::json!({
                "stage": s.stage,
                "positions": s.positions,
                "moves": s.moves,
                "reveals": s.reveals,
                "wins": s.wins,
                "fewest_face_down": s.fewest_face_down,
            })).collect::<Vec<_>>(),
            "layers": stats.layers.iter().map(|l| {
                let key = LayerKey::decode(l.layer);
                serde_json::json!({
                    "stage": key.rows_dealt,
                    "runs_removed": key.runs_removed,
                    "face_down": key.face_down,
                    "positions": l.positions,
                    "moves": l.moves,
                    "reveals": l.leaves,
                    "wins": l.goals,
                })
            }).collect::<Vec<_>>(),
            "engine": engine_json(stats),
        });
        serde_json::to_writer_pretty(&mut out, &json)?;
        writeln!(out)?;
    } else {
        writeln!(out, "{}: {scope}", args.file.display())?;
        writeln!(
            out,
            "positions: {}, moves: {}, reveals: {}, wins: {}{}",
            stats.positions,
            stats.moves,
            stats.leaves,
            stats.goals,
            if complete {
                ""
            } else {
                " (so far: incomplete)"
            }
        )?;
        for s in &stages {
            writeln!(
                out,
                "stage {}: {}, {}, {}, {}; fewest face-down {} ({} of {face_down_at_start} turned up)",
                s.stage,
                plural(s.positions, "position"),
                plural(s.moves, "move"),
                plural(s.reveals, "reveal"),
                plural(s.wins, "win"),
                s.fewest_face_down,
                face_down_at_start.saturating_sub(s.fewest_face_down),
            )?;
        }
        writeln!(
            out,
            "layers (stage, runs removed, face-down: positions, moves, reveals):"
        )?;
        for l in &stats.layers {
            let key = LayerKey::decode(l.layer);
            writeln!(
                out,
                "  {} {} {:>3}: {} {} {}",
                key.rows_dealt, key.runs_removed, key.face_down, l.positions, l.moves, l.leaves
            )?;
        }
        writeln!(
            out,
            "explored in {:.3} s ({:.0} positions/s, {}{}); table {:.1} bytes/position at its largest, engine peak {:.1} MB",
            stats.elapsed.as_secs_f64(),
            stats.positions_per_second(),
            plural(stats.threads as u64, "thread"),
            if stats.resumed_layers > 0 {
                format!(
                    ", {} read from the checkpoint",
                    plural(stats.resumed_layers as u64, "layer")
                )
            } else {
                String::new()
            },
            stats.table_bytes_per_position(),
            stats.peak_memory_bytes as f64 / 1e6,
        )?;
    }
    out.flush()?;
    if let End::Stopped(reason) = outcome.end {
        use spider_analyzer::explore::StopReason;
        let why = match reason {
            StopReason::Positions => {
                let max = max_nodes.unwrap_or(0);
                format!("more than {} (--max-nodes {max})", plural(max, "position"))
            }
            other => other.to_string(),
        };
        eprintln!(
            "spider: count stopped: {why}, after {} in {:.1} s{}",
            plural(stats.positions, "position"),
            stats.elapsed.as_secs_f64(),
            if args.checkpoint.is_some() {
                "; run the same command again to continue from the checkpoint"
            } else {
                ""
            }
        );
        return Ok(ExitCode::from(EXIT_UNDECIDED));
    }
    Ok(ExitCode::SUCCESS)
}

/// Counts of one stage, summed over its layers.
struct StageCounts {
    stage: usize,
    positions: u64,
    moves: u64,
    reveals: u64,
    wins: u64,
    fewest_face_down: usize,
}

fn per_stage(stats: &LayeredStats) -> Vec<StageCounts> {
    let mut stages: Vec<StageCounts> = Vec::new();
    for l in &stats.layers {
        let key = LayerKey::decode(l.layer);
        if stages.last().is_none_or(|s| s.stage != key.rows_dealt) {
            stages.push(StageCounts {
                stage: key.rows_dealt,
                positions: 0,
                moves: 0,
                reveals: 0,
                wins: 0,
                fewest_face_down: key.face_down,
            });
        }
        let s = stages.last_mut().expect("just pushed");
        s.positions += l.positions;
        s.moves += l.moves;
        s.reveals += l.leaves;
        s.wins += l.goals;
        if l.positions > 0 {
            s.fewest_face_down = s.fewest_face_down.min(key.face_down);
        }
    }
    stages
}

fn engine_json(stats: &LayeredStats) -> serde_json::Value {
    serde_json::json!({
        "expanded": stats.expanded,
        "duplicates": stats.duplicates,
        "max_depth": stats.max_depth,
        "threads": stats.threads,
        "elapsed_seconds": stats.elapsed.as_secs_f64(),
        "positions_per_second": stats.positions_per_second(),
        "table_bytes_per_position": stats.table_bytes_per_position(),
        "peak_table_bytes": stats.peak_table_bytes,
        "peak_memory_bytes": stats.peak_memory_bytes,
        "resumed_layers": stats.resumed_layers,
        "seen_dropped": stats.seen_dropped,
        "rounds_split": stats.rounds_split,
    })
}
