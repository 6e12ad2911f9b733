//! A trained character model as files, the layout `tblock train` writes: `model.safetensors` (GPT-2
//! tensor names, with or without the `transformer.` prefix), its `config.json` and its `vocab.json`.
//! The page reads a reader's dropped checkpoint through this.
//!
//! Size: at most [`MAX_CHECKPOINT_BYTES`]. The page runs a model on its own thread: one reading of
//! 16 characters, and the experiments' losses over the held-out text (about 1,600 tokens, 13 losses
//! for six blocks), cost 2 FLOPs a parameter a token. At 4 million parameters (16 MiB of float32)
//! a loss takes a few seconds in wasm, which is as long as a reader should wait; GPT-2 small (124
//! million parameters, 500 MB) would take minutes a loss and most of a tab's memory.

use crate::config::ModelConfig;
use crate::error::{Error, Result};
use crate::messages::{self, Phrase, Value};
use crate::nn::{weights, TinyGpt, TrainableGpt};
use crate::train::Vocabulary;

/// The largest weights file taken, in bytes: 16 MiB, 4 million float32 parameters.
pub const MAX_CHECKPOINT_BYTES: usize = 16 << 20;

/// The model in `weights` (safetensors bytes), its shape checked against `config_json` when given
/// (else the file's own metadata must carry the head count), and the vocabulary of `vocab_json`
/// (else the lessons' 50 characters), which must have a symbol for every row of the token table,
/// and small enough in working memory for the experiments (`TrainableGpt::check_fits`).
pub fn load_model_files(
    weights: &[u8],
    config_json: Option<&str>,
    vocab_json: Option<&str>,
) -> Result<(TinyGpt, Vocabulary)> {
    if weights.len() > MAX_CHECKPOINT_BYTES {
        return Err(Error::OutOfRange {
            what: "the weights file".into(),
            value: Value::Phrase(Phrase::of(messages::BYTES).count("count", weights.len())),
            allowed: Phrase::of(messages::PAGE_MODEL_SIZE).count("max", MAX_CHECKPOINT_BYTES),
        });
    }
    let config = config_json.map(ModelConfig::from_hf_config_json).transpose()?;
    let model = weights::load(weights, config.as_ref())?;
    let vocab = match vocab_json {
        Some(text) => Vocabulary::from_json(text)?,
        None => Vocabulary::lessons(),
    };
    if vocab.len() != model.vocab_size() {
        return Err(Error::field(
            "vocab.json",
            format!(
                "has {} symbols, but the model's token table has {} rows{}",
                vocab.len(),
                model.vocab_size(),
                if vocab_json.is_none() {
                    " (without a vocab.json, the lessons' 50 characters are assumed)"
                } else {
                    ""
                }
            ),
        ));
    }
    // The experiments run it in flat buffers, 16 sequences at once: refuse now a model they would.
    TrainableGpt::check_fits(&model, EXPERIMENT_BATCH)?;
    Ok((model, vocab))
}

/// How many sequences the page's experiments run at once (CharModel's flat buffers).
pub const EXPERIMENT_BATCH: usize = 16;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_past_the_limit_is_refused_before_it_is_read() {
        let zeros = vec![0u8; MAX_CHECKPOINT_BYTES + 1];
        let e = load_model_files(&zeros, None, None).unwrap_err().to_string();
        assert!(e.contains("16,777,217 bytes") && e.contains("up to 16,777,216 bytes"), "{e}");
    }

    #[test]
    fn the_shipped_model_loads_with_and_without_its_files() {
        let (model, _) = crate::train::shipped::Shipped::Lessons.load().unwrap();
        let bytes = weights::save(&model).unwrap();
        let config = weights::model_config_json(&model);
        let vocab = Vocabulary::lessons().to_json();
        let (loaded, v) = load_model_files(&bytes, Some(&config), Some(&vocab)).unwrap();
        assert_eq!((loaded.vocab_size(), v.len()), (50, 50));
        // A vocabulary of the wrong size is named.
        let e = load_model_files(&bytes, Some(&config), Some(r#"{"a": 0, "\ufffd": 1}"#)).unwrap_err().to_string();
        assert!(e.contains("has 2 symbols, but the model's token table has 50 rows"), "{e}");
        // A config that disagrees with the tensors is named.
        let wrong = config.replace("\"n_embd\": 32", "\"n_embd\": 64");
        assert_ne!(wrong, config);
        assert!(load_model_files(&bytes, Some(&wrong), None).is_err());
        // A truncated file is not a safetensors file.
        assert!(load_model_files(&bytes[..bytes.len() / 2], Some(&config), None).is_err());
    }
}
