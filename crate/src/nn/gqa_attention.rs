//! Grouped-query attention (Llama 3, Mistral, Qwen2): h query heads share n_kv key/value heads,
//! query head i reading key/value head i / (h / n_kv). With n_kv = h it is GPT-2's multi-head
//! attention; with n_kv = 1, multi-query attention. Fewer K and V heads make the KV cache smaller;
//! the scores are computed as ever: softmax(q·kᵀ / √d_head) over the keys a query may see, then the
//! weighted sum of values. Attention is still the only stage that mixes positions.

use tb_kernels::activation::softmax_in_place;
use tb_kernels::linear::{axpy, dot};

/// The sizes of one attention call over one sequence of T positions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GqaShape {
    pub seq_len: usize,
    /// h: query heads.
    pub n_heads: usize,
    /// Key/value heads; divides h.
    pub n_kv_heads: usize,
    pub head_dim: usize,
    /// Decoder: query t sees keys up to t. Encoder (false): all T.
    pub causal: bool,
    /// Mistral's sliding window w: query t sees only keys t − w + 1 ..= t.
    pub window: Option<usize>,
}

impl GqaShape {
    /// The keys query t may see, as a range of positions.
    pub fn visible(&self, t: usize) -> std::ops::Range<usize> {
        let end = if self.causal { t + 1 } else { self.seq_len };
        let start = self.window.map_or(0, |w| (t + 1).saturating_sub(w));
        start..end
    }
}

/// out [T, h·d_head] = each query head's weighted sum of its group's values.
///
/// q [T, h·d_head] (already rotated, for rotary models)   k, v [T, n_kv·d_head]
/// `weights` is scratch of at least T numbers (one query's row of attention weights).
/// `shown` [h, T, T], when given, receives each query head's attention weights, row t over every
/// key (0 for the keys query t may not see): what `output_attentions` shows, the very numbers the
/// values were summed with.
pub fn gqa_attention(
    out: &mut [f32],
    q: &[f32],
    k: &[f32],
    v: &[f32],
    s: GqaShape,
    weights: &mut Vec<f32>,
    mut shown: Option<&mut [f32]>,
) {
    let (hd, h, kv, t_len) = (s.head_dim, s.n_heads, s.n_kv_heads, s.seq_len);
    let group = h / kv;
    out[..t_len * h * hd].fill(0.0);
    if let Some(shown) = shown.as_deref_mut() {
        shown[..h * t_len * t_len].fill(0.0);
    }
    for t in 0..t_len {
        let keys = s.visible(t);
        for head in 0..h {
            let kv_head = head / group;
            row_weights(weights, &q[t * h * hd..], k, s, t, head);
            if let Some(shown) = shown.as_deref_mut() {
                shown[(head * t_len + t) * t_len..][keys.clone()].copy_from_slice(weights);
            }
            let o = &mut out[(t * h + head) * hd..][..hd];
            for (t2, &w) in keys.clone().zip(weights.iter()) {
                axpy(o, w, &v[(t2 * kv + kv_head) * hd..][..hd]);
            }
        }
    }
}

/// As [`gqa_attention`], for the queries of positions `first..T` alone (q [T − first, h·d_head])
/// over the keys and values of every position (k, v [T, n_kv·d_head]): new positions reading a KV
/// cache. out [T − first, h·d_head]; each row's numbers are the ones [`gqa_attention`] gives it.
pub fn gqa_attention_from(
    out: &mut [f32],
    q: &[f32],
    k: &[f32],
    v: &[f32],
    s: GqaShape,
    first: usize,
    weights: &mut Vec<f32>,
) {
    let (hd, h, kv) = (s.head_dim, s.n_heads, s.n_kv_heads);
    let group = h / kv;
    for (row, t) in (first..s.seq_len).enumerate() {
        let keys = s.visible(t);
        for head in 0..h {
            let kv_head = head / group;
            row_weights(weights, &q[row * h * hd..], k, s, t, head);
            let o = &mut out[(row * h + head) * hd..][..hd];
            o.fill(0.0);
            for (t2, &w) in keys.clone().zip(weights.iter()) {
                axpy(o, w, &v[(t2 * kv + kv_head) * hd..][..hd]);
            }
        }
    }
}

/// weights = softmax(q_t · kᵀ / √d_head) over the keys query t of `head` may see ([`GqaShape::visible`]);
/// `q_row`, query t's row of q [h·d_head].
fn row_weights(weights: &mut Vec<f32>, q_row: &[f32], k: &[f32], s: GqaShape, t: usize, head: usize) {
    let (hd, h, kv) = (s.head_dim, s.n_heads, s.n_kv_heads);
    let kv_head = head / (h / kv);
    let scale = 1.0 / (hd as f32).sqrt();
    let query = &q_row[head * hd..][..hd];
    weights.clear();
    weights.extend(s.visible(t).map(|t2| dot(query, &k[(t2 * kv + kv_head) * hd..][..hd]) * scale));
    softmax_in_place(weights);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plain loops over every (query, key) pair, in f64: the definition written out (causal only).
    fn by_definition(q: &[f32], k: &[f32], v: &[f32], s: GqaShape) -> Vec<f32> {
        let (hd, h, kv) = (s.head_dim, s.n_heads, s.n_kv_heads);
        let mut out = vec![0.0f32; s.seq_len * h * hd];
        for t in 0..s.seq_len {
            for head in 0..h {
                let g = head * kv / h;
                let allowed: Vec<usize> =
                    (0..s.seq_len).filter(|&j| j <= t && s.window.is_none_or(|w| t - j < w)).collect();
                let scores: Vec<f64> = allowed
                    .iter()
                    .map(|&j| {
                        (0..hd).map(|c| (q[(t * h + head) * hd + c] * k[(j * kv + g) * hd + c]) as f64).sum::<f64>()
                            / (hd as f64).sqrt()
                    })
                    .collect();
                let m = scores.iter().cloned().fold(f64::MIN, f64::max);
                let z: f64 = scores.iter().map(|x| (x - m).exp()).sum();
                for (&j, sc) in allowed.iter().zip(&scores) {
                    for c in 0..hd {
                        out[(t * h + head) * hd + c] += ((sc - m).exp() / z * v[(j * kv + g) * hd + c] as f64) as f32;
                    }
                }
            }
        }
        out
    }

    #[test]
    fn grouped_heads_and_the_sliding_window_agree_with_the_definition() {
        let wave = |n: usize, a: f32| (0..n).map(|i| (i as f32 * a).sin() * 1.3).collect::<Vec<f32>>();
        for (kv, window) in [(1, None), (2, None), (4, None), (2, Some(3))] {
            let s = GqaShape { seq_len: 7, n_heads: 4, n_kv_heads: kv, head_dim: 4, causal: true, window };
            let (q, k, v) = (wave(7 * 16, 0.37), wave(7 * kv * 4, 0.71), wave(7 * kv * 4, 1.13));
            let mut out = vec![0.0; 7 * 16];
            gqa_attention(&mut out, &q, &k, &v, s, &mut Vec::new(), None);
            let want = by_definition(&q, &k, &v, s);
            for (a, b) in out.iter().zip(&want) {
                assert!((a - b).abs() < 1e-5, "kv {kv}, window {window:?}: {a} vs {b}");
            }
        }
    }

    #[test]
    fn new_positions_read_the_cached_ones_as_the_whole_sequence_does() {
        for (h, kv, window) in [(4, 2, None), (2, 2, Some(3)), (3, 1, None)] {
            let (t_len, hd) = (7, 4);
            let s = GqaShape { seq_len: t_len, n_heads: h, n_kv_heads: kv, head_dim: hd, causal: true, window };
            let wave = |n: usize, a: f32| (0..n).map(|i| (i as f32 * a).sin()).collect::<Vec<f32>>();
            let (q, k, v) = (wave(t_len * h * hd, 0.37), wave(t_len * kv * hd, 0.61), wave(t_len * kv * hd, 0.23));
            let mut whole = vec![0.0; t_len * h * hd];
            gqa_attention(&mut whole, &q, &k, &v, s, &mut Vec::new(), None);
            for first in [0, 1, 5, 6] {
                let mut part = vec![f32::NAN; (t_len - first) * h * hd];
                gqa_attention_from(&mut part, &q[first * h * hd..], &k, &v, s, first, &mut Vec::new());
                assert_eq!(part, whole[first * h * hd..], "h {h}, kv {kv}, window {window:?}, first {first}");
            }
        }
    }

    #[test]
    fn a_window_of_one_makes_each_position_read_only_its_own_value() {
        let s = GqaShape { seq_len: 3, n_heads: 1, n_kv_heads: 1, head_dim: 2, causal: true, window: Some(1) };
        assert_eq!(s.visible(2), 2..3);
        let v = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
        let mut out = vec![0.0; 6];
        gqa_attention(&mut out, &[0.5; 6], &[0.1; 6], &v, s, &mut Vec::new(), None);
        assert_eq!(out, v);
    }

    #[test]
    fn the_weights_shown_are_the_weights_the_values_are_summed_with() {
        // out = weights · v for every head and query; each row sums to 1 over the keys it may see,
        // and is 0 past them (causal, and outside the window).
        let wave = |n: usize, a: f32| (0..n).map(|i| (i as f32 * a).sin() * 1.3).collect::<Vec<f32>>();
        let (t, h, kv, hd) = (7, 4, 2, 4);
        let s = GqaShape { seq_len: t, n_heads: h, n_kv_heads: kv, head_dim: hd, causal: true, window: Some(3) };
        let (q, k, v) = (wave(t * h * hd, 0.37), wave(t * kv * hd, 0.71), wave(t * kv * hd, 1.13));
        let mut out = vec![0.0; t * h * hd];
        let mut weights = vec![f32::NAN; h * t * t];
        gqa_attention(&mut out, &q, &k, &v, s, &mut Vec::new(), Some(&mut weights));
        for head in 0..h {
            for query in 0..t {
                let row = &weights[(head * t + query) * t..][..t];
                let seen = s.visible(query);
                assert!((row[seen.clone()].iter().sum::<f32>() - 1.0).abs() < 1e-6);
                assert!(row.iter().enumerate().all(|(key, &w)| seen.contains(&key) || w == 0.0));
                for c in 0..hd {
                    let sum: f32 = (0..t).map(|key| row[key] * v[(key * kv + head / 2) * hd + c]).sum();
                    assert!((sum - out[(query * h + head) * hd + c]).abs() < 1e-5, "head {head}, query {query}");
                }
            }
        }
    }
}
