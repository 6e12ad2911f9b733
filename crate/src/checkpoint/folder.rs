//! A Hugging Face checkpoint directory on disk, ready for the lessons' experiments: its config.json,
//! its tensors memory-mapped ([`Shards::open`]) and its own tokenizer ([`TextTokenizer`]), opened
//! as every source is ([`Checkpoint::from_parts`]).

use std::path::Path;

use super::is_tiny_gpt_config;
use super::opened::{decoder_shape, Checkpoint};
use super::shards::Shards;
use super::tokenizer::TextTokenizer;
use crate::error::{Error, Result};

/// Whether `dir` is a Hugging Face checkpoint rather than a model `tblock train` wrote (which has a
/// vocab.json): a config.json with a tokenizer.json beside it, or with neither tokenizer.json nor
/// vocab.json but a config that is not TinyGPT's shape (so a missing tokenizer is named as such).
pub fn is_checkpoint_dir(dir: &Path) -> bool {
    if !dir.is_dir() || !dir.join("config.json").exists() || dir.join("vocab.json").exists() {
        return false;
    }
    if dir.join("tokenizer.json").exists() {
        return true;
    }
    let readable = |text: &str| serde_json::from_str::<serde_json::Value>(text).is_ok();
    std::fs::read_to_string(dir.join("config.json")).is_ok_and(|text| readable(&text) && !is_tiny_gpt_config(&text))
}

impl Checkpoint {
    /// The checkpoint in directory `dir`: config.json, tokenizer.json and the mapped shards.
    pub fn open(dir: &Path) -> Result<Checkpoint> {
        let config_path = dir.join("config.json");
        let text = std::fs::read_to_string(&config_path)
            .map_err(|e| Error::parse(config_path.display().to_string(), format!("cannot be read ({e})")))?;
        // An unsupported family or shape is named before the tokenizer and the shards are opened.
        decoder_shape(&text)?;
        let tokenizer = TextTokenizer::open(dir)?;
        let shards = Shards::open(dir)?;
        Checkpoint::from_parts(&text, shards, tokenizer, &dir.display().to_string())
    }
}
