//! The first empty pile: a room test for positions with stock rows left
//! (issue 49), [`no_pile_empties`].
//!
//! The first relaxation ([`super::prune::dead_end`]) lets a card leave onto
//! any card one rank higher that was ever in view, as often as it likes: in
//! `r1-g5006` of the bench ladder it lets both 5♠ and 5♦ leave onto the one
//! 6♥ in view. The room test ([`super::room`]) counts the room, but only
//! once the stock is empty; with rows left, its relaxed game empties piles
//! at will and then has room for everything (lab/notebook.md, *The room
//! test with stock rows left*). This test asks less: can any pile be
//! emptied at all? Until the first pile empties there is no empty pile, so
//! every card that moves lies on a card one rank higher, and that is a
//! count with no slack.
//!
//! # What every line looks like until a pile empties
//!
//! Take a position `P` with no empty pile and call its cards, on the piles
//! and in the stock, the *originals*. Along any line of play from `P`,
//! until the first moment a pile is empty, each pile is its *prefix* (the
//! cards of its pile in `P` that never moved, at least one: a pile whose
//! prefix is gone is empty, since every card above the prefix lay on it),
//! then moved cards and the cards dealt onto it since `P`: some of these
//! dealt cards are still *in place* (never moved since dealt), in the
//! order dealt, and every other card above the prefix is a *moved* card (a
//! card of the pile or a dealt one that has moved since). A card is only
//! ever put on a card one rank higher or on an empty pile, and there is
//! none; a run that moves is a run; taking cards off the top leaves the
//! rest as it was. So every moved card lies on a card one rank higher (a
//! moved card, a prefix's top card or a dealt card in place), and every
//! dealt card in place lies on some card. No card has two cards on it.
//!
//! Write `m_r` for the moved cards of rank `r`, `n_r` for the prefixes
//! whose top card has rank `r` and `w_r` for the dealt cards in place of
//! rank `r`. The moved cards of rank `r` lie on distinct cards of rank
//! `r + 1`, so at every moment until the first pile empties,
//!
//! ```text
//! s_r = m_(r+1) + n_(r+1) + w_(r+1) - m_r  >=  0     for r = 1..13  (room)
//! ```
//!
//! (`m_14 = n_14 = w_14 = 0`: a king never moves while no pile is empty).
//! The dealt cards in place need a card each too, of any rank, but the
//! top card of each of the ten piles holds nothing, so they always find
//! one: the condition above is the whole count.
//!
//! # The relaxed game
//!
//! Its state is each pile's prefix length, the rows dealt, and which
//! dealt cards are still in place on each pile; the moved cards are every
//! other card of the piles and of the rows dealt (no run is removed, see
//! below). Its steps are
//!
//! - *leave*: the top card of a prefix with no dealt card in place on its
//!   pile, or the dealt card in place dealt last onto a pile, becomes a
//!   moved card, if the state after has room;
//! - *deal*: the next row is dealt, each of its cards in place.
//!
//! The make-way rule of the room test holds here too: a real move takes a
//! card `c` (rank `r`, suit `s`) off with only a run of `s` on it, so when
//! no copy of the card of rank `r - 1` and suit `s` has moved, nothing lies
//! on `c`, and the moved cards of rank `r - 1` fit without the place `c`
//! gives: `s_(r-1) >= 1` (the leave leaves `s_(r-1)` as it is). A leave
//! must meet it too.
//!
//! The relaxed game *escapes* (and the test proves nothing) when a leave
//! takes a prefix's last card (a pile empties), or when one copy of each
//! card ace to queen of some suit has moved (a run might be removed), or
//! when the search runs out of budget.
//!
//! # Why no win is lost
//!
//! A win empties every pile, so it suffices that no real line from `P`
//! ever empties a pile. Take a real line, and read each position along it,
//! up to its first empty pile, as a relaxed state (prefixes, rows dealt,
//! dealt cards in place). Each has room, by the count above. Every real
//! move is a series of relaxed steps, each state in between having room:
//!
//! - a move of a run off pile `p` makes its cards that were in place or in
//!   the prefix moved cards; the relaxed game lets them leave one at a
//!   time from the top (the dealt cards in place first, last dealt first,
//!   as they lie above the prefix). Each state in between is the real
//!   position before the move read with the cards that left counted as
//!   moved: they lie, as they do, on the card under them, one rank higher
//!   (a run), so it has room. The make-way rule holds for each: the card
//!   on it is the run's next card, which has just left, or nothing (the
//!   run's top card, the top of its pile);
//! - a deal is a deal (standard rules deal only with no empty pile, and
//!   there is none; relaxed rules deal as well);
//! - a move of moved cards changes no relaxed state;
//! - a removal of a completed run: before it, the relaxed game lets the
//!   run's cards in place or in a prefix leave as above (its king aside),
//!   and then one copy of ace to queen of its suit has moved: the relaxed
//!   game escapes. A move onto an empty pile needs an empty pile.
//!
//! So if no relaxed line escapes, no real line empties a pile or removes
//! a run, and none wins: the position is lost.
//!
//! # The search, and its shortcuts
//!
//! Depth first, every state once (a state seen before is known at once,
//! before its forced leaves: they depend on the state alone), within a
//! budget of states; past it the test proves nothing. Three kinds of
//! leave are made without a choice, where the room and the make-way rule
//! allow them, because the state after can do all the state before can:
//!
//! - a prefix's last card: the relaxed game escapes;
//! - a prefix's top card lying on a card one rank higher (any suit), with
//!   no dealt card in place on its pile. It changes no `s` (`m_r` and
//!   `n_(r+1)` grow by one, `n_r` falls by one), only adds a moved card
//!   (which only lifts the make-way rule and brings an escape nearer), and
//!   leaves its pile's dealt cards as they were: a relaxed line from the
//!   state before is played from the state after by leaving that leave
//!   out, each of its states having room wherever the line's had;
//! - a card of rank `r` when `s_r` after it is at least the cards of rank
//!   `r` that may still leave (in prefixes, in place or in the stock, this
//!   one included). Only a leave of rank `r` lowers `s_r` (places only
//!   grow), so along any line from the state after, `s_r` stays at 1 or
//!   more until that card's own leave would have come: every leave of rank
//!   `r` finds room, and every leave of rank `r + 1` meets the make-way
//!   rule's `s_r >= 1`. The card under it only adds a place. A line from
//!   the state before is played by leaving that leave out.
//!
//! # What the search learns (and why a learned state keeps every win)
//!
//! The tests of one exhaustive search keep what they decided in a table
//! shared by its threads ([`Learned`]), and a later test that meets a
//! state of the table does not search it again: a state learned dead is
//! taken as searched without an escape, a state learned to escape ends the
//! test with "escapes".
//!
//! - *What names a state.* The relaxed game's steps, and so whether some
//!   line from a state escapes, read the cards of each prefix (by pile and
//!   height), the dealt cards in place on each pile (in the order dealt),
//!   the rows not dealt yet (by pile, counted from the last), which cards
//!   have a moved copy (the make-way rule and the escape by a suit) and the
//!   moved cards of each rank (`m_r`); the places and the cards that may
//!   still leave are counts of these. Nothing else: not the position the
//!   test started from, its moved cards' arrangement, its face-down cards
//!   or the rows dealt before it. A state's key (`State::hash`) is the
//!   sum (exclusive or) of a strong 128-bit hash of each of these facts,
//!   kept as the state changes, and the table compares 127 of its bits;
//!   two states share them with odds of the same order as two positions
//!   share the exhaustive search's own 128-bit keys (docs/analyze.md). Two
//!   states with one key are then, but for such odds, the same state,
//!   whichever test (or game) met them.
//! - *A state learned dead is dead in every later test.* A search records a
//!   state dead only when its own call returns "no escape", and that
//!   happens only once every leave and deal from it has been searched: each
//!   step led to an escape-free search, to a state seen before in the same
//!   test (searched in full: the relaxed game only ever shortens prefixes,
//!   takes dealt cards off and deals, so no state is met again while its own
//!   search runs, and an escape or the budget ends the whole search), or to
//!   a state learned dead before (by induction on the order of learning).
//!   So no relaxed line from it escapes, and since its lines depend on its
//!   key's facts alone, that holds wherever a later test meets it. That
//!   test's search, taking it as searched, still searches every other line,
//!   so when it finds no escape there is none from its start: the module's
//!   argument proves the position lost. The leaves made without a choice
//!   keep this (they never lose an escape, whatever the test).
//! - *The budget.* A search that runs out of budget returns "escapes" up
//!   the whole stack, and a state whose search was cut short is recorded
//!   neither dead nor escaping; the states whose searches finished before
//!   it ran out were searched in full, and are recorded dead. A state
//!   learned dead costs no budget when met.
//! - *A state learned to escape.* It is recorded only on a real escape
//!   (never when the budget ran out): every state on the stack then has a
//!   relaxed line to a pile emptied or a suit moved. A test that meets one
//!   says "escapes" and proves nothing, which is always sound.
//! - *The counts do not depend on threads.* A test's search reads the table
//!   and nothing else from before it (the set of states seen is cleared at
//!   each test), so what it decides and records is a function of its
//!   position and the table. The tests of a breadth-first step add what
//!   they record to a pending list; the layered search calls
//!   [`Learned::absorb`] between two steps, and only then do the pending
//!   keys enter the table, in sorted order. So every test of a step reads
//!   the same table, and the search examines the same positions on one
//!   thread or many. A resumed search would start with an empty table, so
//!   the solver does not learn when it checkpoints or keeps its search on
//!   disk.
//! - *What bounds the table.* It has [`LEARNED_SLOTS`] slots (32 MB), one
//!   key a slot, chosen by the key: a key entering a slot replaces the one
//!   there (the later in sorted order wins), so the table forgets old
//!   states and never grows. A step's pending keys are at most twice as
//!   many: past that the smallest [`LEARNED_SLOTS`] are kept, which is
//!   the same set whatever the order the keys came in. Only states whose
//!   search visited at least [`LEARNED_SMALLEST`] states are recorded:
//!   the others are searched again nearly as fast as they are looked up.

use std::sync::{Mutex, PoisonError, RwLock};

use crate::cards::{KING, RANK_OF};
use crate::deal::{DECK_CARDS, MAX_STOCK_ROWS, PILES};

use super::room::{NoRoom, Piles, mix128};

/// The most relaxed states a test visits in the exhaustive search before it
/// gives up (and proves nothing).
pub const BUDGET: u32 = 2_000;

/// The same on the position analyzed, before any search: it runs once.
pub const BUDGET_AT_START: u32 = 200_000;

/// The slots of a [`Learned`] table: 2 M keys of 16 bytes, 32 MB (and up
/// to twice as much again for a step's pending keys).
pub const LEARNED_SLOTS: usize = 1 << 21;

/// The fewest states a state's own search visits (itself included) for
/// the state to be learned (see the module).
pub const LEARNED_SMALLEST: u32 = 16;

/// `Some` when no line of the relaxed game (see the module) ever empties a
/// pile or removes a run: the position, with the stock rows `stock` (card
/// indices, the next first) still to deal, is then lost. `None` when some
/// line does, when the search ran out of `budget` states, or when a pile of
/// `piles` is empty. The cards must be exactly the runs still to remove
/// (the caller checks).
pub fn no_pile_empties(piles: &Piles, stock: &[[u8; PILES]], budget: u32) -> Option<NoRoom> {
    no_pile_empties_learning(piles, stock, budget, None)
}

/// [`no_pile_empties`], trusting the states `learned` holds and adding to
/// it those this test decides (see the module, *What the search learns*).
pub fn no_pile_empties_learning(
    piles: &Piles,
    stock: &[[u8; PILES]],
    budget: u32,
    learned: Option<&Learned>,
) -> Option<NoRoom> {
    if piles.len.contains(&0) || stock.len() > MAX_STOCK_ROWS {
        return None;
    }
    let mut state = State {
        len: [0; PILES],
        in_place: [0; PILES],
        dealt: 0,
        moved: 0,
        places: [0; 16],
        moved_rank: [0; 16],
        left: [0; 16],
        hash: 0,
    };
    let mut prefix_hash = [0; DECK_CARDS];
    let mut row_hash = [0; MAX_STOCK_ROWS];
    for pile in 0..PILES {
        state.len[pile] = piles.len[pile] as u8;
        let cards = &piles.cards[piles.start[pile]..piles.start[pile] + piles.len[pile]];
        state.places[RANK_OF[cards[cards.len() - 1] as usize] as usize] += 1;
        for (height, &card) in cards.iter().enumerate() {
            state.left[RANK_OF[card as usize] as usize] += 1;
            if learned.is_some() {
                let hash = fact_hash(FACT_PREFIX, pile, height, card);
                prefix_hash[piles.start[pile] + height] = hash;
                state.hash ^= hash;
            }
        }
    }
    for (row, cards) in stock.iter().enumerate() {
        for (pile, &card) in cards.iter().enumerate() {
            state.left[RANK_OF[card as usize] as usize] += 1;
            if learned.is_some() {
                // Rows are named from the last: the same row in every test.
                row_hash[row] ^= fact_hash(FACT_STOCK, pile, stock.len() - 1 - row, card);
            }
        }
        state.hash ^= row_hash[row];
    }
    let table = learned.map(|learned| learned.read());
    let mut scratch = SCRATCH.take();
    scratch.seen.clear();
    scratch.learning.clear();
    let mut search = Search {
        piles,
        stock,
        budget,
        seen: scratch.seen,
        most_turned_up: 0,
        known: table.as_deref().map(Vec::as_slice),
        learning: scratch.learning,
        prefix_hash,
        row_hash,
        out_of_budget: false,
        used_known: false,
    };
    let escaped = search.escapes(state);
    let Search {
        seen,
        learning,
        used_known,
        most_turned_up,
        ..
    } = search;
    drop(table);
    if let Some(learned) = learned {
        learned.add(&learning);
    }
    SCRATCH.set(Scratch { seen, learning });
    if escaped {
        return None;
    }
    let face_down = piles.down.iter().sum();
    Some(NoRoom {
        face_down,
        // What the learned states' own searches turned up was not kept:
        // then say only what is sure.
        most_turned_up: if used_known {
            face_down
        } else {
            most_turned_up
        },
        a_pile_empties: false,
        make_way: true,
    })
}

/// The relaxed states the first-empty tests of one exhaustive search have
/// decided, learned dead or learned to escape, trusted by its later tests
/// on every thread (see the module, *What the search learns*, for the
/// argument and the bounds).
pub struct Learned {
    /// One key a slot, chosen by the key's high bits: the key with its
    /// lowest bit set when the state escapes, clear when it is dead; 0 for
    /// none.
    slots: RwLock<Vec<u128>>,
    /// The keys recorded in the running step.
    pending: Mutex<Vec<u128>>,
    /// The number of slots.
    kept: usize,
}

impl Default for Learned {
    fn default() -> Learned {
        Learned::with_slots(LEARNED_SLOTS)
    }
}

impl Learned {
    /// An empty table of `slots` slots (a power of two).
    pub fn with_slots(slots: usize) -> Learned {
        assert!(slots.is_power_of_two());
        Learned {
            slots: RwLock::new(vec![0; slots]),
            pending: Mutex::new(Vec::new()),
            kept: slots,
        }
    }

    /// The states the table holds (a count over its slots).
    pub fn len(&self) -> usize {
        self.read().iter().filter(|&&key| key != 0).count()
    }

    /// Whether the table holds no state.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, Vec<u128>> {
        self.slots.read().unwrap_or_else(PoisonError::into_inner)
    }

    /// Adds a test's recorded `keys` to the step's pending keys, keeping
    /// at most twice the slots (then the smallest, as many as the slots:
    /// the same set whatever the order the keys come in).
    fn add(&self, keys: &[u128]) {
        if keys.is_empty() {
            return;
        }
        let mut pending = self.pending.lock().unwrap_or_else(PoisonError::into_inner);
        pending.extend_from_slice(keys);
        if pending.len() > 2 * self.kept {
            pending.sort_unstable();
            pending.dedup();
            pending.truncate(self.kept);
        }
    }

    /// Moves the pending keys into the table, in sorted order (a later key
    /// replaces the one in its slot). Call it only when no test runs (the
    /// layered search does, between two breadth-first steps), so that every
    /// test of a step reads the same table.
    pub fn absorb(&self) {
        let mut pending =
            std::mem::take(&mut *self.pending.lock().unwrap_or_else(PoisonError::into_inner));
        if pending.is_empty() {
            return;
        }
        let mut slots = self.slots.write().unwrap_or_else(PoisonError::into_inner);
        pending.sort_unstable();
        pending.dedup();
        pending.truncate(slots.len());
        let mask = slots.len() - 1;
        for key in pending {
            slots[slot_of(key, mask)] = key;
        }
    }
}

/// The slot of a key in a table of `mask + 1` slots.
#[inline]
fn slot_of(key: u128, mask: usize) -> usize {
    (key >> 64) as usize & mask
}

/// The kinds of fact a state's key sums (see [`fact_hash`]).
const FACT_PREFIX: u128 = 1;
const FACT_IN_PLACE: u128 = 2;
const FACT_STOCK: u128 = 3;

/// A strong hash of one fact of a relaxed state: card `card` at `height`
/// of pile `pile`'s prefix ([`FACT_PREFIX`]), in place at `height` among
/// the dealt cards in place on it ([`FACT_IN_PLACE`]), or on it in the
/// row `height` rows before the last not dealt yet ([`FACT_STOCK`]).
#[inline]
fn fact_hash(kind: u128, pile: usize, height: usize, card: u8) -> u128 {
    mix128(
        0xa076_1d64_78bd_642f_e703_7ed1_a0b4_28db
            ^ kind << 96
            ^ (pile as u128) << 64
            ^ (height as u128) << 32
            ^ u128::from(card),
    )
}

/// The hash of each card having a moved copy.
const MOVED_HASH: [u128; 52] = {
    let mut hashes = [0; 52];
    let mut card = 0;
    while card < 52 {
        hashes[card] = mix128(0x8ebc_6af0_9c88_c6e3_589b_4a3b_1e5d_0c6f ^ card as u128);
        card += 1;
    }
    hashes
};

/// The hash of `m_r = count` at `[r][count]` (0 for no moved card, and a
/// count of one rank is at most 8).
const MOVED_RANK_HASH: [[u128; 16]; 16] = {
    let mut hashes = [[0; 16]; 16];
    let mut rank = 0;
    while rank < 16 {
        let mut count = 1;
        while count < 16 {
            hashes[rank][count] =
                mix128(0x2d35_8dcc_aa6c_78a5_ab4d_25d1_2c29_df5b ^ (rank << 8 | count) as u128);
            count += 1;
        }
        rank += 1;
    }
    hashes
};

/// A relaxed state: each pile's prefix length, the rows dealt and, as bits
/// (bit `j`: row `j`), the dealt cards still in place on each pile; the
/// cards with a moved copy (bit `i`: card index `i`), the counts `m_r +
/// n_r + w_r` (`places`) and `m_r`, and the cards of each rank that have
/// not moved (in prefixes, in place or in the stock: those that may still
/// leave). A count of one rank is at most 8, the cards of one rank in two
/// decks. With its key among the learned states (`hash`, see the module;
/// kept only when the test learns).
#[derive(Clone, Copy)]
struct State {
    len: [u8; PILES],
    in_place: [u8; PILES],
    dealt: u8,
    moved: u64,
    places: [i8; 16],
    moved_rank: [i8; 16],
    left: [i8; 16],
    hash: u128,
}

/// A thread's scratch space, cleared for each test but kept for its
/// capacity (it holds nothing from one test to the next).
#[derive(Default)]
struct Scratch {
    /// The states seen.
    seen: ahash::AHashSet<u128>,
    /// The keys of the states the test learns.
    learning: Vec<u128>,
}

thread_local! {
    static SCRATCH: std::cell::Cell<Scratch> = std::cell::Cell::new(Scratch::default());
}

struct Search<'a> {
    piles: &'a Piles<'a>,
    stock: &'a [[u8; PILES]],
    budget: u32,
    seen: ahash::AHashSet<u128>,
    most_turned_up: usize,
    /// The learned table's slots (see [`Learned`]), when the test learns.
    known: Option<&'a [u128]>,
    /// The keys of the states decided, to learn.
    learning: Vec<u128>,
    /// The hash of each prefix card, by its index in `piles.cards`.
    prefix_hash: [u128; DECK_CARDS],
    /// The hash of each row of the stock not dealt yet.
    row_hash: [u128; MAX_STOCK_ROWS],
    /// Whether the search ran out of budget (its "escapes" is then no
    /// escape found).
    out_of_budget: bool,
    /// Whether a learned state ended the search of a state.
    used_known: bool,
}
/// What a leave does to the counts, or why it may not be made.
enum Leave {
    /// Not allowed: too little room, or the make-way rule.
    No,
    /// Allowed, and the relaxed game escapes by it.
    Escapes,
    /// Allowed.
    Made,
}

impl State {
    /// Whether a card of index `card` may become a moved card: the room
    /// after (`s_r` stays at 0 or more, where the leave also adds a place
    /// of rank `new_place`: the prefix's card under it, or 0 for none) and
    /// the make-way rule, read in the state before.
    #[inline]
    fn may_leave(&self, card: u8, new_place: usize) -> bool {
        let rank = RANK_OF[card as usize] as usize;
        if rank == KING as usize {
            return false;
        }
        // s_r after the leave: places of rank r + 1 (one more if the card
        // under it is one) against one more moved card of rank r.
        let above = self.places[rank + 1] + i8::from(new_place == rank + 1);
        if above - self.moved_rank[rank] < 1 {
            return false;
        }
        // The make-way rule: nothing lies on it unless the card one rank
        // lower of its suit has moved; then the moved cards of rank r - 1
        // fit without its place.
        rank == 1
            || self.moved >> (card - 1) & 1 == 1
            || self.places[rank] - self.moved_rank[rank - 1] >= 1
    }

    /// Makes `card` a moved card (its place stays a place: the caller
    /// moves the place it took, if any). Whether a suit's ace to queen have
    /// now all moved (an escape).
    #[inline]
    fn mark_moved(&mut self, card: u8) -> bool {
        let rank = RANK_OF[card as usize] as usize;
        let count = self.moved_rank[rank] as usize;
        self.hash ^= MOVED_RANK_HASH[rank][count] ^ MOVED_RANK_HASH[rank][count + 1];
        self.moved_rank[rank] += 1;
        self.left[rank] -= 1;
        if self.moved >> card & 1 == 0 {
            self.hash ^= MOVED_HASH[card as usize];
        }
        self.moved |= 1 << card;
        // Ace to queen of the card's suit.
        let suit = 0xFFFu64 << (card / 13 * 13);
        self.moved & suit == suit
    }

    /// The relaxed state as one number, within one test (whose piles and
    /// stock fix the rest): prefix lengths (7 bits each), cards in place
    /// (5 bits each), rows dealt.
    fn key(&self) -> u128 {
        let mut key = u128::from(self.dealt);
        for pile in 0..PILES {
            key = key << 7 | u128::from(self.len[pile]);
            key = key << 5 | u128::from(self.in_place[pile]);
        }
        key
    }
}

impl Search<'_> {
    /// The card at the top of pile `pile`'s prefix.
    #[inline]
    fn prefix_top(&self, state: &State, pile: usize) -> u8 {
        self.piles.cards[self.piles.start[pile] + state.len[pile] as usize - 1]
    }

    /// The card of `pile` that may leave next: the dealt card in place
    /// dealt last onto it, or else its prefix's top card; with the rank of
    /// the prefix's card under that top card (0 for none, or for a dealt
    /// card), and whether it is a dealt card.
    #[inline]
    fn candidate(&self, state: &State, pile: usize) -> (u8, usize, bool) {
        if state.in_place[pile] != 0 {
            let row = 7 - state.in_place[pile].leading_zeros() as usize;
            return (self.stock[row][pile], 0, true);
        }
        let at = self.piles.start[pile] + state.len[pile] as usize;
        let under = if state.len[pile] >= 2 {
            RANK_OF[self.piles.cards[at - 2] as usize] as usize
        } else {
            0
        };
        (self.piles.cards[at - 1], under, false)
    }

    /// The prefix's top card of `pile` leaves (the caller checked that no
    /// dealt card is in place there).
    fn leave_prefix(&self, state: &mut State, pile: usize) -> Leave {
        let card = self.prefix_top(state, pile);
        let at = self.piles.start[pile] + state.len[pile] as usize;
        let under_rank = if state.len[pile] >= 2 {
            RANK_OF[self.piles.cards[at - 2] as usize] as usize
        } else {
            0
        };
        if !state.may_leave(card, under_rank) {
            return Leave::No;
        }
        // n_r falls by one, m_r grows by one: places of rank r stay.
        state.len[pile] -= 1;
        state.hash ^= self.prefix_hash[self.piles.start[pile] + state.len[pile] as usize];
        if state.len[pile] == 0 {
            return Leave::Escapes;
        }
        let under = self.prefix_top(state, pile);
        state.places[RANK_OF[under as usize] as usize] += 1;
        if state.mark_moved(card) {
            return Leave::Escapes;
        }
        Leave::Made
    }

    /// The dealt card in place dealt last onto `pile` leaves.
    fn leave_dealt(&self, state: &mut State, pile: usize) -> Leave {
        let row = 7 - state.in_place[pile].leading_zeros() as usize;
        let card = self.stock[row][pile];
        if !state.may_leave(card, 0) {
            return Leave::No;
        }
        // w_r falls by one, m_r grows by one: places of rank r stay.
        state.in_place[pile] &= !(1 << row);
        if self.known.is_some() {
            let height = state.in_place[pile].count_ones() as usize;
            state.hash ^= fact_hash(FACT_IN_PLACE, pile, height, card);
        }
        if state.mark_moved(card) {
            return Leave::Escapes;
        }
        Leave::Made
    }

    /// Makes the leaves that need no choice (see the module): a prefix's
    /// last card (an escape), a prefix top on a card one rank higher, and a
    /// card of a rank with places to spare. Whether the relaxed game
    /// escapes.
    fn settle(&self, state: &mut State) -> bool {
        loop {
            let mut changed = false;
            for pile in 0..PILES {
                loop {
                    let (card, under_rank, dealt) = self.candidate(state, pile);
                    let rank = RANK_OF[card as usize] as usize;
                    if !state.may_leave(card, under_rank) {
                        break;
                    }
                    let last = !dealt && state.len[pile] == 1;
                    let on_next = !dealt && under_rank == rank + 1;
                    let above = state.places[rank + 1] + i8::from(under_rank == rank + 1);
                    // s_r after the leave, `above - m_r - 1`, at least
                    // the cards of rank r that may still leave (this one
                    // included, so one to spare).
                    let spare = above - state.moved_rank[rank] > state.left[rank];
                    if !(last || on_next || spare) {
                        break;
                    }
                    let leave = if dealt {
                        self.leave_dealt(state, pile)
                    } else {
                        self.leave_prefix(state, pile)
                    };
                    match leave {
                        Leave::No => break,
                        Leave::Escapes => return true,
                        Leave::Made => changed = true,
                    }
                }
            }
            if !changed {
                return false;
            }
        }
    }

    /// Whether some relaxed line from `state` escapes (or the budget ran
    /// out).
    fn escapes(&mut self, mut state: State) -> bool {
        // A state seen before was searched in full without an escape (an
        // escape ends the search); so was the state its forced leaves lead
        // to, since they depend on the state alone.
        let key = state.key();
        if !self.seen.insert(key) {
            return false;
        }
        if self.budget == 0 {
            self.out_of_budget = true;
            return true;
        }
        self.budget -= 1;
        if self.settle(&mut state) {
            return true;
        }
        let settled = state.key();
        if settled != key && !self.seen.insert(settled) {
            return false;
        }
        let Some(known) = self.known else {
            return self.expand(state);
        };
        // A state learned dead is searched, and costs no budget; one
        // learned to escape escapes (see the module).
        let slot = known[slot_of(state.hash, known.len() - 1)];
        if slot != 0 && (slot ^ state.hash) >> 1 == 0 {
            self.used_known = true;
            let escapes = slot & 1 == 1;
            if !escapes {
                self.budget += 1;
            }
            return escapes;
        }
        let budget = self.budget;
        let escapes = self.expand(state);
        // Learned only when decided: searched in full without an escape,
        // or by a real escape (not the budget's end).
        if !self.out_of_budget && budget - self.budget + 1 >= LEARNED_SMALLEST {
            self.learning.push(state.hash & !1 | u128::from(escapes));
        }
        escapes
    }

    /// [`Search::escapes`] from a settled state seen for the first time:
    /// each leave and the deal.
    fn expand(&mut self, state: State) -> bool {
        let turned_up = (0..PILES)
            .map(|pile| (self.piles.down[pile] + 1).saturating_sub(state.len[pile] as usize))
            .sum::<usize>();
        self.most_turned_up = self.most_turned_up.max(turned_up);
        // The piles closest to emptying first: an escape ends the search.
        let mut order: [usize; PILES] = std::array::from_fn(|pile| pile);
        order.sort_unstable_by_key(|&pile| state.len[pile]);
        for pile in order {
            let (card, under_rank, _) = self.candidate(&state, pile);
            if !state.may_leave(card, under_rank) {
                continue;
            }
            let mut next = state;
            let leave = if state.in_place[pile] == 0 {
                self.leave_prefix(&mut next, pile)
            } else {
                self.leave_dealt(&mut next, pile)
            };
            match leave {
                Leave::No => {}
                Leave::Escapes => return true,
                Leave::Made => {
                    if self.escapes(next) {
                        return true;
                    }
                }
            }
        }
        if (state.dealt as usize) < self.stock.len() {
            let mut next = state;
            let row = next.dealt as usize;
            if self.known.is_some() {
                next.hash ^= self.row_hash[row];
            }
            for (pile, &card) in self.stock[row].iter().enumerate() {
                if self.known.is_some() {
                    let height = next.in_place[pile].count_ones() as usize;
                    next.hash ^= fact_hash(FACT_IN_PLACE, pile, height, card);
                }
                next.in_place[pile] |= 1 << row;
                next.places[RANK_OF[card as usize] as usize] += 1;
            }
            next.dealt += 1;
            if self.escapes(next) {
                return true;
            }
        }
        false
    }
}
