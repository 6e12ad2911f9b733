//! The import of a Hugging Face `config.json` (as `save_pretrained` writes it) for the families
//! this crate models: GPT-2, the Llama layout (Llama, Mistral, Mixtral, Qwen2) and GPT-NeoX. Each
//! family's field names are read here, and the conventions its modelling code fixes rather than its
//! config (which projections have biases, whether the head is tied) are applied.

use serde_json::{Map, Value};

use super::{Biases, FeedForwardKind, MixtureOfExperts, ModelConfig, NormKind, PositionScheme};
use crate::error::{clip, Error, Result};
use crate::messages::{self, Phrase};

/// The families a Hugging Face `config.json` may declare as its `model_type`.
pub const SUPPORTED_FAMILIES: [&str; 6] = ["gpt2", "llama", "mistral", "mixtral", "qwen2", "gpt_neox"];

impl ModelConfig {
    /// Read a Hugging Face `config.json` (as `save_pretrained` writes it). Fields a family leaves at
    /// its class default may be absent; the conventions a family fixes in its modelling code rather
    /// than in its config (which projections have biases, whether the head is tied) are applied here.
    pub fn from_hf_config_json(text: &str) -> Result<ModelConfig> {
        let value: Value = serde_json::from_str(text).map_err(|e| Error::parse("config.json", e.to_string()))?;
        let obj = value.as_object().ok_or_else(|| Error::parse("config.json", "expected a JSON object { ... }"))?;
        let fields = Fields(obj);
        let model_type = fields.string("model_type")?;
        let config = match model_type.as_str() {
            "gpt2" => import_gpt2(&fields)?,
            "llama" | "mistral" | "mixtral" | "qwen2" => import_llama_like(&fields, &model_type)?,
            "gpt_neox" => import_gpt_neox(&fields)?,
            other => {
                return Err(Error::UnsupportedFamily {
                    model_type: other.to_string(),
                    allowed: SUPPORTED_FAMILIES.to_vec(),
                })
            }
        };
        config.validate()?;
        Ok(config)
    }
}

/// A field's value as a message quotes it: its JSON, cut to 40 characters (a value can be a page of
/// nested arrays).
fn echo(value: &Value) -> String {
    clip(&value.to_string())
}

/// Typed reads from a config object, each error naming the field.
struct Fields<'a>(&'a Map<String, Value>);

impl Fields<'_> {
    fn get(&self, key: &str) -> Option<&Value> {
        self.0.get(key).filter(|v| !v.is_null())
    }

    fn string(&self, key: &str) -> Result<String> {
        match self.get(key) {
            Some(Value::String(s)) => Ok(s.clone()),
            Some(other) => Err(Error::field(key, Phrase::of(messages::STRING_GOT).text("got", echo(other)))),
            None => Err(Error::field(
                key,
                Phrase::of(messages::FAMILY_MISSING).with(
                    "families",
                    messages::Value::List(SUPPORTED_FAMILIES.iter().map(|f| f.to_string()).collect()),
                ),
            )),
        }
    }

    /// A positive integer that must be present.
    fn count(&self, key: &str) -> Result<u64> {
        self.opt_count(key)?.ok_or_else(|| Error::field(key, "is missing: it must be a positive integer"))
    }

    /// The first of several names a family has used for the same field.
    fn count_any(&self, keys: &[&str]) -> Result<u64> {
        for key in keys {
            if let Some(v) = self.opt_count(key)? {
                return Ok(v);
            }
        }
        Err(Error::field(keys[0], "is missing: it must be a positive integer"))
    }

    /// A positive integer that may be absent (or null).
    fn opt_count(&self, key: &str) -> Result<Option<u64>> {
        match self.get(key) {
            None => Ok(None),
            Some(v) => match v.as_u64() {
                Some(0) => Err(Error::field(key, Phrase::of(messages::POSITIVE_INTEGER_GOT).text("got", "0"))),
                Some(n) => Ok(Some(n)),
                None => Err(Error::field(key, Phrase::of(messages::POSITIVE_INTEGER_GOT).text("got", echo(v)))),
            },
        }
    }

    fn flag(&self, key: &str, default: bool) -> Result<bool> {
        match self.get(key) {
            None => Ok(default),
            Some(Value::Bool(b)) => Ok(*b),
            Some(other) => Err(Error::field(key, Phrase::of(messages::BOOL_GOT).text("got", echo(other)))),
        }
    }

    fn number(&self, key: &str, default: f64) -> Result<f64> {
        match self.get(key) {
            None => Ok(default),
            Some(v) => v
                .as_f64()
                .filter(|x| x.is_finite() && *x > 0.0)
                .ok_or_else(|| Error::field(key, Phrase::of(messages::SMALL_POSITIVE_GOT).text("got", echo(v)))),
        }
    }

    /// The checkpoint's name if the config records one, else the family.
    fn name(&self, family: &str) -> String {
        match self.get("_name_or_path") {
            Some(Value::String(s)) if !s.trim().is_empty() => s.clone(),
            _ => family.to_string(),
        }
    }
}

/// d_head: the config's `head_dim` when it gives one (then h · d_head need not equal d, as in
/// Mistral NeMo); otherwise d / h, which must divide evenly.
fn head_dim(fields: &Fields, d_model: u64, n_heads: u64, d_field: &str, h_field: &str) -> Result<u64> {
    match fields.opt_count("head_dim")? {
        Some(hd) => Ok(hd),
        None => even_head_dim(d_model, n_heads, d_field, h_field),
    }
}

/// d / h, which must divide evenly; a width the heads do not divide is named in the heads' field
/// (`h_field`). GPT-NeoX has no `head_dim` field and calls this alone.
fn even_head_dim(d_model: u64, n_heads: u64, d_field: &str, h_field: &str) -> Result<u64> {
    if !d_model.is_multiple_of(n_heads) {
        return Err(Error::field(
            h_field,
            Phrase::of(messages::HEADS_DIVIDE)
                .text("heads", n_heads.to_string())
                .text("field", d_field)
                .text("width", d_model.to_string()),
        ));
    }
    Ok(d_model / n_heads)
}

fn kv_heads(fields: &Fields, n_heads: u64) -> Result<u64> {
    let kv = fields.opt_count("num_key_value_heads")?.unwrap_or(n_heads);
    if !n_heads.is_multiple_of(kv) {
        return Err(Error::field(
            "num_key_value_heads",
            Phrase::of(messages::KV_HEADS_DIVIDE).text("kv", kv.to_string()).text("heads", n_heads.to_string()),
        ));
    }
    Ok(kv)
}

/// GPT-2 (GPT2LMHeadModel): Conv1D projections all with biases, LayerNorm with bias, learned
/// positions, f = n_inner or 4d, output tied unless the config says otherwise.
fn import_gpt2(f: &Fields) -> Result<ModelConfig> {
    if f.flag("add_cross_attention", false)? {
        return Err(Error::field("add_cross_attention", messages::P_CROSS_ATTENTION));
    }
    let d_model = f.count("n_embd")?;
    let n_heads = f.count("n_head")?;
    let head_dim = head_dim(f, d_model, n_heads, "n_embd", "n_head")?;
    Ok(ModelConfig {
        name: f.name("gpt2"),
        label: f.name("gpt2"),
        family: "gpt2".into(),
        vocab_size: f.count("vocab_size")?,
        d_model,
        n_layers: f.count("n_layer")?,
        n_heads,
        n_kv_heads: n_heads,
        head_dim,
        d_ff: match f.opt_count("n_inner")? {
            Some(n) => n,
            None => d_model.checked_mul(4).ok_or_else(|| Error::overflow("the feed-forward width 4 · n_embd"))?,
        },
        context: f.count_any(&["n_positions", "n_ctx"])?,
        positions: PositionScheme::Learned,
        norm: NormKind::LayerNorm,
        norm_eps: f.number("layer_norm_epsilon", 1e-5)?,
        feed_forward: FeedForwardKind::Gelu,
        bias: Biases { qkv: true, attention_out: true, feed_forward: true },
        tied_output: f.flag("tie_word_embeddings", true)?,
        moe: None,
    })
}

/// Llama, Mistral, Mixtral and Qwen2 share one layout: RMSNorm, rotary positions, SwiGLU, GQA,
/// untied head by default. They differ in biases, fixed in each family's modelling code:
/// Llama reads `attention_bias` (q, k, v, o) and `mlp_bias`; Mistral and Mixtral have none;
/// Qwen2 always has q, k, v biases and none on o or the MLP. Mixtral's router has no bias.
fn import_llama_like(f: &Fields, family: &str) -> Result<ModelConfig> {
    let d_model = f.count("hidden_size")?;
    let n_heads = f.count("num_attention_heads")?;
    let head_dim = head_dim(f, d_model, n_heads, "hidden_size", "num_attention_heads")?;
    let n_kv_heads = kv_heads(f, n_heads)?;
    let bias = match family {
        "llama" => {
            let attention = f.flag("attention_bias", false)?;
            Biases { qkv: attention, attention_out: attention, feed_forward: f.flag("mlp_bias", false)? }
        }
        "qwen2" => Biases { qkv: true, attention_out: false, feed_forward: false },
        _ => Biases { qkv: false, attention_out: false, feed_forward: false },
    };
    let moe = if family == "mixtral" {
        let n_experts = f.count("num_local_experts")?;
        let k = f.count("num_experts_per_tok")?;
        if k > n_experts {
            return Err(Error::field(
                "num_experts_per_tok",
                Phrase::of(messages::K_PAST_EXPERTS).text("k", k.to_string()).text("experts", n_experts.to_string()),
            ));
        }
        Some(MixtureOfExperts { n_experts, experts_per_token: k, router_bias: false })
    } else {
        None
    };
    Ok(ModelConfig {
        name: f.name(family),
        label: f.name(family),
        family: family.into(),
        vocab_size: f.count("vocab_size")?,
        d_model,
        n_layers: f.count("num_hidden_layers")?,
        n_heads,
        n_kv_heads,
        head_dim,
        d_ff: f.count("intermediate_size")?,
        context: f.count("max_position_embeddings")?,
        positions: PositionScheme::Rotary,
        norm: NormKind::RmsNorm,
        norm_eps: f.number("rms_norm_eps", 1e-6)?,
        feed_forward: FeedForwardKind::SwiGlu,
        bias,
        tied_output: f.flag("tie_word_embeddings", false)?,
        moe,
    })
}

/// GPT-NeoX (Pythia): LayerNorm with bias, rotary positions, GELU MLP with biases, fused QKV and
/// dense output with biases unless `attention_bias` is false, a separate `embed_out` head.
fn import_gpt_neox(f: &Fields) -> Result<ModelConfig> {
    let d_model = f.count("hidden_size")?;
    let n_heads = f.count("num_attention_heads")?;
    let head_dim = even_head_dim(d_model, n_heads, "hidden_size", "num_attention_heads")?;
    let attention_bias = f.flag("attention_bias", true)?;
    Ok(ModelConfig {
        name: f.name("gpt_neox"),
        label: f.name("gpt_neox"),
        family: "gpt_neox".into(),
        vocab_size: f.count("vocab_size")?,
        d_model,
        n_layers: f.count("num_hidden_layers")?,
        n_heads,
        n_kv_heads: n_heads,
        head_dim,
        d_ff: f.count("intermediate_size")?,
        context: f.count("max_position_embeddings")?,
        positions: PositionScheme::Rotary,
        norm: NormKind::LayerNorm,
        norm_eps: f.number("layer_norm_eps", 1e-5)?,
        feed_forward: FeedForwardKind::Gelu,
        bias: Biases { qkv: attention_bias, attention_out: attention_bias, feed_forward: true },
        tied_output: f.flag("tie_word_embeddings", false)?,
        moe: None,
    })
}
