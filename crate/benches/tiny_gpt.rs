//! How fast TinyGPT runs and how fast the analytic model answers, measured with criterion.
//!
//!   CARGO_PROFILE_BENCH_PANIC=unwind CARGO_TARGET_DIR=/tmp/bench-target cargo bench -p transformer-block --bench tiny_gpt
//!
//! The figures, the machine they came from, and why the panic override: BENCHMARKS.md at the repo root.
//! Each benchmark measures for 3 s after a 1 s warm-up, so the whole run takes well under a minute.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use transformer_block::count::count_params;
use transformer_block::nn::TinyGpt;
use transformer_block::train::corpus::LESSON_PROSE;
use transformer_block::train::settings::MAX_STEPS;
use transformer_block::train::{TrainSettings, Trainer};
use transformer_block::{ModelConfig, Report};

/// T ids cycling through the vocabulary: 0, 1, ..., T-1 (mod 50).
fn ids(t: usize) -> Vec<usize> {
    (0..t).map(|i| i % 50).collect()
}

fn tiny_gpt(c: &mut Criterion) {
    let model = TinyGpt::tiny(0);
    let full = ids(16);
    let lesson = [3, 1, 4, 1, 5];
    let x = model.embed(&full).expect("16 ids in range"); // [16, 32]

    c.bench_function("forward T=16", |b| b.iter(|| model.forward(black_box(&full)).unwrap()));
    c.bench_function("forward T=5", |b| b.iter(|| model.forward(black_box(&lesson)).unwrap()));
    c.bench_function("block T=16", |b| b.iter(|| model.blocks[0].forward(black_box(&x))));
}

/// One training step of the lessons' TinyGPT at batch 16 x 16 (256 tokens): sample a batch, forward
/// to the loss, backward, clip, AdamW. Tokens per second = 256 / the time.
fn training(c: &mut Criterion) {
    let settings = TrainSettings { steps: MAX_STEPS, ..TrainSettings::default() };
    let mut trainer = Trainer::new(settings, LESSON_PROSE).expect("the default settings are valid");
    c.bench_function("train step 16x16", |b| {
        b.iter(|| {
            if trainer.is_done() {
                trainer = Trainer::new(settings, LESSON_PROSE).expect("the default settings are valid");
            }
            trainer.step().expect("a finite step")
        })
    });
}

fn analytic(c: &mut Criterion) {
    let llama = ModelConfig::preset("llama3-70b").expect("the llama3-70b preset exists");
    let gpt2 = ModelConfig::preset("gpt2-small").expect("the gpt2-small preset exists");

    c.bench_function("count_params llama3-70b", |b| b.iter(|| count_params(black_box(&llama)).unwrap()));
    // What the page recomputes while a reader drags the sequence-length slider.
    c.bench_function("Report::new gpt2-small T=1024", |b| {
        b.iter(|| Report::new(black_box(&gpt2), black_box(1024), 1).unwrap())
    });
}

fn config() -> Criterion {
    Criterion::default().warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(3)).sample_size(50)
}

criterion_group! { name = benches; config = config(); targets = tiny_gpt, training, analytic }
criterion_main!(benches);
