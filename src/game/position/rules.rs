//! The game: what never changes during play (face-down cards, stock rows,
//! rules, the start), and the rules that list and play the moves.

use super::*;

/// What never changes during play: face-down cards, stock rows, rules and
/// suit count; and the starting position.
#[derive(Clone, Debug)]
pub struct Game {
    pub(super) rules: Rules,
    pub(super) suits: SuitCount,
    /// Each pile's face-down cards as the deal gives them, bottom first.
    pub(super) face_down: Vec<Vec<CardSlot>>,
    pub(super) stock: Vec<StockRow>,
    pub(super) start: Position,
    pub(super) start_reveals: Reveals,
    /// Whether any card of the deal is `XX` (face-down or in the stock;
    /// face-up cards are known): without one, no position is a reveal, and
    /// [`Game::moves`] need not look.
    pub(super) unknown_cards: bool,
}

impl Game {
    /// The game a deal file describes. A completed K..A run lying on top of
    /// a pile in the file is removed at once, as play would have done.
    pub fn new(deal: &Deal) -> Result<Game, ShapeError> {
        deal.validate()?;
        deal.validate_size()?;
        let mut start = Position {
            dealt: 0,
            removed: deal.removed.len() as u8,
            down: [0; PILES],
            up: [0; PILES],
            cards: [0; DECK_CARDS],
        };
        for (p, pile) in deal.piles.iter().enumerate() {
            start.down[p] = pile.face_down.len() as u8;
            let faces: Vec<u8> = pile.face_up.iter().map(|c| c.index()).collect();
            start.put(p, &faces);
        }
        let mut game = Game {
            rules: deal.rules,
            suits: deal.suits,
            face_down: deal.piles.iter().map(|p| p.face_down.clone()).collect(),
            stock: deal.stock.clone(),
            start: start.clone(),
            start_reveals: Reveals::default(),
            unknown_cards: deal
                .piles
                .iter()
                .flat_map(|pile| &pile.face_down)
                .chain(deal.stock.iter().flatten())
                .any(|&slot| slot == CardSlot::Unknown),
        };
        let mut reveals = Reveals::default();
        for pile in 0..PILES {
            game.settle(&mut start, pile, &mut reveals);
        }
        game.start = start;
        game.start_reveals = reveals;
        Ok(game)
    }

    /// The starting position.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// Unknown cards turned up while setting up the start (a file whose
    /// completed run, removed at once, uncovered an `XX`).
    pub fn start_reveals(&self) -> Reveals {
        self.start_reveals
    }

    pub fn rules(&self) -> Rules {
        self.rules
    }

    pub fn suits(&self) -> SuitCount {
        self.suits
    }

    /// The face-down cards of `pile` (0-based) as the deal gives them, bottom
    /// first; a position holds the bottom [`Position::face_down_count`] of
    /// them.
    pub fn face_down_cards(&self, pile: usize) -> &[CardSlot] {
        &self.face_down[pile]
    }

    /// `position` as a deal file of its own: each pile's face-down and
    /// face-up cards, the stock rows still to come and the runs removed.
    /// The suits of the removed runs are the ones whose cards are missing
    /// (a position does not record them). `None` for a reveal, whose
    /// turned-up card is not known.
    pub fn deal_at(&self, position: &Position) -> Option<Deal> {
        let mut piles = Vec::with_capacity(PILES);
        let mut present = [0usize; 4];
        for pile in 0..PILES {
            let face_down = self.face_down[pile][..position.face_down_count(pile)].to_vec();
            let face_up: Vec<Card> = position.face_up(pile).collect::<Option<_>>()?;
            for card in face_down
                .iter()
                .filter_map(|slot| slot.known())
                .chain(face_up.iter().copied())
            {
                present[card.suit() as usize] += 1;
            }
            piles.push(crate::deal::Pile { face_down, face_up });
        }
        let stock = self.stock[position.rows_dealt()..].to_vec();
        for card in stock.iter().flatten().filter_map(|slot| slot.known()) {
            present[card.suit() as usize] += 1;
        }
        let per_suit = 13 * self.suits.copies();
        let mut removed = Vec::new();
        for &suit in self.suits.suits() {
            let missing = per_suit.saturating_sub(present[suit as usize]) / 13;
            removed.extend(std::iter::repeat_n(suit, missing));
        }
        removed.truncate(position.runs_removed());
        Some(Deal {
            suits: self.suits,
            rules: self.rules,
            piles,
            stock,
            removed,
            moves_played: 0,
        })
    }

    /// The stock rows the deal file gives, first dealt first; a position
    /// still has those from [`Position::rows_dealt`] on.
    pub fn stock(&self) -> &[StockRow] {
        &self.stock
    }

    /// Stock rows the deal file gives.
    pub fn stock_rows(&self) -> usize {
        self.stock.len()
    }

    /// The stock row the next deal puts on the piles of `position`.
    pub fn next_row(&self, position: &Position) -> Option<&StockRow> {
        self.stock.get(position.dealt as usize)
    }

    /// Stock rows still to deal in `position`.
    pub fn rows_left(&self, position: &Position) -> usize {
        self.stock.len() - position.dealt as usize
    }

    /// The key under which searches deduplicate `position`: its
    /// [`Position::fingerprint`] while stock rows remain, and once the stock
    /// is empty a fingerprint that ignores the order of the piles without
    /// face-down cards. That merges positions that are the same game: with
    /// no deal left, nothing in the rules depends on a pile's number, and a
    /// pile without face-down cards hides nothing, so any line from one
    /// position is a line from the other with the piles renamed.
    pub fn key(&self, position: &Position) -> u128 {
        if self.rows_left(position) == 0 {
            position.fingerprint_unordered()
        } else {
            position.fingerprint()
        }
    }

    /// A 64-bit key that merges the same positions as [`Game::key`]: the
    /// sum of pile hashes ([`Position::sum_key64`]). For the searches that
    /// look for a win (probes, beams, shortening), where two positions
    /// sharing a key only cost a position skipped: they prove nothing, and
    /// every line they find is replayed.
    pub fn key64(&self, position: &Position) -> u64 {
        position.sum_key64(self.rows_left(position) == 0)
    }

    /// The places of the `XX` slots a step turned up, given the position it
    /// led to.
    pub fn revealed_places(&self, step: &Step) -> Vec<Place> {
        let mut places = Vec::new();
        for pile in 0..PILES {
            if step.reveals.turned_up & (1 << pile) != 0 {
                places.push(Place::FaceDown {
                    pile: pile + 1,
                    index: step.position.down[pile] as usize + 1,
                });
            }
            if step.reveals.dealt & (1 << pile) != 0 {
                places.push(Place::Stock {
                    row: step.position.dealt as usize,
                    pile: pile + 1,
                });
            }
        }
        places
    }

    /// Appends every legal move of `position` to `out`: every run on top of a
    /// pile onto every pile whose top card is one rank higher, or onto every
    /// empty pile; and the deal, when the stock has a row and the rules allow
    /// it. A won position or a reveal has no moves. Returns the piles' run
    /// lengths ([`Position::run_lengths`]), which it needs anyway, for callers
    /// that weigh the moves.
    pub fn moves(&self, position: &Position, out: &mut Vec<Move>) -> [u8; PILES] {
        let runs = position.run_lengths();
        if position.is_won() || (self.unknown_cards && position.is_reveal()) {
            return runs;
        }
        // `takes[r]`: the piles (bit `to`) whose top card takes a card of
        // rank r (its own rank is r + 1); `empty`: the empty piles, which
        // take any card.
        // (A card's index modulo 13 is its rank less one.)
        let mut takes = [0u16; 14];
        let mut empty = 0u16;
        let mut starts = [0usize; PILES + 1];
        for pile in 0..PILES {
            let (start, end) = (starts[pile], starts[pile] + position.up[pile] as usize);
            starts[pile + 1] = end;
            if end == start {
                if position.down[pile] == 0 {
                    empty |= 1 << pile;
                }
            } else if position.cards[end - 1] != UNKNOWN_FACE {
                takes[(position.cards[end - 1] % 13) as usize] |= 1 << pile;
            }
        }
        let any_empty = empty != 0;
        for from in 0..PILES {
            let run = runs[from] as usize;
            if run == 0 {
                continue;
            }
            let cards = &position.cards[starts[from]..starts[from + 1]];
            for count in 1..=run {
                let deepest = cards[cards.len() - count];
                let mut targets = (takes[(deepest % 13 + 1) as usize] | empty) & !(1 << from);
                while targets != 0 {
                    let to = targets.trailing_zeros() as u8;
                    targets &= targets - 1;
                    out.push(Move::Shift {
                        from: from as u8,
                        to,
                        count: count as u8,
                    });
                }
            }
        }
        if self.rows_left(position) > 0 && (self.rules == Rules::Relaxed || !any_empty) {
            out.push(Move::Deal);
        }
        runs
    }

    /// Whether `mv` is legal in `position`, and if not, why.
    pub fn check(&self, position: &Position, mv: Move) -> Result<(), IllegalMove> {
        if position.is_won() {
            return Err(IllegalMove::GameOver);
        }
        if position.is_reveal() {
            return Err(IllegalMove::BeyondReveal);
        }
        match mv {
            Move::Deal => {
                if self.rows_left(position) == 0 {
                    return Err(IllegalMove::StockEmpty);
                }
                if self.rules == Rules::Standard
                    && let Some(pile) = (0..PILES).find(|&p| position.is_empty_pile(p))
                {
                    return Err(IllegalMove::DealOntoEmpty(pile + 1));
                }
                Ok(())
            }
            Move::Shift { from, to, count } => {
                let (from, to, count) = (from as usize, to as usize, count as usize);
                for pile in [from, to] {
                    if pile >= PILES {
                        return Err(IllegalMove::NoSuchPile(pile + 1));
                    }
                }
                if from == to {
                    return Err(IllegalMove::SamePile);
                }
                if count == 0 {
                    return Err(IllegalMove::NoCards);
                }
                let run = position.run_length(from);
                if run == 0 {
                    return Err(IllegalMove::EmptySource(from + 1));
                }
                if count > run {
                    return Err(IllegalMove::NotARun {
                        pile: from + 1,
                        count,
                        run,
                    });
                }
                let cards = position.face_up_raw(from);
                let deepest = Card::from_index(cards[cards.len() - count]);
                match position.top(to) {
                    None => Ok(()),
                    Some(top) if Card::from_index(top).rank() == deepest.rank() + 1 => Ok(()),
                    Some(top) => Err(IllegalMove::DoesNotFit {
                        card: deepest.pretty(),
                        target: Card::from_index(top).pretty(),
                    }),
                }
            }
        }
    }

    /// For the compact token `F-T` (no count): how many cards of `from`'s
    /// run go onto `to`'s top card.
    pub fn count_for(
        &self,
        position: &Position,
        from: usize,
        to: usize,
    ) -> Result<u8, IllegalMove> {
        for pile in [from, to] {
            if pile >= PILES {
                return Err(IllegalMove::NoSuchPile(pile + 1));
            }
        }
        let Some(top) = position.top(to) else {
            return Err(IllegalMove::DoesNotFit {
                card: "a run".into(),
                target: format!("empty pile {} without a count (write F-T/K)", to + 1),
            });
        };
        if top == UNKNOWN_FACE {
            return Err(IllegalMove::BeyondReveal);
        }
        let target = Card::from_index(top);
        let cards = position.face_up_raw(from);
        let run = position.run_length(from);
        (1..=run)
            .find(|&count| Card::from_index(cards[cards.len() - count]).rank() + 1 == target.rank())
            .map(|count| count as u8)
            .ok_or(IllegalMove::NoMatchingRun {
                pile: from + 1,
                target: target.pretty(),
            })
    }

    /// Plays `mv`, which must be legal ([`Game::moves`] or [`Game::check`]),
    /// with the automatic turn-up and removal of completed runs.
    pub fn apply(&self, position: &Position, mv: Move) -> Step {
        debug_assert_eq!(self.check(position, mv), Ok(()), "{mv} is not legal");
        let mut next = position.clone();
        let mut reveals = Reveals::default();
        match mv {
            Move::Shift { from, to, count } => {
                let (run, count) = next.take(from as usize, count as usize);
                next.put(to as usize, &run[..count]);
                self.settle(&mut next, from as usize, &mut reveals);
                self.settle(&mut next, to as usize, &mut reveals);
            }
            Move::Deal => {
                let row = self.stock[next.dealt as usize];
                next.dealt += 1;
                for (pile, &slot) in row.iter().enumerate() {
                    next.put(pile, &[slot_face(slot)]);
                    if slot == CardSlot::Unknown {
                        reveals.dealt |= 1 << pile;
                    }
                }
                for pile in 0..PILES {
                    self.settle(&mut next, pile, &mut reveals);
                }
            }
        }
        Step {
            position: next,
            reveals,
        }
    }

    /// A reveal with its unknown face-up cards filled in: `cards` in pile
    /// order, one for each unknown face-up card of `position` (pile 1's
    /// first), then settled as play would have done (a K..A run the card
    /// completes is removed, and a face-down card it uncovers turns up). The
    /// step's reveals are the `XX` slots that settling turned up, if any (a
    /// further reveal, to be filled the same way). For a player who learns
    /// the faces as they turn up: the game itself stays masked.
    pub fn fill_revealed(&self, position: &Position, cards: &[Card]) -> Result<Step, ShapeError> {
        let unknown = position.cards[..position.total_up()]
            .iter()
            .filter(|&&c| c == UNKNOWN_FACE)
            .count();
        if unknown != cards.len() {
            return Err(ShapeError(format!(
                "{} face up, {} given",
                if unknown == 1 {
                    "1 unknown card is".to_owned()
                } else {
                    format!("{unknown} unknown cards are")
                },
                crate::text::count(cards.len() as u64, "card")
            )));
        }
        let mut next = position.clone();
        let mut fill = cards.iter();
        let mut touched = [false; PILES];
        for (pile, touched) in touched.iter_mut().enumerate() {
            let start = next.start_of(pile);
            for at in start..start + next.up[pile] as usize {
                if next.cards[at] == UNKNOWN_FACE {
                    next.cards[at] = fill.next().expect("counted above").index();
                    *touched = true;
                }
            }
        }
        let mut reveals = Reveals::default();
        for pile in (0..PILES).filter(|&p| touched[p]) {
            self.settle(&mut next, pile, &mut reveals);
        }
        Ok(Step {
            position: next,
            reveals,
        })
    }

    /// Removes a completed run from the top of `pile`, and turns up the top
    /// face-down card when no face-up card is left.
    pub(super) fn settle(&self, position: &mut Position, pile: usize, reveals: &mut Reveals) {
        if position.has_complete_run(pile) {
            position.take(pile, 13);
            position.removed += 1;
        }
        if position.up[pile] == 0 && position.down[pile] > 0 {
            let (face, unknown) = self.turn_up(pile, &mut position.down[pile]);
            if unknown {
                reveals.turned_up |= 1 << pile;
            }
            position.put(pile, &[face]);
        }
    }

    /// Turns up the top face-down card of `pile`, which holds `*down > 0`
    /// of them and no face-up card: lowers `*down`, and gives the card's
    /// face byte and whether it is an `XX` (a reveal). The one place the
    /// rule is written for [`Game::apply`], the previews and the moves on
    /// packed bytes.
    #[inline]
    pub(in crate::game) fn turn_up(&self, pile: usize, down: &mut u8) -> (u8, bool) {
        *down -= 1;
        let slot = self.face_down[pile][*down as usize];
        (slot_face(slot), slot == CardSlot::Unknown)
    }

    /// The move for people: `8♥ 7♥ from pile 3 onto 9♠ on pile 5`.
    pub fn describe(&self, position: &Position, mv: Move) -> String {
        match mv {
            Move::Deal => format!(
                "deal a row ({} left after this one)",
                self.rows_left(position).saturating_sub(1)
            ),
            Move::Shift { from, to, count } => {
                let cards = position.face_up_raw(from as usize);
                let moved: Vec<String> = cards[cards.len().saturating_sub(count as usize)..]
                    .iter()
                    .map(|&c| face(c).map_or("XX".into(), Card::pretty))
                    .collect();
                let target = match position.top(to as usize) {
                    Some(top) => format!(
                        "onto {} on pile {}",
                        face(top).map_or("XX".into(), Card::pretty),
                        to + 1
                    ),
                    None => format!("to empty pile {}", to + 1),
                };
                format!("{} from pile {} {}", moved.join(" "), from + 1, target)
            }
        }
    }
}
