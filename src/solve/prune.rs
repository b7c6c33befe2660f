//! Sound reductions of the exhaustive search: ways to examine fewer
//! positions without ever losing a win.
//!
//! An `unwinnable` verdict is the one answer this tool must never get
//! wrong, so every reduction here carries, beside its code, the argument
//! that it keeps every win, and each can be switched off ([`Reductions`])
//! so that tests can compare its verdicts with the plain search's on
//! positions small enough for both (`tests/integration/proofs.rs`).
//!
//! - **Dead ends** ([`dead_end`]): a relaxation of the rules in which every
//!   real line can be played (and more), cheap enough to run on every
//!   position. When even the relaxed game cannot empty a single pile, some
//!   card can never leave its pile, so the position can never be won and
//!   nothing below it needs to be examined.
//! - **Symmetry**: once the stock is empty, piles without face-down cards
//!   are interchangeable ([`crate::game::Game::key`]); the search counts
//!   positions that differ only by their order once.

use crate::cards::{Card, KING, Suit};
use crate::deal::{DECK_CARDS, PILES};
use crate::game::{Game, Position};

/// Which sound reductions the exhaustive search uses. All are on by
/// default; each can be switched off to measure it or to cross-check it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reductions {
    /// Positions [`dead_end`] proves lost are not expanded.
    pub dead_ends: bool,
    /// Once the stock is empty, positions that differ only by the order of
    /// their piles without face-down cards are one position.
    pub symmetry: bool,
}

impl Default for Reductions {
    fn default() -> Reductions {
        Reductions::ALL
    }
}

impl Reductions {
    /// Every reduction on.
    pub const ALL: Reductions = Reductions {
        dead_ends: true,
        symmetry: true,
    };
    /// The plain search: deduplication only.
    pub const NONE: Reductions = Reductions {
        dead_ends: false,
        symmetry: false,
    };
}

/// Why a position can never be won: a card that no line of play can ever
/// take off its pile, so the cards under it can never be removed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeadEnd {
    /// The pile (0-based).
    pub pile: usize,
    /// The card that can never leave it.
    pub card: Card,
    /// Cards under it on that pile (face-down ones included).
    pub under: usize,
    /// Face-down cards on that pile that can therefore never turn up.
    pub face_down_never: usize,
}

impl std::fmt::Display for DeadEnd {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} can never leave pile {}",
            self.card.pretty(),
            self.pile + 1
        )?;
        if self.face_down_never > 0 {
            write!(
                f,
                ", so its {} face-down card{} can never turn up",
                self.face_down_never,
                if self.face_down_never == 1 { "" } else { "s" }
            )?;
        }
        f.write_str(" (no pile can ever be emptied, even in a game that allows far more moves)")
    }
}

/// Proves `position` lost when a relaxation of the rules cannot empty any
/// pile. Returns the card that is stuck on the pile hiding the most
/// face-down cards; `None` when the test proves nothing (including every
/// position with an unknown card, an empty pile or a win, and every
/// position whose cards are not exactly the runs still to remove).
///
/// # The relaxation
///
/// Take the cards of each pile as they lie, face-down ones included (they
/// never move before they turn up, and their faces are known). The relaxed
/// game keeps, for each pile, how many of those cards have *left* it, from
/// the top down, and which cards have ever been *exposed*: every card
/// still to come from the stock, every card that was at some time the
/// topmost one still on its pile, and every card that left. Exposed cards
/// stay exposed for good, as targets, whatever covers them later. The card
/// `c` on top of what remains of a pile may leave when
///
/// 1. some exposed card is one rank higher (it could lie on it), or
/// 2. the card under `c` on the same pile is face up, of the same suit and
///    one rank higher (`c` can leave together with it, in one run), or
/// 3. `c` is a king and every other card of its suit, ace to queen, has an
///    exposed copy (its run could be completed on it and removed), or
/// 4. some pile has had every card leave (an empty pile takes anything).
///
/// Leaving only makes more cards exposed, so applying the rules until
/// nothing changes gives one fixed point. If at that point no pile has had
/// every card leave, the position is lost.
///
/// # Why no win is lost
///
/// A win removes every card, so every card of the position leaves its pile
/// at some time, by a move or in a completed run. Take any line of real
/// play and order the cards of the position by the move at which each
/// first leaves its pile, the higher one first among cards leaving
/// together. Suppose `c` is the first in that order that the fixed point
/// does not let leave. Every card above `c` on its pile left before it, or
/// leaves with it in the same run and is then face up, of `c`'s suit and
/// one rank lower than the card under it (rule 2), so all are allowed to
/// leave and `c` is the top of what remains. Then `c` leaves:
///
/// - onto the top card `t` of another pile: `t` is a stock card, or was
///   moved before (so it left its own pile, earlier in the order), or lies
///   where it was with everything above it gone (earlier in the order);
///   either way the fixed point exposes `t`, and rule 1 lets `c` leave;
/// - onto an empty pile: every card of that pile left before `c`, so rule
///   4 applies (and the test gives up);
/// - in a run removed with `c` as its king: each of the other twelve cards
///   was moved onto `c` (exposed as above) or lay above `c` already and
///   leaves with it (allowed, see above), so rule 3 lets `c` leave;
/// - in a run removed with a card of the same pile under `c`: rule 2.
///
/// Each case contradicts the choice of `c`, so every card of every real
/// line leaves in the relaxation too; when the fixed point empties no
/// pile, no real line removes every card, and none wins. Dealing (onto
/// empty piles or not) only adds exposed cards, which the relaxation has
/// counted from the start.
pub fn dead_end(game: &Game, position: &Position) -> Option<DeadEnd> {
    if position.is_won() || position.is_reveal() {
        return None;
    }
    let mut exposed = Exposed::default();
    for row in &game.stock()[position.rows_dealt()..] {
        for slot in row {
            exposed.add(slot.known()?);
        }
    }
    // Every pile's cards, bottom first, in one array.
    let mut cards = [0u8; DECK_CARDS];
    let mut start = [0usize; PILES];
    let mut down = [0usize; PILES];
    let mut remaining = [0usize; PILES];
    let mut n = 0;
    for pile in 0..PILES {
        start[pile] = n;
        down[pile] = position.face_down_count(pile);
        let hidden = &game.face_down_cards(pile)[..down[pile]];
        for card in hidden
            .iter()
            .map(|slot| slot.known())
            .chain(position.face_up(pile))
        {
            cards[n] = card?.index();
            n += 1;
        }
        remaining[pile] = n - start[pile];
        if remaining[pile] == 0 {
            return None;
        }
    }
    // The argument needs "a win removes every card": true when the cards in
    // play are exactly the runs still to remove (a consistent deal), not
    // for a file with cards too many.
    let in_play = n + 10 * (game.stock().len() - position.rows_dealt());
    if in_play != 13 * (8 - position.runs_removed()) {
        return None;
    }
    loop {
        let mut changed = false;
        for pile in 0..PILES {
            while remaining[pile] > 0 {
                let i = start[pile] + remaining[pile] - 1;
                let card = Card::from_index(cards[i]);
                // A card newly exposed is a change too: it may be the
                // target a pile examined earlier in this round needs.
                changed |= exposed.add(card);
                let rides = remaining[pile] >= 2
                    && remaining[pile] - 2 >= down[pile]
                    && card.continues_run(Card::from_index(cards[i - 1]));
                let leaves = rides
                    || (card.rank() < KING && exposed.rank(card.rank() + 1))
                    || (card.rank() == KING && exposed.rest_of_suit(card.suit()));
                if !leaves {
                    break;
                }
                remaining[pile] -= 1;
                changed = true;
            }
            if remaining[pile] == 0 {
                return None;
            }
        }
        if !changed {
            break;
        }
    }
    (0..PILES)
        .map(|pile| {
            let under = remaining[pile] - 1;
            DeadEnd {
                pile,
                card: Card::from_index(cards[start[pile] + under]),
                under,
                face_down_never: down[pile].min(under + 1),
            }
        })
        .max_by_key(|dead| {
            (
                dead.face_down_never,
                dead.under,
                std::cmp::Reverse(dead.pile),
            )
        })
}

/// The exposed cards of the relaxation: by rank (any suit may be a target)
/// and by card (for a king's run).
struct Exposed {
    ranks: [bool; KING as usize + 2],
    cards: [bool; Card::DISTINCT],
}

impl Default for Exposed {
    fn default() -> Exposed {
        Exposed {
            ranks: [false; KING as usize + 2],
            cards: [false; Card::DISTINCT],
        }
    }
}

impl Exposed {
    /// Exposes `card`; whether it was not exposed before.
    fn add(&mut self, card: Card) -> bool {
        self.ranks[card.rank() as usize] = true;
        !std::mem::replace(&mut self.cards[card.index() as usize], true)
    }

    fn rank(&self, rank: u8) -> bool {
        self.ranks[rank as usize]
    }

    /// Whether ace to queen of `suit` all have an exposed copy.
    fn rest_of_suit(&self, suit: Suit) -> bool {
        let first = suit as usize * 13;
        self.cards[first..first + 12].iter().all(|&seen| seen)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::SuitCount;
    use crate::deal::Rules;
    use crate::game::Move;

    /// A small generator of random numbers for the tests (xorshift), so
    /// that the cases are the same in every run.
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }
    }

    /// The positions reachable from `game`'s start without reductions,
    /// breadth-first: all of them, or the first `cap` or so.
    fn reachable(game: &Game, cap: usize) -> Vec<Position> {
        let mut seen = std::collections::HashSet::new();
        let mut positions = vec![game.start().clone()];
        seen.insert(game.start().clone());
        let mut moves = Vec::new();
        let mut next = 0;
        while next < positions.len() {
            moves.clear();
            game.moves(&positions[next], &mut moves);
            for &mv in &moves {
                let child = game.apply(&positions[next], mv).position;
                if seen.insert(child.clone()) {
                    positions.push(child);
                }
            }
            if positions.len() > cap {
                break;
            }
            next += 1;
        }
        positions
    }

    /// The soundness of the dead-end test, against a plain search, where
    /// it fires: positions met on random playouts of numbered deals (one,
    /// two and four suits, both rules; a random move each time, the deal
    /// when there is none). For each position the test calls dead, the
    /// plain search from it (breadth-first, up to 20,000 positions) meets
    /// no win and never empties a pile, which is what the relaxation
    /// claims. Enough dead positions must turn up for this to mean
    /// something.
    #[test]
    fn a_dead_end_never_reaches_a_win() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let (mut dead, mut checked) = (0, 0);
        let mut moves = Vec::new();
        for number in 1..=240u64 {
            let suits = [SuitCount::One, SuitCount::Two, SuitCount::Four][number as usize % 3];
            let rules = if number % 2 == 0 {
                Rules::Standard
            } else {
                Rules::Relaxed
            };
            let deal = crate::deal::numbered::deal(number, suits, rules);
            let mut game = Game::new(&deal).unwrap();
            let mut position = game.start().clone();
            for _ in 0..400 {
                moves.clear();
                game.moves(&position, &mut moves);
                let shifts: Vec<Move> =
                    moves.iter().copied().filter(|&m| m != Move::Deal).collect();
                let mv = match (shifts.is_empty(), moves.contains(&Move::Deal)) {
                    (true, false) => break,
                    (true, true) => Move::Deal,
                    (false, deal) if deal && rng.below(20) == 0 => Move::Deal,
                    (false, _) => shifts[rng.below(shifts.len())],
                };
                position = game.apply(&position, mv).position;
                if dead_end(&game, &position).is_none() {
                    continue;
                }
                dead += 1;
                // The dead position as a deal of its own, searched plainly.
                game = Game::new(&game.deal_at(&position).unwrap()).unwrap();
                position = game.start().clone();
                let reason = dead_end(&game, &position).unwrap();
                let all = reachable(&game, 20_000);
                checked += all.len();
                for reached in &all {
                    assert!(
                        !reached.is_won(),
                        "called dead ({reason}) but winnable:\n{position}"
                    );
                    assert!(
                        (0..PILES).all(|pile| !reached.is_empty_pile(pile)),
                        "called dead ({reason}) but a pile empties:\n{position}\nreaches\n{reached}"
                    );
                }
                break;
            }
        }
        eprintln!("dead {dead}, positions checked {checked}");
        assert!(
            dead >= 40,
            "only {dead} dead positions ({checked} positions checked)"
        );
    }
}
