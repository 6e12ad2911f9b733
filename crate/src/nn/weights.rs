//! Weights in and out as safetensors, with Hugging Face GPT-2's tensor names, so a real GPT-2
//! checkpoint of any size loads and runs, and a file this project writes opens in PyTorch:
//!
//!   wte.weight [V, d]   wpe.weight [P, d]   ln_f.weight, ln_f.bias [d]
//!   h.{i}.ln_1.weight, h.{i}.ln_1.bias [d]             h.{i}.ln_2.* alike
//!   h.{i}.attn.c_attn.weight [d, 3d]  (+ .bias [3d])    h.{i}.attn.c_proj.weight [d, d] (+ .bias [d])
//!   h.{i}.mlp.c_fc.weight [d, f], .bias [f]             h.{i}.mlp.c_proj.weight [f, d], .bias [d]
//!
//! Matrices are stored input x output (GPT-2's Conv1D), row-major, f32. Names may carry the
//! `transformer.` prefix that GPT2LMHeadModel checkpoints use. The tensors give V, d, P, L, f and
//! whether attention has biases; what they cannot give (the head count, the norm's epsilon) comes
//! from a config: the caller's, or the `config` entry of the file's metadata, which this module
//! writes as a Hugging Face GPT-2 config.json.

use std::collections::HashMap;

use safetensors::tensor::{Dtype, SafeTensors, TensorView};

use super::attention::MultiHeadAttention;
use super::block::{Switches, TransformerBlock};
use super::feed_forward::FeedForward;
use super::gpt::TinyGpt;
use super::linear::Linear;
use super::norm::LayerNorm;
use super::{Matrix, RowVector};
use crate::config::ModelConfig;
use crate::error::{Error, Result};

/// The metadata key under which a file written here keeps its config.json.
pub const CONFIG_KEY: &str = "config";

/// A Hugging Face GPT-2 config.json for a model (what `save_pretrained` would write).
pub fn hf_config_json(c: &ModelConfig) -> String {
    serde_json::json!({
        "architectures": ["GPT2LMHeadModel"],
        "model_type": "gpt2",
        "activation_function": "gelu_new",
        "vocab_size": c.vocab_size,
        "n_positions": c.context,
        "n_embd": c.d_model,
        "n_layer": c.n_layers,
        "n_head": c.n_heads,
        "n_inner": c.d_ff,
        "layer_norm_epsilon": c.norm_eps,
        "tie_word_embeddings": true,
    })
    .to_string()
}

/// The config recorded in a safetensors file's metadata, if it has one.
pub fn config_from_metadata(bytes: &[u8]) -> Result<Option<ModelConfig>> {
    let (_, metadata) = SafeTensors::read_metadata(bytes).map_err(|e| not_safetensors(&e))?;
    match metadata.metadata().as_ref().and_then(|m| m.get(CONFIG_KEY)) {
        Some(json) => ModelConfig::from_hf_config_json(json).map(Some),
        None => Ok(None),
    }
}

fn not_safetensors(e: &safetensors::SafeTensorError) -> Error {
    Error::Parse { what: "the weights file".into(), problem: format!("it is not a valid safetensors file ({e})") }
}

/// Typed reads, each error naming the tensor and the shape expected.
struct Tensors<'a> {
    file: SafeTensors<'a>,
    prefix: &'static str,
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

    /// A tensor of exactly `shape`, f32 and finite.
    fn floats(&self, name: &str, shape: &[usize]) -> Result<Vec<f32>> {
        let view = self.view(name, &format!("; expected shape {shape:?}"))?;
        if view.dtype() != Dtype::F32 {
            return Err(Error::weights(name, format!("has dtype {:?}; expected F32", view.dtype())));
        }
        if view.shape() != shape {
            return Err(Error::weights(name, format!("has shape {:?}; expected {shape:?}", view.shape())));
        }
        let values: Vec<f32> =
            view.data().chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect();
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
    let t = Tensors { file, prefix };
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
        return Err(Error::weights("wte.weight", format!("has shape {wte_shape:?}; expected [V, d]")));
    };
    let p = t.shape("wpe.weight")?.first().copied().unwrap_or(0);
    let n_layers = (0..).take_while(|i| t.has(&format!("h.{i}.ln_1.weight"))).count();
    if n_layers == 0 {
        return Err(Error::weights("h.0.ln_1.weight", "is missing from the file: no blocks found"));
    }
    let f = t.shape("h.0.mlp.c_fc.weight")?.get(1).copied().unwrap_or(0);
    let attention_bias = t.has("h.0.attn.c_attn.bias");
    agree("vocab_size", config.vocab_size, v, "wte.weight")?;
    agree("n_embd", config.d_model, d, "wte.weight")?;
    agree("n_positions", config.context, p, "wpe.weight")?;
    agree("n_layer", config.n_layers, n_layers, "the number of h.{i} blocks")?;
    agree("n_inner", config.d_ff, f, "h.0.mlp.c_fc.weight")?;

    let mut config = config;
    config.bias.qkv = attention_bias;
    config.bias.attention_out = attention_bias;
    TinyGpt::check_config(&config)?;
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
                switches: Switches::default(),
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

/// Every tensor of the model by its Hugging Face name, row-major f32 bytes with its shape.
fn named_tensors(m: &TinyGpt) -> Vec<(String, Vec<usize>, Vec<u8>)> {
    fn bytes_of_matrix(x: &Matrix) -> Vec<u8> {
        // nalgebra is column-major; safetensors is row-major.
        x.transpose().as_slice().iter().flat_map(|v| v.to_le_bytes()).collect()
    }
    fn bytes_of_row(x: &RowVector) -> Vec<u8> {
        x.iter().flat_map(|v| v.to_le_bytes()).collect()
    }
    let mut out = Vec::new();
    let mut matrix = |name: String, x: &Matrix| out.push((name, vec![x.nrows(), x.ncols()], bytes_of_matrix(x)));
    matrix("wte.weight".into(), &m.wte);
    matrix("wpe.weight".into(), &m.wpe);
    for (i, b) in m.blocks.iter().enumerate() {
        matrix(format!("h.{i}.attn.c_attn.weight"), &b.attn.c_attn.weight);
        matrix(format!("h.{i}.attn.c_proj.weight"), &b.attn.c_proj.weight);
        matrix(format!("h.{i}.mlp.c_fc.weight"), &b.mlp.c_fc.weight);
        matrix(format!("h.{i}.mlp.c_proj.weight"), &b.mlp.c_proj.weight);
    }
    let mut row = |name: String, x: &RowVector| out.push((name, vec![x.len()], bytes_of_row(x)));
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
            if let Some(bias) = &linear.bias {
                row(format!("h.{i}.{name}.bias"), bias);
            }
        }
    }
    row("ln_f.weight".into(), &m.ln_f.gain);
    row("ln_f.bias".into(), &m.ln_f.bias);
    out
}

/// The model as a safetensors file, its config.json in the metadata.
pub fn save(m: &TinyGpt) -> Result<Vec<u8>> {
    let tensors = named_tensors(m);
    let views = tensors
        .iter()
        .map(|(name, shape, data)| {
            TensorView::new(Dtype::F32, shape.clone(), data)
                .map(|v| (name.clone(), v))
                .map_err(|e| Error::weights(name, format!("could not be written: {e}")))
        })
        .collect::<Result<Vec<_>>>()?;
    let metadata = HashMap::from([(CONFIG_KEY.to_string(), hf_config_json(&m.config)), ("format".into(), "pt".into())]);
    safetensors::serialize(views, Some(metadata))
        .map_err(|e| Error::Parse { what: "the weights file".into(), problem: format!("could not be written: {e}") })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn save_then_load_gives_the_same_model_and_logits() {
        let m = TinyGpt::tiny(42);
        let bytes = save(&m).unwrap();
        let back = load(&bytes, None).unwrap();
        assert_eq!(back.wte, m.wte);
        assert_eq!(back.blocks, m.blocks);
        assert_eq!(back.forward(&[3, 1, 4]).unwrap(), m.forward(&[3, 1, 4]).unwrap());
        assert_eq!(back.n_params(), 27_328);
    }

    fn resave(m: &TinyGpt, edit: impl Fn(&mut Vec<(String, Vec<usize>, Vec<u8>)>)) -> Vec<u8> {
        let mut tensors = named_tensors(m);
        edit(&mut tensors);
        let views: Vec<(String, TensorView)> =
            tensors.iter().map(|(n, s, d)| (n.clone(), TensorView::new(Dtype::F32, s.clone(), d).unwrap())).collect();
        let meta = HashMap::from([(CONFIG_KEY.to_string(), hf_config_json(&m.config))]);
        safetensors::serialize(views, Some(meta)).unwrap()
    }

    #[test]
    fn broken_files_name_the_tensor_and_the_shape_expected() {
        let m = TinyGpt::tiny(1);
        let missing = resave(&m, |t| t.retain(|(n, _, _)| n != "h.1.mlp.c_fc.weight"));
        assert_eq!(
            load(&missing, None).unwrap_err().to_string(),
            "h.1.mlp.c_fc.weight: is missing from the file; expected shape [32, 128]"
        );
        let wrong = resave(&m, |t| {
            let e = t.iter_mut().find(|(n, _, _)| n == "h.0.attn.c_proj.weight").unwrap();
            e.1 = vec![16, 64];
        });
        assert_eq!(
            load(&wrong, None).unwrap_err().to_string(),
            "h.0.attn.c_proj.weight: has shape [16, 64]; expected [32, 32]"
        );
        let nan = resave(&m, |t| {
            let e = t.iter_mut().find(|(n, _, _)| n == "ln_f.weight").unwrap();
            e.2[8..12].copy_from_slice(&f32::NAN.to_le_bytes());
        });
        assert_eq!(
            load(&nan, None).unwrap_err().to_string(),
            "ln_f.weight: holds a value that is not finite (NaN) at index 2"
        );
        assert!(load(b"not a file", None).unwrap_err().to_string().starts_with("the weights file could not be read"));
    }

    #[test]
    fn a_config_that_disagrees_with_the_tensors_is_refused() {
        let m = TinyGpt::tiny(1);
        let bytes = save(&m).unwrap();
        let gpt2 = ModelConfig::preset("gpt2-small").unwrap();
        assert_eq!(
            load(&bytes, Some(&gpt2)).unwrap_err().to_string(),
            "vocab_size: the config says 50257, but wte.weight in the weights file gives 50"
        );
    }
}
