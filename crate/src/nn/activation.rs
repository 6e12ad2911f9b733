//! The nonlinearities: GELU inside the feed-forward, softmax over attention scores and router scores.

/// GELU in the tanh form GPT-2 and the lessons use: 0.5·z·(1 + tanh(√(2/π)·(z + 0.044715·z³))).
pub fn gelu(z: f32) -> f32 {
    const SQRT_2_OVER_PI: f32 = 0.797_884_6;
    // 0.5·(1 + tanh(u)) = 1/(1 + e^(−2u)): the same function through exp, several times cheaper than tanh.
    let u = SQRT_2_OVER_PI * (z + 0.044_715 * z * z * z);
    z / (1.0 + (-2.0 * u).exp())
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
    fn softmax_sums_to_one_and_survives_large_scores() {
        let mut s = [1000.0, 1001.0, 999.0];
        softmax_in_place(&mut s);
        assert!((s.iter().sum::<f32>() - 1.0).abs() < 1e-6);
        assert!(s[1] > s[0] && s[0] > s[2]);
    }
}
