//! The training inputs: a run's settings (steps, seed, learning rate, warmup, schedule, layers,
//! width, heads, norm placement as typed, batch, weight decay, clipping) and its text, as `tblock
//! train` and the page's `TrainingRun(settings, text)` take them, then a few steps, the held-out
//! loss and a sample from the model, as the page's worker and `tblock train` / `sample` run them.
//! Property: no panic, no hang, every error a short message. The work is bounded the way the
//! library bounds it (its documented limits); on top of that this target takes at most two steps,
//! and only on models no larger than the lessons' default, so each input stays fast: a run's length
//! is the caller's to choose within the limits (`TrainingRun.run` and `tblock train` step it).
#![no_main]

mod common;

use arbitrary::Arbitrary;
use common::checked;
use libfuzzer_sys::fuzz_target;
use transformer_block::experiments::race::race_settings;
use transformer_block::nn::NormPlacement;
use transformer_block::train::corpus::LESSON_PROSE;
use transformer_block::train::optimizer::Schedule;
use transformer_block::train::sample::{generate, MAX_LENGTH};
use transformer_block::train::sampler::Sampling;
use transformer_block::train::{TrainSettings, Trainer};

/// A count as a caller gives it: left at its default, a small number (where the limits are), or
/// any number at all.
#[derive(Arbitrary, Debug)]
enum Count {
    Default,
    Small(u8),
    Any(u64),
}

impl Count {
    fn or(&self, default: usize) -> usize {
        match *self {
            Count::Default => default,
            Count::Small(n) => n as usize,
            Count::Any(n) => n as usize,
        }
    }
}

/// A real number: its default, thousandths (where the usual values are), or any f64 (NaN, ±inf...).
#[derive(Arbitrary, Debug)]
enum Real {
    Default,
    Milli(i16),
    Any(f64),
}

impl Real {
    fn or(&self, default: f64) -> f64 {
        match *self {
            Real::Default => default,
            Real::Milli(n) => n as f64 / 1000.0,
            Real::Any(x) => x,
        }
    }
}

#[derive(Arbitrary, Debug)]
struct Input {
    steps: Count,
    seed: u64,
    learning_rate: Real,
    warmup: Count,
    constant: bool,
    layers: Count,
    width: Count,
    heads: Count,
    /// The norm placement as typed ("pre", "post", anything).
    norm: Option<String>,
    batch: Count,
    weight_decay: Real,
    grad_clip: Real,
    /// Steps to take (0 to 2, never more than the run has).
    take: u8,
    prompt: String,
    length: u16,
    temperature: Real,
    /// The text to learn from; none: the start of the lesson prose (the page's default text, cut
    /// to 2,000 characters so that each input runs fast).
    text: Option<String>,
}

fuzz_target!(|input: Input| {
    let d = TrainSettings::default();
    let norm = match &input.norm {
        None => Some(d.norm),
        Some(typed) => checked(NormPlacement::parse(typed)),
    };
    let Some(norm) = norm else { return };
    let settings = TrainSettings {
        steps: input.steps.or(d.steps),
        seed: input.seed,
        learning_rate: input.learning_rate.or(d.learning_rate),
        warmup: input.warmup.or(d.warmup),
        schedule: if input.constant { Schedule::Constant } else { Schedule::Cosine },
        layers: input.layers.or(d.layers),
        width: input.width.or(d.width),
        heads: input.heads.or(d.heads),
        norm,
        batch: input.batch.or(d.batch),
        weight_decay: input.weight_decay.or(d.weight_decay),
        grad_clip: input.grad_clip.or(d.grad_clip),
    };
    // The page's check before a run, and the race's settings from the same steps, seed and warmup.
    checked(settings.validate());
    checked(race_settings(settings.steps, settings.seed, settings.warmup).validate());
    let lesson: String = LESSON_PROSE.chars().take(2000).collect();
    let Some(mut trainer) = checked(Trainer::new(settings, input.text.as_deref().unwrap_or(&lesson))) else { return };
    // No larger than the lessons' default model and batch (2 blocks of width 32, 16 windows).
    let s = trainer.settings;
    if s.layers * s.width * s.width * s.batch > d.layers * d.width * d.width * d.batch {
        return;
    }
    for _ in 0..(input.take as usize % 3).min(s.steps) {
        checked(trainer.step());
    }
    checked(trainer.held_out_loss());
    let length = match input.length as usize {
        n if n > 8 && n <= MAX_LENGTH => 8,
        n => n,
    };
    let temperature = input.temperature.or(0.8);
    let vocab = trainer.vocab.clone();
    if let Some(sampling) = checked(Sampling::new(temperature, None, None, vocab.len())) {
        checked(generate(trainer.trainable(), &vocab, &input.prompt, length, &sampling, input.seed));
    }
});
