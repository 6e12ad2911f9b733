//! Inside one forward pass of a real checkpoint over a short text, as transformers shows it with
//! `output_attentions` and `output_hidden_states`: every block's attention weights, the stream
//! between the blocks, and the likeliest next tokens. What `tblock inspect` prints for a checkpoint
//! folder, and what the page's widgets will draw from a real model.
//!
//! Shapes: T positions, d the width, h query heads, V the vocabulary.

use serde::Serialize;

use super::{Decoder, WeightSource};
use crate::error::{Error, Result};

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
        let (n, h) = (self.shape.n_layers, self.shape.n_heads);
        let mut hidden_states = vec![self.act.x.clone()];
        let mut attentions = Vec::with_capacity(n);
        for i in 0..n {
            // The block's attention fills these as it runs; a removed block runs nothing, so its
            // weights stay all 0.
            self.act.shown_attention = Some(vec![0.0; h * t * t]);
            let ran = self.blocks_from(i, i + 1, t, angles.as_ref(), None, None);
            let weights = self.act.shown_attention.take().unwrap_or_default();
            ran?;
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
        let mut next: Vec<NextToken> = last
            .iter()
            .enumerate()
            .map(|(id, &z)| NextToken { id, probability: f64::from(z - largest).exp() })
            .collect();
        let sum: f64 = next.iter().map(|n| n.probability).sum();
        // Likeliest first, ties by id: the `top` first of that order picked out, then ordered (not
        // the whole vocabulary sorted).
        let order = |a: &NextToken, b: &NextToken| b.probability.total_cmp(&a.probability).then(a.id.cmp(&b.id));
        if top < next.len() {
            next.select_nth_unstable_by(top, order);
            next.truncate(top);
        }
        next.sort_by(order);
        next.iter_mut().for_each(|n| n.probability /= sum);
        Ok(DecoderInspection { attentions, hidden_states, next })
    }
}
