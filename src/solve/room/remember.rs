//! What the room test remembers: the keys of relaxed states and starts,
//! the answers kept for a settled start met again, each thread's recent
//! wins and losses, and the store of learned conflicts.

use super::*;

/// A hash of each card, for the moved cards' part of a state's hash.
pub(super) const CARD_HASH: [u128; 52] = {
    let mut hashes = [0; 52];
    let mut card = 0;
    while card < 52 {
        hashes[card] = mix128(0x5851_f42d_4c95_7f2d ^ card as u128);
        card += 1;
    }
    hashes
};

/// The multiplier of the prefixes' hashes (FNV-1a's, 128 bits): one
/// multiply a card, where a strong mix of each would cost a sixth of a
/// test that proves a position lost in a few dozen states. The hashes only
/// name states in what a thread remembers, where two states sharing one
/// can only make a test prove less (see [`MEMORY`]).
pub(super) const PREFIX_PRIME: u128 = 0x0000_0000_0100_0000_0000_0000_0000_013b;

/// A strong 64-bit mix (splitmix64's finalizer).
pub(super) const fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// Two independent 64-bit mixes side by side.
pub(in crate::solve) const fn mix128(x: u128) -> u128 {
    let (low, high) = (x as u64, (x >> 64) as u64);
    let a = mix(low ^ mix(high));
    let b = mix(high ^ 0x2545_f491_4f6c_dd1d ^ mix(low ^ 0x1234_5678_9abc_def1));
    ((b as u128) << 64) | a as u128
}

/// The exact key of a test's start, settled (`state`; `empty_at_start`
/// counts the piles empty before settling): its answer depends on
/// nothing else (see [`ANSWERS`]). A chain of [`mix128`] over,
/// pile by pile in order, the pile's face-down count and prefix length,
/// then its prefix's cards sixteen at a time, then the moved cards (the
/// sum of their [`CARD_HASH`]), the runs removed, the piles empty before
/// settling, the effort and the rule: a strong 128-bit key, as the exhaustive
/// search's own (docs/analyze.md), since an answer found by it is
/// trusted.
pub(super) fn start_key(
    piles: &Piles,
    state: &State,
    empty_at_start: i16,
    effort: Effort,
) -> [u64; 2] {
    let mut key = START_SALT;
    for pile in 0..PILES {
        let len = state.prefix[pile] as usize;
        key = mix128(key ^ (u128::from(piles.down[pile] as u16) << 16 | len as u128));
        // Sixteen cards at a time, the last chunk padded with zeros (the
        // length, just hashed, tells the padding from cards).
        let cards = &piles.cards[piles.start[pile]..piles.start[pile] + len];
        for chunk in cards.chunks(16) {
            let mut bytes = [0; 16];
            bytes[..chunk.len()].copy_from_slice(chunk);
            key = mix128(key ^ u128::from_le_bytes(bytes));
        }
    }
    let removed = u128::from(u32::from_le_bytes(state.removed));
    let counts = removed << 64
        | u128::from(effort.make_way) << 63
        | u128::from(empty_at_start as u16) << 48
        | u128::from(effort.emptied_enough as u16) << 32
        | u128::from(effort.budget);
    let key = mix128(mix128(key ^ state.moved_hash) ^ counts);
    [key as u64, (key >> 64) as u64]
}

/// The fewest relaxed states a test must have cost for its answer to be
/// kept ([`ANSWERS`]). Where most tests are cheap, keeping them all
/// costs more than it saves: `r1-g5004`'s proof (3,112,948 positions)
/// took 4 % more time keeping the answers of 16 states or more than
/// keeping none, and the same time at 64; on the
/// first 2 M positions of `r1-g5016`, 9.8 s keeping none, 3.1 s at 16 and
/// 3.5 s at 64 (one thread, side by side with the build before).
pub(super) const ANSWERS_SMALLEST: u32 = 64;

/// A cheap key of the same start, to find its answer by: the prefixes'
/// hashes (one multiply a card, computed once a test), each turned by its
/// pile's place, the moved cards, the runs removed, the piles empty
/// before settling and the budget, folded to 64 bits. Two starts may
/// share it; the answer found is taken only when the strong key
/// ([`start_key`]) is the one kept with it.
pub(super) fn quick_start_key(
    piles: &Piles,
    prefixes: &Prefixes,
    state: &State,
    empty_at_start: i16,
    effort: Effort,
) -> u64 {
    let mut key = state.moved_hash
        ^ u128::from(u32::from_le_bytes(state.removed)) << 64
        ^ u128::from(empty_at_start as u16) << 32
        ^ u128::from(effort.make_way) << 31
        ^ u128::from(effort.budget);
    for pile in 0..PILES {
        let hash = prefixes.hash[piles.start[pile] + pile + state.prefix[pile] as usize];
        key = key.wrapping_add(hash.rotate_left(13 * pile as u32 + 1));
    }
    let folded = (key >> 64) as u64 ^ key as u64;
    mix(folded)
}

/// The salt of [`start_key`].
pub(super) const START_SALT: u128 = 0x243f_6a88_85a3_08d3_1319_8a2e_0370_7344;

/// How many answers the process keeps ([`ANSWERS`]), a shard starting
/// again when it holds its share: a test costs hundreds of relaxed
/// states, a look-up one cache miss, so many are kept (7/8 of 2^18, the
/// most that maps of 2^18 slots of 33 bytes in all hold: 8.6 MB).
/// Measured on the first 2 M positions of `r1-g5015` with one map a
/// thread, keeping the answers of 16 states or more: 16.3 s with 2^16
/// kept, 11.0 s with 2^18, 10.9 s with 2^22, 39.5 s with none.
pub(super) const ANSWERS_KEPT: usize = (1 << 18) / 8 * 7;

/// The answers of the room tests made in this process, on any thread
/// and for any position, by the key of their start once settled
/// ([`start_key`]), as [`Answer`]s.
///
/// # Why an answer kept is the answer
///
/// A test's answer is the one the search that remembers nothing gives
/// (see [`MEMORY`]), and that search starts by settling the state it is
/// given (the leaves made without a choice depend on the state alone),
/// then goes on from the settled state by what the key holds alone: each
/// pile's prefix cards in pile order (which cards may leave, the places
/// they give, the order the leaves are tried in, pile by pile), the
/// face-down cards (what a line turns up), the moved cards and the runs
/// removed (the room counts and the removals), the piles empty before
/// settling (the give-up at emptied piles and whether a pile empties),
/// and the effort and the rule (the budget, the give-up, the make-way
/// rule). So a start met again, from another position or on another
/// thread (positions that differ only in where a run lies on a card one
/// rank higher settle alike; on the first 578,025 positions of
/// `r1-g5015`, 48 % of the tests that proved a loss and 47 % of the
/// others met a start met before, and took 46 % of the relaxed states),
/// gets the same answer without a search, and the verdicts, and the
/// exhaustive search's counts, are those of the searches, whatever the
/// threads and their order. An answer is found by a cheap key
/// ([`quick_start_key`]) and taken only when the strong 128-bit key kept
/// with it is the start's ([`start_key`]): two starts share one with odds
/// of the same order as two positions share a key in the exhaustive
/// search (docs/analyze.md). A test that reads learned losses keeps and
/// takes no answer: the store of them grows between the exhaustive
/// search's steps, and with it what a test can prove.
pub(super) static ANSWERS: std::sync::LazyLock<Answers> =
    std::sync::LazyLock::new(Answers::default);

/// The shards of [`ANSWERS`], each a map locked on its own (by the cheap
/// key's top bits), cleared when full.
pub(super) struct Answers {
    pub(super) shards: Vec<std::sync::Mutex<Shard>>,
}

/// A shard of [`Answers`]: by the cheap key, the strong key and the answer.
pub(super) type Shard = FoldMap<u64, ([u64; 2], u16)>;

/// The shards of [`Answers`]: enough that two threads rarely wait.
pub(super) const ANSWER_SHARDS: usize = 64;

impl Default for Answers {
    fn default() -> Answers {
        Answers {
            shards: (0..ANSWER_SHARDS).map(|_| Default::default()).collect(),
        }
    }
}

impl Answers {
    pub(super) fn shard(&self, quick: u64) -> std::sync::MutexGuard<'_, Shard> {
        // A map is never left half changed (an insert or a clear), so one
        // poisoned by a panic elsewhere is still sound.
        let shard = &self.shards[(quick >> 58) as usize % ANSWER_SHARDS];
        shard
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The strong key and the answer kept under the cheap key `quick`.
    pub(super) fn get(&self, quick: u64) -> Option<([u64; 2], u16)> {
        self.shard(quick).get(&quick).copied()
    }

    /// Keeps `answer` for the start of strong key `key`.
    pub(super) fn put(&self, quick: u64, key: [u64; 2], answer: u16) {
        let mut shard = self.shard(quick);
        if shard.len() >= ANSWERS_KEPT / ANSWER_SHARDS {
            shard.clear();
        }
        shard.insert(quick, (key, answer));
    }

    #[cfg(test)]
    pub(super) fn clear(&self) {
        for shard in &self.shards {
            shard
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .clear();
        }
    }
}

/// A test's answer in [`ANSWERS`]: 0 for no loss proved, else
/// one more than the most face-down cards turned up, times two, plus
/// whether a pile empties.
pub(super) struct Answer;

impl Answer {
    pub(super) fn write(lost: Option<(usize, bool)>) -> u16 {
        lost.map_or(0, |(most_turned_up, a_pile_empties)| {
            (most_turned_up as u16 + 1) << 1 | u16::from(a_pile_empties)
        })
    }

    pub(super) fn read(answer: u16) -> Option<(usize, bool)> {
        (answer != 0).then(|| (usize::from(answer >> 1) - 1, answer & 1 == 1))
    }
}

/// How many relaxed states of each kind (won, lost) a thread remembers
/// before it starts again. Few: the tests that share states are the ones
/// made one after the other, and a small set stays in the processor's
/// cache, where a large one costs a cache miss at every state. Measured
/// on `r1-g5004`'s first 6 M positions (`--exhaustive-only -j 1
/// --max-positions 6000000 --time-limit 0`, the same counts): 1 << 20
/// states 54–59 CPU seconds, 1 << 16 44–47, 1 << 12 36–39, 1 << 8 35–36.
/// Instruction counts hide this (cache misses cost no instructions).
pub(super) const KNOWN_KEPT: usize = 1 << 12;

/// What a thread keeps from one test to the next, and the set of states
/// one search has visited (kept only for its capacity: a test visits about
/// 150 states, and a set made afresh would grow several times in each).
#[derive(Default)]
pub(super) struct Memory {
    /// Relaxed states from which the search found a relaxed line that
    /// removes every card (or empties [`EMPTIED_ENOUGH`] piles), by a
    /// 128-bit hash ([`Search::hash`]).
    pub(super) won: FoldSet<u128>,
    /// Relaxed states all of whose lines the search searched without
    /// finding one, by the same hash folded to 64 bits: only the quick
    /// search reads them, and a loss it finds with one is confirmed by the
    /// plain search (see below), so a hash shared by two states costs at
    /// most a confirmation.
    pub(super) lost: FoldSet<u64>,
    /// Whether this thread's last test proved its position lost: it then
    /// starts the next with the plain search (see [`no_room`]).
    pub(super) last_lost: bool,
    /// The states the running search has visited.
    pub(super) seen: FoldSet<u128>,
    /// The rule of the states remembered ([`Effort::make_way`]).
    pub(super) make_way: bool,
    /// Whether this thread's tests leave [`ANSWERS`] alone: set by
    /// [`forget`], so that a test can check a verdict made with nothing
    /// remembered.
    #[cfg(test)]
    pub(super) alone: bool,
    /// How many of this thread's tests were answered from [`ANSWERS`].
    pub(super) answers_given: u64,
    /// The relaxed states this thread's searches visited, counted on (it
    /// wraps), to tell what a test cost.
    pub(super) states: u32,
    /// The learned keys ([`Search::learned_key`]) of the states the
    /// running search proved lost, when it learns.
    pub(super) learning: Vec<u128>,
}

/// A set of 64- or 128-bit keys, hashed by one folded multiply: the test
/// makes three set operations a state, and its keys are already strong
/// hashes or short ([`State::key`]).
pub(super) type FoldSet<K> =
    std::collections::HashSet<K, std::hash::BuildHasherDefault<FoldHasher>>;

/// A map by such keys.
pub(super) type FoldMap<K, V> =
    std::collections::HashMap<K, V, std::hash::BuildHasherDefault<FoldHasher>>;

#[derive(Default)]
pub(super) struct FoldHasher(u64);

impl std::hash::Hasher for FoldHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.write_u64(self.0.rotate_left(8) ^ u64::from(byte));
        }
    }

    fn write_u64(&mut self, key: u64) {
        self.write_u128(u128::from(key));
    }

    fn write_u128(&mut self, key: u128) {
        let product = u128::from(key as u64 ^ 0x243f_6a88_85a3_08d3)
            .wrapping_mul(u128::from((key >> 64) as u64 ^ 0x1319_8a2e_0370_7344));
        self.0 = product as u64 ^ (product >> 64) as u64;
    }
}

/// The fewest states below a relaxed state proved lost (itself included)
/// for the state to be kept among the learned losses ([`Learned`]): the
/// losses proved in fewer are proved again nearly as fast as they are
/// looked up in a large set.
pub(super) const LEARNED_SMALLEST: u32 = 16;

/// The salt of [`Search::learned_key`].
pub(super) const LEARNED_SALT: u128 = 0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c834;

/// The most relaxed losses one [`Learned`] holds: 2 M keys, about 40 MB
/// with the set's own room (and as much again for a step's pending keys).
/// Past it, the search learns nothing more (it keeps what it holds).
pub const LEARNED_KEPT: usize = 1 << 21;

/// Learned conflicts: relaxed states of the room test proved lost, kept by
/// one exhaustive search and trusted by every later test of it, on every
/// thread (`--learn` switches it on; off by default, see docs/proofs.md).
///
/// # Why a learned loss keeps every win
///
/// A key names a state of the relaxed game by what decides its future and
/// nothing else: the cards of each prefix (as a multiset over the piles)
/// and the moved cards. The moves of the relaxed game from a state, and so
/// whether some line from it removes every card, depend on these alone,
/// not on the position the test started from, the arrangement of the moved
/// cards (the game does not keep it) or the order of the piles; the make-way
/// rule reads the moved cards and the prefixes' tops. A search records a
/// state lost only when it searched every leave and removal from it
/// without a relaxed win and without running out of budget, and a give-up
/// at emptied piles counts as a win: so no relaxed line from a recorded
/// state removes every card (the settled shortcuts only ever lose no
/// relaxed win, see the module's argument). A later test that meets the
/// state anywhere may then treat it as searched, and when it finds no
/// relaxed win, none exists from its own start either: its position is
/// lost, as the module argues. A relaxed state is the same fact under one
/// rule only, so a store is read only by tests with its make-way rule.
/// The keys are 128-bit sums of strong hashes, as the exhaustive search's
/// own (docs/analyze.md): two states share one with odds of the same order
/// as two positions do there.
///
/// # Why the counts do not depend on threads or timing
///
/// Only a test that proves its position lost adds to the store, and the
/// states it adds are those of the search that decided, the one that
/// trusts no loss a thread remembers: given the store, that is a function
/// of the position alone (see `MEMORY`). The tests add to a pending list;
/// the layered search calls [`Learned::absorb`] between two breadth-first
/// steps, when no test runs, and only then do the pending keys join the
/// store, in sorted order (up to [`LEARNED_KEPT`]). So within a step every
/// test reads the same store, a step's tests add the same set whatever the
/// threads and their order, and the search examines the same positions on
/// one thread or many. A search resumed from a checkpoint would start with
/// an empty store, so the solver does not learn when it checkpoints.
pub struct Learned {
    pub(super) known: std::sync::RwLock<FoldSet<u128>>,
    /// The keys learned in the running step, and whether they grew past
    /// the store's room (then the step's keys are all dropped: whether a
    /// set grows past a size does not depend on the order of its inserts).
    pub(super) pending: std::sync::Mutex<(FoldSet<u128>, bool)>,
    pub(super) make_way: bool,
    pub(super) kept: usize,
}

impl Learned {
    /// An empty store for tests under the make-way rule `make_way`.
    pub fn new(make_way: bool) -> Learned {
        Learned::with_room(make_way, LEARNED_KEPT)
    }

    /// An empty store that keeps at most `kept` keys.
    pub fn with_room(make_way: bool, kept: usize) -> Learned {
        Learned {
            known: std::sync::RwLock::new(FoldSet::default()),
            pending: std::sync::Mutex::new((FoldSet::default(), false)),
            make_way,
            kept,
        }
    }

    /// The relaxed losses learned so far (absorbed).
    pub fn len(&self) -> usize {
        self.read().len()
    }

    /// Whether no loss has been learned yet.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub(super) fn read(&self) -> std::sync::RwLockReadGuard<'_, FoldSet<u128>> {
        self.known
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Adds `keys` (of a test that proved its position lost) to the
    /// pending keys.
    pub(super) fn add(&self, keys: &[u128]) {
        if keys.is_empty() || self.read().len() >= self.kept {
            return;
        }
        let mut pending = self
            .pending
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let (set, overflow) = &mut *pending;
        if *overflow {
            return;
        }
        set.extend(keys.iter().copied());
        if set.len() > self.kept {
            *overflow = true;
            *set = FoldSet::default();
        }
    }

    /// Moves the pending keys into the store, in sorted order while it has
    /// room (none when they grew past its room). Call it only when no test
    /// runs (the layered search does, between two breadth-first steps), so
    /// that every test of a step reads the same store.
    pub fn absorb(&self) {
        let (pending, overflow) = std::mem::take(
            &mut *self
                .pending
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner),
        );
        if pending.is_empty() || overflow {
            return;
        }
        let mut pending: Vec<u128> = pending.into_iter().collect();
        pending.sort_unstable();
        let mut known = self
            .known
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        for key in pending {
            if known.len() >= self.kept {
                break;
            }
            known.insert(key);
        }
    }
}

thread_local! {
    /// Relaxed states already decided, kept from one test to the next:
    /// the positions the exhaustive search tests one after the other
    /// mostly differ by one move, and a position's relaxed game starts in
    /// a state of its parent's, so a test often meets states an earlier
    /// one decided.
    ///
    /// The verdict of a test never depends on them, only its speed. Take
    /// the search that remembers nothing: with remembered states, a search
    /// visits the states it would visit, in the same order, except those
    /// below a remembered state, and a remembered state's answer is the
    /// one its own search would give. So it finds a relaxed win only where
    /// the plain search finds one or runs out of budget, and runs out of
    /// budget only where the plain search does; a search that proves a
    /// position lost meets no state with a relaxed win. So "lost" is
    /// only ever said by a search that trusts no remembered loss (run
    /// first after a loss, or to confirm one), and the verdicts, and with
    /// them the counts of an exhaustive search, are the same whatever ran
    /// before on the thread: on one thread or many, resumed or not. A
    /// hash shared by two states (for the remembered wins, odds of those
    /// of the exhaustive search's own 128-bit keys, docs/analyze.md) could
    /// only make a search prove less, and the one that says "lost" trusts
    /// no remembered loss.
    pub(super) static MEMORY: std::cell::RefCell<Memory> = std::cell::RefCell::new(Memory::default());
}

/// Forgets the states this thread remembers, and leaves the answers
/// kept ([`ANSWERS`]) alone from then on (for tests: a test made after it
/// is made with nothing remembered).
#[cfg(test)]
pub fn forget() {
    MEMORY.with_borrow_mut(|memory| {
        *memory = Memory {
            alone: true,
            ..Memory::default()
        }
    });
}

/// Forgets the states this thread remembers and every answer kept, and
/// keeps and takes answers on this thread from then on (for tests).
#[cfg(test)]
pub fn forget_all() {
    ANSWERS.clear();
    MEMORY.with_borrow_mut(|memory| *memory = Memory::default());
}

/// How many tests on this thread were answered by an answer kept
/// ([`ANSWERS`]) since it last forgot (for tests).
#[cfg(test)]
pub fn answers_given() -> u64 {
    MEMORY.with_borrow(|memory| memory.answers_given)
}
