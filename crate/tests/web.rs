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
    let presets = web::presets().map_err(JsValue::from).expect("presets()");
    assert!(Array::is_array(&presets), "presets() must return an array, got {presets:?}");
    let presets = Array::from(&presets);
    assert_eq!(presets.length(), 8);
    assert_eq!(string(&presets.get(0), "name"), "tiny-gpt");
}

#[wasm_bindgen_test]
fn presets_carry_gpt2_small_shape() {
    let presets = Array::from(&web::presets().map_err(JsValue::from).expect("presets()"));
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
fn error_message(result: Result<JsValue, wasm_bindgen::JsError>) -> String {
    let err = JsValue::from(result.expect_err("the call must fail"));
    string(&err, "message")
}

#[wasm_bindgen_test]
fn count_gpt2_small_has_its_released_parameter_count() {
    let report = web::count("gpt2-small", 8.0, 1.0).map_err(JsValue::from).expect("count()");
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
