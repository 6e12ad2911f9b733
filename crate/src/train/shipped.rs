//! The trained TinyGPT the page ships, compiled in: `crate/data/tiny-gpt/`, written by `make weights`
//! (`tblock train` with the settings recorded in the Makefile and in `training.json` beside it).
//! Stored as int8 with a scale per row (34 KB; f16 would be 58 KB, f32 113 KB), which moves the
//! held-out loss by 0.0003 nats (1.6871 at f32, 1.6874 as shipped). Every widget that shows "the
//! trained model" without a reader training one runs these weights.

use super::tokenizer::Vocabulary;
use crate::error::{Error, Result};
use crate::nn::{weights, TinyGpt};

/// model.safetensors (int8 rows, Hugging Face GPT-2 names, its config in the metadata).
pub const SHIPPED_WEIGHTS: &[u8] = include_bytes!("../../data/tiny-gpt/model.safetensors");
/// How the shipped weights were made: `tblock train`'s summary and the settings.
pub const SHIPPED_TRAINING: &str = include_str!("../../data/tiny-gpt/training.json");
/// The vocabulary written beside them (the lessons').
const SHIPPED_VOCAB: &str = include_str!("../../data/tiny-gpt/vocab.json");

/// The shipped model and its vocabulary.
pub fn shipped_model() -> Result<(TinyGpt, Vocabulary)> {
    let model = weights::load(SHIPPED_WEIGHTS, None)?;
    let vocab = Vocabulary::from_json(SHIPPED_VOCAB)?;
    if vocab.len() != model.vocab_size() {
        return Err(Error::field("vocab.json", "the shipped vocabulary does not match the shipped model"));
    }
    Ok((model, vocab))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nn::TrainableGpt;
    use crate::train::corpus::Corpus;
    use crate::train::evaluate::evaluate;

    #[test]
    fn the_shipped_model_is_the_lessons_tiny_gpt_and_scores_what_its_record_says() {
        let (model, vocab) = shipped_model().unwrap();
        assert_eq!(model.n_params(), 27_328);
        assert_eq!(vocab, Vocabulary::lessons());
        let record: serde_json::Value = serde_json::from_str(SHIPPED_TRAINING).unwrap();
        let mut flat = TrainableGpt::from_model(&model, 16).unwrap();
        let held_out = Corpus::lessons(&vocab, 16).held_out;
        let loss = evaluate(&mut flat, &held_out).unwrap().loss;
        let recorded = record["val_loss_as_shipped"].as_f64().unwrap();
        assert!((loss - recorded).abs() < 1e-9, "held-out loss {loss}, recorded {recorded}: run `make weights`");
        assert!(loss < record["bigram_loss"].as_f64().unwrap());
    }
}
