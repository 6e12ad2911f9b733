//! transformer-block: the numbers behind the lessons on the transformer block.
//!
//! - [`config`]: what a decoder is made of ([`ModelConfig`]), the named presets, and the import of a
//!   Hugging Face `config.json`.
//! - [`count`]: parameters by component, tensor shapes at a batch and sequence length, memory.
//! - [`cost`]: FLOPs per token, training cost, and when attention outgrows the linear layers.
//! - [`checkpoint`]: Hugging Face decoder checkpoints: the safetensors reader on every target; a
//!   directory memory-mapped, with its tokenizer, natively.
//! - [`embed`]: the HTML snippet an author pastes to show a model (`tblock count … --format html`).
//! - [`web`]: the WebAssembly facade, the only place that speaks to JavaScript.

pub mod bench;
pub mod checkpoint;
pub mod config;
pub mod cost;
pub mod count;
pub mod digits;
pub mod embed;
pub mod error;
pub mod examples;
pub mod experiments;
pub mod formula;
pub mod messages;
pub mod nn;
pub mod numbers;
pub mod report;
pub mod train;
pub mod web;

pub use config::ModelConfig;
pub use error::Error;
pub use report::Report;
