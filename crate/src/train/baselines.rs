//! The lines a trained model is measured against, computed from the text, never typed:
//!
//! - uniform: every one of the V symbols equally likely, ln V nats (3.912 for V = 50);
//! - unigram: each symbol as likely as it is frequent in the training text (letter frequencies);
//! - bigram: each symbol as likely as it is to follow the symbol before it in the training text.
//!
//! Counts come from the training part, with add-one (Laplace) smoothing so no symbol has probability
//! 0: P(c) = (n(c) + 1) / (N + V) and P(c | b) = (n(b, c) + 1) / (n(b, ·) + V), where n(b, ·) counts
//! the pairs that start with b. They are scored on exactly the targets of the evaluation protocol
//! (held-out windows of P + 1), so the three lines and the model's loss are comparable.

use serde::{Deserialize, Serialize};

use super::evaluate::scored_pairs;

/// The three reference losses on the held-out text, in nats.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ReferenceLosses {
    pub uniform: f64,
    pub unigram: f64,
    pub bigram: f64,
}

/// Reference losses of `held_out` under counts from `train`, V = `vocab_size`, windows of `context` + 1.
pub fn reference_losses(train: &[usize], held_out: &[usize], vocab_size: usize, context: usize) -> ReferenceLosses {
    let v = vocab_size;
    let mut single = vec![0u64; v];
    let mut pairs = vec![0u64; v * v]; // [previous, next]
    for &c in train {
        single[c] += 1;
    }
    for p in train.windows(2) {
        pairs[p[0] * v + p[1]] += 1;
    }
    let starts: Vec<u64> = pairs.chunks_exact(v).map(|row| row.iter().sum()).collect();
    let n = train.len() as f64;
    let (mut unigram, mut bigram, mut count) = (0.0, 0.0, 0usize);
    for (b, c) in scored_pairs(held_out, context) {
        unigram -= ((single[c] as f64 + 1.0) / (n + v as f64)).ln();
        bigram -= ((pairs[b * v + c] as f64 + 1.0) / (starts[b] as f64 + v as f64)).ln();
        count += 1;
    }
    let count = count.max(1) as f64;
    ReferenceLosses { uniform: (v as f64).ln(), unigram: unigram / count, bigram: bigram / count }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_text_that_alternates_is_learned_by_the_bigram_not_the_unigram() {
        // "abab...": each symbol half the time, but always the other one next.
        let text: Vec<usize> = (0..400).map(|i| i % 2).collect();
        let r = reference_losses(&text[..360], &text[360..], 4, 3);
        assert!((r.uniform - 4f64.ln()).abs() < 1e-12);
        // unigram: P(a) = P(b) = (180 + 1) / (360 + 4). bigram: 180 pairs a -> b and 179 b -> a in
        // training, so P(b | a) = 181/184 and P(a | b) = 180/183; each held-out window "abab"
        // scores a -> b twice and b -> a once.
        assert!((r.unigram - -(181.0f64 / 364.0).ln()).abs() < 1e-12, "{}", r.unigram);
        let bigram = -(2.0 * (181.0f64 / 184.0).ln() + (180.0f64 / 183.0).ln()) / 3.0;
        assert!((r.bigram - bigram).abs() < 1e-12, "{}", r.bigram);
    }
}
