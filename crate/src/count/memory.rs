//! Memory: the bytes that hold the weights in each number format, and the key/value cache, per
//! token (2 · L · n_kv · d_head numbers) and for B sequences of T tokens.

use serde::Serialize;

use super::activations::check_batch_and_seq_len;
use super::params::count_params;
use crate::config::ModelConfig;
use crate::error::{Error, Result};

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
