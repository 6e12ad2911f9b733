//! One block of a checkpoint's forward pass on the stream [T, d]: norm, q/k/v (rotated for rotary
//! families), attention, the output projection added (or, overwritten, in place of the stream);
//! norm, the feed-forward (GELU or SwiGLU), added. The linear layers multiply in the decoder's
//! compute; with a [`LayerCache`], the T rows are new positions reading the cached ones too.

use super::activations::sized;
use super::block_weights::Names;
use super::kv_cache::LayerCache;
use super::matrices::Matrices;
use super::{Decoder, WeightSource};
use crate::error::Result;
use crate::nn::decoder_shape::Layout;
use crate::nn::gqa_attention::{gqa_attention_from, GqaShape};
use crate::nn::parallel::{attention_on, linear_forward_on, product_on, Compute};
use crate::nn::rotary::Rotary;
use crate::nn::stored_forward::stored_forward_on;
use crate::nn::swiglu::swiglu_in_place;
use crate::nn::BlockMode;
use tb_kernels::activation::gelu_in_place;
use tb_kernels::product::{BfRows, StoredMatrix};

/// A bias, or None where the family has none (an empty buffer).
fn opt(b: &[f32]) -> Option<&[f32]> {
    if b.is_empty() {
        None
    } else {
        Some(b)
    }
}

impl<W: WeightSource> Decoder<W> {
    /// Block i on act.x [T, d], its weights loaded: act.after_attention and act.output filled.
    /// With `past` (block i's keys and values of the positions before these T, which this call
    /// extends with theirs), the T rows are the positions after those, and attend to them too.
    pub(super) fn block_forward(
        &mut self,
        i: usize,
        t: usize,
        mode: BlockMode,
        angles: Option<&(Vec<f32>, Vec<f32>)>,
        mut past: Option<&mut LayerCache>,
    ) -> Result<()> {
        let s = &self.shape;
        let (d, f, qw, kw, eps) = (s.d_model, s.d_ff, s.q_width(), s.kv_width(), s.eps);
        let names = Names { shape: s, prefix: self.prefix };
        // The matrices in the mapped file when the products read them there; else, for the bf16
        // products, the f32 copies as matrices too; for the f32 ones, None (the copies as they are).
        let bf16 = self.compute == Compute::Bf16;
        let matrices = if self.reads_in_place() {
            Matrices::in_place(i, &names, &self.weights)?
        } else if bf16 {
            Some(Matrices::copied(&self.block, &names))
        } else {
            None
        };
        let (w, a) = (&self.block, &mut self.act);
        // out = inp · weightᵀ + bias on the decoder's threads: in bf16 the bf16 products on inp rounded;
        // in f32 faer on the matrix in place, or the decoder's kernel on the f32 copy.
        let (kernel, threads, isa) = (self.kernel, self.threads, self.isa);
        let widened = &a.widened;
        let linear = |out: &mut [f32],
                      inp: &[f32],
                      rounded: &BfRows,
                      m: Option<&StoredMatrix>,
                      weight: &[f32],
                      bias,
                      c_in,
                      c_out| match m {
            Some(m) if bf16 => product_on(isa, threads, out, rounded, m, bias),
            Some(m) => stored_forward_on(threads, out, inp, m, bias, &mut widened.borrow_mut()),
            _ => linear_forward_on(kernel, threads, out, inp, weight, bias, c_in, c_out),
        };
        let round = |rounded: &mut BfRows, inp: &[f32], c_in| {
            if bf16 {
                rounded.round(inp, t, c_in)
            }
        };
        let mx = matrices.as_ref();
        Self::norm(s.layout, sized(&mut a.normed, t * d), &a.x, &w.norm_1, &w.norm_1_bias, d, eps);
        round(&mut a.rounded, &a.normed, d);
        linear(sized(&mut a.q, t * qw), &a.normed, &a.rounded, mx.map(|m| &m.q), &w.q, opt(&w.q_bias), d, qw);
        linear(sized(&mut a.k, t * kw), &a.normed, &a.rounded, mx.map(|m| &m.k), &w.k, opt(&w.k_bias), d, kw);
        linear(sized(&mut a.v, t * kw), &a.normed, &a.rounded, mx.map(|m| &m.v), &w.v, opt(&w.v_bias), d, kw);
        if let Some((cos, sin)) = angles {
            Rotary::rotate(&mut a.q, s.n_heads, s.head_dim, cos, sin);
            Rotary::rotate(&mut a.k, s.n_kv_heads, s.head_dim, cos, sin);
        }
        let shape = GqaShape {
            seq_len: t,
            n_heads: s.n_heads,
            n_kv_heads: s.n_kv_heads,
            head_dim: s.head_dim,
            causal: true,
            window: s.window,
        };
        let heads = sized(&mut a.heads, t * qw);
        // With a cache: these positions' keys and values added to it, and read with those before.
        let first = past.as_deref_mut().map_or(0, |p| p.extend(&a.k, &a.v, kw));
        match past {
            Some(p) if first > 0 => {
                let shape = GqaShape { seq_len: first + t, ..shape };
                gqa_attention_from(heads, &a.q, &p.keys, &p.values, shape, first, &mut a.weights_row);
            }
            _ => {
                let shown = a.shown_attention.as_deref_mut();
                attention_on(kernel, threads, heads, &a.q, &a.k, &a.v, shape, &mut a.weights_row, shown);
            }
        }
        round(&mut a.rounded, &a.heads, qw);
        linear(sized(&mut a.added, t * d), &a.heads, &a.rounded, mx.map(|m| &m.out), &w.out, opt(&w.out_bias), qw, d);
        let after = sized(&mut a.after_attention, t * d);
        match mode {
            BlockMode::Overwritten => after.copy_from_slice(&a.added),
            _ => after.iter_mut().zip(a.x.iter().zip(&a.added)).for_each(|(o, (x, y))| *o = x + y),
        }
        Self::norm(s.layout, sized(&mut a.normed, t * d), &a.after_attention, &w.norm_2, &w.norm_2_bias, d, eps);
        round(&mut a.rounded, &a.normed, d);
        let up = mx.map(|m| &m.up);
        match s.layout {
            Layout::Gpt2 => {
                // GELU in place: GPT-2's hidden layer needs one [T, 4d] buffer, not two.
                linear(sized(&mut a.hidden, t * f), &a.normed, &a.rounded, up, &w.up, opt(&w.up_bias), d, f);
                gelu_in_place(&mut a.hidden);
            }
            Layout::Llama => {
                let gate = mx.and_then(|m| m.gate.as_ref());
                linear(sized(&mut a.hidden, t * f), &a.normed, &a.rounded, gate, &w.gate, None, d, f);
                linear(sized(&mut a.hidden_up, t * f), &a.normed, &a.rounded, up, &w.up, None, d, f);
                swiglu_in_place(&mut a.hidden, &a.hidden_up);
            }
        }
        round(&mut a.rounded, &a.hidden, f);
        linear(
            sized(&mut a.added, t * d),
            &a.hidden,
            &a.rounded,
            mx.map(|m| &m.down),
            &w.down,
            opt(&w.down_bias),
            f,
            d,
        );
        let out = sized(&mut a.output, t * d);
        match mode {
            BlockMode::Overwritten => out.copy_from_slice(&a.added),
            _ => out.iter_mut().zip(a.after_attention.iter().zip(&a.added)).for_each(|(o, (x, y))| *o = x + y),
        }
        Ok(())
    }
}
