//! A real decoder checkpoint run forward (GPT-2, Llama, Mistral, Qwen2), with the lessons' switches:
//! any block removed or overwriting the stream, and the stream around every block for whoever asks.
//! Inference only, one window at a time, every number in f32 whatever the file stores.
//!
//! The weights are read through a [`WeightSource`] (a memory-mapped checkpoint, see
//! `crate::checkpoint`), one block at a time into buffers reused from block to block, so a large
//! model's f32 copy is never held whole: what stays resident is the file's pages and one block.
//! The head is applied a slice of the vocabulary at a time, so T x V logits are never held either.

use std::ops::Range;

mod block_weights;

pub use block_weights::WeightSource;
use block_weights::{BlockWeights, Names};

use super::decoder_shape::{DecoderShape, Layout};
use super::gqa_attention::GqaShape;
use super::parallel::{attention_on, linear_forward_on, threads, Kernel};
use super::rms_norm::rms_norm_forward;
use super::rotary::Rotary;
use super::swiglu::swiglu_in_place;
use super::{BlockMode, BlockStreams};
use crate::error::{Error, Result};
use tb_kernels::activation::{exp, gelu_forward, largest};
use tb_kernels::norm::layernorm_forward;

/// Who is shown the stream around block i (its index and the five streams), as a pass runs.
pub type StreamWatcher<'a> = &'a mut dyn FnMut(usize, BlockStreams<'_>);

/// Rows of the head applied at once: 4,096 x d weights, and T x 4,096 logits.
const HEAD_ROWS: usize = 4096;

/// The activations of one window, [T, width] each, reused from window to window.
#[derive(Debug, Default)]
struct Activations {
    x: Vec<f32>,
    normed: Vec<f32>,
    q: Vec<f32>,
    k: Vec<f32>,
    v: Vec<f32>,
    heads: Vec<f32>,
    attn: Vec<f32>,
    after_attention: Vec<f32>,
    hidden: Vec<f32>,
    hidden_up: Vec<f32>,
    ffn: Vec<f32>,
    output: Vec<f32>,
    weights_row: Vec<f32>,
    head_rows: Vec<f32>,
    logits: Vec<f32>,
}

/// A checkpoint ready to run, with a mode for each block.
pub struct Decoder<W: WeightSource> {
    pub shape: DecoderShape,
    pub weights: W,
    /// What each block does in the next passes (all intact to begin with).
    pub block_modes: Vec<BlockMode>,
    /// Prefix of GPT-2's tensor names ("transformer." when saved from GPT2LMHeadModel, "" on the hub).
    prefix: &'static str,
    block: BlockWeights,
    act: Activations,
    /// Threads the linear layers run on, and their matrix product.
    threads: usize,
    kernel: Kernel,
}

/// A bias, or None where the family has none (an empty buffer).
fn opt(b: &[f32]) -> Option<&[f32]> {
    if b.is_empty() {
        None
    } else {
        Some(b)
    }
}

fn sized(buf: &mut Vec<f32>, n: usize) -> &mut [f32] {
    buf.clear();
    buf.resize(n, 0.0);
    buf
}

impl<W: WeightSource> Decoder<W> {
    /// A decoder over `weights`, checking that every tensor the shape implies is there with its shape
    /// (so a wrong shape is found before minutes of work, not in the middle).
    pub fn new(shape: DecoderShape, weights: W) -> Result<Decoder<W>> {
        let prefix = if shape.layout == Layout::Gpt2 && weights.contains("transformer.wte.weight") {
            "transformer."
        } else {
            ""
        };
        let mut d = Decoder {
            block_modes: vec![BlockMode::Intact; shape.n_layers],
            shape,
            weights,
            prefix,
            block: BlockWeights::default(),
            act: Activations::default(),
            threads: threads(),
            kernel: Kernel::from_env(),
        };
        for i in 0..d.shape.n_layers {
            d.load_block(i)?;
        }
        let (v, dm) = (d.shape.vocab_size, d.shape.d_model);
        let mut scratch = Vec::new();
        d.weights.read_rows(&d.name(d.shape.token_table()), v, dm, 0..1, &mut scratch)?;
        d.weights.read_rows(&d.name(d.shape.head()), v, dm, 0..1, &mut scratch)?;
        if d.shape.layout == Layout::Gpt2 {
            d.weights.read_rows(&d.name("wpe.weight"), d.shape.context, dm, 0..1, &mut scratch)?;
        }
        let (gain, bias) = d.shape.final_norm();
        d.weights.read(&d.name(gain), &[dm], &mut scratch)?;
        if let Some(b) = bias {
            d.weights.read(&d.name(b), &[dm], &mut scratch)?;
        }
        Ok(d)
    }

    /// Run the linear layers on `threads` threads (at least one).
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
    }

    /// The threads the linear layers run on.
    pub fn threads(&self) -> usize {
        self.threads
    }

    fn name(&self, tensor: &str) -> String {
        Names { shape: &self.shape, prefix: self.prefix }.of(tensor)
    }

    /// Read block i's weights into the block buffers.
    fn load_block(&mut self, i: usize) -> Result<()> {
        let names = Names { shape: &self.shape, prefix: self.prefix };
        self.block.load(i, &names, &self.weights)
    }

    /// The block's norm (LayerNorm or RMSNorm by family) of `inp` [T, d] into `out`.
    fn norm(layout: Layout, out: &mut [f32], inp: &[f32], gain: &[f32], bias: &[f32], d: usize, eps: f32) {
        match layout {
            Layout::Gpt2 => {
                let rows = inp.len() / d;
                let (mut mean, mut rstd) = (vec![0.0; rows], vec![0.0; rows]);
                layernorm_forward(out, &mut mean, &mut rstd, inp, gain, bias, d, eps);
            }
            Layout::Llama => rms_norm_forward(out, inp, gain, d, eps),
        }
    }

    /// Run one window of ids through the blocks (each in its mode) and the final norm: the stream
    /// the head reads, [T, d], is left in the activations. `streams(i, ...)` sees the stream around
    /// block i when given.
    fn run_blocks(&mut self, ids: &[usize], mut streams: Option<StreamWatcher>) -> Result<()> {
        let (t, d) = (ids.len(), self.shape.d_model);
        if t == 0 || t > self.shape.context {
            return Err(Error::out_of_range("window", t, format!("1 to the model's {} positions", self.shape.context)));
        }
        if let Some(&bad) = ids.iter().find(|&&id| id >= self.shape.vocab_size) {
            return Err(Error::out_of_range(
                "token id",
                bad,
                format!("0 to {} (the model's vocabulary)", self.shape.vocab_size - 1),
            ));
        }
        let table = self.name(self.shape.token_table());
        let mut x = std::mem::take(&mut self.act.x);
        x.clear();
        let mut row = Vec::new();
        for &id in ids {
            self.weights.read_rows(&table, self.shape.vocab_size, d, id..id + 1, &mut row)?;
            x.extend_from_slice(&row);
        }
        if self.shape.layout == Layout::Gpt2 {
            self.weights.read_rows(&self.name("wpe.weight"), self.shape.context, d, 0..t, &mut row)?;
            x.iter_mut().zip(&row).for_each(|(a, p)| *a += p);
        }
        self.act.x = x;
        let angles = self.shape.rotary.as_ref().map(|r| r.angles(t));
        for i in 0..self.shape.n_layers {
            let mode = self.block_modes.get(i).copied().unwrap_or_default();
            if mode == BlockMode::Removed {
                continue;
            }
            self.load_block(i)?;
            self.block_forward(t, mode, angles.as_ref());
            if let Some(f) = streams.as_deref_mut() {
                let a = &self.act;
                f(
                    i,
                    BlockStreams {
                        input: &a.x,
                        after_attention: &a.after_attention,
                        feed_forward_reads: &a.after_attention,
                        after_feed_forward: &a.output,
                        output: &a.output,
                    },
                );
            }
            std::mem::swap(&mut self.act.x, &mut self.act.output);
        }
        let (gain, bias) = self.shape.final_norm();
        let mut g = Vec::new();
        let mut b = Vec::new();
        self.weights.read(&self.name(gain), &[d], &mut g)?;
        if let Some(bias) = bias {
            self.weights.read(&self.name(bias), &[d], &mut b)?;
        }
        let a = &mut self.act;
        Self::norm(self.shape.layout, sized(&mut a.normed, t * d), &a.x, &g, &b, d, self.shape.eps);
        Ok(())
    }

    /// One block on act.x [T, d], its weights loaded: act.after_attention and act.output filled.
    fn block_forward(&mut self, t: usize, mode: BlockMode, angles: Option<&(Vec<f32>, Vec<f32>)>) {
        let s = &self.shape;
        let (d, f, qw, kw, eps) = (s.d_model, s.d_ff, s.q_width(), s.kv_width(), s.eps);
        let (w, a) = (&self.block, &mut self.act);
        // out = inp · weightᵀ + bias, on the decoder's threads and product.
        let (kernel, threads) = (self.kernel, self.threads);
        let linear = |out: &mut [f32], inp: &[f32], weight: &[f32], bias: Option<&[f32]>, c_in, c_out| {
            linear_forward_on(kernel, threads, out, inp, weight, bias, c_in, c_out)
        };
        Self::norm(s.layout, sized(&mut a.normed, t * d), &a.x, &w.norm_1, &w.norm_1_bias, d, eps);
        linear(sized(&mut a.q, t * qw), &a.normed, &w.q, opt(&w.q_bias), d, qw);
        linear(sized(&mut a.k, t * kw), &a.normed, &w.k, opt(&w.k_bias), d, kw);
        linear(sized(&mut a.v, t * kw), &a.normed, &w.v, opt(&w.v_bias), d, kw);
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
        attention_on(kernel, threads, sized(&mut a.heads, t * qw), &a.q, &a.k, &a.v, shape, &mut a.weights_row);
        linear(sized(&mut a.attn, t * d), &a.heads, &w.out, opt(&w.out_bias), qw, d);
        let after = sized(&mut a.after_attention, t * d);
        match mode {
            BlockMode::Overwritten => after.copy_from_slice(&a.attn),
            _ => after.iter_mut().zip(a.x.iter().zip(&a.attn)).for_each(|(o, (x, y))| *o = x + y),
        }
        Self::norm(s.layout, sized(&mut a.normed, t * d), &a.after_attention, &w.norm_2, &w.norm_2_bias, d, eps);
        match s.layout {
            Layout::Gpt2 => {
                linear(sized(&mut a.hidden_up, t * f), &a.normed, &w.up, opt(&w.up_bias), d, f);
                gelu_forward(sized(&mut a.hidden, t * f), &a.hidden_up);
            }
            Layout::Llama => {
                linear(sized(&mut a.hidden, t * f), &a.normed, &w.gate, None, d, f);
                linear(sized(&mut a.hidden_up, t * f), &a.normed, &w.up, None, d, f);
                swiglu_in_place(&mut a.hidden, &a.hidden_up);
            }
        }
        linear(sized(&mut a.ffn, t * d), &a.hidden, &w.down, opt(&w.down_bias), f, d);
        let out = sized(&mut a.output, t * d);
        match mode {
            BlockMode::Overwritten => out.copy_from_slice(&a.ffn),
            _ => out.iter_mut().zip(a.after_attention.iter().zip(&a.ffn)).for_each(|(o, (x, y))| *o = x + y),
        }
    }

    /// The head over the final stream, a slice of the vocabulary at a time: `each(rows, logits)` gets
    /// logits [T, rows.len()] for vocabulary rows `rows`.
    fn head(&mut self, t: usize, mut each: impl FnMut(Range<usize>, &[f32])) -> Result<()> {
        let (v, d) = (self.shape.vocab_size, self.shape.d_model);
        let head = self.name(self.shape.head());
        for start in (0..v).step_by(HEAD_ROWS) {
            let rows = start..(start + HEAD_ROWS).min(v);
            let n = rows.len();
            self.weights.read_rows(&head, v, d, rows.clone(), &mut self.act.head_rows)?;
            let a = &mut self.act;
            linear_forward_on(
                self.kernel,
                self.threads,
                sized(&mut a.logits, t * n),
                &a.normed,
                &a.head_rows,
                None,
                d,
                n,
            );
            each(rows, &a.logits);
        }
        Ok(())
    }

    /// The summed cross-entropy (nats) of predicting `targets[t]` after `ids[..=t]`, for every t.
    pub fn window_loss(&mut self, ids: &[usize], targets: &[usize]) -> Result<f64> {
        self.window_loss_with(ids, targets, None)
    }

    /// As [`Decoder::window_loss`], showing `streams` the stream around every block.
    pub fn window_loss_with(
        &mut self,
        ids: &[usize],
        targets: &[usize],
        streams: Option<StreamWatcher>,
    ) -> Result<f64> {
        let t = ids.len();
        if targets.len() != t {
            return Err(Error::field("targets", format!("{} targets for {t} positions", targets.len())));
        }
        if let Some(&bad) = targets.iter().find(|&&id| id >= self.shape.vocab_size) {
            return Err(Error::out_of_range(
                "token id",
                bad,
                format!("0 to {} (the model's vocabulary)", self.shape.vocab_size - 1),
            ));
        }
        self.run_blocks(ids, streams)?;
        // A running log-sum-exp per position (its largest logit so far and Σ e^(z − largest)), and
        // the target's logit when its slice comes by. On this thread: spread over rayon's, beside the
        // products' threads, the whole window took longer (9.7 s against 8.2 s for a 1,024-token
        // window of the 0.5 B bf16 checkpoint on 2 threads).
        let mut running = vec![(f32::NEG_INFINITY, 0.0f64, 0.0f32); t];
        self.head(t, |rows, logits| {
            let n = rows.len();
            running.iter_mut().enumerate().for_each(|(p, (top, sum, target))| {
                let z = &logits[p * n..(p + 1) * n];
                let m = largest(z).max(*top);
                let rescale = if top.is_finite() { (*top - m) as f64 } else { f64::NEG_INFINITY };
                *sum = *sum * rescale.exp() + z.iter().map(|&x| exp(x - m) as f64).sum::<f64>();
                *top = m;
                if rows.contains(&targets[p]) {
                    *target = z[targets[p] - rows.start];
                }
            });
        })?;
        Ok(running.iter().map(|&(top, sum, target)| top as f64 + sum.ln() - target as f64).sum())
    }

    /// Every logit of one window, [T, V] (for tests and small vocabularies; the experiments use the
    /// streamed loss instead).
    pub fn logits(&mut self, ids: &[usize]) -> Result<Vec<f32>> {
        self.run_blocks(ids, None)?;
        let (t, v) = (ids.len(), self.shape.vocab_size);
        let mut all = vec![0.0f32; t * v];
        self.head(t, |rows, logits| {
            for p in 0..t {
                all[p * v + rows.start..p * v + rows.end]
                    .copy_from_slice(&logits[p * rows.len()..(p + 1) * rows.len()]);
            }
        })?;
        Ok(all)
    }
}
