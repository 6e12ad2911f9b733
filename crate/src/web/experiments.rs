//! The lessons' experiments on the character model, each in one call: the loss with a block removed
//! or overwritten, the whole ablation, the stream around each block and where each head looks, on
//! the reader's text or the held-out tail of the lesson prose. (measure.rs spreads the same
//! measurements over tasks.)

use wasm_bindgen::prelude::*;

use super::char_model::CharModel;
use super::{to_js, whole};
use crate::error::Error;
use crate::experiments::{ablation::ablate, heads::head_summaries, stream::stream_stats};
use crate::messages::{self, Phrase};
use crate::nn::{BlockMode, TrainableGpt};
use crate::train::Corpus;

impl CharModel {
    /// The model in flat buffers, with `text` as ids (default: the held-out tail of the lesson prose).
    pub(super) fn flat_and_text(&mut self, text: Option<String>) -> Result<(&mut TrainableGpt, Vec<usize>), Error> {
        let ids = match text {
            Some(t) => self.vocab.encode(&t),
            None => Corpus::lessons(&self.vocab, self.model.context()).held_out,
        };
        Ok((self.flat()?, ids))
    }
}

#[wasm_bindgen]
impl CharModel {
    /// The loss on `text` (default: the held-out tail) by the evaluation protocol, with block `block`
    /// "removed" or "overwritten", or every block "intact" (`block` is then ignored). One
    /// configuration a call, so a page can spread an experiment over several frames.
    pub fn loss(&mut self, mode: &str, block: f64, text: Option<String>) -> Result<JsValue, JsValue> {
        let n = self.model.blocks.len();
        let mode = BlockMode::parse(mode)?;
        let block = if mode == BlockMode::Intact { 0 } else { whole("block", block)? };
        if block >= n {
            return Err(
                Error::out_of_range("block", block, Phrase::of(messages::MODEL_BLOCKS).count("last", n - 1)).into()
            );
        }
        let (flat, ids) = self.flat_and_text(text)?;
        flat.block_modes = vec![BlockMode::Intact; n];
        flat.block_modes[block] = mode;
        let result = crate::train::evaluate::evaluate(flat, &ids);
        flat.block_modes = vec![BlockMode::Intact; n];
        to_js(&result?)
    }

    /// The whole ablation on `text` (default: the held-out tail): `{ intact, uniform, tokens,
    /// blocks: [{ block, removed, overwritten }] }`.
    pub fn ablation(&mut self, text: Option<String>) -> Result<JsValue, JsValue> {
        let (flat, ids) = self.flat_and_text(text)?;
        to_js(&ablate(flat, &ids)?)
    }

    /// The stream around each block on `text` (default: the held-out tail): `{ embedding_norm,
    /// positions, blocks: [{ block, stream_norm, attention_norm, attention_fraction, feed_forward_norm,
    /// feed_forward_fraction, cosine_in_out }] }`.
    pub fn stream(&mut self, text: Option<String>) -> Result<JsValue, JsValue> {
        let (flat, ids) = self.flat_and_text(text)?;
        to_js(&stream_stats(flat, &ids)?)
    }

    /// Where each head looks over `text` (default: the held-out tail of the lesson prose): `{
    /// queries, windows, heads: [{ block, head, previous, same, first, entropy, uniform_entropy }],
    /// standouts: { previous, same, first, focused, broadest } }`.
    pub fn head_summaries(&mut self, text: Option<String>) -> Result<JsValue, JsValue> {
        let (flat, ids) = self.flat_and_text(text)?;
        to_js(&head_summaries(flat, &ids)?)
    }
}
