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

/// A hash of each card, for the moved cards' part of a state's hash.
const CARD_HASH: [u128; 52] = {
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
const PREFIX_PRIME: u128 = 0x0000_0000_0100_0000_0000_0000_0000_013b;

/// A strong 64-bit mix (splitmix64's finalizer).
const fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// Two independent 64-bit mixes side by side.
pub(super) const fn mix128(x: u128) -> u128 {
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
fn start_key(piles: &Piles, state: &State, empty_at_start: i16, effort: Effort) -> [u64; 2] {
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
const ANSWERS_SMALLEST: u32 = 64;

/// A cheap key of the same start, to find its answer by: the prefixes'
/// hashes (one multiply a card, computed once a test), each turned by its
/// pile's place, the moved cards, the runs removed, the piles empty
/// before settling and the budget, folded to 64 bits. Two starts may
/// share it; the answer found is taken only when the strong key
/// ([`start_key`]) is the one kept with it.
fn quick_start_key(
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
const START_SALT: u128 = 0x243f_6a88_85a3_08d3_1319_8a2e_0370_7344;

/// How many answers the process keeps ([`ANSWERS`]), a shard starting
/// again when it holds its share: a test costs hundreds of relaxed
/// states, a look-up one cache miss, so many are kept (7/8 of 2^18, the
/// most that maps of 2^18 slots of 33 bytes in all hold: 8.6 MB).
/// Measured on the first 2 M positions of `r1-g5015` with one map a
/// thread, keeping the answers of 16 states or more: 16.3 s with 2^16
/// kept, 11.0 s with 2^18, 10.9 s with 2^22, 39.5 s with none.
const ANSWERS_KEPT: usize = (1 << 18) / 8 * 7;

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
static ANSWERS: std::sync::LazyLock<Answers> = std::sync::LazyLock::new(Answers::default);

/// The shards of [`ANSWERS`], each a map locked on its own (by the cheap
/// key's top bits), cleared when full.
struct Answers {
    shards: Vec<std::sync::Mutex<Shard>>,
}

/// A shard of [`Answers`]: by the cheap key, the strong key and the answer.
type Shard = FoldMap<u64, ([u64; 2], u16)>;

/// The shards of [`Answers`]: enough that two threads rarely wait.
const ANSWER_SHARDS: usize = 64;

impl Default for Answers {
    fn default() -> Answers {
        Answers {
            shards: (0..ANSWER_SHARDS).map(|_| Default::default()).collect(),
        }
    }
}

impl Answers {
    fn shard(&self, quick: u64) -> std::sync::MutexGuard<'_, Shard> {
        // A map is never left half changed (an insert or a clear), so one
        // poisoned by a panic elsewhere is still sound.
        let shard = &self.shards[(quick >> 58) as usize % ANSWER_SHARDS];
        shard
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The strong key and the answer kept under the cheap key `quick`.
    fn get(&self, quick: u64) -> Option<([u64; 2], u16)> {
        self.shard(quick).get(&quick).copied()
    }

    /// Keeps `answer` for the start of strong key `key`.
    fn put(&self, quick: u64, key: [u64; 2], answer: u16) {
        let mut shard = self.shard(quick);
        if shard.len() >= ANSWERS_KEPT / ANSWER_SHARDS {
            shard.clear();
        }
        shard.insert(quick, (key, answer));
    }

    #[cfg(test)]
    fn clear(&self) {
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
struct Answer;

impl Answer {
    fn write(lost: Option<(usize, bool)>) -> u16 {
        lost.map_or(0, |(most_turned_up, a_pile_empties)| {
            (most_turned_up as u16 + 1) << 1 | u16::from(a_pile_empties)
        })
    }

    fn read(answer: u16) -> Option<(usize, bool)> {
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
const KNOWN_KEPT: usize = 1 << 12;

/// What a thread keeps from one test to the next, and the set of states
/// one search has visited (kept only for its capacity: a test visits about
/// 150 states, and a set made afresh would grow several times in each).
#[derive(Default)]
struct Memory {
    /// Relaxed states from which the search found a relaxed line that
    /// removes every card (or empties [`EMPTIED_ENOUGH`] piles), by a
    /// 128-bit hash ([`Search::hash`]).
    won: FoldSet<u128>,
    /// Relaxed states all of whose lines the search searched without
    /// finding one, by the same hash folded to 64 bits: only the quick
    /// search reads them, and a loss it finds with one is confirmed by the
    /// plain search (see below), so a hash shared by two states costs at
    /// most a confirmation.
    lost: FoldSet<u64>,
    /// Whether this thread's last test proved its position lost: it then
    /// starts the next with the plain search (see [`no_room`]).
    last_lost: bool,
    /// The states the running search has visited.
    seen: FoldSet<u128>,
    /// The rule of the states remembered ([`Effort::make_way`]).
    make_way: bool,
    /// Whether this thread's tests leave [`ANSWERS`] alone: set by
    /// [`forget`], so that a test can check a verdict made with nothing
    /// remembered.
    #[cfg(test)]
    alone: bool,
    /// How many of this thread's tests were answered from [`ANSWERS`].
    answers_given: u64,
    /// The relaxed states this thread's searches visited, counted on (it
    /// wraps), to tell what a test cost.
    states: u32,
    /// The learned keys ([`Search::learned_key`]) of the states the
    /// running search proved lost, when it learns.
    learning: Vec<u128>,
}

/// A set of 64- or 128-bit keys, hashed by one folded multiply: the test
/// makes three set operations a state, and its keys are already strong
/// hashes or short ([`State::key`]).
type FoldSet<K> = std::collections::HashSet<K, std::hash::BuildHasherDefault<FoldHasher>>;

/// A map by such keys.
type FoldMap<K, V> = std::collections::HashMap<K, V, std::hash::BuildHasherDefault<FoldHasher>>;

#[derive(Default)]
struct FoldHasher(u64);

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
const LEARNED_SMALLEST: u32 = 16;

/// The salt of [`Search::learned_key`].
const LEARNED_SALT: u128 = 0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c834;

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
    known: std::sync::RwLock<FoldSet<u128>>,
    /// The keys learned in the running step, and whether they grew past
    /// the store's room (then the step's keys are all dropped: whether a
    /// set grows past a size does not depend on the order of its inserts).
    pending: std::sync::Mutex<(FoldSet<u128>, bool)>,
    make_way: bool,
    kept: usize,
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

    fn read(&self) -> std::sync::RwLockReadGuard<'_, FoldSet<u128>> {
        self.known
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Adds `keys` (of a test that proved its position lost) to the
    /// pending keys.
    fn add(&self, keys: &[u128]) {
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
    static MEMORY: std::cell::RefCell<Memory> = std::cell::RefCell::new(Memory::default());
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
