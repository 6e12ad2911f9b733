//! Where each head looks, summarised over a text (the evaluation protocol's windows): for every head
//! of every block, the mean share of a query's attention weight on the character just before it, on
//! itself and on the first position of its window, and the mean entropy of its weights (nats) beside
//! what a head spreading its weight evenly over the past would have. Queries at position 0 are left
//! out: the first position can only look at itself. The heads that stand out on each measure are
//! named, so a lesson quotes them rather than types them.

use serde::Serialize;

use super::check_text;
use crate::error::Result;
use crate::nn::{BlockMode, TrainableGpt};
use crate::train::evaluate::windows;

/// One head's means over the queries of a text.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct HeadSummary {
    pub block: usize,
    pub head: usize,
    /// Share of weight on the previous character (key t − 1).
    pub previous: f64,
    /// Share of weight on the query's own character (key t).
    pub same: f64,
    /// Share of weight on the first position (key 0).
    pub first: f64,
    /// Mean entropy of the weights, in nats.
    pub entropy: f64,
    /// The mean of ln(t + 1) over the same queries: the entropy of even weights over the past.
    pub uniform_entropy: f64,
}

/// The heads that stand out on each measure.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Standouts {
    /// The largest share on the previous character.
    pub previous: HeadSummary,
    /// The largest share on the query itself.
    pub same: HeadSummary,
    /// The largest share on the first position.
    pub first: HeadSummary,
    /// The lowest entropy: the most focused head.
    pub focused: HeadSummary,
    /// The highest entropy: the head that spreads its weight the most.
    pub broadest: HeadSummary,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HeadSummaries {
    /// Queries each mean is taken over (windows × (P − 1)).
    pub queries: usize,
    pub windows: usize,
    /// The share a head spreading its weight evenly puts on any one key (the mean of 1/(t + 1)):
    /// the figure to read the shares against.
    pub even_share: f64,
    /// Block by block, head by head.
    pub heads: Vec<HeadSummary>,
    pub standouts: Standouts,
}

/// The summaries for `ids`, every block intact.
pub fn head_summaries(model: &mut TrainableGpt, ids: &[usize]) -> Result<HeadSummaries> {
    check_text(model, ids)?;
    let s = model.shape;
    let (p, h, layers) = (s.context, s.n_heads, s.n_layers);
    let saved = std::mem::replace(&mut model.block_modes, vec![BlockMode::Intact; layers]);
    let all: Vec<&[usize]> = windows(ids, p).collect();
    // Per head: sums of previous, same, first, entropy, uniform entropy.
    let mut sums = vec![[0.0f64; 5]; layers * h];
    let mut inputs = Vec::with_capacity(model.max_batch() * p);
    let mut result = Ok(());
    for group in all.chunks(model.max_batch()) {
        inputs.clear();
        group.iter().for_each(|w| inputs.extend_from_slice(&w[..p]));
        if let Err(e) = model.forward(&inputs, None, group.len(), p) {
            result = Err(e);
            break;
        }
        for block in 0..layers {
            let att = model.block_activations(block).expect("every block ran").att; // [B, h, P, P]
            for (i, row) in att.chunks_exact(p).enumerate() {
                let (head, t) = ((i / p) % h, i % p);
                if t == 0 {
                    continue;
                }
                let entropy: f64 = row[..=t].iter().filter(|&&a| a > 0.0).map(|&a| -(a as f64) * (a as f64).ln()).sum();
                let sum = &mut sums[block * h + head];
                for (k, x) in [row[t - 1] as f64, row[t] as f64, row[0] as f64, entropy, ((t + 1) as f64).ln()]
                    .into_iter()
                    .enumerate()
                {
                    sum[k] += x;
                }
            }
        }
    }
    model.block_modes = saved;
    result?;
    let queries = all.len() * (p - 1);
    let heads: Vec<HeadSummary> = sums
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let [previous, same, first, entropy, uniform_entropy] = s.map(|x| x / queries.max(1) as f64);
            HeadSummary { block: i / h, head: i % h, previous, same, first, entropy, uniform_entropy }
        })
        .collect();
    // The first head wins a tie, so the choice does not depend on the order of a sort.
    let best = |key: fn(&HeadSummary) -> f64| *heads.iter().fold(&heads[0], |b, x| if key(x) > key(b) { x } else { b });
    let standouts = Standouts {
        previous: best(|x| x.previous),
        same: best(|x| x.same),
        first: best(|x| x.first),
        focused: best(|x| -x.entropy),
        broadest: best(|x| x.entropy),
    };
    let even_share = (1..p).map(|t| 1.0 / (t + 1) as f64).sum::<f64>() / (p - 1).max(1) as f64;
    Ok(HeadSummaries { queries, windows: all.len(), even_share, heads, standouts })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nn::{GptShape, TinyGpt};
    use crate::train::{Corpus, Vocabulary};

    #[test]
    fn shares_are_fractions_and_even_weights_have_the_uniform_entropy() {
        let shape = GptShape::of(&TinyGpt::tiny(0)).unwrap();
        let mut m = TrainableGpt::with_random_weights(shape, 4, 1, 0.5);
        let ids = Corpus::lessons(&Vocabulary::lessons(), 16).held_out;
        let r = head_summaries(&mut m, &ids).unwrap();
        assert_eq!(r.heads.len(), 8);
        assert_eq!(r.queries, r.windows * 15);
        for x in &r.heads {
            for share in [x.previous, x.same, x.first] {
                assert!((0.0..=1.0).contains(&share));
            }
            assert!(x.entropy <= x.uniform_entropy + 1e-9);
        }
        assert!(r.heads.iter().all(|x| x.previous <= r.standouts.previous.previous));
        // Zero queries and keys: even weights over the past, so the entropy is the uniform one and the
        // share on the previous character is the mean of 1/(t + 1).
        let d = shape.d_model;
        for t in shape.tensors().into_iter().filter(|t| t.name.ends_with("attn.c_attn.weight")) {
            m.params[t.offset..t.offset + 2 * d * d].fill(0.0);
        }
        let r = head_summaries(&mut m, &ids).unwrap();
        let even = r.even_share;
        assert!((even - 0.158_71).abs() < 1e-5, "{even}");
        for x in &r.heads {
            assert!((x.entropy - x.uniform_entropy).abs() < 1e-6, "{x:?}");
            assert!((x.previous - even).abs() < 1e-6 && (x.first - even).abs() < 1e-6);
        }
    }
}
