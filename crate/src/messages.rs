//! The library's messages as data. A message is a [`Phrase`]: a code and its values (a typed text,
//! a count, a list of names, or another phrase). Its English is the code's template, filled here for
//! the command line and for `Error`'s Display; the page gets the code and the values (web/mod.rs)
//! and words them in the reader's language from its catalogs (www/src/locales/*/library.js, keys
//! "lib." + the code; the English one is written from [`CODES`] by a test, so the English of each
//! message lives here only). A phrase that is plain text (Phrase::Text) has no code: the page shows
//! a message holding one in English, as it is.
//!
//!   Error::out_of_range(NOUNS.batch, 0, Phrase::of(RANGE).count("low", 1).count("high", 4096))
//!   // "batch 0 is out of range: allowed is 1 to 4,096"

use std::fmt;

use crate::digits::thousands;

/// A message's code: its key in the page's catalogs ("lib." + key) and its English template, whose
/// `{name}`s are the phrase's values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Code {
    pub key: &'static str,
    pub english: &'static str,
}

/// What a message says: words of the table below with their values, or plain English text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Phrase {
    Text(String),
    Coded(Box<Coded>),
}

/// A code with its values (boxed in a phrase, so an error stays small).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Coded {
    pub code: Code,
    pub values: Vec<(&'static str, Value)>,
}

/// A value in a phrase. A count is grouped in the reader's locale; a list is joined as a list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Text(String),
    /// What the reader gave, as the message echoes it ("5000", "1,024", "0.5", "1e300", "(empty)"):
    /// the page gets a plain number as a number, to write in the reader's locale.
    Echo(String),
    Count(u64),
    List(Vec<String>),
    Phrase(Phrase),
}

impl Phrase {
    pub fn of(code: Code) -> Self {
        Phrase::Coded(Box::new(Coded { code, values: Vec::new() }))
    }

    /// The phrase with one more value (`name` as its template writes it).
    pub fn with(mut self, name: &'static str, value: Value) -> Self {
        if let Phrase::Coded(coded) = &mut self {
            coded.values.push((name, value));
        }
        self
    }

    pub fn text(self, name: &'static str, text: impl Into<String>) -> Self {
        self.with(name, Value::Text(text.into()))
    }

    pub fn count(self, name: &'static str, n: impl TryInto<u64>) -> Self {
        self.with(name, Value::Count(n.try_into().unwrap_or(u64::MAX)))
    }

    pub fn phrase(self, name: &'static str, phrase: impl Into<Phrase>) -> Self {
        self.with(name, Value::Phrase(phrase.into()))
    }

    /// The phrase in English: its template with the values written in.
    pub fn english(&self) -> String {
        match self {
            Phrase::Text(text) => text.clone(),
            Phrase::Coded(coded) => {
                let Coded { code, values } = coded.as_ref();
                let mut out = String::with_capacity(code.english.len() + 16);
                let mut rest = code.english;
                while let Some(open) = rest.find('{') {
                    out.push_str(&rest[..open]);
                    let Some(close) = rest[open..].find('}') else { break };
                    let name = &rest[open + 1..open + close];
                    match values.iter().find(|(n, _)| *n == name) {
                        Some((_, value)) => out.push_str(&value.english()),
                        None => out.push_str(&rest[open..=open + close]),
                    }
                    rest = &rest[open + close + 1..];
                }
                out.push_str(rest);
                out
            }
        }
    }
}

impl Value {
    fn english(&self) -> String {
        match self {
            Value::Text(text) | Value::Echo(text) => text.clone(),
            Value::Count(n) => thousands(*n),
            Value::List(items) => items.join(", "),
            Value::Phrase(phrase) => phrase.english(),
        }
    }
}

impl fmt::Display for Phrase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.english())
    }
}

/// A text: its code when it is one of the table's names or fixed phrases, else plain English.
impl From<&str> for Phrase {
    fn from(text: &str) -> Self {
        fixed(text).map_or_else(|| Phrase::Text(text.to_string()), Phrase::of)
    }
}

impl From<String> for Phrase {
    fn from(text: String) -> Self {
        fixed(&text).map_or(Phrase::Text(text), Phrase::of)
    }
}

impl From<Code> for Phrase {
    fn from(code: Code) -> Self {
        Phrase::of(code)
    }
}

/// The page's view of a phrase: `{ code, values: { name: value } }` (a count a number, a list an
/// array, a phrase an object like this one), or `{ text }` for plain English text.
impl serde::Serialize for Phrase {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(2))?;
        match self {
            Phrase::Text(text) => map.serialize_entry("text", text)?,
            Phrase::Coded(coded) => {
                map.serialize_entry("code", coded.code.key)?;
                map.serialize_entry("values", &Values(&coded.values))?;
            }
        }
        map.end()
    }
}

struct Values<'a>(&'a [(&'static str, Value)]);

impl serde::Serialize for Values<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (name, value) in self.0 {
            match value {
                Value::Text(text) => map.serialize_entry(name, text)?,
                Value::Echo(text) => match plain_number(text) {
                    Some(x) => map.serialize_entry(name, &x)?,
                    None => map.serialize_entry(name, text)?,
                },
                // Past 2^53 a JavaScript number is not exact: such a count goes as grouped text.
                Value::Count(n) if *n > (1 << 53) => map.serialize_entry(name, &thousands(*n))?,
                Value::Count(n) => map.serialize_entry(name, &(*n as f64))?,
                Value::List(items) => map.serialize_entry(name, items)?,
                Value::Phrase(phrase) => map.serialize_entry(name, phrase)?,
            }
        }
        map.end()
    }
}

/// `text` as a number if it is written plainly: digits, commas between thousands, a point and
/// digits ("1,024", "0.5"), at most 15 digits or so (so the number is the text); else None.
fn plain_number(text: &str) -> Option<f64> {
    let digits = text.strip_prefix('-').unwrap_or(text).replace(',', "");
    let (whole, fraction) = digits.split_once('.').unwrap_or((&digits, "0"));
    let plain = !whole.is_empty()
        && !fraction.is_empty()
        && whole.len() + fraction.len() <= 16
        && whole.bytes().chain(fraction.bytes()).all(|b| b.is_ascii_digit());
    if !plain {
        return None;
    }
    let sign = if text.starts_with('-') { -1.0 } else { 1.0 };
    // At most 15 digits: the mantissa is exact, and one division by an exact power of ten rounds once.
    let mantissa = whole.bytes().chain(fraction.bytes()).fold(0_u64, |m, b| m * 10 + u64::from(b - b'0'));
    Some(sign * mantissa as f64 / 10_f64.powi(fraction.len() as i32))
}

macro_rules! codes {
    ($($name:ident = $key:literal: $english:literal;)*) => {
        $(pub const $name: Code = Code { key: $key, english: $english };)*
        /// Every code, in the order the English catalog lists them.
        pub const CODES: &[Code] = &[$($name),*];
    };
}

codes! {
    // The frames of Error's kinds (error.rs).
    UNKNOWN_PRESET = "unknownPreset": "unknown model \"{name}\": choose one of {allowed}, or give a Hugging Face config.json";
    UNSUPPORTED_FAMILY = "unsupportedFamily": "model_type \"{modelType}\" is not supported: supported families are {allowed}";
    INVALID_FIELD = "invalidField": "{field}: {problem}";
    OUT_OF_RANGE = "outOfRange": "{what} {value} is out of range: {allowed}";
    PARSE = "parse": "{what} could not be read: {problem}";
    WEIGHTS = "weights": "{tensor}: {problem}";
    OVERFLOW = "overflow": "{what} is too large to count exactly in 64 bits";

    // What a reader gives the page, as messages name it (a `what` given as text that is one of these
    // becomes its code: From<&str>).
    N_TEXT = "text": "text";
    N_TOKEN_ID = "tokenId": "token id";
    N_TOKEN_IDS = "tokenIds": "token ids";
    N_SEQ_LEN = "seqLen": "seq_len";
    N_TOP_K = "topK": "top-k";
    N_TOP_P = "topP": "top-p";
    N_SEQUENCE_LENGTH = "sequenceLength": "sequence length";
    N_NUMBER_OF_TOKENS = "numberOfTokens": "number of tokens";
    N_POSITION_TO_CHANGE = "positionToChange": "position to change";
    N_BATCH = "batch": "batch";
    N_BLOCK = "block": "block";
    N_EXPERTS = "experts": "experts";
    N_ROUTER_SCORE = "routerScore": "router score";
    N_ROUTER_SCORES = "routerScores": "the number of router scores";
    N_STEPS = "steps": "steps";
    N_STEP = "step": "step";
    N_LAYERS = "layers": "layers";
    N_WIDTH = "width": "width";
    N_HEADS = "heads": "heads";
    N_WARMUP = "warmup": "warmup";
    N_SEED = "seed": "seed";
    N_REPETITIONS = "repetitions": "repetitions";
    N_LENGTH = "length": "length";
    N_LEARNING_RATE = "learningRate": "learning rate";
    N_WEIGHT_DECAY = "weightDecay": "weight decay";
    N_TEMPERATURE = "temperature": "temperature";
    N_PARAMETERS = "parameters": "parameters";
    N_TOKENS = "tokens": "tokens";
    N_PEAK = "peak": "peak FLOP/s";
    N_UTILISATION = "utilisation": "utilisation";
    N_POINTS = "points": "points";
    N_WEIGHTS_FILE = "weightsFile": "the weights file";
    N_TRAINING_SETTINGS = "trainingSettings": "the training settings";

    // Fixed phrases (a text given that is one of these becomes its code, as for the names above).
    P_EMPTY = "empty": "(empty)";
    P_AT_LEAST_ONE_CHARACTER = "atLeastOneCharacter": "type at least one character";
    P_POSITIVE = "positive": "it must be a positive number";
    P_FRACTION_OF_PEAK = "fractionOfPeak": "it is a fraction of peak, above 0 and at most 1";
    P_COUNTS_WHOLE_THINGS = "countsWholeThings": "it counts whole things: give a whole number of at least 1";
    P_WHOLE_AT_LEAST_ONE = "wholeAtLeastOne": "it must be a whole number of at least 1";
    P_WHOLE = "whole": "it must be a whole number (0, 1, 2, ...)";
    P_TOO_LARGE = "tooLarge": "it is too large";
    P_FINITE_SCORES = "finiteScores": "scores must be finite numbers";
    P_ONE_SCORE_PER_EXPERT = "oneScorePerExpert": "give one score per expert, at least 1";
    P_AT_LEAST_ONE_EXPERT = "atLeastOneExpert": "a mixture needs at least 1 expert";
    P_FAR_PAST_SETTINGS = "farPastSettings": "it is far larger than any setting allows";
    P_WARMUP = "warmupRange": "give 0 to the number of steps of the run";
    P_LEARNING_RATE = "learningRateRange": "give a positive number up to 1 (3e-3 trains TinyGPT well)";
    P_TEMPERATURE = "temperatureRange": "give 0 (always the likeliest) to 10; 1 samples the model as it is, below 1 is more cautious";
    P_TOP_P = "topPRange": "give a share above 0 and at most 1: the likeliest characters are kept until their probability adds up to it (1 keeps all)";
    P_POSITIVE_INTEGER_MISSING = "positiveIntegerMissing": "is missing: it must be a positive integer";
    P_WEIGHT_DECAY = "weightDecayRange": "give 0 to 1 (0.1 is usual)";
    P_TOO_LONG_TO_COUNT = "tooLongToCount": "the run would take longer than a double can count (1.8e308 seconds): give a larger peak or utilisation";

    // Phrases with values.
    WHOLE_UP_TO = "wholeUpTo": "it is far too large: give a whole number up to {max}";
    ACCEPTS_TOKENS = "acceptsTokens": "{model} accepts 1 to {max} tokens";
    ALLOWED_RANGE = "allowedRange": "allowed is {low} to {high}";
    TOKEN_IDS_FROM = "tokenIdsFrom": "give 1 to {max} token ids";
    POSITIONS_AT_MOST = "positionsAtMost": "the model has {max} positions, so give at most {max} token ids";
    IDS_RUN = "idsRun": "ids run from 0 to {last} (the vocabulary has {vocab} tokens); position {position} has {id}";
    POSITIONS_RUN = "positionsRun": "positions run from 0 to {last} for {count} tokens";
    KEEP_EXPERTS = "keepExperts": "keep between 1 and the {experts} experts";
    EXPERT_SCORES = "expertScores": "this layer has {experts} experts, one score each";
    READS_AT_MOST = "readsAtMost": "type at least one character (the model reads at most {most} at once)";
    OF_CHARACTERS = "ofCharacters": "of {count} characters";
    SHORTEN = "shorten": "the model reads at most {most} characters at once: shorten it";
    TRAIN_STEPS = "trainSteps": "train for 1 to {max} steps";
    GIVE_BLOCKS = "giveBlocks": "give 1 to {max} blocks";
    GIVE_WIDTH = "giveWidth": "give {low} to {high}, a multiple of the heads";
    GIVE_WIDTH_OF_HEADS = "giveWidthOfHeads": "give {low} to {high}, a multiple of the {heads} heads";
    GIVE_LOW_HIGH = "giveLowHigh": "give {low} to {high}";
    WARMUP_STEPS = "warmupSteps": "give 0 to the {steps} steps of the run";
    GIVE_HEADS = "giveHeads": "give 1 to {max} heads";
    GIVE_WINDOWS = "giveWindows": "give 1 to {max} windows per step";
    TIME_RUNS = "timeRuns": "time 1 to {max} runs";
    WRITE_CHARACTERS = "writeCharacters": "write 1 to {max} characters";
    TOP_K = "topKRange": "keep from 1 (the likeliest only) up to {max} (every character) of the likeliest";
    MODEL_BLOCKS = "modelBlocks": "the model has blocks 0 to {last}";
    CHOOSE_POINTS = "choosePoints": "choose 2 to {max}";
    POSITIVE_INTEGER_GOT = "positiveIntegerGot": "must be a positive integer, got {got}";
    BYTES = "bytes": "{count} bytes";
    // What a config.json is told (config/): its values echoed as the file writes them.
    P_CROSS_ATTENTION = "crossAttention": "is true: cross-attention makes this an encoder-decoder model; only decoder-only GPT-2 (false) is supported";
    STRING_GOT = "stringGot": "must be a string, got {got}";
    BOOL_GOT = "boolGot": "must be true or false, got {got}";
    SMALL_POSITIVE_GOT = "smallPositiveGot": "must be a small positive number, got {got}";
    FAMILY_MISSING = "familyMissing": "is missing: a config.json names its family here, one of {families}";
    HEADS_DIVIDE = "headsDivide": "{heads} heads do not divide {field} = {width}: the width must split evenly across the heads";
    KV_HEADS_DIVIDE = "kvHeadsDivide": "{kv} key/value heads do not divide num_attention_heads = {heads}: allowed are the divisors of {heads}";
    KV_HEADS_SERVE = "kvHeadsServe": "{kv} key/value heads do not divide {heads} query heads: each key/value head must serve the same number of query heads";
    EXPERTS_PER_TOKEN = "expertsPerToken": "must be between 1 and the {experts} experts, got {got}";
    K_PAST_EXPERTS = "kPastExperts": "{k} is more than num_local_experts = {experts}: allowed are 1 to {experts}";
    PAGE_MODEL_SIZE = "pageModelSize": "the page runs models of up to {max} bytes (4 million float32 parameters); larger ones would take minutes an experiment";
}

/// The code whose English is `text`, among those without values (the names and fixed phrases).
fn fixed(text: &str) -> Option<Code> {
    CODES.iter().copied().find(|code| code.english == text && !code.english.contains('{'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_phrase_is_its_template_with_the_values_written_in() {
        let p = Phrase::of(ALLOWED_RANGE).count("low", 1).count("high", 4096);
        assert_eq!(p.english(), "allowed is 1 to 4,096");
        let missing = Phrase::of(ALLOWED_RANGE).count("low", 1);
        assert_eq!(missing.english(), "allowed is 1 to {high}");
        let nested = Phrase::of(OUT_OF_RANGE).phrase("what", "batch").text("value", "0").phrase("allowed", p);
        assert_eq!(nested.english(), "batch 0 is out of range: allowed is 1 to 4,096");
    }

    #[test]
    fn a_text_of_the_table_becomes_its_code_and_any_other_stays_text() {
        assert_eq!(Phrase::from("sequence length"), Phrase::of(N_SEQUENCE_LENGTH));
        assert_eq!(Phrase::from("(empty)".to_string()), Phrase::of(P_EMPTY));
        assert_eq!(Phrase::from("a sentence of its own"), Phrase::Text("a sentence of its own".into()));
        // A template with values is never matched by its text.
        assert_eq!(Phrase::from("allowed is {low} to {high}"), Phrase::Text("allowed is {low} to {high}".into()));
    }

    #[test]
    fn codes_are_unique_and_every_template_closes_its_braces() {
        for (i, a) in CODES.iter().enumerate() {
            assert!(CODES[i + 1..].iter().all(|b| b.key != a.key), "{} twice", a.key);
            assert!(CODES[i + 1..].iter().all(|b| b.english != a.english), "{:?} twice", a.english);
            assert_eq!(a.english.matches('{').count(), a.english.matches('}').count(), "{}", a.key);
        }
    }

    #[test]
    fn plain_numbers_are_read_exactly_and_anything_else_is_not() {
        assert_eq!(plain_number("1,024"), Some(1024.0));
        assert_eq!(plain_number("0.3"), Some(0.3));
        assert_eq!(plain_number("-2.5"), Some(-2.5));
        for other in ["1e300", "", "-", "NaN", "inf", "1.", ".5", "12 bytes", "1234567890123456"] {
            assert_eq!(plain_number(other), None, "{other}");
        }
    }
}
