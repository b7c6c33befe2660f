//! The dead-end test's relaxed game: the piles' cards left, the cards
//! exposed, the forced leaves applied to a fixed point, and the search of
//! its choices within a budget.

use super::*;

/// The most states the search over empty-pile choices and deal times may
/// visit before the test gives up (and proves nothing).
pub(super) const SLOT_SEARCH_BUDGET: u32 = 200;

/// The same on the position analyzed ([`dead_end_at_start`]): it runs
/// once, so it may search far more (a state is a 144-byte key in the set
/// of states seen: 100,000 of them take about 20 MB).
pub(super) const SLOT_SEARCH_BUDGET_AT_START: u32 = 100_000;

/// The depth-first search of the relaxed game's choices: its budget, the
/// state to report, whether an emptied pile ever offered a choice, and the
/// states seen.
pub(super) struct SlotSearch {
    pub(super) budget: u32,
    /// Whether a row was dealt onto an emptied pile.
    pub(super) onto_emptied: bool,
    pub(super) report: Option<Stuck>,
    pub(super) choices: bool,
    pub(super) seen: ahash::AHashSet<StateKey>,
}

impl SlotSearch {
    /// A search of at most `budget` states.
    pub(super) fn new(budget: u32) -> SlotSearch {
        SlotSearch {
            budget,
            onto_emptied: false,
            report: None,
            choices: false,
            seen: ahash::AHashSet::new(),
        }
    }
}

/// A relaxed state written out whole ([`Table::key`]): each pile's
/// remaining cards, a separator and its face-down count; the cards on
/// emptied piles, sorted, and a separator; the rows dealt; the exposed
/// cards as 52 bits; zeros after. Card indices are below 52 and counts
/// below 105, so the separators make it one-to-one.
pub(super) type StateKey = [u8; KEY_BYTES];
/// 104 cards and 10 × 2 bytes for the piles, 10 + 1 for the emptied
/// piles, 1 for the rows, 7 for the exposed cards.
pub(super) const KEY_BYTES: usize = 144;

/// The cards lying on emptied piles (at most one a pile), as indices.
#[derive(Clone, Copy, Default)]
pub(super) struct Slots {
    pub(super) cards: [u8; PILES],
    pub(super) len: usize,
}

impl Slots {
    pub(super) fn push(&mut self, card: u8) {
        self.cards[self.len] = card;
        self.len += 1;
    }

    /// Keeps the cards for which `keep` holds, in order.
    pub(super) fn retain(&mut self, keep: impl Fn(Card) -> bool) {
        let mut kept = 0;
        for i in 0..self.len {
            if keep(Card::from_index(self.cards[i])) {
                self.cards[kept] = self.cards[i];
                kept += 1;
            }
        }
        self.len = kept;
    }
}

/// The piles of a settled state of the relaxed game, for the report.
pub(super) struct Stuck {
    pub(super) cards: [u8; DECK_CARDS],
    pub(super) start: [usize; PILES],
    pub(super) down: [usize; PILES],
    pub(super) remaining: [usize; PILES],
}

/// A state of the relaxed game: the cards of each pile (bottom first, the
/// piles one after the other in one array), how many of each pile's cards
/// have not left yet, the exposed cards, the cards lying on emptied piles
/// and the stock rows not dealt yet.
#[derive(Clone)]
pub(super) struct Table<'a> {
    pub(super) cards: [u8; DECK_CARDS],
    pub(super) start: [usize; PILES],
    pub(super) down: [usize; PILES],
    pub(super) remaining: [usize; PILES],
    pub(super) exposed: Exposed,
    /// Cards that left onto an emptied pile and lie there (each the bottom
    /// card of that pile) until they may leave it too.
    pub(super) slotted: Slots,
    /// The stock rows of the position (card indices), the next first.
    pub(super) stock: &'a [[u8; PILES]],
    /// How many of them the relaxed game has dealt.
    pub(super) dealt: usize,
    /// Whether a card dealt onto an emptied pile is that pile's card, to
    /// leave again (rule 5, [`Reductions::deals_fill`]), or gone at once.
    pub(super) deals_fill: bool,
}

impl<'a> Table<'a> {
    /// A table with no card laid out yet, nothing exposed or held, and
    /// `stock` still to deal (without the deal rule).
    pub(super) fn unlaid(stock: &'a [[u8; PILES]]) -> Table<'a> {
        Table {
            cards: [0; DECK_CARDS],
            start: [0; PILES],
            down: [0; PILES],
            remaining: [0; PILES],
            exposed: Exposed::default(),
            slotted: Slots::default(),
            stock,
            dealt: 0,
            deals_fill: false,
        }
    }

    /// Applies rules 1 to 3 until nothing changes: every card that may
    /// leave leaves (which only exposes cards and frees piles, so it never
    /// stands in the way of anything).
    pub(super) fn settle(&mut self) {
        loop {
            let mut changed = false;
            for pile in 0..PILES {
                while self.remaining[pile] > 0 {
                    let i = self.start[pile] + self.remaining[pile] - 1;
                    let card = Card::from_index(self.cards[i]);
                    // A card newly exposed is a change too: it may be the
                    // target a pile examined earlier in this round needs.
                    changed |= self.exposed.add(card);
                    let rides = self.remaining[pile] >= 2
                        && self.remaining[pile] - 2 >= self.down[pile]
                        && card.continues_run(Card::from_index(self.cards[i - 1]));
                    if !rides && !self.exposed.lets_leave(card) {
                        break;
                    }
                    self.remaining[pile] -= 1;
                    changed = true;
                }
            }
            let before = self.slotted.len;
            let exposed = &self.exposed;
            self.slotted.retain(|card| !exposed.lets_leave(card));
            changed |= self.slotted.len != before;
            if !changed {
                return;
            }
        }
    }

    /// The whole state, for the search's set of states seen: what remains
    /// of each pile and how much of it is face down, the cards lying on
    /// emptied piles, the rows dealt and the exposed cards. (With deals,
    /// the counts of cards remaining alone do not tell the state: a row
    /// dealt earlier or later lies on other cards.)
    pub(super) fn key(&self) -> StateKey {
        let mut key = [0u8; KEY_BYTES];
        let mut n = 0;
        for pile in 0..PILES {
            let from = self.start[pile];
            let count = self.remaining[pile];
            key[n..n + count].copy_from_slice(&self.cards[from..from + count]);
            n += count;
            key[n] = u8::MAX;
            key[n + 1] = self.down[pile].min(count) as u8;
            n += 2;
        }
        let mut slotted = self.slotted.cards;
        let slotted = &mut slotted[..self.slotted.len];
        slotted.sort_unstable();
        key[n..n + slotted.len()].copy_from_slice(slotted);
        n += slotted.len();
        key[n] = u8::MAX;
        key[n + 1] = self.dealt as u8;
        n += 2;
        key[n..n + 7].copy_from_slice(&self.exposed.cards.to_le_bytes()[..7]);
        key
    }

    /// Deals the next stock row in the relaxed game (rule 5): each card
    /// goes on top of what remains of its pile, or, on an emptied pile,
    /// counts as gone at once (exposed), or with the deal rule
    /// (`deals_fill`) is that pile's card and lets go the cards lying on
    /// emptied piles. The piles are laid out again. Whether some pile was
    /// emptied.
    pub(super) fn deal(&mut self) -> bool {
        let row = self.stock[self.dealt];
        let onto_emptied = self.remaining.contains(&0);
        self.dealt += 1;
        // A card lying on an emptied pile (rule 4) lies, in the real line,
        // on a pile this row fills, under its dealt card: it no longer
        // holds an emptied pile, and the relaxed game lets it go (see
        // `dead_end`, *The rows left use up the empty piles*).
        let fill = self.deals_fill;
        if fill {
            self.slotted.len = 0;
        }
        let mut cards = [0; DECK_CARDS];
        let mut n = 0;
        for (pile, &dealt) in row.iter().enumerate() {
            let (from, count) = (self.start[pile], self.remaining[pile]);
            cards[n..n + count].copy_from_slice(&self.cards[from..from + count]);
            self.start[pile] = n;
            self.down[pile] = self.down[pile].min(count);
            n += count;
            if count == 0 && !fill {
                self.exposed.add(Card::from_index(dealt));
            } else {
                cards[n] = dealt;
                n += 1;
                self.remaining[pile] = count + 1;
            }
        }
        self.cards = cards;
        onto_emptied
    }

    /// Whether some relaxed line takes every card off its pile: settle,
    /// then try dealing the next row (rule 5) and each stuck top card on a
    /// free emptied pile (rule 4), depth first, within the search's budget
    /// (it reaches 0 when the search gave up).
    pub(super) fn can_clear(&mut self, search: &mut SlotSearch) -> bool {
        if search.budget == 0 {
            return false;
        }
        search.budget -= 1;
        self.settle();
        let rows_left = self.dealt < self.stock.len();
        if search.report.is_none() && !rows_left {
            search.report = Some(Stuck {
                cards: self.cards,
                start: self.start,
                down: self.down,
                remaining: self.remaining,
            });
        }
        if self.remaining.iter().all(|&r| r == 0) {
            return true;
        }
        let emptied = self.remaining.iter().filter(|&&r| r == 0).count();
        let free = emptied > self.slotted.len;
        search.choices |= free;
        if !free && !rows_left {
            return false;
        }
        if rows_left && !free {
            // The deal is the only choice: no need to keep this state.
            search.onto_emptied |= self.deal();
            return self.can_clear(search);
        }
        if !search.seen.insert(self.key()) {
            return false;
        }
        // From here on a pile is free for rule 4.
        if rows_left {
            let mut next = self.clone();
            search.onto_emptied |= next.deal();
            if next.can_clear(search) {
                return true;
            }
        }
        for pile in 0..PILES {
            if self.remaining[pile] == 0 {
                continue;
            }
            if search.budget == 0 {
                return false;
            }
            let mut next = self.clone();
            let top = next.start[pile] + next.remaining[pile] - 1;
            next.slotted.push(next.cards[top]);
            next.remaining[pile] -= 1;
            if next.can_clear(search) {
                return true;
            }
        }
        false
    }
}

/// The exposed cards of the relaxation: by rank (any suit may be a target)
/// and by card (for a king's run), as bits.
#[derive(Clone, Copy, Default)]
pub(super) struct Exposed {
    /// Bit `r`: some card of rank `r` is exposed.
    pub(super) ranks: u16,
    /// Bit `i`: the card of index `i` is exposed.
    pub(super) cards: u64,
}

impl Exposed {
    /// Exposes `card`; whether it was not exposed before.
    #[inline]
    pub(super) fn add(&mut self, card: Card) -> bool {
        self.ranks |= 1 << card.rank();
        let bit = 1u64 << card.index();
        let new = self.cards & bit == 0;
        self.cards |= bit;
        new
    }

    /// Whether `card`, on top of what remains of its pile (or lying on an
    /// emptied pile), may leave by rules 1 and 3.
    #[inline]
    pub(super) fn lets_leave(&self, card: Card) -> bool {
        (card.rank() < KING && self.rank(card.rank() + 1))
            || (card.rank() == KING && self.rest_of_suit(card.suit()))
    }

    #[inline]
    pub(super) fn rank(&self, rank: u8) -> bool {
        self.ranks >> rank & 1 == 1
    }

    /// Whether ace to queen of `suit` all have an exposed copy.
    #[inline]
    pub(super) fn rest_of_suit(&self, suit: Suit) -> bool {
        let queens_down = 0xFFFu64 << (suit as u64 * 13);
        self.cards & queens_down == queens_down
    }
}
