//! TinyGPT as training needs it, in llm.c's shape: every parameter in one flat buffer (with a table
//! of where each tensor sits, by its Hugging Face name: [`GptShape`]), every gradient in a second
//! buffer of the same layout, and the activations of a forward pass kept in a third, so the backward
//! pass can run through them in reverse. The forward pass goes ids -> tables -> blocks -> final norm
//! -> tied logits -> loss; the backward pass comes back the same way, each layer's flat pair in its
//! own file. Nothing is allocated per step. What a forward pass leaves behind is read by the
//! experiments and by [`inspect`](super::inspect) (every intermediate of one text).
//!
//! [`TinyGpt`](super::TinyGpt) (matrices, every switch, the heatmaps) and this model hold the same
//! weights and give the same logits (tested); [`TrainableGpt::from_model`] and
//! [`TrainableGpt::to_model`] convert (trainable_model.rs).

use super::block::{
    block_backward, block_forward, BlockActivations, BlockScratch, BlockShape, BlockTensors, NormPlacement, Residual,
};
use super::embedding::{embedding_backward, embedding_forward};
use super::gpt_shape::GptShape;
use super::linear::{linear_backward, linear_forward};
use super::loss::{crossentropy_backward, crossentropy_forward};
use super::norm::{layernorm_backward, layernorm_forward};
use crate::error::{Error, Result};
use crate::numbers::thousands;

/// Split `buf` into consecutive slices of the given lengths.
fn split<const K: usize>(mut buf: &[f32], lens: [usize; K]) -> [&[f32]; K] {
    std::array::from_fn(|i| {
        let (head, rest) = buf.split_at(lens[i]);
        buf = rest;
        head
    })
}

fn split_mut<const K: usize>(mut buf: &mut [f32], lens: [usize; K]) -> [&mut [f32]; K] {
    std::array::from_fn(|i| {
        let (head, rest) = std::mem::take(&mut buf).split_at_mut(lens[i]);
        buf = rest;
        head
    })
}

fn tensors<S>(parts: [S; 12]) -> BlockTensors<S> {
    let [ln_1_gain, ln_1_bias, c_attn_weight, c_attn_bias, attn_proj_weight, attn_proj_bias, ln_2_gain, ln_2_bias, c_fc_weight, c_fc_bias, mlp_proj_weight, mlp_proj_bias] =
        parts;
    BlockTensors {
        ln_1_gain,
        ln_1_bias,
        c_attn_weight,
        c_attn_bias,
        attn_proj_weight,
        attn_proj_bias,
        ln_2_gain,
        ln_2_bias,
        c_fc_weight,
        c_fc_bias,
        mlp_proj_weight,
        mlp_proj_bias,
    }
}

fn activations<S>(parts: [S; 13]) -> BlockActivations<S> {
    let [ln_1, ln_1_mean, ln_1_rstd, qkv, att, atty, res_1, ln_2, ln_2_mean, ln_2_rstd, fch, fch_gelu, res_2] = parts;
    BlockActivations {
        ln_1,
        ln_1_mean,
        ln_1_rstd,
        qkv,
        att,
        atty,
        res_1,
        ln_2,
        ln_2_mean,
        ln_2_rstd,
        fch,
        fch_gelu,
        res_2,
    }
}

/// Where the stream leaving block i sits in the blocks' activations (each block's region `region` long).
fn block_output(i: usize, region: usize, bs: &BlockShape) -> std::ops::Range<usize> {
    let start = i * region + bs.output_offset();
    start..start + bs.positions() * bs.d_model
}

/// The stream entering block i (i = L: entering the final norm): the tables' output for block 0.
fn stream_into<'a>(encoded: &'a [f32], blocks: &'a [f32], region: usize, i: usize, bs: &BlockShape) -> &'a [f32] {
    if i == 0 {
        &encoded[..bs.positions() * bs.d_model]
    } else {
        &blocks[block_output(i - 1, region, bs)]
    }
}

/// What a block does in a forward pass: the lessons' experiment of taking a block out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BlockMode {
    /// As trained: each sublayer adds to the stream.
    #[default]
    Intact,
    /// Taken out: the stream passes by untouched.
    Removed,
    /// Each sublayer's add becomes an assignment: x = attn(ln_1(x)), then x = mlp(ln_2(x)).
    Overwritten,
}

impl BlockMode {
    /// "intact", "removed" or "overwritten", as the page and the experiments write them.
    pub fn parse(text: &str) -> Result<BlockMode> {
        match text {
            "intact" => Ok(BlockMode::Intact),
            "removed" => Ok(BlockMode::Removed),
            "overwritten" => Ok(BlockMode::Overwritten),
            other => Err(Error::field(
                "mode",
                format!("{:?} is not a block mode: choose intact, removed or overwritten", crate::error::clip(other)),
            )),
        }
    }
}

/// The stream around one block, as the last forward pass left it, each [B·T, d] row-major. What
/// attention added is `after_attention − input`; what the feed-forward added is
/// `after_feed_forward − feed_forward_reads` (pre-LN: it reads the stream after attention; post-LN:
/// that stream normalised).
#[derive(Debug, Clone, Copy)]
pub struct BlockStreams<'a> {
    pub input: &'a [f32],
    pub after_attention: &'a [f32],
    pub feed_forward_reads: &'a [f32],
    pub after_feed_forward: &'a [f32],
    pub output: &'a [f32],
}

/// A buffer (at least the block's activation length) cut into one block's activations, for code
/// that runs a block on its own (the timing experiment).
pub fn activations_of<'a>(buf: &'a mut [f32], bs: &BlockShape) -> BlockActivations<&'a mut [f32]> {
    activations(split_mut(buf, bs.activation_lens()))
}

/// What the last forward pass ran on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Ran {
    batch: usize,
    seq_len: usize,
    with_targets: bool,
}

/// TinyGPT with flat buffers: parameters, gradients, activations (see the module's documentation).
#[derive(Debug, Clone)]
pub struct TrainableGpt {
    pub shape: GptShape,
    /// Every parameter, laid out as [`GptShape::tensors`] says.
    pub params: Vec<f32>,
    /// The gradient of the last backward pass, same layout.
    pub grads: Vec<f32>,
    /// What each block does in the forward pass (all intact unless an experiment says otherwise).
    pub block_modes: Vec<BlockMode>,
    max_batch: usize,
    ids: Vec<usize>,     // [B, T]
    targets: Vec<usize>, // [B, T]
    blocks: Vec<f32>,    // L regions, each one block's activations for B_max x P positions
    block_region: usize,
    encoded: Vec<f32>,   // [N, d]: the stream entering block 0
    ln_f: Vec<f32>,      // [N, d]
    ln_f_mean: Vec<f32>, // [N]
    ln_f_rstd: Vec<f32>, // [N]
    logits: Vec<f32>,    // [N, V]
    probs: Vec<f32>,     // [N, V]
    losses: Vec<f32>,    // [N]
    // The backward pass's working space.
    d_stream: [Vec<f32>; 2], // [N, d]: the gradient of the stream between blocks (two, in turn)
    d_logits: Vec<f32>,      // [N, V]
    d_ln_f: Vec<f32>,        // [N, d]
    scratch: BlockScratch,
    ran: Option<Ran>,
}

impl TrainableGpt {
    /// A model of `shape` with every parameter 0, able to run up to `max_batch` sequences at once.
    pub fn zeros(shape: GptShape, max_batch: usize) -> TrainableGpt {
        let n = max_batch * shape.context;
        let (d, v) = (shape.d_model, shape.vocab_size);
        let block_region = shape.block(max_batch, shape.context).activation_lens().iter().sum();
        TrainableGpt {
            params: vec![0.0; shape.n_params()],
            grads: vec![0.0; shape.n_params()],
            block_modes: vec![BlockMode::Intact; shape.n_layers],
            max_batch,
            ids: vec![0; n],
            targets: vec![0; n],
            blocks: vec![0.0; shape.n_layers * block_region],
            block_region,
            encoded: vec![0.0; n * d],
            ln_f: vec![0.0; n * d],
            ln_f_mean: vec![0.0; n],
            ln_f_rstd: vec![0.0; n],
            logits: vec![0.0; n * v],
            probs: vec![0.0; n * v],
            losses: vec![0.0; n],
            d_stream: [vec![0.0; n * d], vec![0.0; n * d]],
            d_logits: vec![0.0; n * v],
            d_ln_f: vec![0.0; n * d],
            scratch: BlockScratch::new(&shape.block(max_batch, shape.context)),
            ran: None,
            shape,
        }
    }

    pub fn max_batch(&self) -> usize {
        self.max_batch
    }

    /// Block `i`'s weights, as slices of the flat buffer.
    pub fn block_weights(&self, i: usize) -> BlockTensors<&[f32]> {
        let start = self.shape.block_offset(i);
        tensors(split(&self.params[start..], self.shape.block(1, 1).tensor_lens()))
    }

    /// Check a batch of B sequences of T ids (and targets) against the model.
    fn check(&self, ids: &[usize], targets: Option<&[usize]>, batch: usize, seq_len: usize) -> Result<()> {
        let (v, p) = (self.shape.vocab_size, self.shape.context);
        if batch == 0 || batch > self.max_batch {
            return Err(Error::out_of_range("batch", batch, format!("give 1 to {} sequences at once", self.max_batch)));
        }
        if seq_len == 0 || seq_len > p {
            return Err(Error::out_of_range(
                "sequence length",
                seq_len,
                format!("the model has {} positions, so give 1 to {} tokens", thousands(p as u64), thousands(p as u64)),
            ));
        }
        let n = batch * seq_len;
        for (what, xs) in [("token ids", Some(ids)), ("targets", targets)] {
            let Some(xs) = xs else { continue };
            if xs.len() != n {
                return Err(Error::out_of_range(
                    format!("number of {what}"),
                    xs.len(),
                    format!("batch {batch} × sequence length {seq_len} needs {n}"),
                ));
            }
            if let Some(&bad) = xs.iter().find(|&&id| id >= v) {
                return Err(Error::out_of_range("token id", bad, format!("ids run from 0 to {}", v - 1)));
            }
        }
        Ok(())
    }

    /// Run B sequences of T ids ([B, T], row-major) through the model, keeping every activation.
    /// With targets ([B, T]: the id that follows each position) it returns the mean loss in nats.
    pub fn forward(
        &mut self,
        ids: &[usize],
        targets: Option<&[usize]>,
        batch: usize,
        seq_len: usize,
    ) -> Result<Option<f32>> {
        self.check(ids, targets, batch, seq_len)?;
        let s = self.shape;
        let (n, d, v) = (batch * seq_len, s.d_model, s.vocab_size);
        let bs = s.block(batch, seq_len);
        self.ids[..n].copy_from_slice(ids);
        if let Some(t) = targets {
            self.targets[..n].copy_from_slice(t);
        }
        let wte = &self.params[..v * d];
        let wpe = &self.params[v * d..(v + s.context) * d];
        embedding_forward(&mut self.encoded[..n * d], ids, wte, wpe, seq_len, d);

        let region = self.block_region;
        for i in 0..s.n_layers {
            let (done, rest) = self.blocks.split_at_mut(i * region);
            let x = stream_into(&self.encoded, done, region, i, &bs);
            let mode = self.block_modes.get(i).copied().unwrap_or_default();
            if mode == BlockMode::Removed {
                // The stream leaves the block as it came in.
                rest[bs.output_offset()..][..n * d].copy_from_slice(x);
                continue;
            }
            let residual = if mode == BlockMode::Overwritten { Residual::Overwrite } else { Residual::Add };
            let bs = BlockShape { residual, ..bs };
            let mut a = activations(split_mut(&mut rest[..region], bs.activation_lens()));
            let start = s.block_offset(i);
            let w = tensors(split(&self.params[start..], bs.tensor_lens()));
            block_forward(&mut a, x, &w, &bs);
        }

        let f = s.block_offset(s.n_layers);
        let last = stream_into(&self.encoded, &self.blocks, self.block_region, s.n_layers, &bs);
        let (gain, bias) = (&self.params[f..f + d], &self.params[f + d..f + 2 * d]);
        layernorm_forward(
            &mut self.ln_f[..n * d],
            &mut self.ln_f_mean[..n],
            &mut self.ln_f_rstd[..n],
            last,
            gain,
            bias,
            d,
            s.eps,
        );
        linear_forward(&mut self.logits[..n * v], &self.ln_f[..n * d], wte, None, d, v); // tied: the token table is the head
        self.ran = Some(Ran { batch, seq_len, with_targets: targets.is_some() });
        let Some(t) = targets else { return Ok(None) };
        crossentropy_forward(&mut self.losses[..n], &mut self.probs[..n * v], &self.logits[..n * v], t, v);
        Ok(Some(self.losses[..n].iter().sum::<f32>() / n as f32))
    }

    /// The streams around block `i` in the last forward pass ([B·T, d] each; see [`BlockStreams`]).
    pub fn block_streams(&self, i: usize) -> Option<BlockStreams<'_>> {
        let r = self.ran?;
        if i >= self.shape.n_layers || self.block_modes.get(i) != Some(&BlockMode::Intact) {
            return None;
        }
        let bs = self.shape.block(r.batch, r.seq_len);
        let a = activations(split(&self.blocks[i * self.block_region..], bs.activation_lens()));
        let mid = match self.shape.norm {
            NormPlacement::Pre => a.res_1,
            NormPlacement::Post => a.ln_1,
        };
        Some(BlockStreams {
            input: stream_into(&self.encoded, &self.blocks, self.block_region, i, &bs),
            after_attention: a.res_1,
            feed_forward_reads: mid,
            after_feed_forward: a.res_2,
            output: &self.blocks[block_output(i, self.block_region, &bs)],
        })
    }

    /// The batch and sequence length of the last forward pass, if there was one.
    pub fn last_run(&self) -> Option<(usize, usize)> {
        self.ran.map(|r| (r.batch, r.seq_len))
    }

    /// The stream entering the blocks in the last forward pass (token row + position row), [B·T, d].
    pub fn embedded(&self) -> &[f32] {
        let n = self.ran.map_or(0, |r| r.batch * r.seq_len);
        &self.encoded[..n * self.shape.d_model]
    }

    /// The stream entering block `i` in the last forward pass ([B·T, d]; i = L: entering the final
    /// norm).
    pub fn stream_into_block(&self, i: usize) -> Option<&[f32]> {
        let r = self.ran?;
        (i <= self.shape.n_layers).then(|| {
            stream_into(&self.encoded, &self.blocks, self.block_region, i, &self.shape.block(r.batch, r.seq_len))
        })
    }

    /// What block `i` kept in the last forward pass (see [`BlockActivations`]), if it ran (a removed
    /// block keeps nothing).
    pub fn block_activations(&self, i: usize) -> Option<BlockActivations<&[f32]>> {
        let r = self.ran?;
        if i >= self.shape.n_layers || self.block_modes.get(i) == Some(&BlockMode::Removed) {
            return None;
        }
        let bs = self.shape.block(r.batch, r.seq_len);
        Some(activations(split(&self.blocks[i * self.block_region..], bs.activation_lens())))
    }

    /// The final norm of the last forward pass: its output [B·T, d], and its input rows' mean and
    /// 1/spread [B·T].
    pub fn final_norm(&self) -> (&[f32], &[f32], &[f32]) {
        let n = self.ran.map_or(0, |r| r.batch * r.seq_len);
        (&self.ln_f[..n * self.shape.d_model], &self.ln_f_mean[..n], &self.ln_f_rstd[..n])
    }

    /// The logits [B, T, V] of the last forward pass.
    pub fn logits(&self) -> &[f32] {
        let n = self.ran.map_or(0, |r| r.batch * r.seq_len);
        &self.logits[..n * self.shape.vocab_size]
    }

    /// The loss at each position [B, T] of the last forward pass with targets.
    pub fn losses(&self) -> &[f32] {
        let n = self.ran.filter(|r| r.with_targets).map_or(0, |r| r.batch * r.seq_len);
        &self.losses[..n]
    }

    /// Set every gradient to 0.
    pub fn zero_grad(&mut self) {
        self.grads.fill(0.0);
    }

    /// The gradient of the last forward pass's mean loss with respect to every parameter, added
    /// (+=) into `grads` (call [`zero_grad`](Self::zero_grad) first for a fresh one).
    pub fn backward(&mut self) -> Result<()> {
        let Some(Ran { batch, seq_len, with_targets: true }) = self.ran else {
            return Err(Error::field("backward", "needs a forward pass with targets first"));
        };
        if self.block_modes.iter().any(|&m| m != BlockMode::Intact) {
            return Err(Error::field("backward", "runs on the intact model only: put every block back first"));
        }
        let s = self.shape;
        let (n, d, v) = (batch * seq_len, s.d_model, s.vocab_size);
        let bs = s.block(batch, seq_len);
        let (wte_len, wpe_len) = (v * d, s.context * d);

        // Loss -> logits -> (tied head) -> ln_f.
        crossentropy_backward(&mut self.d_logits[..n * v], &self.probs[..n * v], &self.targets[..n], v, 1.0 / n as f32);
        let d_ln_f = &mut self.d_ln_f[..n * d];
        d_ln_f.fill(0.0);
        let (g_tables, g_rest) = self.grads.split_at_mut(wte_len + wpe_len);
        let (g_wte, g_wpe) = g_tables.split_at_mut(wte_len);
        let wte = &self.params[..wte_len];
        linear_backward(d_ln_f, g_wte, None, &self.d_logits[..n * v], &self.ln_f[..n * d], wte, d, v);

        let f = s.block_offset(s.n_layers);
        let (g_blocks, g_final) = g_rest.split_at_mut(f - wte_len - wpe_len);
        let (g_gain, g_bias) = g_final.split_at_mut(d);
        let [d_top, d_below] = &mut self.d_stream;
        let (mut d_top, mut d_below) = (&mut d_top[..n * d], &mut d_below[..n * d]);
        d_top.fill(0.0);
        let last = stream_into(&self.encoded, &self.blocks, self.block_region, s.n_layers, &bs);
        let gain = &self.params[f..f + d];
        layernorm_backward(d_top, g_gain, g_bias, d_ln_f, last, &self.ln_f_mean[..n], &self.ln_f_rstd[..n], gain, d);

        // The blocks, last to first: d_top holds the gradient of block i's output.
        let block_len = s.block_len();
        for i in (0..s.n_layers).rev() {
            let x = stream_into(&self.encoded, &self.blocks, self.block_region, i, &bs);
            let a = activations(split(&self.blocks[i * self.block_region..], bs.activation_lens()));
            let start = s.block_offset(i);
            let w = tensors(split(&self.params[start..], bs.tensor_lens()));
            let mut g = tensors(split_mut(&mut g_blocks[i * block_len..(i + 1) * block_len], bs.tensor_lens()));
            block_backward(d_below, &mut g, &mut self.scratch, d_top, x, &w, &a, &bs);
            std::mem::swap(&mut d_top, &mut d_below);
        }

        // The tables: d_top now holds the gradient of the stream entering block 0.
        embedding_backward(g_wte, g_wpe, d_top, &self.ids[..n], seq_len, d);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::gpt::TinyGpt;
    use super::super::gpt_shape::MAX_WORKING_MEMORY;
    use super::*;

    /// The buffers [`TrainableGpt::zeros`] allocates, in bytes.
    fn allocated(m: &TrainableGpt) -> usize {
        let floats = [
            &m.params,
            &m.grads,
            &m.blocks,
            &m.encoded,
            &m.ln_f,
            &m.ln_f_mean,
            &m.ln_f_rstd,
            &m.logits,
            &m.probs,
            &m.losses,
            &m.d_stream[0],
            &m.d_stream[1],
            &m.d_logits,
            &m.d_ln_f,
        ];
        // BlockScratch::new's buffers (private to block.rs): d_mid, d_sum, d_atty [N, d], d_qkv [N, 3d],
        // d_fch and d_fch_gelu [N, f], d_scores [P].
        let s = m.shape;
        let n = m.max_batch * s.context;
        let scratch = 6 * n * s.d_model + 2 * n * s.d_ff + s.context;
        4 * (floats.iter().map(|v| v.len()).sum::<usize>() + scratch) + 8 * (m.ids.len() + m.targets.len())
    }

    #[test]
    fn the_working_memory_is_what_the_buffers_take_and_long_contexts_are_refused() {
        let tiny = TinyGpt::tiny(0);
        let shape = GptShape::of(&tiny).unwrap();
        for (batch, attention_bias, norm) in [(1, false, NormPlacement::Pre), (16, true, NormPlacement::Post)] {
            let shape = GptShape { attention_bias, norm, ..shape };
            assert_eq!(shape.working_memory(batch), allocated(&TrainableGpt::zeros(shape, batch)) as f64);
        }
        // A 33 KB checkpoint of width 1 and 16,000 positions (fuzz/FINDINGS.md) asked for 16 GB here.
        let mut long = tiny.config.clone();
        (long.d_model, long.n_heads, long.n_kv_heads, long.head_dim, long.d_ff) = (1, 1, 1, 1, 1);
        (long.n_layers, long.context) = (1, 16_000);
        let m = TinyGpt::new(&long, 0).unwrap();
        let e = TrainableGpt::from_model(&m, 16).unwrap_err().to_string();
        assert_eq!(
            e,
            "working memory: 1 blocks of width 1 (1 heads) with 16,000 positions and 50 tokens take 15,805 MiB to run 16 \
             sequences at once in flat buffers (training, sampling, the experiments); allowed is up to 256 MiB: a \
             shorter context or a smaller model"
        );
        assert!(TrainableGpt::from_model(&tiny, 16).is_ok());
        // The largest run the training settings allow fits.
        let largest = GptShape { n_layers: 8, d_model: 128, n_heads: 128, d_ff: 512, ..shape };
        assert!(largest.working_memory(64) < MAX_WORKING_MEMORY as f64 * 0.6, "{}", largest.working_memory(64));
    }
}
