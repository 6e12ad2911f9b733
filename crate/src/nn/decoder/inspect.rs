//! Inside one forward pass of a real checkpoint over a short text, as transformers shows it with
//! `output_attentions` and `output_hidden_states`: every block's attention weights, the stream
//! between the blocks, and the likeliest next tokens. What `tblock inspect` prints for a checkpoint
//! folder, and what the page's widgets will draw from a real model.
//!
//! Shapes: T positions, d the width, h query heads, V the vocabulary.

use serde::Serialize;

use super::{Decoder, WeightSource};
use crate::error::{Error, Result};
use crate::nn::gqa_attention::{gqa_weights, GqaShape};

/// The most positions an inspection reads: [L][h][T][T] weights stay small enough to show.
pub const MAX_INSPECTED_TOKENS: usize = 64;

/// One token of the next-token distribution.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct NextToken {
    pub id: usize,
    pub probability: f64,
}

/// One window read with every block in its mode.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DecoderInspection {
    /// [L][h·T·T]: block i's attention weights [h, T, T], row t query t's weights over the keys.
    pub attentions: Vec<Vec<f32>>,
    /// [L+1][T·d]: the stream entering block 0, after each block; the last after the final norm.
    pub hidden_states: Vec<Vec<f32>>,
    /// The `top` likeliest tokens after the last position, likeliest first.
    pub next: Vec<NextToken>,
}

impl<W: WeightSource> Decoder<W> {
    /// One forward pass over `ids` (1 to [`MAX_INSPECTED_TOKENS`] and the model's context) keeping
    /// what transformers shows, and the `top` likeliest next tokens.
    pub fn inspect(&mut self, ids: &[usize], top: usize) -> Result<DecoderInspection> {
        let most = MAX_INSPECTED_TOKENS.min(self.shape.context);
        if ids.len() > most {
            return Err(Error::out_of_range(
                "tokens to inspect",
                ids.len(),
                format!(
                    "1 to {most} (an inspection shows every block's T x T weights; `tblock eval` reads longer texts)"
                ),
            ));
        }
        let t = self.embed(ids)?;
        let angles = self.shape.rotary.as_ref().map(|r| r.angles(t));
        let s = &self.shape;
        let (n, h) = (s.n_layers, s.n_heads);
        let shape = GqaShape {
            seq_len: t,
            n_heads: h,
            n_kv_heads: s.n_kv_heads,
            head_dim: s.head_dim,
            causal: true,
            window: s.window,
        };
        let mut hidden_states = vec![self.act.x.clone()];
        let mut attentions = Vec::with_capacity(n);
        for i in 0..n {
            self.blocks_from(i, i + 1, t, angles.as_ref(), None)?;
            // A removed block runs nothing: its weights are all 0.
            let mut weights = vec![0.0; h * t * t];
            if self.block_modes.get(i) != Some(&crate::nn::BlockMode::Removed) {
                gqa_weights(&mut weights, &self.act.q, &self.act.k, shape);
            }
            attentions.push(weights);
            if i + 1 < n {
                hidden_states.push(self.act.x.clone());
            }
        }
        self.final_norm(t)?;
        hidden_states.push(self.act.normed.clone());
        // The last position's logits, then softmax in f64.
        let last = self.last_row_logits(t)?;
        let largest = last.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let sum: f64 = last.iter().map(|&z| f64::from(z - largest).exp()).sum();
        let mut next: Vec<NextToken> = last
            .iter()
            .enumerate()
            .map(|(id, &z)| NextToken { id, probability: f64::from(z - largest).exp() / sum })
            .collect();
        next.sort_by(|a, b| b.probability.total_cmp(&a.probability).then(a.id.cmp(&b.id)));
        next.truncate(top);
        Ok(DecoderInspection { attentions, hidden_states, next })
    }
}
