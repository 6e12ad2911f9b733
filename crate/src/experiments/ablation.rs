//! Taking a block out. For each block in turn, the loss on a text (by the evaluation protocol) when
//! the block is removed, so the stream passes it untouched, and when it is overwritten: each of its
//! two adds becomes an assignment, x = attn(ln_1(x)) then x = mlp(ln_2(x)), so everything the stream
//! carried in is lost. The lesson quotes GPT-2 small: removal costs little for most blocks and a lot
//! for the first; overwriting is far worse than removing.

use serde::Serialize;

use super::check_text;
use crate::error::Result;
use crate::nn::{BlockMode, TrainableGpt};
use crate::train::evaluate::evaluate;

/// One block's two losses.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct BlockAblation {
    pub block: usize,
    /// The loss with this block removed.
    pub removed: f64,
    /// The loss with this block overwriting the stream.
    pub overwritten: f64,
}

/// The intact loss, the uniform guess's (ln V), and every block's removal and overwrite.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Ablation {
    pub intact: f64,
    pub uniform: f64,
    /// Scored positions, the same for every loss.
    pub tokens: usize,
    pub blocks: Vec<BlockAblation>,
}

/// Run the experiment on `ids` (the model's blocks are put back as they were afterwards).
pub fn ablate(model: &mut TrainableGpt, ids: &[usize]) -> Result<Ablation> {
    check_text(model, ids)?;
    let saved = std::mem::take(&mut model.block_modes);
    let n = model.shape.n_layers;
    let run = |model: &mut TrainableGpt, block: Option<(usize, BlockMode)>| {
        model.block_modes = vec![BlockMode::Intact; n];
        if let Some((i, mode)) = block {
            model.block_modes[i] = mode;
        }
        evaluate(model, ids)
    };
    let result = (|| {
        let intact = run(model, None)?;
        let blocks = (0..n)
            .map(|i| {
                Ok(BlockAblation {
                    block: i,
                    removed: run(model, Some((i, BlockMode::Removed)))?.loss,
                    overwritten: run(model, Some((i, BlockMode::Overwritten)))?.loss,
                })
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(Ablation {
            intact: intact.loss,
            uniform: (model.shape.vocab_size as f64).ln(),
            tokens: intact.tokens,
            blocks,
        })
    })();
    model.block_modes = if saved.len() == n { saved } else { vec![BlockMode::Intact; n] };
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiments::stream::tests::small_model;

    #[test]
    fn a_block_of_zeros_changes_nothing_when_removed_and_feeds_zeros_on_when_overwriting() {
        let mut m = small_model();
        // Block 1's weights all 0 (its gains too): each sublayer outputs 0 and adds nothing. The
        // final norm's bias 0 as well, so a stream of zeros gives logits of zeros.
        for t in m.shape.tensors().iter().filter(|t| t.name.starts_with("h.1.") || t.name == "ln_f.bias") {
            m.params[t.offset..t.offset + t.len].fill(0.0);
        }
        let ids: Vec<usize> = (0..60).map(|i| (i * 7 + 3) % 11).collect();
        let a = ablate(&mut m, &ids).unwrap();
        assert_eq!(a.blocks.len(), 2);
        assert_eq!(a.blocks[1].removed, a.intact, "removing a block that adds nothing changes nothing");
        // Overwritten, the zero block hands the final norm a stream of zeros: LayerNorm of zeros is its
        // bias, 0, so every logit is 0 and the loss is the uniform guess's.
        assert!((a.blocks[1].overwritten - a.uniform).abs() < 1e-6, "{} vs {}", a.blocks[1].overwritten, a.uniform);
        assert!((a.uniform - 11f64.ln()).abs() < 1e-12);
        assert_eq!(a.tokens, 8 * 6, "60 symbols make 8 windows of 7, each scoring 6");
        assert!(m.block_modes.iter().all(|&b| b == BlockMode::Intact), "the model is put back");
    }

    #[test]
    fn too_short_a_text_is_refused() {
        let mut m = small_model();
        assert_eq!(
            ablate(&mut m, &[1, 2, 3]).unwrap_err().to_string(),
            "text: has 3 symbols; at least one window of 7 is needed (the model reads 6 and predicts the next)"
        );
    }
}
