//! What a run holds in memory besides the mapped checkpoint, counted from the shape before anything
//! runs (`tblock --plan` prints it, and a run that would not fit is refused before it starts).

use serde::Serialize;

use super::head::HEAD_ROWS;
use super::{Decoder, WeightSource};
use crate::nn::decoder_shape::Layout;
use crate::nn::parallel::Compute;
use crate::nn::stored_forward::WIDENED_PANEL;
use tb_kernels::product::{KC, NR};

/// Bytes a window of T positions holds, by what holds them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Footprint {
    /// One block's matrices widened to f32 where the products cannot read them in place; else a
    /// panel of a 16-bit matrix widened for the f32 products, and 0 for an f32 file or the bf16
    /// products.
    pub block_copy: u64,
    /// The activations of one block ([T, width] buffers), attention's scratch and the products' panels.
    pub activations: u64,
    /// A chunk of the head's logits [T, 1,024] (and its rows in f32 when they are copied).
    pub head: u64,
    /// The ablation's copy of the intact stream entering the block it changes, so no block runs
    /// twice: [T, d].
    pub kept_streams: u64,
    pub total: u64,
}

impl<W: WeightSource> Decoder<W> {
    /// The memory a window of `t` positions takes beyond the mapped file, with the ablation's kept
    /// stream when `ablation`.
    pub fn footprint(&self, t: usize, ablation: bool) -> Footprint {
        let s = &self.shape;
        let (d, f, qw, kw) = (s.d_model, s.d_ff, s.q_width(), s.kv_width());
        let f32s = |n: usize| 4 * n as u64;
        let copies = !self.reads_in_place();
        let matrices = 2 * qw * d + 2 * kw * d + if s.layout == Layout::Llama { 3 * f * d } else { 2 * f * d };
        // GPT-2's c_attn is read into a staging buffer and transposed once more before it is split.
        let staging = if s.layout == Layout::Gpt2 { 6 * d * d } else { 0 };
        let panel = self.compute == Compute::F32 && !self.f32_in_place;
        let block_copy = if copies {
            f32s(matrices + staging)
        } else if panel {
            f32s(WIDENED_PANEL)
        } else {
            0
        };
        // x, normed, added (attention's, then the feed-forward's), after_attention, output; q, heads;
        // k, v; the feed-forward's hidden buffers (SwiGLU's two, GPT-2's one); the input rounded to
        // bf16 (2 bytes a number); rotary's angles; a block of 64 queries' scores and a panel of the
        // products, a thread each.
        let widest = d.max(f).max(qw);
        let hidden = if s.layout == Layout::Llama { 2 * f } else { f };
        let rows = f32s(t * (5 * d + 2 * qw + 2 * kw + hidden + s.head_dim))
            + if self.compute == Compute::Bf16 { 2 * (t * widest) as u64 } else { 0 };
        let per_thread = f32s(64 * t + KC * NR);
        let activations = rows + per_thread * self.threads as u64;
        let head = f32s(t * HEAD_ROWS + 4 * t) + if copies { f32s(HEAD_ROWS * d) } else { 0 };
        let kept_streams = if ablation { f32s(t * d) } else { 0 };
        Footprint { block_copy, activations, head, kept_streams, total: block_copy + activations + head + kept_streams }
    }
}
