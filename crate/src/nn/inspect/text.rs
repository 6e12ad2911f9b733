//! The text an inspection reads: at most [`MAX_INSPECTED`] characters (and no more than the model's
//! P positions), folded and turned into ids [T], with the positions that fell to the catch-all
//! symbol U+FFFD.

use crate::error::{Error, Result};
use crate::messages::{self, Phrase, Value};
use crate::nn::vocabulary::{Vocabulary, OTHER};

/// The most characters an inspection reads, whatever the model's context: the page draws a map of
/// T × T cells a head, so a long-context checkpoint still gets maps that fit a screen.
pub const MAX_INSPECTED: usize = 16;

/// The longest text an inspection of a model of `context` positions reads.
pub fn longest_text(context: usize) -> usize {
    context.min(MAX_INSPECTED)
}

/// The ids of `text` for a model of `context` positions: 1 to [`longest_text`] characters, else a
/// message naming the limit. Also the positions that fell to the catch-all symbol.
pub fn text_ids(vocab: &Vocabulary, text: &str, context: usize) -> Result<(Vec<usize>, Vec<usize>)> {
    let chars: Vec<char> = Vocabulary::characters(text).collect();
    let most = longest_text(context);
    if chars.is_empty() {
        return Err(Error::out_of_range("text", "(empty)", Phrase::of(messages::READS_AT_MOST).count("most", most)));
    }
    if chars.len() > most {
        return Err(Error::OutOfRange {
            what: "text".into(),
            value: Value::Phrase(Phrase::of(messages::OF_CHARACTERS).count("count", chars.len())),
            allowed: Phrase::of(messages::SHORTEN).count("most", most),
        });
    }
    let other = vocab.id(OTHER);
    let ids: Vec<usize> = chars.iter().map(|&c| vocab.id(c)).collect();
    let unknown =
        chars.iter().zip(&ids).enumerate().filter(|(_, (&c, &id))| id == other && c != OTHER).map(|(t, _)| t).collect();
    Ok((ids, unknown))
}
