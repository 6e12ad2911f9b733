//! The exponentials a checkpoint's softmaxes spend their time in (attention's rows, the loss's
//! running log-sum-exp over the vocabulary), sixteen lanes at a time: the same Rust compiled for
//! AVX-512, for AVX2 and for the baseline, picked by [`Isa`]. The exponential is the kernels'
//! [`exp`]; only the order of the sums differs from [`crate::activation::softmax_in_place`].

use super::Isa;
use crate::activation::exp;

const LANES: usize = 16;

/// The largest of `z` and Σ e^(z − largest) (−∞ and 0 for an empty slice).
#[inline(always)]
fn max_exp_sum_lanes(z: &[f32]) -> (f32, f32) {
    let chunks = z.chunks_exact(LANES);
    let rest = chunks.remainder();
    let mut top = [f32::NEG_INFINITY; LANES];
    for c in chunks.clone() {
        for i in 0..LANES {
            top[i] = if c[i] > top[i] { c[i] } else { top[i] };
        }
    }
    let m = top.iter().chain(rest).fold(f32::NEG_INFINITY, |m, &x| if x > m { x } else { m });
    if m == f32::NEG_INFINITY {
        return (m, 0.0);
    }
    let mut sums = [0.0f32; LANES];
    for c in chunks {
        for i in 0..LANES {
            sums[i] += exp(c[i] - m);
        }
    }
    (m, sums.iter().sum::<f32>() + rest.iter().map(|&x| exp(x - m)).sum::<f32>())
}

/// row = softmax(row), in place.
#[inline(always)]
fn softmax_lanes(row: &mut [f32]) {
    let (m, sum) = max_exp_sum_lanes(row);
    let scale = 1.0 / sum;
    row.iter_mut().for_each(|x| *x = exp(*x - m) * scale);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn max_exp_sum_avx512(z: &[f32]) -> (f32, f32) {
    max_exp_sum_lanes(z)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn softmax_avx512(row: &mut [f32]) {
    softmax_lanes(row)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn max_exp_sum_avx2(z: &[f32]) -> (f32, f32) {
    max_exp_sum_lanes(z)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn softmax_avx2(row: &mut [f32]) {
    softmax_lanes(row)
}

/// The largest of `z` and Σ e^(z − largest), on `isa`'s lanes.
pub fn max_exp_sum(isa: Isa, z: &[f32]) -> (f32, f32) {
    match isa.or_portable() {
        // SAFETY: or_portable keeps Isa::Amx and Isa::Avx512Bf16 only where the CPU has AVX-512 F.
        #[cfg(target_arch = "x86_64")]
        Isa::Amx | Isa::Avx512Bf16 => unsafe { max_exp_sum_avx512(z) },
        // SAFETY: and Isa::Avx2 only where the CPU has AVX2 and FMA.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => unsafe { max_exp_sum_avx2(z) },
        _ => max_exp_sum_lanes(z),
    }
}

/// row = softmax(row) in place (an empty row stays empty), on `isa`'s lanes.
pub fn softmax(isa: Isa, row: &mut [f32]) {
    match isa.or_portable() {
        // SAFETY: as above.
        #[cfg(target_arch = "x86_64")]
        Isa::Amx | Isa::Avx512Bf16 => unsafe { softmax_avx512(row) },
        // SAFETY: as above.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => unsafe { softmax_avx2(row) },
        _ => softmax_lanes(row),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::activation::softmax_in_place;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn every_instruction_set_agrees_with_the_plain_softmax() {
        for isa in Isa::available() {
            for n in [0, 1, 15, 16, 17, 100, 4096, 4099] {
                let z: Vec<f32> = (0..n).map(|i| ((i * 37 % 101) as f32 - 50.0) * 0.3).collect();
                let mut want = z.clone();
                softmax_in_place(&mut want);
                let mut got = z.clone();
                softmax(isa, &mut got);
                for (a, b) in got.iter().zip(&want) {
                    assert!((a - b).abs() <= 1e-5 * b.max(1e-3), "{isa:?} n={n}: {a} vs {b}");
                }
                let (m, s) = max_exp_sum(isa, &z);
                if n == 0 {
                    assert_eq!((m, s), (f32::NEG_INFINITY, 0.0));
                    continue;
                }
                let exact: f64 = z.iter().map(|&x| (f64::from(x) - f64::from(m)).exp()).sum();
                assert_eq!(m, z.iter().copied().fold(f32::NEG_INFINITY, f32::max));
                assert!((f64::from(s) - exact).abs() < 1e-5 * exact, "{isa:?} n={n}: {s} vs {exact}");
            }
        }
    }
}
