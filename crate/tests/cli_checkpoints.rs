//! `tblock eval | ablate | stream` on Hugging Face checkpoint directories, as an ML engineer would
//! run them on the model they ship: what the JSON says was measured, `--plan`, and every bad input
//! the issue names, each a message and never a panic.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::path::{Path, PathBuf};

use common::{error, json, scratch};

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/reference/fixtures/checkpoints")
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A copy of fixture `family` in `dir`, to break.
fn copy(family: &str, dir: &Path) -> PathBuf {
    let to = dir.join(family);
    std::fs::create_dir_all(&to).unwrap();
    for f in std::fs::read_dir(fixtures().join(family)).unwrap() {
        let f = f.unwrap();
        std::fs::copy(f.path(), to.join(f.file_name())).unwrap();
    }
    to
}

#[test]
fn eval_names_what_it_measured_and_ablate_agrees_with_it() {
    let (llama, text) = (fixtures().join("llama"), fixtures().join("eval.txt"));
    let e = json(&["eval", "--weights", s(&llama), "--text", s(&text), "--context", "32"]);
    let m = &e["measured"];
    assert_eq!(
        (m["model"].as_str(), m["family"].as_str(), m["dtype"].as_str()),
        (Some("llama"), Some("llama"), Some("bf16"))
    );
    assert_eq!((m["parameters"].as_u64(), m["text"].as_str()), (Some(99_408), Some("eval.txt")));
    assert_eq!((m["context"].as_u64(), m["windows"].as_u64(), m["tokens"].as_u64()), (Some(32), Some(31), Some(992)));
    assert_eq!(e["tokens"], 992);
    let a = json(&["ablate", "--weights", s(&llama), "--text", s(&text), "--context", "32"]);
    assert_eq!(a["intact"], e["loss"], "the same windows, the same loss");
    assert_eq!(a["blocks"].as_array().unwrap().len(), 3);
    // What tblock prints is what the page's results-src reads back.
    let read = transformer_block::experiments::measured::read_ablation(&a.to_string()).unwrap();
    assert_eq!(read, a);
    // The default window is the model's context (64 positions), and the default text the lesson prose.
    let d = json(&["stream", "--weights", s(&llama)]);
    assert_eq!(
        (d["measured"]["context"].as_u64(), d["measured"]["text"].as_str()),
        (Some(64), Some("the lesson prose"))
    );
    assert_eq!(d["positions"], d["measured"]["tokens"]);
    assert_eq!(transformer_block::experiments::measured::read_stream(&d.to_string()).unwrap(), d);
    assert!(
        transformer_block::experiments::measured::read_stream(&a.to_string()).is_err(),
        "an ablation is not a stream"
    );
}

#[test]
fn plan_counts_the_work_without_doing_it() {
    let p = json(&[
        "ablate",
        "--weights",
        s(&fixtures().join("gpt2")),
        "--text",
        s(&fixtures().join("eval.txt")),
        "--plan",
    ]);
    let plan = &p["plan"];
    assert_eq!(plan["forward_passes"], 7, "the intact pass and two for each of 3 blocks");
    assert_eq!(plan["windows"], 15, "1,027 tokens in windows of 65");
    assert!(plan["flops"].as_f64().unwrap() > 0.0 && plan["measured_gflops_per_second"].as_f64().unwrap() > 0.0);
    assert!(plan["expected_seconds"].as_f64().unwrap() > 0.0);
    assert!(p.get("intact").is_none(), "nothing was run");
}

#[test]
fn threads_are_a_count_this_machine_has_and_change_no_figure() {
    let (llama, text) = (fixtures().join("llama"), fixtures().join("eval.txt"));
    let all = json(&["ablate", "--weights", s(&llama), "--text", s(&text), "--context", "32"]);
    let one = json(&["ablate", "--weights", s(&llama), "--text", s(&text), "--context", "32", "--threads", "1"]);
    assert_eq!(one, all, "one thread or all, the same figures");
    let plan = json(&["eval", "--weights", s(&llama), "--plan", "--threads", "1"]);
    assert_eq!(plan["plan"]["threads"], 1);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let allowed = format!("choose 1 to {cores} (this machine's cores)");
    for bad in ["0", "-3", "100000"] {
        let e = error(&["eval", "--weights", s(&llama), "--threads", bad]);
        assert!(e.contains(&format!("{bad} threads: {allowed}")), "{bad}: {e}");
    }
    let e = error(&["eval", "--weights", s(&llama), "--threads", "two"]);
    assert!(e.contains(&format!("a thread count is a whole number from 1 to {cores}")) && e.contains("\"two\""), "{e}");
    let tiny = fixtures().join("../tiny-gpt-seed-0.safetensors");
    let e = error(&["eval", "--weights", s(&tiny), "--threads", "1"]);
    assert!(e.contains("--threads are for Hugging Face checkpoint directories"), "{e}");
}

#[test]
fn bad_windows_and_texts_are_named() {
    let dir = scratch("checkpoint-texts");
    let qwen = fixtures().join("qwen2");
    let e = error(&["eval", "--weights", s(&qwen), "--context", "0"]);
    assert!(
        e.contains("--context 0 is out of range: 1 to 64 (the model reads 64 positions; at most 1,024 here)"),
        "{e}"
    );
    let e = error(&["eval", "--weights", s(&qwen), "--context", "65"]);
    assert!(e.contains("--context 65 is out of range: 1 to 64"), "{e}");
    let short = dir.join("short.txt");
    std::fs::write(&short, "a short text").unwrap();
    let e = error(&["ablate", "--weights", s(&qwen), "--text", s(&short)]);
    assert!(e.contains("short.txt: ") && e.contains("make no window of 65") && e.contains("smaller --context"), "{e}");
    let binary = dir.join("binary.txt");
    std::fs::write(&binary, [0x61, 0xff, 0xfe, 0x62]).unwrap();
    let e = error(&["stream", "--weights", s(&qwen), "--text", s(&binary)]);
    assert!(e.contains("not UTF-8 text (byte 1)"), "{e}");
    let e = error(&["eval", "--weights", s(&fixtures().join("../tiny-gpt-seed-0.safetensors")), "--context", "8"]);
    assert!(e.contains("--context, --plan and --threads are for Hugging Face checkpoint directories"), "{e}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn broken_checkpoints_are_named() {
    let dir = scratch("checkpoint-broken");
    let run = |path: &Path| error(&["eval", "--weights", s(path)]);

    let bert = copy("gpt2", &dir.join("bert"));
    std::fs::write(bert.join("config.json"), r#"{"model_type": "bert", "hidden_size": 48}"#).unwrap();
    let e = run(&bert);
    assert!(e.contains("model_type \"bert\" is not supported: supported families are gpt2, llama"), "{e}");

    let mixtral = copy("mistral", &dir.join("mixtral"));
    let config = std::fs::read_to_string(mixtral.join("config.json")).unwrap();
    let config = config.replacen(
        "\"model_type\": \"mistral\"",
        "\"model_type\": \"mixtral\", \"num_local_experts\": 4, \"num_experts_per_tok\": 2",
        1,
    );
    std::fs::write(mixtral.join("config.json"), config).unwrap();
    let e = run(&mixtral);
    assert!(e.contains("\"mixtral\" is a mixture of experts, counted by this crate but not run: the experiments run gpt2, llama, mistral, qwen2"), "{e}");

    let no_tokenizer = copy("llama", &dir.join("no-tokenizer"));
    std::fs::remove_file(no_tokenizer.join("tokenizer.json")).unwrap();
    let e = run(&no_tokenizer);
    assert!(e.contains("it has no tokenizer.json"), "{e}");

    let bad_tokenizer = copy("llama", &dir.join("bad-tokenizer"));
    std::fs::write(bad_tokenizer.join("tokenizer.json"), "{\"model\": 3}").unwrap();
    let e = run(&bad_tokenizer);
    assert!(e.contains("tokenizer.json could not be read: it is not a tokenizer the tokenizers library reads"), "{e}");

    let no_shard = copy("llama", &dir.join("no-shard"));
    let shard = std::fs::read_dir(&no_shard)
        .unwrap()
        .map(|f| f.unwrap().path())
        .find(|p| s(p).ends_with("-00002-of-00003.safetensors"))
        .unwrap();
    std::fs::remove_file(&shard).unwrap();
    let e = run(&no_shard);
    assert!(e.contains("model.safetensors.index.json could not be read: it names the shard model-00002-of-00003.safetensors, which is not in"), "{e}");

    let wrong_shape = copy("llama", &dir.join("wrong-shape"));
    let config = std::fs::read_to_string(wrong_shape.join("config.json"))
        .unwrap()
        .replace("\"intermediate_size\": 96", "\"intermediate_size\": 100");
    std::fs::write(wrong_shape.join("config.json"), config).unwrap();
    let e = run(&wrong_shape);
    assert!(
        e.contains("model.layers.0.mlp.gate_proj.weight: has shape [96, 48] but the config implies [100, 48]"),
        "{e}"
    );

    let truncated = copy("qwen2", &dir.join("truncated"));
    let bytes = std::fs::read(truncated.join("model.safetensors")).unwrap();
    std::fs::write(truncated.join("model.safetensors"), &bytes[..bytes.len() / 2]).unwrap();
    let e = run(&truncated);
    assert!(e.contains("model.safetensors could not be read: it is not a valid safetensors file"), "{e}");
    std::fs::remove_dir_all(&dir).ok();
}
