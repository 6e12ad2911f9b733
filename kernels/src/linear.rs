//! The linear layer's flat pair: out = inp · weightᵀ + bias over row-major buffers, the weight as
//! [out, in] (each output's weights contiguous; nalgebra's column-major [in, out] is exactly this in
//! memory, so a matrix `Linear`'s weight is used as it is), and its gradients.

use crate::simd::F4;

/// Σ a[i]·b[i] in eight running sums (two vectors of four lanes: terms k and k + 4 of each group of
/// eight), added pairwise at the end, then the last len mod 8 terms one by one. Attention's dot
/// products are this short (d_head = 8), so the vectors matter.
#[inline]
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    let n = a.len().min(b.len());
    let n8 = n - n % 8;
    let (mut lo, mut hi) = (F4::splat(0.0), F4::splat(0.0));
    for k in (0..n8).step_by(8) {
        lo = lo.mul_add(F4::load(&a[k..]), F4::load(&b[k..]));
        hi = hi.mul_add(F4::load(&a[k + 4..]), F4::load(&b[k + 4..]));
    }
    let rest: f32 = a[n8..n].iter().zip(&b[n8..n]).map(|(p, q)| p * q).sum();
    (lo + hi).sum() + rest
}

/// y += a·x, element by element.
#[inline]
pub fn axpy(y: &mut [f32], a: f32, x: &[f32]) {
    let n = y.len().min(x.len());
    let n4 = n - n % 4;
    let av = F4::splat(a);
    for k in (0..n4).step_by(4) {
        F4::load(&y[k..]).mul_add(av, F4::load(&x[k..])).store(&mut y[k..]);
    }
    for (y, x) in y[n4..n].iter_mut().zip(&x[n4..n]) {
        *y += a * x;
    }
}

/// Rows of inp taken together by [`linear_forward`], and outputs by its inner loop: 4 x 2 running
/// sums of four lanes, plus the 4 + 2 vectors they read, fit the 16 vector registers of x86-64 (which
/// V8 and the native build both have).
const ROWS: usize = 4;
const OUTPUTS: usize = 2;
/// Outputs at a time for a row alone (a written token's one position) whose weights are in cache
/// (TinyGPT's, a panel just widened): eight running sums in flight (eight vectors and the row's one)
/// keep the adds busy where two waited on each other, bound by their latency; every output summed
/// in the same order still.
const OUTPUTS_ALONE: usize = 8;
/// Outputs at a time for a row alone whose weights come from memory, read once
/// ([`linear_forward_streamed`]): one, so the weights arrive as one stream, row after row. Eight rows
/// read side by side are eight streams 3 KB apart, and memory gave them a third less (one row through
/// GPT-2 small's 497 MB, SIMD128 under Node: 34 ms at eight, 18.3 ms at one); in cache eight is twice
/// as fast (docs/benchmarks-history.md, "A written token reads its weights as one stream").
const OUTPUTS_STREAMED: usize = 1;

/// out [N, out] = inp [N, in] · weightᵀ + bias
///
/// weight [out, in] (row o holds output o's weights)   bias [out]
///
/// Each output is a dot product of an input row with a weight row, both contiguous. They are taken
/// ROWS x OUTPUTS at a time, so each vector loaded is used several times: Σ over `in` in four lanes
/// (k = 0, 4, 8, ...), the lanes added (F4::sum), then the last `in` mod 4 terms one by one, then
/// the bias. Every output is summed in that order whichever tile it falls in.
pub fn linear_forward(out: &mut [f32], inp: &[f32], weight: &[f32], bias: Option<&[f32]>, c_in: usize, c_out: usize) {
    forward::<OUTPUTS_ALONE>(out, inp, weight, bias, c_in, c_out)
}

/// [`linear_forward`] where the weights come from memory, each read once (a checkpoint's matrix in
/// place): the same bits, but rows below a tile (a written token's) take one output at a time, so
/// the weights w [out, in] are read in the order they lie.
pub fn linear_forward_streamed(out: &mut [f32], inp: &[f32], w: &[f32], b: Option<&[f32]>, c_in: usize, c_out: usize) {
    forward::<OUTPUTS_STREAMED>(out, inp, w, b, c_in, c_out)
}

/// [`linear_forward`], rows below a tile taken ALONE outputs at a time.
fn forward<const ALONE: usize>(out: &mut [f32], inp: &[f32], w: &[f32], b: Option<&[f32]>, c_in: usize, c_out: usize) {
    if c_in == 0 || c_out == 0 {
        return;
    }
    let rows = (out.len() / c_out).min(inp.len() / c_in);
    assert!(w.len() >= c_out * c_in, "linear_forward: weight too short");
    assert!(b.is_none_or(|b| b.len() >= c_out), "linear_forward: bias too short");
    // The outputs a block at a time, every row through each block before the next: a block's weights
    // stay in cache while all the rows read them, rather than the whole weight streaming from memory
    // once per ROWS rows (a real checkpoint's layers in wasm: 13 tokens through GPT-2 small took 1.4 s,
    // bound by memory). Each output's sum is the same whichever block it falls in.
    let block = (OUTPUT_BLOCK_BYTES / (4 * c_in)).max(1).next_multiple_of(OUTPUTS_ALONE);
    for o0 in (0..c_out).step_by(block) {
        let outputs = o0..(o0 + block).min(c_out);
        // Tiles of ROWS rows; the last ends at the last row, so the rows mod ROWS left over share a
        // tile with rows the tile before computed, computed again to the same bits (each output is
        // a sum over its own row only): the weights are read once more, not once a row.
        let mut r = 0;
        while r < rows && rows >= ROWS {
            // SAFETY: the tile's rows (from r, or rows − ROWS for the last) end by `rows`, so they fit
            // out and inp; outputs lie within c_out; the weight and bias are long enough (above).
            unsafe { forward_rows::<ROWS, OUTPUTS>(out, inp, w, b, c_in, c_out, r.min(rows - ROWS), outputs.clone()) };
            r += ROWS;
        }
        // Fewer rows than a tile: one at a time.
        for r in r..rows {
            // SAFETY: as above, for row r.
            unsafe { forward_rows::<1, ALONE>(out, inp, w, b, c_in, c_out, r, outputs.clone()) };
        }
    }
}

/// The weights of the outputs [`linear_forward`] takes at once: 128 KiB, within a core's L2 (and
/// all of TinyGPT's layers in one block).
const OUTPUT_BLOCK_BYTES: usize = 128 * 1024;

/// Rows r .. r + R of [`linear_forward`], outputs `outputs`, reading through pointers (a bounds
/// check on every load cost a third of the time in wasm).
///
/// # Safety
/// (r + R)·c_out ≤ out.len(), (r + R)·c_in ≤ inp.len(), c_out·c_in ≤ weight.len(), c_out ≤ bias.len(),
/// outputs.end ≤ c_out.
#[inline(always)]
#[allow(clippy::needless_range_loop, clippy::too_many_arguments)] // i and j index two arrays of the tile at once
unsafe fn forward_rows<const R: usize, const O: usize>(
    out: &mut [f32],
    inp: &[f32],
    weight: &[f32],
    bias: Option<&[f32]>,
    c_in: usize,
    c_out: usize,
    r: usize,
    outputs: core::ops::Range<usize>,
) {
    let k4 = c_in - c_in % 4;
    let (out, w_ptr) = (out.as_mut_ptr(), weight.as_ptr());
    let x: [*const f32; R] = core::array::from_fn(|i| inp.as_ptr().add((r + i) * c_in));
    let finish = |acc: F4, x: *const f32, w: *const f32, o: usize| {
        let mut tail = 0.0f32;
        for k in k4..c_in {
            tail += *x.add(k) * *w.add(k);
        }
        acc.sum() + tail + bias.map_or(0.0, |b| *b.as_ptr().add(o))
    };
    let mut o = outputs.start;
    while o + O <= outputs.end {
        let w: [*const f32; O] = core::array::from_fn(|j| w_ptr.add((o + j) * c_in));
        let mut acc = [[F4::splat(0.0); O]; R];
        let mut k = 0;
        while k < k4 {
            let wv: [F4; O] = core::array::from_fn(|j| F4::read(w[j].add(k)));
            for i in 0..R {
                let xv = F4::read(x[i].add(k));
                for j in 0..O {
                    acc[i][j] = acc[i][j].mul_add(xv, wv[j]);
                }
            }
            k += 4;
        }
        for i in 0..R {
            for j in 0..O {
                *out.add((r + i) * c_out + o + j) = finish(acc[i][j], x[i], w[j], o + j);
            }
        }
        o += O;
    }
    for o in o..outputs.end {
        let w = w_ptr.add(o * c_in);
        for i in 0..R {
            let mut acc = F4::splat(0.0);
            for k in (0..k4).step_by(4) {
                acc = acc.mul_add(F4::read(x[i].add(k)), F4::read(w.add(k)));
            }
            *out.add((r + i) * c_out + o) = finish(acc, x[i], w, o);
        }
    }
}

/// The gradients of [`linear_forward`], accumulated (+=) into dinp, dweight and dbias:
///
///   dinp [N, in]     += dout · weight
///   dweight [out, in] += doutᵀ · inp
///   dbias [out]       += Σ_n dout[n]
///
/// dout [N, out]   inp [N, in]   weight [out, in]
#[allow(clippy::too_many_arguments)]
pub fn linear_backward(
    dinp: &mut [f32],
    dweight: &mut [f32],
    dbias: Option<&mut [f32]>,
    dout: &[f32],
    inp: &[f32],
    weight: &[f32],
    c_in: usize,
    c_out: usize,
) {
    let n = (dout.len() / c_out).min(inp.len() / c_in).min(dinp.len() / c_in);
    // dinp[n, :] += Σ_o dout[n, o] · weight[o, :]
    accumulate_products(dinp, Strided { data: dout, row: c_out, col: 1 }, weight, n, c_out, c_in);
    // dweight[o, :] += Σ_n dout[n, o] · inp[n, :]
    accumulate_products(dweight, Strided { data: dout, row: 1, col: c_out }, inp, c_out, n, c_in);
    if let Some(db) = dbias {
        for g_row in dout.chunks_exact(c_out).take(n) {
            db.iter_mut().zip(g_row).for_each(|(b, g)| *b += g);
        }
    }
}

/// A matrix read through strides: element (i, q) is data[i·row + q·col].
#[derive(Clone, Copy)]
struct Strided<'a> {
    data: &'a [f32],
    row: usize,
    col: usize,
}

/// c [m, n] += a [m, p] · b [p, n] (c and b row-major and contiguous; a through its strides).
///
/// Four rows of c and eight of its columns at a time (8 running vectors, 4 broadcasts of a and 2
/// vectors of b per q: again within 16 registers); then four columns, then one. Every element is
/// c + a(i,0)·b(0,j) + a(i,1)·b(1,j) + ... in that order, whichever tile it falls in.
///
/// The bounds are checked once, here; the loops read and write through pointers (with a check on
/// every access this loop ran a third slower in wasm).
fn accumulate_products(c: &mut [f32], a: Strided, b: &[f32], m: usize, p: usize, n: usize) {
    if m == 0 || n == 0 || p == 0 {
        return;
    }
    assert!(c.len() >= m * n && b.len() >= p * n, "accumulate_products: c or b too short");
    assert!((m - 1) * a.row + (p - 1) * a.col < a.data.len(), "accumulate_products: a too short");
    let mut i = 0;
    while i + 4 <= m {
        // SAFETY: rows i .. i + 4 < m, the bounds asserted above.
        unsafe { product_rows::<4>(c, a, b, p, n, i) };
        i += 4;
    }
    for i in i..m {
        // SAFETY: row i < m, the bounds asserted above.
        unsafe { product_rows::<1>(c, a, b, p, n, i) };
    }
}

/// Rows i .. i + R of [`accumulate_products`].
///
/// # Safety
/// i + R ≤ m, and the bounds [`accumulate_products`] asserts.
#[inline(always)]
unsafe fn product_rows<const R: usize>(c: &mut [f32], a: Strided, b: &[f32], p: usize, n: usize, i: usize) {
    let (c, b, a_ptr) = (c.as_mut_ptr(), b.as_ptr(), a.data.as_ptr());
    let at = |r: usize, q: usize| *a_ptr.add((i + r) * a.row + q * a.col);
    let mut j = 0;
    while j + 8 <= n {
        let mut acc: [[F4; 2]; R] = core::array::from_fn(|r| {
            let row = c.add((i + r) * n + j);
            [F4::read(row), F4::read(row.add(4))]
        });
        for q in 0..p {
            let brow = b.add(q * n + j);
            let (b0, b1) = (F4::read(brow), F4::read(brow.add(4)));
            for (r, acc) in acc.iter_mut().enumerate() {
                let av = F4::splat(at(r, q));
                acc[0] = acc[0].mul_add(av, b0);
                acc[1] = acc[1].mul_add(av, b1);
            }
        }
        for (r, acc) in acc.iter().enumerate() {
            let row = c.add((i + r) * n + j);
            acc[0].write(row);
            acc[1].write(row.add(4));
        }
        j += 8;
    }
    while j + 4 <= n {
        let mut acc: [F4; R] = core::array::from_fn(|r| F4::read(c.add((i + r) * n + j)));
        for q in 0..p {
            let bv = F4::read(b.add(q * n + j));
            for (r, acc) in acc.iter_mut().enumerate() {
                *acc = acc.mul_add(F4::splat(at(r, q)), bv);
            }
        }
        for (r, acc) in acc.iter().enumerate() {
            acc.write(c.add((i + r) * n + j));
        }
        j += 4;
    }
    for j in j..n {
        for r in 0..R {
            let cell = c.add((i + r) * n + j);
            let mut s = *cell;
            for q in 0..p {
                s += at(r, q) * *b.add(q * n + j);
            }
            *cell = s;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    /// Deterministic numbers in [-1, 1).
    fn numbers(n: usize, seed: u32) -> Vec<f32> {
        let mut x = seed.wrapping_mul(2_654_435_761).wrapping_add(1);
        (0..n)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                (x as f32 / u32::MAX as f32) * 2.0 - 1.0
            })
            .collect()
    }

    #[test]
    fn outputs_in_blocks_give_each_output_the_bits_it_has_alone() {
        // c_in 1,003: 32 outputs a block, so 77 outputs fall in three blocks, the last odd; 7 rows,
        // a tile of four, then the last three in a tile over rows 3 to 6; 3 rows, one at a time.
        for (rows, c_in, c_out) in [(7, 1003, 77), (5, 4096, 9), (3, 6, 5), (9, 33_000, 3)] {
            let inp = numbers(rows * c_in, 1);
            let weight = numbers(c_out * c_in, 2);
            let bias = numbers(c_out, 3);
            let mut out = vec![0.0; rows * c_out];
            linear_forward(&mut out, &inp, &weight, Some(&bias), c_in, c_out);
            // Each row alone (one row: no tile of four, so not the tile over the last four rows
            // either) gives the same bits.
            // So does each row alone through the streamed kernel (one output at a time), and all rows.
            let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            for r in 0..rows {
                let row_in = &inp[r * c_in..(r + 1) * c_in];
                let (mut row, mut streamed) = (vec![0.0; c_out], vec![0.0; c_out]);
                linear_forward(&mut row, row_in, &weight, Some(&bias), c_in, c_out);
                linear_forward_streamed(&mut streamed, row_in, &weight, Some(&bias), c_in, c_out);
                assert_eq!(bits(&row), bits(&out[r * c_out..(r + 1) * c_out]), "{rows}x{c_in}x{c_out}: row {r}");
                assert_eq!(bits(&streamed), bits(&row), "{rows}x{c_in}x{c_out}: row {r} streamed");
            }
            let mut streamed = vec![0.0; rows * c_out];
            linear_forward_streamed(&mut streamed, &inp, &weight, Some(&bias), c_in, c_out);
            assert_eq!(bits(&streamed), bits(&out), "{rows}x{c_in}x{c_out}: streamed");
            for o in 0..c_out {
                let mut alone = vec![0.0; rows];
                linear_forward(&mut alone, &inp, &weight[o * c_in..(o + 1) * c_in], Some(&bias[o..=o]), c_in, 1);
                for r in 0..rows {
                    assert_eq!(
                        out[r * c_out + o].to_bits(),
                        alone[r].to_bits(),
                        "{rows}x{c_in}x{c_out}: row {r}, output {o}"
                    );
                    let plain: f64 =
                        (0..c_in).map(|k| f64::from(inp[r * c_in + k]) * f64::from(weight[o * c_in + k])).sum::<f64>()
                            + f64::from(bias[o]);
                    assert!((f64::from(alone[r]) - plain).abs() < 1e-3, "{rows}x{c_in}x{c_out}: row {r}, output {o}");
                }
            }
        }
    }
}
