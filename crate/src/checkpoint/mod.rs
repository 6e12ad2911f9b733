//! Hugging Face decoder checkpoints (GPT-2, Llama, Mistral, Qwen2) for the lessons' experiments.
//!
//! - [`shards`]: the safetensors reader, over mapped files natively or buffers a page streamed in
//!   (every target).
//! - `folder` (native only): a checkpoint directory opened whole ([`Checkpoint`]): config, mapped
//!   shards, tokenizer and decoder.
//! - `tokenizer` (native only, for now): the checkpoint's own tokenizer.json.

#[cfg(not(target_arch = "wasm32"))]
mod folder;
pub mod shards;
#[cfg(not(target_arch = "wasm32"))]
pub mod tokenizer;

#[cfg(not(target_arch = "wasm32"))]
pub use folder::{is_checkpoint_dir, Checkpoint, MAX_WINDOW};
