//! Loading GPT-2-shaped safetensors the way real checkpoints come: the `transformer.` prefix,
//! attention biases, the causal-mask buffers GPT-2 files carry, a config.json beside the file.

use std::collections::HashMap;

use safetensors::tensor::{Dtype, SafeTensors, TensorView};
use transformer_block::config::ModelConfig;
use transformer_block::nn::{weights, TinyGpt};

/// A small GPT-2 with every bias GPT-2 has (TinyGPT's sizes, attention biases on).
fn biased_model() -> TinyGpt {
    let mut config = ModelConfig::preset("tiny-gpt").unwrap();
    config.bias.qkv = true;
    config.bias.attention_out = true;
    let mut m = TinyGpt::new(&config, 3).unwrap();
    // Give the biases values, so a loader that dropped them would be caught.
    for (i, b) in m.blocks.iter_mut().enumerate() {
        b.attn.c_attn.bias.as_mut().unwrap().fill(0.01 * (i + 1) as f32);
        b.attn.c_proj.bias.as_mut().unwrap().fill(-0.02);
    }
    m
}

/// Rewrite a file's tensors as a GPT2LMHeadModel checkpoint would hold them.
fn as_checkpoint(bytes: &[u8], dtype_of: impl Fn(&str) -> Dtype) -> Vec<u8> {
    let file = SafeTensors::deserialize(bytes).unwrap();
    let mut owned: Vec<(String, Vec<usize>, Vec<u8>, Dtype)> = file
        .tensors()
        .into_iter()
        .map(|(name, view)| {
            let dtype = dtype_of(&name);
            let data =
                if dtype == Dtype::F16 { view.data()[..view.data().len() / 2].to_vec() } else { view.data().to_vec() };
            (format!("transformer.{name}"), view.shape().to_vec(), data, dtype)
        })
        .collect();
    // GPT-2's files also hold each block's causal mask, a buffer and not a parameter.
    for i in 0..2 {
        let mask: Vec<u8> = (0..16 * 16).flat_map(|_| 1.0f32.to_le_bytes()).collect();
        owned.push((format!("transformer.h.{i}.attn.bias"), vec![1, 1, 16, 16], mask, Dtype::F32));
    }
    let views: Vec<(String, TensorView)> =
        owned.iter().map(|(n, s, d, t)| (n.clone(), TensorView::new(*t, s.clone(), d).unwrap())).collect();
    safetensors::serialize(views, None::<HashMap<String, String>>).unwrap()
}

#[test]
fn a_gpt2_checkpoint_with_prefix_biases_and_mask_buffers_loads_and_runs() {
    let m = biased_model();
    let file = as_checkpoint(&weights::save(&m).unwrap(), |_| Dtype::F32);
    // No metadata: the head count comes from the config.json that sits beside a checkpoint.
    let config = ModelConfig::from_hf_config_json(&weights::hf_config_json(&m.config)).unwrap();
    let loaded = weights::load(&file, Some(&config)).unwrap();
    assert!(loaded.config.bias.qkv && loaded.config.bias.attention_out, "biases are read from the tensors");
    assert_eq!(loaded.blocks, m.blocks);
    assert_eq!(loaded.forward(&[3, 1, 4]).unwrap(), m.forward(&[3, 1, 4]).unwrap());
    assert_eq!(loaded.n_params(), 27_328 + 2 * (3 * 32 + 32));
}

#[test]
fn without_a_config_the_head_count_is_asked_for() {
    let m = biased_model();
    let file = as_checkpoint(&weights::save(&m).unwrap(), |_| Dtype::F32);
    let e = weights::load(&file, None).unwrap_err().to_string();
    assert!(e.starts_with("config: the weights do not record the head count"), "{e}");
}

#[test]
fn a_tensor_of_another_dtype_is_named() {
    let m = biased_model();
    let file = as_checkpoint(&weights::save(&m).unwrap(), |n| if n == "wpe.weight" { Dtype::I32 } else { Dtype::F32 });
    let e = weights::load(&file, Some(&m.config)).unwrap_err().to_string();
    assert_eq!(e, "wpe.weight: has dtype I32; expected F32 or F16 (or I8 with .row_scale)");
}
