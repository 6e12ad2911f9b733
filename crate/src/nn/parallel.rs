//! The linear layer and attention of a real checkpoint's forward pass, on the threads asked for. In
//! f32 ([`Compute::F32`]) natively it is faer's matrix product: cache-blocked and packed, its
//! micro-kernels picked at run time for what the CPU has (AVX-512, AVX2 + FMA, or portable), the
//! product split over rayon's threads, an f32 file's weights read in place ([`super::stored_forward::stored_forward_on`]).
//! In WebAssembly it is the kernels' [`linear_forward`], as TinyGPT runs everywhere, on the page's threads
//! where it has them ([`super::page_threads`]).
//! In bf16 ([`Compute::Bf16`]) it is the kernels' bf16 products ([`product_on`]), everywhere.
//!
//! TinyGPT never comes here: the lesson's figures keep the kernels' bits, natively and in wasm.
//! `TBLOCK_KERNEL=plain` runs a checkpoint on the kernels' [`linear_forward`] too (split by rows
//! over the threads), the path the page has, to compare.

use super::gqa_attention::{gqa_attention, GqaShape};
use tb_kernels::linear::linear_forward;
use tb_kernels::product::{one_thread, product_bf16, BfRows, Isa, StoredMatrix};

pub use super::compute::Compute;

/// Below this many multiply-adds, threads cost more than they save.
pub(super) const MIN_PARALLEL_WORK: usize = 1 << 20;

/// The most threads `--threads` takes: more than a machine's cores only queue behind each other. In
/// wasm, the page's pool (super::page_threads; 1 without one).
pub fn most_threads() -> usize {
    #[cfg(target_arch = "wasm32")]
    {
        super::page_threads::pool_threads()
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    }
}

/// The threads to use: every core (`TBLOCK_THREADS` sets fewer; in wasm the page's pool).
pub fn threads() -> usize {
    let most = most_threads();
    let asked = std::env::var("TBLOCK_THREADS").ok().and_then(|t| t.parse::<usize>().ok()).filter(|&n| n > 0);
    asked.map_or(most, |n| n.min(most))
}

/// Which matrix product runs a checkpoint's linear layers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// faer's (natively; the kernels' in wasm).
    Blocked,
    /// The kernels' [`linear_forward`], rows split over the threads.
    Plain,
}

impl Kernel {
    /// `TBLOCK_KERNEL=plain` chooses [`Kernel::Plain`]; anything else, and wasm, [`Kernel::Blocked`].
    pub fn from_env() -> Kernel {
        match std::env::var("TBLOCK_KERNEL").as_deref() {
            Ok("plain") => Kernel::Plain,
            _ => Kernel::Blocked,
        }
    }
}

/// out [N, w.outputs] = rows [N, w.inputs] · wᵀ + bias with the bf16 products on `isa`, the outputs
/// split over `threads` of rayon's threads (natively; one thread in wasm).
pub fn product_on(isa: Isa, threads: usize, out: &mut [f32], rows: &BfRows, w: &StoredMatrix, bias: Option<&[f32]>) {
    let work = rows.rows * w.inputs * w.outputs;
    let tasks = if work < MIN_PARALLEL_WORK { 1 } else { 4 * threads.max(1) };
    #[cfg(not(target_arch = "wasm32"))]
    if tasks > 1 {
        use rayon::prelude::*;
        let run = |n: usize, body: &(dyn Fn(usize) + Sync)| (0..n).into_par_iter().for_each(body);
        return product_bf16(isa, out, rows, w, bias, tasks, &run);
    }
    product_bf16(isa, out, rows, w, bias, tasks, &one_thread);
}

/// out [N, out] = inp [N, in] · weightᵀ + bias, on `threads` threads with `kernel`.
///
/// weight [out, in] (row o holds output o's weights, nn.Linear's layout)   bias [out]
#[allow(clippy::too_many_arguments)] // the kernels' six, and which product on how many threads
pub fn linear_forward_on(
    kernel: Kernel,
    threads: usize,
    out: &mut [f32],
    inp: &[f32],
    weight: &[f32],
    bias: Option<&[f32]>,
    c_in: usize,
    c_out: usize,
) {
    let rows = out.len().checked_div(c_out).unwrap_or(0).min(inp.len().checked_div(c_in).unwrap_or(usize::MAX));
    let work = rows * c_in * c_out;
    let threads = if work < MIN_PARALLEL_WORK { 1 } else { threads.max(1) };
    let layer = Layer { weight, bias, c_in, c_out };
    #[cfg(not(target_arch = "wasm32"))]
    if kernel == Kernel::Blocked && rows > 0 && c_out > 0 {
        return blocked(threads, &mut out[..rows * c_out], &inp[..rows * c_in], layer);
    }
    let _ = kernel;
    plain(threads, out, inp, layer);
}

/// out [T, h·d_head] = grouped-query attention over q, k, v (see [`gqa_attention`]), with `kernel`:
/// natively [`Kernel::Blocked`] is [`gqa_attention_blocked`](super::gqa_blocked::gqa_attention_blocked)
/// on `threads` threads; otherwise (and in wasm) the plain loops, `weights` their scratch row. When
/// `shown` [h, T, T] asks for the attention weights (an inspection), the plain loops run, which
/// write them as they use them.
#[allow(clippy::too_many_arguments)] // attention's six, and which on how many threads
pub fn attention_on(
    kernel: Kernel,
    threads: usize,
    out: &mut [f32],
    q: &[f32],
    k: &[f32],
    v: &[f32],
    shape: GqaShape,
    weights: &mut Vec<f32>,
    shown: Option<&mut [f32]>,
) {
    #[cfg(not(target_arch = "wasm32"))]
    if kernel == Kernel::Blocked && shown.is_none() {
        return super::gqa_blocked::gqa_attention_blocked(out, q, k, v, shape, threads);
    }
    let _ = (kernel, threads);
    gqa_attention(out, q, k, v, shape, weights, shown);
}

/// A linear layer's weight [out, in], its bias [out] if it has one, and its sizes.
#[derive(Clone, Copy)]
struct Layer<'a> {
    weight: &'a [f32],
    bias: Option<&'a [f32]>,
    c_in: usize,
    c_out: usize,
}

/// The kernels' [`linear_forward`], one contiguous run of rows a thread.
fn plain(threads: usize, out: &mut [f32], inp: &[f32], l: Layer) {
    let rows = out.len().checked_div(l.c_out).unwrap_or(0);
    if threads <= 1 || rows < 2 || cfg!(target_arch = "wasm32") {
        return linear_forward(out, inp, l.weight, l.bias, l.c_in, l.c_out);
    }
    let per = rows.div_ceil(threads.min(rows));
    std::thread::scope(|scope| {
        for (o, x) in out.chunks_mut(per * l.c_out).zip(inp.chunks(per * l.c_in)) {
            scope.spawn(move || linear_forward(o, x, l.weight, l.bias, l.c_in, l.c_out));
        }
    });
}

/// faer's product: out = bias (each row), then out += inp · weightᵀ, the weight read in place as
/// the column-major [in, out] matrix its row-major [out, in] bytes are.
#[cfg(not(target_arch = "wasm32"))]
fn blocked(threads: usize, out: &mut [f32], inp: &[f32], l: Layer) {
    use faer::MatRef;
    let (c_in, c_out) = (l.c_in, l.c_out);
    assert!(l.weight.len() >= c_out * c_in, "linear_forward_on: weight too short");
    let rhs = MatRef::from_column_major_slice(&l.weight[..c_out * c_in], c_in, c_out);
    product_into(threads, out, c_out, inp, rhs, l.bias);
}

/// out [N, out] (row stride `ld`, from its first number) = bias (each row), then out += inp [N, in]
/// · rhs [in, out], with faer.
#[cfg(not(target_arch = "wasm32"))]
pub(super) fn product_into(
    threads: usize,
    out: &mut [f32],
    ld: usize,
    inp: &[f32],
    rhs: faer::MatRef<f32>,
    bias: Option<&[f32]>,
) {
    use faer::{Accum, MatMut, MatRef, Par};
    let (c_in, c_out) = (rhs.nrows(), rhs.ncols());
    let rows = inp.len().checked_div(c_in).unwrap_or(out.len().div_ceil(ld.max(1)));
    let accum = match bias {
        Some(b) => {
            assert!(b.len() >= c_out, "linear_forward_on: bias too short");
            out.chunks_mut(ld).take(rows).for_each(|row| row[..c_out].copy_from_slice(&b[..c_out]));
            Accum::Add
        }
        None => Accum::Replace,
    };
    let par = if threads <= 1 { Par::Seq } else { Par::rayon(threads) };
    // Row-major [rows, c_out] with row stride ld, as the transpose of a column-major [c_out, rows]:
    // faer 0.24's from_row_major_slice_with_stride_mut swaps the strides (rows 1 apart).
    let dst = MatMut::from_column_major_slice_with_stride_mut(out, c_out, rows, ld).transpose_mut();
    let lhs = MatRef::from_row_major_slice(inp, rows, c_in);
    faer::linalg::matmul::matmul(dst, accum, lhs, rhs, 1.0f32, par);
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    pub(in crate::nn) fn pattern(n: usize, a: usize, m: usize, scale: f32, shift: f32) -> Vec<f32> {
        (0..n).map(|i| ((i * a) % m) as f32 / scale - shift).collect()
    }

    /// Each output of `got` within f32 rounding of the plain kernel's: 1e-5 of Σ |x·w| (+ |bias|).
    #[allow(clippy::too_many_arguments)]
    pub(in crate::nn) fn close(
        got: &[f32],
        want: &[f32],
        inp: &[f32],
        w: &[f32],
        bias: &[f32],
        c_in: usize,
        c_out: usize,
        what: &str,
    ) {
        for (i, (g, e)) in got.iter().zip(want).enumerate() {
            let (r, o) = (i / c_out, i % c_out);
            let size: f32 = (0..c_in).map(|k| (inp[r * c_in + k] * w[o * c_in + k]).abs()).sum::<f32>()
                + bias.get(o).map_or(0.0, |b| b.abs());
            assert!((g - e).abs() <= 1e-5 * size.max(1.0), "{what}: output [{r}, {o}] is {g}, the plain kernel's {e}");
        }
    }

    #[test]
    fn the_blocked_product_agrees_with_the_plain_kernel_on_awkward_shapes() {
        // One row, one column, one input; sizes that are not a multiple of any tile; one wide enough
        // for threads; a slice of a 151,936-row vocabulary's head.
        let shapes =
            [(1, 1, 1), (1, 7, 3), (3, 1, 5), (5, 9, 1), (37, 96, 300), (130, 33, 17), (64, 257, 129), (17, 64, 4096)];
        for (n, c_in, c_out) in shapes {
            let inp = pattern(n * c_in, 7919, 113, 57.0, 1.0);
            let w = pattern(c_out * c_in, 104_729, 97, 50.0, 0.9);
            let b = pattern(c_out, 31, 17, 8.0, 1.0);
            for bias in [None, Some(&b[..])] {
                let mut want = vec![0.0; n * c_out];
                linear_forward(&mut want, &inp, &w, bias, c_in, c_out);
                for threads in [1, 2, 3] {
                    let mut got = vec![f32::NAN; n * c_out];
                    linear_forward_on(Kernel::Blocked, threads, &mut got, &inp, &w, bias, c_in, c_out);
                    let what = format!("{n}x{c_in}x{c_out}, bias {}, {threads} threads", bias.is_some());
                    close(&got, &want, &inp, &w, bias.unwrap_or(&[]), c_in, c_out, &what);
                    let mut plain = vec![f32::NAN; n * c_out];
                    linear_forward_on(Kernel::Plain, threads, &mut plain, &inp, &w, bias, c_in, c_out);
                    assert_eq!(plain, want, "{what}: the plain path keeps the kernel's bits");
                }
            }
        }
    }

    #[test]
    fn a_large_product_gives_the_same_bits_on_any_thread_count() {
        let (n, c_in, c_out) = (200, 384, 1100);
        let inp = pattern(n * c_in, 7919, 113, 57.0, 1.0);
        let w = pattern(c_out * c_in, 104_729, 97, 50.0, 0.9);
        let b = pattern(c_out, 31, 17, 8.0, 1.0);
        let mut one = vec![0.0; n * c_out];
        linear_forward_on(Kernel::Blocked, 1, &mut one, &inp, &w, Some(&b), c_in, c_out);
        for threads in [2, 3, 8] {
            let mut many = vec![0.0; n * c_out];
            linear_forward_on(Kernel::Blocked, threads, &mut many, &inp, &w, Some(&b), c_in, c_out);
            assert_eq!(many, one, "{threads} threads");
        }
    }

    #[test]
    fn no_inputs_leave_the_bias() {
        let b = [0.5f32, -1.0, 2.0];
        let mut out = [9.0f32; 6];
        linear_forward_on(Kernel::Blocked, 2, &mut out, &[], &[], Some(&b), 0, 3);
        assert_eq!(out, [0.5, -1.0, 2.0, 0.5, -1.0, 2.0]);
        let mut none = [9.0f32; 3];
        linear_forward_on(Kernel::Blocked, 1, &mut none, &[], &[], None, 0, 3);
        assert_eq!(none, [0.0; 3]);
    }
}
