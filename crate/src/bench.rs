//! What `make bench` times: the same workloads natively (criterion, `benches/tiny_gpt.rs`) and in
//! wasm (the facade's `Workload`, timed by the benchmark page and by Node), so the two columns of
//! BENCHMARKS.md run identical code.
//!
//! - `forward-5`, `forward-16`: the lessons' trained TinyGPT (2 blocks of width 32) reads T
//!   characters of the lesson prose and scores the next one at each position (forward to the loss,
//!   batch 1), in the flat buffers that training and the experiments use.
//! - `train-step`: one training step at batch 16 x 16 = 256 tokens, the default settings of
//!   `<tb-train>`: sample a batch, forward, backward, clip, AdamW.
//!
//! FLOPs are the analytic model's ([`crate::cost`]): a forward over T positions costs
//! Σ_{t=1..T} (2N + 4·L·t·d_q), a training step three forwards' worth, over every sequence of the batch.

use crate::cost::forward_flops_per_token;
use crate::error::{Error, Result};
use crate::messages::{self, Phrase};
use crate::nn::TrainableGpt;
use crate::train::corpus::LESSON_PROSE;
use crate::train::settings::MAX_STEPS;
use crate::train::shipped::Shipped;
use crate::train::{TrainSettings, Trainer};

/// The workloads by name, in the order the tables list them.
pub const WORKLOADS: [&str; 3] = ["forward-5", "forward-16", "train-step"];

/// The bits of the loss of `forward-16` run once (on the shipped weights) and of `train-step` run three
/// times (1.0748273 and 3.696941), the same natively and in wasm: tests here and in
/// tests/web_train.rs pin them.
pub const KERNEL_BITS: (u32, u32) = (1_065_980_913, 1_080_859_310);

/// The most runs one call makes (a call should not hold a page for long).
pub const MAX_REPS: usize = 10_000;

/// What one call to [`Workload::run`] may time, as a message says it.
pub fn allowed_repetitions() -> Phrase {
    Phrase::of(messages::TIME_RUNS).count("max", MAX_REPS)
}

enum Kind {
    /// ids and targets [1, T]
    Forward {
        model: Box<TrainableGpt>,
        ids: Vec<usize>,
        targets: Vec<usize>,
    },
    Step {
        trainer: Box<Trainer>,
        settings: TrainSettings,
    },
}

/// One workload, ready to run again and again.
pub struct Workload {
    name: &'static str,
    kind: Kind,
    tokens: usize,
    flops: f64,
}

impl Workload {
    /// `name`: one of [`WORKLOADS`].
    pub fn new(name: &str) -> Result<Workload> {
        match name.trim() {
            "forward-5" => Self::forward("forward-5", 5),
            "forward-16" => Self::forward("forward-16", 16),
            "train-step" => Self::train_step(),
            other => Err(Error::field(
                "workload",
                format!("{:?} is not a workload: choose one of {}", crate::error::clip(other), WORKLOADS.join(", ")),
            )),
        }
    }

    fn forward(name: &'static str, seq_len: usize) -> Result<Workload> {
        let (model, vocab) = Shipped::Lessons.load()?;
        let text: Vec<usize> = vocab.encode(LESSON_PROSE).into_iter().take(seq_len + 1).collect();
        let flat = TrainableGpt::from_model(&model, 1)?;
        let flops = sequence_flops(&flat, seq_len)?;
        Ok(Workload {
            name,
            kind: Kind::Forward { model: Box::new(flat), ids: text[..seq_len].to_vec(), targets: text[1..].to_vec() },
            tokens: seq_len,
            flops,
        })
    }

    fn train_step() -> Result<Workload> {
        let settings = TrainSettings { steps: MAX_STEPS, ..TrainSettings::default() };
        let mut trainer = Trainer::new(settings, LESSON_PROSE)?;
        let (batch, seq_len) = (settings.batch, trainer.trainable().shape.context);
        let flops = 3.0 * batch as f64 * sequence_flops(trainer.trainable(), seq_len)?;
        Ok(Workload {
            name: "train-step",
            kind: Kind::Step { trainer: Box::new(trainer), settings },
            tokens: batch * seq_len,
            flops,
        })
    }

    pub fn name(&self) -> &'static str {
        self.name
    }

    /// Tokens one run processes.
    pub fn tokens(&self) -> usize {
        self.tokens
    }

    /// FLOPs of one run (matrix products and attention, as the analytic model counts them).
    pub fn flops(&self) -> f64 {
        self.flops
    }

    /// Run the workload `reps` times (1 to [`MAX_REPS`]); returns the last loss (so nothing is
    /// optimised away).
    pub fn run(&mut self, reps: usize) -> Result<f32> {
        if reps == 0 || reps > MAX_REPS {
            return Err(Error::out_of_range("repetitions", reps, allowed_repetitions()));
        }
        let mut loss = 0.0;
        for _ in 0..reps {
            loss = match &mut self.kind {
                Kind::Forward { model, ids, targets } => {
                    model.forward(ids, Some(targets), 1, ids.len())?.unwrap_or(0.0)
                }
                Kind::Step { trainer, settings } => {
                    if trainer.is_done() {
                        **trainer = Trainer::new(*settings, LESSON_PROSE)?;
                    }
                    trainer.step()?.loss
                }
            };
        }
        Ok(loss)
    }
}

/// FLOPs of one forward over `seq_len` positions of one sequence (causal: position t sees t keys).
fn sequence_flops(model: &TrainableGpt, seq_len: usize) -> Result<f64> {
    let config = model.shape.model_config();
    let mut total = 0.0;
    for t in 1..=seq_len as u64 {
        total += forward_flops_per_token(&config, t)?.total;
    }
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_flop_counts_are_the_tables() {
        // The products alone (BENCHMARKS.md) are 872,448 FLOPs at T = 16 and 265,600 at T = 5; the
        // analytic model's 2N also counts the 640 norm and feed-forward bias parameters: 2 x 640 per token.
        assert_eq!(Workload::new("forward-16").unwrap().flops(), 872_448.0 + 16.0 * 1280.0);
        assert_eq!(Workload::new("forward-5").unwrap().flops(), 265_600.0 + 5.0 * 1280.0);
        assert_eq!(Workload::new("train-step").unwrap().flops(), 3.0 * 16.0 * (872_448.0 + 16.0 * 1280.0));
    }

    #[test]
    fn the_kernels_give_the_same_bits_as_in_the_browser() {
        // Pinned here and in tests/web_train.rs (wasm SIMD in Chromium and Firefox): the forward pass
        // and three training steps come out the same on x86-64's SSE path and in wasm. A change to the
        // kernels' order of arithmetic changes both constants together.
        let forward = Workload::new("forward-16").unwrap().run(1).unwrap();
        let steps = Workload::new("train-step").unwrap().run(3).unwrap();
        assert_eq!((forward.to_bits(), steps.to_bits()), KERNEL_BITS, "{forward} {steps}");
    }

    #[test]
    fn every_workload_runs_and_an_unknown_one_is_named() {
        for name in WORKLOADS {
            let mut w = Workload::new(name).unwrap();
            assert!(w.run(2).unwrap().is_finite(), "{name}");
        }
        assert!(Workload::new("forward-5").unwrap().run(0).is_err());
        let err = Workload::new("backward").err().unwrap().to_string();
        assert!(err.contains("forward-5, forward-16, train-step"), "{err}");
    }
}
