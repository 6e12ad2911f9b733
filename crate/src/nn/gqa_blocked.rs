//! [`gqa_attention`](super::gqa_attention::gqa_attention) for a real checkpoint's long windows,
//! natively: the same attention, computed a block of queries of one head at a time, as matrix
//! products (faer), on rayon's threads. For a block of B queries of query head i:
//!
//!   scores [B, n] = q_block [B, d_head] · k_sliceᵀ [d_head, n] / √d_head
//!
//! over only the n keys some query of the block may see (a causal block skips every key after its
//! last query, half the work of the whole square); each row's keys outside what its query sees are
//! left out of its softmax (weight 0); then out_block [B, d_head] = weights [B, n] · v_slice [n, d_head].
//! Blocks of every head are independent tasks, so they spread over the threads.

use faer::{Accum, MatMut, MatRef, Par};
use rayon::prelude::*;
use tb_kernels::product::{softmax, Isa};

use super::gqa_attention::GqaShape;

/// Queries a task takes: a [64, n] block of scores (256 KB at n = 1,024) stays in the L2 cache.
const QUERY_BLOCK: usize = 64;

/// out [T, h·d_head] = each query head's weighted sum of its group's values, as
/// [`gqa_attention`](super::gqa_attention::gqa_attention), on `threads` threads (1: in order, on
/// this one).
///
/// q [T, h·d_head] (already rotated, for rotary models)   k, v [T, n_kv·d_head]
pub fn gqa_attention_blocked(out: &mut [f32], q: &[f32], k: &[f32], v: &[f32], s: GqaShape, threads: usize) {
    let (t, hd, h) = (s.seq_len, s.head_dim, s.n_heads);
    if t == 0 || hd == 0 || h == 0 {
        return;
    }
    let width = h * hd;
    // A block of queries' rows of out [B, h·d_head], a task a head (its columns), written in place.
    let rows = |(b, rows): (usize, &mut [f32])| {
        let queries = b * QUERY_BLOCK..b * QUERY_BLOCK + rows.len() / width;
        let mut rest = MatMut::from_row_major_slice_mut(rows, queries.len(), width);
        let mut heads = Vec::with_capacity(h);
        for _ in 0..h {
            let (head, after) = rest.split_at_col_mut(hd);
            heads.push(head);
            rest = after;
        }
        let run = |(head, dst)| block(dst, q, k, v, s, head, queries.clone());
        if threads <= 1 {
            heads.into_iter().enumerate().for_each(run)
        } else {
            heads.into_par_iter().enumerate().for_each(run)
        }
    };
    let out = &mut out[..t * width];
    if threads <= 1 {
        out.chunks_mut(QUERY_BLOCK * width).enumerate().for_each(rows)
    } else {
        out.par_chunks_mut(QUERY_BLOCK * width).enumerate().for_each(rows)
    }
}

/// Query head `head`'s outputs for queries `queries` into out [B, d_head].
fn block(out: MatMut<f32>, q: &[f32], k: &[f32], v: &[f32], s: GqaShape, head: usize, queries: std::ops::Range<usize>) {
    let (t, hd, h, kv) = (s.seq_len, s.head_dim, s.n_heads, s.n_kv_heads);
    let kv_head = head / (h / kv);
    let b = queries.len();
    // The keys some query of the block sees.
    let keys = s.visible(queries.start).start..s.visible(queries.end - 1).end;
    let n = keys.len();
    let q_all = MatRef::from_row_major_slice(q, t, h * hd);
    let k_all = MatRef::from_row_major_slice(k, t, kv * hd);
    let v_all = MatRef::from_row_major_slice(v, t, kv * hd);
    let q_block = q_all.submatrix(queries.start, head * hd, b, hd);
    let k_slice = k_all.submatrix(keys.start, kv_head * hd, n, hd);
    let v_slice = v_all.submatrix(keys.start, kv_head * hd, n, hd);

    let mut scores = vec![0.0f32; b * n];
    let scale = 1.0 / (hd as f32).sqrt();
    faer::linalg::matmul::matmul(
        MatMut::from_row_major_slice_mut(&mut scores, b, n),
        Accum::Replace,
        q_block,
        k_slice.transpose(),
        scale,
        Par::Seq,
    );
    // Each row's softmax over the keys its query sees; the others weigh 0.
    for (i, row) in scores.chunks_mut(n).enumerate() {
        let seen = s.visible(queries.start + i);
        let (from, to) = (seen.start - keys.start, seen.end - keys.start);
        softmax(Isa::chosen(), &mut row[from..to]);
        row[..from].fill(0.0);
        row[to..].fill(0.0);
    }
    faer::linalg::matmul::matmul(
        out,
        Accum::Replace,
        MatRef::from_row_major_slice(&scores, b, n),
        v_slice,
        1.0f32,
        Par::Seq,
    );
}

#[cfg(test)]
mod tests {
    use super::super::gqa_attention::gqa_attention;
    use super::*;

    fn wave(n: usize, a: f32) -> Vec<f32> {
        (0..n).map(|i| (i as f32 * a).sin() * 1.3).collect()
    }

    #[test]
    fn blocks_of_queries_agree_with_the_plain_attention_on_awkward_shapes() {
        // One position; fewer positions than a block; a block and one; grouped heads (7 query heads
        // a key/value head, as Qwen2-0.5B); multi-query; a sliding window across blocks; an encoder.
        let cases = [
            (1, 2, 2, 4, true, None),
            (5, 4, 2, 3, true, None),
            (65, 14, 2, 8, true, None),
            (130, 4, 1, 16, true, None),
            (150, 4, 2, 8, true, Some(70)),
            (70, 2, 2, 5, false, None),
        ];
        for (t, h, kv, hd, causal, window) in cases {
            let s = GqaShape { seq_len: t, n_heads: h, n_kv_heads: kv, head_dim: hd, causal, window };
            let (q, k, v) = (wave(t * h * hd, 0.37), wave(t * kv * hd, 0.71), wave(t * kv * hd, 1.13));
            let mut want = vec![0.0; t * h * hd];
            gqa_attention(&mut want, &q, &k, &v, s, &mut Vec::new(), None);
            for threads in [1, 2] {
                let mut got = vec![f32::NAN; t * h * hd];
                gqa_attention_blocked(&mut got, &q, &k, &v, s, threads);
                for (i, (a, b)) in got.iter().zip(&want).enumerate() {
                    assert!((a - b).abs() < 1e-5, "{s:?}, {threads} threads, output {i}: {a} vs {b}");
                }
            }
        }
    }

    #[test]
    fn the_thread_count_changes_no_bit() {
        let s = GqaShape { seq_len: 200, n_heads: 6, n_kv_heads: 3, head_dim: 16, causal: true, window: None };
        let (q, k, v) = (wave(200 * 96, 0.37), wave(200 * 48, 0.71), wave(200 * 48, 1.13));
        let mut one = vec![0.0; 200 * 96];
        gqa_attention_blocked(&mut one, &q, &k, &v, s, 1);
        let mut two = vec![0.0; 200 * 96];
        gqa_attention_blocked(&mut two, &q, &k, &v, s, 2);
        assert_eq!(one, two);
    }
}
