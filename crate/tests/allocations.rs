//! TinyGPT's forward pass makes a fixed number of heap allocations, whatever the sequence length:
//! one buffer per intermediate matrix, none per token. A count, not a time, so it holds on any
//! machine. Speed itself is in the benchmarks (BENCHMARKS.md).
//!
//! The allocator counts on the calling thread only, so tests running in parallel cannot disturb it.
#![cfg(not(target_arch = "wasm32"))]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use transformer_block::nn::TinyGpt;

/// The system allocator, counting every allocation (alloc, alloc_zeroed, realloc) of each thread.
struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

fn count_one() {
    // try_with: the thread-local may already be gone while a thread is being torn down.
    let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
}

// SAFETY: every call is passed straight to `System`, which upholds GlobalAlloc's contract; the
// counter is a const-initialised thread-local Cell, which never allocates.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count_one();
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count_one();
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count_one();
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// How many heap allocations `f` makes on this thread.
fn allocations_of<R>(f: impl FnOnce() -> R) -> usize {
    let before = ALLOCATIONS.with(Cell::get);
    let result = f();
    let after = ALLOCATIONS.with(Cell::get);
    drop(result);
    after - before
}

/// Far above what a forward pass needs (one buffer per intermediate matrix, about a dozen a block),
/// far below what one allocation per token and head would make.
const MOST_PER_FORWARD: usize = 200;

#[test]
fn forward_allocations_do_not_grow_with_the_sequence_length() {
    let model = TinyGpt::tiny(0);
    assert_eq!(model.blocks.len(), 2, "the bound below is sized for TinyGPT's 2 blocks");
    let ids: Vec<usize> = (0..16).map(|i| (i * 7 + 3) % 50).collect();
    model.forward(&ids).unwrap(); // anything lazily set up on first use, set up now

    let count = |t: usize| allocations_of(|| model.forward(&ids[..t]).unwrap());
    let (c2, c4, c8, c16) = (count(2), count(4), count(8), count(16));
    let report = format!("allocations per forward pass: T = 2: {c2}, T = 4: {c4}, T = 8: {c8}, T = 16: {c16}");

    // Doubling the sequence adds no allocation: nothing allocates per token.
    assert_eq!(c4, c2, "something allocates per token; {report}");
    assert_eq!(c16, c8, "something allocates per token; {report}");
    // One step in between, not per token: nalgebra hands a product whose dimensions all exceed 5 to
    // matrixmultiply::sgemm, which allocates one packing buffer per call. A forward pass has
    // 4 products a block (c_attn, attention c_proj, c_fc, feed-forward c_proj) and the tied logits.
    let products = 4 * model.blocks.len() + 1;
    assert!(
        c8 >= c4 && c8 - c4 <= products,
        "from T = 4 to T = 8 the count may rise by at most one per matrix product ({products}); {report}"
    );
    assert!(
        c16 < MOST_PER_FORWARD,
        "a forward pass should make fewer than {MOST_PER_FORWARD} heap allocations; {report}"
    );
    // The counter works: the pass does allocate (its output, at least).
    assert!(c2 > 0, "the counting allocator saw no allocations; {report}");
}

#[test]
fn a_training_step_makes_no_heap_allocation() {
    use transformer_block::train::corpus::LESSON_PROSE;
    use transformer_block::train::{TrainSettings, Trainer};
    let mut t = Trainer::new(TrainSettings { steps: 20, ..TrainSettings::default() }, LESSON_PROSE).unwrap();
    t.step().unwrap(); // anything set up on first use, set up now
    let during = allocations_of(|| {
        for _ in 0..10 {
            t.step().unwrap();
        }
    });
    assert_eq!(
        during, 0,
        "ten training steps made {during} heap allocations: every buffer is allocated once, up front"
    );
    // The counter sees a step's allocations when there are some: making a trainer allocates.
    assert!(allocations_of(|| Trainer::new(TrainSettings::default(), LESSON_PROSE).unwrap()) > 0);
}
