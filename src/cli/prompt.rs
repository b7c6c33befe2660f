//! What the player types at the prompt of `spider play FILE` (the
//! companion, [`super::companion`]): the cards a move turned up, Enter,
//! another move, or a word; read into an [`Answer`].

use std::path::PathBuf;

use spider_analyzer::cards::Card;
use spider_analyzer::game::{WrittenMove, parse_moves};

/// The words the prompt takes, for `help`.
pub(super) const HELP: &str = "  \
  at any prompt:
    7h 10S A♠ ...      the cards the move turned up (pile 1 first; a deal: the ten cards dealt)
    Enter              the move suggested was played (and turned up nothing, or the file knows what)
    4-3/1, 4-3, deal   you played this move instead (F-T/K: K cards from pile F to pile T);
                       the cards it turned up may follow: `4-3/1 7h`
    undo               take back the last move and the cards it turned up
    fix 7h ...         the last move turned up these cards, not those typed (undo, then the move again)
    board              the table as it is now
    save FILE          write the position as a deal file (`spider play FILE` resumes it);
                       an existing file is replaced only with `save FILE --force`
    hint               every legal move with its share of sampled completions won
    quit               stop here (exit 3)
    help               this list";

/// What the player typed at a prompt.
pub(super) enum Answer {
    Enter,
    Cards(Vec<Card>),
    /// Another move, with the cards it turned up if they follow it.
    Move(WrittenMove, Vec<Card>),
    Undo,
    Fix(Vec<Card>),
    Board,
    Save(PathBuf, bool),
    Hint,
    Quit,
    Help,
}

fn parse_cards(words: &[&str]) -> Result<Vec<Card>, String> {
    words
        .iter()
        .map(|t| {
            t.parse::<Card>()
                .map_err(|_| format!("`{t}` is not a card (write cards like 7h, 10S, A♠)"))
        })
        .collect()
}

pub(super) fn parse_answer(line: &str) -> Result<Answer, String> {
    let words: Vec<&str> = line
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
        .collect();
    let Some(first) = words.first() else {
        return Ok(Answer::Enter);
    };
    let rest = &words[1..];
    let alone = |answer: Answer| {
        if rest.is_empty() {
            Ok(answer)
        } else {
            Err(format!("`{first}` takes nothing after it"))
        }
    };
    match first.to_ascii_lowercase().as_str() {
        "undo" => return alone(Answer::Undo),
        "board" => return alone(Answer::Board),
        "hint" => return alone(Answer::Hint),
        "quit" | "exit" => return alone(Answer::Quit),
        "help" | "?" => return alone(Answer::Help),
        "fix" => {
            if rest.is_empty() {
                return Err("fix: name the cards the last move turned up, like `fix 7h`".into());
            }
            return parse_cards(rest).map(Answer::Fix);
        }
        "save" => {
            return match rest {
                [file] => Ok(Answer::Save(PathBuf::from(file), false)),
                [file, "--force"] | ["--force", file] => Ok(Answer::Save(PathBuf::from(file), true)),
                _ => Err("save: name one file, like `save game.yaml` (`save game.yaml --force` replaces it)".into()),
            };
        }
        _ => {}
    }
    match parse_moves(first) {
        // The cards it turned up may follow the move on the line.
        Ok(tokens) if tokens.len() == 1 => {
            return parse_cards(rest).map(|cards| Answer::Move(tokens[0].step, cards));
        }
        // No card has a dash: a move written wrong (`11-3/1`).
        Err(e) if first.contains('-') => return Err(e.to_string()),
        _ => {}
    }
    parse_cards(&words)
        .map(Answer::Cards)
        .map_err(|e| format!("{e}; or a move like 4-3/1, or a word: `help` lists them"))
}
