//! The nonlinearities: GELU inside the feed-forward, softmax over attention scores and router scores.

const SQRT_2_OVER_PI: f32 = 0.797_884_6;
const CUBIC: f32 = 0.044_715;

/// GELU in the tanh form GPT-2 and the lessons use: 0.5·z·(1 + tanh(√(2/π)·(z + 0.044715·z³))).
pub fn gelu(z: f32) -> f32 {
    // 0.5·(1 + tanh(u)) = 1/(1 + e^(−2u)): the same function through exp, several times cheaper than tanh.
    let u = SQRT_2_OVER_PI * (z + CUBIC * z * z * z);
    z / (1.0 + (-2.0 * u).exp())
}

/// GELU's slope at z. With s = σ(2u) = 1/(1 + e^(−2u)), GELU(z) = z·s, so
/// GELU'(z) = s + z·s·(1 − s)·2u', where u' = √(2/π)·(1 + 3·0.044715·z²).
pub fn gelu_slope(z: f32) -> f32 {
    let u = SQRT_2_OVER_PI * (z + CUBIC * z * z * z);
    let s = 1.0 / (1.0 + (-2.0 * u).exp());
    let du = SQRT_2_OVER_PI * (1.0 + 3.0 * CUBIC * z * z);
    s + z * s * (1.0 - s) * 2.0 * du
}

/// out = GELU(inp), element by element (flat buffers of any shape).
pub fn gelu_forward(out: &mut [f32], inp: &[f32]) {
    out.iter_mut().zip(inp).for_each(|(y, &z)| *y = gelu(z));
}

/// dinp += GELU'(inp) ⊙ dout   (accumulates)
pub fn gelu_backward(dinp: &mut [f32], inp: &[f32], dout: &[f32]) {
    for ((dz, &z), g) in dinp.iter_mut().zip(inp).zip(dout) {
        *dz += gelu_slope(z) * g;
    }
}

/// Softmax in place: subtract the largest score (so exp never overflows), exponentiate, normalise.
/// An empty slice stays empty.
pub fn softmax_in_place(scores: &mut [f32]) {
    let max = scores.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let mut sum = 0.0;
    for s in scores.iter_mut() {
        *s = (*s - max).exp();
        sum += *s;
    }
    for s in scores.iter_mut() {
        *s /= sum;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gelu_keeps_positives_and_squashes_negatives() {
        assert_eq!(gelu(0.0), 0.0);
        assert!((gelu(1.0) - 0.841_192).abs() < 1e-6);
        assert!((gelu(10.0) - 10.0).abs() < 1e-6);
        assert!((gelu(-3.0) + 0.003_637_4).abs() < 1e-6);
    }

    #[test]
    fn gelu_slope_matches_a_central_difference() {
        for z in [-4.0f32, -1.3, -0.2, 0.0, 0.4, 1.0, 2.5, 6.0] {
            let h = 1e-4f64;
            let f = |z: f64| {
                let u = (2.0 / std::f64::consts::PI).sqrt() * (z + 0.044715 * z * z * z);
                0.5 * z * (1.0 + u.tanh())
            };
            let numeric = (f(z as f64 + h) - f(z as f64 - h)) / (2.0 * h);
            assert!((gelu_slope(z) as f64 - numeric).abs() < 1e-4, "z {z}: {} vs {numeric}", gelu_slope(z));
        }
    }

    #[test]
    fn softmax_sums_to_one_and_survives_large_scores() {
        let mut s = [1000.0, 1001.0, 999.0];
        softmax_in_place(&mut s);
        assert!((s.iter().sum::<f32>() - 1.0).abs() < 1e-6);
        assert!(s[1] > s[0] && s[0] > s[2]);
    }
}
