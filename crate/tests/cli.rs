//! `tblock`, run as a course author would run it.

mod common;

use common::{error, json, scratch, tblock};

fn fixture(name: &str) -> String {
    format!("{}/tests/fixtures/hf/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn presets_lists_all_eight() {
    let v = json(&["presets"]);
    let names: Vec<&str> = v.as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        ["tiny-gpt", "gpt2-small", "gpt2-medium", "gpt2-large", "gpt2-xl", "llama3-8b", "llama3-70b", "mixtral-8x7b"]
    );
    let table = String::from_utf8(tblock(&["presets", "--format", "table"]).stdout).unwrap();
    assert_eq!(table.lines().count(), 8);
}

#[test]
fn count_prints_the_promised_fields() {
    let v = json(&["count", "gpt2-small", "--seq-len", "1024"]);
    assert_eq!(v["model"], "gpt2-small");
    assert_eq!(v["total_params"], 124_439_808u64);
    assert_eq!(v["non_embedding_params"], 85_056_000u64);
    assert_eq!(v["active_params"], 124_439_808u64);
    assert_eq!(v["forward_flops_per_token"], 285_055_488.0);
    assert_eq!(v["training_flops_per_token"], 3.0 * 285_055_488.0);
    let components = v["components"].as_array().unwrap();
    let w_q = components.iter().find(|c| c["name"] == "W_Q").unwrap();
    assert_eq!(w_q["params"], 12 * 768 * 768);
    let sum: u64 = components.iter().map(|c| c["params"].as_u64().unwrap()).sum();
    assert_eq!(sum, 124_439_808);
    let scores = v["activations"].as_array().unwrap().iter().find(|a| a["key"] == "scores").unwrap();
    assert_eq!(scores["shape"], serde_json::json!([1, 12, 1024, 1024]));
}

#[test]
fn every_family_round_trips_through_a_config_file() {
    for (file, total) in [
        ("gpt2.json", 124_439_808u64),
        ("llama3-8b.json", 8_030_261_248),
        ("mistral-7b.json", 7_241_732_096),
        ("mixtral-8x7b.json", 46_702_792_704),
        ("qwen2-0.5b.json", 494_032_768),
        ("pythia-160m.json", 162_322_944),
    ] {
        let v = json(&["count", &fixture(file), "--batch", "2"]);
        assert_eq!(v["total_params"], total, "{file}");
        assert_eq!(v["batch"], 2);
    }
}

#[test]
fn table_format_is_for_people() {
    let out = tblock(&["count", "gpt2-small", "--format", "table"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("GPT-2 small (gpt2-small): 124,439,808 parameters"), "{text}");
    assert!(text.contains("4d² + 4d") && text.contains("2,362,368") && text.contains("28,348,416"), "{text}");
}

/// The snippet `--format html` prints for a config.json: the page test (tests/e2e/your-model.spec.js)
/// pastes this very file into a page and reads the count back. `TB_UPDATE_SNIPPET=1 cargo test`
/// rewrites it after a deliberate change.
#[test]
fn html_format_prints_the_snippet_the_page_test_pastes() {
    let out = tblock(&["count", &fixture("qwen2-0.5b.json"), "--seq-len", "16", "--format", "html"]);
    let html = String::from_utf8(out.stdout).unwrap();
    let committed = format!("{}/../tests/e2e/fixtures/qwen2-0.5b-anatomy.html", env!("CARGO_MANIFEST_DIR"));
    if std::env::var_os("TB_UPDATE_SNIPPET").is_some() {
        std::fs::write(&committed, &html).unwrap();
    }
    assert_eq!(html, std::fs::read_to_string(&committed).unwrap(), "run TB_UPDATE_SNIPPET=1 cargo test to update it");
    assert!(
        html.contains("494,032,768 parameters") && html.contains("config-src=\"#tb-config-qwen2-98e1e43a\""),
        "{html}"
    );
    let preset = String::from_utf8(tblock(&["count", "llama3-8b", "--format", "html"]).stdout).unwrap();
    assert!(preset.ends_with("<tb-anatomy model=\"llama3-8b\" seq-len=\"8\"></tb-anatomy>\n"), "{preset}");
    let e = error(&["presets", "--format", "html"]);
    assert!(e.contains("--format html is for count"), "{e}");
}

#[test]
fn bad_input_gets_a_message_and_a_failing_exit() {
    let e = error(&["count", "gpt5"]);
    assert!(e.contains("unknown model \"gpt5\": choose one of tiny-gpt, gpt2-small"), "{e}");
    let e = error(&["count", "gpt2-small", "--seq-len", "0"]);
    assert!(e.contains("seq_len 0 is out of range: GPT-2 small accepts 1 to 1,024 tokens"), "{e}");
    let e = error(&["count", "gpt2-small", "--seq-len", "-3"]);
    assert!(e.contains("must be a whole number of at least 1, got \"-3\""), "{e}");
    let e = error(&["count", "gpt2-small", "--batch", "abc"]);
    assert!(e.contains("must be a whole number of at least 1, got \"abc\""), "{e}");
    let e = error(&["count", "/no/such/config.json"]);
    assert!(e.contains("cannot read /no/such/config.json: no such file"), "{e}");

    let dir = std::env::temp_dir().join(format!("tblock-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let t5 = dir.join("t5.json");
    std::fs::write(&t5, r#"{"model_type": "t5"}"#).unwrap();
    let e = error(&["count", t5.to_str().unwrap()]);
    assert!(e.contains("model_type \"t5\" is not supported: supported families are gpt2, llama"), "{e}");
    let broken = dir.join("broken.json");
    std::fs::write(&broken, "{ \"model_type\": ").unwrap();
    let e = error(&["count", broken.to_str().unwrap()]);
    assert!(e.contains("config.json could not be read"), "{e}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn forward_prints_one_row_of_logits_per_position() {
    let v = json(&["forward", "--seed", "0", "--ids", "3,1,4,1,5", "--hidden"]);
    let logits = v["logits"].as_array().unwrap();
    assert_eq!(logits.len(), 5);
    assert!(logits.iter().all(|r| r.as_array().unwrap().len() == 50));
    assert_eq!(v["hidden"].as_array().unwrap()[0].as_array().unwrap().len(), 32);
    // Without the causal mask the first position sees the later ones, so its logits change.
    let enc = json(&["forward", "--seed", "0", "--ids", "3,1,4,1,5", "--encoder"]);
    assert_ne!(enc["logits"][0], v["logits"][0]);
    assert_eq!(json(&["forward", "--seed", "0", "--ids", "3,1,4,1,9"])["logits"][0], v["logits"][0]);
}

#[test]
fn init_then_forward_from_the_file_gives_the_seeded_logits() {
    let dir = scratch("init");
    let file = dir.join("tiny.safetensors");
    let out = tblock(&["init", "--seed", "5", "--out", file.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("27,328 parameters, seed 5"));
    let from_file = json(&["forward", "--weights", file.to_str().unwrap(), "--ids", "3,1,4"]);
    assert_eq!(from_file, json(&["forward", "--seed", "5", "--ids", "3,1,4"]));

    // A config.json beside the weights is used for what the tensors cannot tell: here a head count
    // that does not divide the width, which the loader must refuse, naming the field.
    std::fs::write(
        dir.join("config.json"),
        r#"{"model_type":"gpt2","vocab_size":50,"n_positions":16,"n_embd":32,"n_layer":2,"n_head":5}"#,
    )
    .unwrap();
    let e = error(&["forward", "--weights", file.to_str().unwrap(), "--ids", "3"]);
    assert!(e.contains("config.json: n_head: 5 heads do not divide n_embd = 32"), "{e}");
    // --config wins over the file beside.
    let good = dir.join("good.json");
    std::fs::write(
        &good,
        r#"{"model_type":"gpt2","vocab_size":50,"n_positions":16,"n_embd":32,"n_layer":2,"n_head":4}"#,
    )
    .unwrap();
    let v =
        json(&["forward", "--weights", file.to_str().unwrap(), "--config", good.to_str().unwrap(), "--ids", "3,1,4"]);
    assert_eq!(v, from_file);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn forward_refuses_bad_ids_and_files() {
    let e = error(&["forward", "--seed", "0", "--ids", "3,1,50"]);
    assert!(e.contains("token id 50 is out of range: ids run from 0 to 49"), "{e}");
    let e = error(&["forward", "--seed", "0", "--ids", "3,-1"]);
    assert!(e.contains("token ids are whole numbers from 0, got \"-1\""), "{e}");
    let e = error(&["forward", "--seed", "0", "--ids", &["1"; 17].join(",")]);
    assert!(e.contains("sequence length 17 is out of range"), "{e}");
    let e = error(&["forward", "--weights", "/no/such.safetensors", "--ids", "1"]);
    assert!(e.contains("cannot read /no/such.safetensors"), "{e}");
    let dir = scratch("bad");
    let junk = dir.join("junk.safetensors");
    std::fs::write(&junk, b"definitely not safetensors").unwrap();
    let e = error(&["forward", "--weights", junk.to_str().unwrap(), "--ids", "1"]);
    assert!(e.contains("the weights file could not be read: it is not a valid safetensors file"), "{e}");
    std::fs::remove_dir_all(&dir).ok();
}
