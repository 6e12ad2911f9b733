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
//!
//! - `load`: a file read back into a model ([`load()`], [`config_from_metadata`]).
//! - `save`: a model written as a file ([`save()`], [`save_as`]).

mod load;
mod save;

pub use load::{config_from_metadata, load};
pub use save::{save, save_as};

use super::block::NormPlacement;
use super::gpt::TinyGpt;
use crate::config::ModelConfig;

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

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use safetensors::tensor::TensorView;

    use super::save::{named_tensors, Stored};
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
