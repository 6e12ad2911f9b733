//! The f32 products on a checkpoint's matrices as they are stored: an f32 file's read in place
//! (nn.Linear's [out, in] rows, or GPT-2's Conv1D [in, out] as a strided matrix), anything else
//! (bf16, f16) widened to f32 a panel of outputs at a time, never a whole matrix.

#[cfg(target_arch = "wasm32")]
use super::page_threads::{by_output_panels, MIN_SPLIT_WORK};
#[cfg(not(target_arch = "wasm32"))]
use super::parallel::{product_into, MIN_PARALLEL_WORK};
#[cfg(target_arch = "wasm32")]
use std::ops::Range;
#[cfg(target_arch = "wasm32")]
use tb_kernels::linear::{linear_forward, linear_forward_streamed};
use tb_kernels::product::{Stored, StoredMatrix};

/// Numbers of a 16-bit matrix widened to f32 at once by [`stored_forward_on`]: natively 4 MiB, a
/// panel of outputs (Qwen2-0.5B's 4,864 x 896 feed-forward in five), where widening a block whole
/// held 60 MiB; in wasm 128 KiB, so the panel stays in cache while every row of the input reads it.
pub const WIDENED_PANEL: usize = if cfg!(target_arch = "wasm32") { 32 * 1024 } else { 1 << 20 };

/// The rows N both `out` [N, w.outputs] and `inp` [N, w.inputs] hold; panics unless w's elements lie
/// in its data and the bias covers its outputs (what both [`stored_forward_on`]s check first).
fn stored_rows(out: &[f32], inp: &[f32], w: &StoredMatrix, bias: Option<&[f32]>) -> usize {
    assert!(w.fits(), "stored_forward_on: w's elements lie outside its data");
    assert!(bias.is_none_or(|b| b.len() >= w.outputs), "stored_forward_on: bias too short");
    out.len().checked_div(w.outputs).unwrap_or(0).min(inp.len().checked_div(w.inputs).unwrap_or(usize::MAX))
}

/// In wasm, out [N, w.outputs] = inp [N, w.inputs] · wᵀ + bias with the kernels' linear_forward
/// (SIMD128), w read where it is stored: an f32 file's nn.Linear rows as they are (from memory, so
/// through linear_forward_streamed: a written token's row reads them as one stream); anything else
/// (bf16, f16, GPT-2's Conv1D [in, out]) widened and turned to [out, in] a panel of outputs at a time,
/// never whole. The panels spread over the page's `threads` ([`by_output_panels`]; one, but in a
/// cross-origin isolated page's threads build). Each output's sum is the one linear_forward gives
/// on a copy of the whole matrix, bit for bit, on any number of threads.
#[cfg(target_arch = "wasm32")]
pub fn stored_forward_on(
    threads: usize,
    out: &mut [f32],
    inp: &[f32],
    w: &StoredMatrix,
    bias: Option<&[f32]>,
    widened: &mut Vec<f32>,
) {
    let (k, n) = (w.inputs, w.outputs);
    let rows = stored_rows(out, inp, w, bias);
    let threads = if rows * k * n < MIN_SPLIT_WORK { 1 } else { threads.max(1) };
    let inp = &inp[..rows * k];
    let bias_of = |o: &Range<usize>| bias.map(|b| &b[o.clone()]);
    let panel = (WIDENED_PANEL / k.max(1)).clamp(1, n.max(1));
    if let Stored::F32(data) = w.data {
        if w.k_stride == 1 && w.n_stride == k {
            let data = &data[w.offset..w.offset + n * k];
            // Read from memory once a product: a written token's row takes them as one stream.
            let fill = |o: Range<usize>, part: &mut [f32], _: &mut Vec<f32>| {
                linear_forward_streamed(part, inp, &data[o.start * k..o.end * k], bias_of(&o), k, o.len())
            };
            // One thread: the whole matrix in one call, as the kernel blocks it itself.
            let panel = if threads > 1 { panel } else { n };
            return by_output_panels(threads, out, rows, n, panel, fill, widened);
        }
    }
    let fill = |o: Range<usize>, part: &mut [f32], widened: &mut Vec<f32>| {
        w.widen_rows(o.start, o.len(), widened);
        linear_forward(part, inp, widened, bias_of(&o), k, o.len())
    };
    by_output_panels(threads, out, rows, n, panel, fill, widened);
}

/// out [N, w.outputs] = inp [N, w.inputs] · wᵀ + bias in f32 with faer, on `threads` threads, w read
/// where it is stored: an f32 checkpoint's mapped bytes, nn.Linear's [out, in] or GPT-2's Conv1D
/// [in, out] alike (faer takes either as a strided matrix; nothing is copied or transposed). w in
/// another dtype (bf16, f16, unaligned f32 bytes) is widened a panel of outputs at a time into
/// `widened` (at most [`WIDENED_PANEL`] numbers), never whole.
#[cfg(not(target_arch = "wasm32"))]
pub fn stored_forward_on(
    threads: usize,
    out: &mut [f32],
    inp: &[f32],
    w: &StoredMatrix,
    bias: Option<&[f32]>,
    widened: &mut Vec<f32>,
) {
    use faer::MatRef;
    let (k, n) = (w.inputs, w.outputs);
    let rows = stored_rows(out, inp, w, bias);
    let threads = if rows * k * n < MIN_PARALLEL_WORK { 1 } else { threads.max(1) };
    let (out, inp) = (&mut out[..rows * n], &inp[..rows * k]);
    if rows == 0 || n == 0 {
        return;
    }
    if let Stored::F32(data) = w.data {
        if w.n_stride == 1 || w.k_stride == 1 {
            // rhs [in, out]: rhs(i, o) = w[o][i], at offset + o·n_stride + i·k_stride.
            let span = (n - 1) * w.n_stride + (k - 1) * w.k_stride + 1;
            let data = &data[w.offset..w.offset + span];
            let rhs = if w.k_stride == 1 {
                MatRef::from_column_major_slice_with_stride(data, k, n, w.n_stride)
            } else {
                MatRef::from_row_major_slice_with_stride(data, k, n, w.k_stride)
            };
            return product_into(threads, out, n, inp, rhs, bias);
        }
    }
    // A panel of outputs at a time, widened to [panel, in] rows: columns n0.. of out [N, n].
    let panel = WIDENED_PANEL.checked_div(k).map_or(n, |p| p.max(1)).min(n);
    let panel = if panel >= 16 && panel < n { panel / 16 * 16 } else { panel };
    for n0 in (0..n).step_by(panel) {
        let nr = panel.min(n - n0);
        w.widen_rows(n0, nr, widened);
        let rhs = MatRef::from_column_major_slice_with_stride(&widened[..], k, nr, k);
        product_into(threads, &mut out[n0..], n, inp, rhs, bias.map(|b| &b[n0..n0 + nr]));
    }
}

// Native only: in wasm the products are the kernels' own, tested there.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::nn::parallel::tests::{close, pattern};
    use tb_kernels::linear::linear_forward;

    #[test]
    fn a_stored_matrix_is_read_in_place_in_either_layout() {
        // nn.Linear's [out, in] rows from an offset (a slice of a head), and GPT-2's Conv1D [in, 3·out]
        // read a third at a time; f32 bytes, bf16 and f16 widened a panel at a time (the last shape
        // in two panels of outputs, 1,184 and 16); all against the plain kernel on the stored values.
        let mut widened = Vec::new();
        for (n, c_in, c_out) in [(1, 1, 1), (5, 9, 1), (37, 96, 300), (130, 33, 17), (17, 64, 4096), (3, 880, 1200)] {
            let inp = pattern(n * c_in, 7919, 113, 57.0, 1.0);
            // Numbers exact in f16 and bf16 both (k/64 - 0.75), so every dtype stores the same w.
            let w = pattern(c_out * c_in, 104_729, 97, 64.0, 0.75);
            let b = pattern(c_out, 31, 17, 8.0, 1.0);
            let mut want = vec![0.0; n * c_out];
            linear_forward(&mut want, &inp, &w, Some(&b), c_in, c_out);
            let mut ahead = vec![7.0f32; 5];
            ahead.extend_from_slice(&w);
            let rows = StoredMatrix { offset: 5, ..StoredMatrix::rows(Stored::F32(&ahead), c_out, c_in) };
            let mut fused = vec![0.0f32; c_in * 3 * c_out];
            for o in 0..c_out {
                for i in 0..c_in {
                    fused[i * 3 * c_out + c_out + o] = w[o * c_in + i];
                }
            }
            let conv1d = StoredMatrix {
                data: Stored::F32(&fused),
                outputs: c_out,
                inputs: c_in,
                offset: c_out,
                n_stride: 1,
                k_stride: 3 * c_out,
            };
            let bytes: Vec<u8> = w.iter().flat_map(|x| x.to_le_bytes()).collect();
            let bf16: Vec<u8> = w.iter().flat_map(|&x| tb_kernels::product::bf16_bits(x).to_le_bytes()).collect();
            let f16: Vec<u8> = w.iter().flat_map(|&x| half::f16::from_f32(x).to_le_bytes()).collect();
            let fused16: Vec<u8> = fused.iter().flat_map(|&x| half::f16::from_f32(x).to_le_bytes()).collect();
            let layouts = [
                (rows, "rows"),
                (conv1d, "conv1d"),
                (StoredMatrix::rows(Stored::F32Bytes(&bytes), c_out, c_in), "f32 bytes"),
                (StoredMatrix::rows(Stored::Bf16(&bf16), c_out, c_in), "bf16"),
                (StoredMatrix::rows(Stored::F16(&f16), c_out, c_in), "f16"),
                (StoredMatrix { data: Stored::F16(&fused16), ..conv1d }, "f16 conv1d"),
            ];
            for (m, layout) in layouts {
                for threads in [1, 2] {
                    let mut got = vec![f32::NAN; n * c_out];
                    stored_forward_on(threads, &mut got, &inp, &m, Some(&b), &mut widened);
                    let what = format!("{layout} {n}x{c_in}x{c_out}, {threads} threads");
                    close(&got, &want, &inp, &w, &b, c_in, c_out, &what);
                    assert!(widened.len() <= WIDENED_PANEL, "{what}: {} numbers widened at once", widened.len());
                }
            }
        }
    }
}
