//! The forward pass on real checkpoint families (GPT-2, a bf16 sharded Llama with llama3 rotary
//! scaling, an f16 Qwen2 with q/k/v biases and a tied head, a Mistral with a sliding window) against
//! an independent float64 PyTorch implementation (tests/reference/make_checkpoints.py, itself checked
//! against transformers): token ids equal to the Python tokenizers library's, the stream entering
//! each block and the logits, and the three experiments, within 1e-4.
#![cfg(not(target_arch = "wasm32"))]

use std::path::PathBuf;

use serde_json::Value;
use transformer_block::checkpoint::Checkpoint;
use transformer_block::experiments::ablation::ablate;
use transformer_block::experiments::stream::stream_stats;
use transformer_block::experiments::subject::{evaluate_intact, DecoderRun};
use transformer_block::nn::{BlockMode, BlockStreams};
use transformer_block::train::evaluate::windows;

const FAMILIES: [&str; 4] = ["gpt2", "llama", "qwen2", "mistral"];
const TOLERANCE: f64 = 1e-4;

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/reference/fixtures/checkpoints")
}

fn expected(family: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(fixtures().join(family).join("expected.json")).unwrap()).unwrap()
}

/// Every number of `want` (nested objects and arrays) within the tolerance of `got`'s.
fn close(got: &Value, want: &Value, path: &str) {
    match want {
        Value::Object(w) => w.iter().for_each(|(k, v)| close(&got[k], v, &format!("{path}.{k}"))),
        Value::Array(w) => {
            let g = got.as_array().unwrap_or_else(|| panic!("{path}: not an array: {got}"));
            assert_eq!(g.len(), w.len(), "{path}: length");
            w.iter().zip(g).enumerate().for_each(|(i, (w, g))| close(g, w, &format!("{path}[{i}]")));
        }
        Value::Number(n) if n.is_f64() => {
            let (g, w) = (got.as_f64().unwrap_or(f64::NAN), n.as_f64().unwrap());
            assert!((g - w).abs() <= TOLERANCE, "{path}: {g} against the reference's {w}");
        }
        _ => assert_eq!(got, want, "{path}"),
    }
}

fn eval_ids() -> String {
    std::fs::read_to_string(fixtures().join("eval.txt")).unwrap()
}

#[test]
fn the_tokenizer_gives_the_python_librarys_ids() {
    for family in FAMILIES {
        let c = Checkpoint::open(&fixtures().join(family)).unwrap();
        let ids = c.tokenizer.encode(&eval_ids()).unwrap();
        let want: Vec<usize> = serde_json::from_value(expected(family)["ids"].clone()).unwrap();
        assert_eq!(ids, want, "{family}");
    }
}

#[test]
fn each_family_knows_its_size_and_dtype() {
    for (family, dtype) in FAMILIES.into_iter().zip(["f32", "bf16", "f16", "f32"]) {
        let c = Checkpoint::open(&fixtures().join(family)).unwrap();
        assert_eq!(c.parameters, expected(family)["parameters"].as_u64().unwrap(), "{family}: the analytic count");
        assert_eq!(c.dtype, dtype, "{family}");
        assert_eq!(c.window(None).unwrap(), 64, "{family}: the model's context, under 1,024");
    }
}

#[test]
fn the_stream_into_each_block_and_the_logits_agree_with_the_reference() {
    for family in FAMILIES {
        let want = expected(family);
        let mut c = Checkpoint::open(&fixtures().join(family)).unwrap();
        let ids: Vec<usize> = serde_json::from_value(want["probe"]["ids"].clone()).unwrap();
        let (t, d, v) = (ids.len(), c.decoder.shape.d_model, c.decoder.shape.vocab_size);
        let mut blocks_in = vec![Vec::new(); c.decoder.shape.n_layers];
        let mut keep = |i: usize, s: BlockStreams| {
            blocks_in[i] = s.input.chunks(d).map(|r| r.to_vec()).collect::<Vec<_>>();
        };
        c.decoder.window_loss_with(&ids, &ids, Some(&mut keep)).unwrap();
        close(&serde_json::to_value(&blocks_in).unwrap(), &want["probe"]["blocks_in"], &format!("{family}.blocks_in"));
        let logits = c.decoder.logits(&ids).unwrap();
        let rows: Vec<Vec<f32>> = (0..t).map(|p| logits[p * v..(p + 1) * v].to_vec()).collect();
        close(&serde_json::to_value(&rows).unwrap(), &want["probe"]["logits"], &format!("{family}.logits"));
    }
}

#[test]
fn eval_ablate_and_stream_agree_with_the_reference() {
    for family in FAMILIES {
        let want = expected(family);
        let window = want["context"].as_u64().unwrap() as usize;
        let mut c = Checkpoint::open(&fixtures().join(family)).unwrap();
        let ids = c.tokenizer.encode(&eval_ids()).unwrap();
        let mut windows_done = 0;
        let mut tick = || windows_done += 1;
        let mut run = DecoderRun { decoder: &mut c.decoder, window, tick: &mut tick };
        let e = evaluate_intact(&mut run, &ids).unwrap();
        let all = windows(&ids, window).count();
        close(&serde_json::to_value(e).unwrap(), &want["eval"], &format!("{family}.eval"));
        let a = ablate(&mut run, &ids).unwrap();
        close(&serde_json::to_value(&a).unwrap(), &want["ablate"], &format!("{family}.ablate"));
        let s = stream_stats(&mut run, &ids).unwrap();
        close(&serde_json::to_value(&s).unwrap(), &want["stream"], &format!("{family}.stream"));
        let layers = c.decoder.shape.n_layers;
        assert_eq!(windows_done, all * (1 + (1 + 2 * layers) + 1), "{family}: a tick a window");
        assert!(c.decoder.block_modes.iter().all(|&m| m == BlockMode::Intact), "{family}: blocks put back");
    }
}
