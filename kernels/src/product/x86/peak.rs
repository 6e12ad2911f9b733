//! This CPU's peak for the instructions the products use, measured rather than looked up: each
//! probe runs one instruction on registers only (no loads), enough independent sums that its issue
//! rate, not its latency, is the limit, and returns the floating-point operations it did.
//!
//! - `vfmadd231ps zmm`: 16 lanes x 2 flop, 12 independent sums;
//! - `vdpbf16ps zmm`: 16 lanes x 2 pairs x 2 flop, 12 independent sums;
//! - `tdpbf16ps`: 16 x 16 x 32 pairs x 2 flop, four tiles of sums (tmm0-3) from tmm4-7.
//!
//! `cargo run --release -p tb-kernels --example peak` runs them on one thread and on all, and
//! prints GFLOP/s: the ceiling that `make bench-checkpoint` gives the products' rate as a share of.

use core::arch::asm;
use core::arch::x86_64::*;
use std::hint::black_box;

/// Floating-point operations of `rounds` rounds of 12 `vfmadd231ps zmm`.
///
/// # Safety
/// The CPU has AVX-512 F.
#[target_feature(enable = "avx512f")]
pub unsafe fn fma_f32(rounds: u64) -> f64 {
    let x = _mm512_set1_ps(black_box(0.999_999));
    let y = _mm512_set1_ps(black_box(1e-7));
    let mut acc = [_mm512_setzero_ps(); 12];
    for _ in 0..rounds {
        for a in acc.iter_mut() {
            *a = _mm512_fmadd_ps(*a, x, y);
        }
    }
    black_box(acc);
    rounds as f64 * 12.0 * 32.0
}

/// Floating-point operations of `rounds` rounds of 12 `vdpbf16ps zmm`.
///
/// # Safety
/// The CPU has AVX-512 F and BF16.
#[target_feature(enable = "avx512f,avx512bf16")]
pub unsafe fn dot_bf16(rounds: u64) -> f64 {
    let x: __m512bh = std::mem::transmute(_mm512_set1_epi32(black_box(0x3f80_3f80)));
    let y: __m512bh = std::mem::transmute(_mm512_set1_epi32(black_box(0x3380_3380)));
    let mut acc = [_mm512_setzero_ps(); 12];
    for _ in 0..rounds {
        for a in acc.iter_mut() {
            *a = _mm512_dpbf16_ps(*a, x, y);
        }
    }
    black_box(acc);
    rounds as f64 * 12.0 * 64.0
}

/// Floating-point operations of `rounds` rounds of four `tdpbf16ps`, this thread's tiles
/// configured and released around them.
///
/// # Safety
/// [`super::amx::supported`] is true.
pub unsafe fn tile_bf16(rounds: u64) -> f64 {
    // Inputs of small bf16 numbers (1/64 in each half), so no sum overflows.
    let inputs = [0x3c80_3c80u32; 16 * 16];
    super::amx::configure();
    asm!(
        "tileloadd tmm4, [{p} + {s}*1]",
        "tileloadd tmm5, [{p} + {s}*1]",
        "tileloadd tmm6, [{p} + {s}*1]",
        "tileloadd tmm7, [{p} + {s}*1]",
        "tilezero tmm0",
        "tilezero tmm1",
        "tilezero tmm2",
        "tilezero tmm3",
        p = in(reg) inputs.as_ptr(),
        s = in(reg) 64usize,
        options(nostack, readonly, preserves_flags),
    );
    for _ in 0..rounds {
        asm!(
            "tdpbf16ps tmm0, tmm4, tmm6",
            "tdpbf16ps tmm1, tmm4, tmm7",
            "tdpbf16ps tmm2, tmm5, tmm6",
            "tdpbf16ps tmm3, tmm5, tmm7",
            options(nostack, nomem, preserves_flags),
        );
    }
    super::amx::release();
    rounds as f64 * 4.0 * 16.0 * 16.0 * 32.0 * 2.0
}
