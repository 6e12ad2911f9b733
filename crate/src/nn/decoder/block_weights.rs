//! Where a checkpoint's weights come from ([`WeightSource`]), what each family names them
//! ([`Names`]), and one block's weights read into reusable f32 buffers ([`BlockWeights`]), in the
//! layout the forward pass uses: every matrix [out, in], as nn.Linear stores it (GPT-2's Conv1D
//! [in, out] is transposed, and its fused c_attn split into q, k and v).

use std::ops::Range;

use super::super::decoder_shape::{DecoderShape, Layout};
use crate::error::Result;
use crate::nn::transpose::transpose_tiled;
use tb_kernels::product::Stored;

/// Where the weights come from, as f32 whatever the stored dtype.
pub trait WeightSource {
    /// Whether the checkpoint has a tensor of this name.
    fn contains(&self, name: &str) -> bool;
    /// The tensor `name`, which must have `shape`, row-major into `out` (resized to fit).
    fn read(&self, name: &str, shape: &[usize], out: &mut Vec<f32>) -> Result<()>;
    /// Rows `rows` of the 2-D tensor `name` of `cols` columns (its row count checked to be `n_rows`).
    fn read_rows(&self, name: &str, n_rows: usize, cols: usize, rows: Range<usize>, out: &mut Vec<f32>) -> Result<()>;
    /// The tensor `name`, which must have `shape`, as stored, in place (a mapped file's bytes), for
    /// the bf16 products to read without a copy; None from a source that holds no such bytes.
    fn stored(&self, name: &str, shape: &[usize]) -> Result<Option<Stored<'_>>> {
        let _ = (name, shape);
        Ok(None)
    }
    /// Whether GPT-2's Conv1D weights are held as nn.Linear's [out, in] (flipped once where the
    /// source holds its bytes in memory; their header keeps [in, out], which a read still names).
    fn conv1d_as_linear(&self) -> bool {
        false
    }
}

/// The names a checkpoint gives its tensors: its family's, after GPT-2's optional prefix.
pub(super) struct Names<'a> {
    pub shape: &'a DecoderShape,
    /// "transformer." when saved from GPT2LMHeadModel, "" on the hub; "" for other families.
    pub prefix: &'static str,
}

impl Names<'_> {
    /// The stored name of `tensor` (a name of [`DecoderShape`]'s, such as "wte.weight").
    pub fn of(&self, tensor: &str) -> String {
        match self.shape.layout {
            Layout::Gpt2 if !tensor.starts_with("lm_head") => format!("{}{tensor}", self.prefix),
            _ => tensor.to_string(),
        }
    }

    /// The stored name of `part` of block `i`.
    pub fn block(&self, i: usize, part: &str) -> String {
        self.of(&self.shape.block_tensor(i, part))
    }

    /// GPT-2's Conv1D weights of every block, each (name, rows, cols) as stored, [in, out]; none
    /// for other families.
    pub fn conv1d(&self) -> Vec<(String, usize, usize)> {
        let s = self.shape;
        if s.layout != Layout::Gpt2 {
            return Vec::new();
        }
        let (d, f) = (s.d_model, s.d_ff);
        let parts = [
            ("attn.c_attn.weight", d, 3 * d),
            ("attn.c_proj.weight", d, d),
            ("mlp.c_fc.weight", d, f),
            ("mlp.c_proj.weight", f, d),
        ];
        (0..s.n_layers).flat_map(|i| parts.map(|(part, rows, cols)| (self.block(i, part), rows, cols))).collect()
    }
}

/// One block's weights as the forward pass uses them, every matrix [out, in] (nn.Linear's layout;
/// GPT-2's Conv1D [in, out] is transposed on reading). Empty vectors where a family has no tensor.
#[derive(Debug, Default)]
pub(super) struct BlockWeights {
    pub norm_1: Vec<f32>,
    pub norm_1_bias: Vec<f32>,
    pub q: Vec<f32>,
    pub k: Vec<f32>,
    pub v: Vec<f32>,
    pub q_bias: Vec<f32>,
    pub k_bias: Vec<f32>,
    pub v_bias: Vec<f32>,
    pub out: Vec<f32>,
    pub out_bias: Vec<f32>,
    pub norm_2: Vec<f32>,
    pub norm_2_bias: Vec<f32>,
    /// SwiGLU's gate (empty for GPT-2).
    pub gate: Vec<f32>,
    /// GPT-2's c_fc, or SwiGLU's up.
    pub up: Vec<f32>,
    pub up_bias: Vec<f32>,
    pub down: Vec<f32>,
    pub down_bias: Vec<f32>,
    /// A tensor read before it is transposed or split.
    pub staging: Vec<f32>,
}

/// inp [rows, cols] -> out [cols, rows] (resized to fit).
fn transpose(out: &mut Vec<f32>, inp: &[f32], rows: usize, cols: usize) {
    out.clear();
    out.resize(rows * cols, 0.0);
    transpose_tiled(out, inp, rows, cols);
}

/// `from[j·n .. (j+1)·n]` into `to`.
fn slice_into(to: &mut Vec<f32>, from: &[f32], j: usize, n: usize) {
    to.clear();
    to.extend_from_slice(&from[j * n..(j + 1) * n]);
}

impl BlockWeights {
    /// Read block i's weights from `weights`, each checked to have the shape the config implies; its
    /// matrices only when `matrices` (the bf16 products read them in place instead).
    pub fn load(&mut self, i: usize, names: &Names, weights: &impl WeightSource, matrices: bool) -> Result<()> {
        let s = names.shape;
        let (d, f, qw, kw) = (s.d_model, s.d_ff, s.q_width(), s.kv_width());
        let read = |part: &str, shape: &[usize], out: &mut Vec<f32>| weights.read(&names.block(i, part), shape, out);
        match s.layout {
            Layout::Gpt2 => {
                read("ln_1.weight", &[d], &mut self.norm_1)?;
                read("ln_1.bias", &[d], &mut self.norm_1_bias)?;
                read("ln_2.weight", &[d], &mut self.norm_2)?;
                read("ln_2.bias", &[d], &mut self.norm_2_bias)?;
                read("attn.c_attn.bias", &[3 * d], &mut self.staging)?;
                for (j, b) in [&mut self.q_bias, &mut self.k_bias, &mut self.v_bias].into_iter().enumerate() {
                    slice_into(b, &self.staging, j, d);
                }
                read("attn.c_proj.bias", &[d], &mut self.out_bias)?;
                read("mlp.c_fc.bias", &[f], &mut self.up_bias)?;
                read("mlp.c_proj.bias", &[d], &mut self.down_bias)?;
                if !matrices {
                    return Ok(());
                }
                // c_attn [d, 3d] -> [3d, d]: rows 0..d are q's outputs, then k's, then v's (held
                // so already where the source flipped its Conv1D weights).
                let flipped = weights.conv1d_as_linear();
                let linear = |part: &str, rows: usize, cols: usize, out: &mut Vec<f32>, staging: &mut Vec<f32>| {
                    if flipped {
                        return read(part, &[rows, cols], out);
                    }
                    read(part, &[rows, cols], staging)?;
                    transpose(out, staging, rows, cols);
                    Ok(())
                };
                let mut fused = Vec::new();
                linear("attn.c_attn.weight", d, 3 * d, &mut fused, &mut self.staging)?;
                for (j, w) in [&mut self.q, &mut self.k, &mut self.v].into_iter().enumerate() {
                    slice_into(w, &fused, j, d * d);
                }
                linear("attn.c_proj.weight", d, d, &mut self.out, &mut self.staging)?;
                linear("mlp.c_fc.weight", d, f, &mut self.up, &mut self.staging)?;
                linear("mlp.c_proj.weight", f, d, &mut self.down, &mut self.staging)?;
            }
            Layout::Llama => {
                read("input_layernorm.weight", &[d], &mut self.norm_1)?;
                read("post_attention_layernorm.weight", &[d], &mut self.norm_2)?;
                if s.qkv_bias {
                    read("self_attn.q_proj.bias", &[qw], &mut self.q_bias)?;
                    read("self_attn.k_proj.bias", &[kw], &mut self.k_bias)?;
                    read("self_attn.v_proj.bias", &[kw], &mut self.v_bias)?;
                }
                if s.out_bias {
                    read("self_attn.o_proj.bias", &[d], &mut self.out_bias)?;
                }
                if !matrices {
                    return Ok(());
                }
                read("self_attn.q_proj.weight", &[qw, d], &mut self.q)?;
                read("self_attn.k_proj.weight", &[kw, d], &mut self.k)?;
                read("self_attn.v_proj.weight", &[kw, d], &mut self.v)?;
                read("self_attn.o_proj.weight", &[d, qw], &mut self.out)?;
                read("mlp.gate_proj.weight", &[f, d], &mut self.gate)?;
                read("mlp.up_proj.weight", &[f, d], &mut self.up)?;
                read("mlp.down_proj.weight", &[d, f], &mut self.down)?;
            }
        }
        Ok(())
    }
}
