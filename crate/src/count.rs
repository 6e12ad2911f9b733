//! Parameters by component, tensor shapes at a batch and sequence length, and memory. Every count
//! is an exact `u64` with checked arithmetic, computed from one formula per tensor
//! ([`crate::formula::Poly`]), the same formula the tables print.

use serde::Serialize;

use crate::config::{FeedForwardKind, ModelConfig, NormKind};
use crate::error::{Error, Result};
use crate::formula::{Poly, Sym, Values};
use crate::numbers::thousands;

/// The largest batch the shape and memory tables accept.
pub const MAX_BATCH: u64 = 65_536;

/// The groups of the breakdown bar.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Group {
    Embeddings,
    Attention,
    FeedForward,
    Router,
    Norms,
    OutputHead,
}

impl Group {
    pub const ALL: [Group; 6] =
        [Group::Embeddings, Group::Attention, Group::FeedForward, Group::Router, Group::Norms, Group::OutputHead];

    pub fn label(self) -> &'static str {
        match self {
            Group::Embeddings => "Embeddings",
            Group::Attention => "Attention",
            Group::FeedForward => "Feed-forward",
            Group::Router => "Router",
            Group::Norms => "Norms",
            Group::OutputHead => "Output head",
        }
    }
}

/// The parts of the anatomy diagram that hold weights.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Part {
    TokenTable,
    PositionTable,
    AttentionNorm,
    Attention,
    FeedForwardNorm,
    FeedForward,
    Router,
    FinalNorm,
    OutputHead,
}

impl Part {
    pub const ALL: [Part; 9] = [
        Part::TokenTable,
        Part::PositionTable,
        Part::AttentionNorm,
        Part::Attention,
        Part::FeedForwardNorm,
        Part::Router,
        Part::FeedForward,
        Part::FinalNorm,
        Part::OutputHead,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Part::TokenTable => "Token table",
            Part::PositionTable => "Position table",
            Part::AttentionNorm => "Norm before attention",
            Part::Attention => "Attention",
            Part::FeedForwardNorm => "Norm before the feed-forward",
            Part::FeedForward => "Feed-forward",
            Part::Router => "Router",
            Part::FinalNorm => "Final norm",
            Part::OutputHead => "Output head",
        }
    }

    pub fn group(self) -> Group {
        match self {
            Part::TokenTable | Part::PositionTable => Group::Embeddings,
            Part::AttentionNorm | Part::FeedForwardNorm | Part::FinalNorm => Group::Norms,
            Part::Attention => Group::Attention,
            Part::FeedForward => Group::FeedForward,
            Part::Router => Group::Router,
            Part::OutputHead => Group::OutputHead,
        }
    }

    /// Whether every block has its own copy.
    pub fn per_block(self) -> bool {
        matches!(self, Part::AttentionNorm | Part::Attention | Part::FeedForwardNorm | Part::FeedForward | Part::Router)
    }
}

/// One weight tensor of the model (for a mixture of experts, one expert's copy of it).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Tensor {
    /// As the lessons write it: "W_Q", "b_1", "gain γ".
    pub name: String,
    pub part: Part,
    pub group: Group,
    /// Rows x columns (input x output for a projection), or the length of a vector.
    pub shape: Vec<u64>,
    /// The same dimensions in symbols: ["d", "d_kv"].
    pub shape_symbols: Vec<String>,
    /// Parameters of one copy, in symbols: "d·d_kv".
    pub formula: String,
    /// Parameters of one copy.
    pub params_each: u64,
    /// Copies in one block (E for an expert's tensor) or in the model (1).
    pub copies: u64,
    /// Copies one token uses (k of E experts).
    pub active_copies: u64,
    /// Parameters across the whole model (all copies, all blocks).
    pub params: u64,
    /// Parameters one token uses.
    pub active: u64,
    /// Whether this tensor is the token table reused (tied output head: no parameters of its own).
    pub tied: bool,
    /// `formula` before printing, for summing into a part's formula.
    #[serde(skip)]
    pub poly: Poly,
}

/// A part of the diagram with its tensors summed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PartCount {
    pub part: Part,
    pub label: &'static str,
    pub group: Group,
    pub per_block: bool,
    /// In one block for a per-block part, else in the model: "4d² + 4d".
    pub formula: String,
    /// In one block for a per-block part, else in the model.
    pub params_each: u64,
    /// Across all blocks.
    pub params: u64,
    /// Across all blocks, as one token uses them.
    pub active: u64,
    /// In one block (or in the model), as one token uses them: k of E experts.
    pub active_each: u64,
    /// Fraction of the model's parameters.
    pub share: f64,
}

/// A group of the breakdown bar.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GroupCount {
    pub group: Group,
    pub label: &'static str,
    pub params: u64,
    pub active: u64,
    pub share: f64,
}

/// Kaplan et al.'s shortcut 12·L·d² for the parameters outside the embeddings, against the exact count.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Kaplan {
    /// 12·L·d².
    pub params: u64,
    /// (12·L·d² − exact non-embedding count) / exact non-embedding count.
    pub error_vs_non_embedding: f64,
    /// 12·L·d² + V·d: the shortcut plus the token table.
    pub plus_token_table: u64,
    /// How much of the true total that leaves out: (total − (12·L·d² + V·d)) / total.
    pub left_out_of_total: f64,
}

/// Every parameter of a model, by tensor, part and group.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ParamCount {
    /// All trainable parameters (a tied table once).
    pub total: u64,
    /// Total less the token table, the position table and an untied output head.
    pub non_embedding: u64,
    /// Parameters one token uses (less than the total only for a mixture of experts).
    pub active: u64,
    /// One block, every expert included.
    pub per_block: u64,
    /// One block as one token uses it.
    pub per_block_active: u64,
    /// All L blocks.
    pub all_blocks: u64,
    pub tensors: Vec<Tensor>,
    pub parts: Vec<PartCount>,
    pub groups: Vec<GroupCount>,
    pub kaplan: Kaplan,
}

/// The symbols' values for a model, and the symbol each width prints as: d_q, d_kv and f print as
/// d, d and 4d where they equal them, so GPT-2 reads 4d² + 4d as in the lessons.
struct Symbols {
    values: Values,
    d: Poly,
    q: Poly,
    kv: Poly,
    f: Poly,
}

impl Symbols {
    fn of(c: &ModelConfig) -> Symbols {
        let d = Poly::sym(Sym::D);
        let q = if c.q_width() == c.d_model { d.clone() } else { Poly::sym(Sym::Dq) };
        let kv = if c.kv_width() == c.d_model { d.clone() } else { Poly::sym(Sym::Dkv) };
        let f = if Some(c.d_ff) == c.d_model.checked_mul(4) { d.scale(4) } else { Poly::sym(Sym::F) };
        let values = Values {
            e: c.moe.map_or(1, |m| m.n_experts),
            v: c.vocab_size,
            p: c.context,
            d: c.d_model,
            d_q: c.q_width(),
            d_kv: c.kv_width(),
            f: c.d_ff,
        };
        Symbols { values, d, q, kv, f }
    }
}

/// Builds the tensor list, each tensor from its dimensions.
struct Builder<'a> {
    config: &'a ModelConfig,
    symbols: Symbols,
    tensors: Vec<Tensor>,
}

impl Builder<'_> {
    fn tensor(&mut self, name: &str, part: Part, dims: &[Poly], copies: u64, active_copies: u64) -> Result<()> {
        let overflow = || Error::overflow(format!("the parameter count of {name}"));
        let shape: Vec<u64> =
            dims.iter().map(|p| p.eval(&self.symbols.values).ok_or_else(overflow)).collect::<Result<_>>()?;
        let formula = Poly::product(dims);
        let params = formula.eval(&self.symbols.values).ok_or_else(overflow)?;
        let blocks = if part.per_block() { self.config.n_layers } else { 1 };
        let total = |n: u64| n.checked_mul(params).and_then(|x| x.checked_mul(blocks)).ok_or_else(overflow);
        self.tensors.push(Tensor {
            name: name.to_string(),
            part,
            group: part.group(),
            shape,
            shape_symbols: dims.iter().map(|p| p.to_string()).collect(),
            formula: formula.to_string(),
            params_each: params,
            copies,
            active_copies,
            params: total(copies)?,
            active: total(active_copies)?,
            tied: false,
            poly: formula,
        });
        Ok(())
    }

    fn one(&mut self, name: &str, part: Part, dims: &[Poly]) -> Result<()> {
        self.tensor(name, part, dims, 1, 1)
    }

    fn norm(&mut self, part: Part, which: &str) -> Result<()> {
        let d = self.symbols.d.clone();
        self.one(&format!("{which} gain γ"), part, std::slice::from_ref(&d))?;
        if self.config.norm == NormKind::LayerNorm {
            self.one(&format!("{which} bias β"), part, &[d])?;
        }
        Ok(())
    }

    /// The feed-forward's matrices (and biases), `copies` of them in a block, `active` used per token.
    fn feed_forward(&mut self, copies: u64, active: u64) -> Result<()> {
        let (d, f) = (self.symbols.d.clone(), self.symbols.f.clone());
        let bias = self.config.bias.feed_forward;
        let suffix = if self.config.moe.is_some() { " (each expert)" } else { "" };
        let add = |b: &mut Self, name: &str, dims: &[Poly]| {
            b.tensor(&format!("{name}{suffix}"), Part::FeedForward, dims, copies, active)
        };
        match self.config.feed_forward {
            FeedForwardKind::Gelu => {
                add(self, "W_1", &[d.clone(), f.clone()])?;
                if bias {
                    add(self, "b_1", std::slice::from_ref(&f))?;
                }
                add(self, "W_2", &[f.clone(), d.clone()])?;
                if bias {
                    add(self, "b_2", std::slice::from_ref(&d))?;
                }
            }
            FeedForwardKind::SwiGlu => {
                for name in ["W_gate", "W_up"] {
                    add(self, name, &[d.clone(), f.clone()])?;
                    if bias {
                        add(self, &name.replace("W_", "b_"), std::slice::from_ref(&f))?;
                    }
                }
                add(self, "W_down", &[f.clone(), d.clone()])?;
                if bias {
                    add(self, "b_down", std::slice::from_ref(&d))?;
                }
            }
        }
        Ok(())
    }

    fn build(mut self) -> Result<Vec<Tensor>> {
        let c = self.config;
        let Symbols { d, q, kv, .. } = Symbols::of(c);
        let v = Poly::sym(Sym::V);

        self.one("token table", Part::TokenTable, &[v.clone(), d.clone()])?;
        if c.has_position_table() {
            self.one("position table", Part::PositionTable, &[Poly::sym(Sym::P), d.clone()])?;
        }

        // One block.
        self.norm(Part::AttentionNorm, "attention norm")?;
        for (name, width) in [("Q", &q), ("K", &kv), ("V", &kv)] {
            self.one(&format!("W_{name}"), Part::Attention, &[d.clone(), width.clone()])?;
            if c.bias.qkv {
                self.one(&format!("b_{name}"), Part::Attention, std::slice::from_ref(width))?;
            }
        }
        self.one("W_O", Part::Attention, &[q.clone(), d.clone()])?;
        if c.bias.attention_out {
            self.one("b_O", Part::Attention, std::slice::from_ref(&d))?;
        }
        self.norm(Part::FeedForwardNorm, "feed-forward norm")?;
        match c.moe {
            None => self.feed_forward(1, 1)?,
            Some(moe) => {
                let e = Poly::sym(Sym::E);
                self.one("W_router", Part::Router, &[d.clone(), e.clone()])?;
                if moe.router_bias {
                    self.one("b_router", Part::Router, &[e])?;
                }
                self.feed_forward(moe.n_experts, moe.experts_per_token)?;
            }
        }

        self.norm(Part::FinalNorm, "final norm")?;
        self.one("W_out", Part::OutputHead, &[d.clone(), v])?;
        if c.tied_output {
            let head = self.tensors.last_mut().expect("just pushed");
            head.tied = true;
            head.formula = "0 (tied: the token table, transposed)".into();
            head.params_each = 0;
            head.params = 0;
            head.active = 0;
            head.poly = Poly::zero();
        }
        Ok(self.tensors)
    }
}

/// Every weight tensor of the model, in the order data meets them.
pub fn tensors(config: &ModelConfig) -> Result<Vec<Tensor>> {
    Builder { config, symbols: Symbols::of(config), tensors: Vec::new() }.build()
}

fn checked_sum<'a>(values: impl IntoIterator<Item = &'a u64>, what: &str) -> Result<u64> {
    values.into_iter().try_fold(0u64, |acc, v| acc.checked_add(*v)).ok_or_else(|| Error::overflow(what.to_string()))
}

fn share(part: u64, total: u64) -> f64 {
    if total == 0 {
        0.0
    } else {
        part as f64 / total as f64
    }
}

/// Count every parameter of a model.
pub fn count_params(config: &ModelConfig) -> Result<ParamCount> {
    config.validate()?;
    let tensors = tensors(config)?;
    let sum_where = |keep: &dyn Fn(&Tensor) -> bool, active: bool, what: &str| {
        checked_sum(tensors.iter().filter(|t| keep(t)).map(|t| if active { &t.active } else { &t.params }), what)
    };
    let total = sum_where(&|_| true, false, "the total parameter count")?;
    let active = sum_where(&|_| true, true, "the active parameter count")?;
    let embedding_like = sum_where(
        &|t| matches!(t.part, Part::TokenTable | Part::PositionTable | Part::OutputHead),
        false,
        "the embedding count",
    )?;
    let all_blocks = sum_where(&|t| t.part.per_block(), false, "the block count")?;
    let all_blocks_active = sum_where(&|t| t.part.per_block(), true, "the block count")?;
    let per_block = all_blocks / config.n_layers;
    let per_block_active = all_blocks_active / config.n_layers;

    let parts = Part::ALL
        .iter()
        .filter(|p| tensors.iter().any(|t| t.part == **p))
        .map(|&part| {
            let mine: Vec<&Tensor> = tensors.iter().filter(|t| t.part == part).collect();
            let params = checked_sum(mine.iter().map(|t| &t.params), part.label())?;
            let active = checked_sum(mine.iter().map(|t| &t.active), part.label())?;
            let blocks = if part.per_block() { config.n_layers } else { 1 };
            Ok(PartCount {
                part,
                label: part.label(),
                group: part.group(),
                per_block: part.per_block(),
                formula: part_formula(&mine, part == Part::OutputHead && config.tied_output),
                params_each: params / blocks,
                params,
                active,
                active_each: active / blocks,
                share: share(params, total),
            })
        })
        .collect::<Result<Vec<_>>>()?;

    let groups = Group::ALL
        .iter()
        .filter(|g| tensors.iter().any(|t| t.group == **g && !t.tied))
        .map(|&group| {
            let params = sum_where(&|t| t.group == group, false, group.label())?;
            let active = sum_where(&|t| t.group == group, true, group.label())?;
            Ok(GroupCount { group, label: group.label(), params, active, share: share(params, total) })
        })
        .collect::<Result<Vec<_>>>()?;

    let d2 = config.d_model.checked_mul(config.d_model);
    let kaplan_params = d2
        .and_then(|x| x.checked_mul(12))
        .and_then(|x| x.checked_mul(config.n_layers))
        .ok_or_else(|| Error::overflow("12·L·d²"))?;
    let token_table = tensors.iter().find(|t| t.part == Part::TokenTable).map_or(0, |t| t.params);
    let plus_token_table = kaplan_params.checked_add(token_table).ok_or_else(|| Error::overflow("12·L·d² + V·d"))?;
    let non_embedding = total - embedding_like;
    let kaplan = Kaplan {
        params: kaplan_params,
        error_vs_non_embedding: (kaplan_params as f64 - non_embedding as f64) / non_embedding as f64,
        plus_token_table,
        left_out_of_total: (total as f64 - plus_token_table as f64) / total as f64,
    };

    Ok(ParamCount {
        total,
        non_embedding,
        active,
        per_block,
        per_block_active,
        all_blocks,
        tensors,
        parts,
        groups,
        kaplan,
    })
}

/// A part's formula: one block's (E copies of each expert tensor) or the model's.
fn part_formula(mine: &[&Tensor], tied: bool) -> String {
    if tied {
        return "0 (tied to the token table)".into();
    }
    let e = Poly::sym(Sym::E);
    let polys: Vec<Poly> = mine.iter().map(|t| if t.copies > 1 { t.poly.mul(&e) } else { t.poly.clone() }).collect();
    Poly::sum(polys.iter()).to_string()
}

// ---------------------------------------------------------------------------------------------
// Shapes of what flows through the model

/// An activation: a tensor computed from the input, which holds no parameters.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Activation {
    pub key: &'static str,
    pub name: &'static str,
    /// The diagram part it belongs to ("stream" for the residual stream itself).
    pub part: &'static str,
    pub shape: Vec<u64>,
    pub shape_symbols: Vec<String>,
    /// Numbers it holds: the product of its shape.
    pub elements: u64,
}

/// Check a batch size and a sequence length against what the model accepts.
pub fn check_batch_and_seq_len(config: &ModelConfig, batch: u64, seq_len: u64) -> Result<()> {
    if seq_len == 0 || seq_len > config.context {
        return Err(Error::out_of_range(
            "seq_len",
            seq_len,
            format!("{} accepts 1 to {} tokens", crate::error::clip(&config.label), thousands(config.context)),
        ));
    }
    if batch == 0 || batch > MAX_BATCH {
        return Err(Error::out_of_range("batch", batch, format!("allowed is 1 to {}", thousands(MAX_BATCH))));
    }
    Ok(())
}

/// The shape of every activation at batch B and sequence length T, in the order data meets them.
pub fn activations(config: &ModelConfig, batch: u64, seq_len: u64) -> Result<Vec<Activation>> {
    config.validate()?;
    check_batch_and_seq_len(config, batch, seq_len)?;
    let s = Symbols::of(config);
    let (b, t) = (("B".to_string(), batch), ("T".to_string(), seq_len));
    let d = (s.d.to_string(), config.d_model);
    let q = (s.q.to_string(), config.q_width());
    let kv = (s.kv.to_string(), config.kv_width());
    let f = (s.f.to_string(), config.d_ff);
    let qkv = (s.q.add(&s.kv.scale(2)).to_string(), config.q_width() + 2 * config.kv_width());
    let h = ("h".to_string(), config.n_heads);
    let n_kv = (if config.n_kv_heads == config.n_heads { "h" } else { "n_kv" }.to_string(), config.n_kv_heads);
    let hd = ("d_head".to_string(), config.head_dim);
    let v = ("V".to_string(), config.vocab_size);

    let mut out = Vec::new();
    let mut add = |key, name, part, dims: Vec<(String, u64)>| -> Result<()> {
        let elements = dims
            .iter()
            .try_fold(1u64, |acc, (_, n)| acc.checked_mul(*n))
            .ok_or_else(|| Error::overflow(format!("the size of {name}")))?;
        out.push(Activation {
            key,
            name,
            part,
            shape: dims.iter().map(|(_, n)| *n).collect(),
            shape_symbols: dims.into_iter().map(|(s, _)| s).collect(),
            elements,
        });
        Ok(())
    };
    add("token_ids", "token ids", "token_table", vec![b.clone(), t.clone()])?;
    add("token_vectors", "token vectors", "token_table", vec![b.clone(), t.clone(), d.clone()])?;
    if config.has_position_table() {
        add("position_vectors", "position vectors", "position_table", vec![t.clone(), d.clone()])?;
    }
    add("stream", "residual stream", "stream", vec![b.clone(), t.clone(), d.clone()])?;
    add("attention_norm_out", "normalised copy", "attention_norm", vec![b.clone(), t.clone(), d.clone()])?;
    add("qkv", "q, k, v side by side", "attention", vec![b.clone(), t.clone(), qkv])?;
    add("q", "queries", "attention", vec![b.clone(), t.clone(), q.clone()])?;
    add("k", "keys", "attention", vec![b.clone(), t.clone(), kv.clone()])?;
    add("v", "values", "attention", vec![b.clone(), t.clone(), kv])?;
    add("q_heads", "queries per head", "attention", vec![b.clone(), h.clone(), t.clone(), hd.clone()])?;
    add("k_heads", "keys per head", "attention", vec![b.clone(), n_kv.clone(), t.clone(), hd.clone()])?;
    add("v_heads", "values per head", "attention", vec![b.clone(), n_kv, t.clone(), hd])?;
    add("scores", "scores", "scores", vec![b.clone(), h.clone(), t.clone(), t.clone()])?;
    add(
        "attention_weights",
        "attention weights (softmax of the scores)",
        "scores",
        vec![b.clone(), h, t.clone(), t.clone()],
    )?;
    add("heads_joined", "heads joined", "attention", vec![b.clone(), t.clone(), q])?;
    add("attention_out", "attention output", "attention", vec![b.clone(), t.clone(), d.clone()])?;
    add("feed_forward_norm_out", "normalised copy", "feed_forward_norm", vec![b.clone(), t.clone(), d.clone()])?;
    if let Some(moe) = config.moe {
        add("router_scores", "router scores", "router", vec![b.clone(), t.clone(), ("E".into(), moe.n_experts)])?;
        add(
            "feed_forward_hidden",
            "hidden layer of each chosen expert",
            "feed_forward",
            vec![b.clone(), t.clone(), ("k".into(), moe.experts_per_token), f],
        )?;
    } else {
        add("feed_forward_hidden", "hidden layer", "feed_forward", vec![b.clone(), t.clone(), f])?;
    }
    add("feed_forward_out", "feed-forward output", "feed_forward", vec![b.clone(), t.clone(), d.clone()])?;
    add("final_norm_out", "final normalised stream", "final_norm", vec![b.clone(), t.clone(), d])?;
    add("logits", "logits", "output_head", vec![b, t, v])?;
    Ok(out)
}

// ---------------------------------------------------------------------------------------------
// Memory

/// The number formats weights and caches are stored in.
pub const DTYPES: [(&str, u64); 4] = [("fp32", 32), ("bf16/fp16", 16), ("int8", 8), ("int4", 4)];

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Bytes {
    pub dtype: &'static str,
    pub bits: u64,
    pub bytes: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Memory {
    /// Holding every parameter.
    pub weights: Vec<Bytes>,
    /// K and V for one token in every block: 2 · L · n_kv · d_head numbers (key/value heads, not h).
    pub kv_cache_per_token: Vec<Bytes>,
    pub batch: u64,
    pub seq_len: u64,
    /// The cache for `batch` sequences of `seq_len` tokens.
    pub kv_cache: Vec<Bytes>,
}

fn in_each_dtype(numbers: u64, what: &str) -> Result<Vec<Bytes>> {
    DTYPES
        .iter()
        .map(|&(dtype, bits)| {
            let bit_count = numbers.checked_mul(bits).ok_or_else(|| Error::overflow(what.to_string()))?;
            Ok(Bytes { dtype, bits, bytes: bit_count.div_ceil(8) })
        })
        .collect()
}

/// Memory for the weights in each format, and for the key/value cache.
pub fn memory(config: &ModelConfig, batch: u64, seq_len: u64) -> Result<Memory> {
    memory_of(config, count_params(config)?.total, batch, seq_len)
}

/// As [`memory`], for a model of `total` parameters already counted.
pub fn memory_of(config: &ModelConfig, total: u64, batch: u64, seq_len: u64) -> Result<Memory> {
    check_batch_and_seq_len(config, batch, seq_len)?;
    let per_token = config
        .kv_width()
        .checked_mul(2)
        .and_then(|x| x.checked_mul(config.n_layers))
        .ok_or_else(|| Error::overflow("the key/value cache"))?;
    let cached = per_token
        .checked_mul(batch)
        .and_then(|x| x.checked_mul(seq_len))
        .ok_or_else(|| Error::overflow("the key/value cache"))?;
    Ok(Memory {
        weights: in_each_dtype(total, "the weight memory")?,
        kv_cache_per_token: in_each_dtype(per_token, "the key/value cache")?,
        batch,
        seq_len,
        kv_cache: in_each_dtype(cached, "the key/value cache")?,
    })
}
