//! Loading: a safetensors file of GPT-2's tensor names (with or without the `transformer.` prefix)
//! read into a [`TinyGpt`]. The tensors give V, d, P, L and f (wte [V, d], wpe [P, d], the h.{i}
//! blocks, c_fc [d, f]) and whether attention has biases; the head count and the norm's epsilon come
//! from a config, the caller's or the one in the file's metadata. Every tensor is checked for its
//! shape, its dtype (F32, F16, or I8 rows with their scales) and finite values, and every error
//! names the tensor.

use std::collections::HashMap;

use safetensors::tensor::{Dtype, SafeTensors, TensorView};

use super::{ATTENTION_BIAS_KEY, CONFIG_KEY, NORM_KEY, ROW_SCALE};
use crate::config::ModelConfig;
use crate::error::{Error, Result};
use crate::nn::attention::MultiHeadAttention;
use crate::nn::block::{NormPlacement, Switches, TransformerBlock};
use crate::nn::feed_forward::FeedForward;
use crate::nn::gpt::TinyGpt;
use crate::nn::linear::Linear;
use crate::nn::norm::LayerNorm;
use crate::nn::{Matrix, RowVector};

/// The config recorded in a safetensors file's metadata, if it has one.
pub fn config_from_metadata(bytes: &[u8]) -> Result<Option<ModelConfig>> {
    let (_, metadata) = SafeTensors::read_metadata(bytes).map_err(|e| not_safetensors(&e))?;
    match metadata.metadata().as_ref().and_then(|m| m.get(CONFIG_KEY)) {
        Some(json) => ModelConfig::from_hf_config_json(json).map(Some),
        None => Ok(None),
    }
}

fn not_safetensors(e: &safetensors::SafeTensorError) -> Error {
    let why = crate::error::clip_to(&e.to_string(), 160);
    Error::parse("the weights file", format!("it is not a valid safetensors file ({why})"))
}

/// A tensor's shape as a message quotes it: a file may give one of any number of dimensions.
fn shape_text(shape: &[usize]) -> String {
    crate::error::clip(&format!("{shape:?}"))
}

/// Typed reads, each error naming the tensor and the shape expected.
struct Tensors<'a> {
    file: SafeTensors<'a>,
    prefix: &'static str,
    file_metadata: Option<HashMap<String, String>>,
}

impl Tensors<'_> {
    fn has(&self, name: &str) -> bool {
        self.file.tensor(&format!("{}{name}", self.prefix)).is_ok()
    }

    fn shape(&self, name: &str) -> Result<Vec<usize>> {
        self.view(name, "").map(|v| v.shape().to_vec())
    }

    fn view(&self, name: &str, expected: &str) -> Result<TensorView<'_>> {
        self.file
            .tensor(&format!("{}{name}", self.prefix))
            .map_err(|_| Error::weights(name, format!("is missing from the file{expected}")))
    }

    /// A tensor of exactly `shape`, F32 or F16, finite, as f32.
    fn floats(&self, name: &str, shape: &[usize]) -> Result<Vec<f32>> {
        let view = self.view(name, &format!("; expected shape {shape:?}"))?;
        if view.shape() != shape {
            return Err(Error::weights(name, format!("has shape {}; expected {shape:?}", shape_text(view.shape()))));
        }
        let values: Vec<f32> = match view.dtype() {
            Dtype::F32 => view.data().chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect(),
            Dtype::F16 => {
                view.data().chunks_exact(2).map(|b| half::f16::from_le_bytes([b[0], b[1]]).to_f32()).collect()
            }
            Dtype::I8 if shape.len() == 2 => {
                let scale_name = format!("{name}{ROW_SCALE}");
                let scales = self.floats(&scale_name, &shape[..1])?;
                let cols = shape[1];
                view.data().iter().enumerate().map(|(i, &q)| q as i8 as f32 * scales[i / cols]).collect()
            }
            other => {
                return Err(Error::weights(
                    name,
                    format!("has dtype {other:?}; expected F32 or F16 (or I8 with {ROW_SCALE})"),
                ))
            }
        };
        if let Some(i) = values.iter().position(|x| !x.is_finite()) {
            return Err(Error::weights(name, format!("holds a value that is not finite ({}) at index {i}", values[i])));
        }
        Ok(values)
    }

    fn matrix(&self, name: &str, rows: usize, cols: usize) -> Result<Matrix> {
        Ok(Matrix::from_row_slice(rows, cols, &self.floats(name, &[rows, cols])?))
    }

    fn row(&self, name: &str, n: usize) -> Result<RowVector> {
        Ok(RowVector::from_vec(self.floats(name, &[n])?))
    }

    fn linear(&self, name: &str, inputs: usize, outputs: usize, bias: bool) -> Result<Linear> {
        let weight = self.matrix(&format!("{name}.weight"), inputs, outputs)?;
        let bias = if bias { Some(self.row(&format!("{name}.bias"), outputs)?) } else { None };
        Ok(Linear { weight, bias })
    }

    fn norm(&self, name: &str, d: usize, eps: f32) -> Result<LayerNorm> {
        Ok(LayerNorm {
            gain: self.row(&format!("{name}.weight"), d)?,
            bias: self.row(&format!("{name}.bias"), d)?,
            eps,
        })
    }
}

/// The config's value must agree with what the tensors hold.
fn agree(field: &str, config: u64, tensors: usize, tensor: &str) -> Result<()> {
    if config != tensors as u64 {
        return Err(Error::field(
            field,
            format!("the config says {config}, but {tensor} in the weights file gives {tensors}"),
        ));
    }
    Ok(())
}

/// Load a GPT-2-shaped model. `config` supplies the head count and epsilon; without one, the
/// file's own metadata must carry it.
pub fn load(bytes: &[u8], config: Option<&ModelConfig>) -> Result<TinyGpt> {
    let file = SafeTensors::deserialize(bytes).map_err(|e| not_safetensors(&e))?;
    let prefix = if file.tensor("wte.weight").is_ok() {
        ""
    } else if file.tensor("transformer.wte.weight").is_ok() {
        "transformer."
    } else {
        return Err(Error::weights(
            "wte.weight",
            "is missing from the file (looked for it with and without the transformer. prefix)",
        ));
    };
    let file_metadata = SafeTensors::read_metadata(bytes).ok().and_then(|(_, m)| m.metadata().clone());
    let t = Tensors { file, prefix, file_metadata };
    let config = match config {
        Some(c) => c.clone(),
        None => config_from_metadata(bytes)?.ok_or_else(|| {
            Error::field(
                "config",
                "the weights do not record the head count: put the model's config.json beside the file or pass --config PATH",
            )
        })?,
    };

    // What the tensors say.
    let wte_shape = t.shape("wte.weight")?;
    let [v, d] = wte_shape[..] else {
        return Err(Error::weights("wte.weight", format!("has shape {}; expected [V, d]", shape_text(&wte_shape))));
    };
    let p = t.shape("wpe.weight")?.first().copied().unwrap_or(0);
    let n_layers = (0..).take_while(|i| t.has(&format!("h.{i}.ln_1.weight"))).count();
    if n_layers == 0 {
        return Err(Error::weights("h.0.ln_1.weight", "is missing from the file: no blocks found"));
    }
    let f = t.shape("h.0.mlp.c_fc.weight")?.get(1).copied().unwrap_or(0);
    let said_none = t.file_metadata.as_ref().and_then(|m| m.get(ATTENTION_BIAS_KEY)).is_some_and(|v| v == "false");
    let attention_bias = t.has("h.0.attn.c_attn.bias") && !said_none;
    agree("vocab_size", config.vocab_size, v, "wte.weight")?;
    agree("n_embd", config.d_model, d, "wte.weight")?;
    agree("n_positions", config.context, p, "wpe.weight")?;
    agree("n_layer", config.n_layers, n_layers, "the number of h.{i} blocks")?;
    agree("n_inner", config.d_ff, f, "h.0.mlp.c_fc.weight")?;

    let mut config = config;
    config.bias.qkv = attention_bias;
    config.bias.attention_out = attention_bias;
    TinyGpt::check_config(&config)?;
    // Only now is d known to be the width of a token table the file holds (V ≥ 1 rows of it), so
    // 3d cannot overflow (a table of 0 rows holds no data whatever its width).
    if said_none {
        for i in 0..n_layers {
            for (name, n) in [(format!("h.{i}.attn.c_attn.bias"), 3 * d), (format!("h.{i}.attn.c_proj.bias"), d)] {
                if t.has(&name) && t.floats(&name, &[n])?.iter().any(|&x| x != 0.0) {
                    return Err(Error::weights(
                        name,
                        "is not zero, but the file's metadata says the model has no attention biases",
                    ));
                }
            }
        }
    }
    let norm = match t.file_metadata.as_ref().and_then(|m| m.get(NORM_KEY)) {
        Some(text) => NormPlacement::parse(text)?,
        None => NormPlacement::Pre,
    };
    let eps = config.norm_eps as f32;
    let heads = config.n_heads as usize;

    let blocks = (0..n_layers)
        .map(|i| {
            Ok(TransformerBlock {
                ln_1: t.norm(&format!("h.{i}.ln_1"), d, eps)?,
                attn: MultiHeadAttention {
                    n_heads: heads,
                    causal: true,
                    c_attn: t.linear(&format!("h.{i}.attn.c_attn"), d, 3 * d, attention_bias)?,
                    c_proj: t.linear(&format!("h.{i}.attn.c_proj"), d, d, attention_bias)?,
                },
                ln_2: t.norm(&format!("h.{i}.ln_2"), d, eps)?,
                mlp: FeedForward {
                    c_fc: t.linear(&format!("h.{i}.mlp.c_fc"), d, f, true)?,
                    c_proj: t.linear(&format!("h.{i}.mlp.c_proj"), f, d, true)?,
                },
                switches: Switches { norm, ..Switches::default() },
            })
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(TinyGpt {
        wte: t.matrix("wte.weight", v, d)?,
        wpe: t.matrix("wpe.weight", p, d)?,
        blocks,
        ln_f: t.norm("ln_f", d, eps)?,
        config,
    })
}
