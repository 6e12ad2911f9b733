//! The shape of a GPT-2-style model as the flat buffers see it: its sizes, the layout of every
//! parameter in one buffer (by Hugging Face name), how many numbers it has, and how much memory a
//! [`TrainableGpt`](super::TrainableGpt) of it takes.
//!
//! Parameter layout: wte [V, d], wpe [P, d], then each block's tensors in [`BlockTensors`](super::block::BlockTensors)
//! order (linear weights as [out, in]), then ln_f's gain [d] and bias [d].

use super::block::{BlockShape, NormPlacement, Residual, Switches};
use super::gpt::TinyGpt;
use crate::config::ModelConfig;
use crate::error::{Error, Result};

/// The most memory a [`TrainableGpt`] may take (256 MiB): [`TrainableGpt::from_model`] refuses a
/// model that needs more, with a message, rather than ask for an allocation that aborts the program
/// (or, in a page, the wasm instance). The largest run the training settings allow takes 150 MiB,
/// the lessons' TinyGPT 2 MiB for 16 windows at once; a checkpoint of a long context need not fit
/// (attention keeps B·h·P² numbers in every block: GPT-2 small takes 2.7 GiB for one sequence).
pub const MAX_WORKING_MEMORY: u64 = 256 << 20;

/// The shape of a GPT-2-style model: everything the flat buffers' layout depends on.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GptShape {
    pub vocab_size: usize,
    /// P: rows of the position table, the longest sequence.
    pub context: usize,
    pub d_model: usize,
    pub n_layers: usize,
    pub n_heads: usize,
    pub d_ff: usize,
    pub attention_bias: bool,
    pub norm: NormPlacement,
    pub eps: f32,
}

/// Where one tensor sits in the flat buffer, and what it is called in a Hugging Face GPT-2 checkpoint.
#[derive(Debug, Clone, PartialEq)]
pub struct TensorInfo {
    /// Its Hugging Face GPT-2 name ("h.0.attn.c_attn.weight").
    pub name: String,
    /// Its shape as stored here: [out, in] for a linear weight, [rows, d] for a table, [n] otherwise.
    pub shape: Vec<usize>,
    pub offset: usize,
    pub len: usize,
    /// A linear layer's weight matrix (stored transposed from the checkpoint's [in, out]).
    pub linear: bool,
}

impl TensorInfo {
    /// Matrices (the tables and the linear weights) get weight decay; gains and biases do not.
    pub fn is_matrix(&self) -> bool {
        self.shape.len() == 2
    }
}

/// The names of [`BlockTensors`]' fields in the checkpoint, in order, and whether each is a linear weight.
const BLOCK_TENSOR_NAMES: [(&str, bool); 12] = [
    ("ln_1.weight", false),
    ("ln_1.bias", false),
    ("attn.c_attn.weight", true),
    ("attn.c_attn.bias", false),
    ("attn.c_proj.weight", true),
    ("attn.c_proj.bias", false),
    ("ln_2.weight", false),
    ("ln_2.bias", false),
    ("mlp.c_fc.weight", true),
    ("mlp.c_fc.bias", false),
    ("mlp.c_proj.weight", true),
    ("mlp.c_proj.bias", false),
];

impl GptShape {
    /// The shape of a running model (which must have every switch at its default but the norm's place).
    pub fn of(m: &TinyGpt) -> Result<GptShape> {
        let first = m.blocks.first().ok_or_else(|| Error::field("n_layers", "the model has no blocks"))?;
        let norm = first.switches.norm;
        let plain = Switches { norm, ..Switches::default() };
        if m.blocks.iter().any(|b| b.switches != plain || !b.attn.causal) {
            return Err(Error::field(
                "switches",
                "only a causal model with both sublayers on, residual adds and one norm placement for every block can be trained",
            ));
        }
        Ok(GptShape {
            vocab_size: m.vocab_size(),
            context: m.context(),
            d_model: m.wte.ncols(),
            n_layers: m.blocks.len(),
            n_heads: first.attn.n_heads,
            d_ff: first.mlp.c_fc.outputs(),
            attention_bias: first.attn.c_attn.bias.is_some(),
            norm,
            eps: first.ln_1.eps,
        })
    }

    pub fn block(&self, batch: usize, seq_len: usize) -> BlockShape {
        BlockShape {
            batch,
            seq_len,
            d_model: self.d_model,
            n_heads: self.n_heads,
            d_ff: self.d_ff,
            attention_bias: self.attention_bias,
            norm: self.norm,
            residual: Residual::Add,
            eps: self.eps,
        }
    }

    pub(crate) fn block_len(&self) -> usize {
        self.block(1, 1).tensor_lens().iter().sum()
    }

    pub(crate) fn block_offset(&self, i: usize) -> usize {
        (self.vocab_size + self.context) * self.d_model + i * self.block_len()
    }

    /// Every parameter, the tied table once.
    pub fn n_params(&self) -> usize {
        self.block_offset(self.n_layers) + 2 * self.d_model
    }

    /// The bytes a [`TrainableGpt`] of this shape takes for `max_batch` sequences of P at once:
    /// parameters and gradients, every block's activations (attention's B·h·P² weights among them),
    /// the final norm, the logits and losses, the backward pass's working space, 4 bytes a number
    /// and 8 an id. In f64, so a shape of any size has an answer.
    pub fn working_memory(&self, max_batch: usize) -> f64 {
        let [b, p, d, f, v, h, l] =
            [max_batch, self.context, self.d_model, self.d_ff, self.vocab_size, self.n_heads, self.n_layers]
                .map(|x| x as f64);
        let biases = if self.attention_bias { 4.0 * d } else { 0.0 };
        let params = (v + p) * d + l * (4.0 * d * d + 2.0 * d * f + f + 5.0 * d + biases) + 2.0 * d;
        let n = b * p;
        let block = 8.0 * n * d + 4.0 * n + 2.0 * n * f + b * h * p * p;
        let numbers = 2.0 * params + l * block + 11.0 * n * d + 3.0 * n + 3.0 * n * v + 2.0 * n * f + p;
        4.0 * numbers + 16.0 * n
    }

    /// Every tensor of the flat buffer, in order.
    pub fn tensors(&self) -> Vec<TensorInfo> {
        let (v, p, d, f) = (self.vocab_size, self.context, self.d_model, self.d_ff);
        let mut out = Vec::new();
        let mut offset = 0;
        let mut push = |name: String, shape: Vec<usize>, linear: bool| {
            let len = shape.iter().product();
            out.push(TensorInfo { name, shape, offset, len, linear });
            offset += len;
        };
        push("wte.weight".into(), vec![v, d], false);
        push("wpe.weight".into(), vec![p, d], false);
        let b = usize::from(self.attention_bias);
        for i in 0..self.n_layers {
            let shapes: [Vec<usize>; 12] = [
                vec![d],
                vec![d],
                vec![3 * d, d],
                vec![3 * d * b],
                vec![d, d],
                vec![d * b],
                vec![d],
                vec![d],
                vec![f, d],
                vec![f],
                vec![d, f],
                vec![d],
            ];
            for ((name, linear), shape) in BLOCK_TENSOR_NAMES.iter().zip(shapes) {
                if shape != [0] {
                    push(format!("h.{i}.{name}"), shape, *linear);
                }
            }
        }
        push("ln_f.weight".into(), vec![d], false);
        push("ln_f.bias".into(), vec![d], false);
        out
    }

    /// The model config of this shape (GPT-2-shaped, tied, learned positions).
    pub fn model_config(&self) -> ModelConfig {
        let mut c = ModelConfig::preset("tiny-gpt").expect("the tiny-gpt preset exists");
        let lesson = (c.vocab_size, c.context, c.d_model, c.n_layers, c.n_heads, c.d_ff)
            == (
                self.vocab_size as u64,
                self.context as u64,
                self.d_model as u64,
                self.n_layers as u64,
                self.n_heads as u64,
                self.d_ff as u64,
            );
        if !lesson || self.attention_bias {
            c.name = format!("tiny-gpt-{}x{}", self.n_layers, self.d_model);
            c.label = format!("TinyGPT, {} blocks of width {}", self.n_layers, self.d_model);
        }
        c.vocab_size = self.vocab_size as u64;
        c.context = self.context as u64;
        c.d_model = self.d_model as u64;
        c.n_layers = self.n_layers as u64;
        c.n_heads = self.n_heads as u64;
        c.n_kv_heads = self.n_heads as u64;
        c.head_dim = (self.d_model / self.n_heads) as u64;
        c.d_ff = self.d_ff as u64;
        // Seven significant digits, what an f32 holds (1e-5, not 9.999999747378752e-6), by arithmetic:
        // formatting and parsing floats would add their tables to the wasm.
        let e = self.eps as f64;
        let scale = 10f64.powi(6 - e.abs().log10().floor() as i32); // exact for the exponents an eps has
        c.norm_eps = if e > 0.0 && scale.is_finite() { (e * scale).round() / scale } else { e };
        c.bias.qkv = self.attention_bias;
        c.bias.attention_out = self.attention_bias;
        c
    }
}
