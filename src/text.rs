//! Small helpers for messages people read: a count with its noun in the
//! right number, a short excerpt of input quoted back (the table as a
//! player draws it is [`crate::game::Board`]).
//!
//! Cards print one way for people: rank then suit symbol, `10♥`, `A♠`
//! ([`crate::cards::Card::pretty`]); a face-down card is `XX`. Files a
//! tool reads back (deal files, the compact move list, JSON) write the
//! suit as a letter, `10H`, which any keyboard types; both are read.

/// `n` and the noun, singular for 1: `count(1, "move")` is "1 move",
/// `count(3, "move")` "3 moves".
pub fn count(n: impl Into<u128>, noun: &str) -> String {
    let n = n.into();
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// The longest piece of input a message quotes, in characters.
pub const EXCERPT_CHARS: usize = 40;

/// `text` as a message quotes it: whole when short, else its first
/// [`EXCERPT_CHARS`] characters, "…" and its length, so a 240 KB line never
/// comes back whole.
pub fn excerpt(text: &str) -> String {
    let length = text.chars().count();
    if length <= EXCERPT_CHARS {
        text.to_string()
    } else {
        let start: String = text.chars().take(EXCERPT_CHARS).collect();
        format!("{start}… ({length} characters)")
    }
}

/// A word longer than this in a message is input quoted whole.
const LONG_WORD: usize = 100;

/// `message` with every word longer than 100 characters cut to an
/// excerpt: the last guard for messages that quote input they did not
/// choose (a parser's own wording).
pub fn shorten_words(message: &str) -> String {
    if message.chars().count() <= LONG_WORD {
        return message.to_string();
    }
    let mut out = String::with_capacity(4 * EXCERPT_CHARS);
    let mut rest = message;
    while !rest.is_empty() {
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let (word, after) = rest.split_at(end);
        if word.chars().count() > LONG_WORD {
            out.push_str(&excerpt(word));
        } else {
            out.push_str(word);
        }
        let spaces = after.len() - after.trim_start().len();
        out.push_str(&after[..spaces]);
        rest = &after[spaces..];
    }
    out
}

/// An I/O error in words, without the "(os error N)" its `Display` adds.
pub fn io_reason(err: &std::io::Error) -> String {
    use std::io::ErrorKind;
    match err.kind() {
        ErrorKind::NotFound => "no such file or directory".into(),
        ErrorKind::PermissionDenied => "permission denied".into(),
        ErrorKind::IsADirectory => "is a directory".into(),
        ErrorKind::ReadOnlyFilesystem => "read-only file system".into(),
        ErrorKind::StorageFull => "no space left on the device".into(),
        _ => {
            let text = err.to_string();
            match text.find(" (os error") {
                Some(at) => text[..at].to_string(),
                None => text,
            }
        }
    }
}

/// A large count in words a player reads: exact below 10,000, then
/// "24.8 thousand", "24.8 million", "1.9 billion", "3.2 trillion".
pub fn amount(n: u64) -> String {
    const NAMES: [(f64, &str); 4] = [
        (1e12, "trillion"),
        (1e9, "billion"),
        (1e6, "million"),
        (1e3, "thousand"),
    ];
    if n < 10_000 {
        return n.to_string();
    }
    let x = n as f64;
    for (size, name) in NAMES {
        if x >= size {
            let value = x / size;
            return if value >= 100.0 {
                format!("{value:.0} {name}")
            } else {
                format!("{value:.1} {name}")
            };
        }
    }
    n.to_string()
}

/// A duration in words: "45 s", "12 min", "2 h 5 min", "3 days".
pub fn duration(seconds: f64) -> String {
    let s = seconds.max(0.0).round() as u64;
    match s {
        0..120 => format!("{s} s"),
        120..7200 => format!("{} min", (s + 30) / 60),
        7200..172_800 => format!("{} h {} min", s / 3600, (s % 3600) / 60),
        _ => format!("{} days", (s + 43_200) / 86_400),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_and_durations_in_words() {
        assert_eq!(amount(9_999), "9999");
        assert_eq!(amount(24_800_000), "24.8 million");
        assert_eq!(amount(1_900_000_000), "1.9 billion");
        assert_eq!(amount(310_000), "310 thousand");
        assert_eq!(duration(45.2), "45 s");
        assert_eq!(duration(720.0), "12 min");
        assert_eq!(duration(7500.0), "2 h 5 min");
        assert_eq!(duration(5.0 * 86_400.0), "5 days");
    }

    #[test]
    fn counts_and_excerpts() {
        assert_eq!(count(1u8, "run"), "1 run");
        assert_eq!(count(0u8, "run"), "0 runs");
        assert_eq!(count(24u64, "move"), "24 moves");
        assert_eq!(excerpt("QS"), "QS");
        let long = "Q".repeat(240_000);
        assert_eq!(
            excerpt(&long),
            format!("{}… (240000 characters)", "Q".repeat(EXCERPT_CHARS))
        );
        let message = format!("`{long}` is not a card:  expected a card");
        assert_eq!(shorten_words(&excerpt(&message)), excerpt(&message));
        assert_eq!(
            shorten_words(&message),
            format!(
                "`{}… (240002 characters) is not a card:  expected a card",
                "Q".repeat(EXCERPT_CHARS - 1)
            )
        );
    }
}
