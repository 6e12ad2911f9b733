//! `tblock eval | ablate | stream` on Hugging Face checkpoint directories, as an ML engineer would
//! run them on the model they ship: what the JSON says was measured, `--plan`, and every bad input
//! the issue names, each a message and never a panic.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::path::{Path, PathBuf};

use common::{error, json, scratch};
use tb_kernels::product::Isa;
use transformer_block::nn::compute::Compute;

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
    assert!(e.contains("--threads and --compute are for Hugging Face checkpoint directories"), "{e}");
}

#[test]
fn compute_is_f32_or_bf16_and_the_json_says_which() {
    let (qwen, text) = (fixtures().join("qwen2"), fixtures().join("eval.txt"));
    let f32_run = json(&["eval", "--weights", s(&qwen), "--text", s(&text), "--context", "32", "--compute", "f32"]);
    assert_eq!(f32_run["measured"]["compute"], "f32");
    assert_eq!(f32_run["measured"]["compute_reason"], "asked for (--compute f32)");
    let bf16_run = json(&["eval", "--weights", s(&qwen), "--text", s(&text), "--context", "32", "--compute", "bf16"]);
    let compute = bf16_run["measured"]["compute"].as_str().unwrap().to_string();
    // The fastest instruction set this CPU has (TBLOCK_ISA unset in the tests).
    assert_eq!(compute, format!("bf16 ({})", Isa::chosen().name()));
    let (a, b) = (f32_run["loss"].as_f64().unwrap(), bf16_run["loss"].as_f64().unwrap());
    assert!(a != b && (a - b).abs() < 1e-3, "f32 {a}, bf16 {b}");
    let plan = json(&["ablate", "--weights", s(&qwen), "--plan", "--compute", "bf16"]);
    assert_eq!(plan["plan"]["compute"], compute.as_str());
    let e = error(&["eval", "--weights", s(&qwen), "--compute", "fp8"]);
    assert!(e.contains("invalid value 'fp8'") && e.contains("[possible values: auto, f32, bf16]"), "{e}");
    let tiny = fixtures().join("../tiny-gpt-seed-0.safetensors");
    let e = error(&["eval", "--weights", s(&tiny), "--compute", "bf16"]);
    assert!(e.contains("--compute are for Hugging Face checkpoint directories") && e.contains("in f32"), "{e}");
}

/// `tblock eval` on `family`'s fixture with `TBLOCK_ISA` set (the CPU's features forced down) or
/// not, and no --compute: its `measured`.
fn auto_run(family: &str, isa: Option<&str>) -> serde_json::Value {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_tblock"));
    let (weights, text) = (fixtures().join(family), fixtures().join("eval.txt"));
    command.args(["eval", "--weights", s(&weights), "--text", s(&text), "--context", "32"]);
    if let Some(isa) = isa {
        command.env("TBLOCK_ISA", isa);
    }
    let out = command.output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let run: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    run["measured"].clone()
}

#[test]
fn auto_is_the_checkpoint_s_own_precision_where_the_cpu_multiplies_it() {
    // Llama's fixture stores bf16: bf16 products on a CPU with bf16 instructions, else f32.
    let native = Isa::available().into_iter().find(|&isa| Compute::bf16_is_native(isa));
    let m = auto_run("llama", None);
    match native {
        Some(isa) => {
            assert_eq!(m["compute"], format!("bf16 ({})", isa.name()));
            assert_eq!(
                m["compute_reason"],
                format!("auto: the checkpoint stores bf16, and this CPU multiplies bf16 natively ({})", isa.name())
            );
            let forced = auto_run("llama", Some("avx512bf16"));
            assert_eq!(forced["compute"], "bf16 (avx512bf16)");
        }
        None => assert_eq!(m["compute"], "f32"),
    }
    // The CPU's bf16 instructions taken away: f32, and it says why.
    let without = auto_run("llama", Some("portable"));
    assert_eq!(without["compute"], "f32");
    assert_eq!(
        without["compute_reason"],
        "auto: the checkpoint stores bf16, but this CPU has no bf16 instructions (its bf16 products would run on portable), so f32"
    );
    // f32 and f16 files run in f32, whatever the CPU has.
    let gpt2 = auto_run("gpt2", None);
    assert_eq!((gpt2["dtype"].as_str(), gpt2["compute"].as_str()), (Some("f32"), Some("f32")));
    assert_eq!(gpt2["compute_reason"], "auto: the checkpoint stores f32");
    let qwen = auto_run("qwen2", None);
    assert_eq!((qwen["dtype"].as_str(), qwen["compute"].as_str()), (Some("f16"), Some("f32")));
    assert_eq!(qwen["compute_reason"], "auto: the checkpoint stores f16, which tblock multiplies in f32");
}

#[test]
fn a_run_that_would_not_fit_is_refused_before_it_reads_a_weight() {
    let (llama, text) = (fixtures().join("llama"), fixtures().join("eval.txt"));
    let plan = json(&["ablate", "--weights", s(&llama), "--text", s(&text), "--context", "32", "--plan"]);
    let memory = &plan["plan"]["memory"];
    let (mapped, working) = (memory["mapped_bytes"].as_u64().unwrap(), &memory["working"]);
    assert_eq!(mapped, plan["plan"]["mapped_bytes"].as_u64().unwrap());
    // One stream of 32 positions x width 48 x 4 bytes kept for the ablation; none for eval.
    assert_eq!(working["kept_streams"], 32 * 48 * 4);
    let parts = ["block_copy", "activations", "head", "kept_streams"].map(|k| working[k].as_u64().unwrap());
    assert_eq!(working["total"].as_u64().unwrap(), parts.iter().sum::<u64>());
    assert_eq!(plan["plan"]["fits"], true);
    let eval = json(&["eval", "--weights", s(&llama), "--text", s(&text), "--context", "32", "--plan"]);
    assert_eq!(eval["plan"]["memory"]["working"]["kept_streams"], 0);
    assert_eq!(plan["plan"]["blocks_run_per_window"], 12, "3 intact, then 2 + 3 + 1 + 2 + 0 + 1");
    // A machine with less memory than the checkpoint itself: refused, both numbers and the ways down
    // (bf16 compute among them when the run widens the bf16 weights to f32).
    let refusal = |compute: &str| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_tblock"))
            .args(["eval", "--weights", s(&llama), "--text", s(&text), "--compute", compute])
            .env("TBLOCK_MEMORY", (mapped / 2).to_string())
            .output()
            .unwrap();
        let e = String::from_utf8_lossy(&out.stderr).to_string();
        assert!(!out.status.success() && out.stdout.is_empty(), "{e}");
        assert!(e.contains("this run expects a peak of") && e.contains("checkpoint mapped"), "{e}");
        e
    };
    let e = refusal("f32");
    assert!(e.contains("available (TBLOCK_MEMORY): a smaller --context holds less; --compute bf16"), "{e}");
    let e = refusal("bf16");
    assert!(e.trim_end().ends_with("a smaller --context holds less"), "{e}");
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
    assert!(
        e.contains("--context, --plan, --threads and --compute are for Hugging Face checkpoint directories"),
        "{e}"
    );
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

#[test]
fn inspect_reads_a_checkpoint_folder_as_transformers_shows_it() {
    // The numbers themselves are checked against transformers in checkpoints.rs; here the command:
    // the tokens as the tokenizer cut them, the shapes, the next tokens as text, the model.
    let llama = fixtures().join("llama");
    let text = "Attention mixes positions.";
    let r = json(&["inspect", "--weights", s(&llama), "--text", text]);
    let tokens: Vec<String> = serde_json::from_value(r["tokens"].clone()).unwrap();
    assert_eq!(tokens.concat(), text, "the tokens put back together are the text");
    let t = tokens.len();
    assert_eq!(r["ids"].as_array().unwrap().len(), t);
    let attentions = r["attentions"].as_array().unwrap();
    assert_eq!(attentions.len(), 3, "a map per block");
    assert_eq!(attentions[0].as_array().unwrap().len(), 4, "a map per head");
    assert_eq!(attentions[2][3].as_array().unwrap().len(), t);
    assert_eq!(r["hidden_states"].as_array().unwrap().len(), 4, "entering each block, and after the last");
    assert_eq!(r["hidden_states"][0][0].as_array().unwrap().len(), 48);
    let next = r["next"].as_array().unwrap();
    assert_eq!(next.len(), 10);
    assert!(next.iter().all(|n| n["token"].is_string() && n["probability"].as_f64().is_some_and(|p| p > 0.0)));
    assert_eq!(r["model"]["family"], "llama");
    assert_eq!(r["model"]["dtype"], "bf16");
    // Too long, and empty: refused with what is allowed.
    let long = "Attention mixes positions. ".repeat(20);
    let e = error(&["inspect", "--weights", s(&llama), "--text", &long]);
    assert!(e.contains("tokens to inspect") && e.contains("1 to 64"), "{e}");
    let e = error(&["inspect", "--weights", s(&llama), "--text", ""]);
    assert!(e.contains("the text is empty"), "{e}");
}
