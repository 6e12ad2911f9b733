//! Four f32 lanes, the one vector type the kernels are written in: WebAssembly SIMD (simd128) in the
//! browser, SSE on x86-64 (every x86-64 has it), four plain floats anywhere else.
//!
//! Every operation is a separate IEEE multiply or add in each lane (no fused multiply-add), and
//! [`F4::sum`] adds the lanes in one fixed order, so a kernel gives the same bits on every platform:
//! the page and `tblock` train the same weights from the same seed.

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

    /// self + a·b, lane by lane: a multiply, then an add (never fused).
    #[inline(always)]
    pub fn mul_add(self, a: F4, b: F4) -> F4 {
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        return F4(arch::f32x4_add(self.0, arch::f32x4_mul(a.0, b.0)));
        #[cfg(target_arch = "x86_64")]
        // SAFETY: SSE is part of x86-64.
        return F4(unsafe { arch::_mm_add_ps(self.0, arch::_mm_mul_ps(a.0, b.0)) });
        #[cfg(not(any(all(target_arch = "wasm32", target_feature = "simd128"), target_arch = "x86_64")))]
        return F4(core::array::from_fn(|i| self.0[i] + a.0[i] * b.0[i]));
    }

    /// (l0 + l1) + (l2 + l3)
    #[inline(always)]
    pub fn sum(self) -> f32 {
        let l = self.to_array();
        (l[0] + l[1]) + (l[2] + l[3])
    }
}

impl core::ops::Add for F4 {
    type Output = F4;

    /// Lane by lane.
    #[inline(always)]
    fn add(self, other: F4) -> F4 {
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        return F4(arch::f32x4_add(self.0, other.0));
        #[cfg(target_arch = "x86_64")]
        // SAFETY: SSE is part of x86-64.
        return F4(unsafe { arch::_mm_add_ps(self.0, other.0) });
        #[cfg(not(any(all(target_arch = "wasm32", target_feature = "simd128"), target_arch = "x86_64")))]
        return F4(core::array::from_fn(|i| self.0[i] + other.0[i]));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    }
}
