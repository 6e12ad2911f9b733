//! Numbers rounded to bf16 and laid out as the tiles read them: a's rows as pairs of inputs, and a
//! panel of w as pairs of inputs for NR outputs side by side.

use super::{Isa, Stored, StoredMatrix, NR};

/// f32 rounded to the nearest bf16 (ties to even), as its 16 bits: what `vcvtne2ps2bf16` and
/// PyTorch's `.to(torch.bfloat16)` give. NaN stays a (quiet) NaN.
#[inline(always)]
pub fn bf16_bits(x: f32) -> u16 {
    let bits = x.to_bits();
    let round = 0x7fff + ((bits >> 16) & 1);
    let rounded = bits.wrapping_add(round) >> 16;
    // A select rather than a branch, so that loops over many numbers vectorise.
    let quiet = (bits >> 16) | 0x40;
    (if x.is_nan() { quiet } else { rounded }) as u16
}

/// Pairs of bf16 packed in a u32 as `vdpbf16ps` reads them: the first in the low half.
#[inline(always)]
fn pair(lo: u16, hi: u16) -> u32 {
    u32::from(lo) | (u32::from(hi) << 16)
}

/// Rows of activations rounded to bf16, [rows, pairs] u32, each holding inputs 2p and 2p+1 (an odd
/// last input paired with 0).
#[derive(Debug, Default, Clone)]
pub struct BfRows {
    pub data: Vec<u32>,
    pub rows: usize,
    pub inputs: usize,
    pub pairs: usize,
}

impl BfRows {
    /// inp [rows, inputs] rounded into these rows (their buffer reused). Panics if inp is not
    /// rows x inputs.
    pub fn round(&mut self, inp: &[f32], rows: usize, inputs: usize) {
        assert_eq!(inp.len(), rows * inputs, "inp holds {} numbers, not {rows} x {inputs}", inp.len());
        let pairs = inputs.div_ceil(2);
        // Every pair is written below: what the buffer held is not zeroed first.
        self.data.resize(rows * pairs, 0);
        (self.rows, self.inputs, self.pairs) = (rows, inputs, pairs);
        for (to, from) in self.data.chunks_exact_mut(pairs.max(1)).zip(inp.chunks_exact(inputs.max(1))) {
            let (whole, last) = from.split_at(inputs & !1);
            #[allow(unused_mut)] // moved on only where AVX-512 may run
            let mut done = 0;
            #[cfg(target_arch = "x86_64")]
            if super::x86::pack_avx512::supported() {
                // SAFETY: checked just above.
                done = unsafe { super::x86::pack_avx512::round_pairs(to, whole) };
            }
            for (t, f) in to[done..].iter_mut().zip(whole[2 * done..].chunks_exact(2)) {
                *t = pair(bf16_bits(f[0]), bf16_bits(f[1]));
            }
            if let Some(&x) = last.first() {
                to[pairs - 1] = pair(bf16_bits(x), 0);
            }
        }
    }
}

/// Number i of little-endian bf16 bytes, as its bits.
#[inline(always)]
fn bf16_at(b: &[u8], i: usize) -> u16 {
    u16::from_le_bytes([b[2 * i], b[2 * i + 1]])
}

/// bf16 bits as the f32 they are (f32's top half).
#[inline(always)]
fn bf16_value(bits: u16) -> f32 {
    f32::from_bits(u32::from(bits) << 16)
}

/// Number i of little-endian f16 bytes, as f32 (exact).
#[inline(always)]
fn f16_at(b: &[u8], i: usize) -> f32 {
    half::f16::from_le_bytes([b[2 * i], b[2 * i + 1]]).to_f32()
}

/// Number i of little-endian f32 bytes.
#[inline(always)]
fn f32_at(b: &[u8], i: usize) -> f32 {
    f32::from_le_bytes([b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]])
}

impl StoredMatrix<'_> {
    /// w[n][k] as f32, exactly as stored (widened from bf16 or f16).
    pub fn value(&self, n: usize, k: usize) -> f32 {
        let i = self.offset + n * self.n_stride + k * self.k_stride;
        match self.data {
            Stored::Bf16(b) => bf16_value(bf16_at(b, i)),
            Stored::F16(b) => f16_at(b, i),
            Stored::F32Bytes(b) => f32_at(b, i),
            Stored::F32(f) => f[i],
        }
    }

    /// out [nr, K] f32 = outputs n0..n0+nr of w, each row its K inputs, exactly as stored (widened
    /// from bf16 or f16): a panel of a 16-bit matrix in f32, for an f32 product that never holds the
    /// whole matrix in f32. Panics if the outputs are past w's.
    pub fn widen_rows(&self, n0: usize, nr: usize, out: &mut Vec<f32>) {
        assert!(n0 + nr <= self.outputs, "outputs {n0}..{} of {}", n0 + nr, self.outputs);
        out.clear();
        out.resize(nr * self.inputs, 0.0);
        // The dtype matched once, not per number: each arm its own loop.
        match self.data {
            Stored::Bf16(b) => self.widen_with(n0, out, |i| bf16_value(bf16_at(b, i))),
            Stored::F16(b) => self.widen_with(n0, out, |i| f16_at(b, i)),
            Stored::F32Bytes(b) => self.widen_with(n0, out, |i| f32_at(b, i)),
            Stored::F32(f) => self.widen_with(n0, out, |i| f[i]),
        }
    }

    /// out [nr, K] = w[n0 + r][k] = number(index), walking the stored numbers in the order they lie
    /// (along the inputs for nn.Linear's rows, along the outputs for GPT-2's Conv1D).
    #[inline(always)]
    fn widen_with(&self, n0: usize, out: &mut [f32], number: impl Fn(usize) -> f32) {
        let k = self.inputs;
        if k == 0 {
            return;
        }
        let nr = out.len() / k;
        if self.k_stride <= self.n_stride {
            for (r, row) in out.chunks_exact_mut(k).enumerate() {
                let start = self.offset + (n0 + r) * self.n_stride;
                row.iter_mut().enumerate().for_each(|(i, x)| *x = number(start + i * self.k_stride));
            }
        } else {
            for i in 0..k {
                let start = self.offset + n0 * self.n_stride + i * self.k_stride;
                (0..nr).for_each(|r| out[r * k + i] = number(start + r * self.n_stride));
            }
        }
    }
}

/// w[n][k] rounded to bf16 (0 past its last input).
#[inline(always)]
fn element(w: &StoredMatrix, n: usize, k: usize) -> u16 {
    if k >= w.inputs {
        return 0;
    }
    let i = w.offset + n * w.n_stride + k * w.k_stride;
    match w.data {
        Stored::Bf16(b) => bf16_at(b, i),
        Stored::F16(b) => bf16_bits(f16_at(b, i)),
        Stored::F32Bytes(b) => bf16_bits(f32_at(b, i)),
        Stored::F32(f) => bf16_bits(f[i]),
    }
}

/// panel [kc, NR] u32 = pairs kp0..kp0+kc of outputs n0..n0+nr of w, rounded to bf16 (outputs past
/// nr are 0): panel[p][c] holds w[n0+c][2(kp0+p)] and w[n0+c][2(kp0+p)+1]. On AMX and AVX-512 BF16,
/// whole panels of bf16 stored along the inputs are transposed 16 x 16 in registers, and f32 stored
/// along the outputs rounded 16 at a time ([`super::x86::pack_avx512`]); the rest, pair by pair.
#[cfg_attr(not(target_arch = "x86_64"), allow(unused_variables))] // isa picks x86's packer
pub(super) fn panel(isa: Isa, panel: &mut [u32], w: &StoredMatrix, n0: usize, nr: usize, kp0: usize, kc: usize) {
    let panel = &mut panel[..kc * NR];
    if nr < NR {
        panel.fill(0);
    }
    #[allow(unused_mut)] // moved on only where AVX-512 may run
    let mut first = 0;
    #[cfg(target_arch = "x86_64")]
    if let (Stored::Bf16(b), 1, NR, Isa::Amx | Isa::Avx512Bf16) = (w.data, w.k_stride, nr, isa) {
        // Blocks of 16 pairs that every row holds whole (the last pair of an odd row is not).
        let blocks = (w.inputs / 2).saturating_sub(kp0).min(kc) / 16;
        let start = 2 * (w.offset + n0 * w.n_stride) + 4 * kp0;
        let (stride, last) = (2 * w.n_stride, 2 * (w.offset + (n0 + NR - 1) * w.n_stride) + 4 * (kp0 + 16 * blocks));
        if blocks > 0 && last <= b.len() {
            // SAFETY: Isa::Amx and Avx512Bf16 run only where AVX-512 F does; row c < NR holds
            // 16·blocks pairs from byte start + c·stride (the last ends at `last`, inside b); the
            // panel holds kc ≥ 16·blocks rows of NR.
            unsafe { super::x86::pack_avx512::panel_rows(panel, b[start..].as_ptr(), stride, blocks) };
            first = 16 * blocks;
        }
    }
    // f32 stored along the outputs (GPT-2's Conv1D): a pair's NR numbers lie side by side in each
    // of its two input rows, rounded 16 at a time.
    #[cfg(target_arch = "x86_64")]
    if let (Some((bytes, start)), 1, NR, Isa::Amx | Isa::Avx512Bf16) = (f32_bytes(w), w.n_stride, nr, isa) {
        let pairs = (w.inputs / 2).saturating_sub(kp0).min(kc);
        let row0 = w.offset + n0 + 2 * kp0 * w.k_stride;
        // The last number read: input 2(kp0 + pairs) - 1, output n0 + NR - 1.
        let end = row0 + (2 * pairs).saturating_sub(1) * w.k_stride + NR;
        if pairs > 0 && start + 4 * end <= bytes.len() {
            // SAFETY: as above; input row k of the panel holds NR numbers from byte
            // start + 4·(row0 + k·k_stride), the last ending at start + 4·end, inside the bytes.
            unsafe {
                super::x86::pack_avx512::panel_f32_columns(
                    panel,
                    bytes[start + 4 * row0..].as_ptr(),
                    4 * w.k_stride,
                    pairs,
                )
            };
            first = pairs;
        }
    }
    for c in 0..nr {
        let n = n0 + c;
        // bf16 stored along the inputs, the pairs whole: one 4-byte read each.
        if let (Stored::Bf16(b), 1) = (w.data, w.k_stride) {
            let row = 2 * (w.offset + n * w.n_stride);
            let whole = (w.inputs / 2).saturating_sub(kp0).min(kc);
            let pairs = &b[row + 4 * (kp0 + first.min(whole))..row + 4 * (kp0 + whole)];
            for (p, pair) in pairs.chunks_exact(4).enumerate() {
                panel[(first.min(whole) + p) * NR + c] = u32::from_le_bytes([pair[0], pair[1], pair[2], pair[3]]);
            }
            for p in whole..kc {
                let k = 2 * (kp0 + p);
                panel[p * NR + c] = pair(element(w, n, k), element(w, n, k + 1));
            }
            continue;
        }
        for p in first..kc {
            let k = 2 * (kp0 + p);
            panel[p * NR + c] = pair(element(w, n, k), element(w, n, k + 1));
        }
    }
}

/// f32 numbers as bytes, and the byte the first number starts at (0: the data is its own).
#[cfg(target_arch = "x86_64")]
fn f32_bytes<'a>(w: &StoredMatrix<'a>) -> Option<(&'a [u8], usize)> {
    match w.data {
        Stored::F32Bytes(b) => Some((b, 0)),
        // SAFETY: any f32 is 4 initialised bytes; the view lives as long as the numbers.
        Stored::F32(f) => Some((unsafe { std::slice::from_raw_parts(f.as_ptr() as *const u8, 4 * f.len()) }, 0)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn rounds_to_nearest_bf16_ties_to_even() {
        assert_eq!(bf16_bits(1.0), 0x3f80);
        // 1 + 2⁻⁸ is halfway between 1 and 1 + 2⁻⁷: to even, 1.
        assert_eq!(bf16_bits(1.0 + 1.0 / 256.0), 0x3f80);
        // 1 + 3·2⁻⁸ is halfway between 1 + 2⁻⁷ and 1 + 2⁻⁶: to even, 1 + 2⁻⁶.
        assert_eq!(bf16_bits(1.0 + 3.0 / 256.0), 0x3f82);
        assert_eq!(bf16_bits(1.0 + 1.0 / 200.0), 0x3f81);
        assert_eq!(bf16_bits(-2.0), 0xc000);
        assert_eq!(bf16_bits(f32::INFINITY), 0x7f80);
        assert!(f32::from_bits(u32::from(bf16_bits(f32::NAN)) << 16).is_nan());
    }
}
