//! `tblock inspect`, `heads` and `sample`'s sampler settings, run as a course author would run them.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::{error, json, scratch, tblock};
use serde_json::Value;

/// The shape of a nested list of numbers.
fn shape(v: &Value) -> Vec<usize> {
    match v {
        Value::Array(xs) => {
            let mut s = vec![xs.len()];
            s.extend(xs.first().map(shape).unwrap_or_default());
            s
        }
        _ => vec![],
    }
}

fn flat(v: &Value) -> Vec<f32> {
    match v {
        Value::Array(xs) => xs.iter().flat_map(flat).collect(),
        x => vec![x.as_f64().expect("a number") as f32],
    }
}

#[test]
fn inspect_prints_what_transformers_names_and_every_tensor() {
    let v = json(&["inspect", "--model", "shipped", "--text", "the residual"]);
    assert_eq!(v["text"], "the residual");
    assert_eq!(v["ids"], serde_json::json!([42, 30, 27, 1, 40, 27, 41, 31, 26, 43, 23, 34]));
    assert_eq!(shape(&v["attentions"]), [2, 4, 12, 12]);
    assert_eq!(shape(&v["hidden_states"]), [3, 12, 32]);
    let b = &v["blocks"][1];
    for (key, want) in [
        ("q", vec![4, 12, 8]),
        ("scores", vec![4, 12, 12]),
        ("weights", vec![4, 12, 12]),
        ("heads", vec![12, 32]),
        ("hidden", vec![12, 128]),
        ("hidden_gelu", vec![12, 128]),
        ("output", vec![12, 32]),
    ] {
        assert_eq!(shape(&b[key]), want, "{key}");
    }
    assert_eq!(shape(&b["ln_1"]["input_spread"]), [12]);
    assert_eq!(shape(&b["stream_sizes"]["after_feed_forward_add"]), [12]);
    assert_eq!(shape(&v["probabilities"]), [12, 50]);
    assert_eq!(flat(&v["attentions"])[2 * 4 * 144 - 144..], flat(&b["weights"])[3 * 144..]);
    // The last hidden state is after the final norm, as transformers gives it.
    assert_eq!(flat(&v["hidden_states"])[2 * 12 * 32..], flat(&v["ln_f"]["output"])[..]);

    // The page's tests read the shipped model's weights for this text from a file made by this command.
    let path = format!("{}/../tests/e2e/fixtures/attention-shipped.json", env!("CARGO_MANIFEST_DIR"));
    let recorded: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert_eq!((&recorded["text"], &recorded["ids"]), (&v["text"], &v["ids"]));
    assert_eq!(
        flat(&recorded["attentions"]),
        flat(&v["attentions"]),
        "re-record tests/e2e/fixtures/attention-shipped.json"
    );
}

#[test]
fn inspect_refuses_what_it_cannot_read_and_names_unknown_characters() {
    let e = error(&["inspect", "--model", "shipped", "--text", "abcdefghijklmnopq"]);
    assert_eq!(
        e.trim(),
        "tblock: text of 17 characters is out of range: the model reads at most 16 characters at once: shorten it"
    );
    let e = error(&["inspect", "--model", "shipped", "--text", ""]);
    assert!(e.contains("type at least one character"), "{e}");
    let e = error(&["inspect", "--weights", "/no/such/dir", "--text", "a"]);
    assert!(e.contains("no such file"), "{e}");
    // A checkpoint whose vocabulary is not its token table's shape.
    let dir = scratch("inspect-shape");
    let fixture = format!("{}/../tests/e2e/fixtures/checkpoint", env!("CARGO_MANIFEST_DIR"));
    for name in ["model.safetensors", "config.json"] {
        std::fs::copy(format!("{fixture}/{name}"), dir.join(name)).unwrap();
    }
    std::fs::write(dir.join("vocab.json"), r#"{"a": 0, "b": 1, "\ufffd": 2}"#).unwrap();
    let e = error(&["inspect", "--weights", dir.to_str().unwrap(), "--text", "ab"]);
    assert!(e.contains("the vocabulary has 3 symbols but the model's token table has 50 rows"), "{e}");
    let out = tblock(&["inspect", "--model", "six-blocks", "--text", "Ärger über"]);
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(
            "the characters at positions 0, 6 (counting from 0, as `unknown` does) are not in the vocabulary: read as the catch-all symbol U+FFFD"
        ),
        "{stderr}"
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((v["unknown"].clone(), shape(&v["attentions"])), (serde_json::json!([0, 6]), vec![6, 4, 10, 10]));
}

fn sample(extra: &[&str]) -> String {
    let mut args = vec!["sample", "--model", "shipped", "--prompt", "the ", "--length", "80"];
    args.extend_from_slice(extra);
    let out = tblock(&args);
    assert!(out.status.success(), "{extra:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn top_k_one_is_greedy_and_every_character_kept_is_plain_sampling() {
    let greedy = sample(&["--temperature", "0"]);
    for seed in ["0", "7"] {
        for t in ["0.5", "3"] {
            assert_eq!(sample(&["--top-k", "1", "--temperature", t, "--seed", seed]), greedy);
        }
    }
    for seed in ["1", "2"] {
        assert_eq!(
            sample(&["--top-k", "50", "--top-p", "1", "--temperature", "1.2", "--seed", seed]),
            sample(&["--temperature", "1.2", "--seed", seed])
        );
    }
    assert_ne!(sample(&["--top-k", "3", "--seed", "1"]), sample(&["--seed", "1"]), "top-k changes what is drawn");
    // What the page's wasm test expects for these settings (crate/tests/web_inspect.rs).
    let recorded = include_str!("fixtures/sample-shipped-top-k-8-top-p-0.9.txt");
    let now = tblock(&[
        "sample",
        "--model",
        "shipped",
        "--prompt",
        "the stream",
        "--length",
        "60",
        "--temperature",
        "0.9",
        "--top-k",
        "8",
        "--top-p",
        "0.9",
        "--seed",
        "5",
    ]);
    assert_eq!(String::from_utf8(now.stdout).unwrap(), recorded);
}

/// The output is exactly the prompt and what the model added, then one newline: a space the model
/// ends on is part of the text (tblock once trimmed every output's end and dropped it).
#[test]
fn greedy_sampling_that_ends_on_a_space_keeps_the_space() {
    let run = |length: usize| {
        let out = tblock(&[
            "sample",
            "--model",
            "shipped",
            "--prompt",
            "the ",
            "--length",
            &length.to_string(),
            "--temperature",
            "0",
        ]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    let long = run(60);
    let added: Vec<char> = long.strip_prefix("the ").unwrap().strip_suffix('\n').unwrap().chars().collect();
    assert_eq!(added.len(), 60, "{long:?}");
    // Greedy sampling is a prefix of itself: the first space the model writes ends a shorter run.
    let space = added.iter().position(|&c| c == ' ').expect("the shipped model writes a space within 60 characters");
    let short = run(space + 1);
    let expected: String = added[..=space].iter().collect();
    assert_eq!(short, format!("the {expected}\n"));
    assert!(short.ends_with(" \n"), "{short:?}");
}

#[test]
fn bad_sampler_settings_say_what_is_allowed() {
    for (flag, value, says) in [
        ("--top-k", "0", "top-k 0 is out of range: keep from 1 (the likeliest only) up to 50 (every character)"),
        ("--top-k", "51", "top-k 51 is out of range"),
        ("--top-p", "0", "top-p 0 is out of range: give a share above 0 and at most 1"),
        ("--top-p", "1.5", "top-p 1.5 is out of range"),
        ("--top-p", "NaN", "top-p NaN is out of range"),
        ("--temperature", "-1", "temperature -1 is out of range: give 0 (always the likeliest) to 10"),
        ("--temperature", "inf", "temperature inf is out of range"),
    ] {
        let e = error(&["sample", "--model", "shipped", flag, value]);
        assert!(e.contains(says), "{flag} {value}: {e}");
    }
    assert!(error(&["sample", "--model", "shipped", "--top-k", "-3"]).contains("whole number"));
    assert!(error(&["sample", "--model", "huge"]).contains("possible values: shipped, six-blocks"));
}

#[test]
fn heads_names_the_standouts_among_every_head() {
    let v = json(&["heads", "--model", "shipped"]);
    let heads = v["heads"].as_array().unwrap();
    assert_eq!(heads.len(), 8);
    assert_eq!(v["queries"], v["windows"].as_u64().unwrap() * 15);
    let best = heads.iter().map(|h| h["previous"].as_f64().unwrap()).fold(0.0, f64::max);
    assert_eq!(v["standouts"]["previous"]["previous"].as_f64().unwrap(), best);
    // Trained: some head looks at the previous character far more than an even spread would.
    assert!(best > 2.0 * v["even_share"].as_f64().unwrap(), "{best}");
}
