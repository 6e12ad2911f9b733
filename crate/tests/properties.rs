//! Property tests: whatever a reader types or an author writes reaches these functions (the facade
//! in src/web.rs only converts JavaScript values to these types, numbers through
//! `numbers::whole_number`), and for any input the answer is a result or an error whose message
//! says what is allowed, short enough to show; never a panic (which in the page would poison the
//! wasm instance for every widget). Native only: `wasm-pack test` builds every test for wasm32,
//! where proptest is not a dependency.
#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use transformer_block::config::ModelConfig;
use transformer_block::cost::training_run;
use transformer_block::examples;
use transformer_block::numbers::whole_number;
use transformer_block::Report;

/// Any f64 a JavaScript number can be: NaN, ±inf, subnormals, ±0, huge, tiny, and ordinary ones.
fn any_number() -> impl Strategy<Value = f64> {
    prop_oneof![
        Just(f64::NAN),
        Just(f64::INFINITY),
        Just(f64::NEG_INFINITY),
        Just(-0.0),
        Just(0.0),
        Just(f64::MIN_POSITIVE / 4.0),
        Just(f64::MAX),
        Just(9_007_199_254_740_993.0),
        -1e6..1e6f64,
        any::<f64>(),
        (0u32..70).prop_map(|e| 2f64.powi(e as i32)),
    ]
}

/// A message a widget can show: short, and saying what went wrong with what is allowed.
fn shown(message: &str) -> Result<(), TestCaseError> {
    prop_assert!(!message.is_empty());
    let head: String = message.chars().take(200).collect();
    prop_assert!(message.chars().count() <= 400, "too long ({} chars): {}", message.chars().count(), head);
    Ok(())
}

/// A JavaScript number as a count the facade would pass on: `whole_number`, then into `usize`.
fn as_count(what: &str, x: f64) -> Result<usize, String> {
    whole_number(what, x).map(|n| n as usize).map_err(|e| e.to_string())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn whole_numbers_are_taken_or_refused_with_the_rule(x in any_number()) {
        match whole_number("seq_len", x) {
            Ok(n) => prop_assert_eq!(n as f64, x),
            Err(e) => {
                let m = e.to_string();
                shown(&m)?;
                prop_assert!(m.starts_with("seq_len ") && m.contains("whole number"), "{}", m);
            }
        }
    }

    #[test]
    fn a_report_at_any_t_and_b(seq_len in any_number(), batch in any_number(), model in prop::sample::select(vec!["gpt2-small", "llama3-70b", "mixtral-8x7b", "tiny-gpt"])) {
        let config = ModelConfig::preset(model).unwrap();
        let report = whole_number("seq_len", seq_len)
            .and_then(|t| whole_number("batch", batch).map(|b| (t, b)))
            .and_then(|(t, b)| Report::new(&config, t, b));
        if let Err(e) = report {
            shown(&e.to_string())?;
        }
    }

    #[test]
    fn a_model_name_of_any_text(name in ".{0,200}") {
        if let Err(e) = ModelConfig::preset(&name) {
            shown(&e.to_string())?;
        }
    }

    #[test]
    fn a_config_json_of_any_text(text in ".{0,300}") {
        if let Err(e) = ModelConfig::from_hf_config_json(&text) {
            shown(&e.to_string())?;
        }
    }

    #[test]
    fn a_config_json_with_any_numbers(layers in any_number(), width in any_number(), heads in any_number(), vocab in any_number(), positions in any_number()) {
        let text = format!(
            r#"{{"model_type": "gpt2", "n_layer": {}, "n_embd": {}, "n_head": {}, "vocab_size": {}, "n_positions": {}}}"#,
            json_number(layers), json_number(width), json_number(heads), json_number(vocab), json_number(positions),
        );
        match ModelConfig::from_hf_config_json(&text) {
            Ok(config) => {
                // An accepted config counts or says why it cannot.
                if let Err(e) = Report::new(&config, 1, 1) {
                    shown(&e.to_string())?;
                }
            }
            Err(e) => shown(&e.to_string())?,
        }
    }

    #[test]
    fn a_training_cost_of_any_numbers(n in any_number(), d in any_number(), peak in any_number(), u in any_number()) {
        match training_run(n, d, peak, u) {
            Ok(run) => prop_assert!(run.flops.is_finite() && run.hours.is_finite() && run.hours >= 0.0, "{:?}", run),
            Err(e) => shown(&e.to_string())?,
        }
    }

    #[test]
    fn the_flops_example_of_any_numbers(n in any_number(), d in any_number()) {
        match examples::flops(n, d) {
            Ok(f) => prop_assert!(f.c_infer.is_finite() && f.c_train.is_finite()),
            Err(e) => shown(&e.to_string())?,
        }
    }

    #[test]
    fn vectors_of_any_numbers(xs in prop::collection::vec(any_number(), 0..40)) {
        let xs: Vec<f32> = xs.into_iter().map(|x| x as f32).collect();
        for result in [examples::layernorm(&xs).map(|_| ()), examples::gelu(&xs).map(|_| ()), examples::moe_routing(&xs, 2).map(|_| ())] {
            if let Err(e) = result {
                shown(&e.to_string())?;
            }
        }
        if let Err(e) = examples::residual(&xs, &xs, &xs) {
            shown(&e.to_string())?;
        }
    }

    #[test]
    fn worked_examples_with_any_counts(a in any_number(), b in any_number(), c in any_number(), seed in any_number()) {
        let counts = (as_count("a", a), as_count("b", b), as_count("c", c), as_count("seed", seed));
        let (Ok(a), Ok(b), Ok(c), Ok(seed)) = counts else { return Ok(()) };
        // Every count as the facade would pass it: the library's own limits must keep each example small.
        for result in [
            examples::masks(a, b, seed as u64).map(|_| ()),
            examples::feed_forward(a).map(|_| ()),
            examples::moe_sizes(a, b, c).map(|_| ()),
            examples::moe_batch(a, b, c, a, seed as u64).map(|_| ()),
            examples::moe_batch(c, b, a, b, seed as u64).map(|_| ()),
            examples::tiny_gpt(&[a, b, c], seed as u64).map(|_| ()),
        ] {
            if let Err(e) = result {
                shown(&e.to_string())?;
            }
        }
    }

    #[test]
    fn a_config_json_field_with_a_value_of_any_length(field in prop::sample::select(CONFIG_FIELDS.to_vec()), text in ".{0,600}", n in 0usize..400) {
        // A value was quoted whole (fuzz/FINDINGS.md, finding 1): a string, or an array of any length.
        for value in [serde_json::Value::from(text.clone()), serde_json::Value::from(vec![1; n])] {
            let mut config = small_gpt2();
            config[field] = value;
            if let Err(e) = ModelConfig::from_hf_config_json(&config.to_string()) {
                shown(&e.to_string())?;
            }
        }
    }

    #[test]
    fn a_weights_file_of_any_bytes(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        if let Err(e) = transformer_block::nn::weights::load(&bytes, None) {
            shown(&e.to_string())?;
        }
    }
}

/// A number as JSON writes it (NaN and the infinities, which JSON lacks, as strings: a bad field).
fn json_number(x: f64) -> String {
    if x.is_finite() {
        format!("{x}")
    } else {
        format!("\"{x}\"")
    }
}

/// The fields of a GPT-2 config.json that the import reads.
const CONFIG_FIELDS: [&str; 12] = [
    "model_type",
    "n_embd",
    "n_head",
    "n_layer",
    "vocab_size",
    "n_positions",
    "n_inner",
    "head_dim",
    "layer_norm_epsilon",
    "tie_word_embeddings",
    "add_cross_attention",
    "_name_or_path",
];

/// A small GPT-2 config.json that imports.
fn small_gpt2() -> serde_json::Value {
    serde_json::json!({"model_type": "gpt2", "n_embd": 8, "n_head": 2, "n_layer": 1, "vocab_size": 5, "n_positions": 4})
}

/// A message a widget can show (the rule above, outside proptest): at most 400 characters.
fn assert_short(message: &str) {
    assert!(message.chars().count() <= 400, "{} characters: {message}", message.chars().count());
}

/// Fuzzing findings 1 to 5 (fuzz/FINDINGS.md): each of these inputs made an error message quote a
/// whole value it was given, 400 to 850 characters, more than a widget shows.
#[test]
fn a_config_json_quotes_a_long_value_short() {
    let long = "x".repeat(500);
    let array = serde_json::Value::from(vec![1; 300]);
    for (field, value, starts) in [
        ("model_type", array.clone(), "model_type: must be a string, got [1,1,"),
        ("n_embd", long.clone().into(), "n_embd: must be a positive integer, got \"xxx"),
        ("tie_word_embeddings", array, "tie_word_embeddings: must be true or false, got [1,1,"),
        ("layer_norm_epsilon", long.into(), "layer_norm_epsilon: must be a small positive number, got \"xxx"),
    ] {
        let mut config = small_gpt2();
        config[field] = value;
        let m = ModelConfig::from_hf_config_json(&config.to_string()).unwrap_err().to_string();
        assert!(m.starts_with(starts) && m.ends_with('…'), "{m}");
        assert_short(&m);
    }
}

#[test]
fn a_long_checkpoint_name_is_quoted_short() {
    let mut config = small_gpt2();
    config["_name_or_path"] = "n".repeat(450).into();
    let config = ModelConfig::from_hf_config_json(&config.to_string()).unwrap();
    let m = Report::new(&config, 5, 1).unwrap_err().to_string();
    assert!(m.starts_with("seq_len 5 is out of range: nnn") && m.ends_with("n… accepts 1 to 4 tokens"), "{m}");
    assert_short(&m);
}

/// A safetensors file: the header's length (8 bytes, little-endian), the header, the data.
fn safetensors_file(header: &serde_json::Value, data: &[u8]) -> Vec<u8> {
    let header = header.to_string();
    let mut bytes = (header.len() as u64).to_le_bytes().to_vec();
    bytes.extend_from_slice(header.as_bytes());
    bytes.extend_from_slice(data);
    bytes
}

#[test]
fn a_weights_file_that_quotes_a_long_value_is_refused_short() {
    use transformer_block::nn::weights::load;
    let tensor =
        |dtype: &str, shape: Vec<usize>| serde_json::json!({"dtype": dtype, "shape": shape, "data_offsets": [0, 4]});
    // The safetensors parser quotes a dtype it does not know, whole.
    let dtype = safetensors_file(&serde_json::json!({"wte.weight": tensor(&"X".repeat(500), vec![1])}), &[0; 4]);
    let m = load(&dtype, None).unwrap_err().to_string();
    assert!(m.starts_with("the weights file could not be read: it is not a valid safetensors file (invalid JSON in header: unknown variant `XXX"), "{m}");
    assert_short(&m);
    // The config.json in the file's metadata, with a long value.
    let mut config = small_gpt2();
    config["n_embd"] = serde_json::Value::from(vec![1; 300]);
    let header =
        serde_json::json!({"__metadata__": {"config": config.to_string()}, "wte.weight": tensor("F32", vec![1])});
    let m = load(&safetensors_file(&header, &[0; 4]), None).unwrap_err().to_string();
    assert!(m.starts_with("n_embd: must be a positive integer, got [1,1,"), "{m}");
    assert_short(&m);
    // A tensor of 200 dimensions.
    let tiny = ModelConfig::preset("tiny-gpt").unwrap();
    let m =
        load(&safetensors_file(&serde_json::json!({"wte.weight": tensor("F32", vec![1; 200])}), &[0; 4]), Some(&tiny))
            .unwrap_err()
            .to_string();
    assert!(m.starts_with("wte.weight: has shape [1, 1, ") && m.ends_with("…; expected [V, d]"), "{m}");
    assert_short(&m);
}

#[test]
fn a_vocab_json_that_quotes_a_long_value_is_refused_short() {
    use transformer_block::train::Vocabulary;
    let long = "y".repeat(500);
    for text in [format!(r#"{{"{long}": 0}}"#), format!(r#"{{"a": "{long}"}}"#)] {
        let m = Vocabulary::from_json(&text).unwrap_err().to_string();
        assert!(m.starts_with("vocab.json"), "{m}");
        assert_short(&m);
    }
}

/// Fuzzing findings 6 to 8 (fuzz/FINDINGS.md): widths that do not fit in 64 bits panicked with "attempt
/// to multiply with overflow" where overflow checks are on (the tests, debug builds) and wrapped
/// silently where they are off (the release wasm).
#[test]
fn widths_past_64_bits_are_refused_not_wrapped() {
    let heads = r#"{"model_type": "llama", "hidden_size": 8, "num_attention_heads": 4294967296, "head_dim": 4294967296,
        "num_hidden_layers": 1, "vocab_size": 5, "intermediate_size": 8, "max_position_embeddings": 4}"#;
    assert_eq!(
        ModelConfig::from_hf_config_json(heads).unwrap_err().to_string(),
        "the width of q, k and v side by side (h · d_head + 2 · n_kv · d_head) is too large to count exactly in 64 bits"
    );
    let width = r#"{"model_type": "gpt2", "n_embd": 4611686018427387904, "n_head": 1, "n_layer": 1, "vocab_size": 1,
        "n_positions": 1}"#;
    assert_eq!(
        ModelConfig::from_hf_config_json(width).unwrap_err().to_string(),
        "the feed-forward width 4 · n_embd is too large to count exactly in 64 bits"
    );
    // A token table of 0 rows and 2^63 columns holds no data; with "attention_bias": "false" the loader
    // multiplied its width by 3 before checking it against the config.
    let empty = |shape: Vec<u64>| serde_json::json!({"dtype": "F32", "shape": shape, "data_offsets": [0, 0]});
    let header = serde_json::json!({
        "__metadata__": {"config": small_gpt2().to_string(), "attention_bias": "false"},
        "wte.weight": empty(vec![0, 1 << 63]),
        "wpe.weight": empty(vec![0]),
        "h.0.ln_1.weight": empty(vec![0]),
        "h.0.mlp.c_fc.weight": empty(vec![0]),
    });
    assert_eq!(
        transformer_block::nn::weights::load(&safetensors_file(&header, &[]), None).unwrap_err().to_string(),
        "vocab_size: the config says 5, but wte.weight in the weights file gives 0"
    );
}

/// Fuzzing finding 9 (fuzz/FINDINGS.md): a 33 KB checkpoint of width 1 and 16,000 positions loads
/// (the page's CharModel.from_weights takes it: its vocabulary is the lessons'), and putting it in flat
/// buffers for the experiments (16 windows at once) asked for 16 GB, which aborts the program (in a
/// page, the wasm instance). It is refused with the limit instead.
#[test]
fn a_small_file_of_a_long_context_is_refused_before_a_huge_allocation() {
    use transformer_block::nn::weights::{load, save_as, StoredDtype};
    use transformer_block::nn::{TinyGpt, TrainableGpt};
    let mut config = ModelConfig::preset("tiny-gpt").unwrap();
    (config.d_model, config.n_heads, config.n_kv_heads, config.head_dim, config.d_ff) = (1, 1, 1, 1, 1);
    (config.n_layers, config.context) = (1, 16_000);
    let bytes = save_as(&TinyGpt::new(&config, 0).unwrap(), StoredDtype::F16).unwrap();
    assert!(bytes.len() < 34_000, "{}", bytes.len());
    let m = load(&bytes, None).unwrap();
    for batch in [1, 16] {
        // Not unwrap_err: it would print the whole model.
        let Err(e) = TrainableGpt::from_model(&m, batch) else {
            panic!("a model of 16,000 positions at batch {batch}")
        };
        let e = e.to_string();
        assert!(e.starts_with("working memory: 1 blocks of width 1 (1 heads) with 16,000 positions"), "{e}");
        assert!(e.contains("allowed is up to 256 MiB"), "{e}");
        assert_short(&e);
    }
    assert!(m.forward(&[1, 2, 3]).is_ok(), "the model itself still runs");
    // Dropped into the page as a checkpoint, it is refused there and then, not at its first experiment.
    let Err(e) = transformer_block::train::model_files::load_model_files(&bytes, None, None) else {
        panic!("a checkpoint the experiments cannot run")
    };
    assert!(e.to_string().starts_with("working memory: "), "{e}");
}
