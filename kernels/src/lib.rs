//! tb-kernels: the loops TinyGPT spends its time in, as flat forward/backward pairs over row-major
//! buffers (llm.c's style: outputs first, shapes in the comment above each function).
//!
//! Why a crate of its own: Cargo sets the optimisation level per crate, not per function. The
//! release profile builds the main crate (`transformer-block`: the analytic model, the facade, the
//! matrix TinyGPT of the worked examples) for size, `opt-level = "z"`, and this one for speed,
//! `opt-level = 3` (the workspace Cargo.toml; BENCHMARKS.md has the sizes and times of each choice).
//! Everything here is re-exported by `transformer_block::nn` and `transformer_block::train` under the
//! names it has always had there.
//!
//! - [`linear`]: out = inp · weightᵀ + bias, and its gradients; the dot product and axpy.
//! - [`attention`]: scores, softmax over the allowed keys, weighted sum of values; and back.
//! - [`norm`]: LayerNorm over each row.
//! - [`activation`]: GELU (tanh form) and softmax.
//! - [`embedding`]: token + position tables into the residual stream.
//! - [`loss`]: softmax cross-entropy over the vocabulary.
//! - [`adam`]: Adam's per-parameter update and the sweeps of gradient clipping.
//! - [`product`]: bf16 matrix products for real checkpoints, a file per instruction set.
//! - [`simd`]: four f32 lanes (wasm SIMD, SSE, or plain floats), identical results everywhere.

pub mod activation;
pub mod adam;
pub mod attention;
pub mod embedding;
pub mod linear;
pub mod loss;
pub mod norm;
pub mod product;
pub mod simd;

// The tests run natively (`cargo test`) and in wasm in headless browsers (`make test`: wasm-pack
// test, with SIMD128 and with relaxed SIMD): each test module takes wasm-bindgen-test's attribute
// as `test` when built for wasm32, so every instruction-set path runs the same tests.
#[cfg(all(test, target_arch = "wasm32"))]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);
