//! What a decoder-only transformer is made of: [`ModelConfig`], the named presets the lessons use,
//! and the import of a Hugging Face `config.json` for the families this crate models.
//!
//! Symbols, as in the lessons: V vocabulary, d width (`d_model`), L blocks, h query heads, d_head the
//! width of one head, f the feed-forward width, P the positions a learned table holds, E experts.
//!
//! - `presets`: the named models ([`PRESET_NAMES`], [`ModelConfig::preset`]).
//! - `import`: a Hugging Face `config.json` read into a [`ModelConfig`] ([`SUPPORTED_FAMILIES`],
//!   [`ModelConfig::from_hf_config_json`]).

mod import;
mod presets;

pub use import::SUPPORTED_FAMILIES;
pub use presets::PRESET_NAMES;

use serde::{Deserialize, Serialize};

use crate::error::{clip, Error, Result};
use crate::messages::{self, Phrase};

/// Where a token's position enters the model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PositionScheme {
    /// A learned table of P x d added to the token vectors (GPT-2).
    Learned,
    /// Rotary embeddings: q and k are rotated inside attention; no parameters (Llama, Mixtral).
    Rotary,
    /// No position information at all.
    None,
}

/// The normalisation in front of each sublayer and at the end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NormKind {
    /// Subtract the mean, divide by the spread, then a learned gain and bias: 2d parameters.
    LayerNorm,
    /// Divide by the root mean square, then a learned gain: d parameters.
    RmsNorm,
}

/// The feed-forward sublayer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FeedForwardKind {
    /// Two matrices: W_1 (d x f), GELU, W_2 (f x d).
    Gelu,
    /// Three matrices: W_gate and W_up (d x f), SiLU(gate) * up, W_down (f x d).
    SwiGlu,
}

/// Which projections carry a bias vector.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Biases {
    /// b_Q, b_K, b_V.
    pub qkv: bool,
    /// b_O, after the heads are joined.
    pub attention_out: bool,
    /// Every feed-forward matrix (and every expert's).
    pub feed_forward: bool,
}

/// A mixture-of-experts feed-forward: a router picks `experts_per_token` of `n_experts`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct MixtureOfExperts {
    /// E: feed-forward networks held in each block.
    pub n_experts: u64,
    /// k: how many of them run for one token.
    pub experts_per_token: u64,
    /// Whether the router (d -> E) has a bias.
    pub router_bias: bool,
}

/// A decoder-only transformer, enough to count every parameter and every FLOP exactly.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModelConfig {
    /// Preset key ("gpt2-small") or the checkpoint's name.
    pub name: String,
    /// What a reader calls it ("GPT-2 small").
    pub label: String,
    /// The family whose conventions it follows: tiny-gpt, gpt2, llama, mistral, mixtral, qwen2, gpt_neox.
    pub family: String,
    /// V: rows of the token table.
    pub vocab_size: u64,
    /// d: width of the residual stream.
    pub d_model: u64,
    /// L: number of blocks.
    pub n_layers: u64,
    /// h: query heads.
    pub n_heads: u64,
    /// Key/value heads; fewer than h is grouped-query attention (GQA).
    pub n_kv_heads: u64,
    /// Width of one head; d / h unless the family says otherwise.
    pub head_dim: u64,
    /// f: feed-forward hidden width (of one expert, for a mixture of experts).
    pub d_ff: u64,
    /// Longest sequence the model accepts (P, the learned table's rows, when positions are learned).
    pub context: u64,
    pub positions: PositionScheme,
    pub norm: NormKind,
    /// The norm's epsilon (1e-5 for GPT-2's LayerNorm).
    pub norm_eps: f64,
    pub feed_forward: FeedForwardKind,
    pub bias: Biases,
    /// The output head reuses the token table (no parameters of its own).
    pub tied_output: bool,
    /// A mixture of experts in place of the dense feed-forward.
    pub moe: Option<MixtureOfExperts>,
}

impl ModelConfig {
    /// d_q = h · d_head: the width of all query heads side by side (d for every preset). On a
    /// config that [`ModelConfig::validate`] accepted (it checks that this and d_kv fit in 64 bits).
    pub fn q_width(&self) -> u64 {
        self.n_heads * self.head_dim
    }

    /// d_kv = n_kv · d_head: the width of K (and of V); narrower than d_q with grouped key/value heads.
    pub fn kv_width(&self) -> u64 {
        self.n_kv_heads * self.head_dim
    }

    /// Whether positions come from a learned table with parameters.
    pub fn has_position_table(&self) -> bool {
        self.positions == PositionScheme::Learned
    }

    /// Check that every size is positive and the head counts fit together. Every way of making a
    /// `ModelConfig` from outside the crate goes through this.
    pub fn validate(&self) -> Result<()> {
        let positive = [
            ("vocab_size", self.vocab_size),
            ("d_model", self.d_model),
            ("n_layers", self.n_layers),
            ("n_heads", self.n_heads),
            ("n_kv_heads", self.n_kv_heads),
            ("head_dim", self.head_dim),
            ("d_ff", self.d_ff),
            ("context", self.context),
        ];
        for (field, value) in positive {
            if value == 0 {
                return Err(Error::field(field, Phrase::of(messages::POSITIVE_INTEGER_GOT).text("got", "0")));
            }
        }
        if !self.n_heads.is_multiple_of(self.n_kv_heads) {
            return Err(Error::field(
                "n_kv_heads",
                Phrase::of(messages::KV_HEADS_SERVE)
                    .text("kv", self.n_kv_heads.to_string())
                    .text("heads", self.n_heads.to_string()),
            ));
        }
        // d_q = h · d_head and d_kv = n_kv · d_head, and q, k and v side by side (d_q + 2 · d_kv), are
        // widths every count multiplies by: they must be 64-bit numbers themselves.
        let q_and_kv = self.n_heads.checked_mul(self.head_dim).and_then(|q| {
            self.n_kv_heads.checked_mul(self.head_dim).and_then(|kv| kv.checked_mul(2)).and_then(|kv| q.checked_add(kv))
        });
        if q_and_kv.is_none() {
            return Err(Error::overflow("the width of q, k and v side by side (h · d_head + 2 · n_kv · d_head)"));
        }
        if let Some(moe) = &self.moe {
            if moe.n_experts == 0 {
                return Err(Error::field("n_experts", Phrase::of(messages::POSITIVE_INTEGER_GOT).text("got", "0")));
            }
            if moe.experts_per_token == 0 || moe.experts_per_token > moe.n_experts {
                return Err(Error::field(
                    "experts_per_token",
                    Phrase::of(messages::EXPERTS_PER_TOKEN)
                        .text("experts", moe.n_experts.to_string())
                        .text("got", moe.experts_per_token.to_string()),
                ));
            }
        }
        if !(self.norm_eps.is_finite() && self.norm_eps > 0.0) {
            let got = clip(&crate::numbers::short_digits(&self.norm_eps.to_string()));
            return Err(Error::field("norm_eps", Phrase::of(messages::SMALL_POSITIVE_GOT).text("got", got)));
        }
        Ok(())
    }

    /// A preset key, or else the text of a Hugging Face `config.json`.
    pub fn from_preset_or_json(spec: &str) -> Result<ModelConfig> {
        if spec.trim_start().starts_with('{') {
            Self::from_hf_config_json(spec)
        } else {
            Self::preset(spec.trim())
        }
    }
}
