//! The sampling view on a real checkpoint (the checkpoint facade): the next token's likeliest at the
//! model's own vocabulary, before and after the sampler's settings (temperature, top-k, top-p: the
//! sampler TinyGPT's page and `tblock sample` use), and a continuation drawn a token a step, so
//! the page's worker posts each token and hears a Stop between two.
//!
//!   c.next_tokens(text, temperature, topK | undefined, topP | undefined, top)
//!     // { ids, pieces, kept_count, next: [{ id, piece, model, sampled, kept }] } (likeliest first)
//!   c.continuation_start(text, count, seed, temperature, topK | undefined, topP | undefined)
//!   c.continuation_step()   // { id, piece, text, done }: text, the continuation so far
//!   c.stop_continuation()

use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::checkpoint::{not_yet, text_ids, PageCheckpoint};
use super::{to_js, whole};
use crate::checkpoint::Checkpoint;
use crate::error::{Error, Result};
use crate::nn::init::Rng;
use crate::train::sampler::Sampling;

/// The most tokens a continuation draws.
pub const MAX_CONTINUATION: usize = 64;

#[derive(Serialize)]
struct NextOption {
    id: usize,
    piece: String,
    /// The model's own probability (temperature 1).
    model: f64,
    /// What it is drawn with, after the settings (0 when they leave it out).
    sampled: f64,
    kept: bool,
}

#[derive(Serialize)]
struct NextView {
    ids: Vec<usize>,
    pieces: Vec<String>,
    /// Tokens the settings keep, of the whole vocabulary.
    kept_count: usize,
    next: Vec<NextOption>,
}

#[derive(Serialize)]
struct Drawn {
    id: usize,
    piece: String,
    /// The continuation so far, decoded whole.
    text: String,
    done: bool,
}

/// A continuation under way: the ids so far (the text's, then those drawn), the settings and the
/// random numbers they are drawn with.
#[derive(Debug)]
pub struct Continuation {
    ids: Vec<usize>,
    from: usize,
    left: usize,
    sampling: Sampling,
    rng: Rng,
}

/// The settings, checked against the model's vocabulary.
fn sampling(c: &Checkpoint, temperature: f64, top_k: Option<f64>, top_p: Option<f64>) -> Result<Sampling> {
    let top_k = top_k.map(|k| whole("top-k", k)).transpose()?;
    Sampling::new(temperature, top_k, top_p, c.decoder.shape.vocab_size)
}

#[wasm_bindgen]
impl PageCheckpoint {
    /// `text` as the tokenizer cuts it and the `top` likeliest next tokens by the model's own
    /// probabilities, each with its probability after the settings and whether they keep it.
    pub fn next_tokens(
        &mut self,
        text: &str,
        temperature: f64,
        top_k: Option<f64>,
        top_p: Option<f64>,
        top: f64,
    ) -> std::result::Result<JsValue, JsValue> {
        let top = whole("top", top)?.min(1000);
        let c = self.opened.as_mut().ok_or_else(|| not_yet("the next tokens"))?;
        let settings = sampling(c, temperature, top_k, top_p)?;
        let ids = text_ids(c, text)?;
        let logits = c.decoder.next_logits(&ids)?;
        let after = settings.distribution(&logits);
        let chosen: Vec<usize> = after.order.iter().copied().take(top).collect();
        let pieces = c.tokenizer.pieces(&chosen)?;
        let next = chosen
            .iter()
            .zip(pieces)
            .map(|(&id, piece)| NextOption {
                id,
                piece,
                model: after.model[id],
                sampled: after.sampled[id],
                kept: after.kept[id],
            })
            .collect();
        let pieces = c.tokenizer.pieces(&ids)?;
        to_js(&NextView { ids, pieces, kept_count: after.kept_count, next })
    }

    /// Begins a continuation of `text`: `count` tokens (1 to 64) drawn with the settings, from
    /// random numbers of `seed`. One under way is dropped.
    pub fn continuation_start(
        &mut self,
        text: &str,
        count: f64,
        seed: f64,
        temperature: f64,
        top_k: Option<f64>,
        top_p: Option<f64>,
    ) -> std::result::Result<(), JsValue> {
        self.continuation = None;
        let c = self.opened.as_ref().ok_or_else(|| not_yet("a continuation"))?;
        let count = whole("tokens to write", count)?;
        if !(1..=MAX_CONTINUATION).contains(&count) {
            return Err(Error::out_of_range("tokens to write", count, format!("1 to {MAX_CONTINUATION}")).into());
        }
        let seed = whole("seed", seed)? as u64;
        let sampling = sampling(c, temperature, top_k, top_p)?;
        let ids = text_ids(c, text)?;
        self.continuation = Some(Continuation { from: ids.len(), ids, left: count, sampling, rng: Rng::new(seed) });
        Ok(())
    }

    /// Draws the next token of the continuation (the model reads at most its context's last tokens).
    pub fn continuation_step(&mut self) -> std::result::Result<JsValue, JsValue> {
        let c = self.opened.as_mut().ok_or_else(|| not_yet("a continuation"))?;
        let k = self
            .continuation
            .as_mut()
            .ok_or_else(|| JsValue::from(Error::field("continuation", "none is under way: start one first")))?;
        let window = &k.ids[k.ids.len().saturating_sub(c.decoder.shape.context)..];
        let logits = c.decoder.next_logits(window)?;
        let id = k.sampling.draw(&logits, &mut k.rng);
        k.ids.push(id);
        k.left -= 1;
        let drawn = Drawn {
            id,
            piece: c.tokenizer.decode(&[id])?,
            text: c.tokenizer.decode(&k.ids[k.from..])?,
            done: k.left == 0,
        };
        if drawn.done {
            self.continuation = None;
        }
        to_js(&drawn)
    }

    /// Drops the continuation under way, if any (a Stop).
    pub fn stop_continuation(&mut self) {
        self.continuation = None;
    }
}
