//! Saving: a [`TinyGpt`] as a safetensors file of GPT-2's tensor names, row-major, in a
//! [`StoredDtype`] (F32, F16, or I8 rows with a scale each), its config.json, norm placement and
//! attention biases in the metadata, the header's keys sorted so the same model gives the same bytes.

use std::collections::HashMap;

use safetensors::tensor::{Dtype, TensorView};

use super::{hf_config_json, norm_placement, StoredDtype, ATTENTION_BIAS_KEY, CONFIG_KEY, NORM_KEY, ROW_SCALE};
use crate::error::{Error, Result};
use crate::nn::gpt::TinyGpt;
use crate::nn::{Matrix, RowVector};

/// A tensor ready to write: its name, shape, dtype and bytes.
pub(super) type Stored = (String, Vec<usize>, Dtype, Vec<u8>);

fn floats_as(name: String, shape: Vec<usize>, values: &[f32], dtype: StoredDtype) -> Vec<Stored> {
    match dtype {
        StoredDtype::F32 => vec![(name, shape, Dtype::F32, values.iter().flat_map(|v| v.to_le_bytes()).collect())],
        StoredDtype::F16 => {
            vec![(name, shape, Dtype::F16, values.iter().flat_map(|&v| half::f16::from_f32(v).to_le_bytes()).collect())]
        }
        StoredDtype::IntRows { bits } if shape.len() == 2 => {
            let levels = ((1u32 << (bits.clamp(2, 8) - 1)) - 1) as f32;
            let cols = shape[1];
            let scales: Vec<f32> = values
                .chunks_exact(cols)
                .map(|row| row.iter().fold(0.0f32, |m, v| m.max(v.abs())) / levels)
                .map(|s| if s > 0.0 { s } else { 1.0 })
                .collect();
            let q: Vec<u8> = values
                .iter()
                .enumerate()
                .map(|(i, v)| (v / scales[i / cols]).round().clamp(-levels, levels) as i8 as u8)
                .collect();
            let scale_name = format!("{name}{ROW_SCALE}");
            let rows = vec![shape[0]];
            vec![
                (name, shape, Dtype::I8, q),
                (scale_name, rows, Dtype::F32, scales.iter().flat_map(|v| v.to_le_bytes()).collect()),
            ]
        }
        StoredDtype::IntRows { .. } => floats_as(name, shape, values, StoredDtype::F16),
    }
}

/// Every tensor of the model by its Hugging Face name, row-major, in `dtype`.
pub(super) fn named_tensors(m: &TinyGpt, dtype: StoredDtype) -> Vec<Stored> {
    let mut out = Vec::new();
    // nalgebra is column-major; safetensors is row-major.
    let mut matrix = |name: String, x: &Matrix| {
        out.extend(floats_as(name, vec![x.nrows(), x.ncols()], x.transpose().as_slice(), dtype));
    };
    matrix("wte.weight".into(), &m.wte);
    matrix("wpe.weight".into(), &m.wpe);
    for (i, b) in m.blocks.iter().enumerate() {
        matrix(format!("h.{i}.attn.c_attn.weight"), &b.attn.c_attn.weight);
        matrix(format!("h.{i}.attn.c_proj.weight"), &b.attn.c_proj.weight);
        matrix(format!("h.{i}.mlp.c_fc.weight"), &b.mlp.c_fc.weight);
        matrix(format!("h.{i}.mlp.c_proj.weight"), &b.mlp.c_proj.weight);
    }
    let mut row = |name: String, x: &RowVector| out.extend(floats_as(name, vec![x.len()], x.as_slice(), dtype));
    for (i, b) in m.blocks.iter().enumerate() {
        row(format!("h.{i}.ln_1.weight"), &b.ln_1.gain);
        row(format!("h.{i}.ln_1.bias"), &b.ln_1.bias);
        row(format!("h.{i}.ln_2.weight"), &b.ln_2.gain);
        row(format!("h.{i}.ln_2.bias"), &b.ln_2.bias);
        for (name, linear) in [
            ("attn.c_attn", &b.attn.c_attn),
            ("attn.c_proj", &b.attn.c_proj),
            ("mlp.c_fc", &b.mlp.c_fc),
            ("mlp.c_proj", &b.mlp.c_proj),
        ] {
            match &linear.bias {
                Some(bias) => row(format!("h.{i}.{name}.bias"), bias),
                // GPT-2's code has attention biases: zeros compute the same as none.
                None => row(format!("h.{i}.{name}.bias"), &RowVector::zeros(linear.outputs())),
            }
        }
    }
    row("ln_f.weight".into(), &m.ln_f.gain);
    row("ln_f.bias".into(), &m.ln_f.bias);
    out
}

/// The model as a safetensors file of f32 numbers, its config.json in the metadata.
pub fn save(m: &TinyGpt) -> Result<Vec<u8>> {
    save_as(m, StoredDtype::F32)
}

/// The model as a safetensors file in `dtype`, its config.json (and norm placement) in the metadata.
pub fn save_as(m: &TinyGpt, dtype: StoredDtype) -> Result<Vec<u8>> {
    let tensors = named_tensors(m, dtype);
    let views = tensors
        .iter()
        .map(|(name, shape, stored, data)| {
            TensorView::new(*stored, shape.clone(), data)
                .map(|v| (name.clone(), v))
                .map_err(|e| Error::weights(name, format!("could not be written: {e}")))
        })
        .collect::<Result<Vec<_>>>()?;
    let attention_bias = m.blocks.iter().any(|b| b.attn.c_attn.bias.is_some());
    let metadata = HashMap::from([
        (CONFIG_KEY.to_string(), hf_config_json(&m.config)),
        (NORM_KEY.to_string(), norm_placement(m).name().to_string()),
        (ATTENTION_BIAS_KEY.to_string(), attention_bias.to_string()),
        ("format".into(), "pt".into()),
    ]);
    let bytes = safetensors::serialize(views, Some(metadata))
        .map_err(|e| Error::parse("the weights file", format!("could not be written: {e}")))?;
    Ok(canonical_header(bytes))
}

/// The same file with its JSON header's keys in sorted order, so the same model always gives the
/// same bytes (the safetensors crate writes its metadata in a hash map's order, which varies from
/// run to run). The tensors' data does not move: their offsets count from the end of the header.
fn canonical_header(bytes: Vec<u8>) -> Vec<u8> {
    let n = u64::from_le_bytes(bytes[..8].try_into().expect("8 bytes")) as usize;
    let Ok(header) = serde_json::from_slice::<serde_json::Value>(&bytes[8..8 + n]) else { return bytes };
    // serde_json's objects are sorted maps: writing the value back sorts every key.
    let mut text = header.to_string().into_bytes();
    text.resize(text.len().next_multiple_of(8), b' ');
    let mut out = Vec::with_capacity(8 + text.len() + bytes.len() - 8 - n);
    out.extend_from_slice(&(text.len() as u64).to_le_bytes());
    out.extend_from_slice(&text);
    out.extend_from_slice(&bytes[8 + n..]);
    out
}
