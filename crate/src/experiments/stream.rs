//! The stream is a sum of small edits. For each block, over every position of a text (the
//! evaluation protocol's windows), the median of: the stream's norm entering the block; the norm of
//! what attention adds and of what the feed-forward adds, each also as a fraction of the norm of the
//! stream it read; and the cosine between the stream entering and leaving the block (1: the block
//! only nudged it). Medians, not means, so a few odd positions do not decide the figure.

pub use super::stream_figures::{median, BlockStream, StreamAccumulator, StreamStats};
use super::subject::Subject;
use crate::error::Result;
use crate::train::evaluate::{check_windows, windows};

/// The figures for `ids`, every block intact, on TinyGPT or a checkpoint.
pub fn stream_stats<S: Subject + ?Sized>(model: &mut S, ids: &[usize]) -> Result<StreamStats> {
    check_windows(ids, model.window())?;
    let all: Vec<&[usize]> = windows(ids, model.window()).collect();
    let mut acc = StreamAccumulator::new(model.n_layers());
    model.gather_stream(&all, &mut acc)?;
    Ok(acc.finish())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::nn::{GptShape, NormPlacement, TrainableGpt};

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
