//! What a real decoder checkpoint is, for the forward pass ([`super::decoder`]): its sizes from the
//! analytic model's [`ModelConfig`] (the one importer of config.json), the conventions each family
//! fixes in its modelling code, and the names its tensors have in a Hugging Face checkpoint.
//!
//! - GPT-2: LayerNorm, learned positions, GELU (tanh form), Conv1D weights stored [in, out] with
//!   q, k and v fused in `c_attn`, every projection with a bias, the head tied to the token table.
//! - Llama and Mistral: RMSNorm, rotary positions, SwiGLU, grouped-query attention, an untied head
//!   (`lm_head`); Mistral may limit attention to a sliding window.
//! - Qwen2: as Llama, with biases on q, k and v, the head tied where the config says so.

use serde_json::{Map, Value};

use super::rotary::Rotary;
use crate::config::{FeedForwardKind, ModelConfig, NormKind, PositionScheme};
use crate::error::{Error, Result};

/// The families the forward pass runs.
pub const RUNNABLE_FAMILIES: [&str; 4] = ["gpt2", "llama", "mistral", "qwen2"];

/// The two layouts the runnable families come in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// GPT-2's: LayerNorm, learned positions, GELU MLP, fused Conv1D attention.
    Gpt2,
    /// Llama's (Mistral and Qwen2 too): RMSNorm, rotary, SwiGLU, separate q/k/v/o projections.
    Llama,
}

/// Everything the forward pass needs to know about a checkpoint.
#[derive(Debug, Clone, PartialEq)]
pub struct DecoderShape {
    pub layout: Layout,
    /// The config's name for the model (or its family).
    pub name: String,
    pub family: String,
    /// V, d, L, h, n_kv, d_head, f, and the longest sequence the model accepts.
    pub vocab_size: usize,
    pub d_model: usize,
    pub n_layers: usize,
    pub n_heads: usize,
    pub n_kv_heads: usize,
    pub head_dim: usize,
    pub d_ff: usize,
    pub context: usize,
    pub eps: f32,
    /// Rotary positions (None: GPT-2's learned table).
    pub rotary: Option<Rotary>,
    /// Biases on q, k, v; on the attention output; on the feed-forward matrices.
    pub qkv_bias: bool,
    pub out_bias: bool,
    pub mlp_bias: bool,
    /// The head reuses the token table.
    pub tied: bool,
    /// Mistral's sliding window of keys, when the config sets one.
    pub window: Option<usize>,
}

fn size(what: &str, n: u64) -> Result<usize> {
    usize::try_from(n).map_err(|_| Error::out_of_range(what, n, "it must fit this machine's memory"))
}

fn refuse(family: &str, why: &str) -> Error {
    Error::field("model_type", format!("\"{family}\" {why}: the experiments run {}", RUNNABLE_FAMILIES.join(", ")))
}

impl DecoderShape {
    /// The shape of the checkpoint whose config.json is `json`, imported as `config`.
    pub fn from_config(config: &ModelConfig, json: &Map<String, Value>) -> Result<DecoderShape> {
        let family = config.family.as_str();
        if config.moe.is_some() {
            return Err(refuse(family, "is a mixture of experts, counted by this crate but not run"));
        }
        let layout = match (family, config.norm, config.positions, config.feed_forward) {
            ("gpt2", NormKind::LayerNorm, PositionScheme::Learned, FeedForwardKind::Gelu) => Layout::Gpt2,
            ("llama" | "mistral" | "qwen2", NormKind::RmsNorm, PositionScheme::Rotary, FeedForwardKind::SwiGlu) => {
                Layout::Llama
            }
            _ => return Err(refuse(family, "is counted by this crate but not run")),
        };
        let text = |key: &str| json.get(key).and_then(Value::as_str);
        match layout {
            Layout::Gpt2 => {
                let act = text("activation_function").unwrap_or("gelu_new");
                if !matches!(act, "gelu_new" | "gelu_pytorch_tanh") {
                    return Err(Error::field(
                        "activation_function",
                        format!(
                            "\"{}\" is not run here: GPT-2's is gelu_new (or gelu_pytorch_tanh, the same)",
                            crate::error::clip(act)
                        ),
                    ));
                }
                for flag in ["scale_attn_by_inverse_layer_idx", "reorder_and_upcast_attn"] {
                    if json.get(flag).and_then(Value::as_bool) == Some(true) {
                        return Err(Error::field(flag, "is true: only GPT-2's plain attention (false) is run"));
                    }
                }
            }
            Layout::Llama => {
                let act = text("hidden_act").unwrap_or("silu");
                if act != "silu" {
                    return Err(Error::field(
                        "hidden_act",
                        format!("\"{}\" is not run here: SwiGLU's gate uses silu", crate::error::clip(act)),
                    ));
                }
            }
        }
        let window = match (family, json.get("sliding_window")) {
            ("mistral", Some(Value::Number(n))) => Some(
                n.as_u64()
                    .filter(|&w| w > 0)
                    .ok_or_else(|| {
                        Error::field("sliding_window", format!("is {n}: a whole number of at least 1, or null"))
                    })
                    .and_then(|w| size("sliding_window", w))?,
            ),
            _ => None,
        };
        if config.bias.feed_forward && layout == Layout::Llama {
            return Err(Error::field(
                "mlp_bias",
                "is true: a Llama with feed-forward biases is counted but not run (false is)",
            ));
        }
        if family == "qwen2" && json.get("use_sliding_window").and_then(Value::as_bool) == Some(true) {
            return Err(Error::field("use_sliding_window", "is true: Qwen2 is run with full attention only (false)"));
        }
        let head_dim = size("head_dim", config.head_dim)?;
        let rotary = match layout {
            Layout::Gpt2 => None,
            Layout::Llama => Some(Rotary::from_config(json, head_dim, 10_000.0)?),
        };
        Ok(DecoderShape {
            layout,
            name: config.name.clone(),
            family: family.to_string(),
            vocab_size: size("vocab_size", config.vocab_size)?,
            d_model: size("d_model", config.d_model)?,
            n_layers: size("n_layers", config.n_layers)?,
            n_heads: size("n_heads", config.n_heads)?,
            n_kv_heads: size("n_kv_heads", config.n_kv_heads)?,
            head_dim,
            d_ff: size("d_ff", config.d_ff)?,
            context: size("context", config.context)?,
            eps: config.norm_eps as f32,
            rotary,
            qkv_bias: config.bias.qkv,
            out_bias: config.bias.attention_out,
            mlp_bias: config.bias.feed_forward,
            tied: config.tied_output,
            window,
        })
    }

    /// h · d_head, the width of all query heads together.
    pub fn q_width(&self) -> usize {
        self.n_heads * self.head_dim
    }

    /// n_kv · d_head, the width of K and of V.
    pub fn kv_width(&self) -> usize {
        self.n_kv_heads * self.head_dim
    }

    /// The token table's name ("wte.weight" for GPT-2, after the checkpoint's prefix).
    pub fn token_table(&self) -> &'static str {
        match self.layout {
            Layout::Gpt2 => "wte.weight",
            Layout::Llama => "model.embed_tokens.weight",
        }
    }

    /// The head's weight [V, d]: the token table when tied.
    pub fn head(&self) -> &'static str {
        match (self.tied, self.layout) {
            (true, _) => self.token_table(),
            (false, Layout::Gpt2) => "lm_head.weight",
            (false, Layout::Llama) => "lm_head.weight",
        }
    }

    /// The final norm's gain, and its bias (LayerNorm only).
    pub fn final_norm(&self) -> (&'static str, Option<&'static str>) {
        match self.layout {
            Layout::Gpt2 => ("ln_f.weight", Some("ln_f.bias")),
            Layout::Llama => ("model.norm.weight", None),
        }
    }

    /// The name of tensor `part` of block `i` ("attn.c_attn.weight", "self_attn.q_proj.weight", ...).
    pub fn block_tensor(&self, i: usize, part: &str) -> String {
        match self.layout {
            Layout::Gpt2 => format!("h.{i}.{part}"),
            Layout::Llama => format!("model.layers.{i}.{part}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(text: &str) -> Result<DecoderShape> {
        let config = ModelConfig::from_hf_config_json(text)?;
        DecoderShape::from_config(&config, &serde_json::from_str(text).unwrap())
    }

    #[test]
    fn each_family_gets_its_conventions() {
        let qwen = shape(
            r#"{"model_type": "qwen2", "hidden_size": 64, "intermediate_size": 128, "num_hidden_layers": 2,
            "num_attention_heads": 4, "num_key_value_heads": 2, "vocab_size": 300, "max_position_embeddings": 128,
            "tie_word_embeddings": true, "rope_theta": 1000000.0}"#,
        )
        .unwrap();
        assert_eq!((qwen.layout, qwen.qkv_bias, qwen.out_bias, qwen.tied), (Layout::Llama, true, false, true));
        assert_eq!((qwen.head(), qwen.kv_width()), ("model.embed_tokens.weight", 32));
        assert_eq!(qwen.rotary.as_ref().unwrap().theta, 1e6);
        let mistral = shape(
            r#"{"model_type": "mistral", "hidden_size": 64, "intermediate_size": 128, "num_hidden_layers": 2,
            "num_attention_heads": 4, "num_key_value_heads": 1, "vocab_size": 300, "max_position_embeddings": 128,
            "sliding_window": 8}"#,
        )
        .unwrap();
        assert_eq!((mistral.window, mistral.head(), mistral.tied), (Some(8), "lm_head.weight", false));
        let gpt2 = shape(
            r#"{"model_type": "gpt2", "n_embd": 48, "n_layer": 3, "n_head": 4, "n_positions": 64, "vocab_size": 384}"#,
        )
        .unwrap();
        assert_eq!(
            (gpt2.layout, gpt2.d_ff, gpt2.head(), gpt2.rotary.is_none()),
            (Layout::Gpt2, 192, "wte.weight", true)
        );
        assert_eq!(gpt2.block_tensor(2, "attn.c_attn.weight"), "h.2.attn.c_attn.weight");
    }

    #[test]
    fn families_that_are_counted_but_not_run_are_named() {
        let mixtral = shape(
            r#"{"model_type": "mixtral", "hidden_size": 64, "intermediate_size": 128, "num_hidden_layers": 2,
            "num_attention_heads": 4, "vocab_size": 300, "max_position_embeddings": 128, "num_local_experts": 4,
            "num_experts_per_tok": 2}"#,
        );
        assert_eq!(
            mixtral.unwrap_err().to_string(),
            "model_type: \"mixtral\" is a mixture of experts, counted by this crate but not run: the experiments run gpt2, llama, mistral, qwen2"
        );
        let bert = shape(r#"{"model_type": "bert", "hidden_size": 64}"#).unwrap_err().to_string();
        assert!(bert.starts_with("model_type \"bert\" is not supported"), "{bert}");
        let relu = shape(
            r#"{"model_type": "llama", "hidden_size": 64, "intermediate_size": 128, "num_hidden_layers": 2,
            "num_attention_heads": 4, "vocab_size": 300, "max_position_embeddings": 128, "hidden_act": "relu"}"#,
        );
        assert_eq!(relu.unwrap_err().to_string(), "hidden_act: \"relu\" is not run here: SwiGLU's gate uses silu");
    }
}
