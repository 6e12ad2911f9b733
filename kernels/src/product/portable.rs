//! The bf16 tile in plain Rust: for any CPU, and the reference the instruction-set tiles are tested
//! against. Each pair is widened to f32 (exactly: bf16 is f32's top half) and summed as
//! `vdpbf16ps` sums it, the pair's two products added, then added to the running sum.

use super::{Tile, MR, NR};

/// The pair's two bf16 numbers as f32: (low half, high half).
#[inline(always)]
fn widen(pair: u32) -> (f32, f32) {
    (f32::from_bits(pair << 16), f32::from_bits(pair & 0xffff_0000))
}

/// The tile's sums (see [`Tile`]); inlined into each instruction set's copy of it (`x86::avx2`).
///
/// # Safety
/// Rows 0..mr of a must hold kc pairs each, b kc x NR pairs, c mr rows of nr numbers; mr ≤ MR and
/// nr ≤ NR.
#[inline(always)]
pub unsafe fn tile(Tile { a, lda, mr, b, kc, c, ldc, nr }: Tile) {
    let b = std::slice::from_raw_parts(b, kc * NR);
    for r in 0..mr.min(MR) {
        let row = std::slice::from_raw_parts(a.add(r * lda), kc);
        let mut acc = [0.0f32; NR];
        for (&x, w) in row.iter().zip(b.chunks_exact(NR)) {
            let (x0, x1) = widen(x);
            for (s, &w) in acc.iter_mut().zip(w) {
                let (w0, w1) = widen(w);
                *s += x0 * w0 + x1 * w1;
            }
        }
        let out = std::slice::from_raw_parts_mut(c.add(r * ldc), nr.min(NR));
        out.iter_mut().zip(acc).for_each(|(o, s)| *o += s);
    }
}
