//! Encoder against decoder: the same block run with its causal flag off (every position sees every
//! position) and on (each sees only itself and the past), on the same input. Which (query, key) pairs
//! each may use, and which outputs move when one input token changes.

use serde::Serialize;

use super::gpt::TinyGpt;
use super::Matrix;
use crate::error::{Error, Result};
use crate::messages::{self, Phrase};

/// One block's side of the comparison.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MaskSide {
    /// allowed[query][key]
    pub allowed: Vec<Vec<bool>>,
    /// How many (query, key) pairs it may use: T² for an encoder, T(T+1)/2 for a decoder.
    pub pairs: usize,
    /// For each output position, whether it changed when the chosen token did.
    pub changed: Vec<bool>,
    /// For each output position, the largest absolute change.
    pub largest_change: Vec<f32>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MaskPatterns {
    pub n_tokens: usize,
    /// The position whose token was changed, and its old and new ids.
    pub changed_position: usize,
    pub old_id: usize,
    pub new_id: usize,
    pub encoder: MaskSide,
    pub decoder: MaskSide,
}

/// Run block 0 of `model` as an encoder and as a decoder on `ids`, then again with the token at
/// `position` replaced by `new_id`.
pub fn mask_patterns(model: &TinyGpt, ids: &[usize], position: usize, new_id: usize) -> Result<MaskPatterns> {
    model.check_ids(ids)?;
    if position >= ids.len() {
        return Err(Error::out_of_range(
            "position to change",
            position,
            Phrase::of(messages::POSITIONS_RUN).count("last", ids.len() - 1).count("count", ids.len()),
        ));
    }
    let mut changed_ids = ids.to_vec();
    changed_ids[position] = new_id;
    model.check_ids(&changed_ids)?;
    let (before, after) = (model.embed(ids)?, model.embed(&changed_ids)?);

    let side = |causal: bool| {
        let mut block = model.blocks[0].clone();
        block.attn.causal = causal;
        let t = ids.len();
        let allowed: Vec<Vec<bool>> = (0..t).map(|q| (0..t).map(|k| block.attn.allowed(q, k)).collect()).collect();
        let pairs = allowed.iter().flatten().filter(|&&a| a).count();
        let diff: Matrix = block.forward(&after) - block.forward(&before);
        let largest_change: Vec<f32> = diff.row_iter().map(|r| r.amax()).collect();
        let changed = largest_change.iter().map(|&c| c != 0.0).collect();
        MaskSide { allowed, pairs, changed, largest_change }
    };
    Ok(MaskPatterns {
        n_tokens: ids.len(),
        changed_position: position,
        old_id: ids[position],
        new_id,
        encoder: side(false),
        decoder: side(true),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_tokens_nine_pairs_against_six() {
        let m = TinyGpt::tiny(0);
        let p = mask_patterns(&m, &[3, 1, 4], 2, 7).unwrap();
        assert_eq!((p.encoder.pairs, p.decoder.pairs), (9, 6));
        assert!(p.decoder.allowed[0][0] && !p.decoder.allowed[0][1]);
    }

    #[test]
    fn a_later_token_moves_earlier_outputs_only_in_the_encoder() {
        let m = TinyGpt::tiny(0);
        let p = mask_patterns(&m, &[3, 1, 4, 1, 5], 4, 9).unwrap();
        assert_eq!(p.encoder.changed, vec![true; 5]);
        assert_eq!(p.decoder.changed, vec![false, false, false, false, true]);
    }

    #[test]
    fn positions_and_ids_are_checked() {
        let m = TinyGpt::tiny(0);
        assert_eq!(
            mask_patterns(&m, &[3, 1, 4], 3, 7).unwrap_err().to_string(),
            "position to change 3 is out of range: positions run from 0 to 2 for 3 tokens"
        );
        assert!(mask_patterns(&m, &[3, 1, 4], 0, 50).unwrap_err().to_string().starts_with("token id 50"));
    }
}
