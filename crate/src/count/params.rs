//! Every parameter of a model: the tensors summed by part, by group and for the whole model, with
//! Kaplan et al.'s shortcut 12·L·d² against the exact count.

use serde::Serialize;

use super::parts::{Group, GroupCount, Part, PartCount, Tensor};
use super::tensors::tensors;
use crate::config::ModelConfig;
use crate::error::{Error, Result};
use crate::formula::{Poly, Sym};

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
