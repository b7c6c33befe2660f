//! The search on disk against the search in memory, stopped, resumed,
//! split and launched; what the tests share is here.

use super::*;
use crate::deal::{Rules, pysol};
use crate::game::Game;
use crate::solve::stage::{Scope, StageProblem};

mod counts;
mod files;
mod resume;
mod split;

/// What must not change: every layer's statistics, the totals, the
/// deepest line.
fn figures(stats: &LayeredStats) -> (Vec<LayerStats>, [u64; 7], u32) {
    (
        stats.layers.clone(),
        [
            stats.positions,
            stats.expanded,
            stats.moves,
            stats.duplicates,
            stats.goals,
            stats.leaves,
            stats.dead,
        ],
        stats.max_depth,
    )
}

fn on_disk(dir: &Path) -> DiskOptions {
    DiskOptions {
        dir: dir.to_path_buf(),
        max_bytes: None,
        launcher: None,
        launch_from: LAUNCH_FROM,
        seen_memory: None,
        split_from: None,
    }
}

/// A grid walk with two moves a step and states reached many ways,
/// a layer per `a + b / 7` so that layers hold several steps.
struct Walk;
impl crate::explore::Problem for Walk {
    type State = (u16, u16);
    type Key = (u16, u16);
    type Move = u8;
    fn start(&self) -> (u16, u16) {
        (0, 0)
    }
    fn key(&self, s: &(u16, u16)) -> (u16, u16) {
        *s
    }
    fn successors(&self, &(a, b): &(u16, u16), out: &mut Vec<(u8, (u16, u16))>) {
        if a < 60 {
            out.push((0, (a + 1, b)));
        }
        if b < 300 {
            out.push((1, (a, b + 1)));
        }
        if b >= 2 {
            out.push((2, (a, b - 2)));
        }
    }
    fn kind(&self, s: &(u16, u16)) -> NodeKind {
        match s {
            (60, 300) => NodeKind::Goal,
            (a, b) if (a * 7 + b) % 97 == 5 => NodeKind::Dead,
            (a, b) if (a + b * 3) % 89 == 1 => NodeKind::Leaf,
            _ => NodeKind::Inner,
        }
    }
    fn layer(&self, &(a, _): &(u16, u16)) -> u64 {
        u64::from(a / 3)
    }
}
impl PackedProblem for Walk {
    fn pack(&self, s: &(u16, u16), out: &mut Vec<u8>) {
        out.extend(s.0.to_le_bytes());
        out.extend(s.1.to_le_bytes());
    }
    fn unpack(&self, b: &[u8]) -> (u16, u16) {
        (
            u16::from_le_bytes([b[0], b[1]]),
            u16::from_le_bytes([b[2], b[3]]),
        )
    }
}

/// A layer of many rounds whose states jump back to states met many
/// rounds before (depth `d` to `d / 2`): the search on disk with its
/// seen sets dropped now and then, a manifest after every round (a
/// memory budget of 0), must find them on disk, in the runs merged and
/// in the rounds since the last drop, to count what the search in
/// memory counts.
struct Jumps;
impl crate::explore::Problem for Jumps {
    type State = (u16, u16);
    type Key = (u16, u16);
    type Move = u8;
    fn start(&self) -> (u16, u16) {
        (0, 0)
    }
    fn key(&self, s: &(u16, u16)) -> (u16, u16) {
        *s
    }
    fn successors(&self, &(d, i): &(u16, u16), out: &mut Vec<(u8, (u16, u16))>) {
        if d < 150 {
            out.push((0, (d + 1, i)));
            out.push((1, (d + 1, (i + 1) % 50)));
        }
        out.push((2, (d / 2, (i * 7) % 50)));
    }
    fn kind(&self, _: &(u16, u16)) -> NodeKind {
        NodeKind::Inner
    }
    fn layer(&self, _: &(u16, u16)) -> u64 {
        0
    }
}
impl PackedProblem for Jumps {
    fn pack(&self, s: &(u16, u16), out: &mut Vec<u8>) {
        Walk.pack(s, out);
    }
    fn unpack(&self, b: &[u8]) -> (u16, u16) {
        Walk.unpack(b)
    }
}

/// The states of a frontier, in the order they are expanded.
fn frontier_states(frontier: &Frontier) -> Vec<Vec<u8>> {
    let states = |arena: &Arena| (0..arena.len()).map(|i| arena.get(i).to_vec()).collect();
    match frontier {
        Frontier::Memory(arena) => states(arena),
        Frontier::File(file) => {
            let (mut reader, mut arena, mut all) = (None, Arena::default(), Vec::new());
            for k in 0..file.blocks.len() {
                file.read_block(&mut reader, k, &mut arena).unwrap();
                let block: Vec<Vec<u8>> = states(&arena);
                all.extend(block);
            }
            all
        }
    }
}

/// The grid walk on disk in `dir`, stopped by a limit of 5,000
/// positions inside a layer.
fn walk_stopped_after_5000(dir: &Path) {
    let stopped = Layered::new(&Walk)
        .stop(Stop::Exhaust)
        .limits(Limits {
            max_positions: Some(5_000),
            ..Limits::default()
        })
        .disk(on_disk(dir), "walk")
        .run()
        .unwrap();
    assert_eq!(stopped.end, End::Stopped(StopReason::Positions));
}

/// A fan: a chain of `FAN_LAYERS` layers of one state each, every one
/// of which also leads to `fan` states of the last layer, so that the
/// last layer's first round reads `FAN_LAYERS * fan` entries written
/// by small rounds.
struct Fan(u16);
const FAN_LAYERS: u16 = 200;
impl crate::explore::Problem for Fan {
    type State = (u16, u32);
    type Key = (u16, u32);
    type Move = u16;
    fn start(&self) -> (u16, u32) {
        (0, 0)
    }
    fn key(&self, s: &(u16, u32)) -> (u16, u32) {
        *s
    }
    fn successors(&self, &(a, _): &(u16, u32), out: &mut Vec<(u16, (u16, u32))>) {
        let fan = self.0;
        if a < FAN_LAYERS {
            if a + 1 < FAN_LAYERS {
                out.push((fan, (a + 1, 0)));
            }
            let first = u32::from(a) * u32::from(fan);
            out.extend((0..fan).map(|j| (j, (FAN_LAYERS, first + u32::from(j)))));
        }
    }
    fn kind(&self, _: &(u16, u32)) -> NodeKind {
        NodeKind::Inner
    }
    fn layer(&self, &(a, _): &(u16, u32)) -> u64 {
        u64::from(a)
    }
}
impl PackedProblem for Fan {
    fn pack(&self, s: &(u16, u32), out: &mut Vec<u8>) {
        out.extend(s.0.to_le_bytes());
        out.extend(s.1.to_le_bytes());
    }
    fn unpack(&self, b: &[u8]) -> (u16, u32) {
        (
            u16::from_le_bytes([b[0], b[1]]),
            u32::from_le_bytes([b[2], b[3], b[4], b[5]]),
        )
    }
}

/// A fan's searches, in memory and on disk (one thread, every file on
/// disk, so that the chain holds little), and the memory the search
/// on disk takes before the last layer.
struct FanRuns {
    fan: Fan,
    memory: LayeredOutcome<(u16, u32)>,
    whole: LayeredOutcome<(u16, u32)>,
    before: u64,
}

impl FanRuns {
    fn new(fan: u16) -> FanRuns {
        let fan = Fan(fan);
        let memory = Layered::new(&fan).stop(Stop::Exhaust).run().unwrap();
        let last = u64::from(FAN_LAYERS);
        assert_eq!(memory.stats.positions, last + last * u64::from(fan.0));
        let mut runs = FanRuns {
            fan,
            memory,
            whole: LayeredOutcome {
                end: End::Exhausted,
                stats: LayeredStats::default(),
                goal: None,
            },
            before: 0,
        };
        runs.whole = runs.on_disk(crate::scratch::scratch_dir().path(), Limits::default());
        assert_eq!(figures(&runs.whole.stats), figures(&runs.memory.stats));
        assert_eq!(runs.whole.stats.rounds_split, 0);
        let chain = Limits {
            max_positions: Some(last),
            ..Limits::default()
        };
        let stopped = runs.on_disk(crate::scratch::scratch_dir().path(), chain);
        assert_eq!(stopped.end, End::Stopped(StopReason::Positions));
        runs.before = stopped.stats.peak_memory_bytes;
        let peak = runs.whole.stats.peak_memory_bytes;
        assert!(peak > 2 * runs.before, "{} then {peak}", runs.before);
        runs
    }

    fn on_disk(&self, dir: &Path, limits: Limits) -> LayeredOutcome<(u16, u32)> {
        Layered::new(&self.fan)
            .stop(Stop::Exhaust)
            .jobs(Some(1))
            .limits(limits)
            .disk(on_disk(dir), "fan")
            .disk_memory(0)
            .run()
            .unwrap()
    }
}

/// [`Walk`], which raises a flag (the search's Ctrl-C) once it has
/// expanded `left` states, a search stopped inside a round; or, with
/// `crash`, panics (the process dies, with what it held in memory).
struct Halting<'a> {
    flag: &'a AtomicBool,
    left: AtomicU64,
    crash: bool,
}
impl crate::explore::Problem for Halting<'_> {
    type State = (u16, u16);
    type Key = (u16, u16);
    type Move = u8;
    fn start(&self) -> (u16, u16) {
        Walk.start()
    }
    fn key(&self, s: &(u16, u16)) -> (u16, u16) {
        *s
    }
    fn successors(&self, s: &(u16, u16), out: &mut Vec<(u8, (u16, u16))>) {
        if self.left.fetch_sub(1, Ordering::Relaxed) == 1 {
            assert!(!self.crash, "a crash");
            self.flag.store(true, Ordering::Relaxed);
        }
        Walk.successors(s, out)
    }
    fn kind(&self, s: &(u16, u16)) -> NodeKind {
        Walk.kind(s)
    }
    fn layer(&self, s: &(u16, u16)) -> u64 {
        Walk.layer(s)
    }
}
impl PackedProblem for Halting<'_> {
    fn pack(&self, s: &(u16, u16), out: &mut Vec<u8>) {
        Walk.pack(s, out)
    }
    fn unpack(&self, b: &[u8]) -> (u16, u16) {
        Walk.unpack(b)
    }
}

/// The disk search of PySol 3's proof, stopped every `step` positions;
/// with `seen_share`, its seen sets' budget is that share (1/n) of the
/// largest table of the search in memory (`u64::MAX`: 1 byte); with
/// `split_from`, its rounds split from that growth of their seen sets.
fn disk_search_resumed(step: u64, seen_share: Option<u64>, split_from: Option<u64>) {
    use crate::solve::exhaustive::ExhaustiveProblem;
    let deal = pysol::deal(3, Rules::Standard).unwrap();
    let game = Game::new(&deal).unwrap();
    let problem = ExhaustiveProblem::new(&game);
    let limit = Limits {
        max_positions: Some(3 * step),
        ..Limits::default()
    };
    // The in-memory search stopped part-way is the reference for the
    // layers it finished.
    let memory = Layered::new(&problem)
        .stop(Stop::Exhaust)
        .limits(limit.clone())
        .run()
        .unwrap();
    let finished = memory.stats.layers.len() - 1;
    assert!(finished > 3, "{finished} layers");
    let seen = seen_share.map(|n| (memory.stats.peak_table_bytes / n).max(1));
    let dir = crate::scratch::scratch_dir();
    let mut runs = 0;
    let mut dropped = 0;
    let mut split = 0;
    let stats = loop {
        runs += 1;
        let options = DiskOptions {
            seen_memory: seen,
            split_from,
            ..on_disk(dir.path())
        };
        let mut search = Layered::new(&problem)
            .stop(Stop::Exhaust)
            .jobs(Some(2))
            .limits(Limits {
                max_positions: Some(step * runs),
                ..Limits::default()
            });
        if seen.is_some() {
            search = search.disk_memory(4 << 10);
        }
        let outcome = search.disk(options, "pysol 3").run().unwrap();
        assert_eq!(outcome.end, End::Stopped(StopReason::Positions));
        if runs > 1 {
            assert!(outcome.stats.resumed_layers > 0);
        }
        dropped += outcome.stats.seen_dropped;
        split += outcome.stats.rounds_split;
        if outcome.stats.positions >= 3 * step {
            break outcome.stats;
        }
        assert!(runs < 6);
    };
    assert!(runs >= 3);
    assert_eq!(
        seen.is_some() || split_from.is_some(),
        dropped > 0,
        "dropped {dropped} times"
    );
    assert_eq!(split_from.is_some(), split > 0, "{split} rounds split");
    // Finished layers the in-memory search finished too count the
    // same (duplicates apart: they are charged when read).
    let strip = |l: &LayerStats| LayerStats {
        duplicates: 0,
        ..l.clone()
    };
    let common = finished.min(stats.layers.len() - 1);
    assert!(common > 3);
    for k in 0..common {
        assert_eq!(
            strip(&stats.layers[k]),
            strip(&memory.stats.layers[k]),
            "layer {k}"
        );
    }
}
