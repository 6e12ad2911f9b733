//! `TrainableGpt::inspect` against an independent reference: tests/reference/inspect_reference.py ran
//! Hugging Face transformers' GPT2LMHeadModel (float32, eager attention) on the same checkpoints and
//! texts, with `output_attentions`, `output_hidden_states` and forward hooks on every layer, and wrote
//! every intermediate under the path `Inspection::tensors()` gives it. Here the Rust inspection of each
//! text must match every number of every tensor within `TOLERANCE`, and the fixtures must hold exactly
//! the tensors Rust has (no more, no fewer). The reference also encoded each text itself, from
//! vocab.json and the tokenizer's fold rules, so the ids are checked too.
//!
//! To regenerate the fixtures, see tests/reference/README.md. CI needs only the committed files.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;
use transformer_block::nn::inspect::Tensor;
use transformer_block::nn::{weights, Inspection, TinyGpt, TrainableGpt};
use transformer_block::train::Vocabulary;
use transformer_block::ModelConfig;

/// The largest absolute difference allowed between a Rust value and the reference.
const TOLERANCE: f64 = 1e-5;

/// The fixture files, one a checkpoint.
const FIXTURES: [&str; 2] = ["inspect-stretched.json", "inspect-trained.json"];

/// Tensors Rust lists that the fixtures deliberately do not hold, each with why: none. (Every path of
/// `Inspection::tensors()`, `attentions`, `hidden_states` and each block's `gelu_open_share` is
/// referenced; the statistics are computed by the script from its own tensors.)
const NOT_REFERENCED: [(&str, &str); 0] = [];

/// Keys of a fixture case that are not tensors: compared on their own, or the input itself.
const NOT_TENSORS: [&str; 5] = ["input", "text", "symbols", "ids", "unknown"];

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()))
}

/// The checkpoint and vocabulary a fixture names: a safetensors file with its config in the metadata,
/// or a directory `tblock train` wrote (model.safetensors, config.json, vocab.json).
fn load(fixture: &Value, file: &str) -> (TinyGpt, Vocabulary) {
    let weights_path = repo().join(fixture["weights"].as_str().unwrap_or_else(|| panic!("{file} names no weights")));
    let model = if weights_path.is_dir() {
        let bytes = std::fs::read(weights_path.join("model.safetensors"))
            .unwrap_or_else(|e| panic!("{file}: cannot read {}/model.safetensors: {e}", weights_path.display()));
        let config = std::fs::read_to_string(weights_path.join("config.json"))
            .unwrap_or_else(|e| panic!("{file}: cannot read {}/config.json: {e}", weights_path.display()));
        let config = ModelConfig::from_hf_config_json(&config).unwrap_or_else(|e| panic!("{file}: config.json: {e}"));
        weights::load(&bytes, Some(&config))
    } else {
        let bytes = std::fs::read(&weights_path)
            .unwrap_or_else(|e| panic!("{file}: cannot read {}: {e}", weights_path.display()));
        weights::load(&bytes, None)
    }
    .unwrap_or_else(|e| panic!("{file}: {} does not load: {e}", weights_path.display()));
    let vocab_path = fixture["vocab"].as_str().unwrap_or_else(|| panic!("{file} names no vocab.json"));
    let vocab = if vocab_path == "crate/data/vocab.json" {
        Vocabulary::lessons()
    } else {
        let text = std::fs::read_to_string(repo().join(vocab_path))
            .unwrap_or_else(|e| panic!("{file}: cannot read {vocab_path}: {e}"));
        Vocabulary::from_json(&text).unwrap_or_else(|e| panic!("{file}: {vocab_path}: {e}"))
    };
    let config = &fixture["config"];
    assert_eq!(model.config.n_heads as u64, config["n_head"].as_u64().unwrap(), "{file}: the head count");
    assert_eq!(model.config.n_layers as u64, config["n_layer"].as_u64().unwrap(), "{file}: the block count");
    assert_eq!(vocab.len(), model.vocab_size(), "{file}: the vocabulary and the token table");
    (model, vocab)
}

/// The value at a dotted path ("blocks.0.ln_1.output"), a number segment indexing a list.
fn at<'a>(v: &'a Value, path: &str) -> Option<&'a Value> {
    path.split('.').try_fold(v, |here, key| match key.parse::<usize>() {
        Ok(i) => here.get(i),
        Err(_) => here.get(key),
    })
}

/// A nested list of numbers as its shape and its numbers, row-major; `None` if it is not one.
fn nested(v: &Value) -> Option<(Vec<usize>, Vec<f64>)> {
    match v {
        Value::Number(x) => Some((vec![], vec![x.as_f64()?])),
        Value::Array(items) => {
            let mut shape = None;
            let mut data = Vec::new();
            for item in items {
                let (s, d) = nested(item)?;
                if shape.get_or_insert_with(|| s.clone()) != &s {
                    return None; // ragged
                }
                data.extend(d);
            }
            Some((std::iter::once(items.len()).chain(shape.unwrap_or_default()).collect(), data))
        }
        _ => None,
    }
}

/// Every list of numbers in a case (the paths of its tensors), but the keys that are not tensors.
fn tensor_paths(v: &Value, here: String, out: &mut Vec<String>) {
    match v {
        Value::Array(xs) if xs.first().is_some_and(|x| x.is_number() || x.is_array()) => out.push(here),
        Value::Array(xs) => xs.iter().enumerate().for_each(|(i, x)| tensor_paths(x, format!("{here}.{i}"), out)),
        Value::Object(m) => {
            for (k, x) in m {
                if !(here.is_empty() && NOT_TENSORS.contains(&k.as_str())) {
                    tensor_paths(x, if here.is_empty() { k.clone() } else { format!("{here}.{k}") }, out);
                }
            }
        }
        _ => {}
    }
}

/// "blocks.1.ln_2.output" -> "blocks.*.ln_2.output": one kind of tensor across blocks.
fn kind(path: &str) -> String {
    path.split('.').map(|s| if s.parse::<usize>().is_ok() { "*" } else { s }).collect::<Vec<_>>().join(".")
}

/// A flat index as an index per axis.
fn unravel(mut i: usize, shape: &[usize]) -> Vec<usize> {
    let mut index = vec![0; shape.len()];
    for (slot, &n) in index.iter_mut().zip(shape).rev() {
        *slot = i % n.max(1);
        i /= n.max(1);
    }
    index
}

/// The largest difference of one comparison, and where.
#[derive(Clone)]
struct Worst {
    largest: f64,
    label: String,
    index: Vec<usize>,
    expected: f64,
    got: f64,
}

impl Worst {
    fn describe(&self) -> String {
        format!(
            "{:.3e} at {} {:?} (reference {}, Rust {})",
            self.largest, self.label, self.index, self.expected, self.got
        )
    }
}

/// Compare one Rust tensor with the fixture's: the shape, then every number.
fn compare(label: &str, got: &Tensor, expected: &Value) -> Result<Worst, String> {
    let (shape, data) =
        nested(expected).ok_or_else(|| format!("{label}: the fixture's value is not a nested list of numbers"))?;
    if shape != got.shape {
        return Err(format!("{label}: Rust gives shape {:?}, the fixture {:?}", got.shape, shape));
    }
    let mut worst = Worst { largest: -1.0, label: label.into(), index: vec![], expected: 0.0, got: 0.0 };
    for (i, (&g, &e)) in got.data.iter().zip(&data).enumerate() {
        let g = g as f64;
        // NaN compares false with everything: count it as the worst possible difference.
        let d = if (g - e).is_nan() { f64::INFINITY } else { (g - e).abs() };
        if d > worst.largest {
            worst = Worst { largest: d, label: label.into(), index: unravel(i, &shape), expected: e, got: g };
        }
    }
    Ok(worst)
}

/// Every tensor Rust has for an inspection, by path: `tensors()`, then transformers' two.
fn rust_tensors(r: &Inspection) -> Vec<(String, Tensor)> {
    let mut out: Vec<(String, Tensor)> = r.tensors().into_iter().map(|(p, t)| (p, t.clone())).collect();
    out.push(("attentions".into(), r.attentions()));
    out.push(("hidden_states".into(), r.hidden_states()));
    for (i, b) in r.blocks.iter().enumerate() {
        // A scalar (f64): compared as a tensor of no axes.
        out.push((
            format!("blocks.{i}.gelu_open_share"),
            Tensor { shape: vec![], data: vec![b.gelu_open_share as f32] },
        ));
    }
    out
}

#[test]
fn inspect_matches_transformers_gpt2_tensor_for_tensor_within_1e_5() {
    let mut failures: Vec<String> = Vec::new();
    let mut by_kind: BTreeMap<String, Worst> = BTreeMap::new();
    let mut compared = 0usize;
    for file in FIXTURES {
        let path = repo().join("tests/reference/fixtures/inspect").join(file);
        let fixture = read_json(&path);
        let (model, vocab) = load(&fixture, file);
        let cases = fixture["cases"].as_array().unwrap_or_else(|| panic!("{file} has no cases"));
        assert!(cases.len() >= 4, "{file} has {} cases", cases.len());
        for case in cases {
            let text = case["input"].as_str().unwrap_or_else(|| panic!("{file}: a case has no input text"));
            let label = format!("{file} {text:?}");
            let mut flat = TrainableGpt::from_model(&model, 1).unwrap_or_else(|e| panic!("{label}: {e}"));
            let r = flat.inspect(&vocab, text).unwrap_or_else(|e| panic!("{label}: inspect fails: {e}"));

            // The reference encoded the text itself: the same ids, unknown positions and reading.
            let ids: Vec<usize> =
                case["ids"].as_array().unwrap().iter().map(|x| x.as_u64().unwrap() as usize).collect();
            let unknown: Vec<usize> =
                case["unknown"].as_array().unwrap().iter().map(|x| x.as_u64().unwrap() as usize).collect();
            let symbols: Vec<&str> = case["symbols"].as_array().unwrap().iter().map(|x| x.as_str().unwrap()).collect();
            if r.ids != ids {
                failures.push(format!("{label}: Rust reads ids {:?}, the reference encoded {ids:?}", r.ids));
            }
            if r.unknown != unknown {
                failures
                    .push(format!("{label}: unknown positions {:?} in Rust, {unknown:?} in the reference", r.unknown));
            }
            if r.text != case["text"].as_str().unwrap() || r.symbols != symbols {
                failures.push(format!(
                    "{label}: Rust reads {:?} {:?}, the reference {} {symbols:?}",
                    r.text, r.symbols, case["text"]
                ));
            }

            // Every tensor Rust has is in the fixture, and every tensor in the fixture is one Rust has.
            let ours = rust_tensors(&r);
            let mut theirs = Vec::new();
            tensor_paths(case, String::new(), &mut theirs);
            for (p, _) in &ours {
                let deliberate = NOT_REFERENCED.iter().any(|(k, _)| *k == kind(p));
                if !deliberate && at(case, p).is_none() {
                    failures.push(format!("{label}: the fixture has no {p}"));
                }
            }
            for p in &theirs {
                if !ours.iter().any(|(q, _)| q == p) {
                    failures.push(format!("{label}: the fixture has {p}, which Rust's Inspection does not list"));
                }
            }

            for (p, t) in &ours {
                let Some(expected) = at(case, p) else { continue };
                match compare(&format!("{label} {p}"), t, expected) {
                    Err(message) => failures.push(message),
                    Ok(w) => {
                        compared += 1;
                        if w.largest > TOLERANCE {
                            failures.push(format!("{p}: largest difference {} > {TOLERANCE:e}", w.describe()));
                        }
                        let entry = by_kind.entry(kind(p)).or_insert_with(|| w.clone());
                        if w.largest > entry.largest {
                            *entry = w;
                        }
                    }
                }
            }
        }
    }
    println!("largest difference from transformers, per tensor (over {} checkpoints' cases):", FIXTURES.len());
    for (k, w) in &by_kind {
        println!("  {k:40} {}", w.describe());
    }
    let overall = by_kind.values().map(|w| w.largest).fold(0.0, f64::max);
    println!("{compared} tensors compared; the largest difference of all: {overall:.3e}");
    assert!(compared > 0, "no tensors were compared");
    assert!(
        failures.is_empty(),
        "Inspection differs from transformers' GPT-2 ({} problems):\n  {}",
        failures.len(),
        failures.join("\n  ")
    );
}
