//! TinyGPT: a real, running GPT, one concept a file, read bottom-up.
//!
//! - [`vocabulary`]: its 50 character symbols, read from `crate/data/vocab.json`.
//! - [`init`]: the seeded random numbers behind GPT-2's initialisation.
//! - [`activation`]: GELU (the tanh form) and softmax (from the kernels crate, `tb_kernels`).
//! - [`embedding`], [`loss`]: the token and position tables, and cross-entropy, as flat pairs (ditto).
//! - [`linear`]: y = x·W + b, with W stored input x output as GPT-2's Conv1D does.
//! - [`norm`]: LayerNorm, one position at a time.
//! - [`attention`]: multi-head self-attention with a causal flag.
//! - [`feed_forward`]: d -> 4d -> d with GELU.
//! - [`block`]: the transformer block, with the switches the lessons' experiments need.
//! - [`moe`]: a mixture of experts: a router and feed-forward experts, top-k.
//! - [`gpt`]: the whole model: tables, blocks, final norm, tied output.
//! - [`gpt_shape`], [`trainable`]: the same model in flat buffers (llm.c's shape), as training runs it.
//! - [`inspect`]: every intermediate of one forward pass over a text, as the flat model computed it.
//! - [`weights`]: safetensors in and out, with Hugging Face GPT-2 tensor names.
//! - [`masks`]: an encoder block against a decoder block on the same input.
//!
//! Real checkpoints (GPT-2, Llama, Mistral, Qwen2), inference only, on the same kernels:
//! [`rms_norm`], [`rotary`] positions, [`swiglu`], grouped-query attention ([`gqa_attention`]), the
//! family conventions and tensor names ([`decoder_shape`]), the forward pass ([`decoder`]), and what its
//! linear layers multiply in ([`compute`]).
//!
//! Activations are matrices with one row per position: the stream is [T, d].

pub mod attention;
pub mod block;
pub mod compute;
pub mod decoder;
pub mod decoder_shape;
pub mod feed_forward;
pub mod gpt;
pub mod gpt_shape;
pub mod gqa_attention;
#[cfg(not(target_arch = "wasm32"))]
pub mod gqa_blocked;
pub mod init;
pub mod inspect;
pub mod linear;
pub mod masks;
pub mod moe;
pub mod norm;
pub mod page_threads;
pub mod parallel;
pub mod rms_norm;
pub mod rotary;
pub mod stored_forward;
pub mod swiglu;
pub mod trainable;
mod trainable_model;
pub mod transpose;
pub mod vocabulary;
pub mod weights;

// The flat kernels that live in their own crate (built at opt-level 3 while this one is built for
// size; see kernels/src/lib.rs), under the names they always had here.
pub use tb_kernels::{activation, embedding, loss};

/// A matrix of activations or weights: rows x columns, column-major (nalgebra's layout).
pub type Matrix = nalgebra::DMatrix<f32>;
/// A bias or a gain: one number per column.
pub type RowVector = nalgebra::RowDVector<f32>;

pub use attention::MultiHeadAttention;
pub use block::{NormPlacement, Residual, Switches, TransformerBlock};
pub use feed_forward::FeedForward;
pub use gpt::TinyGpt;
pub use gpt_shape::{GptShape, TensorInfo, MAX_WORKING_MEMORY};
pub use inspect::Inspection;
pub use moe::MixtureOfExperts;
pub use norm::LayerNorm;
pub use trainable::{BlockMode, BlockStreams, TrainableGpt};
