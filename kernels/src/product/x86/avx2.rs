//! The bf16 tile on AVX2 + FMA, for x86 CPUs without AVX-512 BF16: the portable tile's sums (each
//! bf16 pair widened exactly, its two products added, then added to the running sum), compiled for
//! 256-bit lanes. The same bits as the portable tile: Rust never fuses a multiply and an add unasked.

use super::super::{portable, Tile};

/// Whether this CPU runs the tile (AVX2 and FMA).
pub fn supported() -> bool {
    std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma")
}

/// The tile's sums (see [`Tile`]).
///
/// # Safety
/// As [`portable::tile`], and the CPU must have AVX2 and FMA ([`supported`]).
#[target_feature(enable = "avx2,fma")]
pub unsafe fn tile(tile: Tile) {
    portable::tile(tile)
}
