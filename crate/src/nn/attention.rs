//! Multi-head self-attention: the only stage that mixes positions. Each head scores every query
//! against the keys it may see, softmaxes the scores, and takes the weighted sum of the values; the
//! heads are joined and projected back to d. With the causal flag on (a decoder), position i sees
//! positions 0..=i; with it off (an encoder), it sees all of them.
//!
//! The projections follow GPT-2's checkpoint: one fused `c_attn` [d, 3d] giving q, k, v side by side,
//! and `c_proj` [d, d]. Biases are optional (GPT-2 has them; TinyGPT does not).
//!
//! [`MultiHeadAttention`] works on matrices, for the worked examples and the heatmaps;
//! [`attention_forward`] and [`attention_backward`] are the flat pair that training runs: the part
//! between the two projections (scores, softmax over the allowed keys only, weighted sum of values).

use super::activation::softmax_in_place;
use super::linear::Linear;
use super::Matrix;
use crate::nn::init::Rng;

pub use tb_kernels::attention::{attention_backward, attention_forward, attention_scores, AttentionShape};

#[derive(Debug, Clone, PartialEq)]
pub struct MultiHeadAttention {
    pub n_heads: usize,
    /// Decoder (true): no position sees a later one.
    pub causal: bool,
    /// [d, 3d]: W_Q, W_K, W_V side by side.
    pub c_attn: Linear,
    /// [d, d]: W_O.
    pub c_proj: Linear,
}

impl MultiHeadAttention {
    pub fn new(d: usize, n_heads: usize, bias: bool, causal: bool, rng: &mut Rng) -> MultiHeadAttention {
        MultiHeadAttention {
            n_heads,
            causal,
            c_attn: Linear::new(d, 3 * d, bias, rng),
            c_proj: Linear::new(d, d, bias, rng),
        }
    }

    pub fn d_model(&self) -> usize {
        self.c_proj.outputs()
    }

    /// Whether a query at position `query` may use the key at position `key`.
    pub fn allowed(&self, query: usize, key: usize) -> bool {
        !self.causal || key <= query
    }

    /// x [T, d] -> [T, d]
    pub fn forward(&self, x: &Matrix) -> Matrix {
        self.forward_with_weights(x, None)
    }

    /// As [`forward`](Self::forward), also writing each head's attention weights into `weights`
    /// ([h][T·T], row-major by query) when given.
    pub fn forward_with_weights(&self, x: &Matrix, mut weights: Option<&mut Vec<Vec<f32>>>) -> Matrix {
        let t = x.nrows();
        let d = self.d_model();
        let hd = d / self.n_heads;
        let scale = 1.0 / (hd as f32).sqrt();
        let qkv = self.c_attn.forward(x); // [T, 3d]
        let qkv = qkv.as_slice(); // column-major: column c is qkv[c·T .. (c+1)·T]
        let mut joined = Matrix::zeros(t, d); // [T, d], heads side by side
        let mut scores = vec![0.0f32; t * t]; // [T, T] row-major, reused by every head
        if let Some(w) = weights.as_deref_mut() {
            w.clear();
        }
        for head in 0..self.n_heads {
            let (q0, k0, v0) = (head * hd, d + head * hd, 2 * d + head * hd);
            // scores[i, j] = q_i · k_j / √d_head, for the pairs the mask allows.
            scores.fill(0.0);
            for c in 0..hd {
                let q = &qkv[(q0 + c) * t..(q0 + c + 1) * t];
                let k = &qkv[(k0 + c) * t..(k0 + c + 1) * t];
                for i in 0..t {
                    let row = &mut scores[i * t..(i + 1) * t];
                    let visible = if self.causal { i + 1 } else { t };
                    for j in 0..visible {
                        row[j] += q[i] * k[j];
                    }
                }
            }
            for i in 0..t {
                let visible = if self.causal { i + 1 } else { t };
                let row = &mut scores[i * t..(i + 1) * t];
                row[..visible].iter_mut().for_each(|s| *s *= scale);
                softmax_in_place(&mut row[..visible]);
                row[visible..].fill(0.0);
            }
            // out_i = Σ_j weight[i, j] · v_j, written into this head's columns.
            for c in 0..hd {
                let v = &qkv[(v0 + c) * t..(v0 + c + 1) * t];
                let mut out = joined.column_mut(head * hd + c);
                for i in 0..t {
                    let visible = if self.causal { i + 1 } else { t };
                    let row = &scores[i * t..i * t + visible];
                    out[i] = row.iter().zip(&v[..visible]).map(|(w, v)| w * v).sum();
                }
            }
            if let Some(w) = weights.as_deref_mut() {
                w.push(scores.clone());
            }
        }
        self.c_proj.forward(&joined)
    }

    pub fn n_params(&self) -> usize {
        self.c_attn.n_params() + self.c_proj.n_params()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(t: usize, d: usize, seed: u64) -> Matrix {
        Matrix::from_row_slice(t, d, &Rng::new(seed).normal_vec(t * d, 1.0))
    }

    #[test]
    fn decoder_weights_are_zero_above_the_diagonal_and_rows_sum_to_one() {
        let attn = MultiHeadAttention::new(16, 4, false, true, &mut Rng::new(1));
        let mut w = Vec::new();
        attn.forward_with_weights(&input(5, 16, 2), Some(&mut w));
        assert_eq!(w.len(), 4);
        for head in &w {
            for i in 0..5 {
                let row = &head[i * 5..(i + 1) * 5];
                assert!((row.iter().sum::<f32>() - 1.0).abs() < 1e-6);
                assert!(row[i + 1..].iter().all(|&x| x == 0.0));
            }
        }
    }

    #[test]
    fn one_position_attends_to_itself_only() {
        // With T = 1 the weights are all 1, so the output is W_O applied to v.
        let attn = MultiHeadAttention::new(8, 2, true, false, &mut Rng::new(3));
        let x = input(1, 8, 4);
        let v = attn.c_attn.forward(&x).columns(16, 8).into_owned();
        let expected = attn.c_proj.forward(&v);
        assert!((attn.forward(&x) - expected).amax() < 1e-6);
    }
}
