//! The transformer block: two sublayers around the residual stream. In GPT-2's order (pre-LN):
//!
//!   x = x + Attn(LN₁(x))      // the only stage that mixes positions
//!   x = x + FFN(LN₂(x))       // each position alone
//!
//! The switches are the lessons' experiments: each sublayer on or off, the residual `add` or
//! `overwrite` (x = f(x)), and the norm `pre` (GPT-2) or `post` (the original transformer:
//! x = LN(x + f(x))).
//!
//! [`TransformerBlock`] works on matrices, with every switch, for the worked examples; [`block_forward`]
//! and [`block_backward`] are the flat pair that training runs, for either norm placement, built from
//! the layers' own flat pairs (row-major buffers, outputs first).

use super::activation::{gelu_backward, gelu_forward};
use super::attention::{attention_backward, attention_forward, AttentionShape, MultiHeadAttention};
use super::feed_forward::FeedForward;
use super::linear::{linear_backward, linear_forward};
use super::norm::{layernorm_backward, layernorm_forward, LayerNorm};
use super::Matrix;
use crate::nn::init::Rng;

/// How a sublayer's output meets the stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Residual {
    /// x + f(x): an edit on top of the stream.
    #[default]
    Add,
    /// f(x): the stream is replaced.
    Overwrite,
}

impl Residual {
    /// The stream after a sublayer wrote `delta` to it: x + delta, or delta.
    pub fn apply(self, stream: &Matrix, delta: Matrix) -> Matrix {
        match self {
            Residual::Add => stream + delta,
            Residual::Overwrite => delta,
        }
    }
}

/// Where the norm sits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum NormPlacement {
    /// Inside the branch, x + f(LN(x)): the stream itself is never normalised (GPT-2).
    #[default]
    Pre,
    /// After the add, LN(x + f(x)): the stream is rescaled at every stage (the original transformer).
    Post,
}

/// The experiment switches of one block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Switches {
    pub attention: bool,
    pub feed_forward: bool,
    pub residual: Residual,
    pub norm: NormPlacement,
}

impl Default for Switches {
    fn default() -> Switches {
        Switches { attention: true, feed_forward: true, residual: Residual::Add, norm: NormPlacement::Pre }
    }
}

impl NormPlacement {
    /// "pre" or "post", as the command line and the page write it.
    pub fn name(self) -> &'static str {
        match self {
            NormPlacement::Pre => "pre",
            NormPlacement::Post => "post",
        }
    }

    pub fn parse(text: &str) -> crate::error::Result<NormPlacement> {
        match text.trim().to_ascii_lowercase().as_str() {
            "pre" => Ok(NormPlacement::Pre),
            "post" => Ok(NormPlacement::Post),
            _ => Err(crate::error::Error::field(
                "norm",
                format!("{:?} is not a norm placement: choose pre (GPT-2: x + f(LN(x))) or post (the original transformer: LN(x + f(x)))", crate::error::clip(text)),
            )),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct TransformerBlock {
    pub ln_1: LayerNorm,
    pub attn: MultiHeadAttention,
    pub ln_2: LayerNorm,
    pub mlp: FeedForward,
    pub switches: Switches,
}

impl TransformerBlock {
    /// GPT-2's initialisation for a block of width d with `n_heads` heads and a feed-forward of `hidden`.
    pub fn new(d: usize, n_heads: usize, hidden: usize, attention_bias: bool, eps: f32, rng: &mut Rng) -> Self {
        TransformerBlock {
            ln_1: LayerNorm::new(d, eps),
            attn: MultiHeadAttention::new(d, n_heads, attention_bias, true, rng),
            ln_2: LayerNorm::new(d, eps),
            mlp: FeedForward::new(d, hidden, rng),
            switches: Switches::default(),
        }
    }

    /// The stream [T, d] in, the stream [T, d] out: the same shape, so blocks stack.
    pub fn forward(&self, x: &Matrix) -> Matrix {
        let s = self.switches;
        let mut x = x.clone();
        if s.attention {
            x = Self::stage(&x, &self.ln_1, s, |h| self.attn.forward(h));
        }
        if s.feed_forward {
            x = Self::stage(&x, &self.ln_2, s, |h| self.mlp.forward(h));
        }
        x
    }

    /// One sublayer with its norm and residual, as the switches place them.
    fn stage(x: &Matrix, norm: &LayerNorm, s: Switches, f: impl Fn(&Matrix) -> Matrix) -> Matrix {
        match s.norm {
            NormPlacement::Pre => s.residual.apply(x, f(&norm.forward(x))),
            NormPlacement::Post => norm.forward(&s.residual.apply(x, f(x))),
        }
    }

    pub fn n_params(&self) -> usize {
        self.ln_1.n_params() + self.attn.n_params() + self.ln_2.n_params() + self.mlp.n_params()
    }
}

// -------------------------------------------------------------------------------------------------
// The flat pair

/// One block's weights (or their gradients) as slices of one flat buffer, in this order. Linear
/// weights are [out, in]. With no attention biases, `c_attn_bias` and `attn_proj_bias` are empty.
#[derive(Debug)]
pub struct BlockTensors<S> {
    pub ln_1_gain: S,        // [d]
    pub ln_1_bias: S,        // [d]
    pub c_attn_weight: S,    // [3d, d]
    pub c_attn_bias: S,      // [3d] or []
    pub attn_proj_weight: S, // [d, d]
    pub attn_proj_bias: S,   // [d] or []
    pub ln_2_gain: S,        // [d]
    pub ln_2_bias: S,        // [d]
    pub c_fc_weight: S,      // [f, d]
    pub c_fc_bias: S,        // [f]
    pub mlp_proj_weight: S,  // [d, f]
    pub mlp_proj_bias: S,    // [d]
}

/// The sizes one block works with: B sequences of T positions, width d, h heads, feed-forward f.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BlockShape {
    pub batch: usize,
    pub seq_len: usize,
    pub d_model: usize,
    pub n_heads: usize,
    pub d_ff: usize,
    pub attention_bias: bool,
    pub norm: NormPlacement,
    /// Add (the block edits the stream) or overwrite (the lessons' experiment: x = f(x) for each
    /// sublayer). Training uses Add only.
    pub residual: Residual,
    pub eps: f32,
}

impl BlockShape {
    /// N = B·T positions.
    pub fn positions(&self) -> usize {
        self.batch * self.seq_len
    }

    pub fn attention(&self) -> AttentionShape {
        AttentionShape {
            batch: self.batch,
            seq_len: self.seq_len,
            d_model: self.d_model,
            n_heads: self.n_heads,
            causal: true,
        }
    }

    /// The lengths of the tensors of [`BlockTensors`], in its order.
    pub fn tensor_lens(&self) -> [usize; 12] {
        let (d, f) = (self.d_model, self.d_ff);
        let b = usize::from(self.attention_bias);
        [d, d, 3 * d * d, b * 3 * d, d * d, b * d, d, d, f * d, f, d * f, d]
    }

    /// Where the stream leaving the block starts among its activations: res_2 (pre-LN) or ln_2
    /// (post-LN). It is N·d long.
    pub fn output_offset(&self) -> usize {
        let field = match self.norm {
            NormPlacement::Pre => 12, // res_2
            NormPlacement::Post => 7, // ln_2
        };
        self.activation_lens()[..field].iter().sum()
    }

    /// The lengths of the activations of [`BlockActivations`], in its order.
    pub fn activation_lens(&self) -> [usize; 13] {
        let (n, d, f) = (self.positions(), self.d_model, self.d_ff);
        let att = self.batch * self.n_heads * self.seq_len * self.seq_len;
        [n * d, n, n, n * 3 * d, att, n * d, n * d, n * d, n, n, n * f, n * f, n * d]
    }
}

/// What one block keeps from its forward pass for the backward pass, as slices of one flat buffer.
/// Pre-LN: ln_1 = LN₁(x), res_1 = x + attention, ln_2 = LN₂(res_1), res_2 = res_1 + feed-forward
/// (the output). Post-LN: res_1 = x + attention(x), ln_1 = LN₁(res_1), res_2 = ln_1 + feed-forward,
/// ln_2 = LN₂(res_2) (the output).
#[derive(Debug)]
pub struct BlockActivations<S> {
    pub ln_1: S,      // [N, d]
    pub ln_1_mean: S, // [N]
    pub ln_1_rstd: S, // [N]
    pub qkv: S,       // [N, 3d]
    pub att: S,       // [B, h, T, T]
    pub atty: S,      // [N, d]: the heads' outputs side by side, before attention's projection
    pub res_1: S,     // [N, d]
    pub ln_2: S,      // [N, d]
    pub ln_2_mean: S, // [N]
    pub ln_2_rstd: S, // [N]
    pub fch: S,       // [N, f]: the feed-forward's hidden layer before GELU
    pub fch_gelu: S,  // [N, f]
    pub res_2: S,     // [N, d]
}

/// The working space of [`block_backward`], reused by every block. Sized for the largest B·T.
#[derive(Debug, Clone, Default)]
pub struct BlockScratch {
    d_mid: Vec<f32>,      // [N, d]: the stream between the two sublayers
    d_sum: Vec<f32>,      // [N, d]: a norm's input (post-LN) or output (pre-LN)
    d_atty: Vec<f32>,     // [N, d]
    d_qkv: Vec<f32>,      // [N, 3d]
    d_fch: Vec<f32>,      // [N, f]
    d_fch_gelu: Vec<f32>, // [N, f]
    d_scores: Vec<f32>,   // [T]
}

impl BlockScratch {
    pub fn new(s: &BlockShape) -> BlockScratch {
        let (n, d, f) = (s.positions(), s.d_model, s.d_ff);
        BlockScratch {
            d_mid: vec![0.0; n * d],
            d_sum: vec![0.0; n * d],
            d_atty: vec![0.0; n * d],
            d_qkv: vec![0.0; n * 3 * d],
            d_fch: vec![0.0; n * f],
            d_fch_gelu: vec![0.0; n * f],
            d_scores: vec![0.0; s.seq_len],
        }
    }
}

fn bias(b: &[f32]) -> Option<&[f32]> {
    (!b.is_empty()).then_some(b)
}

fn bias_mut(b: &mut [f32]) -> Option<&mut [f32]> {
    (!b.is_empty()).then_some(b)
}

/// out = x + y, element by element (the residual add; its backward passes the gradient to both).
fn add_in_place(out: &mut [f32], x: &[f32]) {
    out.iter_mut().zip(x).for_each(|(o, x)| *o += x);
}

/// The stream x [N, d] through one block, filling `a` (see [`BlockActivations`] for what each holds).
pub fn block_forward(a: &mut BlockActivations<&mut [f32]>, x: &[f32], w: &BlockTensors<&[f32]>, s: &BlockShape) {
    let (d, f, eps) = (s.d_model, s.d_ff, s.eps);
    let pre = s.norm == NormPlacement::Pre;
    if pre {
        layernorm_forward(a.ln_1, a.ln_1_mean, a.ln_1_rstd, x, w.ln_1_gain, w.ln_1_bias, d, eps);
    }
    let attn_in: &[f32] = if pre { a.ln_1 } else { x };
    linear_forward(a.qkv, attn_in, w.c_attn_weight, bias(w.c_attn_bias), d, 3 * d);
    attention_forward(a.atty, a.att, a.qkv, s.attention());
    linear_forward(a.res_1, a.atty, w.attn_proj_weight, bias(w.attn_proj_bias), d, d);
    if s.residual == Residual::Add {
        add_in_place(a.res_1, x);
    }
    if pre {
        layernorm_forward(a.ln_2, a.ln_2_mean, a.ln_2_rstd, a.res_1, w.ln_2_gain, w.ln_2_bias, d, eps);
    } else {
        layernorm_forward(a.ln_1, a.ln_1_mean, a.ln_1_rstd, a.res_1, w.ln_1_gain, w.ln_1_bias, d, eps);
    }
    let (ffn_in, mid): (&[f32], &[f32]) = if pre { (a.ln_2, a.res_1) } else { (a.ln_1, a.ln_1) };
    linear_forward(a.fch, ffn_in, w.c_fc_weight, Some(w.c_fc_bias), d, f);
    gelu_forward(a.fch_gelu, a.fch);
    linear_forward(a.res_2, a.fch_gelu, w.mlp_proj_weight, Some(w.mlp_proj_bias), f, d);
    if s.residual == Residual::Add {
        add_in_place(a.res_2, mid);
    }
    if !pre {
        layernorm_forward(a.ln_2, a.ln_2_mean, a.ln_2_rstd, a.res_2, w.ln_2_gain, w.ln_2_bias, d, eps);
    }
}

/// The gradients of [`block_forward`] with residual adds: given dout [N, d] (of the block's output)
/// it writes dx [N, d] (of the block's input, overwritten) and accumulates (+=) the weights'
/// gradients into `g`.
#[allow(clippy::too_many_arguments)]
pub fn block_backward(
    dx: &mut [f32],
    g: &mut BlockTensors<&mut [f32]>,
    scratch: &mut BlockScratch,
    dout: &[f32],
    x: &[f32],
    w: &BlockTensors<&[f32]>,
    a: &BlockActivations<&[f32]>,
    s: &BlockShape,
) {
    let (n, d, f) = (s.positions(), s.d_model, s.d_ff);
    let BlockScratch { d_mid, d_sum, d_atty, d_qkv, d_fch, d_fch_gelu, d_scores } = scratch;
    let (d_mid, d_sum, d_atty) = (&mut d_mid[..n * d], &mut d_sum[..n * d], &mut d_atty[..n * d]);
    let (d_qkv, d_fch, d_fch_gelu) = (&mut d_qkv[..n * 3 * d], &mut d_fch[..n * f], &mut d_fch_gelu[..n * f]);
    let pre = s.norm == NormPlacement::Pre;

    // The feed-forward sublayer: d_ffn_out is the gradient of what it added to the stream.
    let d_ffn_out: &[f32] = if pre {
        dout
    } else {
        d_sum.fill(0.0);
        layernorm_backward(d_sum, g.ln_2_gain, g.ln_2_bias, dout, a.res_2, a.ln_2_mean, a.ln_2_rstd, w.ln_2_gain, d);
        d_sum
    };
    d_mid.copy_from_slice(d_ffn_out); // the residual passes it straight to the stream it read
    d_fch_gelu.fill(0.0);
    linear_backward(
        d_fch_gelu,
        g.mlp_proj_weight,
        Some(&mut *g.mlp_proj_bias),
        d_ffn_out,
        a.fch_gelu,
        w.mlp_proj_weight,
        f,
        d,
    );
    d_fch.fill(0.0);
    gelu_backward(d_fch, a.fch, d_fch_gelu);
    if pre {
        // FFN(LN₂(res_1)): back through LN₂ into d_mid (the gradient of res_1).
        let d_ln_2 = &mut d_atty[..]; // free until the attention part below
        d_ln_2.fill(0.0);
        linear_backward(d_ln_2, g.c_fc_weight, Some(&mut *g.c_fc_bias), d_fch, a.ln_2, w.c_fc_weight, d, f);
        layernorm_backward(d_mid, g.ln_2_gain, g.ln_2_bias, d_ln_2, a.res_1, a.ln_2_mean, a.ln_2_rstd, w.ln_2_gain, d);
    } else {
        // FFN(ln_1) reads the stream directly.
        linear_backward(d_mid, g.c_fc_weight, Some(&mut *g.c_fc_bias), d_fch, a.ln_1, w.c_fc_weight, d, f);
    }

    // The attention sublayer: d_attn_out is the gradient of what it added to the stream.
    let d_attn_out: &[f32] = if pre {
        d_mid
    } else {
        d_sum.fill(0.0);
        layernorm_backward(d_sum, g.ln_1_gain, g.ln_1_bias, d_mid, a.res_1, a.ln_1_mean, a.ln_1_rstd, w.ln_1_gain, d);
        d_sum
    };
    dx.copy_from_slice(d_attn_out); // the residual again
    d_atty.fill(0.0);
    linear_backward(
        d_atty,
        g.attn_proj_weight,
        bias_mut(g.attn_proj_bias),
        d_attn_out,
        a.atty,
        w.attn_proj_weight,
        d,
        d,
    );
    d_qkv.fill(0.0);
    attention_backward(d_qkv, d_scores, d_atty, a.qkv, a.att, s.attention());
    if pre {
        let d_ln_1 = &mut d_atty[..];
        d_ln_1.fill(0.0);
        linear_backward(d_ln_1, g.c_attn_weight, bias_mut(g.c_attn_bias), d_qkv, a.ln_1, w.c_attn_weight, d, 3 * d);
        layernorm_backward(dx, g.ln_1_gain, g.ln_1_bias, d_ln_1, x, a.ln_1_mean, a.ln_1_rstd, w.ln_1_gain, d);
    } else {
        linear_backward(dx, g.c_attn_weight, bias_mut(g.c_attn_bias), d_qkv, x, w.c_attn_weight, d, 3 * d);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block() -> (TransformerBlock, Matrix) {
        let mut rng = Rng::new(5);
        let b = TransformerBlock::new(16, 4, 64, false, 1e-5, &mut rng);
        let x = Matrix::from_row_slice(3, 16, &rng.normal_vec(48, 1.0));
        (b, x)
    }

    #[test]
    fn both_sublayers_off_returns_the_input_unchanged() {
        let (mut b, x) = block();
        b.switches.attention = false;
        b.switches.feed_forward = false;
        for residual in [Residual::Add, Residual::Overwrite] {
            for norm in [NormPlacement::Pre, NormPlacement::Post] {
                b.switches.residual = residual;
                b.switches.norm = norm;
                assert_eq!(b.forward(&x), x);
            }
        }
    }

    #[test]
    fn switches_change_the_computation_as_described() {
        let (mut b, x) = block();
        let pre_add = b.forward(&x);
        let h = &x + b.attn.forward(&b.ln_1.forward(&x));
        let expected = &h + b.mlp.forward(&b.ln_2.forward(&h));
        assert!((pre_add - expected).amax() < 1e-6);

        b.switches.residual = Residual::Overwrite;
        let h = b.attn.forward(&b.ln_1.forward(&x));
        let expected = b.mlp.forward(&b.ln_2.forward(&h));
        assert!((b.forward(&x) - expected).amax() < 1e-6);

        b.switches = Switches { norm: NormPlacement::Post, ..Switches::default() };
        let h = b.ln_1.forward(&(&x + b.attn.forward(&x)));
        let expected = b.ln_2.forward(&(&h + b.mlp.forward(&h)));
        assert!((b.forward(&x) - expected).amax() < 1e-6);
    }

    #[test]
    fn a_block_counts_its_own_weights() {
        // d = 32, 4d feed-forward, no attention biases: 12·1,024 + 160 + 128 (TinyGPT's block).
        let b = TransformerBlock::new(32, 4, 128, false, 1e-5, &mut Rng::new(0));
        assert_eq!(b.n_params(), 12_576);
    }
}
