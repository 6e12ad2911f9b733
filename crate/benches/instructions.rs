//! One forward pass of TinyGPT at T = 16 (and one at T = 5, and one block), each in a function of its
//! own, for callgrind to count instructions: a figure that, unlike a time, repeats on a shared machine.
//!
//!   CARGO_PROFILE_BENCH_PANIC=unwind CARGO_TARGET_DIR=/tmp/bench-target cargo bench -p transformer-block --bench instructions --no-run
//!   valgrind --tool=callgrind --callgrind-out-file=/tmp/tiny_gpt.callgrind \
//!       --toggle-collect='instructions::measured_*' /tmp/bench-target/release/deps/instructions-<hash>
//!   callgrind_annotate --inclusive=yes /tmp/tiny_gpt.callgrind | grep measured_
//!
//! Run by `cargo bench` it does the same work once and prints nothing. Figures in BENCHMARKS.md.

use std::hint::black_box;

use transformer_block::nn::{Matrix, TinyGpt, TransformerBlock};

#[inline(never)]
fn measured_forward_t16(model: &TinyGpt, ids: &[usize]) -> Matrix {
    model.forward(black_box(ids)).expect("16 ids in range")
}

#[inline(never)]
fn measured_forward_t5(model: &TinyGpt, ids: &[usize]) -> Matrix {
    model.forward(black_box(ids)).expect("5 ids in range")
}

#[inline(never)]
fn measured_block_t16(block: &TransformerBlock, x: &Matrix) -> Matrix {
    block.forward(black_box(x))
}

fn main() {
    let model = TinyGpt::tiny(0);
    let full: Vec<usize> = (0..16).map(|i| i % 50).collect();
    let lesson = [3, 1, 4, 1, 5];
    let x = model.embed(&full).expect("16 ids in range"); // [16, 32]
                                                          // Warm up outside the measured functions: first-use costs (CPU feature detection) are not counted.
    black_box(model.forward(&full).expect("16 ids in range"));
    black_box(model.forward(&lesson).expect("5 ids in range"));

    black_box(measured_forward_t16(&model, &full));
    black_box(measured_forward_t5(&model, &lesson));
    black_box(measured_block_t16(&model.blocks[0], &x));
}
