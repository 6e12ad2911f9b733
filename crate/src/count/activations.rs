//! Shapes of what flows through the model: every activation at batch B and sequence length T, from
//! the token ids [B, T] through the stream [B, T, d] and the scores [B, h, T, T] to the logits
//! [B, T, V], with the numbers each holds.

use serde::Serialize;

use super::tensors::Symbols;
use super::MAX_BATCH;
use crate::config::ModelConfig;
use crate::error::{Error, Result};
use crate::messages::{self, Phrase};

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
            Phrase::of(messages::ACCEPTS_TOKENS)
                .text("model", crate::error::clip(&config.label))
                .count("max", config.context),
        ));
    }
    if batch == 0 || batch > MAX_BATCH {
        let allowed = Phrase::of(messages::ALLOWED_RANGE).count("low", 1).count("high", MAX_BATCH);
        return Err(Error::out_of_range("batch", batch, allowed));
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
