//! What learning needs beyond the layers (whose forward and backward passes are in [`crate::nn`]):
//!
//! - [`corpus`]: the text as ids (by default the lesson page's own prose), its held-out tail, and
//!   seeded batches.
//! - [`evaluate`]: the one evaluation protocol every loss is measured by.
//! - [`baselines`]: the uniform, unigram and bigram losses a model is measured against.
//! - [`optimizer`]: AdamW, gradient clipping, warmup and cosine learning rates.
//! - [`settings`]: what a run is set by, its defaults and its limits.
//! - [`trainer`]: the loop, one step at a time.
//! - [`sampler`]: how the next symbol is drawn: temperature, top-k, top-p (one sampler everywhere).
//!   `likeliest`: its draw over a checkpoint's vocabulary, which orders only the tokens it can keep.
//! - [`sample`]: writing text with a model, and its next-symbol probabilities.
//! - [`shipped`]: the trained TinyGPT the page ships.
//! - [`model_files`]: a trained model as the files `tblock train` writes, with the page's size limit.

pub mod baselines;
pub mod corpus;
pub mod evaluate;
#[cfg(any(feature = "checkpoint-facade", not(target_arch = "wasm32")))]
mod likeliest;
pub mod model_files;
pub mod optimizer;
pub mod sample;
pub mod sampler;
pub mod settings;
pub mod shipped;
pub mod trainer;

pub use crate::nn::vocabulary::Vocabulary;
pub use baselines::ReferenceLosses;
pub use corpus::Corpus;
pub use evaluate::{evaluate, Evaluation};
pub use settings::TrainSettings;
pub use trainer::{StepReport, Trainer};
