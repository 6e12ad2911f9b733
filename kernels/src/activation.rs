//! The nonlinearities: GELU inside the feed-forward, softmax over attention scores and router scores,
//! and the exponential both are made of.

const SQRT_2_OVER_PI: f32 = 0.797_884_6;
const CUBIC: f32 = 0.044_715;

/// e^x in single precision, as Cephes computes it: x = n·ln 2 + r with n whole and |r| ≤ ln 2 / 2,
/// e^r from a degree-6 polynomial, then 2ⁿ put straight into the exponent bits. Within 2 ulp of the
/// true value; NaN stays NaN; x is held to [−87.34, 88] (results from 1.2e−38 to 1.7e38). Plain
/// multiplies, adds and bit moves, so a loop of them vectorises (the standard library's `exp` is a
/// call per number in WebAssembly) and gives the same bits on every platform.
#[inline(always)]
pub fn exp(x: f32) -> f32 {
    use core::f32::consts::LOG2_E;
    const LN2_HI: f32 = 0.693_359_4;
    const LN2_LO: f32 = -2.121_944_4e-4;
    // 1.5·2²³: adding it rounds to a whole number (to nearest, ties to even) and leaves it in the low bits.
    const ROUND: f32 = 12_582_912.0;
    let x = x.clamp(-87.336_55, 88.0);
    let shifted = x * LOG2_E + ROUND;
    let n = shifted - ROUND;
    let r = (x - n * LN2_HI) - n * LN2_LO;
    let mut p = 1.987_569_1e-4;
    p = p * r + 1.398_199_9e-3;
    p = p * r + 8.333_452e-3;
    p = p * r + 4.166_579_6e-2;
    p = p * r + 1.666_666_5e-1;
    p = p * r + 0.5;
    let e_r = (p * r) * r + r + 1.0;
    let whole = (shifted.to_bits() as i32).wrapping_sub(ROUND.to_bits() as i32);
    e_r * f32::from_bits((whole.wrapping_add(127) as u32) << 23)
}

/// The larger of two scores, keeping the first when the second is not a number.
#[inline(always)]
fn larger(m: f32, x: f32) -> f32 {
    if x > m {
        x
    } else {
        m
    }
}

/// The largest of `xs` (−∞ for none), ignoring NaN as `f32::max` does, without its library call.
#[inline]
pub fn largest(xs: &[f32]) -> f32 {
    xs.iter().fold(f32::NEG_INFINITY, |m, &x| larger(m, x))
}

/// GELU in the tanh form GPT-2 and the lessons use: 0.5·z·(1 + tanh(√(2/π)·(z + 0.044715·z³))).
#[inline(always)]
pub fn gelu(z: f32) -> f32 {
    // 0.5·(1 + tanh(u)) = 1/(1 + e^(−2u)): the same function through exp, several times cheaper than tanh.
    let u = SQRT_2_OVER_PI * (z + CUBIC * z * z * z);
    z / (1.0 + exp(-2.0 * u))
}

/// GELU's slope at z. With s = σ(2u) = 1/(1 + e^(−2u)), GELU(z) = z·s, so
/// GELU'(z) = s + z·s·(1 − s)·2u', where u' = √(2/π)·(1 + 3·0.044715·z²).
#[inline(always)]
pub fn gelu_slope(z: f32) -> f32 {
    let u = SQRT_2_OVER_PI * (z + CUBIC * z * z * z);
    let s = 1.0 / (1.0 + exp(-2.0 * u));
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
    let max = largest(scores);
    scores.iter_mut().for_each(|s| *s = exp(*s - max));
    let sum: f32 = scores.iter().sum();
    scores.iter_mut().for_each(|s| *s /= sum);
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
    fn exp_is_within_two_ulp_and_keeps_nan() {
        let mut x = -87.0f32;
        while x < 88.0 {
            let (got, want) = (exp(x), (x as f64).exp());
            assert!(((got as f64 - want) / want).abs() < 2.5e-7, "exp({x}) = {got}, not {want}");
            x += 0.0137;
        }
        assert_eq!(exp(0.0), 1.0);
        assert!(exp(f32::NAN).is_nan());
        assert!(exp(-1000.0) < 1.2e-38 && exp(1000.0) > 1e38);
        assert_eq!(largest(&[1.0, f32::NAN, 3.0, -2.0]), 3.0);
    }

    #[test]
    fn softmax_sums_to_one_and_survives_large_scores() {
        let mut s = [1000.0, 1001.0, 999.0];
        softmax_in_place(&mut s);
        assert!((s.iter().sum::<f32>() - 1.0).abs() < 1e-6);
        assert!(s[1] > s[0] && s[0] > s[2]);
    }
}
