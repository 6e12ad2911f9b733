//! Everything the analytic model says about one model at one batch and sequence length, as one
//! serialisable value: what `tblock count` prints and what the page's facade returns.

use serde::Serialize;

use crate::config::ModelConfig;
use crate::cost::{attention_share_of, forward_flops, training_flops, AttentionShare, ForwardFlops};
use crate::count::{activations, count_params, memory_of, Activation, GroupCount, Kaplan, Memory, PartCount, Tensor};
use crate::error::Result;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// The model's name: a preset key or the checkpoint's name.
    pub model: String,
    pub config: ModelConfig,
    pub seq_len: u64,
    pub batch: u64,
    pub total_params: u64,
    pub non_embedding_params: u64,
    pub active_params: u64,
    pub per_block_params: u64,
    pub all_blocks_params: u64,
    /// Every weight tensor: `{name, params, ...}`, `params` across the whole model.
    pub components: Vec<Tensor>,
    /// The diagram's parts, with their formulas.
    pub parts: Vec<PartCount>,
    /// The breakdown bar.
    pub groups: Vec<GroupCount>,
    pub kaplan: Kaplan,
    /// What flows through the model at this batch and sequence length.
    pub activations: Vec<Activation>,
    pub memory: Memory,
    pub forward_flops_per_token: f64,
    pub training_flops_per_token: f64,
    pub forward_flops: ForwardFlops,
    pub attention_share: AttentionShare,
}

impl Report {
    pub fn new(model: &ModelConfig, seq_len: u64, batch: u64) -> Result<Report> {
        // Count once; every figure below is derived from this one count.
        let count = count_params(model)?;
        let forward_flops = forward_flops(model, &count, seq_len)?;
        let training_flops_per_token = training_flops(&forward_flops);
        let attention_share = attention_share_of(model, &count, seq_len)?;
        let memory = memory_of(model, count.total, batch, seq_len)?;
        Ok(Report {
            model: model.name.clone(),
            config: model.clone(),
            seq_len,
            batch,
            total_params: count.total,
            non_embedding_params: count.non_embedding,
            active_params: count.active,
            per_block_params: count.per_block,
            all_blocks_params: count.all_blocks,
            components: count.tensors,
            parts: count.parts,
            groups: count.groups,
            kaplan: count.kaplan,
            activations: activations(model, batch, seq_len)?,
            memory,
            forward_flops_per_token: forward_flops.total,
            training_flops_per_token,
            forward_flops,
            attention_share,
        })
    }
}
