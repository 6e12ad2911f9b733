//! Inside one forward pass: every intermediate of TinyGPT reading one text, as the flat model that
//! computes the loss computed it ([`TrainableGpt::forward`], not a second copy). The tables' rows and
//! their sum; per block the first norm (with each row's mean and spread, and the rows normalised
//! before the gain), q, k and v per head, the scaled scores before the mask and the softmax, the
//! attention weights, the heads side by side, attention's output, the stream after attention, the
//! second norm, the feed-forward's hidden layer before and after GELU, its output, the stream after
//! the block; then the final norm, the logits and the next-character probabilities. Each tensor is
//! row-major with its shape; the statistics the lesson talks about (a norm's row mean and spread, the
//! stream's size before and after each add, the share of hidden units GELU lets through) come with it.
//!
//! Shapes: T positions, d the width, h heads of d_h = d/h, f the feed-forward's width, V the vocabulary.
//!
//! - `text`: the text an inspection reads, 1 to [`longest_text`] characters, as ids ([`text_ids`]).
//! - `tensor`: a [`Tensor`] as an inspection keeps it, serialised as nested lists of its shape.

use serde::Serialize;

mod tensor;
mod text;
pub use tensor::Tensor;
pub use text::{longest_text, text_ids, MAX_INSPECTED};

use super::activation::softmax_in_place;
use super::attention::attention_scores;
use super::block::{BlockActivations, NormPlacement};
use super::linear::linear_forward;
use super::norm::normalized;
use super::trainable::{BlockMode, TrainableGpt};
use super::vocabulary::Vocabulary;
use crate::error::Result;

/// One LayerNorm as it ran: y = γ ⊙ (x − μ)·r + β for each row x it read.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NormReading {
    /// y [T, d]: what the norm hands on.
    pub output: Tensor,
    /// x̂ = (x − μ)·r [T, d]: each row normalised, before the gain and the bias.
    pub normalized: Tensor,
    /// μ [T]: the mean of each row it read.
    pub input_mean: Tensor,
    /// √(σ² + ε) [T]: the spread of each row it read.
    pub input_spread: Tensor,
    /// [T]: the mean of each row of x̂ (0, up to rounding).
    pub normalized_mean: Tensor,
    /// [T]: the spread of each row of x̂ (1, up to ε and rounding).
    pub normalized_spread: Tensor,
}

/// The size (Euclidean norm) of the stream at each position [T], before and after each of one
/// block's two adds.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StreamSizes {
    /// Entering the block.
    pub input: Tensor,
    /// Right after attention's add (post-LN: before the first norm rescales it).
    pub after_attention_add: Tensor,
    /// After attention's stage: the stream the feed-forward adds to (pre-LN: the same as after the add;
    /// post-LN: after the first norm).
    pub after_attention: Tensor,
    /// Right after the feed-forward's add (post-LN: before the second norm rescales it).
    pub after_feed_forward_add: Tensor,
    /// Leaving the block (pre-LN: the same as after the feed-forward's add).
    pub output: Tensor,
}

/// One block as it ran.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BlockInspection {
    pub block: usize,
    /// The stream entering the block [T, d].
    pub input: Tensor,
    /// The first norm (ln_1). Pre-LN it reads the block's input; post-LN, the input plus attention.
    pub ln_1: NormReading,
    /// Queries, keys and values per head [h, T, d_h] (pre-LN they are made from ln_1's output;
    /// post-LN from the stream itself).
    pub q: Tensor,
    pub k: Tensor,
    pub v: Tensor,
    /// q·k/√d_h for every query and key [h, T, T], before the causal mask and the softmax.
    pub scores: Tensor,
    /// The attention weights [h, T, T]: the softmax of each query's scores over the keys it may see
    /// (itself and the positions before it); 0 above the diagonal. Each row sums to 1.
    pub weights: Tensor,
    /// Each head's weighted sum of values, the heads side by side [T, d].
    pub heads: Tensor,
    /// Attention's output [T, d]: the heads through the output projection, what it adds to the stream.
    pub attention_output: Tensor,
    /// The stream after attention's stage [T, d].
    pub after_attention: Tensor,
    /// The second norm (ln_2). Pre-LN it reads the stream after attention; post-LN, that stream
    /// plus the feed-forward (and its output leaves the block).
    pub ln_2: NormReading,
    /// The feed-forward's hidden layer before GELU [T, f].
    pub hidden: Tensor,
    /// The same after GELU [T, f].
    pub hidden_gelu: Tensor,
    /// The feed-forward's output [T, d]: what it adds to the stream.
    pub feed_forward_output: Tensor,
    /// The stream leaving the block [T, d].
    pub output: Tensor,
    pub stream_sizes: StreamSizes,
    /// At each position, the share of the f hidden units GELU lets through more than half of
    /// (GELU(z) = z·Φ(z) with Φ(z) > ½ exactly when z > 0) [T].
    pub gelu_open: Tensor,
    /// The same share over every position.
    pub gelu_open_share: f64,
}

/// Every intermediate of one forward pass over a text.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Inspection {
    /// The text as read, one symbol a position (after folding: "A" reads as "a").
    pub text: String,
    pub symbols: Vec<String>,
    pub ids: Vec<usize>,
    /// Positions whose character is not in the vocabulary and was read as the catch-all symbol U+FFFD.
    pub unknown: Vec<usize>,
    pub norm: NormPlacement,
    /// P: the most positions the model reads.
    pub context: usize,
    /// The longest text an inspection of this model reads: P, at most [`MAX_INSPECTED`].
    pub longest_text: usize,
    /// The token table's rows for the text [T, d].
    pub tokens: Tensor,
    /// The position table's rows 0 to T−1 [T, d].
    pub positions: Tensor,
    /// Their sum, the stream entering block 0 [T, d].
    pub embedded: Tensor,
    pub blocks: Vec<BlockInspection>,
    /// The final norm (ln_f) over the stream leaving the last block.
    pub ln_f: NormReading,
    /// The tied head's output [T, V]: ln_f's output times the token table.
    pub logits: Tensor,
    /// softmax(logits) [T, V]: at each position, the probability of each next character.
    pub probabilities: Tensor,
}

impl NormReading {
    fn tensors<'a>(&'a self, at: &str, out: &mut Vec<(String, &'a Tensor)>) {
        for (name, t) in [
            ("output", &self.output),
            ("normalized", &self.normalized),
            ("input_mean", &self.input_mean),
            ("input_spread", &self.input_spread),
            ("normalized_mean", &self.normalized_mean),
            ("normalized_spread", &self.normalized_spread),
        ] {
            out.push((format!("{at}.{name}"), t));
        }
    }
}

impl Inspection {
    /// Every tensor with its path among the fields ("blocks.0.ln_1.output"), in field order.
    pub fn tensors(&self) -> Vec<(String, &Tensor)> {
        let mut out: Vec<(String, &Tensor)> = Vec::new();
        for (name, t) in [("tokens", &self.tokens), ("positions", &self.positions), ("embedded", &self.embedded)] {
            out.push((name.into(), t));
        }
        for (i, b) in self.blocks.iter().enumerate() {
            let at = format!("blocks.{i}");
            out.push((format!("{at}.input"), &b.input));
            b.ln_1.tensors(&format!("{at}.ln_1"), &mut out);
            for (name, t) in [
                ("q", &b.q),
                ("k", &b.k),
                ("v", &b.v),
                ("scores", &b.scores),
                ("weights", &b.weights),
                ("heads", &b.heads),
                ("attention_output", &b.attention_output),
                ("after_attention", &b.after_attention),
            ] {
                out.push((format!("{at}.{name}"), t));
            }
            b.ln_2.tensors(&format!("{at}.ln_2"), &mut out);
            for (name, t) in [
                ("hidden", &b.hidden),
                ("hidden_gelu", &b.hidden_gelu),
                ("feed_forward_output", &b.feed_forward_output),
                ("output", &b.output),
                ("stream_sizes.input", &b.stream_sizes.input),
                ("stream_sizes.after_attention_add", &b.stream_sizes.after_attention_add),
                ("stream_sizes.after_attention", &b.stream_sizes.after_attention),
                ("stream_sizes.after_feed_forward_add", &b.stream_sizes.after_feed_forward_add),
                ("stream_sizes.output", &b.stream_sizes.output),
                ("gelu_open", &b.gelu_open),
            ] {
                out.push((format!("{at}.{name}"), t));
            }
        }
        self.ln_f.tensors("ln_f", &mut out);
        out.push(("logits".into(), &self.logits));
        out.push(("probabilities".into(), &self.probabilities));
        out
    }

    /// The attention weights of every block, [L, h, T, T]: transformers' `output_attentions`.
    pub fn attentions(&self) -> Tensor {
        self.stacked(|b| &b.weights)
    }

    /// Every block's scores before the mask and the softmax, [L, h, T, T].
    pub fn scores(&self) -> Tensor {
        self.stacked(|b| &b.scores)
    }

    /// One tensor of every block, stacked: [L, …].
    fn stacked(&self, of: fn(&BlockInspection) -> &Tensor) -> Tensor {
        let mut shape = vec![self.blocks.len()];
        shape.extend(self.blocks.first().map_or(vec![0, 0, 0], |b| of(b).shape.clone()));
        Tensor::new(shape, self.blocks.iter().flat_map(|b| of(b).data.iter().copied()).collect())
    }

    /// [L + 1, T, d], transformers' `output_hidden_states`: the stream entering block 0, then the
    /// stream leaving each block but the last, then the last block's output after the final norm.
    pub fn hidden_states(&self) -> Tensor {
        let mut states: Vec<&Tensor> = vec![&self.embedded];
        states.extend(self.blocks.iter().take(self.blocks.len().saturating_sub(1)).map(|b| &b.output));
        states.push(&self.ln_f.output);
        let mut shape = vec![states.len()];
        shape.extend(self.embedded.shape.iter());
        Tensor::new(shape, states.iter().flat_map(|t| t.data.iter().copied()).collect())
    }
}

/// A norm's reading, from its output and the mean and 1/spread of each input row it kept.
fn norm_reading(output: &[f32], input: &[f32], mean: &[f32], rstd: &[f32], d: usize) -> NormReading {
    let mut x_hat = Vec::with_capacity(input.len());
    for (row, (&mu, &r)) in input.chunks_exact(d).zip(mean.iter().zip(rstd)) {
        x_hat.extend(row.iter().map(|&x| normalized(x, mu, r)));
    }
    let (mut means, mut spreads) = (Vec::new(), Vec::new());
    for row in x_hat.chunks_exact(d) {
        let m = row.iter().map(|&x| x as f64).sum::<f64>() / d as f64;
        let var = row.iter().map(|&x| (x as f64 - m).powi(2)).sum::<f64>() / d as f64;
        means.push(m as f32);
        spreads.push(var.sqrt() as f32);
    }
    NormReading {
        output: Tensor::rows(output, d),
        normalized: Tensor::rows(&x_hat, d),
        input_mean: Tensor::vector(mean.to_vec()),
        input_spread: Tensor::vector(rstd.iter().map(|&r| 1.0 / r).collect()),
        normalized_mean: Tensor::vector(means),
        normalized_spread: Tensor::vector(spreads),
    }
}

/// ‖x‖: the size of one position's stream (in f64, whatever the numbers).
pub fn euclidean_norm(x: &[f32]) -> f64 {
    x.iter().map(|&v| v as f64 * v as f64).sum::<f64>().sqrt()
}

/// Each row's Euclidean norm.
fn row_sizes(x: &[f32], d: usize) -> Tensor {
    Tensor::vector(x.chunks_exact(d).map(|r| euclidean_norm(r) as f32).collect())
}

/// One of q, k, v (`which` 0, 1, 2) out of qkv [T, 3d], per head: [h, T, d_h].
fn per_head(qkv: &[f32], which: usize, t_len: usize, d: usize, h: usize) -> Tensor {
    let hd = d / h;
    let mut out = Vec::with_capacity(t_len * d);
    for head in 0..h {
        for t in 0..t_len {
            out.extend_from_slice(&qkv[t * 3 * d + which * d + head * hd..][..hd]);
        }
    }
    Tensor::new(vec![h, t_len, hd], out)
}

impl TrainableGpt {
    /// Run `text` (1 to P characters) through the model, every block intact, and keep every
    /// intermediate (see [`Inspection`]).
    pub fn inspect(&mut self, vocab: &Vocabulary, text: &str) -> Result<Inspection> {
        let (ids, unknown) = text_ids(vocab, text, self.shape.context)?;
        let saved_modes = std::mem::replace(&mut self.block_modes, vec![BlockMode::Intact; self.shape.n_layers]);
        let result = self.forward(&ids, None, 1, ids.len()).map(|_| self.read_pass(vocab, ids, unknown));
        self.block_modes = saved_modes;
        result
    }

    /// Every intermediate of the forward pass just run (batch 1, every block intact) over `ids`.
    fn read_pass(&self, vocab: &Vocabulary, ids: Vec<usize>, unknown: Vec<usize>) -> Inspection {
        let s = self.shape;
        let (t_len, d, v, f, h) = (ids.len(), s.d_model, s.vocab_size, s.d_ff, s.n_heads);
        let tokens: Vec<f32> = ids.iter().flat_map(|&id| self.params[id * d..(id + 1) * d].iter().copied()).collect();
        let positions = self.params[v * d..(v + t_len) * d].to_vec();
        let bs = s.block(1, t_len);
        let mut blocks = Vec::with_capacity(s.n_layers);
        for i in 0..s.n_layers {
            let x = self.stream_into_block(i).expect("a forward pass ran");
            let a: BlockActivations<&[f32]> = self.block_activations(i).expect("every block ran");
            let w = self.block_weights(i);
            let pre = s.norm == NormPlacement::Pre;
            let mut scores = vec![0.0; h * t_len * t_len];
            attention_scores(&mut scores, a.qkv, bs.attention());
            // What each sublayer added, through the same projection the forward pass used.
            let bias = |b: &'_ [f32]| (!b.is_empty()).then_some(b).map(|b| b.to_vec());
            let mut attention_output = vec![0.0; t_len * d];
            linear_forward(&mut attention_output, a.atty, w.attn_proj_weight, bias(w.attn_proj_bias).as_deref(), d, d);
            let mut feed_forward_output = vec![0.0; t_len * d];
            linear_forward(&mut feed_forward_output, a.fch_gelu, w.mlp_proj_weight, Some(w.mlp_proj_bias), f, d);
            let (ln_1_input, ln_2_input) = if pre { (x, a.res_1) } else { (a.res_1, a.res_2) };
            let after_attention = if pre { a.res_1 } else { a.ln_1 };
            let output = if pre { a.res_2 } else { a.ln_2 };
            let open: Vec<f32> =
                a.fch.chunks_exact(f).map(|row| row.iter().filter(|&&z| z > 0.0).count() as f32 / f as f32).collect();
            let gelu_open_share = a.fch.iter().filter(|&&z| z > 0.0).count() as f64 / a.fch.len() as f64;
            blocks.push(BlockInspection {
                block: i,
                input: Tensor::rows(x, d),
                ln_1: norm_reading(a.ln_1, ln_1_input, a.ln_1_mean, a.ln_1_rstd, d),
                q: per_head(a.qkv, 0, t_len, d, h),
                k: per_head(a.qkv, 1, t_len, d, h),
                v: per_head(a.qkv, 2, t_len, d, h),
                scores: Tensor::new(vec![h, t_len, t_len], scores),
                weights: Tensor::new(vec![h, t_len, t_len], a.att.to_vec()),
                heads: Tensor::rows(a.atty, d),
                attention_output: Tensor::rows(&attention_output, d),
                after_attention: Tensor::rows(after_attention, d),
                ln_2: norm_reading(a.ln_2, ln_2_input, a.ln_2_mean, a.ln_2_rstd, d),
                hidden: Tensor::rows(a.fch, f),
                hidden_gelu: Tensor::rows(a.fch_gelu, f),
                feed_forward_output: Tensor::rows(&feed_forward_output, d),
                output: Tensor::rows(output, d),
                stream_sizes: StreamSizes {
                    input: row_sizes(x, d),
                    after_attention_add: row_sizes(a.res_1, d),
                    after_attention: row_sizes(after_attention, d),
                    after_feed_forward_add: row_sizes(a.res_2, d),
                    output: row_sizes(output, d),
                },
                gelu_open: Tensor::vector(open),
                gelu_open_share,
            });
        }
        let last = self.stream_into_block(s.n_layers).expect("a forward pass ran");
        let (ln_f, mean, rstd) = self.final_norm();
        let logits = self.logits().to_vec();
        let mut probabilities = logits.clone();
        probabilities.chunks_exact_mut(v).for_each(softmax_in_place);
        Inspection {
            text: vocab.decode(&ids),
            symbols: ids.iter().map(|&id| vocab.decode(&[id])).collect(),
            unknown,
            norm: s.norm,
            context: s.context,
            longest_text: longest_text(s.context),
            tokens: Tensor::rows(&tokens, d),
            positions: Tensor::rows(&positions, d),
            embedded: Tensor::rows(self.embedded(), d),
            blocks,
            ln_f: norm_reading(ln_f, last, mean, rstd, d),
            logits: Tensor::rows(&logits, v),
            probabilities: Tensor::rows(&probabilities, v),
            ids,
        }
    }
}

#[cfg(test)]
mod tests;
