//! Move lists in the compact form (`F-T/K`, `F-T`, `deal`) and their replay
//! through the rules.

use super::{Game, IllegalMove, Move, Position};

/// A token of a move list as written, before it meets a position: the count
/// may be left out when the destination is not empty.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    /// The token as written.
    pub text: String,
    /// 1-based line and column of the token.
    pub line: usize,
    pub column: usize,
    /// What it asks for.
    pub step: WrittenMove,
}

/// A move as written: `F-T/K`, `F-T` or `deal` (piles 0-based here).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WrittenMove {
    Shift { from: u8, to: u8, count: Option<u8> },
    Deal,
}

/// A token that is not a move (its line and column are the caller's to
/// show, with the file's name: `moves.txt:2:5: ...`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{}` is not a move: expected F-T/K (move K cards from pile F to pile T, piles 1-10), F-T (onto a card) or deal",
    crate::text::excerpt(text)
)]
pub struct MoveListError {
    pub text: String,
    pub line: usize,
    pub column: usize,
}

/// Reads a move list: whitespace-separated tokens, `#` starts a comment
/// that runs to the end of the line.
pub fn parse_moves(text: &str) -> Result<Vec<Token>, MoveListError> {
    let mut tokens = Vec::new();
    for (line_index, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("");
        let mut rest = line;
        while let Some(start) = rest.find(|c: char| !c.is_whitespace()) {
            let after = &rest[start..];
            let end = after.find(char::is_whitespace).unwrap_or(after.len());
            let word = &after[..end];
            let column = line.len() - rest.len() + start;
            let column = line[..column].chars().count() + 1;
            let step = parse_token(word).ok_or_else(|| MoveListError {
                text: word.to_string(),
                line: line_index + 1,
                column,
            })?;
            tokens.push(Token {
                text: word.to_string(),
                line: line_index + 1,
                column,
                step,
            });
            rest = &after[end..];
        }
    }
    Ok(tokens)
}

fn parse_token(word: &str) -> Option<WrittenMove> {
    if word.eq_ignore_ascii_case("deal") {
        return Some(WrittenMove::Deal);
    }
    let (piles, count) = match word.split_once('/') {
        Some((piles, count)) => (piles, Some(count.parse::<u8>().ok().filter(|&k| k >= 1)?)),
        None => (word, None),
    };
    let (from, to) = piles.split_once('-')?;
    let pile = |text: &str| {
        text.parse::<u8>()
            .ok()
            .filter(|p| (1..=10).contains(p))
            .map(|p| p - 1)
    };
    Some(WrittenMove::Shift {
        from: pile(from)?,
        to: pile(to)?,
        count,
    })
}

/// The first illegal move of a replayed list.
#[derive(Clone, Debug, thiserror::Error)]
#[error("move {index} `{token}` (line {line}, column {column}) is illegal: {reason}")]
pub struct ReplayError {
    /// 1-based index of the move in the list.
    pub index: usize,
    pub token: String,
    pub line: usize,
    pub column: usize,
    pub reason: IllegalMove,
    /// The position before the illegal move.
    pub position: Position,
}

/// Plays `tokens` from the game's start, checking each move by the rules.
/// Returns the moves (with their counts resolved) and the final position,
/// or the first illegal move.
pub fn replay(game: &Game, tokens: &[Token]) -> Result<(Vec<Move>, Position), Box<ReplayError>> {
    let mut position = game.start().clone();
    let mut moves = Vec::with_capacity(tokens.len());
    for (index, token) in tokens.iter().enumerate() {
        let fail = |reason, position: &Position| {
            Box::new(ReplayError {
                index: index + 1,
                token: token.text.clone(),
                line: token.line,
                column: token.column,
                reason,
                position: position.clone(),
            })
        };
        let mv = match token.step {
            WrittenMove::Deal => Move::Deal,
            WrittenMove::Shift { from, to, count } => {
                let count = match count {
                    Some(count) => count,
                    None => game
                        .count_for(&position, from as usize, to as usize)
                        .map_err(|reason| fail(reason, &position))?,
                };
                Move::Shift { from, to, count }
            }
        };
        game.check(&position, mv)
            .map_err(|reason| fail(reason, &position))?;
        position = game.apply(&position, mv).position;
        moves.push(mv);
    }
    Ok((moves, position))
}
