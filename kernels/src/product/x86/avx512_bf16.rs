//! The bf16 tile on AVX-512 BF16: `vdpbf16ps` multiplies 16 pairs of bf16 from each operand and adds
//! each pair's two products into one of 16 f32 lanes. A tile keeps MR x 2 vectors of sums (MR rows
//! by NR = 32 outputs, 12 registers) and, per pair of inputs, loads the panel's two vectors once and
//! broadcasts each row's pair: 12 dot products for 8 loads.

use core::arch::x86_64::*;

use super::super::{Tile, MR, NR};

/// Whether this CPU runs the tile (AVX-512 F and BF16).
pub fn supported() -> bool {
    std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512bf16")
}

/// The tile's sums (see [`Tile`]).
///
/// # Safety
/// As [`super::super::portable::tile`], and the CPU must have AVX-512 F and BF16 ([`supported`]).
#[target_feature(enable = "avx512f,avx512bf16")]
pub unsafe fn tile(Tile { a, lda, mr, b, kc, c, ldc, nr }: Tile) {
    // Rows past mr read row 0 again (always readable) and are never stored.
    let rows: [*const u32; MR] = std::array::from_fn(|r| if r < mr { a.add(r * lda) } else { a });
    let mut acc = [[_mm512_setzero_ps(); 2]; MR];
    for p in 0..kc {
        let w0: __m512bh = std::mem::transmute(_mm512_loadu_si512(b.add(p * NR) as *const _));
        let w1: __m512bh = std::mem::transmute(_mm512_loadu_si512(b.add(p * NR + 16) as *const _));
        for r in 0..MR {
            let x: __m512bh = std::mem::transmute(_mm512_set1_epi32(*rows[r].add(p) as i32));
            acc[r][0] = _mm512_dpbf16_ps(acc[r][0], x, w0);
            acc[r][1] = _mm512_dpbf16_ps(acc[r][1], x, w1);
        }
    }
    let low: __mmask16 = if nr >= 16 { 0xffff } else { (1u32 << nr) as u16 - 1 };
    let high: __mmask16 = if nr >= NR {
        0xffff
    } else if nr > 16 {
        (1u32 << (nr - 16)) as u16 - 1
    } else {
        0
    };
    for (r, sums) in acc.iter().enumerate().take(mr) {
        let row = c.add(r * ldc);
        let was = _mm512_maskz_loadu_ps(low, row);
        _mm512_mask_storeu_ps(row, low, _mm512_add_ps(was, sums[0]));
        let was = _mm512_maskz_loadu_ps(high, row.add(16));
        _mm512_mask_storeu_ps(row.add(16), high, _mm512_add_ps(was, sums[1]));
    }
}
