//! The named presets the lessons use, each with the shapes its family publishes: TinyGPT (the
//! lessons' own), GPT-2 small to XL, Llama 3 8B and 70B, Mixtral 8x7B.

use super::{Biases, FeedForwardKind, MixtureOfExperts, ModelConfig, NormKind, PositionScheme};
use crate::error::{Error, Result};

/// The presets, by key, in the order a model switcher lists them.
pub const PRESET_NAMES: [&str; 8] =
    ["tiny-gpt", "gpt2-small", "gpt2-medium", "gpt2-large", "gpt2-xl", "llama3-8b", "llama3-70b", "mixtral-8x7b"];

impl ModelConfig {
    /// A preset by key (see [`PRESET_NAMES`]).
    pub fn preset(name: &str) -> Result<ModelConfig> {
        let config = match name {
            "tiny-gpt" => tiny_gpt(),
            "gpt2-small" => gpt2("gpt2-small", "GPT-2 small", 768, 12, 12),
            "gpt2-medium" => gpt2("gpt2-medium", "GPT-2 medium", 1024, 24, 16),
            "gpt2-large" => gpt2("gpt2-large", "GPT-2 large", 1280, 36, 20),
            "gpt2-xl" => gpt2("gpt2-xl", "GPT-2 XL", 1600, 48, 25),
            "llama3-8b" => llama3("llama3-8b", "Llama 3 8B", 4096, 32, 32, 14336),
            "llama3-70b" => llama3("llama3-70b", "Llama 3 70B", 8192, 80, 64, 28672),
            "mixtral-8x7b" => mixtral_8x7b(),
            _ => {
                return Err(Error::UnknownPreset {
                    name: name.to_string(),
                    allowed: PRESET_NAMES.iter().map(|s| s.to_string()).collect(),
                })
            }
        };
        Ok(config)
    }

    /// Every preset, in switcher order.
    pub fn presets() -> Vec<ModelConfig> {
        PRESET_NAMES.iter().map(|n| Self::preset(n).expect("every listed preset exists")).collect()
    }
}

/// The lessons' model: V 50, d 32, 2 blocks, 16 learned positions, 4 heads of 8, f = 4d,
/// LayerNorm, GELU, no attention biases, feed-forward biases, tied output. 27,328 parameters.
fn tiny_gpt() -> ModelConfig {
    ModelConfig {
        name: "tiny-gpt".into(),
        label: "TinyGPT".into(),
        family: "tiny-gpt".into(),
        vocab_size: 50,
        d_model: 32,
        n_layers: 2,
        n_heads: 4,
        n_kv_heads: 4,
        head_dim: 8,
        d_ff: 128,
        context: 16,
        positions: PositionScheme::Learned,
        norm: NormKind::LayerNorm,
        norm_eps: 1e-5,
        feed_forward: FeedForwardKind::Gelu,
        bias: Biases { qkv: false, attention_out: false, feed_forward: true },
        tied_output: true,
        moe: None,
    }
}

/// GPT-2: V 50,257, 1,024 learned positions, f = 4d, LayerNorm, GELU, a bias on every projection,
/// output tied to the token table.
fn gpt2(name: &str, label: &str, d_model: u64, n_layers: u64, n_heads: u64) -> ModelConfig {
    ModelConfig {
        name: name.into(),
        label: label.into(),
        family: "gpt2".into(),
        vocab_size: 50257,
        d_model,
        n_layers,
        n_heads,
        n_kv_heads: n_heads,
        head_dim: d_model / n_heads,
        d_ff: 4 * d_model,
        context: 1024,
        positions: PositionScheme::Learned,
        norm: NormKind::LayerNorm,
        norm_eps: 1e-5,
        feed_forward: FeedForwardKind::Gelu,
        bias: Biases { qkv: true, attention_out: true, feed_forward: true },
        tied_output: true,
        moe: None,
    }
}

/// Llama 3 (and 3.1, same shapes): V 128,256, 8 key/value heads of 128, rotary positions, RMSNorm,
/// SwiGLU, no biases, separate output head. Context 8,192 (3.1: 131,072).
fn llama3(name: &str, label: &str, d_model: u64, n_layers: u64, n_heads: u64, d_ff: u64) -> ModelConfig {
    ModelConfig {
        name: name.into(),
        label: label.into(),
        family: "llama".into(),
        vocab_size: 128256,
        d_model,
        n_layers,
        n_heads,
        n_kv_heads: 8,
        head_dim: d_model / n_heads,
        d_ff,
        context: 8192,
        positions: PositionScheme::Rotary,
        norm: NormKind::RmsNorm,
        norm_eps: 1e-5,
        feed_forward: FeedForwardKind::SwiGlu,
        bias: Biases { qkv: false, attention_out: false, feed_forward: false },
        tied_output: false,
        moe: None,
    }
}

/// Mixtral 8x7B: Mistral 7B's attention with 8 SwiGLU experts per block, 2 run per token, a router
/// d x 8 without bias. Context 32,768.
fn mixtral_8x7b() -> ModelConfig {
    ModelConfig {
        name: "mixtral-8x7b".into(),
        label: "Mixtral 8x7B".into(),
        family: "mixtral".into(),
        vocab_size: 32000,
        d_model: 4096,
        n_layers: 32,
        n_heads: 32,
        n_kv_heads: 8,
        head_dim: 128,
        d_ff: 14336,
        context: 32768,
        positions: PositionScheme::Rotary,
        norm: NormKind::RmsNorm,
        norm_eps: 1e-5,
        feed_forward: FeedForwardKind::SwiGlu,
        bias: Biases { qkv: false, attention_out: false, feed_forward: false },
        tied_output: false,
        moe: Some(MixtureOfExperts { n_experts: 8, experts_per_token: 2, router_bias: false }),
    }
}
