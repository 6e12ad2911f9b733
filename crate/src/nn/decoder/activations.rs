//! The decoder's activations: one window's buffers, [T, width] each, reused from window to window
//! and from block to block, so a pass allocates nothing once the first window has sized them.

use tb_kernels::product::BfRows;

/// The activations of one window, [T, width] each, reused from window to window.
#[derive(Debug, Default)]
pub(super) struct Activations {
    pub(super) x: Vec<f32>,
    pub(super) normed: Vec<f32>,
    pub(super) q: Vec<f32>,
    pub(super) k: Vec<f32>,
    pub(super) v: Vec<f32>,
    pub(super) heads: Vec<f32>,
    /// What attention, then the feed-forward, adds to the stream (one buffer for both).
    pub(super) added: Vec<f32>,
    pub(super) after_attention: Vec<f32>,
    pub(super) hidden: Vec<f32>,
    pub(super) hidden_up: Vec<f32>,
    pub(super) output: Vec<f32>,
    pub(super) weights_row: Vec<f32>,
    pub(super) head_rows: Vec<f32>,
    pub(super) logits: Vec<f32>,
    /// A layer's input rounded to bf16 (the bf16 products).
    pub(super) rounded: BfRows,
    /// A panel of a 16-bit matrix widened to f32 (the f32 products on a bf16 or f16 file, and in
    /// wasm on GPT-2's Conv1D too).
    pub(super) widened: std::cell::RefCell<Vec<f32>>,
    /// The attention weights [h, T, T] of the block that runs next, when an inspection shows them
    /// (the block's attention writes them as it uses them); None otherwise.
    pub(super) shown_attention: Option<Vec<f32>>,
    /// The intact stream entering the block an ablation changes, [T, d].
    pub(super) entering: Vec<f32>,
}

/// `buf` as n numbers, for a stage that writes all n (the norms, the products, attention, the sums
/// into the stream): what it held is left as it was, not zeroed again every layer (zeroing these
/// buffers was 12% of a bf16 window's time on AMX).
pub(super) fn sized(buf: &mut Vec<f32>, n: usize) -> &mut [f32] {
    buf.resize(n, 0.0);
    buf
}
