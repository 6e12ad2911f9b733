//! Attention's flat pair: the part between the two projections (scores, softmax over the allowed
//! keys only, weighted sum of values) for B sequences at once, and its gradient.

use crate::activation::softmax_in_place;
use crate::linear::{axpy, dot};

/// The sizes of one attention call: B sequences of T positions, width d in h heads, and the mask.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AttentionShape {
    pub batch: usize,
    pub seq_len: usize,
    pub d_model: usize,
    pub n_heads: usize,
    /// Decoder (true): query t sees keys 0..=t. Encoder (false): all T keys.
    pub causal: bool,
}

impl AttentionShape {
    fn head_width(&self) -> usize {
        self.d_model / self.n_heads
    }

    /// How many keys query t may see.
    fn visible(&self, t: usize) -> usize {
        if self.causal {
            t + 1
        } else {
            self.seq_len
        }
    }
}

/// The scaled score of query t against key t2 in one head of sequence b: q_t·k_t2/√d_head, the
/// number the softmax turns into a weight (the one place it is computed, for [`attention_forward`]
/// and [`attention_scores`]). qkv [B, T, 3d]
#[inline(always)]
fn score(qkv: &[f32], s: &AttentionShape, b: usize, head: usize, t: usize, t2: usize) -> f32 {
    let (base, d, hd) = (b * s.seq_len, s.d_model, s.head_width());
    let q = &qkv[(base + t) * 3 * d + head * hd..][..hd];
    let k = &qkv[(base + t2) * 3 * d + d + head * hd..][..hd];
    dot(q, k) * (1.0 / (hd as f32).sqrt())
}

/// scores [B, h, T, T]: every query's scaled score against every key, before the mask and the
/// softmax (what [`attention_forward`] turns into weights; a decoder then sets the scores above the
/// diagonal aside). qkv [B, T, 3d]
pub fn attention_scores(scores: &mut [f32], qkv: &[f32], s: AttentionShape) {
    let t_len = s.seq_len;
    for b in 0..s.batch {
        for head in 0..s.n_heads {
            for t in 0..t_len {
                let row = &mut scores[((b * s.n_heads + head) * t_len + t) * t_len..][..t_len];
                for (t2, z) in row.iter_mut().enumerate() {
                    *z = score(qkv, &s, b, head, t, t2);
                }
            }
        }
    }
}

/// out [B, T, d]: each head's weighted sum of values, heads side by side;
/// att [B, h, T, T]: the attention weights (softmax of q·k/√d_head over the allowed keys, 0 elsewhere).
///
/// qkv [B, T, 3d]: q, k, v side by side, head i in columns i·d_head .. (i+1)·d_head of each.
pub fn attention_forward(out: &mut [f32], att: &mut [f32], qkv: &[f32], s: AttentionShape) {
    let (t_len, d, hd) = (s.seq_len, s.d_model, s.head_width());
    for b in 0..s.batch {
        let base = b * t_len; // first position of this sequence
        for head in 0..s.n_heads {
            for t in 0..t_len {
                let row = &mut att[((b * s.n_heads + head) * t_len + t) * t_len..][..t_len];
                let visible = s.visible(t);
                for (t2, z) in row[..visible].iter_mut().enumerate() {
                    *z = score(qkv, &s, b, head, t, t2);
                }
                softmax_in_place(&mut row[..visible]);
                row[visible..].fill(0.0);
                let o = &mut out[(base + t) * d + head * hd..][..hd];
                o.fill(0.0);
                for (t2, &w) in row[..visible].iter().enumerate() {
                    axpy(o, w, &qkv[(base + t2) * 3 * d + 2 * d + head * hd..][..hd]);
                }
            }
        }
    }
}

/// The gradient of [`attention_forward`] with respect to qkv, accumulated (+=) into dqkv [B, T, 3d].
/// Per query, with weights a = softmax(z) and g the gradient of its output:
///
///   through the weighted sum:  da_j = g·v_j,  dv_j += a_j·g
///   through the softmax:       dz_j = a_j·(da_j − Σ_k a_k·da_k)   (0 for keys it may not see)
///   through the scores:        dq += dz_j·k_j/√d_head,  dk_j += dz_j·q/√d_head
///
/// `scratch` holds at least T numbers. dout [B, T, d]   qkv [B, T, 3d]   att [B, h, T, T]
pub fn attention_backward(
    dqkv: &mut [f32],
    scratch: &mut [f32],
    dout: &[f32],
    qkv: &[f32],
    att: &[f32],
    s: AttentionShape,
) {
    let (t_len, d, hd) = (s.seq_len, s.d_model, s.head_width());
    let scale = 1.0 / (hd as f32).sqrt();
    for b in 0..s.batch {
        let base = b * t_len;
        for head in 0..s.n_heads {
            for t in 0..t_len {
                let row = &att[((b * s.n_heads + head) * t_len + t) * t_len..][..t_len];
                let visible = s.visible(t);
                let g = &dout[(base + t) * d + head * hd..][..hd];
                let da = &mut scratch[..visible];
                for (t2, da) in da.iter_mut().enumerate() {
                    let v = (base + t2) * 3 * d + 2 * d + head * hd;
                    *da = dot(g, &qkv[v..v + hd]);
                    axpy(&mut dqkv[v..v + hd], row[t2], g);
                }
                let mean: f32 = row[..visible].iter().zip(da.iter()).map(|(a, da)| a * da).sum();
                let q = (base + t) * 3 * d + head * hd;
                for (t2, &da) in da.iter().enumerate() {
                    let dz = row[t2] * (da - mean) * scale;
                    let k = (base + t2) * 3 * d + d + head * hd;
                    let (dq, dk) = two_slices(dqkv, q, k, hd);
                    axpy(dq, dz, &qkv[k..k + hd]);
                    axpy(dk, dz, &qkv[q..q + hd]);
                }
            }
        }
    }
}

/// buf[i..i + len] and buf[j..j + len], both writable; the two ranges must not overlap.
fn two_slices(buf: &mut [f32], i: usize, j: usize, len: usize) -> (&mut [f32], &mut [f32]) {
    if i < j {
        let (a, b) = buf.split_at_mut(j);
        (&mut a[i..i + len], &mut b[..len])
    } else {
        let (a, b) = buf.split_at_mut(i);
        (&mut b[..len], &mut a[j..j + len])
    }
}
