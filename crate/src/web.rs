//! The WebAssembly facade: the only file with `#[wasm_bindgen]`. Thin by design: it parses what
//! JavaScript passes, calls the library, and returns plain objects. Every library error becomes a
//! `JsError` through wasm-bindgen's `From<E: std::error::Error>` (the `?` below), carrying the
//! library's message, which says what is allowed.

use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::config::ModelConfig;
use crate::numbers::whole_number;
use crate::report::Report;

fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsError> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| JsError::new(&format!("internal error while returning a result: {e}")))
}

/// The presets, in switcher order: `[{ name, label, family, vocab_size, d_model, ... }]`.
#[wasm_bindgen]
pub fn presets() -> Result<JsValue, JsError> {
    to_js(&ModelConfig::presets())
}

/// Everything about one model at sequence length `seq_len` and batch `batch` (see `Report`).
/// `model` is a preset key or the text of a Hugging Face config.json.
#[wasm_bindgen]
pub fn count(model: &str, seq_len: f64, batch: f64) -> Result<JsValue, JsError> {
    let config = ModelConfig::from_preset_or_json(model)?;
    let seq_len = whole_number("seq_len", seq_len)?;
    let batch = whole_number("batch", batch)?;
    to_js(&Report::new(&config, seq_len, batch)?)
}
