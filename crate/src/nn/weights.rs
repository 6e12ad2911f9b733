//! Weights in and out as safetensors, with Hugging Face GPT-2's tensor names, so a real GPT-2
//! checkpoint of any size loads and runs, and a file this project writes opens in PyTorch:
//!
//!   wte.weight [V, d]   wpe.weight [P, d]   ln_f.weight, ln_f.bias [d]
//!   h.{i}.ln_1.weight, h.{i}.ln_1.bias [d]             h.{i}.ln_2.* alike
//!   h.{i}.attn.c_attn.weight [d, 3d]  (+ .bias [3d])    h.{i}.attn.c_proj.weight [d, d] (+ .bias [d])
//!   h.{i}.mlp.c_fc.weight [d, f], .bias [f]             h.{i}.mlp.c_proj.weight [f, d], .bias [d]
//!
//! Matrices are stored input x output (GPT-2's Conv1D), row-major, as F32 or F16 (half the bytes;
//! the model runs in f32 either way). Names may carry the `transformer.` prefix that
//! GPT2LMHeadModel checkpoints use. A model whose blocks normalise after the add (post-LN, which
//! GPT-2's code cannot express) records `"norm_placement": "post"` in its metadata and config.json. The tensors give V, d, P, L, f and
//! whether attention has biases; what they cannot give (the head count, the norm's epsilon) comes
//! from a config: the caller's, or the `config` entry of the file's metadata, which this module
//! writes as a Hugging Face GPT-2 config.json.

use std::collections::HashMap;

use safetensors::tensor::{Dtype, SafeTensors, TensorView};

use super::attention::MultiHeadAttention;
use super::block::{NormPlacement, Switches, TransformerBlock};
use super::feed_forward::FeedForward;
use super::gpt::TinyGpt;
use super::linear::Linear;
use super::norm::LayerNorm;
use super::{Matrix, RowVector};
use crate::config::ModelConfig;
use crate::error::{Error, Result};

/// The metadata key under which a file written here keeps its config.json.
pub const CONFIG_KEY: &str = "config";
/// The metadata (and config.json) key for where the norm sits: "pre" or "post".
pub const NORM_KEY: &str = "norm_placement";
/// The suffix of the tensor that holds an I8 matrix's scale per row.
pub const ROW_SCALE: &str = ".row_scale";
/// The metadata key that says a model has no attention biases ("false"). GPT-2's code always has
/// them, so such a model is written with zero biases (transformers loads it with nothing missing,
/// and computes the same); this key lets the loader drop them again.
pub const ATTENTION_BIAS_KEY: &str = "attention_bias";

/// How a file stores its numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StoredDtype {
    F32,
    /// IEEE half precision: 2 bytes a number, about 3 significant digits.
    F16,
    /// A byte a weight: each row of a matrix as whole numbers from −L to L times the row's scale
    /// (its largest magnitude / L), kept beside it as `{name}.row_scale` (F32), with L = 2^(bits−1) − 1
    /// (127 for 8 bits, 31 for 6); gains and biases F16. A quarter of the F32 file whatever the bits;
    /// fewer bits compress further (gzip stores 6-bit levels in about five bits). The stored dtype is
    /// I8 either way, read by one loader: this project's (transformers does not read it).
    IntRows {
        bits: u8,
    },
}

/// A Hugging Face GPT-2 config.json for a model (what `save_pretrained` would write), with
/// `norm_placement` added for a post-LN model.
pub fn model_config_json(m: &TinyGpt) -> String {
    let mut json = hf_config_value(&m.config);
    // Token ids GPT-2's config would default to (50256) do not exist in a small vocabulary.
    json["bos_token_id"] = serde_json::Value::Null;
    json["eos_token_id"] = serde_json::Value::Null;
    if norm_placement(m) == NormPlacement::Post {
        json[NORM_KEY] = serde_json::Value::from(NormPlacement::Post.name());
    }
    serde_json::to_string_pretty(&json).expect("a JSON value serialises")
}

/// Where the model's blocks put their norms (the first block's; every block of a model agrees).
pub fn norm_placement(m: &TinyGpt) -> NormPlacement {
    m.blocks.first().map(|b| b.switches.norm).unwrap_or_default()
}

/// A Hugging Face GPT-2 config.json for a model's shape (what `save_pretrained` would write).
pub fn hf_config_json(c: &ModelConfig) -> String {
    hf_config_value(c).to_string()
}

fn hf_config_value(c: &ModelConfig) -> serde_json::Value {
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
    let why = crate::error::clip_to(&e.to_string(), 160);
    Error::Parse { what: "the weights file".into(), problem: format!("it is not a valid safetensors file ({why})") }
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

/// A tensor ready to write: its name, shape, dtype and bytes.
type Stored = (String, Vec<usize>, Dtype, Vec<u8>);

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
fn named_tensors(m: &TinyGpt, dtype: StoredDtype) -> Vec<Stored> {
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
        .map_err(|e| Error::Parse { what: "the weights file".into(), problem: format!("could not be written: {e}") })?;
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

    fn resave(m: &TinyGpt, edit: impl Fn(&mut Vec<Stored>)) -> Vec<u8> {
        let mut tensors = named_tensors(m, StoredDtype::F32);
        edit(&mut tensors);
        let views: Vec<(String, TensorView)> =
            tensors.iter().map(|(n, s, t, d)| (n.clone(), TensorView::new(*t, s.clone(), d).unwrap())).collect();
        let meta = HashMap::from([(CONFIG_KEY.to_string(), hf_config_json(&m.config))]);
        safetensors::serialize(views, Some(meta)).unwrap()
    }

    #[test]
    fn broken_files_name_the_tensor_and_the_shape_expected() {
        let m = TinyGpt::tiny(1);
        let missing = resave(&m, |t| t.retain(|(n, _, _, _)| n != "h.1.mlp.c_fc.weight"));
        assert_eq!(
            load(&missing, None).unwrap_err().to_string(),
            "h.1.mlp.c_fc.weight: is missing from the file; expected shape [32, 128]"
        );
        let wrong = resave(&m, |t| {
            let e = t.iter_mut().find(|(n, _, _, _)| n == "h.0.attn.c_proj.weight").unwrap();
            e.1 = vec![16, 64];
        });
        assert_eq!(
            load(&wrong, None).unwrap_err().to_string(),
            "h.0.attn.c_proj.weight: has shape [16, 64]; expected [32, 32]"
        );
        let nan = resave(&m, |t| {
            let e = t.iter_mut().find(|(n, _, _, _)| n == "ln_f.weight").unwrap();
            e.3[8..12].copy_from_slice(&f32::NAN.to_le_bytes());
        });
        assert_eq!(
            load(&nan, None).unwrap_err().to_string(),
            "ln_f.weight: holds a value that is not finite (NaN) at index 2"
        );
        assert!(load(b"not a file", None).unwrap_err().to_string().starts_with("the weights file could not be read"));
    }

    #[test]
    fn f16_halves_the_file_and_post_ln_survives_the_round_trip() {
        let mut m = TinyGpt::tiny(3);
        for b in &mut m.blocks {
            b.switches.norm = NormPlacement::Post;
        }
        let (full, small) = (save(&m).unwrap(), save_as(&m, StoredDtype::F16).unwrap());
        assert!(small.len() < full.len() / 2 + 4096, "{} vs {}", small.len(), full.len());
        let back = load(&small, None).unwrap();
        assert_eq!(norm_placement(&back), NormPlacement::Post);
        let worst = back.wte.iter().zip(m.wte.iter()).map(|(a, b)| (a - b).abs()).fold(0.0, f32::max);
        assert!(worst > 0.0 && worst < 1e-4, "f16 rounds, by at most half a unit in the 11th bit: {worst}");
        let exact = load(&full, None).unwrap();
        assert!(exact.blocks == m.blocks && exact.wte == m.wte, "F32 round-trips exactly");
        assert!(model_config_json(&m).contains("\"norm_placement\": \"post\""));
        assert!(!model_config_json(&TinyGpt::tiny(3)).contains("norm_placement"));
    }

    #[test]
    fn byte_rows_are_within_half_a_step_of_each_weight() {
        let m = TinyGpt::tiny(4);
        for (bits, levels) in [(8, 127.0), (7, 63.0), (6, 31.0)] {
            let dtype = StoredDtype::IntRows { bits };
            let bytes = save_as(&m, dtype).unwrap();
            assert!(bytes.len() < save(&m).unwrap().len() / 3, "{}", bytes.len());
            let back = load(&bytes, None).unwrap();
            for (a, b) in [(&back.wte, &m.wte), (&back.blocks[1].mlp.c_fc.weight, &m.blocks[1].mlp.c_fc.weight)] {
                for r in 0..b.nrows() {
                    let step = b.row(r).iter().fold(0.0f32, |x, v| x.max(v.abs())) / levels;
                    let worst = a.row(r).iter().zip(b.row(r).iter()).map(|(x, y)| (x - y).abs()).fold(0.0, f32::max);
                    assert!(worst <= 0.5 * step * 1.0001, "{dtype:?} row {r}: {worst} > half of {step}");
                }
            }
            assert_eq!(back.blocks[0].ln_1.gain, m.blocks[0].ln_1.gain, "gains of 1 are exact in F16");
        }
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
