//! What every facade answers about a widget's weights-src folder before anything is read from it:
//! which kind of model its config.json describes, and the most bytes a real checkpoint may have.

use wasm_bindgen::prelude::*;

/// What a weights-src folder's config.json (`text`) is: "tiny-gpt" (a model `tblock train` wrote,
/// read by the character model) or "checkpoint" (a Hugging Face checkpoint, for the checkpoint worker).
#[wasm_bindgen]
pub fn config_kind(text: &str) -> String {
    if crate::checkpoint::is_tiny_gpt_config(text) { "tiny-gpt" } else { "checkpoint" }.to_string()
}

/// The most bytes of weights a Hugging Face checkpoint may have in the page (the checkpoint
/// worker refuses more before reading them), for the sentences that name it.
#[wasm_bindgen]
pub fn page_checkpoint_limit() -> f64 {
    crate::checkpoint::arriving::CHECKPOINT_LIMIT as f64
}
