//! The nonlinearities: GELU inside the feed-forward, softmax over attention scores and router scores,
//! and the exponential both are made of.

use crate::simd::F4;

const SQRT_2_OVER_PI: f32 = 0.797_884_6;
const CUBIC: f32 = 0.044_715;

/// ln 2 in two parts, the first with few enough bits that n·LN2_HI is exact for every n exp meets.
const LN2_HI: f32 = 0.693_359_4;
const LN2_LO: f32 = -2.121_944_4e-4;
/// 1.5·2²³: adding it rounds to a whole number (to nearest, ties to even) and leaves it in the low bits.
const ROUND: f32 = 12_582_912.0;
/// The polynomial p with e^r ≈ 1 + r + p(r)·r², highest power first (Cephes' expf).
const EXP_POLYNOMIAL: [f32; 6] = [1.987_569_1e-4, 1.398_199_9e-3, 8.333_452e-3, 4.166_579_6e-2, 1.666_666_5e-1, 0.5];

/// e^x in single precision, as Cephes computes it: x = n·ln 2 + r with n whole and |r| ≤ ln 2 / 2,
/// e^r from a degree-6 polynomial, then 2ⁿ put straight into the exponent bits. Within 2 ulp of the
/// true value; NaN stays NaN; x is held to [−87.34, 88] (results from 1.2e−38 to 1.7e38). Plain
/// multiplies, adds and bit moves (the standard library's `exp` is a call per number in
/// WebAssembly), so it gives the same bits on every platform, and [`exp4`] gives them four at a time.
#[inline(always)]
pub fn exp(x: f32) -> f32 {
    use core::f32::consts::LOG2_E;
    let x = x.clamp(-87.336_55, 88.0);
    let shifted = x * LOG2_E + ROUND;
    let n = shifted - ROUND;
    let r = (x - n * LN2_HI) - n * LN2_LO;
    let p = EXP_POLYNOMIAL[1..].iter().fold(EXP_POLYNOMIAL[0], |p, &c| p * r + c);
    let e_r = (p * r) * r + r + 1.0;
    let whole = (shifted.to_bits() as i32).wrapping_sub(ROUND.to_bits() as i32);
    e_r * f32::from_bits((whole.wrapping_add(127) as u32) << 23)
}

/// [`exp`] in four lanes: the same operations in the same order in each lane, so each lane's bits
/// are the ones [`exp`] gives for it.
#[inline(always)]
pub fn exp4(x: F4) -> F4 {
    use core::f32::consts::LOG2_E;
    let c = F4::splat;
    let x = x.clamp(-87.336_55, 88.0);
    let shifted = x * c(LOG2_E) + c(ROUND);
    let n = shifted - c(ROUND);
    let r = (x - n * c(LN2_HI)) - n * c(LN2_LO);
    let p = EXP_POLYNOMIAL[1..].iter().fold(c(EXP_POLYNOMIAL[0]), |p, &k| p * r + c(k));
    let e_r = (p * r) * r + r + c(1.0);
    e_r * shifted.two_to_the_rounded(ROUND)
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

/// [`gelu`] in four lanes, each lane's bits the ones [`gelu`] gives for it.
#[inline(always)]
pub fn gelu4(z: F4) -> F4 {
    let c = F4::splat;
    let u = c(SQRT_2_OVER_PI) * (z + c(CUBIC) * z * z * z);
    z / (c(1.0) + exp4(c(-2.0) * u))
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

/// z = GELU(z), element by element, four at a time ([`gelu4`]: the bits [`gelu`] gives): a real
/// checkpoint's hidden layer, [T, 4d] in place (GPT-2's needs one buffer, not two), where GELU one
/// at a time was 3% of a forward in wasm. TinyGPT's [`gelu_forward`] stays one at a time: its layer
/// is small, and the lesson's wasm keeps the bytes.
pub fn gelu_in_place(z: &mut [f32]) {
    let n4 = z.len() - z.len() % 4;
    for k in (0..n4).step_by(4) {
        gelu4(F4::load(&z[k..])).store(&mut z[k..]);
    }
    z[n4..].iter_mut().for_each(|z| *z = gelu(*z));
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
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

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

    /// Every 1,021st float's bits (all signs and exponents, NaN and the infinities among them),
    /// then the edges: exp's clamps, the largest and smallest floats, both zeros.
    fn awkward_inputs() -> impl Iterator<Item = f32> {
        let edges = [-87.336_55, 88.0, -87.336_56, 88.000_01, f32::MAX, f32::MIN, f32::MIN_POSITIVE, 0.0, -0.0];
        (0..=u32::MAX).step_by(1021).map(f32::from_bits).chain(edges)
    }

    #[test]
    fn four_lanes_give_the_bits_one_at_a_time_gives() {
        let inputs: Vec<f32> = awkward_inputs().collect();
        let same = |a: f32, b: f32| a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan());
        for quad in inputs.chunks_exact(4) {
            let x = F4::load(quad);
            for ((&z, e), g) in quad.iter().zip(exp4(x).to_array()).zip(gelu4(x).to_array()) {
                assert!(same(e, exp(z)), "exp4 at {z:e} ({:#010x}): {e:e}, exp gives {:e}", z.to_bits(), exp(z));
                assert!(same(g, gelu(z)), "gelu4 at {z:e} ({:#010x}): {g:e}, gelu gives {:e}", z.to_bits(), gelu(z));
            }
        }
        // In place: vectors of four, then a tail of three one at a time.
        let xs: Vec<f32> = (0..4003).map(|i| (i as f32 - 2000.0) * 0.0071).collect();
        let mut z = xs.clone();
        gelu_in_place(&mut z);
        for (&x, &g) in xs.iter().zip(&z) {
            assert_eq!(g.to_bits(), gelu(x).to_bits(), "gelu at {x}");
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
