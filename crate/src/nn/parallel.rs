//! The linear layer over the threads this machine has, for a real checkpoint's forward pass: the
//! rows of the input are split into one contiguous run per thread, each run through the kernels'
//! [`linear_forward`]. Every output is the same dot product in the same order whichever thread
//! computes it, so the result does not depend on the thread count. In WebAssembly (one thread), and
//! for small products, it is [`linear_forward`] itself.

use tb_kernels::linear::linear_forward;

/// Below this many multiply-adds, threads cost more than they save.
const MIN_PARALLEL_WORK: usize = 1 << 20;

/// The threads to use: what the machine offers (`TBLOCK_THREADS` overrides it; 1 in wasm).
pub fn threads() -> usize {
    #[cfg(target_arch = "wasm32")]
    {
        1
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        let asked = std::env::var("TBLOCK_THREADS").ok().and_then(|t| t.parse::<usize>().ok()).filter(|&n| n > 0);
        asked.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
    }
}

/// out [N, out] = inp [N, in] · weightᵀ + bias, as [`linear_forward`], on `threads` threads.
pub fn linear_forward_on(
    threads: usize,
    out: &mut [f32],
    inp: &[f32],
    weight: &[f32],
    bias: Option<&[f32]>,
    c_in: usize,
    c_out: usize,
) {
    let rows = out.len().checked_div(c_out).unwrap_or(0);
    if threads <= 1 || rows < 2 || rows * c_in * c_out < MIN_PARALLEL_WORK || cfg!(target_arch = "wasm32") {
        return linear_forward(out, inp, weight, bias, c_in, c_out);
    }
    let per = rows.div_ceil(threads.min(rows));
    std::thread::scope(|scope| {
        for (o, x) in out.chunks_mut(per * c_out).zip(inp.chunks(per * c_in)) {
            scope.spawn(move || linear_forward(o, x, weight, bias, c_in, c_out));
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn any_thread_count_gives_the_same_bits() {
        let (n, c_in, c_out) = (37, 96, 300);
        let inp: Vec<f32> = (0..n * c_in).map(|i| ((i * 7919) % 113) as f32 / 57.0 - 1.0).collect();
        let w: Vec<f32> = (0..c_out * c_in).map(|i| ((i * 104_729) % 97) as f32 / 50.0 - 0.9).collect();
        let b: Vec<f32> = (0..c_out).map(|i| i as f32 * 0.01).collect();
        let mut one = vec![0.0; n * c_out];
        linear_forward(&mut one, &inp, &w, Some(&b), c_in, c_out);
        for threads in [2, 3, 8, 64] {
            let mut many = vec![0.0; n * c_out];
            linear_forward_on(threads, &mut many, &inp, &w, Some(&b), c_in, c_out);
            assert_eq!(many, one, "{threads} threads");
        }
    }
}
