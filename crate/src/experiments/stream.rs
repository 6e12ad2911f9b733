//! The stream is a sum of small edits. For each block, over every position of a text (the
//! evaluation protocol's windows), the median of: the stream's norm entering the block; the norm of
//! what attention adds and of what the feed-forward adds, each also as a fraction of the norm of the
//! stream it read; and the cosine between the stream entering and leaving the block (1: the block
//! only nudged it). Medians, not means, so a few odd positions do not decide the figure.

use serde::Serialize;

use super::subject::Subject;
use crate::error::{Error, Result};
use crate::nn::inspect::euclidean_norm as norm;
use crate::nn::{BlockStreams, TrainableGpt};
use crate::train::evaluate::{check_windows, windows};

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

/// The figures for `ids`, every block intact, on TinyGPT or a checkpoint.
pub fn stream_stats<S: Subject + ?Sized>(model: &mut S, ids: &[usize]) -> Result<StreamStats> {
    check_windows(ids, model.window())?;
    let all: Vec<&[usize]> = windows(ids, model.window()).collect();
    let mut acc = StreamAccumulator::new(model.n_layers());
    model.gather_stream(&all, &mut acc)?;
    Ok(acc.finish())
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
pub(crate) mod tests {
    use super::*;
    use crate::nn::{GptShape, NormPlacement};

    /// Two blocks of width 8 over 11 symbols, 6 positions, non-trivial weights.
    pub fn small_model() -> TrainableGpt {
        let shape = GptShape {
            vocab_size: 11,
            context: 6,
            d_model: 8,
            n_layers: 2,
            n_heads: 2,
            d_ff: 16,
            attention_bias: false,
            norm: NormPlacement::Pre,
            eps: 1e-5,
        };
        TrainableGpt::with_random_weights(shape, 4, 11, 0.3)
    }

    #[test]
    fn medians_take_the_middle() {
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&mut [4.0, 1.0, 2.0, 3.0]), 2.5);
    }

    #[test]
    fn a_block_of_zeros_adds_nothing_and_leaves_the_stream_where_it_was() {
        let mut m = small_model();
        for t in m.shape.tensors().iter().filter(|t| t.name.starts_with("h.1.")) {
            m.params[t.offset..t.offset + t.len].fill(0.0);
        }
        let ids: Vec<usize> = (0..60).map(|i| (i * 5 + 1) % 11).collect();
        let s = stream_stats(&mut m, &ids).unwrap();
        assert_eq!(s.positions, 8 * 6, "60 symbols make 8 windows of 7, each feeding 6");
        let b = s.blocks[1];
        assert_eq!((b.attention_norm, b.feed_forward_norm, b.attention_fraction), (0.0, 0.0, 0.0));
        assert!((b.cosine_in_out - 1.0).abs() < 1e-12);
        // Block 0 does add something, and the stream entering block 1 is what block 0 left.
        assert!(s.blocks[0].attention_norm > 0.0 && s.blocks[0].cosine_in_out < 1.0);
        assert!(s.embedding_norm > 0.0 && s.blocks[0].stream_norm == s.embedding_norm);
    }
}
