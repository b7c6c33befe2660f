//! A layer's breadth-first step: units of states expanded in parallel,
//! their successors sorted by shard, the new ones built; the pending
//! layers and the limits checked between batches.

use super::*;

/// How many shards one rayon task takes when `items` are spread over the
/// shards: all of them when there are few items (one task, no scheduling
/// cost: small layers and steps are many), a few when there are many.
pub(super) fn shards_per_task(items: usize) -> usize {
    if items < 16_384 { SHARDS } else { 4 }
}

/// The pool a search runs its parallel parts in: its own, or the current
/// one.
#[derive(Clone, Copy)]
pub(super) struct Pool<'p>(pub(super) Option<&'p rayon::ThreadPool>);

impl Pool<'_> {
    pub(super) fn install<R: Send>(self, f: impl FnOnce() -> R + Send) -> R {
        match self.0 {
            Some(pool) => pool.install(f),
            None => f(),
        }
    }

    pub(super) fn threads(self) -> usize {
        match self.0 {
            Some(pool) => pool.current_num_threads(),
            None => rayon::current_num_threads(),
        }
    }
}

/// The limit that is exceeded, if any.
pub(super) fn exceeded(
    limits: &Limits,
    cancel: Option<&AtomicBool>,
    positions: u64,
    started: Instant,
    memory: u64,
) -> Option<StopReason> {
    if let Some(reason) = out_of_time(limits, cancel, started) {
        return Some(reason);
    }
    if limits.max_positions.is_some_and(|max| positions >= max) {
        return Some(StopReason::Positions);
    }
    if limits.max_memory.is_some_and(|max| memory >= max) {
        return Some(StopReason::Memory);
    }
    if crate::explore::memory::machine_low() {
        return Some(StopReason::MachineMemory);
    }
    None
}

/// Whether the search is cancelled or its time is up: the part of
/// [`exceeded`] that holds for the whole search at once, so that a unit of
/// work can ask it before it starts.
pub(super) fn out_of_time(
    limits: &Limits,
    cancel: Option<&AtomicBool>,
    started: Instant,
) -> Option<StopReason> {
    let cancelled = cancel.is_some_and(|c| c.load(Ordering::Relaxed))
        || limits
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed));
    if cancelled {
        return Some(StopReason::Cancelled);
    }
    if limits.time.is_some_and(|t| started.elapsed() >= t) {
        return Some(StopReason::Time);
    }
    None
}

/// Counters of one depth-first worker of a tree search.
#[derive(Default)]
pub(super) struct TreeCounts {
    pub(super) expanded: u64,
    pub(super) moves: u64,
    pub(super) goals: u64,
    pub(super) leaves: u64,
    pub(super) dead: u64,
    pub(super) max_depth: u32,
    /// States generated and not yet added to the shared count.
    pub(super) generated: u64,
    /// States generated and added to the shared count.
    pub(super) reported: u64,
}

impl TreeCounts {
    pub(super) fn add(self, other: TreeCounts) -> TreeCounts {
        TreeCounts {
            expanded: self.expanded + other.expanded,
            moves: self.moves + other.moves,
            goals: self.goals + other.goals,
            leaves: self.leaves + other.leaves,
            dead: self.dead + other.dead,
            max_depth: self.max_depth.max(other.max_depth),
            generated: self.generated + other.generated,
            reported: self.reported + other.reported,
        }
    }
}

/// What one work unit produced.
pub(super) struct UnitOut<S> {
    /// Successors in the same layer, by shard.
    pub(super) same: ByShard<Entry>,
    /// Successors in later layers, by shard.
    pub(super) later: ByShard<Entry>,
    pub(super) expanded: u64,
    pub(super) moves: u64,
    pub(super) goals: u64,
    pub(super) leaves: u64,
    pub(super) dead: u64,
    pub(super) max_depth: u32,
    pub(super) goal: Option<FoundGoal<S>>,
    pub(super) leaf_states: Vec<(S, u32)>,
}

impl<S> UnitOut<S> {
    /// A unit that expanded nothing.
    pub(super) fn empty() -> Self {
        UnitOut {
            same: ByShard::default(),
            later: ByShard::default(),
            expanded: 0,
            moves: 0,
            goals: 0,
            leaves: 0,
            dead: 0,
            max_depth: 0,
            goal: None,
            leaf_states: Vec::new(),
        }
    }
}

/// A successor not built yet: its fingerprint and layer, and how to build
/// it (the parent's place in the frontier and the problem's token).
#[derive(Clone, Copy)]
pub(super) struct Entry {
    pub(super) fp: u128,
    pub(super) layer: u64,
    /// The parent's record: its offset in its shard's frontier arena, its
    /// length and the shard.
    pub(super) parent: u32,
    pub(super) parent_len: u16,
    pub(super) parent_shard: u16,
    pub(super) token: u32,
}

/// Items sorted by the shard of their fingerprint: shard `s`'s at
/// `starts[s]..starts[s + 1]`.
pub(super) struct ByShard<T> {
    pub(super) items: Vec<T>,
    pub(super) starts: Box<[u32; SHARDS + 1]>,
}

impl<T> Default for ByShard<T> {
    fn default() -> Self {
        ByShard {
            items: Vec::new(),
            starts: Box::new([0; SHARDS + 1]),
        }
    }
}

impl ByShard<Entry> {
    /// Sorts `entries` by shard (a counting sort, stable).
    pub(super) fn sort(entries: &[Entry]) -> ByShard<Entry> {
        let mut starts = Box::new([0u32; SHARDS + 1]);
        for e in entries {
            starts[shard_of(e.fp) + 1] += 1;
        }
        for shard in 0..SHARDS {
            starts[shard + 1] += starts[shard];
        }
        let mut at = starts.clone();
        let mut items = vec![
            Entry {
                fp: 0,
                layer: 0,
                parent: 0,
                parent_len: 0,
                parent_shard: 0,
                token: 0
            };
            entries.len()
        ];
        for &e in entries {
            let shard = shard_of(e.fp);
            items[at[shard] as usize] = e;
            at[shard] += 1;
        }
        ByShard { items, starts }
    }

    pub(super) fn len(&self) -> usize {
        self.items.len()
    }

    pub(super) fn shard(&self, shard: usize) -> &[Entry] {
        &self.items[self.starts[shard] as usize..self.starts[shard + 1] as usize]
    }
}

/// Calls `each` on every item in order, having called `prefetch` on the
/// item a few places ahead: the table lines of a batch's successors are
/// fetched while earlier ones are being inserted.
#[inline]
pub(super) fn for_each_prefetched<'e, C>(
    context: &mut C,
    items: impl Iterator<Item = &'e Entry> + Clone,
    prefetch: impl Fn(&C, &Entry),
    mut each: impl FnMut(&mut C, &'e Entry),
) {
    const AHEAD: usize = 16;
    let mut ahead = items.clone();
    for e in ahead.by_ref().take(AHEAD) {
        prefetch(context, e);
    }
    for e in items {
        if let Some(next) = ahead.next() {
            prefetch(context, next);
        }
        each(context, e);
    }
}

/// Builds the successor `entry` stands for and appends its record (depth,
/// packed state) to `arena`.
#[inline]
pub(super) fn build<P: PackedProblem>(
    problem: &P,
    frontier: &[Arena],
    entry: &Entry,
    arena: &mut Arena,
) where
    P::State: Send,
{
    let parent = frontier[entry.parent_shard as usize]
        .slice(entry.parent as usize, entry.parent_len as usize);
    let depth = u16::from_le_bytes([parent[0], parent[1]]).saturating_add(1);
    arena.push_with(|bytes| {
        bytes.extend_from_slice(&depth.to_le_bytes());
        problem.successor_packed(&parent[2..], entry.token, bytes);
    });
}

/// Expands the frontier states `segments` (shard, from, to) list: notes
/// each successor's fingerprint, layer and token, sorted by shard; builds
/// none of them.
pub(super) fn expand_unit<P: PackedProblem>(
    problem: &P,
    layer: u64,
    frontier: &[Arena],
    segments: &[(usize, usize, usize)],
    keep_leaves: bool,
) -> UnitOut<P::State>
where
    P::State: Send,
{
    let mut unit = UnitOut::empty();
    // Scratch reused by every unit this thread expands (no allocation, no
    // fresh pages per unit).
    let (mut out, mut same, mut later) = SCRATCH.take();
    out.clear();
    same.clear();
    later.clear();
    for (shard, i) in segments
        .iter()
        .flat_map(|&(shard, from, to)| (from..to).map(move |i| (shard, i)))
    {
        let (offset, record) = frontier[shard].get_at(i);
        let depth = u16::from_le_bytes([record[0], record[1]]) as u32;
        unit.max_depth = unit.max_depth.max(depth);
        out.clear();
        match problem.expand_packed(&record[2..], &mut out) {
            NodeKind::Inner => {}
            NodeKind::Leaf => {
                unit.leaves += 1;
                if keep_leaves {
                    unit.leaf_states.push((problem.unpack(&record[2..]), depth));
                }
                continue;
            }
            NodeKind::Dead => {
                unit.dead += 1;
                continue;
            }
            NodeKind::Goal => {
                unit.goals += 1;
                if unit.goal.is_none() {
                    let state = problem.unpack(&record[2..]);
                    unit.goal = Some(FoundGoal {
                        fingerprint: problem.fingerprint(&state),
                        state,
                        depth,
                    });
                }
                continue;
            }
        }
        unit.expanded += 1;
        unit.moves += out.len() as u64;
        for s in &out {
            let entry = Entry {
                fp: s.fingerprint,
                layer: s.layer,
                parent: offset as u32,
                parent_len: record.len() as u16,
                parent_shard: shard as u16,
                token: s.token,
            };
            if s.layer == layer {
                same.push(entry);
            } else {
                later.push(entry);
            }
        }
    }
    unit.same = ByShard::sort(&same);
    unit.later = ByShard::sort(&later);
    SCRATCH.set((out, same, later));
    unit
}

thread_local! {
    /// [`expand_unit`]'s scratch: successors of one state, then the unit's
    /// same-layer and later-layer entries before they are sorted.
    static SCRATCH: std::cell::Cell<(Vec<Successor>, Vec<Entry>, Vec<Entry>)> =
        const { std::cell::Cell::new((Vec::new(), Vec::new(), Vec::new())) };
}

/// The states waiting for later layers: per shard, per layer.
pub(super) type Pending = Vec<BTreeMap<u64, Bucket>>;

/// Adds a state to layer `layer`'s pending buffer, unless it is there;
/// `across` when it came from another whole layer.
pub(super) fn pending_push(
    pending: &mut Pending,
    layer: u64,
    fp: u128,
    record: &[u8],
    across: bool,
) {
    let bucket = pending[shard_of(fp)].entry(layer).or_default();
    if bucket.push(fp, record) && across {
        bucket.across += 1;
    }
}

/// States waiting in the pending layers, and of them those that came from
/// another whole layer.
pub(super) fn queued(pending: &Pending) -> (u64, u64) {
    pending
        .iter()
        .flat_map(BTreeMap::values)
        .map(|bucket| (bucket.arena.len() as u64, bucket.across))
        .fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
}

/// The lowest pending layer with its buckets, one per shard.
pub(super) fn pending_pop(pending: &mut Pending) -> Option<(u64, Vec<Bucket>)> {
    let layer = pending
        .iter()
        .filter_map(|shard| shard.first_key_value().map(|(&layer, _)| layer))
        .min()?;
    let buckets = pending
        .iter_mut()
        .map(|shard| shard.remove(&layer).unwrap_or_default())
        .collect();
    Some((layer, buckets))
}

#[inline]
pub(super) fn shard_of(fp: u128) -> usize {
    (fp >> 120) as usize
}

/// Estimated bytes held by the engine.
pub(super) fn memory(
    tables: &[FpTable],
    frontier: &[Arena],
    next: &[Arena],
    pending_bytes: u64,
) -> u64 {
    tables.iter().map(FpTable::bytes).sum::<u64>()
        + frontier.iter().chain(next).map(Arena::bytes).sum::<u64>()
        + pending_bytes
}

/// Bytes a pending bucket takes: its table and its records.
pub(super) fn bucket_bytes(bucket: &Bucket) -> u64 {
    bucket.table.bytes() + bucket.arena.bytes()
}
