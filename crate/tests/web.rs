//! The WebAssembly facade, tested in real browsers: `wasm-pack test --headless --chrome crate` (and
//! `--firefox`). Each test calls a `#[wasm_bindgen]` export the way the page does and reads the
//! plain object it returns.
#![cfg(target_arch = "wasm32")]

use js_sys::{Array, Reflect};
use wasm_bindgen::JsValue;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

use transformer_block::web;

wasm_bindgen_test_configure!(run_in_browser);

/// `object[key]`, which must be present.
fn field(object: &JsValue, key: &str) -> JsValue {
    let value = Reflect::get(object, &JsValue::from_str(key)).expect("Reflect::get on an object");
    assert!(!value.is_undefined(), "field {key:?} missing from {object:?}");
    value
}

fn number(object: &JsValue, key: &str) -> f64 {
    let value = field(object, key);
    value.as_f64().unwrap_or_else(|| panic!("field {key:?} is not a number: {value:?}"))
}

fn string(object: &JsValue, key: &str) -> String {
    let value = field(object, key);
    value.as_string().unwrap_or_else(|| panic!("field {key:?} is not a string: {value:?}"))
}

#[wasm_bindgen_test]
fn presets_lists_the_eight_models_tiny_gpt_first() {
    let presets = web::presets().expect("presets()");
    assert!(Array::is_array(&presets), "presets() must return an array, got {presets:?}");
    let presets = Array::from(&presets);
    assert_eq!(presets.length(), 8);
    assert_eq!(string(&presets.get(0), "name"), "tiny-gpt");
}

#[wasm_bindgen_test]
fn presets_carry_gpt2_small_shape() {
    let presets = Array::from(&web::presets().expect("presets()"));
    let gpt2 = presets.iter().find(|p| string(p, "name") == "gpt2-small").expect("a gpt2-small preset");
    assert_eq!(string(&gpt2, "family"), "gpt2");
    assert_eq!(number(&gpt2, "vocab_size"), 50257.0);
    assert_eq!(number(&gpt2, "d_model"), 768.0);
    assert_eq!(number(&gpt2, "n_layers"), 12.0);
    assert_eq!(number(&gpt2, "n_heads"), 12.0);
    assert_eq!(number(&gpt2, "n_kv_heads"), 12.0);
    assert_eq!(number(&gpt2, "context"), 1024.0);
}

/// The message of the `Error` a facade call returned.
fn error_message(result: Result<JsValue, JsValue>) -> String {
    let err = result.expect_err("the call must fail");
    string(&err, "message")
}

#[wasm_bindgen_test]
fn count_gpt2_small_has_its_released_parameter_count() {
    let report = web::count("gpt2-small", 8.0, 1.0).expect("count()");
    assert_eq!(number(&report, "total_params"), 124_439_808.0);
    assert!(number(&report, "non_embedding_params") < 124_439_808.0);
    assert!(number(&report, "forward_flops_per_token") > 0.0);
    let components = field(&report, "components");
    assert!(Array::is_array(&components), "components must be an array, got {components:?}");
    assert!(Array::from(&components).length() > 0);
}

#[wasm_bindgen_test]
fn count_refuses_an_unknown_model_and_names_the_presets() {
    let message = error_message(web::count("nope", 8.0, 1.0));
    assert!(message.contains("unknown model \"nope\""), "message was: {message}");
    assert!(message.contains("gpt2-small"), "message should list the presets: {message}");
}

#[wasm_bindgen_test]
fn count_refuses_a_sequence_length_of_zero_or_past_the_context() {
    for seq_len in [0.0, 1025.0] {
        let message = error_message(web::count("gpt2-small", seq_len, 1.0));
        assert!(message.contains("seq_len"), "seq_len {seq_len}: message was: {message}");
    }
}

// ---------------------------------------------------------------------------------------------
// TinyGPT in the browser: the same weights as natively, the same numbers as the reference.

use transformer_block::nn::{weights, TinyGpt};

const SEED0_WEIGHTS: &[u8] = include_bytes!("../../tests/reference/fixtures/tiny-gpt-seed-0.safetensors");
const SEED0_FIXTURE: &str = include_str!("../../tests/reference/fixtures/tiny-gpt-seed-0.json");

#[wasm_bindgen_test]
fn the_seeded_initialisation_gives_the_natively_written_weights_bit_for_bit() {
    // The file was written by the native `tblock init --seed 0`.
    let native = weights::load(SEED0_WEIGHTS, None).expect("the committed weights load");
    let here = TinyGpt::tiny(0);
    assert_eq!(here.wte, native.wte);
    assert_eq!(here.wpe, native.wpe);
    assert_eq!(here.blocks, native.blocks);
    assert_eq!(here.ln_f, native.ln_f);
}

#[wasm_bindgen_test]
fn logits_in_the_browser_match_the_reference_within_1e_6() {
    let fixture: serde_json::Value = serde_json::from_str(SEED0_FIXTURE).unwrap();
    let mut model = TinyGpt::tiny(0);
    for case in fixture["cases"].as_array().unwrap() {
        let ids: Vec<usize> = case["ids"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap() as usize).collect();
        model.set_causal(case["causal"].as_bool().unwrap());
        let logits = model.forward(&ids).unwrap();
        let mut largest = 0.0f64;
        for (t, row) in case["logits"].as_array().unwrap().iter().enumerate() {
            for (v, expected) in row.as_array().unwrap().iter().enumerate() {
                largest = largest.max((logits[(t, v)] as f64 - expected.as_f64().unwrap()).abs());
            }
        }
        assert!(largest <= 1e-6, "ids {ids:?} causal {}: largest difference {largest:e}", case["causal"]);
    }
}

// ---------------------------------------------------------------------------------------------
// The worked examples through the facade, as the page calls them.

fn list(values: &[f64]) -> JsValue {
    values.iter().map(|&v| JsValue::from_f64(v)).collect::<Array>().into()
}

fn numbers(object: &JsValue, key: &str) -> Vec<f64> {
    Array::from(&field(object, key)).iter().map(|v| v.as_f64().unwrap()).collect()
}

fn rounded(xs: &[f64]) -> Vec<f64> {
    xs.iter().map(|x| (x * 1000.0).round() / 1000.0).collect()
}

#[wasm_bindgen_test]
fn layernorm_example_from_javascript() {
    let r = web::example_layernorm(list(&[1.0, 2.0, 3.0, 4.0])).unwrap();
    assert_eq!(number(&r, "mean"), 2.5);
    assert_eq!(number(&r, "variance"), 1.25);
    assert_eq!(rounded(&numbers(&r, "output")), vec![-1.342, -0.447, 0.447, 1.342]);
}

#[wasm_bindgen_test]
fn moe_routing_and_tiny_gpt_examples_from_javascript() {
    let r = web::example_moe_routing(list(&[2.0, 1.0, 0.5, -1.0]), 2.0).unwrap();
    assert_eq!(rounded(&numbers(&r, "gates")), vec![0.731, 0.269]);
    assert_eq!(numbers(&r, "skipped"), vec![2.0, 3.0]);
    let t = web::example_tiny_gpt(list(&[3.0, 1.0, 4.0, 1.0, 5.0]), 0.0).unwrap();
    assert_eq!(number(&t, "n_params"), 27_328.0);
    assert_eq!(numbers(&t, "logits_shape"), vec![5.0, 50.0]);
}

#[wasm_bindgen_test]
fn garbage_from_javascript_gets_a_message_and_the_instance_keeps_working() {
    let cases: Vec<(Result<JsValue, JsValue>, &str)> = vec![
        (
            web::example_layernorm(JsValue::from_str("1,2,3")),
            "the vector could not be read: expected a list of numbers",
        ),
        (web::example_layernorm(JsValue::UNDEFINED), "the vector could not be read"),
        (web::example_layernorm(list(&[])), "the length of the vector 0 is out of range"),
        // Each entry reaches the library as it is, NaN and the infinities included.
        (
            web::example_layernorm(list(&[1.0, f64::NAN])),
            "the vector NaN is out of range: every entry must be a finite number",
        ),
        (
            web::example_gelu(list(&[f64::INFINITY])),
            "the inputs inf is out of range: every entry must be a finite number",
        ),
        (
            web::example_layernorm(Array::of2(&1.0.into(), &"2".into()).into()),
            "the vector could not be read: expected a list of numbers",
        ),
        (
            web::example_tied_output(list(&[1.0]), Array::of1(&JsValue::from(2.0)).into()),
            "the token table could not be read: expected a list of rows",
        ),
        (web::example_tiny_gpt(list(&[3.0, 50.0]), 0.0), "token id 50 is out of range: ids run from 0 to 49"),
        (web::example_tiny_gpt(list(&[3.0, -1.0]), 0.0), "token id -1 is out of range"),
        (web::example_tiny_gpt(list(&[3.0, 1.5]), 0.0), "token id 1.5 is out of range"),
        (web::example_tiny_gpt(list(&[]), 0.0), "sequence length 0 is out of range"),
        (web::example_moe_routing(list(&[1.0, 2.0]), 3.0), "k 3 is out of range"),
        (web::example_feed_forward(-8.0), "width d -8 is out of range"),
        (web::count("gpt2-small", f64::NAN, 1.0), "seq_len NaN is out of range"),
        (web::count("{\"model_type\": \"t5\"}", 8.0, 1.0), "model_type \"t5\" is not supported"),
        (web::cost_curve("gpt2-small", 1.0), "points 1 is out of range"),
        (web::training_run(1e9, 1e9, 312e12, 2.0), "utilisation 2 is out of range"),
    ];
    for (result, expected) in cases {
        let message = error_message(result);
        assert!(message.starts_with(expected), "got: {message}\nwant: {expected}");
    }
    // After all that, the same instance still answers.
    let report = web::count("gpt2-small", 1024.0, 1.0).unwrap();
    assert_eq!(number(&report, "total_params"), 124_439_808.0);
}

#[wasm_bindgen_test]
fn config_families_lists_the_six_a_config_json_may_name() {
    let families = web::config_families().expect("config_families()");
    let families: Vec<String> = Array::from(&families).iter().map(|f| f.as_string().expect("a name")).collect();
    assert_eq!(families, ["gpt2", "llama", "mistral", "mixtral", "qwen2", "gpt_neox"]);
}
