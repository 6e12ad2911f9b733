//! A panel of bf16 weights stored along the inputs (nn.Linear's [out, in]) packed with AVX-512:
//! blocks of 16 outputs by 16 pairs of inputs, each read as 16 rows of 64 bytes and transposed in
//! registers (three rounds of unpacks and two of 128-bit lane shuffles), so that the panel's row of
//! a pair is written as whole vectors. The plain packer moves one pair at a time with a 128-byte
//! stride between stores; on the 0.5 B Qwen2 shapes it was about an eighth of the products' time.

use core::arch::x86_64::*;

use super::super::NR;

/// Whether this CPU runs the packer (AVX-512 F).
pub fn supported() -> bool {
    std::is_x86_feature_detected!("avx512f")
}

/// The 16 x 16 u32 in `r` transposed: r[j][i] becomes r[i][j].
#[inline]
#[target_feature(enable = "avx512f")]
fn transpose(r: &mut [__m512i; 16]) {
    let mut t = [_mm512_setzero_si512(); 16];
    for i in 0..8 {
        t[2 * i] = _mm512_unpacklo_epi32(r[2 * i], r[2 * i + 1]);
        t[2 * i + 1] = _mm512_unpackhi_epi32(r[2 * i], r[2 * i + 1]);
    }
    for i in 0..4 {
        let b = 4 * i;
        r[b] = _mm512_unpacklo_epi64(t[b], t[b + 2]);
        r[b + 1] = _mm512_unpackhi_epi64(t[b], t[b + 2]);
        r[b + 2] = _mm512_unpacklo_epi64(t[b + 1], t[b + 3]);
        r[b + 3] = _mm512_unpackhi_epi64(t[b + 1], t[b + 3]);
    }
    for i in 0..4 {
        t[i] = _mm512_shuffle_i32x4::<0x88>(r[i], r[i + 4]);
        t[i + 4] = _mm512_shuffle_i32x4::<0xdd>(r[i], r[i + 4]);
        t[i + 8] = _mm512_shuffle_i32x4::<0x88>(r[i + 8], r[i + 12]);
        t[i + 12] = _mm512_shuffle_i32x4::<0xdd>(r[i + 8], r[i + 12]);
    }
    for i in 0..8 {
        r[i] = _mm512_shuffle_i32x4::<0x88>(t[i], t[i + 8]);
        r[i + 8] = _mm512_shuffle_i32x4::<0xdd>(t[i], t[i + 8]);
    }
}

/// panel [blocks·16, NR] u32: panel[p][c] = the pair p of row c (4 bytes: two bf16), for p <
/// blocks·16 and every c < NR, where row c starts at byte `rows + c·stride`.
///
/// # Safety
/// The CPU has AVX-512 F ([`supported`]); rows c < NR hold blocks·16 readable pairs from their start;
/// the panel holds blocks·16·NR numbers.
#[target_feature(enable = "avx512f")]
pub unsafe fn panel_rows(panel: &mut [u32], rows: *const u8, stride: usize, blocks: usize) {
    assert!(panel.len() >= blocks * 16 * NR);
    let out = panel.as_mut_ptr();
    for p0 in (0..blocks * 16).step_by(16) {
        for c0 in (0..NR).step_by(16) {
            let mut r: [__m512i; 16] =
                std::array::from_fn(|i| _mm512_loadu_si512(rows.add((c0 + i) * stride + 4 * p0) as *const _));
            transpose(&mut r);
            for (j, v) in r.iter().enumerate() {
                _mm512_storeu_si512(out.add((p0 + j) * NR + c0) as *mut _, *v);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packs_as_the_rows_transposed() {
        if !supported() {
            return;
        }
        // 32 rows of 40 pairs, a stride of 43: two blocks of 16 pairs from pair 0 on.
        // Rows 130 bytes apart (65 bf16: an odd number, so every other row starts off a 4-byte
        // boundary), each read from its byte 2 on: 32 pairs of its 64.
        let stride = 130;
        let bytes: Vec<u8> = (0..NR * stride + 2).map(|i| (i as u32).wrapping_mul(2_654_435_761) as u8).collect();
        let mut panel = vec![0u32; 2 * 16 * NR];
        // SAFETY: checked above; row 31 ends at byte 2 + 31·130 + 128 < 32·130 + 2.
        unsafe { panel_rows(&mut panel, bytes[2..].as_ptr(), stride, 2) };
        for p in 0..32 {
            for c in 0..NR {
                let at = 2 + c * stride + 4 * p;
                let want = u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
                assert_eq!(panel[p * NR + c], want, "pair {p}, row {c}");
            }
        }
    }
}
