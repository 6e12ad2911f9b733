//! Hugging Face config.json import: the count of each released checkpoint, and clear errors.

use transformer_block::config::{ModelConfig, PositionScheme};
use transformer_block::count::count_params;

fn fixture(name: &str) -> String {
    let path = format!("{}/tests/fixtures/hf/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn import(json: &str) -> Result<ModelConfig, String> {
    ModelConfig::from_hf_config_json(json).map_err(|e| e.to_string())
}

#[test]
fn each_family_counts_its_released_checkpoint_exactly() {
    let cases = [
        ("gpt2.json", 124_439_808u64, 124_439_808u64),
        ("llama3-8b.json", 8_030_261_248, 8_030_261_248),
        ("tinyllama-1.1b.json", 1_100_048_384, 1_100_048_384),
        ("mistral-7b.json", 7_241_732_096, 7_241_732_096),
        ("mixtral-8x7b.json", 46_702_792_704, 12_879_925_248),
        ("qwen2-0.5b.json", 494_032_768, 494_032_768),
        ("qwen2-7b.json", 7_615_616_512, 7_615_616_512),
        ("pythia-160m.json", 162_322_944, 162_322_944),
        ("pythia-70m.json", 70_426_624, 70_426_624),
    ];
    for (file, total, active) in cases {
        let config = import(&fixture(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        let c = count_params(&config).unwrap();
        assert_eq!(c.total, total, "{file}");
        assert_eq!(c.active, active, "{file}");
    }
}

#[test]
fn imported_configs_equal_the_presets() {
    for (file, preset) in
        [("gpt2.json", "gpt2-small"), ("llama3-8b.json", "llama3-8b"), ("mixtral-8x7b.json", "mixtral-8x7b")]
    {
        let imported = import(&fixture(file)).unwrap();
        let preset = ModelConfig::preset(preset).unwrap();
        assert_eq!(count_params(&imported).unwrap(), count_params(&preset).unwrap(), "{file}");
    }
}

#[test]
fn family_conventions_that_the_config_does_not_state() {
    // GPT-2: tie_word_embeddings absent means tied; n_inner absent means 4d.
    let gpt2 = import(&fixture("gpt2.json")).unwrap();
    assert!(gpt2.tied_output);
    assert_eq!(gpt2.d_ff, 3072);
    assert_eq!(gpt2.positions, PositionScheme::Learned);
    // Qwen2 always has q, k, v biases and none on the output projection.
    let qwen = import(&fixture("qwen2-0.5b.json")).unwrap();
    assert!(qwen.bias.qkv && !qwen.bias.attention_out && !qwen.bias.feed_forward);
    // GPT-NeoX has a separate output head unless told otherwise, and biases everywhere.
    let neox = import(&fixture("pythia-70m.json")).unwrap();
    assert!(!neox.tied_output && neox.bias.qkv && neox.bias.attention_out);
    // Llama's attention_bias puts a bias on q, k, v and o.
    let with_bias = fixture("llama3-8b.json").replace("\"attention_bias\": false", "\"attention_bias\": true");
    let c = count_params(&import(&with_bias).unwrap()).unwrap();
    assert_eq!(c.total, 8_030_261_248 + 32 * (4096 + 1024 + 1024 + 4096));
    // An omitted num_key_value_heads means one per query head.
    let mha = fixture("llama3-8b.json").replace("\"num_key_value_heads\": 8,", "");
    assert_eq!(import(&mha).unwrap().n_kv_heads, 32);
    // An explicit head_dim may make h · d_head differ from d (as in Mistral NeMo).
    let nemo =
        fixture("mistral-7b.json").replace("\"hidden_size\": 4096,", "\"hidden_size\": 5120, \"head_dim\": 128,");
    let nemo = import(&nemo).unwrap();
    assert_eq!((nemo.q_width(), nemo.d_model), (4096, 5120));
    let gpt2_untied = fixture("gpt2.json").replace("\"model_type\"", "\"tie_word_embeddings\": false, \"model_type\"");
    assert_eq!(count_params(&import(&gpt2_untied).unwrap()).unwrap().total, 124_439_808 + 38_597_376);
}

#[test]
fn unsupported_family_lists_the_supported_ones() {
    let e = import(r#"{"model_type": "t5", "d_model": 512}"#).unwrap_err();
    assert_eq!(
        e,
        "model_type \"t5\" is not supported: supported families are gpt2, llama, mistral, mixtral, qwen2, gpt_neox"
    );
}

#[test]
fn missing_and_malformed_fields_are_named() {
    let cases: [(&str, &str); 10] = [
        (r#"{"n_embd": 768}"#, "model_type: is missing"),
        (r#"{"model_type": 7}"#, "model_type: must be a string, got 7"),
        (
            r#"{"model_type": "gpt2", "n_head": 12, "n_layer": 12, "vocab_size": 50257, "n_positions": 1024}"#,
            "n_embd: is missing: it must be a positive integer",
        ),
        (r#"{"model_type": "gpt2", "n_embd": -768, "n_head": 12}"#, "n_embd: must be a positive integer, got -768"),
        (r#"{"model_type": "gpt2", "n_embd": 768.5, "n_head": 12}"#, "n_embd: must be a positive integer, got 768.5"),
        (r#"{"model_type": "gpt2", "n_embd": "768", "n_head": 12}"#, "n_embd: must be a positive integer, got \"768\""),
        (r#"{"model_type": "gpt2", "n_embd": 0, "n_head": 12}"#, "n_embd: must be a positive integer, got 0"),
        ("[1, 2]", "config.json could not be read: expected a JSON object { ... }"),
        ("{ not json", "config.json could not be read: key must be a string"),
        (
            r#"{"model_type": "gpt2", "n_embd": 768, "n_head": 12, "add_cross_attention": true}"#,
            "add_cross_attention: is true",
        ),
    ];
    for (json, expected) in cases {
        let e = import(json).unwrap_err();
        assert!(e.starts_with(expected), "{json}\n  gave: {e}\n  want: {expected}");
    }
}

#[test]
fn inconsistent_head_counts_are_refused() {
    let e = import(&fixture("gpt2.json").replace("\"n_head\": 12", "\"n_head\": 7")).unwrap_err();
    assert_eq!(e, "n_head: 7 heads do not divide n_embd = 768: the width must split evenly across the heads");
    let e = import(&fixture("llama3-8b.json").replace("\"num_key_value_heads\": 8", "\"num_key_value_heads\": 6"))
        .unwrap_err();
    assert_eq!(
        e,
        "num_key_value_heads: 6 key/value heads do not divide num_attention_heads = 32: allowed are the divisors of 32"
    );
    let e = import(&fixture("pythia-70m.json").replace("\"num_attention_heads\": 8", "\"num_attention_heads\": 5"))
        .unwrap_err();
    assert!(e.starts_with("num_attention_heads: 5 heads do not divide hidden_size = 512"), "{e}");
    let e = import(&fixture("mixtral-8x7b.json").replace("\"num_experts_per_tok\": 2", "\"num_experts_per_tok\": 9"))
        .unwrap_err();
    assert_eq!(e, "num_experts_per_tok: 9 is more than num_local_experts = 8: allowed are 1 to 8");
    let e =
        import(&fixture("llama3-8b.json").replace("\"tie_word_embeddings\": false", "\"tie_word_embeddings\": \"no\""))
            .unwrap_err();
    assert_eq!(e, "tie_word_embeddings: must be true or false, got \"no\"");
}

#[test]
fn preset_or_json_dispatch() {
    assert_eq!(ModelConfig::from_preset_or_json(" gpt2-small ").unwrap().name, "gpt2-small");
    assert_eq!(ModelConfig::from_preset_or_json(&fixture("pythia-70m.json")).unwrap().family, "gpt_neox");
}
