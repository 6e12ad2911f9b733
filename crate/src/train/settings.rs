//! Everything a training run is set by, with the defaults the lessons use and the ranges allowed.
//! The defaults give a visible drop below the bigram line within a few seconds: the lessons'
//! TinyGPT (2 blocks of width 32, 4 heads, 16 positions), batches of 16 windows of 16, AdamW at
//! 3e-3 with a cosine, 600 steps.

use serde::{Deserialize, Serialize};

use super::optimizer::Schedule;
use crate::error::{Error, Result};
use crate::messages::{self, Phrase};
use crate::nn::{GptShape, NormPlacement};
use crate::numbers::thousands;

/// The most steps one run may take: natively about 2.5 minutes at the default size (1.5 ms a step)
/// and about 9 hours at the largest model and batch these limits allow (0.3 s a step), far more in a
/// page. Each step is short; a caller steps the run and may stop it (the page runs it in slices).
pub const MAX_STEPS: usize = 100_000;
pub const MAX_LAYERS: usize = 8;
pub const WIDTHS: (usize, usize) = (16, 128);
pub const MAX_BATCH: usize = 64;
/// TinyGPT's context: the windows it trains on are this long.
pub const CONTEXT: usize = 16;

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct TrainSettings {
    /// Optimizer steps.
    pub steps: usize,
    /// Seeds the initial weights and (through a second generator) the order of the batches.
    pub seed: u64,
    /// The peak learning rate.
    pub learning_rate: f64,
    /// Steps of linear warmup before the peak (0: none).
    pub warmup: usize,
    pub schedule: Schedule,
    /// L: blocks, 1 to 8.
    pub layers: usize,
    /// d: width, 16 to 128, a multiple of the head count.
    pub width: usize,
    pub heads: usize,
    /// Pre-LN (GPT-2) or post-LN (the original transformer).
    pub norm: NormPlacement,
    /// B: windows per step.
    pub batch: usize,
    /// AdamW's decoupled weight decay, on the matrices only.
    pub weight_decay: f64,
    /// The gradient's global norm is clipped to this.
    pub grad_clip: f64,
}

impl Default for TrainSettings {
    fn default() -> TrainSettings {
        TrainSettings {
            steps: 600,
            seed: 0,
            learning_rate: 3e-3,
            warmup: 0,
            schedule: Schedule::Cosine,
            layers: 2,
            width: 32,
            heads: 4,
            norm: NormPlacement::Pre,
            batch: 16,
            weight_decay: 0.1,
            grad_clip: 1.0,
        }
    }
}

/// What a training setting that is a count allows, as a message says it, also for a value too large
/// to check against the others.
pub fn allowed(what: &str) -> Phrase {
    match what {
        "steps" => Phrase::of(messages::TRAIN_STEPS).count("max", MAX_STEPS),
        "layers" => Phrase::of(messages::GIVE_BLOCKS).count("max", MAX_LAYERS),
        "width" => Phrase::of(messages::GIVE_WIDTH).count("low", WIDTHS.0).count("high", WIDTHS.1),
        "heads" => Phrase::of(messages::GIVE_HEADS).count("max", WIDTHS.1),
        "batch" => Phrase::of(messages::GIVE_WINDOWS).count("max", MAX_BATCH),
        "warmup" => Phrase::of(messages::P_WARMUP),
        _ => Phrase::of(messages::P_FAR_PAST_SETTINGS),
    }
}

fn in_range(what: &str, value: usize, (lo, hi): (usize, usize), allowed: Phrase) -> Result<()> {
    if value < lo || value > hi {
        return Err(Error::out_of_range(what, thousands(value as u64), allowed));
    }
    Ok(())
}

impl TrainSettings {
    /// The shape of the model these settings train: TinyGPT's context and feed-forward (4d), no
    /// attention biases, the settings' blocks, width, heads and norm placement.
    pub fn shape(&self, vocab_size: usize) -> GptShape {
        GptShape {
            vocab_size,
            context: CONTEXT,
            d_model: self.width,
            n_layers: self.layers,
            n_heads: self.heads,
            d_ff: 4 * self.width,
            attention_bias: false,
            norm: self.norm,
            eps: 1e-5,
        }
    }

    /// Check every setting; the message says what is allowed.
    pub fn validate(&self) -> Result<()> {
        in_range("steps", self.steps, (1, MAX_STEPS), allowed("steps"))?;
        if !(self.learning_rate.is_finite() && self.learning_rate > 0.0 && self.learning_rate <= 1.0) {
            return Err(Error::out_of_range(
                "learning rate",
                self.learning_rate,
                "give a positive number up to 1 (3e-3 trains TinyGPT well)",
            ));
        }
        in_range(
            "warmup",
            self.warmup,
            (0, self.steps),
            Phrase::of(messages::WARMUP_STEPS).count("steps", self.steps),
        )?;
        in_range("layers", self.layers, (1, MAX_LAYERS), allowed("layers"))?;
        in_range("heads", self.heads, (1, WIDTHS.1), allowed("heads"))?;
        let (lo, hi) = WIDTHS;
        if self.width < lo || self.width > hi || !self.width.is_multiple_of(self.heads) {
            let allowed = if self.heads > 1 {
                Phrase::of(messages::GIVE_WIDTH_OF_HEADS).count("heads", self.heads)
            } else {
                Phrase::of(messages::GIVE_LOW_HIGH)
            };
            return Err(Error::out_of_range("width", self.width, allowed.count("low", lo).count("high", hi)));
        }
        in_range("batch", self.batch, (1, MAX_BATCH), allowed("batch"))?;
        if !(self.weight_decay.is_finite() && (0.0..=1.0).contains(&self.weight_decay)) {
            return Err(Error::out_of_range("weight decay", self.weight_decay, "give 0 to 1 (0.1 is usual)"));
        }
        if !(self.grad_clip.is_finite() && self.grad_clip > 0.0) {
            return Err(Error::out_of_range("gradient clipping", self.grad_clip, "give a positive norm (1 is usual)"));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_are_valid_and_bad_settings_say_what_is_allowed() {
        TrainSettings::default().validate().unwrap();
        let e = |f: fn(&mut TrainSettings)| {
            let mut s = TrainSettings::default();
            f(&mut s);
            s.validate().unwrap_err().to_string()
        };
        assert_eq!(e(|s| s.steps = 0), "steps 0 is out of range: train for 1 to 100,000 steps");
        assert_eq!(e(|s| s.steps = 1_000_000), "steps 1,000,000 is out of range: train for 1 to 100,000 steps");
        assert_eq!(
            e(|s| s.learning_rate = 0.0),
            "learning rate 0 is out of range: give a positive number up to 1 (3e-3 trains TinyGPT well)"
        );
        assert_eq!(
            e(|s| s.learning_rate = f64::NAN),
            "learning rate NaN is out of range: give a positive number up to 1 (3e-3 trains TinyGPT well)"
        );
        assert_eq!(
            e(|s| s.learning_rate = -1.0),
            "learning rate -1 is out of range: give a positive number up to 1 (3e-3 trains TinyGPT well)"
        );
        assert_eq!(e(|s| s.layers = 9), "layers 9 is out of range: give 1 to 8 blocks");
        assert_eq!(e(|s| s.layers = 0), "layers 0 is out of range: give 1 to 8 blocks");
        assert_eq!(e(|s| s.width = 30), "width 30 is out of range: give 16 to 128, a multiple of the 4 heads");
        assert_eq!(e(|s| s.width = 256), "width 256 is out of range: give 16 to 128, a multiple of the 4 heads");
        assert_eq!(e(|s| s.warmup = 601), "warmup 601 is out of range: give 0 to the 600 steps of the run");
        assert_eq!(e(|s| s.batch = 0), "batch 0 is out of range: give 1 to 64 windows per step");
        assert_eq!(e(|s| s.heads = 0), "heads 0 is out of range: give 1 to 128 heads");
    }
}
