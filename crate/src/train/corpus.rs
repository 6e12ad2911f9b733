//! The text TinyGPT learns from, as ids: by default this project's own lesson prose
//! (`crate/data/lesson-prose.txt`, extracted from the lesson page by `make corpus`), so the model
//! learns to write like the page that dissects it. The last 10% is held out: never trained on, only
//! scored, so its loss says how well the model does on text it has not seen.

use crate::error::{Error, Result};
use crate::nn::init::Rng;
use crate::nn::vocabulary::Vocabulary;
use crate::numbers::thousands;

/// The lesson page's prose, one paragraph a line.
pub const LESSON_PROSE: &str = include_str!("../../data/lesson-prose.txt");

/// The share of the text held out at its end.
pub const HELD_OUT_SHARE: f64 = 0.1;

/// The lesson prose's held-out tail as text: its last tenth of characters, the part TinyGPT never
/// trained on (every character of the prose is one of its symbols, so these are the held-out ids'
/// characters). What a real checkpoint's experiments read in the page unless given another text.
pub fn held_out_prose() -> &'static str {
    let n = LESSON_PROSE.chars().count();
    let split = n - (n as f64 * HELD_OUT_SHARE).round() as usize;
    LESSON_PROSE.char_indices().nth(split).map_or("", |(i, _)| &LESSON_PROSE[i..])
}

/// A text as ids, split into the part trained on and the held-out tail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Corpus {
    /// The first 90%.
    pub train: Vec<usize>,
    /// The last 10%.
    pub held_out: Vec<usize>,
}

impl Corpus {
    /// Encode `text` and split it. Each part must hold at least one window of `context` + 1
    /// symbols: the held-out part is scored window by window, and training draws windows.
    pub fn new(vocab: &Vocabulary, text: &str, context: usize) -> Result<Corpus> {
        let ids = vocab.encode(text);
        let window = context + 1;
        let need = (window as f64 / HELD_OUT_SHARE).ceil() as usize;
        if ids.len() < need {
            let what = if ids.is_empty() {
                "the text is empty".to_string()
            } else {
                format!("the text has {} characters", thousands(ids.len() as u64))
            };
            return Err(Error::field(
                "text",
                format!(
                    "{what}; give at least {} (its last 10% is held out to measure the loss, and must fill one window of {window})",
                    thousands(need as u64)
                ),
            ));
        }
        let split = ids.len() - (ids.len() as f64 * HELD_OUT_SHARE).round() as usize;
        let held_out = ids[split..].to_vec();
        let mut train = ids;
        train.truncate(split);
        Ok(Corpus { train, held_out })
    }

    /// The lesson prose.
    pub fn lessons(vocab: &Vocabulary, context: usize) -> Corpus {
        Corpus::new(vocab, LESSON_PROSE, context).expect("the lesson prose is long enough")
    }
}

/// Fill `ids` and `targets` ([B, T] each) with B windows of the training text at random places: a
/// window's targets are its ids shifted by one (the symbol that follows each position).
pub fn sample_batch(rng: &mut Rng, tokens: &[usize], ids: &mut [usize], targets: &mut [usize], seq_len: usize) {
    let starts = (tokens.len() - seq_len) as u64; // a window needs seq_len + 1 symbols
    for (x, y) in ids.chunks_exact_mut(seq_len).zip(targets.chunks_exact_mut(seq_len)) {
        let start = (rng.next_u64() % starts) as usize;
        x.copy_from_slice(&tokens[start..start + seq_len]);
        y.copy_from_slice(&tokens[start + 1..start + seq_len + 1]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_held_out_prose_is_the_held_out_ids_text() {
        let v = Vocabulary::lessons();
        let c = Corpus::lessons(&v, 16);
        assert_eq!(v.encode(held_out_prose()), c.held_out);
        assert!(held_out_prose().len() > 1_000 && LESSON_PROSE.ends_with(held_out_prose()));
    }

    #[test]
    fn the_tail_is_held_out() {
        let v = Vocabulary::lessons();
        let c = Corpus::new(&v, &"abcdefghij".repeat(20), 16).unwrap();
        assert_eq!((c.train.len(), c.held_out.len()), (180, 20));
        assert_eq!(v.decode(&c.held_out), "abcdefghij".repeat(2));
        let lesson = Corpus::lessons(&v, 16);
        assert!(lesson.train.len() > 10_000, "{}", lesson.train.len());
    }

    #[test]
    fn too_little_text_says_how_much_is_needed() {
        let v = Vocabulary::lessons();
        assert_eq!(
            Corpus::new(&v, "", 16).unwrap_err().to_string(),
            "text: the text is empty; give at least 170 (its last 10% is held out to measure the loss, and must fill one window of 17)"
        );
        assert!(Corpus::new(&v, &"x".repeat(169), 16)
            .unwrap_err()
            .to_string()
            .starts_with("text: the text has 169 characters"));
        assert!(Corpus::new(&v, &"x".repeat(170), 16).is_ok());
    }

    #[test]
    fn batches_are_windows_with_targets_one_ahead() {
        let tokens: Vec<usize> = (0..40).collect();
        let (mut ids, mut targets) = ([0; 8], [0; 8]);
        sample_batch(&mut Rng::new(1), &tokens, &mut ids, &mut targets, 4);
        for (x, y) in ids.chunks(4).zip(targets.chunks(4)) {
            assert!(x.windows(2).all(|w| w[1] == w[0] + 1));
            assert!(x.iter().zip(y).all(|(a, b)| b == &(a + 1)));
        }
    }
}
