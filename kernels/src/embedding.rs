//! The token and position tables, as flat buffers: where the residual stream starts. Position t of
//! sequence b holds the token table's row for its id plus the position table's row t.
//!
//! Forward and backward side by side (llm.c's pairs): buffers are row-major, outputs first.
//! N = B·T positions, d the width, V the vocabulary, P the positions the table holds (T ≤ P).

/// out [B, T, d] = wte[ids[b, t]] + wpe[t]
///
/// ids [B, T]   wte [V, d]   wpe [P, d]
pub fn embedding_forward(out: &mut [f32], ids: &[usize], wte: &[f32], wpe: &[f32], t_len: usize, d: usize) {
    for (n, (row, &id)) in out.chunks_exact_mut(d).zip(ids).enumerate() {
        let t = n % t_len;
        let token = &wte[id * d..(id + 1) * d];
        let position = &wpe[t * d..(t + 1) * d];
        for ((o, a), b) in row.iter_mut().zip(token).zip(position) {
            *o = a + b;
        }
    }
}

/// dwte[ids[b, t]] += dout[b, t];  dwpe[t] += dout[b, t]   (accumulates)
///
/// dout [B, T, d]   ids [B, T]   dwte [V, d]   dwpe [P, d]
pub fn embedding_backward(dwte: &mut [f32], dwpe: &mut [f32], dout: &[f32], ids: &[usize], t_len: usize, d: usize) {
    for (n, (g, &id)) in dout.chunks_exact(d).zip(ids).enumerate() {
        let t = n % t_len;
        dwte[id * d..(id + 1) * d].iter_mut().zip(g).for_each(|(w, g)| *w += g);
        dwpe[t * d..(t + 1) * d].iter_mut().zip(g).for_each(|(w, g)| *w += g);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn each_position_adds_its_token_row_and_its_position_row() {
        // V 3, P 2, d 2; one sequence of two ids (2, 0).
        let wte = [1.0, 2.0, 10.0, 20.0, 100.0, 200.0];
        let wpe = [0.5, 0.25, -1.0, -2.0];
        let mut out = [0.0; 4];
        embedding_forward(&mut out, &[2, 0], &wte, &wpe, 2, 2);
        assert_eq!(out, [100.5, 200.25, 0.0, 0.0]);

        let (mut dwte, mut dwpe) = ([0.0; 6], [0.0; 4]);
        embedding_backward(&mut dwte, &mut dwpe, &[1.0, 2.0, 3.0, 4.0], &[2, 2], 2, 2);
        assert_eq!(dwte, [0.0, 0.0, 0.0, 0.0, 4.0, 6.0]);
        assert_eq!(dwpe, [1.0, 2.0, 3.0, 4.0]);
    }
}
