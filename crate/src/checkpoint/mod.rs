//! Hugging Face decoder checkpoints (GPT-2, Llama, Mistral, Qwen2) for the lessons' experiments.
//!
//! - [`shards`]: the safetensors reader, over mapped files natively or buffers a page streamed in
//!   (every target).
//! - [`arriving`]: the page's shard files arriving in pieces into wasm memory (every target).
//! - [`tokenizer`]: the checkpoint's own tokenizer.json (natively; in wasm, in the checkpoint facade).
//! - [`opened`]: a checkpoint opened from its parts, whatever their source: config, shards checked
//!   against it, decoder and tokenizer (where the tokenizer is).
//! - `folder` (native only): a checkpoint directory opened whole.

pub mod arriving;
#[cfg(not(target_arch = "wasm32"))]
mod folder;
#[cfg(any(not(target_arch = "wasm32"), feature = "checkpoint-facade"))]
pub mod opened;
pub mod shards;
#[cfg(any(not(target_arch = "wasm32"), feature = "checkpoint-facade"))]
pub mod tokenizer;

#[cfg(not(target_arch = "wasm32"))]
pub use folder::is_checkpoint_dir;
#[cfg(any(not(target_arch = "wasm32"), feature = "checkpoint-facade"))]
pub use opened::{Checkpoint, MAX_WINDOW};

/// Whether config.json `text` is one `tblock train` wrote for a TinyGPT-shaped model (GPT-2's
/// model_type with TinyGPT's vocabulary), whose folder holds a vocab.json, rather than a Hugging Face
/// checkpoint's, which comes with its tokenizer.json. Unreadable text is not TinyGPT's.
pub fn is_tiny_gpt_config(text: &str) -> bool {
    let Ok(json) = serde_json::from_str::<serde_json::Value>(text) else { return false };
    let tiny = crate::config::ModelConfig::preset("tiny-gpt").map_or(50, |c| c.vocab_size);
    json["model_type"] == "gpt2" && json["vocab_size"].as_u64() == Some(tiny)
}
