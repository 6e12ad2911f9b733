//! The bf16 tile on AVX2 + FMA, for x86 CPUs without AVX-512 BF16: the portable tile's sums (each
//! bf16 pair widened exactly, its two products added, then added to the running sum), compiled for
//! 256-bit lanes. The same bits as the portable tile: Rust never fuses a multiply and an add unasked.

use super::super::portable;

/// Whether this CPU runs the tile (AVX2 and FMA).
pub fn supported() -> bool {
    std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma")
}

/// c [mr, nr] (row stride ldc) += a [mr rows of kc pairs] (row stride lda) · b [kc, NR].
///
/// # Safety
/// As [`portable::tile`], and the CPU must have AVX2 and FMA ([`supported`]).
#[allow(clippy::too_many_arguments)] // a tile's two operands and their strides
#[target_feature(enable = "avx2,fma")]
pub unsafe fn tile(a: *const u32, lda: usize, mr: usize, b: *const u32, kc: usize, c: *mut f32, ldc: usize, nr: usize) {
    portable::tile_body(a, lda, mr, b, kc, c, ldc, nr)
}
