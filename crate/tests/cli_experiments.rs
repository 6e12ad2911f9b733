//! `tblock ablate` and `tblock stream` on a trained model, as a course author would run them.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::{error, json, scratch};

#[test]
fn ablate_and_stream_print_the_promised_fields() {
    let dir = scratch("experiments");
    let model = dir.join("m");
    let m = model.to_str().unwrap();
    json(&["train", "--steps", "30", "--layers", "3", "--width", "16", "--out", m]);
    let a = json(&["ablate", "--weights", m]);
    assert!((a["uniform"].as_f64().unwrap() - 50f64.ln()).abs() < 1e-12);
    let e = json(&["eval", "--weights", m]);
    assert_eq!(a["intact"], e["loss"], "the same protocol as tblock eval");
    let blocks = a["blocks"].as_array().unwrap();
    assert_eq!(blocks.len(), 3);
    for (i, b) in blocks.iter().enumerate() {
        assert_eq!(b["block"], i);
        assert!(b["removed"].is_number() && b["overwritten"].is_number(), "{b}");
    }
    let s = json(&["stream", "--weights", m]);
    assert!(s["embedding_norm"].as_f64().unwrap() > 0.0);
    let blocks = s["blocks"].as_array().unwrap();
    assert_eq!(blocks.len(), 3);
    for key in [
        "stream_norm",
        "attention_norm",
        "attention_fraction",
        "feed_forward_norm",
        "feed_forward_fraction",
        "cosine_in_out",
    ] {
        assert!(blocks.iter().all(|b| b[key].is_number()), "{key}");
    }
    assert_eq!(blocks[0]["stream_norm"], s["embedding_norm"], "block 0 reads the tables' output");

    let short = dir.join("short.txt");
    std::fs::write(&short, "too short").unwrap();
    for command in ["ablate", "stream"] {
        let e = error(&[command, "--weights", m, "--text", short.to_str().unwrap()]);
        assert!(e.contains("text: has 9 symbols; at least one window of 17 is needed"), "{command}: {e}");
    }
    let e = error(&["ablate", "--weights", "/no/such/model"]);
    assert!(e.contains("cannot read /no/such/model"), "{e}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn race_prints_both_curves_and_a_verdict_per_seed() {
    let v = json(&["race", "--steps", "6", "--seeds", "1,2", "--eval-every", "3"]);
    assert_eq!(v["settings"]["layers"], 6);
    assert_eq!(v["settings"]["width"], 32);
    assert_eq!(v["settings"]["schedule"], "constant");
    let runs = v["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 2);
    for (run, seed) in runs.iter().zip([1, 2]) {
        assert_eq!(run["seed"], seed);
        assert_eq!(run["pre"]["norm"], "pre");
        assert_eq!(run["post"]["norm"], "post");
        assert_eq!(run["pre"]["losses"].as_array().unwrap().len(), 6);
        assert_eq!(run["post"]["held_out"].as_array().unwrap().len(), 3, "steps 0, 3 and 6");
        assert!(run["verdict"]["text"].as_str().unwrap().starts_with("At step 6, pre-LN is "), "{run}");
    }
    assert!(v["reference"]["bigram"].as_f64().unwrap() < v["reference"]["unigram"].as_f64().unwrap());
    let e = error(&["race", "--steps", "0"]);
    assert!(e.contains("steps 0 is out of range"), "{e}");
    let e = error(&["race", "--seeds", "1,x"]);
    assert!(e.contains("a seed is a whole number"), "{e}");
}

#[test]
fn latency_times_four_stacks_of_equal_parameters_and_the_attention_share() {
    let v = json(&["latency", "--reps", "2"]);
    let depth = v["depth"].as_array().unwrap();
    let shapes: Vec<(u64, u64)> =
        depth.iter().map(|d| (d["layers"].as_u64().unwrap(), d["width"].as_u64().unwrap())).collect();
    assert_eq!(shapes, [(6, 136), (12, 96), (24, 68), (48, 48)]);
    assert!(depth.iter().all(|d| d["runs"] == 2 && d["median_ms"].as_f64().unwrap() > 0.0));
    let shares = v["attention_share"].as_array().unwrap();
    assert_eq!(shares.len(), 4);
    assert!(shares.windows(2).all(|w| w[0]["flops_share"].as_f64() < w[1]["flops_share"].as_f64()));
    let e = error(&["latency", "--reps", "0"]);
    assert!(e.contains("repetitions 0 is out of range: time 1 to 1,000 runs"), "{e}");
}
