//! A self-referential multiple-choice quiz: every option claims "the answer
//! to question Q is X", and a set of answers is consistent when every chosen
//! option's claim holds.
//!
//! The quiz is the engine's second check: a search whose pruning must be
//! exact (an inconsistent partial set of answers has no consistent
//! extension) and whose goals must all be listed. A state is the answers
//! chosen for the first questions; a move answers the next question with an
//! option that agrees with every answer chosen so far.
//!
//! The file format is YAML:
//!
//! ```yaml
//! title: A two-question quiz      # optional
//! questions:                      # numbered from 1 in this order
//!   - text: The answer to Question 2 is   # optional
//!     about: 2                    # the question this one asks about
//!     options: {A: B, B: A}       # option name: the answer it claims
//!   - about: 1
//!     options: {A: A, B: B}
//! ```

use std::fmt;
use std::ops::ControlFlow;
use std::sync::Arc;

use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, Visitor};

use crate::explore::{End, Limits, NodeKind, Problem, Search, Stats, Stop};

/// The built-in quiz (transcribed from BrainBashers), in the YAML format.
pub const BUILTIN_YAML: &str = include_str!("quiz-brainbashers.yaml");

/// A quiz that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum QuizError {
    /// The YAML is malformed or does not match the format (the message gives
    /// the line and column).
    #[error(transparent)]
    Yaml(#[from] serde_yaml::Error),
    /// The quiz has no questions.
    #[error("the quiz has no questions")]
    NoQuestions,
    /// A question has no options.
    #[error("question {question} has no options")]
    NoOptions {
        /// The question, numbered from 1.
        question: usize,
    },
    /// A question asks about a question that does not exist.
    #[error(
        "question {question} is about question {about}, but the quiz has questions 1 to {count}"
    )]
    NoSuchQuestion {
        /// The question, numbered from 1.
        question: usize,
        /// The question it names.
        about: usize,
        /// How many questions there are.
        count: usize,
    },
    /// An option claims an answer that its target question does not offer.
    #[error(
        "question {question}, option {option}: claims answer {claim} for question {about}, which has no option {claim}"
    )]
    NoSuchOption {
        /// The question, numbered from 1.
        question: usize,
        /// The option's name.
        option: String,
        /// The claimed answer.
        claim: String,
        /// The question the claim is about, numbered from 1.
        about: usize,
    },
}

/// A validated quiz.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Quiz {
    /// The quiz's title, if the file gives one.
    pub title: Option<String>,
    /// The questions, in order.
    pub questions: Vec<Question>,
    /// For each question, the earlier questions that ask about it.
    asked_by: Vec<Vec<usize>>,
}

/// A question of a quiz.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Question {
    /// The question's text, if the file gives one.
    pub text: Option<String>,
    /// The question (0-based) whose answer this one asks for.
    pub about: usize,
    /// The options, in file order.
    pub options: Vec<AnswerOption>,
}

/// An option of a question.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnswerOption {
    /// The option's name (`A`, `B`...).
    pub name: Arc<str>,
    /// The option (index into the target question's options) it claims is
    /// the target's answer.
    pub claim: usize,
}

/// Answering a question with an option: a move of the search.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Answer {
    /// The question, 0-based.
    pub question: usize,
    /// The option chosen, 0-based.
    pub option: usize,
    /// The option's name.
    pub name: Arc<str>,
}

impl fmt::Display for Answer {
    /// `1=D`: question numbered from 1, option by name.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}={}", self.question + 1, self.name)
    }
}

/// Every consistent set of answers of a quiz (those found before a limit,
/// if one stopped the search).
#[derive(Clone, Debug)]
pub struct Solutions {
    /// Each set: one answer per question, in question order.
    pub sets: Vec<Vec<Answer>>,
    /// What the search did.
    pub stats: Stats,
    /// How the search ended: [`End::Exhausted`] when `sets` is every
    /// consistent set, [`End::Stopped`] when a limit cut it short.
    pub end: End,
}

impl Quiz {
    /// The built-in quiz.
    pub fn builtin() -> Self {
        Self::from_yaml(BUILTIN_YAML).expect("the built-in quiz is valid")
    }

    /// Reads and validates a quiz in the YAML format.
    pub fn from_yaml(text: &str) -> Result<Self, QuizError> {
        let file: QuizFile = serde_yaml::from_str(text)?;
        let count = file.questions.len();
        if count == 0 {
            return Err(QuizError::NoQuestions);
        }
        for (q, question) in file.questions.iter().enumerate() {
            if question.options.0.is_empty() {
                return Err(QuizError::NoOptions { question: q + 1 });
            }
            if !(1..=count).contains(&question.about) {
                return Err(QuizError::NoSuchQuestion {
                    question: q + 1,
                    about: question.about,
                    count,
                });
            }
        }
        let mut questions = Vec::with_capacity(count);
        for (q, question) in file.questions.iter().enumerate() {
            let target = &file.questions[question.about - 1].options.0;
            let mut options = Vec::with_capacity(question.options.0.len());
            for (name, claim) in &question.options.0 {
                let Some(claim) = target.iter().position(|(n, _)| n == claim) else {
                    return Err(QuizError::NoSuchOption {
                        question: q + 1,
                        option: name.clone(),
                        claim: claim.clone(),
                        about: question.about,
                    });
                };
                options.push(AnswerOption {
                    name: name.as_str().into(),
                    claim,
                });
            }
            questions.push(Question {
                text: question.text.clone(),
                about: question.about - 1,
                options,
            });
        }
        let mut asked_by = vec![Vec::new(); count];
        for (q, question) in questions.iter().enumerate() {
            if q < question.about {
                asked_by[question.about].push(q);
            }
        }
        Ok(Self {
            title: file.title,
            questions,
            asked_by,
        })
    }

    /// Every consistent set of answers, found by the engine (depth-first, no
    /// deduplication: each partial set of answers is reached one way).
    pub fn solve(&self) -> Solutions {
        self.solve_within(Limits::default())
    }

    /// Every consistent set of answers found within `limits` (memory, time,
    /// the cancel flag); [`Solutions::end`] says whether the list is whole.
    pub fn solve_within(&self, limits: Limits) -> Solutions {
        let mut sets = Vec::new();
        let outcome = Search::new(self)
            .dedup(false)
            .stop(Stop::Exhaust)
            .limits(limits)
            .on_goal(|_, line| {
                sets.push(line.to_vec());
                ControlFlow::Continue(())
            })
            .run();
        Solutions {
            sets,
            stats: outcome.stats,
            end: outcome.end,
        }
    }

    /// Whether answering question `k` with `option` agrees with the answers
    /// `chosen` for questions `0..k`.
    fn agrees(&self, chosen: &[u16], k: usize, option: usize) -> bool {
        let question = &self.questions[k];
        let claim = question.options[option].claim;
        let holds = match question.about {
            t if t < k => chosen[t] as usize == claim,
            t if t == k => option == claim,
            _ => true, // checked when question `about` is answered
        };
        holds
            && self.asked_by[k]
                .iter()
                .all(|&j| self.questions[j].options[chosen[j] as usize].claim == option)
    }
}

impl crate::explore::layered::PackedProblem for Quiz {
    fn pack(&self, chosen: &Vec<u16>, out: &mut Vec<u8>) {
        for option in chosen {
            out.extend_from_slice(&option.to_le_bytes());
        }
    }

    fn unpack(&self, bytes: &[u8]) -> Vec<u16> {
        bytes
            .chunks_exact(2)
            .map(|pair| u16::from_le_bytes([pair[0], pair[1]]))
            .collect()
    }
}

impl Problem for Quiz {
    /// The options chosen for the first questions.
    type State = Vec<u16>;
    type Key = Vec<u16>;
    type Move = Answer;

    fn start(&self) -> Vec<u16> {
        Vec::new()
    }

    fn key(&self, state: &Vec<u16>) -> Vec<u16> {
        state.clone()
    }

    fn successors(&self, chosen: &Vec<u16>, out: &mut Vec<(Answer, Vec<u16>)>) {
        let k = chosen.len();
        let Some(question) = self.questions.get(k) else {
            return;
        };
        for (option, opt) in question.options.iter().enumerate() {
            if self.agrees(chosen, k, option) {
                let mut next = Vec::with_capacity(k + 1);
                next.extend_from_slice(chosen);
                next.push(option as u16);
                out.push((
                    Answer {
                        question: k,
                        option,
                        name: opt.name.clone(),
                    },
                    next,
                ));
            }
        }
    }

    fn kind(&self, chosen: &Vec<u16>) -> NodeKind {
        if chosen.len() == self.questions.len() {
            NodeKind::Goal
        } else {
            NodeKind::Inner
        }
    }
}

/// The file as written, before validation.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct QuizFile {
    #[serde(default)]
    title: Option<String>,
    questions: Vec<QuestionFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct QuestionFile {
    #[serde(default)]
    text: Option<String>,
    about: usize,
    options: OptionsFile,
}

/// Options in file order, `name: claim`, names unique. Names and claims may
/// be written as strings or integers.
struct OptionsFile(Vec<(String, String)>);

impl<'de> Deserialize<'de> for OptionsFile {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(OptionsVisitor)
    }
}

struct OptionsVisitor;

impl<'de> Visitor<'de> for OptionsVisitor {
    type Value = OptionsFile;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a map from option name to the answer it claims, like {A: B, B: A}")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<OptionsFile, A::Error> {
        let mut options: Vec<(String, String)> = Vec::new();
        while let Some((Name(name), Name(claim))) = map.next_entry::<Name, Name>()? {
            if options.iter().any(|(n, _)| *n == name) {
                return Err(de::Error::custom(format!("option {name} appears twice")));
            }
            options.push((name, claim));
        }
        Ok(OptionsFile(options))
    }
}

/// An option name: a string or an integer.
struct Name(String);

impl<'de> Deserialize<'de> for Name {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct NameVisitor;
        impl Visitor<'_> for NameVisitor {
            type Value = Name;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an option name (like A)")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Name, E> {
                Ok(Name(v.to_owned()))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Name, E> {
                Ok(Name(v.to_string()))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Name, E> {
                Ok(Name(v.to_string()))
            }
        }
        deserializer.deserialize_any(NameVisitor)
    }
}
