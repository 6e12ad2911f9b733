//! SwiGLU, the feed-forward of Llama, Mistral and Qwen2: two matrices read the normalised stream,
//! one (the gate) through SiLU, and their product is projected back down:
//! down(SiLU(x·W_gateᵀ) ⊙ x·W_upᵀ). Three matrices of d x f where GPT-2's MLP has two.

use tb_kernels::activation::exp;

/// SiLU(z) = z · σ(z) = z / (1 + e^(−z)).
#[inline]
pub fn silu(z: f32) -> f32 {
    z / (1.0 + exp(-z))
}

/// gate [N, f] becomes SiLU(gate) ⊙ up, in place; up [N, f].
pub fn swiglu_in_place(gate: &mut [f32], up: &[f32]) {
    gate.iter_mut().zip(up).for_each(|(g, u)| *g = silu(*g) * u);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn silu_passes_large_values_and_stops_large_negative_ones() {
        assert_eq!(silu(0.0), 0.0);
        assert!((silu(1.0) - 1.0 / (1.0 + (-1.0f32).exp())).abs() < 1e-6);
        assert!((silu(20.0) - 20.0).abs() < 1e-5 && silu(-20.0).abs() < 1e-6);
        let mut gate = [1.0f32, -2.0];
        swiglu_in_place(&mut gate, &[2.0, 3.0]);
        assert!((gate[0] - 2.0 * silu(1.0)).abs() < 1e-7 && (gate[1] - 3.0 * silu(-2.0)).abs() < 1e-7);
    }
}
