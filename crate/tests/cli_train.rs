//! `tblock train`, `eval` and `sample`, run as a course author would run them.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::{error, json, scratch, tblock};
use transformer_block::train::{Corpus, Vocabulary};

#[test]
fn train_writes_a_model_directory_that_eval_and_sample_read() {
    let dir = scratch("train");
    let out = dir.join("model");
    let o = out.to_str().unwrap();
    let v = json(&["train", "--steps", "40", "--seed", "3", "--out", o]);
    for key in [
        "steps",
        "seconds",
        "train_loss",
        "val_loss",
        "uniform_loss",
        "unigram_loss",
        "bigram_loss",
        "tokens_per_second",
    ] {
        assert!(v[key].is_number(), "{key} missing from {v}");
    }
    assert_eq!(v["steps"], 40);
    assert!((v["uniform_loss"].as_f64().unwrap() - 50f64.ln()).abs() < 1e-12);
    assert!(
        v["val_loss"].as_f64().unwrap() < v["uniform_loss"].as_f64().unwrap(),
        "40 steps already learn something: {v}"
    );
    for file in ["model.safetensors", "config.json", "vocab.json"] {
        assert!(out.join(file).exists(), "{file} written");
    }
    let config: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("config.json")).unwrap()).unwrap();
    assert_eq!(config["model_type"], "gpt2");
    assert_eq!(config["activation_function"], "gelu_new");
    assert_eq!(config["tie_word_embeddings"], true);

    // eval by the same protocol gives the same held-out loss; a text file is scored whole.
    let e = json(&["eval", "--weights", o]);
    assert_eq!(e["loss"], v["val_loss"]);
    let held_out = Corpus::lessons(&Vocabulary::lessons(), 16).held_out.len();
    assert_eq!(e["tokens"], 16 * (held_out / 17), "every whole window of 17 held-out symbols, 16 scored in each");
    let text = dir.join("text.txt");
    std::fs::write(&text, "the residual stream. ".repeat(10)).unwrap();
    let e = json(&["eval", "--weights", o, "--text", text.to_str().unwrap()]);
    assert_eq!(e["tokens"], 16 * (210 / 17));

    // The same run twice gives the same bytes.
    let again = dir.join("again");
    json(&["train", "--steps", "40", "--seed", "3", "--out", again.to_str().unwrap()]);
    assert_eq!(
        std::fs::read(out.join("model.safetensors")).unwrap(),
        std::fs::read(again.join("model.safetensors")).unwrap()
    );

    let s = tblock(&["sample", "--weights", o, "--prompt", "The ", "--length", "30", "--seed", "1"]);
    assert!(s.status.success(), "{}", String::from_utf8_lossy(&s.stderr));
    let text = String::from_utf8(s.stdout).unwrap();
    assert!(text.starts_with("The ") && text.trim_end_matches('\n').chars().count() >= 30, "{text:?}");
    assert_eq!(
        tblock(&["sample", "--weights", o, "--prompt", "The ", "--length", "30", "--seed", "1"]).stdout,
        text.as_bytes()
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn post_ln_and_f16_round_trip() {
    let dir = scratch("post");
    let o = dir.to_str().unwrap();
    let v = json(&[
        "train", "--steps", "5", "--norm", "post", "--dtype", "f16", "--layers", "1", "--width", "16", "--out", o,
    ]);
    assert_eq!(v["settings"]["norm"], "post");
    let config = std::fs::read_to_string(dir.join("config.json")).unwrap();
    assert!(config.contains("\"norm_placement\": \"post\""), "{config}");
    let bytes = std::fs::read(dir.join("model.safetensors")).unwrap();
    let m = transformer_block::nn::weights::load(&bytes, None).unwrap();
    assert_eq!(transformer_block::nn::weights::norm_placement(&m), transformer_block::nn::NormPlacement::Post);
    assert_eq!((m.blocks.len(), m.wte.ncols()), (1, 16));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_training_settings_say_what_is_allowed() {
    let dir = scratch("bad-train");
    let o = dir.join("m");
    let o = o.to_str().unwrap();
    let cases: [(&[&str], &str); 11] = [
        (&["--lr", "0"], "learning rate 0 is out of range: give a positive number up to 1"),
        (&["--lr", "-0.1"], "learning rate -0.1 is out of range"),
        (&["--lr", "NaN"], "learning rate NaN is out of range"),
        (&["--lr", "inf"], "learning rate inf is out of range"),
        (&["--steps", "0"], "steps 0 is out of range: train for 1 to 100,000 steps"),
        (&["--steps", "1000000000"], "steps 1,000,000,000 is out of range"),
        (&["--layers", "9"], "layers 9 is out of range: give 1 to 8 blocks"),
        (&["--width", "30"], "width 30 is out of range: give 16 to 128, a multiple of the 4 heads"),
        (&["--seed", "1.5"], "a seed is a whole number from 0 to 18446744073709551615, got \"1.5\""),
        (&["--seed", "-1"], "a seed is a whole number"),
        (&["--norm", "sideways"], "invalid value 'sideways'"),
    ];
    for (extra, expected) in cases {
        let mut args = vec!["train", "--out", o];
        args.extend_from_slice(extra);
        let e = error(&args);
        assert!(e.contains(expected), "{extra:?}: {e}");
    }
    let empty = dir.join("empty.txt");
    std::fs::write(&empty, "").unwrap();
    let e = error(&["train", "--out", o, "--text", empty.to_str().unwrap()]);
    assert!(e.contains("text: the text is empty; give at least 170"), "{e}");
    let e = error(&["train", "--out", o, "--text", "/no/such/text.txt"]);
    assert!(e.contains("cannot read /no/such/text.txt"), "{e}");
    let binary = dir.join("binary.txt");
    std::fs::write(&binary, [0x66, 0x6f, 0xff, 0xfe]).unwrap();
    let e = error(&["train", "--out", o, "--text", binary.to_str().unwrap()]);
    assert!(e.contains("not UTF-8 text"), "{e}");
    let e = error(&["eval", "--weights", "/no/such/dir"]);
    assert!(e.contains("cannot read /no/such/dir: no such file"), "{e}");
    let e = error(&["sample", "--weights", "/no/such/dir", "--temperature", "-1"]);
    assert!(e.contains("cannot read"), "{e}");
    std::fs::remove_dir_all(&dir).ok();
}

/// The checkpoint the page test drops into <tb-tiny-gpt> (tests/e2e/fixtures/checkpoint, written by
/// `tblock train --seed 0 --steps 300 --layers 1 --width 16 --heads 2`) and what `tblock sample`
/// writes with it, which the page must write too (tests/e2e/checkpoint.spec.js).
#[test]
fn the_page_tests_checkpoint_samples_as_recorded() {
    let fixtures = format!("{}/../tests/e2e/fixtures", env!("CARGO_MANIFEST_DIR"));
    let out = tblock(&[
        "sample",
        "--weights",
        &format!("{fixtures}/checkpoint"),
        "--prompt",
        "the residual",
        "--length",
        "80",
        "--temperature",
        "0.8",
        "--seed",
        "1",
    ]);
    let recorded = std::fs::read_to_string(format!("{fixtures}/checkpoint-sample.txt")).unwrap();
    assert_eq!(String::from_utf8(out.stdout).unwrap(), recorded);
}
