//! How fast TinyGPT runs and how fast the analytic model answers, measured with criterion: the native
//! column of `make bench` (scripts/bench.mjs reads `target/criterion/<name>/new/estimates.json`).
//!
//!   cargo bench -p transformer-block --bench tiny_gpt
//!   cargo bench -p transformer-block --bench tiny_gpt -- --warm-up-time 0.2 --measurement-time 0.3 --sample-size 10   (quick)
//!
//! The TinyGPT workloads are `transformer_block::bench`'s, the same code the wasm column times.
//! Each benchmark measures for 3 s after a 1 s warm-up by default.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use transformer_block::bench::{Workload, WORKLOADS};
use transformer_block::cost::cost_curve;
use transformer_block::{ModelConfig, Report};

fn tiny_gpt(c: &mut Criterion) {
    for name in WORKLOADS {
        let mut workload = Workload::new(name).expect("a known workload");
        c.bench_function(name, |b| b.iter(|| workload.run(1).expect("a finite run")));
    }
}

/// What the page's charts ask for while a reader drags: a report at one T, a 200-point cost curve.
fn analytic(c: &mut Criterion) {
    let gpt2 = ModelConfig::preset("gpt2-small").expect("the gpt2-small preset exists");
    c.bench_function("report gpt2-small T=1024", |b| {
        b.iter(|| Report::new(black_box(&gpt2), black_box(1024), 1).unwrap())
    });
    c.bench_function("cost-curve gpt2-small 200", |b| b.iter(|| cost_curve(black_box(&gpt2), 200).unwrap()));
}

fn config() -> Criterion {
    Criterion::default().warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(3)).sample_size(50)
}

criterion_group! { name = benches; config = config(); targets = tiny_gpt, analytic }
criterion_main!(benches);
