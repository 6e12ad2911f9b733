//! A checkpoint opened, from whichever source its bytes came (a directory natively, `folder`; the
//! page's streamed buffers, the checkpoint facade): its config.json through the analytic model's
//! importer, its tensors checked against that config, its decoder and its own tokenizer.

use super::shards::Shards;
use super::tokenizer::TextTokenizer;
use crate::config::ModelConfig;
use crate::config::SUPPORTED_FAMILIES;
use crate::count::count_params;
use crate::error::{clip_to, Error, Result};
use crate::nn::decoder::Decoder;
use crate::nn::decoder_shape::{DecoderShape, RUNNABLE_FAMILIES};
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

/// What a checkpoint's config.json (`text`) describes, refused before any weights are read when it
/// is not a decoder of a family we run (a family nobody here knows, BERT say, is told the families
/// that run; one the analytic model counts but the decoder does not run is told so).
pub fn decoder_shape(text: &str) -> Result<(ModelConfig, DecoderShape)> {
    let family =
        serde_json::from_str::<serde_json::Value>(text).ok().and_then(|j| j["model_type"].as_str().map(String::from));
    if let Some(family) = family.filter(|f| !SUPPORTED_FAMILIES.contains(&f.as_str())) {
        return Err(Error::UnsupportedFamily { model_type: family, allowed: RUNNABLE_FAMILIES.to_vec() });
    }
    let config = ModelConfig::from_hf_config_json(text)?;
    let json: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(text).map_err(|e| Error::parse("config.json", clip_to(&e.to_string(), 120)))?;
    let shape = DecoderShape::from_config(&config, &json)?;
    Ok((config, shape))
}

impl Checkpoint {
    /// The checkpoint of config.json `config_text`, `shards` and `tokenizer`; `place` names where
    /// it came from in messages. Refused unless the tensors hold exactly the parameters the config
    /// implies, each with its shape.
    pub fn from_parts(config_text: &str, shards: Shards, tokenizer: TextTokenizer, place: &str) -> Result<Checkpoint> {
        let (config, shape) = decoder_shape(config_text)?;
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
            return Err(Error::parse(place.to_string(), format!(
                    "its tensors hold {stored} numbers but its config.json implies {parameters} parameters: the weights do not match the config"
                )));
        }
        Ok(Checkpoint { config, parameters, dtype, mapped_bytes, decoder, tokenizer })
    }

    /// GPT-2's Conv1D weights turned to nn.Linear's [out, in] where the shards are held in memory
    /// (the page's; a mapped file is left as it is): each forward pass then reads their rows as
    /// they lie. The same numbers, the same sums, bit for bit.
    pub fn hold_conv1d_as_linear(&mut self) -> Result<bool> {
        let tensors = self.decoder.conv1d_tensors();
        self.decoder.weights.flip_conv1d(&tensors)
    }

    /// The positions a window feeds: `asked`, or by default the model's context, at most
    /// [`MAX_WINDOW`]; checked against both, a refusal naming it `name` ("--context", "context").
    pub fn window(&self, asked: Option<usize>, name: &str) -> Result<usize> {
        let most = self.decoder.shape.context.min(MAX_WINDOW);
        match asked {
            None => Ok(most),
            Some(n) if (1..=most).contains(&n) => Ok(n),
            Some(n) => Err(Error::out_of_range(
                name,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_family_that_is_not_run_is_refused_from_its_config_alone() {
        let e = decoder_shape(r#"{"model_type": "bert", "hidden_size": 48}"#).err().unwrap().to_string();
        assert_eq!(e, "model_type \"bert\" is not supported: supported families are gpt2, llama, mistral, qwen2");
        let mixtral = r#"{"model_type": "mixtral", "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4,
            "num_key_value_heads": 2, "intermediate_size": 128, "vocab_size": 100, "max_position_embeddings": 64,
            "num_local_experts": 4, "num_experts_per_tok": 2}"#;
        let e = decoder_shape(mixtral).err().unwrap().to_string();
        assert!(e.contains("mixture of experts") && e.contains("gpt2, llama, mistral, qwen2"), "{e}");
    }
}
