//! A real checkpoint's matrix products alone, measured with criterion on the 0.5 B Qwen2 shapes
//! (1,024 positions): the bf16 products on every instruction set this CPU runs, and faer's f32
//! product, each on all the cores (rayon's pool). Throughput is in elements = floating-point
//! operations (2 per multiply-add), so criterion's "Gelem/s" reads as GFLOP/s.
//!
//!   cargo bench -p transformer-block --bench products
//!
//! Not part of `make bench` (TinyGPT's) nor of `make test`; BENCHMARKS.md has its figures.

use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use tb_kernels::product::{bf16_bits, BfRows, Isa, Stored, StoredMatrix};
use transformer_block::nn::parallel::{linear_forward_on, most_threads, product_on, Kernel};

/// (rows, inputs, outputs): a projection into the feed-forward, out of it, and attention's square.
const SHAPES: [(usize, usize, usize); 3] = [(1024, 896, 4864), (1024, 4864, 896), (1024, 896, 896)];

fn products(c: &mut Criterion) {
    let threads = most_threads();
    for (m, k, n) in SHAPES {
        let inp: Vec<f32> = (0..m * k).map(|i| ((i * 7919 % 113) as f32 - 56.0) / 57.0).collect();
        let weight: Vec<f32> = (0..n * k).map(|i| ((i * 104_729 % 97) as f32 - 48.0) / 50.0).collect();
        let stored: Vec<u8> = weight.iter().flat_map(|&w| bf16_bits(w).to_le_bytes()).collect();
        let matrix = StoredMatrix::rows(Stored::Bf16(&stored), n, k);
        let mut out = vec![0.0f32; m * n];
        let mut group = c.benchmark_group(format!("{m}x{k}x{n}"));
        group.throughput(Throughput::Elements(2 * (m * k * n) as u64));
        for isa in Isa::available() {
            let mut rows = BfRows::default();
            group.bench_function(format!("bf16 {}", isa.name()), |b| {
                b.iter(|| {
                    rows.round(&inp, m, k);
                    product_on(isa, threads, &mut out, &rows, &matrix, None)
                })
            });
        }
        group.bench_function("f32 faer", |b| {
            b.iter(|| linear_forward_on(Kernel::Blocked, threads, &mut out, &inp, &weight, None, k, n))
        });
        group.finish();
    }
}

fn config() -> Criterion {
    Criterion::default().warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(3)).sample_size(10)
}

criterion_group! { name = benches; config = config(); targets = products }
criterion_main!(benches);
