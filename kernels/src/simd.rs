//! Four f32 lanes, the one vector type the kernels are written in: WebAssembly SIMD (simd128) in the
//! browser, SSE on x86-64 (every x86-64 has it), four plain floats anywhere else.
//!
//! Every operation is a separate IEEE multiply or add in each lane (no fused multiply-add), and
//! [`F4::sum`] adds the lanes in one fixed order, so a kernel gives the same bits on every platform:
//! the page and `tblock` train the same weights from the same seed.
//!
//! One build differs: the page's checkpoint engine built with relaxed SIMD (`make wasm`,
//! checkpoint-relaxed_bg.wasm, for the browsers that have it) makes [`F4::mul_add`] relaxed SIMD's
//! multiply-add, fused where the CPU has FMA. A real checkpoint's forward then runs about 15%
//! faster (BENCHMARKS.md); it trains nothing, and its figures are checked against `tblock`'s to
//! 1e-4, not to the bit.

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
use core::arch::wasm32 as arch;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64 as arch;

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
type Lanes = arch::v128;
#[cfg(target_arch = "x86_64")]
type Lanes = arch::__m128;
#[cfg(not(any(all(target_arch = "wasm32", target_feature = "simd128"), target_arch = "x86_64")))]
type Lanes = [f32; 4];

#[derive(Clone, Copy)]
pub struct F4(Lanes);

impl F4 {
    /// [x, x, x, x]
    #[inline(always)]
    pub fn splat(x: f32) -> F4 {
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        return F4(arch::f32x4_splat(x));
        #[cfg(target_arch = "x86_64")]
        // SAFETY: SSE is part of x86-64.
        return F4(unsafe { arch::_mm_set1_ps(x) });
        #[cfg(not(any(all(target_arch = "wasm32", target_feature = "simd128"), target_arch = "x86_64")))]
        return F4([x; 4]);
    }

    /// The first four numbers of `s` (panics if it has fewer).
    #[inline(always)]
    pub fn load(s: &[f32]) -> F4 {
        let s = &s[..4];
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        // SAFETY: s holds 4 floats; v128.load needs no alignment.
        return F4(unsafe { arch::v128_load(s.as_ptr() as *const arch::v128) });
        #[cfg(target_arch = "x86_64")]
        // SAFETY: s holds 4 floats; loadu needs no alignment.
        return F4(unsafe { arch::_mm_loadu_ps(s.as_ptr()) });
        #[cfg(not(any(all(target_arch = "wasm32", target_feature = "simd128"), target_arch = "x86_64")))]
        return F4([s[0], s[1], s[2], s[3]]);
    }

    /// The four floats at `p`.
    ///
    /// # Safety
    /// p .. p + 4 must be readable floats (no alignment needed). The kernels check their bounds once,
    /// before their loops, and read this way inside them.
    #[inline(always)]
    pub unsafe fn read(p: *const f32) -> F4 {
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        return F4(arch::v128_load(p as *const arch::v128));
        #[cfg(target_arch = "x86_64")]
        return F4(arch::_mm_loadu_ps(p));
        #[cfg(not(any(all(target_arch = "wasm32", target_feature = "simd128"), target_arch = "x86_64")))]
        return F4([*p, *p.add(1), *p.add(2), *p.add(3)]);
    }

    /// Write the lanes to the four floats at `p`.
    ///
    /// # Safety
    /// p .. p + 4 must be writable floats (no alignment needed).
    #[inline(always)]
    pub unsafe fn write(self, p: *mut f32) {
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        arch::v128_store(p as *mut arch::v128, self.0);
        #[cfg(target_arch = "x86_64")]
        arch::_mm_storeu_ps(p, self.0);
        #[cfg(not(any(all(target_arch = "wasm32", target_feature = "simd128"), target_arch = "x86_64")))]
        core::ptr::copy_nonoverlapping(self.0.as_ptr(), p, 4);
    }

    /// Write the lanes to the first four numbers of `s` (panics if it has fewer).
    #[inline(always)]
    pub fn store(self, s: &mut [f32]) {
        let s = &mut s[..4];
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        // SAFETY: s holds 4 floats; v128.store needs no alignment.
        unsafe {
            arch::v128_store(s.as_mut_ptr() as *mut arch::v128, self.0)
        };
        #[cfg(target_arch = "x86_64")]
        // SAFETY: s holds 4 floats; storeu needs no alignment.
        unsafe {
            arch::_mm_storeu_ps(s.as_mut_ptr(), self.0)
        };
        #[cfg(not(any(all(target_arch = "wasm32", target_feature = "simd128"), target_arch = "x86_64")))]
        s.copy_from_slice(&self.0);
    }

    #[inline(always)]
    pub fn to_array(self) -> [f32; 4] {
        let mut a = [0.0; 4];
        self.store(&mut a);
        a
    }

    /// self + a·b, lane by lane: a multiply, then an add (never fused; except in a build with
    /// relaxed SIMD, where the browser may fuse them: see the module's note).
    #[inline(always)]
    pub fn mul_add(self, a: F4, b: F4) -> F4 {
        #[cfg(all(target_arch = "wasm32", target_feature = "relaxed-simd"))]
        return F4(arch::f32x4_relaxed_madd(a.0, b.0, self.0));
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128", not(target_feature = "relaxed-simd")))]
        return F4(arch::f32x4_add(self.0, arch::f32x4_mul(a.0, b.0)));
        #[cfg(target_arch = "x86_64")]
        // SAFETY: SSE is part of x86-64.
        return F4(unsafe { arch::_mm_add_ps(self.0, arch::_mm_mul_ps(a.0, b.0)) });
        #[cfg(not(any(all(target_arch = "wasm32", target_feature = "simd128"), target_arch = "x86_64")))]
        return F4(core::array::from_fn(|i| self.0[i] + a.0[i] * b.0[i]));
    }

    /// x held to [lo, hi] lane by lane, as `f32::clamp` does (x below lo gives lo, above hi gives hi,
    /// NaN stays NaN).
    #[inline(always)]
    pub fn clamp(self, lo: f32, hi: f32) -> F4 {
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        // Two compares and two selects, which keep a NaN x (every compare with NaN is false); not
        // pmax/pmin, which LLVM turns into relaxed SIMD's min/max where relaxed SIMD is on, and those
        // may give the bound for NaN.
        return F4({
            let (lo, hi) = (arch::f32x4_splat(lo), arch::f32x4_splat(hi));
            let x = arch::v128_bitselect(lo, self.0, arch::f32x4_lt(self.0, lo));
            arch::v128_bitselect(hi, x, arch::f32x4_gt(x, hi))
        });
        #[cfg(target_arch = "x86_64")]
        // SAFETY: SSE is part of x86-64. max_ps(a, b) = a > b ? a : b and min_ps(a, b) = a < b ? a : b
        // return b when either is NaN, so x goes second.
        return F4(unsafe { arch::_mm_min_ps(arch::_mm_set1_ps(hi), arch::_mm_max_ps(arch::_mm_set1_ps(lo), self.0)) });
        #[cfg(not(any(all(target_arch = "wasm32", target_feature = "simd128"), target_arch = "x86_64")))]
        return F4(self.0.map(|x| x.clamp(lo, hi)));
    }

    /// 2ⁿ in each lane, for lanes that hold `round` + n (a whole n in −126..=127 rounded into the
    /// low bits of the mantissa by adding `round`, 1.5·2²³): n's bits, plus 127, moved into the
    /// exponent field. The lane's bits are read as a whole number; nothing is converted.
    #[inline(always)]
    pub fn two_to_the_rounded(self, round: f32) -> F4 {
        let (round, bias) = (round.to_bits() as i32, 127);
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        return F4(arch::i32x4_shl(
            arch::i32x4_add(arch::i32x4_sub(self.0, arch::i32x4_splat(round)), arch::i32x4_splat(bias)),
            23,
        ));
        #[cfg(target_arch = "x86_64")]
        // SAFETY: SSE2 is part of x86-64.
        return F4(unsafe {
            let n = arch::_mm_sub_epi32(arch::_mm_castps_si128(self.0), arch::_mm_set1_epi32(round));
            arch::_mm_castsi128_ps(arch::_mm_slli_epi32(arch::_mm_add_epi32(n, arch::_mm_set1_epi32(bias)), 23))
        });
        #[cfg(not(any(all(target_arch = "wasm32", target_feature = "simd128"), target_arch = "x86_64")))]
        return F4(self
            .0
            .map(|x| f32::from_bits(((x.to_bits() as i32).wrapping_sub(round).wrapping_add(bias) as u32) << 23)));
    }

    /// (l0 + l1) + (l2 + l3)
    #[inline(always)]
    pub fn sum(self) -> f32 {
        let l = self.to_array();
        (l[0] + l[1]) + (l[2] + l[3])
    }
}

/// The arithmetic operators, lane by lane: one IEEE operation a lane, as the scalar `+`, `-`, `*`, `/`.
macro_rules! lane_operator {
    ($trait:ident, $method:ident, $wasm:ident, $sse:ident, $op:tt) => {
        impl core::ops::$trait for F4 {
            type Output = F4;

            #[inline(always)]
            fn $method(self, other: F4) -> F4 {
                #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
                return F4(arch::$wasm(self.0, other.0));
                #[cfg(target_arch = "x86_64")]
                // SAFETY: SSE is part of x86-64.
                return F4(unsafe { arch::$sse(self.0, other.0) });
                #[cfg(not(any(all(target_arch = "wasm32", target_feature = "simd128"), target_arch = "x86_64")))]
                return F4(core::array::from_fn(|i| self.0[i] $op other.0[i]));
            }
        }
    };
}

lane_operator!(Add, add, f32x4_add, _mm_add_ps, +);
lane_operator!(Sub, sub, f32x4_sub, _mm_sub_ps, -);
lane_operator!(Mul, mul, f32x4_mul, _mm_mul_ps, *);
lane_operator!(Div, div, f32x4_div, _mm_div_ps, /);

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn lanes_do_what_the_names_say() {
        let a = F4::load(&[1.0, 2.0, 3.0, 4.0, 99.0]);
        let b = F4::splat(0.5);
        let c = F4::splat(1.0).mul_add(a, b);
        assert_eq!(c.to_array(), [1.5, 2.0, 2.5, 3.0]);
        assert_eq!(c.sum(), 9.0);
        assert_eq!((c + b).to_array(), [2.0, 2.5, 3.0, 3.5]);
        let mut out = [0.0; 6];
        c.store(&mut out[1..]);
        assert_eq!(out, [0.0, 1.5, 2.0, 2.5, 3.0, 0.0]);
        assert_eq!((c - b).to_array(), [1.0, 1.5, 2.0, 2.5]);
        assert_eq!((c * b).to_array(), [0.75, 1.0, 1.25, 1.5]);
        assert_eq!((c / b).to_array(), [3.0, 4.0, 5.0, 6.0]);
        let clamped = F4::load(&[-5.0, f32::NAN, 0.25, 7.0]).clamp(-1.0, 2.0).to_array();
        assert_eq!([clamped[0], clamped[2], clamped[3]], [-1.0, 0.25, 2.0]);
        assert!(clamped[1].is_nan(), "a NaN stays NaN");
        // 1.5·2²³ + n holds n in its low bits: 2ⁿ for n = -126, -1, 0, 127.
        let round = 12_582_912.0f32;
        let n = F4::load(&[round - 126.0, round - 1.0, round, round + 127.0]);
        assert_eq!(n.two_to_the_rounded(round).to_array(), [2f32.powi(-126), 0.5, 1.0, 2f32.powi(127)]);
    }
}
