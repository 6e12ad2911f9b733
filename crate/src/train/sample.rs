//! Writing text with a trained model: feed the prompt, hand the last position's logits to the sampler
//! ([`super::sampler`]: temperature, top-k, top-p), draw the next symbol, append it, repeat. The
//! model sees at most its last P symbols. Also what a model makes of a text, position by position.

use serde::Serialize;

use super::sampler::Sampling;
use crate::error::{Error, Result};
use crate::messages::{self, Phrase};
use crate::nn::init::Rng;
use crate::nn::vocabulary::Vocabulary;
use crate::nn::{TinyGpt, TrainableGpt};
use crate::numbers::thousands;

pub const MAX_LENGTH: usize = 10_000;

/// The ids a model reads for a prompt: its symbols, or a newline when it is empty (the model needs
/// one symbol to start from, and a new line is where text starts).
fn prompt_ids(vocab: &Vocabulary, prompt: &str) -> Vec<usize> {
    let ids = vocab.encode(prompt);
    if ids.is_empty() {
        vocab.encode("\n")
    } else {
        ids
    }
}

/// `length` symbols of text following `prompt`, drawn with `sampling` from a generator seeded with
/// `seed`.
pub fn generate(
    model: &mut TrainableGpt,
    vocab: &Vocabulary,
    prompt: &str,
    length: usize,
    sampling: &Sampling,
    seed: u64,
) -> Result<String> {
    if length == 0 || length > MAX_LENGTH {
        return Err(Error::out_of_range(
            "length",
            thousands(length as u64),
            Phrase::of(messages::WRITE_CHARACTERS).count("max", MAX_LENGTH),
        ));
    }
    let p = model.shape.context;
    let mut ids = prompt_ids(vocab, prompt);
    let mut rng = Rng::new(seed);
    let v = model.shape.vocab_size;
    let start = ids.len();
    for _ in 0..length {
        let window = &ids[ids.len().saturating_sub(p)..];
        model.forward(window, None, 1, window.len())?;
        let logits = model.logits();
        ids.push(sampling.draw(&logits[logits.len() - v..], &mut rng));
    }
    Ok(vocab.decode(&ids[start..]))
}

/// One position's likeliest next symbols.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NextSymbols {
    /// The symbol at this position.
    pub symbol: String,
    /// The likeliest next symbols with their probabilities, most likely first.
    pub next: Vec<(String, f64)>,
}

/// What a model makes of a text: the symbols it read (at most its last P), the stream after the last
/// block and the logits (row-major, a row per position), and each position's likeliest next symbols.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Reading {
    pub symbols: Vec<String>,
    pub ids: Vec<usize>,
    /// Symbols at the start of the text that did not fit in the model's P positions.
    pub dropped: usize,
    pub stream_shape: [usize; 2],
    pub stream: Vec<f32>,
    pub logits_shape: [usize; 2],
    pub logits: Vec<f32>,
    /// Each position's likeliest next id (the column of its largest logit).
    pub best: Vec<usize>,
    pub next: Vec<NextSymbols>,
}

/// The `k` likeliest symbols of one row of logits, with their softmax probabilities.
fn likeliest(vocab: &Vocabulary, row: &[f32], k: usize) -> Vec<(String, f64)> {
    let max = row.iter().copied().fold(f32::NEG_INFINITY, f32::max) as f64;
    let mut p: Vec<(usize, f64)> = row.iter().map(|&z| (z as f64 - max).exp()).enumerate().collect();
    let sum: f64 = p.iter().map(|x| x.1).sum();
    crate::numbers::sort_small_by(&mut p, |a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)).is_lt());
    p.iter().take(k).map(|&(i, q)| (vocab.decode(&[i]), q / sum)).collect()
}

/// Run `model` on the last P symbols of `text` and keep what the page shows (see [`Reading`]).
pub fn read(model: &TinyGpt, vocab: &Vocabulary, text: &str, k: usize) -> Result<Reading> {
    let all = vocab.encode(text);
    if all.is_empty() {
        return Err(Error::out_of_range("text", "(empty)", "type at least one character"));
    }
    let dropped = all.len().saturating_sub(model.context());
    let ids = all[dropped..].to_vec();
    let stream = model.hidden(&ids)?;
    let logits = model.forward(&ids)?;
    let row_major = |m: &crate::nn::Matrix| m.transpose().as_slice().to_vec();
    let v = logits.ncols();
    let logits_rows = row_major(&logits);
    let next = ids
        .iter()
        .zip(logits_rows.chunks_exact(v))
        .map(|(&id, row)| NextSymbols { symbol: vocab.decode(&[id]), next: likeliest(vocab, row, k) })
        .collect();
    let best = logits_rows
        .chunks_exact(v)
        .map(|row| row.iter().enumerate().fold(0, |b, (i, &z)| if z > row[b] { i } else { b }))
        .collect();
    Ok(Reading {
        best,
        symbols: ids.iter().map(|&i| vocab.decode(&[i])).collect(),
        dropped,
        stream_shape: [stream.nrows(), stream.ncols()],
        stream: row_major(&stream),
        logits_shape: [logits.nrows(), v],
        logits: logits_rows,
        next,
        ids,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_text_and_bad_settings_say_what_is_allowed() {
        let mut m = TrainableGpt::from_model(&TinyGpt::tiny(0), 1).unwrap();
        let v = Vocabulary::lessons();
        let at = |t| Sampling::temperature(t, 50).unwrap();
        let a = generate(&mut m, &v, "the ", 40, &at(1.0), 3).unwrap();
        assert_eq!(a.chars().count(), 40);
        assert_eq!(a, generate(&mut m, &v, "the ", 40, &at(1.0), 3).unwrap());
        let greedy = generate(&mut m, &v, "", 5, &at(0.0), 1).unwrap();
        assert_eq!(greedy, generate(&mut m, &v, "", 5, &at(0.0), 2).unwrap(), "temperature 0 does not draw");
        let top_1 = Sampling::new(3.0, Some(1), None, 50).unwrap();
        assert_eq!(greedy, generate(&mut m, &v, "", 5, &top_1, 9).unwrap(), "top-k 1 is greedy");
        assert_eq!(
            generate(&mut m, &v, "a", 0, &at(1.0), 0).unwrap_err().to_string(),
            "length 0 is out of range: write 1 to 10,000 characters"
        );
    }

    #[test]
    fn next_symbol_probabilities_sum_to_one_at_every_position() {
        let m = TinyGpt::tiny(0);
        let v = Vocabulary::lessons();
        let reading = read(&m, &v, "Attention!", 50).unwrap();
        assert_eq!((reading.symbols.len(), reading.dropped), (10, 0));
        assert_eq!(reading.stream_shape, [10, 32]);
        assert_eq!(reading.logits_shape, [10, 50]);
        let rows = reading.next;
        assert_eq!(rows[0].symbol, "a");
        for r in &rows {
            assert!((r.next.iter().map(|x| x.1).sum::<f64>() - 1.0).abs() < 1e-9);
            assert!(r.next.windows(2).all(|w| w[0].1 >= w[1].1));
        }
        assert_eq!(
            read(&m, &v, "", 3).unwrap_err().to_string(),
            "text (empty) is out of range: type at least one character"
        );
        let long = read(&m, &v, "abcdefghijklmnopqrstuvwxyz", 1).unwrap();
        assert_eq!((long.dropped, long.symbols.concat()), (10, "klmnopqrstuvwxyz".to_string()));
    }
}
