//! RMSNorm (Llama, Mistral, Qwen2): each row divided by its root mean square, then a learned gain.
//! No mean is subtracted and there is no bias: d parameters where LayerNorm has 2d. Like LayerNorm
//! it works on one position at a time and never mixes positions.

/// out [N, d] = γ ⊙ x / √(mean(x²) + ε) for each row x of inp [N, d]; γ [d].
pub fn rms_norm_forward(out: &mut [f32], inp: &[f32], gain: &[f32], d: usize, eps: f32) {
    for (y, x) in out.chunks_exact_mut(d).zip(inp.chunks_exact(d)) {
        let mean_square = x.iter().map(|v| v * v).sum::<f32>() / d as f32;
        let r = 1.0 / (mean_square + eps).sqrt();
        for ((y, v), g) in y.iter_mut().zip(x).zip(gain) {
            *y = g * (v * r);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_comes_out_with_root_mean_square_one_times_the_gain() {
        let x = [3.0f32, -4.0, 0.0, 5.0];
        let mut y = [0.0f32; 4];
        rms_norm_forward(&mut y, &x, &[1.0, 1.0, 2.0, 0.5], 4, 0.0);
        // mean(x²) = 50 / 4, so each entry is divided by √12.5.
        let r = 12.5f64.sqrt();
        for (got, want) in y.iter().zip([3.0 / r, -4.0 / r, 0.0, 0.5 * 5.0 / r]) {
            assert!((*got as f64 - want).abs() < 1e-6, "{got} vs {want}");
        }
        // Unlike LayerNorm, a constant row is not sent to zero.
        rms_norm_forward(&mut y, &[2.0; 4], &[1.0; 4], 4, 0.0);
        assert_eq!(y, [1.0; 4]);
    }
}
