//! The character tokenizer: one symbol per character, 50 of them (the 26 lowercase letters, space,
//! newline, the ten digits, `. , ' " - ? ! ; : ( )`, and one symbol for everything else). Uppercase
//! folds to lowercase, and typographic quotes, dashes and spaces fold to their plain forms, so
//! "Don’t — ever" reads as "don't - ever". The symbols and their ids are data: `crate/data/vocab.json`
//! (`{symbol: id}`), the file `tblock train` writes beside a model.

use std::collections::HashMap;

use crate::error::{Error, Result};

/// The lessons' vocabulary, `{symbol: id}`.
pub const VOCAB_JSON: &str = include_str!("../../data/vocab.json");

/// The symbol every character outside the vocabulary becomes (U+FFFD, the replacement character).
pub const OTHER: char = '\u{FFFD}';

/// Symbols and ids, both ways.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Vocabulary {
    /// id -> symbol
    symbols: Vec<char>,
    /// symbol -> id
    ids: HashMap<char, usize>,
    /// The id of [`OTHER`].
    other: usize,
}

/// Typographic characters and the plain symbol each folds to.
const FOLDS: [(char, char); 16] = [
    ('\u{2018}', '\''), // ‘
    ('\u{2019}', '\''), // ’
    ('\u{201A}', '\''), // ‚
    ('\u{2032}', '\''), // ′ (prime)
    ('\u{201C}', '"'),  // “
    ('\u{201D}', '"'),  // ”
    ('\u{201E}', '"'),  // „
    ('\u{2033}', '"'),  // ″
    ('\u{2010}', '-'),  // hyphen
    ('\u{2011}', '-'),  // non-breaking hyphen
    ('\u{2012}', '-'),  // figure dash
    ('\u{2013}', '-'),  // –
    ('\u{2014}', '-'),  // —
    ('\u{2212}', '-'),  // minus
    ('\u{00A0}', ' '),  // no-break space
    ('\t', ' '),
];

impl Vocabulary {
    /// The lessons' 50 symbols.
    pub fn lessons() -> Vocabulary {
        Vocabulary::from_json(VOCAB_JSON).expect("crate/data/vocab.json is a valid vocabulary")
    }

    /// Read `{symbol: id}`: every symbol one character, the ids 0..n each used once, and the
    /// symbol for everything else (U+FFFD) among them.
    pub fn from_json(text: &str) -> Result<Vocabulary> {
        let map: HashMap<String, u64> = serde_json::from_str(text).map_err(|e| {
            Error::parse(
                "vocab.json",
                format!(
                    "expected an object of {{\"symbol\": id}} with one character per symbol ({})",
                    crate::error::clip_to(&e.to_string(), 160)
                ),
            )
        })?;
        let n = map.len();
        let mut symbols = vec![None; n];
        for (symbol, &id) in &map {
            let mut chars = symbol.chars();
            let (Some(c), None) = (chars.next(), chars.next()) else {
                return Err(Error::field(
                    "vocab.json",
                    format!("symbol {:?} is not one character", crate::error::clip(symbol)),
                ));
            };
            let slot = usize::try_from(id).ok().and_then(|i| symbols.get_mut(i)).ok_or_else(|| {
                Error::field(
                    "vocab.json",
                    format!(
                        "id {id} of {symbol:?} is past the {n} symbols (ids run from 0 to {})",
                        n.saturating_sub(1)
                    ),
                )
            })?;
            if slot.replace(c).is_some() {
                return Err(Error::field("vocab.json", format!("id {id} is given to two symbols")));
            }
        }
        let symbols: Vec<char> =
            symbols.into_iter().map(|s| s.expect("n distinct ids below n fill every slot")).collect();
        let ids: HashMap<char, usize> = symbols.iter().enumerate().map(|(i, &c)| (c, i)).collect();
        let other = *ids.get(&OTHER).ok_or_else(|| {
            Error::field("vocab.json", "has no symbol for everything else: add \"\u{FFFD}\" (U+FFFD)")
        })?;
        Ok(Vocabulary { symbols, ids, other })
    }

    /// `{symbol: id}` as JSON, one symbol a line, in id order.
    pub fn to_json(&self) -> String {
        let lines: Vec<String> = self
            .symbols
            .iter()
            .enumerate()
            .map(|(i, c)| format!("  {}: {i}", serde_json::Value::String(c.to_string())))
            .collect();
        format!("{{\n{}\n}}\n", lines.join(",\n"))
    }

    /// V: how many symbols.
    pub fn len(&self) -> usize {
        self.symbols.len()
    }

    pub fn is_empty(&self) -> bool {
        self.symbols.is_empty()
    }

    /// The character a symbol stands for.
    pub fn symbol(&self, id: usize) -> Option<char> {
        self.symbols.get(id).copied()
    }

    /// What a character becomes before it is looked up: A-Z lowercase, typographic forms made plain.
    pub fn fold(c: char) -> char {
        if let Some(&(_, plain)) = FOLDS.iter().find(|(t, _)| *t == c) {
            return plain;
        }
        // Only ASCII letters have a lowercase form in the vocabulary; any other letter is "other"
        // either way (and std's full Unicode case tables would add 30 KB to the wasm).
        c.to_ascii_lowercase()
    }

    /// The id of one character: its folded form's, or the id for everything else.
    pub fn id(&self, c: char) -> usize {
        self.ids.get(&Self::fold(c)).copied().unwrap_or(self.other)
    }

    /// The characters of `text` the model reads, one a position: a carriage return is dropped, so
    /// "\r\n" is one newline.
    pub fn characters(text: &str) -> impl Iterator<Item = char> + '_ {
        text.chars().filter(|&c| c != '\r')
    }

    /// Text -> ids, one per character (see [`characters`](Self::characters)).
    pub fn encode(&self, text: &str) -> Vec<usize> {
        Self::characters(text).map(|c| self.id(c)).collect()
    }

    /// Ids -> text. An id past the vocabulary becomes U+FFFD.
    pub fn decode(&self, ids: &[usize]) -> String {
        ids.iter().map(|&i| self.symbol(i).unwrap_or(OTHER)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fifty_symbols_as_the_lessons_list_them() {
        let v = Vocabulary::lessons();
        assert_eq!(v.len(), 50);
        let expected = "abcdefghijklmnopqrstuvwxyz \n0123456789.,'\"-?!;:()";
        assert_eq!(expected.chars().count(), 49);
        for c in expected.chars() {
            assert_ne!(v.id(c), v.id(OTHER), "{c:?} has its own id");
            assert_eq!(v.decode(&[v.id(c)]), c.to_string());
        }
        assert_eq!(Vocabulary::from_json(&v.to_json()).unwrap(), v);
    }

    #[test]
    fn text_folds_to_lowercase_and_plain_punctuation() {
        let v = Vocabulary::lessons();
        assert_eq!(v.decode(&v.encode("Don’t — ever\r\nSAY “No”")), "don't - ever\nsay \"no\"");
        assert_eq!(v.decode(&v.encode("4d² × T")), "4d\u{FFFD} \u{FFFD} t");
        assert_eq!(v.encode("").len(), 0);
    }

    #[test]
    fn broken_vocabularies_are_refused_with_the_reason() {
        let e = |t: &str| Vocabulary::from_json(t).unwrap_err().to_string();
        assert_eq!(e(r#"{"ab": 0, "\ufffd": 1}"#), "vocab.json: symbol \"ab\" is not one character");
        assert_eq!(
            e(r#"{"a": 0, "\ufffd": 2}"#),
            "vocab.json: id 2 of \"\u{FFFD}\" is past the 2 symbols (ids run from 0 to 1)"
        );
        assert_eq!(
            e(r#"{"a": 0, "b": 1}"#),
            "vocab.json: has no symbol for everything else: add \"\u{FFFD}\" (U+FFFD)"
        );
        assert!(e("[1, 2]").starts_with("vocab.json could not be read: expected an object"));
    }
}
