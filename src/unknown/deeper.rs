//! A look past the card a line turns up: of the lookahead's best lines to
//! a card ([`super::lookahead::lines`]), the one whose card leaves the best
//! next line on average over the cards it may be.
//!
//! The lookahead values the card a line turns up by a rule of thumb
//! ([`super::lookahead::reveal_bonus`]: the chance it can move at once).
//! This looks instead: for each of the best `lines` lines it draws
//! `samples` cards for what the line turns up, uniformly from the cards not
//! seen (the same draws for every line, so that the lines differ by where
//! they lead, not by luck), plays the line with each, and values what the
//! player could do next by the lookahead again: the best line from there
//! (to the next card or to a better position that turns up nothing). The
//! line with the best mean is played. A player could do the same at the
//! table: imagine each card the move may turn up and what it would then
//! play. A drawn card is never read as the real one: the draws come from
//! the cards not seen, and the real card is learnt only when the line is
//! played (sparse sampling, Kearns, Mansour and Ng 2002; the per-reveal
//! sampling of Bjarnason, Fern and Tadepalli 2009).
//!
//! **The look past the deal** ([`Deeper::deal_draws`]). When the
//! lookahead's best line deals, the piles can often be left in many ways
//! before the deal, and the lookahead ranks them by the position after it,
//! where the ten cards dealt are unknown (ten breaks). A player can
//! imagine the row instead: of the best [`DEAL_LINES`] arrangements (the
//! lookahead's lines to a deal, each from another position), it draws rows
//! from the cards not seen, the same rows for every arrangement, deals
//! each onto each, and keeps the arrangement whose rows leave the best
//! next line on average. Every candidate deals, so they all spend the
//! same row (unlike a deal weighed against a card, below). The real row is
//! learnt only when dealt.

use std::collections::HashSet;

use crate::cards::Card;
use crate::deal::ShapeError;
use crate::deal::numbered::SplitMix64;
use crate::game::Move;

use super::lookahead::{Line, lines, lines_and_deals, value};
use super::sample::draw;
use super::view::{View, ViewError};

/// How far past the card [`best_line`] looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deeper {
    /// The best lines to a card weighed.
    pub lines: usize,
    /// Cards drawn for what each line turns up.
    pub samples: usize,
    /// Positions of the lookahead from each drawn card.
    pub positions: usize,
    /// Rows drawn past a deal when the lookahead's best line deals, to
    /// choose among its best arrangements of the piles before it
    /// ([`DEAL_LINES`]; 0: the lookahead's arrangement).
    pub deal_draws: usize,
}

impl Deeper {
    /// The look of `--hidden-deeper 4`: the best 3 lines, 4 cards drawn
    /// for each, 10,000 positions from each card (docs/unknown-cards.md).
    pub const DEFAULT: Deeper = Deeper {
        lines: 3,
        samples: 4,
        positions: 10_000,
        deal_draws: 0,
    };

    /// The look of `--hidden-deeper samples` (0: none, the lookahead's
    /// line as it is).
    pub fn drawing(samples: usize) -> Deeper {
        Deeper {
            samples,
            ..Deeper::DEFAULT
        }
    }

    /// This look, and `draws` rows drawn past a deal ([`Deeper::deal_draws`]).
    pub fn past_deals(self, draws: usize) -> Deeper {
        Deeper {
            deal_draws: draws,
            ..self
        }
    }
}

/// The line to play from `view`: the lookahead's best line within
/// `max_positions` ([`super::lookahead::best_line`], which it is when no
/// card is drawn), or, when it ends by turning up a card and another line
/// to a card is among the best [`Deeper::lines`], the one whose drawn
/// cards leave the best next line on average (see the module docs).
/// `None` when no line leads anywhere better.
pub fn best_line(
    view: &View,
    max_positions: usize,
    avoid: &HashSet<u128>,
    deeper: Deeper,
    rng: &mut SplitMix64,
) -> Result<Option<Line>, ShapeError> {
    let keep = if deeper.deal_draws > 0 { DEAL_LINES } else { 0 };
    let found = lines_and_deals(&view.deal(), max_positions, avoid, keep)?;
    if found
        .leaves
        .first()
        .is_some_and(|l| l.moves.last() == Some(&Move::Deal))
        && found.deals.len() > 1
    {
        return past_the_deal(view, found.deals, avoid, deeper.deal_draws, rng).map(Some);
    }
    let mut candidates: Vec<Line> = found.leaves.into_iter().take(deeper.lines).collect();
    // A deal is the lookahead's call alone: the value has no term for the
    // stock rows left, so a look past a deal sees ten more cards face up
    // and cannot weigh the row it spent (measured: lines to a deal weighed
    // with the others left 6.3 ± 2.2 more cards face down at 4 suits).
    if candidates
        .first()
        .is_some_and(|l| l.moves.last() == Some(&Move::Deal))
    {
        candidates.truncate(1);
    } else {
        candidates.retain(|l| l.moves.last() != Some(&Move::Deal));
    }
    if candidates.len() < 2 || deeper.samples == 0 || candidates[0].value >= WON {
        return Ok(candidates.into_iter().next().or(found.inner));
    }
    let index = best_on_average(
        view,
        &candidates,
        deeper.samples,
        deeper.positions,
        avoid,
        rng,
    )?;
    Ok(candidates.into_iter().nth(index))
}

/// The index of the line of `candidates` whose drawn cards leave the best
/// next line on average: `draws` completions of the cards not seen, drawn
/// once for all the lines (so that they differ by where they lead, not by
/// luck), each line played with each and valued by [`next_value`] within
/// `positions`. Ties go to the first line.
fn best_on_average(
    view: &View,
    candidates: &[Line],
    draws: usize,
    positions: usize,
    avoid: &HashSet<u128>,
    rng: &mut SplitMix64,
) -> Result<usize, ShapeError> {
    let unseen = view.unseen();
    let drawn: Vec<Vec<Card>> = (0..draws).map(|_| draw(&unseen, rng)).collect();
    let mut best: Option<(i64, usize)> = None;
    for (index, line) in candidates.iter().enumerate() {
        let mut total = 0i64;
        for cards in &drawn {
            total += next_value(view, &line.moves, cards, positions, avoid)? as i64;
        }
        if best.is_none_or(|(b, _)| total > b) {
            best = Some((total, index));
        }
    }
    Ok(best.map_or(0, |(_, index)| index))
}

/// The arrangements of the piles weighed before a deal
/// ([`Deeper::deal_draws`]): the lookahead's best lines to a deal, each
/// from another position.
pub const DEAL_LINES: usize = 5;
/// Positions of the lookahead from each row drawn past a deal.
pub const DEAL_POSITIONS: usize = 5_000;

/// Of `deals` (lines that end by dealing, each from another arrangement
/// of the piles, the lookahead's best first), the one whose drawn rows
/// leave the best next line on average: `draws` rows drawn from the cards
/// not seen, the same rows for every line, each line played with each and
/// valued by the lookahead's best line from there within
/// [`DEAL_POSITIONS`] positions ([`next_value`]). Ties go to the line
/// found first. Every line deals, so all of them spend the same row: the
/// objection to weighing a deal against a card (the value has no term for
/// the rows left) does not arise.
fn past_the_deal(
    view: &View,
    deals: Vec<Line>,
    avoid: &HashSet<u128>,
    draws: usize,
    rng: &mut SplitMix64,
) -> Result<Line, ShapeError> {
    let index = best_on_average(view, &deals, draws, DEAL_POSITIONS, avoid, rng)?;
    Ok(deals.into_iter().nth(index).expect("a line"))
}

/// A value no position reaches but a win: every run removed.
const WON: i32 = 8 * 400;

/// What the player could reach after playing `line` from `view` with
/// `cards` turning up (its first cards, as many as the line turns up): the
/// value of the lookahead's best line from there, or of the position
/// itself when no line leads anywhere better.
fn next_value(
    view: &View,
    line: &[Move],
    cards: &[Card],
    positions: usize,
    avoid: &HashSet<u128>,
) -> Result<i32, ShapeError> {
    let shape = |e: ViewError| ShapeError(e.to_string());
    let (last, prefix) = line.split_last().expect("a line to a card has a move");
    let mut at = view.clone();
    for &mv in prefix {
        at = at.after(mv, &[]).map_err(shape)?;
    }
    let mut needed = at.turns_up(*last).map_err(|e| shape(e.into()))?;
    let next = loop {
        match at.after(*last, &cards[..needed.min(cards.len())]) {
            Ok(next) => break next,
            Err(ViewError::NotEnough { needed: more, .. }) if more > needed => needed = more,
            Err(e) => return Err(shape(e)),
        }
    };
    if next.is_won() {
        return Ok(WON);
    }
    let found = lines(&next.deal(), positions, avoid)?;
    let here = value(next.position(), next.suits());
    Ok(found
        .leaves
        .first()
        .or(found.inner.as_ref())
        .map_or(here, |l| l.value.max(here)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::SuitCount;
    use crate::deal::{Rules, numbered};

    /// Own deals 1 to `deals` of `suits` suits, each played by the
    /// lookahead's lines (2,000 positions, the positions played through
    /// avoided) with its real cards: `keep` is given the number of lines
    /// played before in that game, the view and the line found from it,
    /// and says whether to play it and go on.
    fn walk(suits: SuitCount, deals: u64, mut keep: impl FnMut(usize, &View, &Line) -> bool) {
        for number in 1..=deals {
            let deal = numbered::deal(number, suits, Rules::Standard);
            let mut referee = crate::unknown::referee::Referee::new(&deal).unwrap();
            let mut seen = HashSet::new();
            for step in 0.. {
                seen.insert(referee.view().key());
                let view = referee.view().clone();
                let found = crate::unknown::lookahead::best_line(&view.deal(), 2_000, &seen);
                let Some(line) = found.unwrap() else { break };
                if !keep(step, &view, &line) {
                    break;
                }
                for mv in line.moves {
                    referee.play(mv).unwrap();
                }
            }
        }
    }

    /// Views of own deals at the start and after a few of the lookahead's
    /// lines played with the real cards turning up.
    fn views(suits: SuitCount) -> Vec<View> {
        let mut out = Vec::new();
        walk(suits, 6, |step, view, _| {
            out.push(view.clone());
            step + 1 < 4
        });
        out
    }

    /// With no card drawn, or one line to weigh, it is the lookahead's
    /// line; with draws, it is one of the lookahead's best lines, and a
    /// deal only when the lookahead puts the deal first.
    #[test]
    fn it_plays_one_of_the_lookaheads_best_lines_and_deals_only_when_the_lookahead_would() {
        let avoid = HashSet::new();
        let mut differed = 0;
        for suits in [SuitCount::Two, SuitCount::Four] {
            for view in views(suits) {
                let plain = lines(&view.deal(), 2_000, &avoid).unwrap();
                let mut rng = SplitMix64::new(7);
                let none = Deeper::drawing(0);
                let first = plain.leaves.first().or(plain.inner.as_ref()).cloned();
                assert_eq!(
                    best_line(&view, 2_000, &avoid, none, &mut rng).unwrap(),
                    first
                );
                let deeper = Deeper {
                    samples: 3,
                    positions: 1_000,
                    ..Deeper::DEFAULT
                };
                let chosen = best_line(&view, 2_000, &avoid, deeper, &mut rng).unwrap();
                let Some(chosen) = chosen else {
                    assert!(first.is_none());
                    continue;
                };
                let top: Vec<&Line> = plain.leaves.iter().take(deeper.lines).collect();
                if top.is_empty() {
                    assert_eq!(Some(chosen), first);
                    continue;
                }
                assert!(top.contains(&&chosen), "{view}");
                let deals = |l: &Line| l.moves.last() == Some(&Move::Deal);
                assert_eq!(deals(&chosen), deals(top[0]), "{view}");
                if chosen != *top[0] {
                    differed += 1;
                }
            }
        }
        // The look past the card changes some choices, or it is no look.
        assert!(differed > 0);
    }

    /// Views of own 4-suit deals where the lookahead's best line deals:
    /// each game played by the lookahead's lines with its real cards up to
    /// its second deal.
    fn views_before_a_deal() -> Vec<View> {
        let mut out = Vec::new();
        let mut dealt = 0;
        walk(SuitCount::Four, 8, |step, view, line| {
            if step == 0 {
                dealt = 0;
            }
            if line.moves.last() == Some(&Move::Deal) {
                out.push(view.clone());
                dealt += 1;
            }
            dealt < 2
        });
        out
    }

    /// The lines to a deal that [`lines_and_deals`] keeps each deal, from
    /// positions all different, best first; the first is the lookahead's
    /// own line to a deal. Before a deal, the look past it plays one of
    /// them, the lookahead's line without draws, and another in some views
    /// (or it is no look); the draws are of cards not seen, from the view.
    #[test]
    fn before_a_deal_it_leaves_the_piles_as_one_of_the_lookaheads_best_arrangements() {
        let avoid = HashSet::new();
        let views = views_before_a_deal();
        assert!(views.len() >= 8, "{} views", views.len());
        let mut differed = 0;
        for view in &views {
            let found = lines_and_deals(&view.deal(), 2_000, &avoid, DEAL_LINES).unwrap();
            let plain = lines(&view.deal(), 2_000, &avoid).unwrap();
            assert_eq!(found.leaves, plain.leaves);
            assert!(plain.deals.is_empty());
            assert_eq!(found.leaves[0].moves.last(), Some(&Move::Deal));
            assert_eq!(found.deals[0], found.leaves[0]);
            assert!(found.deals.len() <= DEAL_LINES);
            let game = crate::game::Game::new(&view.deal()).unwrap();
            let mut before = HashSet::new();
            for pair in found.deals.windows(2) {
                assert!(pair[0].value >= pair[1].value);
            }
            for line in &found.deals {
                assert_eq!(line.moves.last(), Some(&Move::Deal));
                let mut position = game.start().clone();
                for &mv in &line.moves[..line.moves.len() - 1] {
                    game.check(&position, mv).unwrap();
                    position = game.apply(&position, mv).position;
                }
                assert!(
                    before.insert(game.key(&position)),
                    "two lines from one position"
                );
            }
            let mut rng = SplitMix64::new(3);
            let none = Deeper::drawing(0);
            assert_eq!(
                best_line(view, 2_000, &avoid, none, &mut rng)
                    .unwrap()
                    .as_ref(),
                Some(&found.leaves[0])
            );
            let look = Deeper::drawing(0).past_deals(4);
            let chosen = best_line(view, 2_000, &avoid, look, &mut rng)
                .unwrap()
                .unwrap();
            assert!(found.deals.contains(&chosen));
            if chosen != found.deals[0] {
                differed += 1;
            }
        }
        assert!(differed > 0);
    }
}
