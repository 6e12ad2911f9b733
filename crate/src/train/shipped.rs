//! The trained TinyGPTs the page ships, compiled in, written by `make weights` (`tblock train` with
//! the settings recorded in the Makefile and in `training.json` beside each):
//!
//! - [`Shipped::Lessons`] (`crate/data/tiny-gpt/`): the lessons' TinyGPT, 2 blocks of width 32, which
//!   every widget that shows "the trained model" runs unless a reader trains one;
//! - [`Shipped::SixBlocks`] (`crate/data/tiny-gpt-6x16/`): 6 blocks of width 16, for the experiments
//!   that take blocks out (two blocks are too few to say much; width 16 keeps the page in budget).
//!
//! Both are stored a byte a weight with a scale per row, in 6-bit levels (the lessons' model) and 7-bit
//! levels (the six blocks), which moves each held-out loss by under 0.01 nats (their records give
//! both figures, `val_loss` and `val_loss_as_shipped`; BENCHMARKS.md has the sizes of each choice).

use crate::error::{Error, Result};
use crate::nn::vocabulary::Vocabulary;
use crate::nn::{weights, TinyGpt};

/// The models the page ships.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shipped {
    Lessons,
    SixBlocks,
}

/// The lessons' TinyGPT: model.safetensors (byte rows, Hugging Face GPT-2 names, config inside).
pub const SHIPPED_WEIGHTS: &[u8] = include_bytes!("../../data/tiny-gpt/model.safetensors");
/// How it was made: `tblock train`'s summary and the settings.
pub const SHIPPED_TRAINING: &str = include_str!("../../data/tiny-gpt/training.json");
const SIX_BLOCKS_WEIGHTS: &[u8] = include_bytes!("../../data/tiny-gpt-6x16/model.safetensors");
const SIX_BLOCKS_TRAINING: &str = include_str!("../../data/tiny-gpt-6x16/training.json");
/// The vocabulary written beside them (the lessons', the same for both).
const SHIPPED_VOCAB: &str = include_str!("../../data/tiny-gpt/vocab.json");

impl Shipped {
    pub fn name(self) -> &'static str {
        match self {
            Shipped::Lessons => "shipped",
            Shipped::SixBlocks => "six-blocks",
        }
    }

    /// "shipped" or "six-blocks".
    pub fn parse(text: &str) -> Result<Shipped> {
        match text.trim() {
            "shipped" => Ok(Shipped::Lessons),
            "six-blocks" => Ok(Shipped::SixBlocks),
            other => Err(Error::field(
                "model",
                format!("{:?} is not a shipped model: choose shipped (2 blocks of width 32) or six-blocks (6 blocks of width 16)", crate::error::clip(other)),
            )),
        }
    }

    /// How the weights were made (the JSON record beside them).
    pub fn training(self) -> &'static str {
        match self {
            Shipped::Lessons => SHIPPED_TRAINING,
            Shipped::SixBlocks => SIX_BLOCKS_TRAINING,
        }
    }

    /// The model and its vocabulary.
    pub fn load(self) -> Result<(TinyGpt, Vocabulary)> {
        let bytes = match self {
            Shipped::Lessons => SHIPPED_WEIGHTS,
            Shipped::SixBlocks => SIX_BLOCKS_WEIGHTS,
        };
        let model = weights::load(bytes, None)?;
        let vocab = Vocabulary::from_json(SHIPPED_VOCAB)?;
        if vocab.len() != model.vocab_size() {
            return Err(Error::field("vocab.json", "the shipped vocabulary does not match the shipped model"));
        }
        Ok((model, vocab))
    }
}

/// The lessons' shipped model and its vocabulary.
pub fn shipped_model() -> Result<(TinyGpt, Vocabulary)> {
    Shipped::Lessons.load()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nn::TrainableGpt;
    use crate::train::corpus::Corpus;
    use crate::train::evaluate::evaluate;

    #[test]
    fn the_shipped_models_have_their_shapes_and_score_what_their_records_say() {
        for (shipped, params, layers) in [(Shipped::Lessons, 27_328, 2), (Shipped::SixBlocks, 20_384, 6)] {
            let (model, vocab) = shipped.load().unwrap();
            assert_eq!((model.n_params(), model.blocks.len()), (params, layers), "{shipped:?}");
            assert_eq!(vocab, Vocabulary::lessons());
            let record: serde_json::Value = serde_json::from_str(shipped.training()).unwrap();
            let mut flat = TrainableGpt::from_model(&model, 16).unwrap();
            let held_out = Corpus::lessons(&vocab, 16).held_out;
            let loss = evaluate(&mut flat, &held_out).unwrap().loss;
            let recorded = record["val_loss_as_shipped"].as_f64().unwrap();
            // The record is the loss as `make weights` measured it; a change in the kernels' rounding
            // (their order of summation, their exp) moves it in the eighth digit, retraining much more.
            assert!(
                (loss - recorded).abs() < 1e-6,
                "{shipped:?}: held-out loss {loss}, recorded {recorded}: run `make weights`"
            );
            assert!(loss < record["bigram_loss"].as_f64().unwrap());
            // Stored in fewer bits than f32, the model may lose at most 0.01 nats.
            let trained = record["val_loss"].as_f64().unwrap();
            assert!(loss - trained < 0.01, "{shipped:?}: {trained} as trained, {loss} as shipped");
        }
        assert_eq!(Shipped::parse("six-blocks").unwrap(), Shipped::SixBlocks);
        assert!(Shipped::parse("huge").unwrap_err().to_string().starts_with("model: \"huge\" is not a shipped model"));
    }
}
