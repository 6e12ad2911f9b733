//! The page's threads: in a cross-origin isolated page, the checkpoint worker's threads build (feature
//! `threads`, www/pkg/checkpoint-threads*) starts a pool of workers over the instance's shared memory
//! (wasm-bindgen-rayon) and says how many here ([`use_pool`]); a product then splits its outputs
//! over them ([`by_output_panels`]). Anywhere else the page has one thread, and the products run as
//! they always did.
//!
//! The outputs are split, never a sum: each output's number is the one its panel's product gives,
//! and a panel's product gives every output the same bits wherever the panel starts (the kernels'
//! linear_forward says so of its own blocks), so 1 thread and 8 give the same logits.

use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The threads the page's pool runs, once its workers started (1 until then, and in every build but
/// the threads one).
static POOL: AtomicUsize = AtomicUsize::new(1);

/// The threads the page's pool runs (1 without one).
pub fn pool_threads() -> usize {
    POOL.load(Ordering::Relaxed)
}

/// The pool's workers have started: `threads` of them (wasm-bindgen-rayon's initThreadPool resolved).
/// Only the threads build has a pool to say so of; anywhere else the page keeps one thread.
pub fn use_pool(threads: usize) {
    if cfg!(any(feature = "threads", not(target_arch = "wasm32"))) {
        POOL.store(threads.max(1), Ordering::Relaxed);
    }
}

/// Runs `work` on one of the pool's threads where the page has a pool, else here. A forward pass is
/// run so: each product's panels are then shared from a pool thread (which takes its own share) with
/// the others, rather than sent to the pool and waited for by the thread outside it, a round trip a
/// product (a written token has 121). The pool's other threads stay awake meanwhile, looking for
/// panels to take ([`rayon::yield_now`]) until `work` ends, rather than falling asleep between two
/// products and waiting to be woken (an `Atomics.notify` in the page) at the start of the next.
pub fn on_pool<R: Send>(work: impl FnOnce() -> R + Send) -> R {
    #[cfg(all(feature = "threads", target_arch = "wasm32"))]
    if pool_threads() > 1 {
        return awake_while(work);
    }
    work()
}

/// `work` on the pool's first thread while the others take what panels it shares (see [`on_pool`]).
/// In the threads build, and natively for its test.
#[cfg(any(all(feature = "threads", target_arch = "wasm32"), all(test, not(target_arch = "wasm32"))))]
fn awake_while<R: Send>(work: impl FnOnce() -> R + Send) -> R {
    use std::sync::atomic::AtomicBool;
    use std::sync::Mutex;
    let work = Mutex::new(Some(work));
    let done = AtomicBool::new(false);
    // Every thread of the pool runs this once, each from its own queue: no thread can be handed
    // another's part (the first's work, or a wait that only the work's end would finish).
    let mut results = rayon::broadcast(|at| {
        if at.index() == 0 {
            // The others stop when the work ends, however it ends.
            struct Ends<'a>(&'a AtomicBool);
            impl Drop for Ends<'_> {
                fn drop(&mut self) {
                    self.0.store(true, Ordering::Release);
                }
            }
            let _ends = Ends(&done);
            let work = work.lock().map(|mut w| w.take()).ok().flatten()?;
            return Some(work());
        }
        while !done.load(Ordering::Acquire) {
            rayon::yield_now();
        }
        None
    });
    results.swap_remove(0).expect("the pool's first thread runs the work")
}

/// Below this many multiply-adds a product runs on one thread: a pool's wake-up and the panels'
/// gathering cost more than they save (a written token's 768 x 768 product, 590 k, is above it).
pub const MIN_SPLIT_WORK: usize = 1 << 17;

/// out [rows, n] a panel of `panel` outputs at a time, each panel's outputs `o` computed by
/// `fill(o, part [rows, o.len()], scratch)`: in order on one thread (scratch reused, `part` the
/// outputs themselves when there is one row), or the panels spread over `threads` of rayon's threads
/// (each with its own scratch). The same bits either way, as long as `fill` gives each output the
/// same number wherever its panel starts.
pub fn by_output_panels<F>(
    threads: usize,
    out: &mut [f32],
    rows: usize,
    n: usize,
    panel: usize,
    fill: F,
    scratch: &mut Vec<f32>,
) where
    F: Fn(Range<usize>, &mut [f32], &mut Vec<f32>) + Sync,
{
    let panel = panel.clamp(1, n.max(1));
    let out = &mut out[..rows * n];
    if rows == 0 || n == 0 {
        return;
    }
    #[cfg(any(feature = "threads", not(target_arch = "wasm32")))]
    if threads > 1 {
        return spread(threads, out, rows, n, panel, &fill);
    }
    let _ = threads;
    if panel == n {
        return fill(0..n, out, scratch);
    }
    if rows == 1 {
        for (i, part) in out.chunks_mut(panel).enumerate() {
            fill(i * panel..i * panel + part.len(), part, scratch);
        }
        return;
    }
    let mut part = Vec::new();
    for n0 in (0..n).step_by(panel) {
        let nr = panel.min(n - n0);
        part.clear();
        part.resize(rows * nr, 0.0);
        fill(n0..n0 + nr, &mut part, scratch);
        scatter(out, n, n0, nr, &part);
    }
}

/// The panels' columns n0 .. n0 + nr of out [rows, n], from part [rows, nr].
fn scatter(out: &mut [f32], n: usize, n0: usize, nr: usize, part: &[f32]) {
    for (row, from) in out.chunks_exact_mut(n).zip(part.chunks_exact(nr)) {
        row[n0..n0 + nr].copy_from_slice(from);
    }
}

/// [`by_output_panels`] on `threads` of rayon's threads (the page's pool, or natively the global one):
/// one row's panels written in place; more rows' computed apart, then gathered.
#[cfg(any(feature = "threads", not(target_arch = "wasm32")))]
fn spread<F>(threads: usize, out: &mut [f32], rows: usize, n: usize, panel: usize, fill: &F)
where
    F: Fn(Range<usize>, &mut [f32], &mut Vec<f32>) + Sync,
{
    use rayon::prelude::*;
    // At least two panels a thread, so one slow panel does not hold the others back.
    let per_task = panel.min(n.div_ceil(2 * threads)).max(1);
    if rows == 1 {
        out.par_chunks_mut(per_task)
            .enumerate()
            .for_each_init(Vec::new, |scratch, (i, part)| fill(i * per_task..i * per_task + part.len(), part, scratch));
        return;
    }
    let parts: Vec<Vec<f32>> = (0..n.div_ceil(per_task))
        .into_par_iter()
        .map_init(Vec::new, |scratch, i| {
            let o = i * per_task..(i * per_task + per_task).min(n);
            let mut part = vec![0.0f32; rows * o.len()];
            fill(o, &mut part, scratch);
            part
        })
        .collect();
    for (i, part) in parts.iter().enumerate() {
        let n0 = i * per_task;
        scatter(out, n, n0, part.len() / rows, part);
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use tb_kernels::linear::linear_forward;

    #[test]
    fn the_outputs_have_the_same_bits_on_any_thread_count_and_panel() {
        // One row (a written token) and several, panels that do not divide the outputs, one output.
        let pool = rayon::ThreadPoolBuilder::new().num_threads(3).build().unwrap();
        for (rows, k, n) in [(1, 768, 300), (5, 33, 97), (13, 64, 1), (4, 7, 1024), (1, 5, 3)] {
            let inp: Vec<f32> = (0..rows * k).map(|i| ((i * 7919) % 113) as f32 / 57.0 - 1.0).collect();
            let w: Vec<f32> = (0..n * k).map(|i| ((i * 104_729) % 97) as f32 / 50.0 - 0.9).collect();
            let b: Vec<f32> = (0..n).map(|i| (i % 17) as f32 / 8.0).collect();
            let mut whole = vec![0.0f32; rows * n];
            linear_forward(&mut whole, &inp, &w, Some(&b), k, n);
            let fill = |o: Range<usize>, part: &mut [f32], _: &mut Vec<f32>| {
                linear_forward(part, &inp, &w[o.start * k..o.end * k], Some(&b[o.clone()]), k, o.len())
            };
            for threads in [1, 2, 3] {
                for panel in [1, 16, 42, n] {
                    let mut got = vec![f32::NAN; rows * n];
                    pool.install(|| by_output_panels(threads, &mut got, rows, n, panel, fill, &mut Vec::new()));
                    assert_eq!(got, whole, "{rows}x{k}x{n}, {threads} threads, panels of {panel}");
                }
            }
        }
    }

    #[test]
    fn the_work_runs_once_while_the_others_take_its_panels() {
        // A product's panels shared out from inside the work, on a pool of 3 and of 1; and a work
        // that panics lets the others go (the panic reaches the caller, nothing hangs).
        for threads in [1, 3] {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            let runs = AtomicUsize::new(0);
            let (k, n) = (64, 4096);
            let w: Vec<f32> = (0..n * k).map(|i| (i % 7) as f32).collect();
            let inp = vec![1.0f32; k];
            let got = pool.install(|| {
                awake_while(|| {
                    runs.fetch_add(1, Ordering::Relaxed);
                    let mut out = vec![0.0f32; n];
                    let fill = |o: Range<usize>, part: &mut [f32], _: &mut Vec<f32>| {
                        linear_forward(part, &inp, &w[o.start * k..o.end * k], None, k, o.len())
                    };
                    by_output_panels(threads, &mut out, 1, n, 16, fill, &mut Vec::new());
                    out
                })
            });
            assert_eq!(runs.load(Ordering::Relaxed), 1, "{threads} threads");
            let want: Vec<f32> = (0..n).map(|o| (0..k).map(|i| ((o * k + i) % 7) as f32).sum()).collect();
            assert_eq!(got, want, "{threads} threads");
            let panicked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                pool.install(|| awake_while(|| panic!("a bad step")))
            }));
            assert!(panicked.is_err(), "{threads} threads");
        }
    }

    #[test]
    fn no_rows_or_outputs_leave_out_as_it_is() {
        let mut out = [7.0f32; 4];
        by_output_panels(2, &mut out, 0, 4, 2, |_, _: &mut [f32], _: &mut Vec<f32>| unreachable!(), &mut Vec::new());
        by_output_panels(2, &mut out, 4, 0, 2, |_, _: &mut [f32], _: &mut Vec<f32>| unreachable!(), &mut Vec::new());
        assert_eq!(out, [7.0; 4]);
    }
}
