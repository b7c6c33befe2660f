//! The room test: a second relaxation for the last stage (the stock
//! empty), in which a card that leaves its pile takes up room.
//!
//! The first relaxation ([`super::prune::dead_end`]) lets a card leave
//! onto any card one rank higher that was ever in view, as often as it
//! likes: 5♠ and 5♦ may both leave onto the one 6♥. Real play cannot do
//! that, and on the ladder's last stages it is what lets the first
//! relaxation through (docs/proofs.md, *Which rule lets the relaxed game
//! through*). This test counts the room.
//!
//! # What every line of the last stage looks like
//!
//! Take a position `P` with the stock empty and call the cards as they lie
//! in `P` the *originals*. Along any line of play from `P`, a card that has
//! never moved since `P` has only never-moved cards under it, so each pile
//! is, at every moment,
//!
//! - a *prefix* of its pile in `P` (the cards that never moved), then
//! - a *chain* of cards that moved, each lying on a card one rank higher
//!   (any suit): a card is only ever put on a card one rank higher or on
//!   an empty pile, a run that moves is a run, and taking cards off the
//!   top or removing a completed run leaves the rest as it was. The
//!   chain's lowest card lies on the prefix's top card, one rank higher,
//!   or, when the prefix is empty, starts at any rank.
//!
//! So a chain on a pile whose prefix ends in a card of rank `R` holds one
//! card of each rank from `R - 1` down to some rank, and a chain on a pile
//! with no prefix left holds one card of each rank of some interval.
//! Write `m_r` for the moved cards of rank `r` (not removed), `n_r` for
//! the piles whose prefix ends in a card of rank `r`, and `e` for the piles
//! with no prefix left. The chains that hold a card of rank `r` are chains
//! that hold one of rank `r + 1`, or start at `r` on a prefix of rank
//! `r + 1`, or start at `r` on a pile with no prefix; and each pile has
//! one chain. Hence, at every moment of every line,
//!
//! ```text
//! sum over r = 1..13 of max(0, m_r - m_(r+1) - n_(r+1))  <=  e      (room)
//! ```
//!
//! (with `m_14 = n_14 = 0`: a moved king always starts a chain on a pile
//! with no prefix).
//!
//! # The relaxed game
//!
//! Its state is each pile's prefix and the runs removed, so the moved cards
//! are every card that is in no prefix and not removed. Its moves are
//!
//! - *leave*: the top card of a prefix becomes a moved card, if the new
//!   state has room;
//! - *remove*: one moved copy of each card ace to queen of a suit, with a
//!   king of that suit that moved or ends a prefix, are removed.
//!
//! Any real line from `P` is followed by the relaxed game: when a real move
//! takes `j` cards off a prefix (the run it moves starts inside it), the
//! relaxed game lets them leave one at a time from the top. Each state in
//! between has room, since the real position before the move is such a
//! state read differently: the cards that have left lie, as they are, on
//! the card under them, one rank higher (a run). When a real move removes
//! a completed run, the relaxed game lets the run's cards still in the
//! prefix leave the same way, then removes it. Every other real move
//! leaves the prefixes as they are. So when no relaxed line removes every
//! card, no real line does, and the position is lost.
//!
//! # The make-way rule
//!
//! A real move takes a card off its pile only with the cards on it that
//! continue it as a run of its suit: whatever else lay on it must have
//! made way first. So when a prefix's top card `c`, of rank `r` and suit
//! `s`, leaves, the cards then lying on it (in the arrangement read from
//! the real position, as above) are a run of `s` from rank `r - 1` down,
//! and they are moved cards: `c` is the prefix's top, and the prefix's
//! cards above it that leave in the same move have left before it in the
//! relaxed game. When no copy of the card of rank `r - 1` and suit `s` is
//! a moved card, nothing lies on `c` at that moment, so the chains hold
//! every moved card of rank `r - 1` without the place `c` gives: the room
//! condition holds with `n_r` one less. With `s_r` as below, that is one
//! place short more where `s_(r-1) <= 0`, so the leave needs a pile with
//! no prefix to spare there. (An ace has nothing on it.) The relaxed game
//! with this rule still follows every real line, so it proves every
//! position lost that it proves without the rule, and more. It is on by
//! default ([`Effort::make_way`]); docs/proofs.md has what it proves.
//!
//! # The search, and why its shortcuts lose no relaxed win
//!
//! The test searches the relaxed game depth first, every state once, within
//! a budget ([`BUDGET`]; past it the test gives up and proves nothing). It
//! also gives up once a relaxed line has emptied `EMPTIED_ENOUGH` piles
//! besides those empty at the start: giving up is always sound, and from
//! there the relaxed game nearly always wins. Three kinds of leave are
//! made at once, without branching, because the state they lead to can do
//! everything the state before can. Write `s_r = m_(r+1) + n_(r+1) - m_r`
//! for the places a card of rank `r` may take; the room condition is
//! `sum of max(0, -s_r) <= e`. Only a leave of a card of rank `r` lowers
//! `s_r` (a removal or another leave changes it by nothing or raises it).
//!
//! - A card lying on a card one rank higher: no `s` changes (`m_r` and
//!   `n_(r+1)` each grow by one, `n_r` falls by one).
//! - The last card of a prefix: `s_r` falls by one and `e` grows by one,
//!   so the room condition holds wherever it held before.
//! - A card of rank `r` when `s_r` exceeds the number of cards of rank
//!   `r` still in prefixes other than it: `s_r` falls by one, and the card
//!   under it adds a place of its own rank less one (or `e` grows). No
//!   line can then bring `s_r` below zero, so the room condition holds
//!   wherever it held before.
//!
//! In each case a line from the state before is played from the state
//! after by leaving out that card's leave: the line's other moves do not
//! touch that pile's prefix until then, every state it passes has room
//! (as argued), and a moved card only helps a removal.
//!
//! With the make-way rule, such a leave is made only when the rule allows
//! it, and the line played from the state after must meet the rule too.
//! A moved card only ever lifts the rule, and the rule's condition reads
//! the same room sum with one `s_(r-1)` lowered by one. The first two
//! kinds change that sum as they change the plain one (not at all, or by
//! one with `e` one more). The third lowers `s_r` by one until the line
//! from the state before makes that leave, which matters only to a leave
//! of a card `c` of rank `r + 1` and suit `t` with no moved copy of the
//! card of rank `r` and suit `t` (else the rule lets `c` go), asking for
//! a spare pile where `s_r <= 0`. It never asks more: from the third
//! leave on, `s_r` is at least the cards of rank `r` still in prefixes
//! (it was at least them, the leaving card among them, before; a leave of
//! a card of rank `r` lowers their count by one and `s_r` by one at most,
//! any other leave and every removal lowers neither), and one copy of
//! that card of rank `r` is in a prefix: it has not moved, and both
//! copies cannot be removed, for each run of suit `t` removed takes a
//! copy of `c`'s card and `c` is still in play. So `s_r >= 1` there, and
//! the third leave needs the same margin with the rule as without it.
//!
//! The order in which the other leaves are tried only decides how soon a
//! relaxed win is found; the states a test remembers from the ones before
//! it on the same thread (`MEMORY`), and the answers of the tests made
//! before from the same settled start (`ANSWERS`), change how fast,
//! never what it proves.

use crate::cards::{Card, KING, RANK_OF};
use crate::deal::{DECK_CARDS, PILES};

mod remember;

pub(super) use remember::mix128;
use remember::*;
pub use remember::{LEARNED_KEPT, Learned};
#[cfg(test)]
pub use remember::{answers_given, forget, forget_all};

/// The most states the search visits before it gives up, where the
/// exhaustive search tests a position ([`Effort::ENTRY`]).
pub const BUDGET: u32 = 2_000;

/// There, the test gives up (proves nothing) once a relaxed line has
/// emptied this many piles besides those empty at the start.
const EMPTIED_ENOUGH: i16 = 2;

/// How hard one test tries. Giving up, at a budget or at emptied piles,
/// only ever proves less: a test that tries harder proves every position
/// lost that one trying less proves, and perhaps more.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Effort {
    /// The most states visited.
    pub budget: u32,
    /// Give up once a relaxed line has emptied this many piles besides
    /// those empty at the start.
    pub emptied_enough: i16,
    /// Whether the test reads and adds to what its thread remembers
    /// (`MEMORY`). Only tests that give up alike may share it: the
    /// remembered "wins" include give-ups at emptied piles.
    pub remembers: bool,
    /// Whether the relaxed game follows the make-way rule (see the
    /// module's argument): a card leaves with nothing on it but a run of
    /// its suit. On by default; off only to measure it.
    pub make_way: bool,
}

impl Effort {
    /// For the many positions the exhaustive search tests: small, and
    /// sharing what the thread remembers (`MEMORY`).
    pub const ENTRY: Effort = Effort {
        budget: BUDGET,
        emptied_enough: EMPTIED_ENOUGH,
        remembers: true,
        make_way: true,
    };
    /// For the one position analyzed, before any search: every state of
    /// the relaxed game up to a million (about a second at the worst;
    /// 3-6 ms on the ladder's positions with an empty stock), never
    /// giving up on emptied piles, with a memory of its own. On the 40
    /// positions of the bench ladder and of a second one made the same way
    /// from other games (`examples/ladder.rs`, PySol 6001..6020) with the
    /// stock empty, it proves three lost at the start that the entry
    /// effort does not (docs/proofs.md).
    pub const START: Effort = Effort {
        budget: 1_000_000,
        emptied_enough: PILES as i16 + 1,
        remembers: false,
        make_way: true,
    };
}

/// What a failed search saw: the most face-down cards any relaxed line
/// turns up, and whether any empties a pile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NoRoom {
    /// Face-down cards in the position.
    pub face_down: usize,
    /// The most of them any relaxed line turns up.
    pub most_turned_up: usize,
    /// Whether some relaxed line empties a pile that is not empty already.
    pub a_pile_empties: bool,
    /// Whether the relaxed game followed the make-way rule.
    pub make_way: bool,
}

/// The piles of a position, for the test: each pile's cards as indices
/// (bottom first, face-down ones included), and how many are face down.
pub struct Piles<'a> {
    pub cards: &'a [u8],
    pub start: [usize; PILES],
    pub len: [usize; PILES],
    pub down: [usize; PILES],
}

/// `Some` when no line of the relaxed game removes every card of `piles`
/// (the stock being empty): the position is then lost. `None` when some
/// line does, or when the search ran out of budget. The cards must be
/// exactly the runs still to remove (the caller checks).
pub fn no_room(piles: &Piles) -> Option<NoRoom> {
    no_room_with(piles, Effort::ENTRY)
}

/// [`no_room`], trying as hard as `effort` says.
pub fn no_room_with(piles: &Piles, effort: Effort) -> Option<NoRoom> {
    no_room_learning(piles, effort, None)
}

/// [`no_room_with`], trusting the relaxed losses `learned` holds and adding
/// to it those this test proves (see [`Learned`]).
pub fn no_room_learning(
    piles: &Piles,
    effort: Effort,
    learned: Option<&Learned>,
) -> Option<NoRoom> {
    let (state, prefixes) = start(piles, learned.is_some());
    // A store learned under another rule is not read (see `Learned`).
    let learned = learned.filter(|learned| learned.make_way == effort.make_way);
    let known = learned.map(Learned::read);
    let known = known.as_deref();
    let decide_and_learn = |memory: &mut Memory| {
        let lost = decide(piles, state, &prefixes, memory, effort, known);
        if let (Some(learned), Some(_)) = (learned, &lost) {
            learned.add(&memory.learning);
        }
        lost
    };
    if effort.remembers {
        MEMORY.with_borrow_mut(|memory| {
            // What a thread remembers holds for one rule only.
            if memory.make_way != effort.make_way {
                *memory = Memory {
                    make_way: effort.make_way,
                    ..Memory::default()
                };
            }
            decide_and_learn(memory)
        })
    } else {
        let mut memory = Memory {
            make_way: effort.make_way,
            ..Memory::default()
        };
        decide_and_learn(&mut memory)
    }
}

/// The relaxed game's first state for `piles` (every card in its prefix),
/// and the prefixes' hashes and tops; `strong`: with the strong hashes the
/// learned keys need.
fn start(piles: &Piles, strong: bool) -> (State, Prefixes) {
    let mut state = State {
        prefix: [0; PILES],
        removed: [0; 4],
        moved: [0; 52],
        moved_hash: 0,
        places: [0; 15],
        empty: 0,
        short: 0,
        left: [0; 15],
        turned_up: 0,
        cards: 0,
    };
    let mut prefixes = Prefixes {
        hash: [0; DECK_CARDS + PILES],
        top: [0; DECK_CARDS + PILES],
        strong: [0; DECK_CARDS + PILES],
    };
    for pile in 0..PILES {
        let cards = &piles.cards[piles.start[pile]..piles.start[pile] + piles.len[pile]];
        let at = piles.start[pile] + pile;
        for (k, &card) in cards.iter().enumerate() {
            let rank = RANK_OF[card as usize];
            state.left[rank as usize] += 1;
            prefixes.hash[at + k + 1] =
                (prefixes.hash[at + k] ^ (u128::from(card) + 1)).wrapping_mul(PREFIX_PRIME);
            if strong {
                prefixes.strong[at + k + 1] =
                    mix128(prefixes.strong[at + k] ^ CARD_HASH[card as usize]);
            }
            // The last card of a prefix, or a card on a card one rank
            // higher, leaves whatever the counts (see `State::settle`).
            let free = k == 0 || RANK_OF[cards[k - 1] as usize] == rank + 1;
            prefixes.top[at + k + 1] = rank | if free { FREE } else { 0 };
        }
        state.prefix[pile] = cards.len() as u8;
        state.cards += cards.len() as i16;
        state.turned_up += piles.turned_up(pile, cards.len()) as i16;
        match piles.top(pile, cards.len()) {
            // A prefix top of rank `r` is a place for rank `r - 1`.
            Some(card) => state.places[card.rank() as usize - 1] += 1,
            None => state.empty += 1,
        }
    }
    state.short = (1..=13).map(|r| state.short_at(r)).sum();
    (state, prefixes)
}

/// [`no_room`] from the start's state, with `memory` and the relaxed
/// losses learned so far (`known`, trusted by every search). When it
/// proves the position lost, `memory.learning` holds the learned keys of
/// the states the deciding search proved lost.
fn decide(
    piles: &Piles,
    state: State,
    prefixes: &Prefixes,
    memory: &mut Memory,
    effort: Effort,
    known: Option<&FoldSet<u128>>,
) -> Option<NoRoom> {
    let empty_at_start = state.empty;
    // A test asked again gives the answer it gave (see [`ANSWERS`]),
    // but not where it reads learned losses: the store grows between the
    // exhaustive search's steps, and with it what a test can prove.
    //
    // The searches below start from the settled state, as they would
    // from `state`: settling is their first step, and `state` itself is
    // never met again (a leave only shortens a prefix).
    let mut state = state;
    state.settle(piles, prefixes, effort.make_way);
    let shares = known.is_none();
    #[cfg(test)]
    let shares = shares && !memory.alone;
    let quick_key =
        shares.then(|| quick_start_key(piles, prefixes, &state, empty_at_start, effort));
    let kept = quick_key
        .and_then(|quick| ANSWERS.get(quick))
        .filter(|&(key, _)| key == start_key(piles, &state, empty_at_start, effort))
        .map(|(_, answer)| Answer::read(answer));
    // The search that trusts no remembered loss decides (see `MEMORY`).
    let plain = |memory: &mut Memory| {
        let mut plain = Search::new(false, prefixes, memory, empty_at_start, effort, known);
        (!plain.wins(piles, state) && plain.budget > 0)
            .then_some((plain.most_turned_up, plain.a_pile_empties))
    };
    // The one that trusts them all is faster, and right when it finds a
    // relaxed win or runs out of budget; a loss it finds is confirmed by
    // the plain search, so that whether a position is called lost never
    // depends on what ran before. (When it met no remembered loss, it was
    // the plain search.)
    let quick_then_plain = |memory: &mut Memory| {
        let mut quick = Search::new(true, prefixes, memory, empty_at_start, effort, known);
        if quick.wins(piles, state) || quick.budget == 0 {
            return None;
        }
        if quick.used_lost {
            plain(memory)
        } else {
            Some((quick.most_turned_up, quick.a_pile_empties))
        }
    };
    // Which runs first changes how fast the verdict comes, never the
    // verdict. Where the position is lost, the quick search only adds a
    // confirmation's cost; where a relaxed win is found it saves. Positions
    // tested one after another are alike, so a thread starts with the
    // plain search after a loss. (On the first 3 M positions of `r1-g5004`,
    // where 95 % of the tests prove a loss: 22 % less time, the same
    // verdicts; docs/proofs.md.)
    let lost = match kept {
        Some(lost) => {
            memory.answers_given += 1;
            lost
        }
        None => {
            let states_before = memory.states;
            let lost = if memory.last_lost {
                plain(memory)
            } else {
                quick_then_plain(memory)
            };
            // Answers that took few states are found again nearly as fast
            // as they are looked up in a large map, and would crowd the
            // others out.
            let spent = memory.states.wrapping_sub(states_before);
            if let Some(quick) = quick_key
                && spent >= ANSWERS_SMALLEST
            {
                let key = start_key(piles, &state, empty_at_start, effort);
                ANSWERS.put(quick, key, Answer::write(lost));
            }
            lost
        }
    };
    memory.last_lost = lost.is_some();
    lost.map(|(most_turned_up, a_pile_empties)| NoRoom {
        face_down: piles.down.iter().sum(),
        most_turned_up,
        a_pile_empties,
        make_way: effort.make_way,
    })
}

impl Piles<'_> {
    /// The top card of `pile`'s prefix of `len` cards.
    #[inline]
    fn top(&self, pile: usize, len: usize) -> Option<Card> {
        (len > 0).then(|| Card::from_index(self.cards[self.start[pile] + len - 1]))
    }

    /// Face-down cards of `pile` turned up once its prefix is `len` cards.
    fn turned_up(&self, pile: usize, len: usize) -> usize {
        let down = self.down[pile];
        if len == 0 {
            down
        } else {
            // The prefix's top card is face up.
            (down + 1).saturating_sub(len)
        }
    }
}

/// A state of the relaxed game, with the counts its room sum needs.
#[derive(Clone, Copy)]
struct State {
    /// Cards of each pile that never moved.
    prefix: [u8; PILES],
    /// Runs removed, per suit.
    removed: [u8; 4],
    /// Moved cards not removed, per card.
    moved: [u8; 52],
    /// The sum of [`CARD_HASH`] over the moved cards not removed.
    moved_hash: u128,
    /// Places for a card of rank `r`, `s_r = m_(r+1) + n_(r+1) - m_r`,
    /// at index `r` (1 to 13; index 0 is never read): `m_r` counts the moved
    /// cards of rank `r` not removed, `n_r` the piles whose prefix ends in a
    /// card of rank `r`. Kept as the counts change ([`State::bump`]).
    places: [i16; 15],
    /// Piles with no prefix left (`e`).
    empty: i16,
    /// Places short over all ranks: the sum of [`State::short_at`], kept
    /// as the counts change.
    short: i16,
    /// Cards still in a prefix, per rank.
    left: [i16; 15],
    /// Face-down cards turned up: of every pile, [`Piles::turned_up`].
    turned_up: i16,
    /// Cards not removed, in prefixes or moved.
    cards: i16,
}

impl State {
    /// Piles with no prefix left that no chain needs: the room condition
    /// holds when this is not negative.
    #[inline]
    fn spare(&self) -> i16 {
        debug_assert_eq!(self.short, (1..=13).map(|r| self.short_at(r)).sum::<i16>());
        self.empty - self.short
    }

    /// Places short for a card of rank `r`.
    #[inline]
    fn short_at(&self, r: usize) -> i16 {
        (-self.slack(r)).max(0)
    }

    /// Adds `dm` moved cards and `dn` prefix tops of rank `rank`, keeping
    /// `short`: they change the places of ranks `rank` (by `-dm`) and
    /// `rank - 1` (by `dm + dn`).
    #[inline]
    fn bump(&mut self, rank: usize, dm: i16, dn: i16) {
        let short = |slack: i16| (-slack).max(0);
        let high = self.slack(rank);
        let mut change = short(high - dm) - short(high);
        if rank >= 2 {
            let low = self.slack(rank - 1);
            change += short(low + dm + dn) - short(low);
        }
        self.places[rank] -= dm;
        self.places[rank - 1] += dm + dn;
        self.short += change;
    }

    /// [`State::spare`] once a prefix's top card, of rank `rank` and lying
    /// on the prefix's card of rank `below`, has left: what
    /// [`State::leave`] then [`State::spare`] give, without copying the
    /// state.
    #[inline]
    fn spare_after_leave(&self, rank: usize, below: usize) -> i16 {
        // The leave adds a moved card of rank `rank` and turns a prefix top
        // of rank `rank` into one of rank `below`. A place for rank `r`,
        // `m_(r+1) + n_(r+1) - m_r`, so changes only for `r = below - 1`
        // (one more) and `r = rank` (one less); when the card lies on a
        // card one rank higher, the two cancel.
        let opened = below - 1;
        if opened == rank {
            return self.spare();
        }
        // One place less for rank `rank`: one more short where none was
        // to spare. One place more for rank `opened` (no rank below an
        // ace): one fewer short where some were short.
        let taken = i16::from(self.slack(rank) <= 0);
        let given = i16::from(opened > 0 && self.slack(opened) < 0);
        self.spare() - taken + given
    }

    /// Places for a card of rank `r` (1 to 13): moved cards and
    /// prefixes' top cards of rank `r + 1`, less the moved cards of rank
    /// `r` (negative when chains must start on piles with no prefix).
    #[inline]
    fn slack(&self, r: usize) -> i16 {
        self.places[r]
    }

    /// [`State::places`] counted afresh from the moved cards and the
    /// prefixes' tops, to check the kept counts (in debug builds).
    fn places_counted(&self, piles: &Piles) -> [i16; 15] {
        let mut m = [0i16; 15];
        let mut n = [0i16; 15];
        for (card, &copies) in self.moved.iter().enumerate() {
            m[card % 13 + 1] += i16::from(copies);
        }
        for pile in 0..PILES {
            if let Some(card) = piles.top(pile, self.prefix[pile] as usize) {
                n[card.rank() as usize] += 1;
            }
        }
        let mut places = [0; 15];
        for r in 1..=13 {
            places[r] = m[r + 1] + n[r + 1] - m[r];
        }
        places
    }

    /// The top card of `pile`'s prefix leaves it.
    #[inline]
    fn leave(&mut self, piles: &Piles, pile: usize) {
        let len = self.prefix[pile] as usize;
        let card = piles.top(pile, len).expect("a card to leave");
        self.prefix[pile] -= 1;
        self.turned_up += piles.turned_up(pile, len - 1) as i16 - piles.turned_up(pile, len) as i16;
        self.moved[card.index() as usize] += 1;
        self.moved_hash = self
            .moved_hash
            .wrapping_add(CARD_HASH[card.index() as usize]);
        self.bump(card.rank() as usize, 1, -1);
        self.left[card.rank() as usize] -= 1;
        match piles.top(pile, len - 1) {
            Some(below) => self.bump(below.rank() as usize, 0, 1),
            None => self.empty += 1,
        }
    }

    /// Makes the leaves that need no choice (see the module's argument)
    /// until there are none: a card on a card one rank higher, the last
    /// card of a prefix, and a card of a rank with places to spare.
    #[inline(always)]
    fn settle(&mut self, piles: &Piles, prefixes: &Prefixes, make_way: bool) {
        loop {
            let mut changed = false;
            for pile in 0..PILES {
                loop {
                    let top = prefixes.top[piles.start[pile] + pile + self.prefix[pile] as usize];
                    let rank = (top & !FREE) as usize;
                    // No prefix left, or a top card that must wait for room.
                    if rank == 0
                        || (top & FREE == 0 && !(rank < 13 && self.slack(rank) >= self.left[rank]))
                    {
                        break;
                    }
                    if make_way && !self.may_leave_bare(piles, pile) {
                        break;
                    }
                    self.leave(piles, pile);
                    changed = true;
                }
            }
            if !changed {
                return;
            }
        }
    }

    /// The make-way rule (see the module's argument): whether the top card
    /// of `pile`'s prefix may leave with nothing on it but a run of its
    /// suit. An ace may; so may a card one of whose suit's next lower
    /// cards has moved (it may lie on it and go with it); any other needs
    /// room for the cards one rank lower without the place it gives.
    #[inline]
    fn may_leave_bare(&self, piles: &Piles, pile: usize) -> bool {
        let card = piles
            .top(pile, self.prefix[pile] as usize)
            .expect("a card to leave");
        let rank = card.rank() as usize;
        rank == 1
            || self.moved[card.index() as usize - 1] > 0
            || self.spare() >= i16::from(self.slack(rank - 1) <= 0)
    }

    /// Whether ace to queen of `suit` all have a moved copy.
    fn ace_to_queen_moved(&self, suit: usize) -> bool {
        self.moved[suit * 13..suit * 13 + 12].iter().all(|&c| c > 0)
    }

    /// Removes ace to queen of `suit` from the moved cards, and the king:
    /// a moved one (`pile` is `None`) or the top of `pile`'s prefix.
    fn remove(&mut self, piles: &Piles, suit: usize, pile: Option<usize>) {
        let queens = if pile.is_some() { 12 } else { 13 };
        for rank in 1..=queens {
            self.moved[suit * 13 + rank - 1] -= 1;
            self.moved_hash = self
                .moved_hash
                .wrapping_sub(CARD_HASH[suit * 13 + rank - 1]);
            self.bump(rank, -1, 0);
        }
        if let Some(pile) = pile {
            // The king leaves and is removed at once.
            self.leave(piles, pile);
            self.moved[suit * 13 + 12] -= 1;
            self.moved_hash = self.moved_hash.wrapping_sub(CARD_HASH[suit * 13 + 12]);
            self.bump(KING as usize, -1, 0);
        }
        self.removed[suit] += 1;
        self.cards -= 13;
    }

    /// The state exactly: its prefixes' lengths and the runs removed, in
    /// the low 14 bytes.
    fn key(&self) -> u128 {
        let mut key = [0; 16];
        key[..PILES].copy_from_slice(&self.prefix);
        key[PILES..PILES + 4].copy_from_slice(&self.removed);
        u128::from_le_bytes(key)
    }
}

/// For each pile and prefix length `k`, at `start + pile + k`: a hash of
/// the prefix's cards, and the rank of its top card (0 for no card), with
/// [`FREE`] when that card leaves whatever the counts.
struct Prefixes {
    hash: [u128; DECK_CARDS + PILES],
    top: [u8; DECK_CARDS + PILES],
    /// A strong hash of the prefix's cards (a chain of [`mix128`]), for
    /// the keys of learned losses ([`Learned`]), which are trusted: filled
    /// only when the test learns.
    strong: [u128; DECK_CARDS + PILES],
}

/// In [`Prefixes::top`]: the card lies on a card one rank higher, or is
/// the prefix's last.
const FREE: u8 = 0x80;

/// The depth-first search of the relaxed game.
struct Search<'a> {
    /// What the thread remembers, and the states visited.
    memory: &'a mut Memory,
    /// Whether remembered losses end the search of a state.
    trust_lost: bool,
    /// The relaxed losses learned by earlier tests of the search (see
    /// [`Learned`]): trusted by every search, since each is a state from
    /// which no relaxed line removes every card.
    known: Option<&'a FoldSet<u128>>,
    /// Whether one did.
    used_lost: bool,
    prefixes: &'a Prefixes,
    budget: u32,
    most_turned_up: usize,
    a_pile_empties: bool,
    empty_at_start: i16,
    emptied_enough: i16,
    make_way: bool,
}

impl<'a> Search<'a> {
    fn new(
        trust_lost: bool,
        prefixes: &'a Prefixes,
        memory: &'a mut Memory,
        empty_at_start: i16,
        effort: Effort,
        known: Option<&'a FoldSet<u128>>,
    ) -> Self {
        memory.seen.clear();
        memory.learning.clear();
        Search {
            memory,
            trust_lost,
            known,
            used_lost: false,
            prefixes,
            budget: effort.budget,
            most_turned_up: 0,
            a_pile_empties: false,
            empty_at_start,
            emptied_enough: effort.emptied_enough,
            make_way: effort.make_way,
        }
    }

    /// Whether some relaxed line from `state` removes every card.
    fn wins(&mut self, piles: &Piles, mut state: State) -> bool {
        if self.budget == 0 {
            return false;
        }
        self.budget -= 1;
        self.memory.states = self.memory.states.wrapping_add(1);
        // A state this search has visited was searched in full without a
        // relaxed win (a win ends the search), and what it turns up was
        // counted then. The state as it came is looked up first: settling
        // it again would give the settled state that was visited (the
        // leaves made without a choice depend on the state alone).
        let unsettled = state.key();
        if self.memory.seen.contains(&unsettled) {
            return false;
        }
        state.settle(piles, self.prefixes, self.make_way);
        let key = state.key();
        if key != unsettled && self.memory.seen.contains(&key) {
            return false;
        }
        debug_assert_eq!(
            state.turned_up as usize,
            (0..PILES)
                .map(|pile| piles.turned_up(pile, state.prefix[pile] as usize))
                .sum::<usize>()
        );
        debug_assert_eq!(state.places[1..=13], state.places_counted(piles)[1..=13]);
        self.most_turned_up = self.most_turned_up.max(state.turned_up as usize);
        self.a_pile_empties |= state.empty > self.empty_at_start;
        if state.cards == 0 {
            return true;
        }
        // Giving up here is sound (it only proves less), and two piles
        // emptied leave the relaxed game so much room that it nearly
        // always wins from there: searching on would cost far more than
        // it proves on the many positions of a search (docs/proofs.md).
        if state.empty >= self.empty_at_start + self.emptied_enough {
            return true;
        }
        let hash = self.hash(piles, &state);
        let folded = (hash >> 64) as u64 ^ hash as u64;
        if self.memory.won.contains(&hash) {
            return true;
        }
        if self.trust_lost && self.memory.lost.contains(&folded) {
            self.used_lost = true;
            return false;
        }
        // A learned loss is trusted by every search (see `Learned`).
        let learned_key = self.known.map(|_| self.learned_key(piles, &state));
        if let (Some(known), Some(key)) = (self.known, learned_key)
            && known.contains(&key)
        {
            return false;
        }
        self.memory.seen.insert(key);
        if unsettled != key {
            self.memory.seen.insert(unsettled);
        }
        let budget_before = self.budget;
        let won = self.expand(piles, &state);
        // A search that ran out of budget proved nothing of this state.
        if won {
            if self.memory.won.len() >= KNOWN_KEPT {
                self.memory.won.clear();
            }
            self.memory.won.insert(hash);
        } else if self.budget > 0 {
            if self.memory.lost.len() >= KNOWN_KEPT {
                self.memory.lost.clear();
            }
            self.memory.lost.insert(folded);
            // Only a loss that took a search to prove is worth keeping:
            // the others cost a lookup in a large set for little.
            if let Some(key) = learned_key
                && budget_before - self.budget >= LEARNED_SMALLEST
            {
                self.memory.learning.push(key);
            }
        }
        won
    }

    /// The key of a relaxed state among the learned losses ([`Learned`]):
    /// as [`Search::hash`], whatever the pile order and whichever position
    /// it came from, but strong, since a learned loss is trusted: the sum
    /// of the prefixes' strong hashes and of the moved cards' hashes
    /// ([`CARD_HASH`]), each a full 128-bit mix, like the exhaustive
    /// search's own keys (a sum over the piles, docs/analyze.md). The piles
    /// empty at the start are left out: they change only when the search
    /// gives up, and a learned state is lost whatever the give-up.
    fn learned_key(&self, piles: &Piles, state: &State) -> u128 {
        let mut key = LEARNED_SALT;
        for pile in 0..PILES {
            key = key.wrapping_add(
                self.prefixes.strong[piles.start[pile] + pile + state.prefix[pile] as usize],
            );
        }
        key.wrapping_add(state.moved_hash)
    }

    /// A 128-bit hash of the relaxed state, whatever the pile order and
    /// whichever position it came from: the prefixes' cards and the moved
    /// cards (sums of strong hashes of each), and the piles empty at the
    /// start (the give-up rule counts from them).
    fn hash(&self, piles: &Piles, state: &State) -> u128 {
        // Each prefix's hash is a strong mix already (`no_room`), so a sum
        // of them is as good a hash of the piles, in any order.
        let mut hash = mix128(self.empty_at_start as u128);
        for pile in 0..PILES {
            hash = hash.wrapping_add(
                self.prefixes.hash[piles.start[pile] + pile + state.prefix[pile] as usize],
            );
        }
        hash.wrapping_add(state.moved_hash)
    }

    /// The moves from a settled state: whether one leads to a relaxed win.
    fn expand(&mut self, piles: &Piles, state: &State) -> bool {
        let state = *state;
        // Removals first: they only make room.
        for suit in 0..4 {
            if !state.ace_to_queen_moved(suit) {
                continue;
            }
            if state.moved[suit * 13 + 12] > 0 {
                let mut next = state;
                next.remove(piles, suit, None);
                if self.wins(piles, next) {
                    return true;
                }
            }
            for pile in 0..PILES {
                let top = piles.top(pile, state.prefix[pile] as usize);
                if top.is_some_and(|card| card.index() as usize == suit * 13 + 12) {
                    let mut next = state;
                    next.remove(piles, suit, Some(pile));
                    if self.wins(piles, next) {
                        return true;
                    }
                }
            }
        }
        // Then each other leave that has room. The order only decides how
        // soon a relaxed win is found: the most room left first, then a
        // leave that opens a place where one is short, then a king, then
        // one taking a place of a rank with places to spare, then the
        // shortest prefix.
        let mut options = [0u64; PILES];
        let mut count = 0;
        for pile in 0..PILES {
            // Settled, so every prefix left holds two cards or more.
            let len = state.prefix[pile] as usize;
            if len < 2 {
                continue;
            }
            let at = piles.start[pile] + pile + len;
            let (rank, below) = (
                (self.prefixes.top[at] & !FREE) as usize,
                (self.prefixes.top[at - 1] & !FREE) as usize,
            );
            let spare = state.spare_after_leave(rank, below);
            debug_assert_eq!(spare, {
                let mut next = state;
                next.leave(piles, pile);
                next.spare()
            });
            if spare < 0 || (self.make_way && !state.may_leave_bare(piles, pile)) {
                continue;
            }
            let opened = below - 1;
            let opens_short = opened > 0 && state.left[opened] > state.slack(opened);
            // A king first (it goes to a pile with no prefix, and frees
            // what lies under it), then the fewest places short.
            let short = if rank == KING as usize {
                i16::MIN
            } else {
                state.left[rank] - state.slack(rank)
            };
            // The order of (-spare, !opens_short, short, len, pile), as
            // one number: each field made unsigned in the same order.
            let signed = |value: i16| u64::from(value as u16 ^ 0x8000);
            options[count] = signed(-spare) << 48
                | u64::from(!opens_short) << 40
                | signed(short) << 24
                | (len as u64) << 8
                | pile as u64;
            count += 1;
        }
        let options = &mut options[..count];
        options.sort_unstable();
        for &option in options.iter() {
            let pile = (option & 0xff) as usize;
            let mut next = state;
            next.leave(piles, pile);
            if self.wins(piles, next) {
                return true;
            }
            if self.budget == 0 {
                return false;
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The third leave made at once (see the module's argument): a card
    /// of rank `r` with `s_r` at the cards of rank `r` in prefixes, it
    /// among them, leaves without branching, with the make-way rule as
    /// without it. Here 5 of suit 1 lies on a 2, one 6 is in view and no
    /// other 5 is in a prefix: `s_5 = 1`, one place to spare.
    #[test]
    fn a_card_with_a_place_to_spare_leaves_at_once_with_the_make_way_rule() {
        let two = 2 * 13 + 1;
        let five = 13 + 4;
        let six = 5;
        let cards = [two, five, six];
        let mut start_of = [3; PILES];
        let mut len = [0; PILES];
        (start_of[0], len[0]) = (0, 2);
        (start_of[1], len[1]) = (2, 1);
        let piles = Piles {
            cards: &cards,
            start: start_of,
            len,
            down: [0; PILES],
        };
        for make_way in [false, true] {
            let (mut state, prefixes) = start(&piles, false);
            assert_eq!(state.slack(5), 1);
            assert_eq!(state.left[5], 1);
            state.settle(&piles, &prefixes, make_way);
            assert_eq!(state.prefix[..2], [0, 0], "make_way: {make_way}");
            assert_eq!(state.moved[five as usize], 1);
        }
    }
}
