//! TinyGPT's training against PyTorch: tests/reference/train_reference.py loaded the committed
//! checkpoint into a GPT written in PyTorch, and wrote the loss of a batch, every gradient (by
//! autograd, in float64), and every weight after 10 AdamW steps, for pre-LN and for post-LN. Here
//! the Rust loads the same checkpoint, runs the same batches through its own backward pass and its
//! own training step, and must agree within 1e-4 relative: for each tensor, the largest difference
//! divided by the tensor's largest magnitude. A failure names every tensor that is off.
//!
//! Also: transformers' GPT2LMHeadModel.from_pretrained loaded a directory `tblock train` wrote and
//! computed logits; the Rust computes the same from the same directory.
//!
//! To regenerate the fixtures, see tests/reference/README.md. CI needs only the committed files.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use safetensors::tensor::{Dtype, SafeTensors};
use serde_json::Value;
use transformer_block::nn::{weights, NormPlacement, TinyGpt, TrainableGpt};
use transformer_block::train::corpus::LESSON_PROSE;
use transformer_block::train::optimizer::Schedule;
use transformer_block::train::{TrainSettings, Trainer};

const TOLERANCE: f64 = 1e-4;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/reference/fixtures/training")
}

fn read(name: &str) -> Vec<u8> {
    let path = fixtures().join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

fn json(name: &str) -> Value {
    serde_json::from_slice(&read(name)).unwrap_or_else(|e| panic!("{name} is not JSON: {e}"))
}

/// Every tensor of an F32 safetensors file, by name.
fn tensors(name: &str) -> HashMap<String, (Vec<usize>, Vec<f32>)> {
    let bytes = read(name);
    let file = SafeTensors::deserialize(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
    file.tensors()
        .into_iter()
        .map(|(n, view)| {
            assert_eq!(view.dtype(), Dtype::F32, "{name}: {n}");
            let values = view.data().chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect();
            (n, (view.shape().to_vec(), values))
        })
        .collect()
}

/// The checkpoint, with every block's norm placed as the fixture says.
fn checkpoint(fixture: &Value) -> TinyGpt {
    let path = fixtures().join("..").join(fixture["checkpoint"].as_str().unwrap());
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut m = weights::load(&bytes, None).unwrap();
    let norm = NormPlacement::parse(fixture["norm"].as_str().unwrap()).unwrap();
    for b in &mut m.blocks {
        b.switches.norm = norm;
    }
    m
}

fn batch(fixture: &Value, i: usize) -> (Vec<usize>, Vec<usize>) {
    let flat = |key: &str| -> Vec<usize> {
        fixture["batches"][i][key]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|row| row.as_array().unwrap().iter().map(|x| x.as_u64().unwrap() as usize))
            .collect()
    };
    (flat("ids"), flat("targets"))
}

/// Compare a flat buffer (our layout) with the reference tensors (Hugging Face names and layout),
/// tensor by tensor. Returns the report lines of the tensors that are off, and the worst error.
fn compare(
    model: &TrainableGpt,
    ours: &[f32],
    reference: &HashMap<String, (Vec<usize>, Vec<f32>)>,
) -> (Vec<String>, f64) {
    let mut failures = Vec::new();
    let mut worst_overall = 0.0f64;
    for t in model.shape.tensors() {
        let (shape, values) = reference.get(&t.name).unwrap_or_else(|| panic!("the reference has no {}", t.name));
        let mine = &ours[t.offset..t.offset + t.len];
        // A linear weight is [out, in] here and [in, out] (Conv1D) in the checkpoint.
        let theirs: Vec<f32> = if t.linear {
            let (n_in, n_out) = (shape[0], shape[1]);
            (0..n_out * n_in).map(|i| values[(i % n_in) * n_out + i / n_in]).collect()
        } else {
            values.clone()
        };
        assert_eq!(theirs.len(), mine.len(), "{}", t.name);
        let scale = theirs.iter().fold(0.0f64, |m, &x| m.max((x as f64).abs())).max(1e-30);
        let (mut worst, mut at) = (0.0f64, 0);
        for (i, (&a, &b)) in mine.iter().zip(&theirs).enumerate() {
            let diff = (a as f64 - b as f64).abs();
            if diff > worst {
                (worst, at) = (diff, i);
            }
        }
        let relative = worst / scale;
        worst_overall = worst_overall.max(relative);
        if relative > TOLERANCE {
            failures.push(format!(
                "{}: {relative:.2e} (index {at}: ours {} vs {}; largest magnitude {scale:.3e})",
                t.name, mine[at], theirs[at]
            ));
        }
    }
    (failures, worst_overall)
}

fn gradients_match_pytorch(norm: &str) {
    let fixture = json(&format!("train-{norm}.json"));
    let mut m = TrainableGpt::from_model(&checkpoint(&fixture), 4).unwrap();
    let (ids, targets) = batch(&fixture, 0);
    let loss = m.forward(&ids, Some(&targets), 4, 16).unwrap().unwrap() as f64;
    let expected = fixture["loss"].as_f64().unwrap();
    assert!((loss - expected).abs() / expected < 1e-6, "{norm}-LN loss {loss} vs PyTorch {expected}");
    m.zero_grad();
    m.backward().unwrap();
    let grads = m.grads.clone();
    let (failures, worst) = compare(&m, &grads, &tensors(&format!("train-{norm}-grads.safetensors")));
    assert!(failures.is_empty(), "{norm}-LN gradients differ from PyTorch autograd:\n  {}", failures.join("\n  "));
    eprintln!("{norm}-LN: loss {loss:.6} (PyTorch {expected:.6}); worst gradient tensor {worst:.1e} relative");
}

fn ten_adamw_steps_match_pytorch(norm: &str) {
    let fixture = json(&format!("train-{norm}.json"));
    let s = &fixture["settings"];
    assert_eq!(s["betas"], serde_json::json!([0.9, 0.95]));
    assert_eq!(s["eps"].as_f64(), Some(1e-8));
    assert_eq!(s["schedule"], "cosine");
    let settings = TrainSettings {
        steps: s["steps"].as_u64().unwrap() as usize,
        learning_rate: s["learning_rate"].as_f64().unwrap(),
        warmup: s["warmup"].as_u64().unwrap() as usize,
        schedule: Schedule::Cosine,
        weight_decay: s["weight_decay"].as_f64().unwrap(),
        grad_clip: s["grad_clip"].as_f64().unwrap(),
        batch: 4,
        ..TrainSettings::default()
    };
    let mut t = Trainer::from_model(settings, &checkpoint(&fixture), LESSON_PROSE).unwrap();
    let losses = fixture["losses"].as_array().unwrap();
    for (i, expected) in losses.iter().enumerate() {
        let (ids, targets) = batch(&fixture, i);
        let r = t.step_on(&ids, &targets).unwrap();
        let expected = expected.as_f64().unwrap();
        assert!(
            (r.loss as f64 - expected).abs() / expected < 1e-5,
            "{norm}-LN step {}: loss {} vs PyTorch {expected}",
            i + 1,
            r.loss
        );
    }
    assert!(t.is_done());
    let m = t.trainable();
    let params = m.params.clone();
    let (failures, worst) = compare(m, &params, &tensors(&format!("train-{norm}-after.safetensors")));
    assert!(
        failures.is_empty(),
        "{norm}-LN weights after 10 AdamW steps differ from PyTorch:\n  {}",
        failures.join("\n  ")
    );
    eprintln!("{norm}-LN: after {} steps the worst weight tensor is {worst:.1e} relative", losses.len());
}

#[test]
fn pre_ln_gradients_match_pytorch_autograd() {
    gradients_match_pytorch("pre");
}

#[test]
fn post_ln_gradients_match_pytorch_autograd() {
    gradients_match_pytorch("post");
}

#[test]
fn pre_ln_adamw_steps_match_pytorch() {
    ten_adamw_steps_match_pytorch("pre");
}

#[test]
fn post_ln_adamw_steps_match_pytorch() {
    ten_adamw_steps_match_pytorch("post");
}

#[test]
fn a_trained_directory_gives_the_logits_transformers_computes_from_it() {
    let fixture = json("transformers-logits.json");
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(fixture["model_dir"].as_str().unwrap());
    let bytes = std::fs::read(dir.join("model.safetensors")).unwrap();
    let config = std::fs::read_to_string(dir.join("config.json")).unwrap();
    let config = transformer_block::ModelConfig::from_hf_config_json(&config).unwrap();
    let m = weights::load(&bytes, Some(&config)).unwrap();
    assert_eq!(m.n_params(), 27_328, "the zero attention biases are dropped again");
    for case in fixture["cases"].as_array().unwrap() {
        let ids: Vec<usize> = case["ids"].as_array().unwrap().iter().map(|x| x.as_u64().unwrap() as usize).collect();
        let logits = m.forward(&ids).unwrap();
        for (t, row) in case["logits"].as_array().unwrap().iter().enumerate() {
            for (j, x) in row.as_array().unwrap().iter().enumerate() {
                let diff = (logits[(t, j)] as f64 - x.as_f64().unwrap()).abs();
                assert!(
                    diff < 1e-5,
                    "ids {ids:?}, position {t}, token {j}: ours {} vs transformers {x}",
                    logits[(t, j)]
                );
            }
        }
    }
}

#[test]
fn the_experiments_match_the_pytorch_reference() {
    use transformer_block::experiments::{ablation::ablate, stream::stream_stats};
    let fixture = json("experiments.json");
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(fixture["model_dir"].as_str().unwrap());
    let bytes = std::fs::read(dir.join("model.safetensors")).unwrap();
    let model = weights::load(&bytes, None).unwrap();
    let ids: Vec<usize> = fixture["ids"].as_array().unwrap().iter().map(|x| x.as_u64().unwrap() as usize).collect();
    let mut flat = TrainableGpt::from_model(&model, 16).unwrap();
    let close = |what: &str, ours: f64, theirs: &Value| {
        let theirs = theirs.as_f64().unwrap_or_else(|| panic!("{what} missing"));
        assert!((ours - theirs).abs() <= 1e-4 * theirs.abs().max(1.0), "{what}: ours {ours}, PyTorch {theirs}");
    };
    let a = ablate(&mut flat, &ids).unwrap();
    let expected = &fixture["ablation"];
    close("intact", a.intact, &expected["intact"]);
    close("uniform", a.uniform, &expected["uniform"]);
    for (b, e) in a.blocks.iter().zip(expected["blocks"].as_array().unwrap()) {
        close(&format!("block {} removed", b.block), b.removed, &e["removed"]);
        close(&format!("block {} overwritten", b.block), b.overwritten, &e["overwritten"]);
    }
    let s = stream_stats(&mut flat, &ids).unwrap();
    let expected = &fixture["stream"];
    close("embedding_norm", s.embedding_norm, &expected["embedding_norm"]);
    for (b, e) in s.blocks.iter().zip(expected["blocks"].as_array().unwrap()) {
        for (key, ours) in [
            ("stream_norm", b.stream_norm),
            ("attention_norm", b.attention_norm),
            ("attention_fraction", b.attention_fraction),
            ("feed_forward_norm", b.feed_forward_norm),
            ("feed_forward_fraction", b.feed_forward_fraction),
            ("cosine_in_out", b.cosine_in_out),
        ] {
            close(&format!("block {} {key}", b.block), ours, &e[key]);
        }
    }
    assert_eq!(a.blocks.len(), 3);
}
