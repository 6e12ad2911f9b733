//! The one error type of the crate. Every message says what was wrong and what is allowed, so the
//! command line and the page can show it to a reader as it is. A message is data ([`Error::phrase`]:
//! a code and its values, messages.rs), which the command line writes in English and the page words
//! in the reader's language.

use std::fmt;

pub use crate::digits::short_digits;
use crate::messages::{self, Phrase, Value};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// A name that is not one of the presets.
    UnknownPreset { name: String, allowed: Vec<String> },
    /// A `config.json` whose `model_type` this crate does not model.
    UnsupportedFamily { model_type: String, allowed: Vec<&'static str> },
    /// A field that is missing, of the wrong type, or inconsistent with another.
    InvalidField { field: String, problem: Phrase },
    /// A number from the reader (sequence length, batch, ...) outside what is allowed.
    OutOfRange { what: Phrase, value: Value, allowed: Phrase },
    /// Input that is not valid JSON or not a JSON object.
    Parse { what: Phrase, problem: Phrase },
    /// A count too large for 64-bit integers.
    Overflow { what: Phrase },
    /// A weights file with a tensor missing, of the wrong shape or dtype, or not finite.
    Weights { tensor: String, problem: Phrase },
}

impl Error {
    pub fn field(field: impl Into<String>, problem: impl Into<Phrase>) -> Self {
        Error::InvalidField { field: field.into(), problem: problem.into() }
    }

    /// `value` is echoed short: a number of more than 15 digits in scientific notation ("1e300"),
    /// anything longer than 40 characters cut ([`clip`]), so a message never repeats a page of input.
    pub fn out_of_range(what: impl Into<Phrase>, value: impl fmt::Display, allowed: impl Into<Phrase>) -> Self {
        let value = clip(&short_digits(&value.to_string()));
        // "(empty)" and the like are words of the table; anything else is echoed as given.
        let value = match Phrase::from(value.as_str()) {
            coded @ Phrase::Coded(_) => Value::Phrase(coded),
            Phrase::Text(_) => Value::Echo(value),
        };
        Error::OutOfRange { what: what.into(), value, allowed: allowed.into() }
    }

    pub fn weights(tensor: impl Into<String>, problem: impl Into<Phrase>) -> Self {
        Error::Weights { tensor: tensor.into(), problem: problem.into() }
    }

    pub fn overflow(what: impl Into<Phrase>) -> Self {
        Error::Overflow { what: what.into() }
    }

    pub fn parse(what: impl Into<Phrase>, problem: impl Into<Phrase>) -> Self {
        Error::Parse { what: what.into(), problem: problem.into() }
    }

    /// The message as data: the frame of its kind with the values (messages.rs).
    pub fn phrase(&self) -> Phrase {
        let phrase = |p: &Phrase| Value::Phrase(p.clone());
        match self {
            Error::UnknownPreset { name, allowed } => Phrase::of(messages::UNKNOWN_PRESET)
                .text("name", clip(name))
                .with("allowed", Value::List(allowed.clone())),
            Error::UnsupportedFamily { model_type, allowed } => Phrase::of(messages::UNSUPPORTED_FAMILY)
                .text("modelType", clip(model_type))
                .with("allowed", Value::List(allowed.iter().map(|s| s.to_string()).collect())),
            Error::InvalidField { field, problem } => {
                Phrase::of(messages::INVALID_FIELD).text("field", field.clone()).with("problem", phrase(problem))
            }
            Error::OutOfRange { what, value, allowed } => Phrase::of(messages::OUT_OF_RANGE)
                .with("what", phrase(what))
                .with("value", value.clone())
                .with("allowed", phrase(allowed)),
            Error::Parse { what, problem } => {
                Phrase::of(messages::PARSE).with("what", phrase(what)).with("problem", phrase(problem))
            }
            Error::Weights { tensor, problem } => {
                Phrase::of(messages::WEIGHTS).text("tensor", tensor.clone()).with("problem", phrase(problem))
            }
            Error::Overflow { what } => Phrase::of(messages::OVERFLOW).with("what", phrase(what)),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.phrase().english())
    }
}

impl std::error::Error for Error {}

pub type Result<T> = std::result::Result<T, Error>;

/// A value a reader typed, short enough to echo in a message: at most 40 characters, "…" after a cut.
pub fn clip(text: &str) -> String {
    clip_to(text, 40)
}

/// `text` cut to at most `max` characters, "…" after a cut: for what another library says (a
/// parser's message can quote the input it choked on, at any length).
pub fn clip_to(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_string()
    } else {
        format!("{}…", text.chars().take(max.saturating_sub(1)).collect::<String>())
    }
}
