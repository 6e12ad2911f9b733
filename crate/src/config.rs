//! What a decoder-only transformer is made of: [`ModelConfig`], the named presets the lessons use,
//! and the import of a Hugging Face `config.json` for the families this crate models.
//!
//! Symbols, as in the lessons: V vocabulary, d width (`d_model`), L blocks, h query heads, d_head the
//! width of one head, f the feed-forward width, P the positions a learned table holds, E experts.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::error::{clip, Error, Result};

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

/// The families a Hugging Face `config.json` may declare as its `model_type`.
pub const SUPPORTED_FAMILIES: [&str; 6] = ["gpt2", "llama", "mistral", "mixtral", "qwen2", "gpt_neox"];

/// The presets, by key, in the order a model switcher lists them.
pub const PRESET_NAMES: [&str; 8] =
    ["tiny-gpt", "gpt2-small", "gpt2-medium", "gpt2-large", "gpt2-xl", "llama3-8b", "llama3-70b", "mixtral-8x7b"];

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
                return Err(Error::field(field, "must be a positive integer, got 0"));
            }
        }
        if self.n_heads % self.n_kv_heads != 0 {
            return Err(Error::field(
                "n_kv_heads",
                format!(
                    "{} key/value heads do not divide {} query heads: each key/value head must serve the same number of query heads",
                    self.n_kv_heads, self.n_heads
                ),
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
                return Err(Error::field("n_experts", "must be a positive integer, got 0"));
            }
            if moe.experts_per_token == 0 || moe.experts_per_token > moe.n_experts {
                return Err(Error::field(
                    "experts_per_token",
                    format!("must be between 1 and the {} experts, got {}", moe.n_experts, moe.experts_per_token),
                ));
            }
        }
        if !(self.norm_eps.is_finite() && self.norm_eps > 0.0) {
            let got = clip(&crate::numbers::short_digits(&self.norm_eps.to_string()));
            return Err(Error::field("norm_eps", format!("must be a small positive number, got {got}")));
        }
        Ok(())
    }

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

    /// A preset key, or else the text of a Hugging Face `config.json`.
    pub fn from_preset_or_json(spec: &str) -> Result<ModelConfig> {
        if spec.trim_start().starts_with('{') {
            Self::from_hf_config_json(spec)
        } else {
            Self::preset(spec.trim())
        }
    }

    /// Read a Hugging Face `config.json` (as `save_pretrained` writes it). Fields a family leaves at
    /// its class default may be absent; the conventions a family fixes in its modelling code rather
    /// than in its config (which projections have biases, whether the head is tied) are applied here.
    pub fn from_hf_config_json(text: &str) -> Result<ModelConfig> {
        let value: Value = serde_json::from_str(text)
            .map_err(|e| Error::Parse { what: "config.json".into(), problem: e.to_string() })?;
        let obj = value.as_object().ok_or_else(|| Error::Parse {
            what: "config.json".into(),
            problem: "expected a JSON object { ... }".into(),
        })?;
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

// ---------------------------------------------------------------------------------------------
// Presets

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

// ---------------------------------------------------------------------------------------------
// Hugging Face config.json import

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
            Some(other) => Err(Error::field(key, format!("must be a string, got {}", echo(other)))),
            None => Err(Error::field(
                key,
                format!("is missing: a config.json names its family here, one of {}", SUPPORTED_FAMILIES.join(", ")),
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
                Some(0) => Err(Error::field(key, "must be a positive integer, got 0")),
                Some(n) => Ok(Some(n)),
                None => Err(Error::field(key, format!("must be a positive integer, got {}", echo(v)))),
            },
        }
    }

    fn flag(&self, key: &str, default: bool) -> Result<bool> {
        match self.get(key) {
            None => Ok(default),
            Some(Value::Bool(b)) => Ok(*b),
            Some(other) => Err(Error::field(key, format!("must be true or false, got {}", echo(other)))),
        }
    }

    fn number(&self, key: &str, default: f64) -> Result<f64> {
        match self.get(key) {
            None => Ok(default),
            Some(v) => v
                .as_f64()
                .filter(|x| x.is_finite() && *x > 0.0)
                .ok_or_else(|| Error::field(key, format!("must be a small positive number, got {}", echo(v)))),
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
    if let Some(hd) = fields.opt_count("head_dim")? {
        return Ok(hd);
    }
    if d_model % n_heads != 0 {
        return Err(Error::field(
            h_field,
            format!(
                "{n_heads} heads do not divide {d_field} = {d_model}: the width must split evenly across the heads"
            ),
        ));
    }
    Ok(d_model / n_heads)
}

fn kv_heads(fields: &Fields, n_heads: u64) -> Result<u64> {
    let kv = fields.opt_count("num_key_value_heads")?.unwrap_or(n_heads);
    if n_heads % kv != 0 {
        return Err(Error::field(
            "num_key_value_heads",
            format!("{kv} key/value heads do not divide num_attention_heads = {n_heads}: allowed are the divisors of {n_heads}"),
        ));
    }
    Ok(kv)
}

/// GPT-2 (GPT2LMHeadModel): Conv1D projections all with biases, LayerNorm with bias, learned
/// positions, f = n_inner or 4d, output tied unless the config says otherwise.
fn import_gpt2(f: &Fields) -> Result<ModelConfig> {
    if f.flag("add_cross_attention", false)? {
        return Err(Error::field(
            "add_cross_attention",
            "is true: cross-attention makes this an encoder-decoder model; only decoder-only GPT-2 (false) is supported",
        ));
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
                format!("{k} is more than num_local_experts = {n_experts}: allowed are 1 to {n_experts}"),
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
    if d_model % n_heads != 0 {
        return Err(Error::field(
            "num_attention_heads",
            format!(
                "{n_heads} heads do not divide hidden_size = {d_model}: the width must split evenly across the heads"
            ),
        ));
    }
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
        head_dim: d_model / n_heads,
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
