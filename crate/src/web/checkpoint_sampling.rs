//! The sampling view on a real checkpoint (the checkpoint facade): the next token's likeliest at the
//! model's own vocabulary, before and after the sampler's settings (temperature, top-k, top-p: the
//! sampler TinyGPT's page and `tblock sample` use), and a continuation drawn a token a step, so
//! the page's worker posts each token and hears a Stop between two.
//!
//!   c.next_tokens(text, temperature, topK | undefined, topP | undefined, top)
//!     // { ids, pieces, kept_count, next: [{ id, piece, model, sampled, kept }] } (likeliest first)
//!   c.continuation_start(text, count, seed, temperature, topK | undefined, topP | undefined)
//!   c.continuation_step()   // { id, piece, text, reads_from, cut, context, done }: text, the
//!                           // continuation so far; reads_from, the first token the model read (from 1)
//!
//! Both read through a KV cache (experiments/continuation.rs): a text typed on, and each token
//! written after the first, run only the positions added.
//!   c.stop_continuation()

use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::checkpoint::{not_yet, text_ids, PageCheckpoint};
use super::{to_js, whole};
use crate::checkpoint::Checkpoint;
use crate::error::{Error, Result};
use crate::experiments::continuation::Continuation;
use crate::nn::page_threads::on_pool;
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
    /// The first token the model read for this one, counted from 1 (1: the whole text; past the
    /// model's context it reads its last half-context), whether this step cut there, and that context.
    reads_from: usize,
    cut: bool,
    context: usize,
    done: bool,
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
        // A text typed on from the last one reads only the tokens after the start they share.
        let (decoder, reading) = (&mut c.decoder, &mut self.reading);
        let logits = on_pool(|| decoder.cached_next_logits(reading, &ids))?;
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
        let context = c.decoder.shape.context;
        // The text's keys and values, as the next tokens last read them (a copy: Write on and typing
        // go on from the same text).
        let read = self.reading.clone();
        self.continuation = Some(Continuation::new(ids, count, sampling, seed, context).reusing(read));
        Ok(())
    }

    /// Draws the next token of the continuation, through its KV cache (past the model's context, the
    /// model reads the last half-context of tokens, and the step says from where).
    pub fn continuation_step(&mut self) -> std::result::Result<JsValue, JsValue> {
        let c = self.opened.as_mut().ok_or_else(|| not_yet("a continuation"))?;
        let none = || JsValue::from(Error::field("continuation", "none is under way: start one first"));
        let k = self.continuation.as_mut().ok_or_else(none)?;
        let decoder = &mut c.decoder;
        let step = on_pool(|| k.step(decoder))?.ok_or_else(none)?;
        let drawn = Drawn {
            id: step.id,
            piece: c.tokenizer.decode(&[step.id])?,
            text: c.tokenizer.decode(k.written())?,
            reads_from: step.reads_from + 1,
            cut: step.cut,
            context: c.decoder.shape.context,
            done: step.done,
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
