//! A panel of bf16 weights stored along the inputs (nn.Linear's [out, in]) packed with AVX-512:
//! blocks of 16 outputs by 16 pairs of inputs, each read as 16 rows of 64 bytes and transposed in
//! registers (three rounds of unpacks and two of 128-bit lane shuffles), so that the panel's row of
//! a pair is written as whole vectors. The plain packer moves one pair at a time with a 128-byte
//! stride between stores; on the 0.5 B Qwen2 shapes it was about an eighth of the products' time.
//! f32 stored along the outputs (GPT-2's Conv1D) is rounded to bf16 16 numbers at a time, where the
//! plain packer took a third of a bf16 ablation's products.

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

/// f32 to its nearest bf16 (ties to even; NaN stays a quiet NaN), 16 lanes: [`super::super::bf16_bits`]
/// on each, the bits in the low half of each lane.
#[inline]
#[target_feature(enable = "avx512f")]
fn bf16_lanes(x: __m512) -> __m512i {
    let bits = _mm512_castps_si512(x);
    let high = _mm512_srli_epi32::<16>(bits);
    let round = _mm512_add_epi32(_mm512_set1_epi32(0x7fff), _mm512_and_si512(high, _mm512_set1_epi32(1)));
    let rounded = _mm512_srli_epi32::<16>(_mm512_add_epi32(bits, round));
    let quiet = _mm512_or_si512(high, _mm512_set1_epi32(0x40));
    let nan = _mm512_cmp_ps_mask::<_CMP_UNORD_Q>(x, x);
    _mm512_and_si512(_mm512_mask_blend_epi32(nan, rounded, quiet), _mm512_set1_epi32(0xffff))
}

/// panel [pairs, NR] u32: panel[p][c] = bf16 of input row 2p's number c (low half) and of row
/// 2p+1's (high half), for p < pairs and c < NR, input row k's NR f32 starting at byte
/// `rows + k·stride`: GPT-2's Conv1D [in, out], f32.
///
/// # Safety
/// The CPU has AVX-512 F ([`supported`]); rows k < 2·pairs hold NR readable f32 from their start;
/// the panel holds pairs·NR numbers.
#[target_feature(enable = "avx512f")]
pub unsafe fn panel_f32_columns(panel: &mut [u32], rows: *const u8, stride: usize, pairs: usize) {
    assert!(panel.len() >= pairs * NR);
    let out = panel.as_mut_ptr();
    for p in 0..pairs {
        let (even, odd) = (rows.add(2 * p * stride), rows.add((2 * p + 1) * stride));
        for h in (0..NR).step_by(16) {
            let lo = bf16_lanes(_mm512_loadu_ps(even.add(4 * h) as *const f32));
            let hi = bf16_lanes(_mm512_loadu_ps(odd.add(4 * h) as *const f32));
            _mm512_storeu_si512(out.add(p * NR + h) as *mut _, _mm512_or_si512(lo, _mm512_slli_epi32::<16>(hi)));
        }
    }
}

/// to[p] = bf16 of from[2p] (low half) and of from[2p+1] (high half), 16 pairs at a time, for as
/// many whole 16s as both hold: the count of pairs written (the rest is the caller's).
///
/// # Safety
/// The CPU has AVX-512 F ([`supported`]).
#[target_feature(enable = "avx512f")]
pub unsafe fn round_pairs(to: &mut [u32], from: &[f32]) -> usize {
    let pairs = (to.len()).min(from.len() / 2) / 16 * 16;
    let low = _mm512_set1_epi64(0xffff);
    let high = _mm512_set1_epi64(0xffff_0000);
    for p in (0..pairs).step_by(16) {
        for h in [0, 8] {
            // Lanes 2i and 2i+1 of r as one 64-bit lane q: the pair is q's bits 0-15 and 32-47.
            let r = bf16_lanes(_mm512_loadu_ps(from.as_ptr().add(2 * (p + h))));
            let q = _mm512_or_si512(_mm512_and_si512(r, low), _mm512_and_si512(_mm512_srli_epi64::<16>(r), high));
            _mm256_storeu_si256(to.as_mut_ptr().add(p + h) as *mut __m256i, _mm512_cvtepi64_epi32(q));
        }
    }
    pairs
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

    /// `n` numbers of every size, with those that round every way (ties to even both ways, NaN,
    /// infinities, signed zero, a subnormal, the largest) at 1, 1 + every, 1 + 2·every …
    fn awkward(n: usize, every: usize) -> Vec<f32> {
        let mut numbers: Vec<f32> =
            (0..n).map(|i| ((i as f32) * 0.61).cos() * 1e3_f32.powi(i as i32 % 7 - 3)).collect();
        let special = [
            1.0 + 1.0 / 256.0,
            1.0 + 3.0 / 256.0,
            f32::NAN,
            f32::INFINITY,
            -f32::INFINITY,
            -0.0,
            f32::MIN_POSITIVE / 3.0,
            f32::MAX,
        ];
        for (i, x) in special.into_iter().enumerate() {
            numbers[1 + every * i] = x;
        }
        numbers
    }

    #[test]
    fn rounds_rows_into_pairs_as_the_scalar_rounding() {
        if !supported() {
            return;
        }
        use super::super::super::bf16_bits;
        let from = awkward(77, 5);
        let mut to = vec![0u32; 38];
        // SAFETY: checked above.
        let done = unsafe { round_pairs(&mut to, &from) };
        assert_eq!(done, 32);
        for p in 0..done {
            let want = u32::from(bf16_bits(from[2 * p])) | (u32::from(bf16_bits(from[2 * p + 1])) << 16);
            assert_eq!(to[p], want, "pair {p}: {}, {}", from[2 * p], from[2 * p + 1]);
        }
    }

    #[test]
    fn rounds_f32_columns_as_the_scalar_rounding() {
        if !supported() {
            return;
        }
        use super::super::super::bf16_bits;
        // Three pairs of input rows 35 f32 apart (an odd stride), read from byte 4 on.
        let numbers = awkward(6 * 35 + 1, 3);
        let bytes: Vec<u8> = numbers.iter().flat_map(|x| x.to_le_bytes()).collect();
        let mut panel = vec![0u32; 3 * NR];
        // SAFETY: checked above; row 5 ends at f32 1 + 5·35 + 32 ≤ 6·35 + 1.
        unsafe { panel_f32_columns(&mut panel, bytes[4..].as_ptr(), 4 * 35, 3) };
        for p in 0..3 {
            for c in 0..NR {
                let (lo, hi) = (numbers[1 + 2 * p * 35 + c], numbers[1 + (2 * p + 1) * 35 + c]);
                let want = u32::from(bf16_bits(lo)) | (u32::from(bf16_bits(hi)) << 16);
                assert_eq!(panel[p * NR + c], want, "pair {p}, output {c}: {lo}, {hi}");
            }
        }
    }
}
