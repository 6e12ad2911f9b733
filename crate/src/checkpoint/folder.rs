//! A Hugging Face checkpoint directory on disk, ready for the lessons' experiments: its config.json
//! through the analytic model's importer, its tensors memory-mapped ([`Shards::open`]), its own
//! tokenizer ([`TextTokenizer`]), and the forward pass of its family ([`crate::nn::decoder`]).

use std::path::Path;

use super::shards::Shards;
use super::tokenizer::TextTokenizer;
use crate::config::ModelConfig;
use crate::count::count_params;
use crate::error::{clip_to, Error, Result};
use crate::nn::decoder::Decoder;
use crate::nn::decoder_shape::DecoderShape;
use crate::numbers::thousands;

/// The most positions a window may have here (the experiments' --context).
pub const MAX_WINDOW: usize = 1024;

/// A checkpoint opened: what it is, its forward pass and its tokenizer.
pub struct Checkpoint {
    pub config: ModelConfig,
    /// Parameters, from the analytic model (checked against the stored tensors on opening).
    pub parameters: u64,
    pub dtype: String,
    pub mapped_bytes: u64,
    pub decoder: Decoder<Shards>,
    pub tokenizer: TextTokenizer,
}

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
    let config = std::fs::read_to_string(dir.join("config.json")).ok();
    let json: Option<serde_json::Value> = config.and_then(|t| serde_json::from_str(&t).ok());
    let tiny = ModelConfig::preset("tiny-gpt").map_or(50, |c| c.vocab_size);
    json.is_some_and(|j| j["model_type"] != "gpt2" || j["vocab_size"].as_u64() != Some(tiny))
}

impl Checkpoint {
    pub fn open(dir: &Path) -> Result<Checkpoint> {
        let config_path = dir.join("config.json");
        let text = std::fs::read_to_string(&config_path)
            .map_err(|e| Error::parse(config_path.display().to_string(), format!("cannot be read ({e})")))?;
        let config = ModelConfig::from_hf_config_json(&text)?;
        let json: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(&text).map_err(|e| Error::parse("config.json", clip_to(&e.to_string(), 120)))?;
        let shape = DecoderShape::from_config(&config, &json)?;
        let tokenizer = TextTokenizer::open(dir)?;
        let shards = Shards::open(dir)?;
        let (dtype, mapped_bytes) = (shards.dtype(), shards.mapped_bytes());
        let stored = shards.stored_numbers();
        // Every tensor the config implies, with its shape, before anything is counted.
        let decoder = Decoder::new(shape, shards)?;
        let parameters = count_params(&config)?.total;
        // GPT-2 checkpoints may also hold the attention's mask buffers (attn.bias, attn.masked_bias).
        let buffers: u64 = decoder
            .weights
            .names()
            .filter(|n| n.ends_with(".attn.bias") || n.ends_with(".attn.masked_bias"))
            .filter_map(|n| decoder.weights.shape(n))
            .map(|s| s.iter().product::<usize>() as u64)
            .sum();
        let stored = stored - buffers;
        if stored != parameters {
            return Err(Error::parse(dir.display().to_string(), format!(
                    "its tensors hold {stored} numbers but its config.json implies {parameters} parameters: the weights do not match the config"
                )));
        }
        Ok(Checkpoint { config, parameters, dtype, mapped_bytes, decoder, tokenizer })
    }

    /// The positions a window feeds: `asked`, or by default the model's context, at most
    /// [`MAX_WINDOW`]; checked against both.
    pub fn window(&self, asked: Option<usize>) -> Result<usize> {
        let most = self.decoder.shape.context.min(MAX_WINDOW);
        match asked {
            None => Ok(most),
            Some(n) if (1..=most).contains(&n) => Ok(n),
            Some(n) => Err(Error::out_of_range(
                "--context",
                n,
                format!(
                    "1 to {} (the model reads {} positions; at most {} here)",
                    thousands(most as u64),
                    thousands(self.decoder.shape.context as u64),
                    thousands(MAX_WINDOW as u64)
                ),
            )),
        }
    }
}
