//! The one error type of the crate. Every message says what was wrong and what is allowed, so the
//! command line and the page can show it to a reader as it is.

use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// A name that is not one of the presets.
    UnknownPreset { name: String, allowed: Vec<String> },
    /// A `config.json` whose `model_type` this crate does not model.
    UnsupportedFamily { model_type: String, allowed: Vec<&'static str> },
    /// A field that is missing, of the wrong type, or inconsistent with another.
    InvalidField { field: String, problem: String },
    /// A number from the reader (sequence length, batch, ...) outside what is allowed.
    OutOfRange { what: String, value: String, allowed: String },
    /// Input that is not valid JSON or not a JSON object.
    Parse { what: String, problem: String },
    /// A count too large for 64-bit integers.
    Overflow { what: String },
    /// A weights file with a tensor missing, of the wrong shape or dtype, or not finite.
    Weights { tensor: String, problem: String },
}

impl Error {
    pub fn field(field: impl Into<String>, problem: impl Into<String>) -> Self {
        Error::InvalidField { field: field.into(), problem: problem.into() }
    }

    /// `value` is echoed short: a number of more than 15 digits in scientific notation ("1e300"),
    /// anything longer than 40 characters cut ([`clip`]), so a message never repeats a page of input.
    pub fn out_of_range(what: impl Into<String>, value: impl fmt::Display, allowed: impl Into<String>) -> Self {
        Error::OutOfRange { what: what.into(), value: clip(&short_digits(&value.to_string())), allowed: allowed.into() }
    }

    pub fn weights(tensor: impl Into<String>, problem: impl Into<String>) -> Self {
        Error::Weights { tensor: tensor.into(), problem: problem.into() }
    }

    pub fn overflow(what: impl Into<String>) -> Self {
        Error::Overflow { what: what.into() }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::UnknownPreset { name, allowed } => write!(
                f,
                "unknown model \"{}\": choose one of {}, or give a Hugging Face config.json",
                clip(name),
                allowed.join(", ")
            ),
            Error::UnsupportedFamily { model_type, allowed } => {
                write!(
                    f,
                    "model_type \"{}\" is not supported: supported families are {}",
                    clip(model_type),
                    allowed.join(", ")
                )
            }
            Error::InvalidField { field, problem } => write!(f, "{field}: {problem}"),
            Error::OutOfRange { what, value, allowed } => {
                write!(f, "{what} {value} is out of range: {allowed}")
            }
            Error::Parse { what, problem } => write!(f, "{what} could not be read: {problem}"),
            Error::Weights { tensor, problem } => write!(f, "{tensor}: {problem}"),
            Error::Overflow { what } => {
                write!(f, "{what} is too large to count exactly in 64 bits")
            }
        }
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

/// A number as text, short: a run of more than 15 digits (how `f64` and `u64` print a huge value,
/// "1000…000" for 1e300) becomes scientific notation with three significant digits ("1e300",
/// "1.23e19"), and so does a tiny one that `f64` prints with more than 6 zeros after the point
/// ("0.000…0001" for 1e-320: "1e-320"); any other text is returned as it is. Works on the text, so
/// the wasm carries no float parsing.
pub fn short_digits(text: &str) -> String {
    let (sign, digits) = text.strip_prefix('-').map_or(("", text), |d| ("-", d));
    if let Some(fraction) = digits.strip_prefix("0.").filter(|f| f.bytes().all(|b| b.is_ascii_digit())) {
        let zeros = fraction.len() - fraction.trim_start_matches('0').len();
        let rest = &fraction[zeros..];
        if zeros > 6 && !rest.is_empty() {
            let tail = rest.get(1..3.min(rest.len())).unwrap_or("").trim_end_matches('0');
            let point = if tail.is_empty() { String::new() } else { format!(".{tail}") };
            return format!("{sign}{}{point}e-{}", &rest[..1], zeros + 1);
        }
    }
    let whole = digits.split('.').next().unwrap_or("");
    if whole.len() <= 15
        || !whole.bytes().all(|b| b.is_ascii_digit())
        || !digits[whole.len()..].bytes().all(|b| b == b'.' || b.is_ascii_digit())
    {
        return text.to_string();
    }
    let lead = &whole[..1];
    let rest = whole[1..3].trim_end_matches('0');
    let point = if rest.is_empty() { String::new() } else { format!(".{rest}") };
    format!("{sign}{lead}{point}e{}", whole.len() - 1)
}
