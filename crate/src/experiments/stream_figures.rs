//! The figures of the stream around a block, position by position (its norm entering, what
//! attention and the feed-forward add, how far the block turns it), gathered a few windows at a
//! time and reduced to medians: what [`stream_stats`](super::stream::stream_stats) reports, for
//! TinyGPT or a checkpoint ([`Subject`](super::subject::Subject) gathers, this file counts).

use serde::Serialize;

use crate::error::{Error, Result};
use crate::nn::inspect::euclidean_norm as norm;
use crate::nn::{BlockStreams, TrainableGpt};

/// One block's medians.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct BlockStream {
    pub block: usize,
    /// ‖x‖ entering the block.
    pub stream_norm: f64,
    /// ‖what attention adds‖.
    pub attention_norm: f64,
    /// ‖what attention adds‖ / ‖x‖.
    pub attention_fraction: f64,
    /// ‖what the feed-forward adds‖.
    pub feed_forward_norm: f64,
    /// ‖what the feed-forward adds‖ / ‖the stream it read‖.
    pub feed_forward_fraction: f64,
    /// cos(x entering, x leaving).
    pub cosine_in_out: f64,
}

/// The medians for every block, and the norm of the stream the tables start it at.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StreamStats {
    pub embedding_norm: f64,
    /// Positions the medians are taken over.
    pub positions: usize,
    pub blocks: Vec<BlockStream>,
}

fn norm_of_difference(a: &[f32], b: &[f32]) -> f64 {
    a.iter().zip(b).map(|(&p, &q)| (p as f64 - q as f64).powi(2)).sum::<f64>().sqrt()
}

fn cosine(a: &[f32], b: &[f32]) -> f64 {
    let dot: f64 = a.iter().zip(b).map(|(&p, &q)| p as f64 * q as f64).sum();
    let n = norm(a) * norm(b);
    if n > 0.0 {
        dot / n
    } else {
        0.0
    }
}

/// The median (the mean of the middle two for an even count).
pub fn median(values: &mut [f64]) -> f64 {
    values.sort_unstable_by(f64::total_cmp);
    let n = values.len();
    match n {
        0 => f64::NAN,
        _ if n % 2 == 1 => values[n / 2],
        _ => (values[n / 2 - 1] + values[n / 2]) / 2.0,
    }
}

/// The stream's figures gathered a few windows at a time (so the work can be spread over several
/// calls), their medians taken at the end.
#[derive(Debug, Clone)]
pub struct StreamAccumulator {
    /// Per block: stream, attention, attention fraction, feed-forward, feed-forward fraction, cosine.
    per_block: Vec<[Vec<f64>; 6]>,
    embedding: Vec<f64>,
    inputs: Vec<usize>,
}

impl StreamAccumulator {
    /// For a model of `layers` blocks.
    pub fn new(layers: usize) -> StreamAccumulator {
        StreamAccumulator {
            per_block: vec![[(); 6].map(|_| Vec::new()); layers],
            embedding: Vec::new(),
            inputs: Vec::new(),
        }
    }

    /// Run the windows `group` (at most the model's batch; each P + 1 ids), every block intact, and
    /// keep every position's figures.
    pub fn add(&mut self, model: &mut TrainableGpt, group: &[&[usize]]) -> Result<()> {
        let (p, d) = (model.shape.context, model.shape.d_model);
        self.inputs.clear();
        group.iter().for_each(|w| self.inputs.extend_from_slice(&w[..p]));
        model.forward(&self.inputs, None, group.len(), p)?;
        for i in 0..self.per_block.len() {
            let s = model.block_streams(i).ok_or_else(|| {
                Error::field("blocks", "the stream is measured on the intact model: put every block back first")
            })?;
            self.push(i, s, d);
        }
        Ok(())
    }

    /// Keep the figures of every position of `s`, the stream around block `block` ([N, d] each).
    pub fn push(&mut self, block: usize, s: BlockStreams, d: usize) {
        let figures = &mut self.per_block[block];
        for n in 0..s.input.len() / d {
            let row = |x: &[f32]| -> Vec<f32> { x[n * d..(n + 1) * d].to_vec() };
            let (x, after_attn, ffn_in, after_ffn, out) = (
                row(s.input),
                row(s.after_attention),
                row(s.feed_forward_reads),
                row(s.after_feed_forward),
                row(s.output),
            );
            if block == 0 {
                self.embedding.push(norm(&x));
            }
            let (attn, ffn) = (norm_of_difference(&after_attn, &x), norm_of_difference(&after_ffn, &ffn_in));
            let (xn, ffn_in_n) = (norm(&x), norm(&ffn_in));
            for (k, value) in [xn, attn, attn / xn, ffn, ffn / ffn_in_n, cosine(&x, &out)].into_iter().enumerate() {
                figures[k].push(value);
            }
        }
    }

    /// The medians of everything added.
    pub fn finish(self) -> StreamStats {
        let positions = self.embedding.len();
        let mut embedding = self.embedding;
        let blocks = self
            .per_block
            .into_iter()
            .enumerate()
            .map(|(block, mut f)| BlockStream {
                block,
                stream_norm: median(&mut f[0]),
                attention_norm: median(&mut f[1]),
                attention_fraction: median(&mut f[2]),
                feed_forward_norm: median(&mut f[3]),
                feed_forward_fraction: median(&mut f[4]),
                cosine_in_out: median(&mut f[5]),
            })
            .collect();
        StreamStats { embedding_norm: median(&mut embedding), positions, blocks }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn medians_take_the_middle() {
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&mut [4.0, 1.0, 2.0, 3.0]), 2.5);
    }
}
