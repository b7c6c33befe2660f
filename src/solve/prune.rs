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
//!   position. When even the relaxed game cannot take every card off its
//!   pile, the position can never be won and nothing below it needs to be
//!   examined.
//! - **Symmetry**: once the stock is empty, piles without face-down cards
//!   are interchangeable ([`crate::game::Game::key`]); the search counts
//!   positions that differ only by their order once.

use crate::cards::{Card, KING, Suit};
use crate::deal::{DECK_CARDS, MAX_STOCK_ROWS, PILES};
use crate::game::{Game, Position};

use super::first_empty;
use super::room::{self, Effort, NoRoom};

mod relaxed;
#[cfg(test)]
mod tests;

use relaxed::*;

/// Which sound reductions the exhaustive search uses. All are on by
/// default; each can be switched off to measure it or to cross-check it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reductions {
    /// Positions [`dead_end`] proves lost are not expanded.
    pub dead_ends: bool,
    /// Run the dead-end test on every position, not only on the start and
    /// the positions reached by a move that cannot be undone (a card
    /// turned up, a run removed, a row dealt, a run taken off a card it
    /// does not follow). Off by default: on the ladder both examine the
    /// same positions, and testing everywhere takes 20-60 % more time
    /// (docs/proofs.md).
    pub dead_ends_everywhere: bool,
    /// Where the room test of the last stage ([`super::room::no_room`])
    /// runs too, with the dead-end test.
    pub room: RoomTest,
    /// Once the stock is empty, positions that differ only by the order of
    /// their piles without face-down cards are one position.
    pub symmetry: bool,
    /// The room test follows the make-way rule (a card leaves its pile with
    /// nothing on it but a run of its suit; see [`super::room`]): it then
    /// proves more positions lost.
    pub make_way: bool,
    /// The room test learns conflicts: the relaxed states it proves lost
    /// are kept by the exhaustive search and trusted by its later tests
    /// ([`super::room::Learned`], with the argument; `--learn`). Off by
    /// default: on the ladder it made one proof 3 times faster
    /// (`r1-g5015`'s first 2 M positions) and another, decided within
    /// 60 s, 1.2 to 1.6 times slower (`r1-g5004`; docs/proofs.md).
    pub learn: bool,
    /// The rows left to deal use up the empty piles: where the first
    /// relaxation ([`dead_end`]) takes every card off having dealt a row
    /// onto an emptied pile, a second one is played in which a card dealt
    /// onto an emptied pile is that pile's card, which must leave it
    /// again, not a card gone at once (see [`dead_end`], *The rows left
    /// use up the empty piles*). It only ever proves more. Off by default:
    /// on the ladder it proves nothing the test without it does not (the
    /// same positions and dead ends, 2026-11-27), and costs up to a fifth
    /// more time where rows are left (docs/proofs.md).
    pub deals_fill: bool,
    /// With stock rows left, where the first relaxation says nothing, the
    /// test of the first empty pile ([`super::first_empty`], with the
    /// argument): until a pile empties every card that moves lies on a
    /// card one rank higher, one card on each, so the room is counted with
    /// no slack; a position in which no relaxed line empties a pile or
    /// removes a run is lost. It only ever proves more (`--first-empty`).
    /// In the solver's schedule it runs only in the last exhaustive pass
    /// (and on the position analyzed), whose tests learn the relaxed
    /// states they decide ([`super::first_empty::Learned`]). Off by
    /// default: on the ladder's hard positions with rows left it proves up
    /// to 35 % of the first 2 M positions lost where the test without it
    /// proves 0.4 to 13.5 %, at 1.3 to 63 times the CPU a position, and
    /// decides the same positions within 10 s; it proves `r1-g5004` lost
    /// in 87,893 positions against 3,112,948 (docs/proofs.md, *The first
    /// empty pile*).
    pub first_empty: bool,
}

impl Default for Reductions {
    fn default() -> Reductions {
        Reductions::DEFAULT
    }
}

impl Reductions {
    /// What `analyze` uses unless told otherwise: every reduction on but
    /// the learned conflicts and the deal rule, the room test on the position analyzed,
    /// where the last row was dealt, and on every entry in the last
    /// exhaustive pass ([`RoomTest::Last`]).
    pub const DEFAULT: Reductions = Reductions {
        room: RoomTest::Last,
        learn: false,
        deals_fill: false,
        first_empty: false,
        ..Reductions::ALL
    };
    /// Every reduction on.
    pub const ALL: Reductions = Reductions {
        dead_ends: true,
        dead_ends_everywhere: false,
        room: RoomTest::Entries,
        symmetry: true,
        make_way: true,
        learn: true,
        deals_fill: true,
        first_empty: true,
    };
    /// The plain search: deduplication only.
    pub const NONE: Reductions = Reductions {
        dead_ends: false,
        dead_ends_everywhere: false,
        room: RoomTest::Never,
        symmetry: false,
        make_way: false,
        learn: false,
        deals_fill: false,
        first_empty: false,
    };
}

/// Where the room test ([`room::no_room`]) runs, with the dead-end test;
/// it only ever applies once the stock is empty. It proves more than the
/// first relaxation alone, at a cost: up to 9 times the time per position
/// examined where it runs on every entry. Where the last row is dealt it
/// pays most: `r1-g5004` of the ladder is proved lost in 12 times fewer
/// positions and a quarter of the time (docs/proofs.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RoomTest {
    /// Nowhere.
    Never,
    /// On the position analyzed, before any search.
    Start,
    /// On the start and on every position a deal leads to (then the last
    /// row): the entries of the last stage.
    Deals,
    /// Wherever the dead-end test runs.
    Entries,
    /// As [`RoomTest::Entries`] in the solver's first exhaustive pass,
    /// capped at [`SMALL_PASS`] positions, and in its last one, which runs
    /// until it decides or a limit stops it (there the guided passes are
    /// over); as [`RoomTest::Deals`] in the pass capped at 2 M positions,
    /// which comes between the guided passes and must not hold them up
    /// for long ([`RoomTest::for_pass`]).
    Last,
}

/// The largest cap of an exhaustive pass of the solver in which
/// [`RoomTest::Last`] tests every entry: the schedule's first exhaustive
/// pass. Testing every entry there costs a median of a quarter of a
/// second on the ladders and proves losses the guided passes would
/// otherwise hold up; in the pass capped at 2 M positions it could take a
/// minute (figures in docs/proofs.md, *Where the make-way rule runs*).
pub const SMALL_PASS: u64 = 150_000;

impl RoomTest {
    /// Where the room test runs in an exhaustive pass of the solver capped
    /// at `cap` positions (`None`: the last pass): a [`RoomTest::Last`]
    /// becomes [`RoomTest::Entries`] in the last pass and in one capped at
    /// [`SMALL_PASS`] or fewer, and [`RoomTest::Deals`] in a pass with a
    /// larger cap. Any other is the same in every pass.
    pub fn for_pass(self, cap: Option<u64>) -> RoomTest {
        match self {
            RoomTest::Last if cap.is_some_and(|cap| cap > SMALL_PASS) => RoomTest::Deals,
            RoomTest::Last => RoomTest::Entries,
            other => other,
        }
    }
}

impl std::str::FromStr for RoomTest {
    type Err = String;

    /// `never`, `start`, `deals`, `entries` or `last` (`--room`).
    fn from_str(text: &str) -> Result<RoomTest, String> {
        match text {
            "never" => Ok(RoomTest::Never),
            "start" => Ok(RoomTest::Start),
            "deals" => Ok(RoomTest::Deals),
            "entries" => Ok(RoomTest::Entries),
            "last" => Ok(RoomTest::Last),
            _ => Err("expected never, start, deals, entries or last".to_string()),
        }
    }
}

/// Which room test [`dead_end_with`] runs when the first relaxation says
/// nothing (it only ever applies once the stock is empty).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RoomRule {
    /// None.
    Off,
    /// The room test counting places only.
    Counts,
    /// The room test with the make-way rule too ([`Reductions::make_way`]).
    MakeWay,
}

impl RoomRule {
    /// The room test `reductions` ask for, where one runs.
    pub fn of(reductions: &Reductions) -> RoomRule {
        match (reductions.room, reductions.make_way) {
            (RoomTest::Never, _) => RoomRule::Off,
            (_, false) => RoomRule::Counts,
            (_, true) => RoomRule::MakeWay,
        }
    }
}

/// Why a position can never be won, as the dead-end tests found it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeadEnd {
    /// The first relaxation ([`dead_end`]): a card that no line of play
    /// can ever take off its pile.
    Stuck(StuckCard),
    /// The room test ([`room::no_room`]): in the last stage, the cards
    /// that must move can never all find a card to lie on.
    NoRoom(NoRoom),
}

/// A card that no line of play can ever take off its pile, so the cards
/// under it can never be removed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StuckCard {
    /// The pile (0-based).
    pub pile: usize,
    /// The card that can never leave it.
    pub card: Card,
    /// Cards under it on that pile (face-down ones included).
    pub under: usize,
    /// Face-down cards on that pile that can therefore never turn up.
    pub face_down_never: usize,
    /// Whether even the relaxed game never empties a pile (it then had no
    /// choice to make but when to deal).
    pub no_pile_empties: bool,
}

impl DeadEnd {
    /// Whether the test found that no pile can ever be emptied.
    pub fn no_pile_empties(&self) -> bool {
        match self {
            DeadEnd::Stuck(stuck) => stuck.no_pile_empties,
            DeadEnd::NoRoom(no_room) => !no_room.a_pile_empties,
        }
    }
}

impl std::fmt::Display for DeadEnd {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DeadEnd::Stuck(stuck) => stuck.fmt(f),
            DeadEnd::NoRoom(no_room) => no_room.fmt(f),
        }
    }
}

impl std::fmt::Display for NoRoom {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.a_pile_empties {
            "the cards can never all be removed"
        } else {
            "no pile can ever be emptied"
        })?;
        f.write_str(if self.make_way {
            ": a card that moves needs a card one rank higher to lie on, one card on each, \
             and moves only once the cards on it not of its suit have moved away; there is \
             too little room for that"
        } else {
            ": a card that moves needs a card one rank higher to lie on, one card on each, \
             and there are too few of them"
        })?;
        if self.face_down > 0 {
            write!(
                f,
                " (at most {} of the {} face-down cards can ever turn up)",
                self.most_turned_up, self.face_down
            )?;
        }
        Ok(())
    }
}

impl std::fmt::Display for StuckCard {
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
        f.write_str(if self.no_pile_empties {
            " (no pile can ever be emptied, even in a game that allows far more moves)"
        } else {
            " (whatever is played, even in a game that allows far more moves)"
        })
    }
}

/// Proves `position` lost when, even in a relaxation of the rules, some
/// card can never leave its pile. Returns the stuck card of the pile hiding
/// the most face-down cards; `None` when the test proves nothing (including
/// every position with an unknown card or a win, and every position whose
/// cards are not exactly the runs still to remove).
///
/// # The relaxation
///
/// Take the cards of each pile as they lie, face-down ones included (they
/// never move before they turn up, and their faces are known). The relaxed
/// game keeps, for each pile, which of its cards have not *left* it yet
/// (they leave from the top down); which cards have ever been *exposed*:
/// every card that was at some time the topmost one still on its pile, and
/// every card that left; which cards *lie on an emptied pile* (a pile all
/// of whose own cards left); and how many stock rows it has dealt. Exposed
/// cards stay exposed for good, as targets, whatever covers them later.
/// The card `c` on top of what remains of a pile may leave when
///
/// 1. some exposed card is one rank higher (it could lie on it), or
/// 2. the card under `c` on the same pile is face up, of the same suit and
///    one rank higher (`c` can leave together with it, in one run), or
/// 3. `c` is a king and every other card of its suit, ace to queen, has an
///    exposed copy (its run could be completed on it and removed), or
/// 4. an emptied pile has no card lying on it: `c` then lies on it, and
///    leaves it again (freeing it) once rule 1 or 3 allows.
///
/// 5. And the next stock row may be dealt at any time (whatever the rules
///    say of empty piles): each of its cards becomes the top card of its
///    pile, one of the pile's own cards from then on; on an emptied pile
///    it counts as gone at once (and exposed). (With
///    [`Reductions::deals_fill`], where this relaxed game takes every card
///    off having dealt onto an emptied pile, a second one, in which such
///    a card is the pile's only card, is played too; see below.)
///
/// Leaving by rules 1 to 3 only exposes cards and empties piles, so it
/// never stands in the way of anything: the test applies them until
/// nothing changes, then tries each choice the relaxed game has, depth
/// first: the deal (rule 5) and every card for rule 4 (at most
/// `SLOT_SEARCH_BUDGET` states; past that it gives up). If no line of
/// choices ever takes every card off its pile, the position is lost.
///
/// # Why no win is lost
///
/// A win removes every card, so every card of the position, on the piles
/// or in the stock, leaves its pile at some time, by a move or in a
/// completed run (a stock card's pile is the one it is dealt onto). Take
/// any line of real play; the relaxed game follows it, making the same
/// choices: it deals where the line deals, and gives an empty pile the
/// card the line moves onto it. Order the cards by the move at which each
/// first leaves its pile, the higher one first among cards leaving
/// together. Suppose `c` is the first card in that order that the relaxed
/// game cannot let leave. Every card above `c` on its pile in the relaxed
/// game (its own cards, and the stock cards dealt onto it later) left
/// before it in the line, or leaves with it in the same run and is then
/// face up, of `c`'s suit and one rank lower than the card under it (rule
/// 2), so `c` is the top of what remains. Then `c` leaves:
///
/// - onto the top card `t` of another pile: `t` was moved before (so it
///   left its own pile, earlier in the order), or lies where it was, or
///   was dealt there, with everything above it gone (earlier in the
///   order): either way `t` was the topmost card left on its pile in the
///   relaxed game too, and is exposed; rule 1 lets `c` leave;
/// - onto an empty pile: every card of that pile left before, so it is an
///   emptied pile; the card that last lay at its bottom in the real line
///   has left it, by a move onto an exposed card or in a completed run, so
///   rule 1 or 3 freed it in the relaxed game too; rule 4 lets `c` leave
///   (the depth-first search tries this choice);
/// - in a run removed with `c` as its king: each of the other twelve cards
///   was moved onto `c` (exposed as above) or lay above `c` already and
///   leaves with it (allowed, see above), so rule 3 lets `c` leave;
/// - in a run with the card under `c` in the real line: if that card is
///   the one under `c` in the relaxed game, rule 2 (or rule 1, since the
///   card is exposed once `c` is dealt onto it); if not, it left its pile
///   earlier in the order or was moved there, and is exposed: rule 1.
///
/// Each case contradicts the choice of `c`. Applying rules 1 to 3 early
/// never hurts the relaxed game: it then has at least the exposed cards,
/// the cards gone and the free emptied piles of the line it follows; a
/// stock card dealt onto a pile of which more has gone lies on a card
/// that is gone or exposed, which only helps it leave (rule 1); and one
/// dealt onto an emptied pile counts as gone, or lies alone, which helps
/// it as much (see below). So when no relaxed line takes every card off
/// its pile, no real line removes every card, and none wins.
///
/// # The rows left use up the empty piles
///
/// Issue 49 asked for a depletable-resource bound: the rows left to deal
/// and the empty piles a position can still make. Here the two meet. A
/// row dealt puts a card on every pile, and in the real game that card
/// must leave its pile again before the pile is empty; so every row left
/// takes back, for a while, every empty pile the relaxed game has made.
/// The relaxed game lets a card dealt onto an emptied pile count as gone
/// at once: an emptied pile stays one through every deal, for free. With
/// [`Reductions::deals_fill`], wherever that game takes every card off its
/// pile and some line of it dealt onto an emptied pile, the test plays a
/// second relaxed game, with the *deal rule*, and the position is lost
/// when either game cannot take every card off (each is a relaxation that
/// every real line can be played in, so either proves the loss). In the
/// second game a card `d` dealt onto an emptied pile is the pile's only
/// card, and leaves by rule 1, 3 or 4 as any top card does; the pile is
/// emptied again only once it has left; and the deal lets go the cards
/// lying on emptied piles (rule 4). Where no line deals onto an emptied
/// pile, the two games are played alike, so the second is not played.
/// Why the deal rule loses no win: `d` is a card of that pile, dealt onto it, and
/// in the order above it is treated as every card is. It has no card of
/// its own pile above it but those dealt onto it later, so it is the top
/// of what remains when its turn comes, and its leaving move is one of
/// the four cases: onto a top card (rule 1, as argued), onto an empty
/// pile (rule 4, see below), in its own completed run as a king (rule 3),
/// or in a run with the card `m` under it in the real line. That `m` is
/// not its card below in the relaxed game (there is none), and it is
/// exposed there: it left its own pile before `d` left (earlier in the
/// order), or it is one of this pile's own cards still lying there in the
/// real line, all of which have left in the relaxed game (the pile is
/// emptied there). So rule 1 lets `d` leave. (When the rules deal onto a
/// pile that is empty in the real game too, `d` lies on nothing and the
/// last case does not arise.)
///
/// Rule 4 counts: a top card may leave onto an emptied pile when there are
/// more emptied piles than cards lying on them. That count must stay at
/// least the number of empty piles of the real line. Without deals it
/// does: each card lying on an emptied pile in the relaxed game still
/// lies, in the real line, at the bottom of a pile that was empty when it
/// came (the relaxed game frees it no later than the line moves it), one
/// card a pile, and such a pile is emptied in the relaxed game (its own
/// cards all left before the card came) and not empty in the real line.
/// A row that fills the emptied piles would break this if the cards lying
/// on them stayed counted: their piles are no longer emptied. So at the
/// deal the relaxed game lets every card lying on an emptied pile go: it
/// then lies under a dealt card in the real line, and is counted against
/// no pile (letting a card go only ever helps the relaxed game: such a
/// card has left its own pile, and is in view, already). Right after the
/// deal no pile is empty in the real line (standard rules deal only then;
/// relaxed ones fill the empty piles too), and every pile of the relaxed
/// game holds at least its dealt card. From then on, every card that comes to lie on an emptied
/// pile comes to a pile emptied in the relaxed game, as before, and a pile
/// emptied in the relaxed game that holds, in the real line, a card let
/// go at the deal only counts one free pile more than the real line has.
///
/// And an emptied pile at the deal is still never worse than the same pile
/// with a card `x` left on it: `d` then lies alone and needs rule 1, 3 or
/// 4, where on `x` it would need one of those or rule
/// 2, and rule 2 needs `x` one rank higher and in view (it was the top
/// before the deal), so rule 1 holds too; and once `d` has left, the pile
/// is emptied, where `x` would still be on it. Freeing a card that lies on
/// an emptied pile as early as rule 1 or 3 allows only helps too (one more
/// free pile until the deal, which lets it go anyway). So the test may
/// still apply rules 1 to 3 as early as it can. (The second game is not
/// always held back more than the first: a card let go at a deal frees an
/// emptied pile once its dealt card has left, where in the first game it
/// would hold one until it could leave. Hence both are played, and the
/// test proves every position lost that it proves without the rule.)
pub fn dead_end(game: &Game, position: &Position) -> Option<DeadEnd> {
    dead_end_with(game, position, RoomRule::MakeWay)
}

/// [`dead_end`], with the room test ([`room::no_room`]) that `room` names.
pub fn dead_end_with(game: &Game, position: &Position, room: RoomRule) -> Option<DeadEnd> {
    dead_end_filling(game, position, room, Reductions::DEFAULT.deals_fill)
}

/// [`dead_end_with`], a stock card dealt onto an emptied pile counting as
/// that pile's card when `deals_fill` ([`Reductions::deals_fill`]), as gone
/// at once when not.
pub fn dead_end_filling(
    game: &Game,
    position: &Position,
    room: RoomRule,
    deals_fill: bool,
) -> Option<DeadEnd> {
    dead_end_learning(
        game,
        position,
        room,
        deals_fill,
        Reductions::DEFAULT.first_empty,
        None,
        None,
    )
}

/// The dead-end test in full: [`dead_end_filling`], with rows left also
/// the test of the first empty pile ([`first_empty::no_pile_empties`],
/// [`Reductions::first_empty`]) when `first_empty`; the room test trusting
/// the relaxed losses `learned` holds and adding those it proves
/// ([`room::Learned`], with its argument), and the test of the first empty
/// pile likewise with the relaxed states `first_empty_learned` holds
/// ([`first_empty::Learned`], with its argument).
pub fn dead_end_learning(
    game: &Game,
    position: &Position,
    room: RoomRule,
    deals_fill: bool,
    first_empty: bool,
    learned: Option<&room::Learned>,
    first_empty_learned: Option<&first_empty::Learned>,
) -> Option<DeadEnd> {
    dead_end_trying(
        game,
        position,
        room,
        Rows {
            deals_fill,
            first_empty: first_empty.then_some(first_empty::BUDGET),
            learned: first_empty_learned,
        },
        SLOT_SEARCH_BUDGET,
        Effort::ENTRY,
        learned,
    )
}

/// What the dead-end tests do where rows are left: the first relaxation's
/// deal rule ([`Reductions::deals_fill`]), and the test of the first empty
/// pile with its budget of relaxed states ([`Reductions::first_empty`]) and
/// the states it has learned ([`first_empty::Learned`]).
#[derive(Clone, Copy)]
struct Rows<'a> {
    deals_fill: bool,
    first_empty: Option<u32>,
    learned: Option<&'a first_empty::Learned>,
}

/// [`dead_end_with`] for the one position analyzed, before any search:
/// both relaxed games are searched much further ([`Effort::START`]), since
/// the test runs once. Trying harder only ever proves more.
pub fn dead_end_at_start(game: &Game, position: &Position, room: RoomRule) -> Option<DeadEnd> {
    dead_end_at_start_filling(
        game,
        position,
        room,
        Reductions::DEFAULT.deals_fill,
        Reductions::DEFAULT.first_empty,
    )
}

/// [`dead_end_at_start`], with the deal rule `deals_fill` (see
/// [`dead_end_filling`]).
pub fn dead_end_at_start_filling(
    game: &Game,
    position: &Position,
    room: RoomRule,
    deals_fill: bool,
    first_empty: bool,
) -> Option<DeadEnd> {
    dead_end_trying(
        game,
        position,
        room,
        Rows {
            deals_fill,
            first_empty: first_empty.then_some(first_empty::BUDGET_AT_START),
            learned: None,
        },
        SLOT_SEARCH_BUDGET_AT_START,
        Effort::START,
        None,
    )
}

/// The dead-end test inside a search ([`dead_end_with`], the make-way rule
/// on, the deal rule and the test of the first empty pile off), the room
/// test trying as hard as `effort`: a way to measure what trying harder
/// proves (`lab/studies/dealt_effort.rs`). Trying harder only ever proves
/// more, and every answer is one the arguments above cover.
pub fn dead_end_as_hard_as(game: &Game, position: &Position, effort: Effort) -> Option<DeadEnd> {
    let rows = Rows {
        deals_fill: false,
        first_empty: None,
        learned: None,
    };
    dead_end_trying(
        game,
        position,
        RoomRule::MakeWay,
        rows,
        SLOT_SEARCH_BUDGET,
        effort,
        None,
    )
}

/// Both tests, the first relaxation's search visiting at most
/// `slot_budget` states and the room test trying as hard as `effort`.
fn dead_end_trying(
    game: &Game,
    position: &Position,
    room: RoomRule,
    rows_rules: Rows<'_>,
    slot_budget: u32,
    effort: Effort,
    learned: Option<&room::Learned>,
) -> Option<DeadEnd> {
    let Rows {
        deals_fill,
        first_empty,
        learned: first_empty_learned,
    } = rows_rules;
    let effort = Effort {
        make_way: room == RoomRule::MakeWay,
        ..effort
    };
    let room = room != RoomRule::Off;
    if position.is_won() || position.is_reveal() {
        return None;
    }
    let rows = &game.stock()[position.rows_dealt()..];
    let mut stock = [[0; PILES]; MAX_STOCK_ROWS];
    let stock = stock.get_mut(..rows.len())?;
    for (row, cards) in rows.iter().zip(stock.iter_mut()) {
        for (pile, slot) in row.iter().enumerate() {
            cards[pile] = slot.known()?.index();
        }
    }
    let mut table = Table::unlaid(stock);
    let mut n = 0;
    for pile in 0..PILES {
        table.start[pile] = n;
        table.down[pile] = position.face_down_count(pile);
        let hidden = &game.face_down_cards(pile)[..table.down[pile]];
        for card in hidden
            .iter()
            .map(|slot| slot.known())
            .chain(position.face_up(pile))
        {
            table.cards[n] = card?.index();
            n += 1;
        }
        table.remaining[pile] = n - table.start[pile];
    }
    // The argument needs "a win removes every card": true when the cards in
    // play are exactly the runs still to remove (a consistent deal), not
    // for a file with cards too many.
    let in_play = n + PILES * stock.len();
    if in_play != 13 * (8 - position.runs_removed()) {
        return None;
    }
    // The room test's view of the piles, taken before the first
    // relaxation plays on them, where the room test may run.
    let before = ((room && rows.is_empty()) || (first_empty.is_some() && !rows.is_empty()))
        .then_some((table.cards, table.start, table.remaining, table.down));
    // The relaxed game with the deal rule (see `dead_end`, *The rows left
    // use up the empty piles*), played only where the one without it
    // clears every card having dealt onto an emptied pile: elsewhere both
    // play alike.
    let filling = (deals_fill && !stock.is_empty()).then(|| Table {
        deals_fill: true,
        ..table.clone()
    });
    let mut search = SlotSearch::new(slot_budget);
    let mut clears = table.can_clear(&mut search);
    if clears
        && search.budget > 0
        && search.onto_emptied
        && let Some(mut filling) = filling
    {
        let mut again = SlotSearch::new(slot_budget);
        if !filling.can_clear(&mut again) && again.budget > 0 {
            (search, clears) = (again, false);
        }
    }
    if clears || search.budget == 0 {
        let (cards, start, len, down) = before?;
        let piles = room::Piles {
            cards: &cards,
            start,
            len,
            down,
        };
        if !stock.is_empty() {
            // With rows left: the test of the first empty pile (see
            // `first_empty`, with the argument that it keeps every win).
            let budget = first_empty?;
            return first_empty::no_pile_empties_learning(
                &piles,
                stock,
                budget,
                first_empty_learned,
            )
            .map(DeadEnd::NoRoom);
        }
        return room::no_room_learning(&piles, effort, learned).map(DeadEnd::NoRoom);
    }
    // Report the pile hiding the most face-down cards that the first
    // settled state with every row dealt left stuck.
    let stuck = search
        .report
        .expect("the search records a state with every row dealt");
    (0..PILES)
        .filter(|&pile| stuck.remaining[pile] > 0)
        .map(|pile| {
            let under = stuck.remaining[pile] - 1;
            StuckCard {
                pile,
                card: Card::from_index(stuck.cards[stuck.start[pile] + under]),
                under,
                face_down_never: stuck.down[pile].min(under + 1),
                no_pile_empties: !search.choices,
            }
        })
        .max_by_key(|dead| {
            (
                dead.face_down_never,
                dead.under,
                std::cmp::Reverse(dead.pile),
            )
        })
        .map(DeadEnd::Stuck)
}
