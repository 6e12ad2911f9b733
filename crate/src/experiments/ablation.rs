//! Taking a block out. For each block in turn, the loss on a text (by the evaluation protocol) when
//! the block is removed, so the stream passes it untouched, and when it is overwritten: each of its
//! two adds becomes an assignment, x = attn(ln_1(x)) then x = mlp(ln_2(x)), so everything the stream
//! carried in is lost. The lesson quotes GPT-2 small: removal costs little for most blocks and a lot
//! for the first; overwriting is far worse than removing.

use serde::Serialize;

use super::subject::Subject;
use crate::error::Result;
use crate::train::evaluate::{check_windows, mean_loss, windows};

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

/// Run the experiment on `ids`, on TinyGPT or a checkpoint (every block is intact afterwards).
pub fn ablate<S: Subject + ?Sized>(model: &mut S, ids: &[usize]) -> Result<Ablation> {
    let p = model.window();
    check_windows(ids, p)?;
    let all: Vec<&[usize]> = windows(ids, p).collect();
    let (intact, sums) = model.ablation_sums(&all)?;
    Ok(Ablation::from_sums(intact, &sums, all.len(), p, model.vocab_size()))
}

impl Ablation {
    /// The losses from the summed losses over `n_windows` windows of `p` positions: `intact`, and
    /// (removed, overwritten) a block each; `vocab`: V, for the uniform guess.
    pub fn from_sums(intact: f64, sums: &[(f64, f64)], n_windows: usize, p: usize, vocab: usize) -> Ablation {
        let loss = |sum: f64| mean_loss(sum, n_windows, p);
        let blocks = sums
            .iter()
            .enumerate()
            .map(|(block, &(removed, overwritten))| BlockAblation {
                block,
                removed: loss(removed).loss,
                overwritten: loss(overwritten).loss,
            })
            .collect();
        let intact = loss(intact);
        Ablation { intact: intact.loss, uniform: (vocab as f64).ln(), tokens: intact.tokens, blocks }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiments::stream::tests::small_model;
    use crate::nn::BlockMode;

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
