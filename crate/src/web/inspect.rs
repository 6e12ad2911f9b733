//! Looking inside the character model: every intermediate of one forward pass over the reader's
//! text (each tensor a Float32Array with its shape, not a list of numbers), where each head looks
//! next character's distribution before and after the sampler.

use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::{char_model::CharModel, to_js};
use crate::nn::inspect::{Inspection, Tensor};
use crate::nn::NormPlacement;

/// What `inspect` returns besides its tensors, which are put in by their paths.
#[derive(Serialize)]
struct Meta<'a> {
    text: &'a str,
    symbols: &'a [String],
    ids: &'a [usize],
    unknown: &'a [usize],
    norm: NormPlacement,
    context: usize,
    longest_text: usize,
    layers: usize,
    heads: usize,
    blocks: Vec<BlockMeta>,
}

impl Meta<'_> {
    /// What `r` says besides its tensors (with each block's share of open GELU units, or no blocks).
    fn of(r: &Inspection, with_blocks: bool) -> Meta<'_> {
        Meta {
            text: &r.text,
            symbols: &r.symbols,
            ids: &r.ids,
            unknown: &r.unknown,
            norm: r.norm,
            context: r.context,
            longest_text: r.longest_text,
            layers: r.blocks.len(),
            heads: r.blocks.first().map_or(0, |b| b.weights.shape[0]),
            blocks: if with_blocks {
                r.blocks.iter().map(|b| BlockMeta { block: b.block, gelu_open_share: b.gelu_open_share }).collect()
            } else {
                Vec::new()
            },
        }
    }
}

#[derive(Serialize)]
struct BlockMeta {
    block: usize,
    gelu_open_share: f64,
}

/// `{ shape, data }`, data a Float32Array copied out of wasm memory.
fn tensor(t: &Tensor) -> JsValue {
    let object = js_sys::Object::new();
    let shape: js_sys::Array = t.shape.iter().map(|&n| JsValue::from(n as f64)).collect();
    let _ = js_sys::Reflect::set(&object, &"shape".into(), &shape);
    let _ = js_sys::Reflect::set(&object, &"data".into(), &js_sys::Float32Array::from(&t.data[..]));
    object.into()
}

/// Set `value` at a dotted `path` under `root`, making the objects on the way that are missing
/// (an index into a list that exists is followed).
fn put(root: &JsValue, path: &str, value: &JsValue) {
    let keys: Vec<&str> = path.split('.').collect();
    let mut here = root.clone();
    for key in &keys[..keys.len() - 1] {
        let k = JsValue::from_str(key);
        let next = js_sys::Reflect::get(&here, &k).unwrap_or(JsValue::UNDEFINED);
        here = if next.is_object() {
            next
        } else {
            let made: JsValue = js_sys::Object::new().into();
            let _ = js_sys::Reflect::set(&here, &k, &made);
            made
        };
    }
    let _ = js_sys::Reflect::set(&here, &JsValue::from_str(keys[keys.len() - 1]), value);
}

#[wasm_bindgen]
impl CharModel {
    /// Every intermediate of one forward pass over `text` (1 to `longest_text` characters: the
    /// model's context, 16 at most; a longer or empty text is refused with the limit): `{ text,
    /// symbols, ids, unknown, norm, context, longest_text, layers, heads, tokens, positions, embedded,
    /// blocks: [{ block, input, ln_1: { output, normalized, input_mean, input_spread,
    /// normalized_mean, normalized_spread }, q, k, v, scores, weights, heads, attention_output,
    /// after_attention, ln_2, hidden, hidden_gelu, feed_forward_output, output, stream_sizes: {
    /// input, after_attention_add, after_attention, after_feed_forward_add, output }, gelu_open,
    /// gelu_open_share }], ln_f, logits, probabilities }`, each tensor `{ shape, data: Float32Array }`
    /// (row-major).
    pub fn inspect(&mut self, text: &str) -> Result<JsValue, JsValue> {
        let vocab = self.vocab.clone();
        let r = self.flat()?.inspect(&vocab, text)?;
        let root = to_js(&Meta::of(&r, true))?;
        for (path, t) in r.tensors() {
            put(&root, &path, &tensor(t));
        }
        Ok(root)
    }

    /// Only what the attention maps need, for the same `text` (lighter to hand over than all of
    /// `inspect`): `{ text, symbols, ids, unknown, norm, context, longest_text, layers, heads,
    /// weights, scores }`, weights and scores `{ shape: [L, h, T, T], data: Float32Array }` (the
    /// scores before the mask and the softmax).
    pub fn attention(&mut self, text: &str) -> Result<JsValue, JsValue> {
        let vocab = self.vocab.clone();
        let r = self.flat()?.inspect(&vocab, text)?;
        let root = to_js(&Meta::of(&r, false))?;
        put(&root, "weights", &tensor(&r.attentions()));
        put(&root, "scores", &tensor(&r.scores()));
        Ok(root)
    }

    /// The next character after `text` (its last P characters, the model's context) before and
    /// after the sampler's settings (see `sample`): `{ symbols, model, tempered, kept, sampled,
    /// kept_count, order }`, one entry a character of the vocabulary (order: the ids from the
    /// likeliest down).
    pub fn next_distribution(
        &mut self,
        text: &str,
        temperature: f64,
        top_k: Option<f64>,
        top_p: Option<f64>,
    ) -> Result<JsValue, JsValue> {
        let sampling = self.sampling(temperature, top_k, top_p)?;
        let vocab = self.vocab.clone();
        let flat = self.flat()?;
        let ids = vocab.encode(text);
        if ids.is_empty() {
            return Err(crate::error::Error::out_of_range("text", "(empty)", "type at least one character").into());
        }
        let window = &ids[ids.len().saturating_sub(flat.shape.context)..];
        flat.forward(window, None, 1, window.len())?;
        let v = flat.shape.vocab_size;
        let logits = flat.logits();
        let d = sampling.distribution(&logits[logits.len() - v..]);
        let symbols: Vec<String> = (0..v).map(|i| vocab.decode(&[i])).collect();
        to_js(&serde_json::json!({
            "symbols": symbols, "model": d.model, "tempered": d.tempered, "kept": d.kept,
            "sampled": d.sampled, "kept_count": d.kept_count, "order": d.order,
        }))
    }
}
