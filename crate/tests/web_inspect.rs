//! Looking inside the character model through the WebAssembly facade, in real browsers: every
//! intermediate as Float32Arrays with their shapes, the attention maps the page draws (the same bits
//! as `tblock inspect` natively), the sampler's settings (the same text as `tblock sample`), and
//! what bad input gets.
#![cfg(target_arch = "wasm32")]

use js_sys::{Array, Float32Array, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

use transformer_block::web::CharModel;

wasm_bindgen_test_configure!(run_in_browser);

fn field(object: &JsValue, path: &str) -> JsValue {
    path.split('.').fold(object.clone(), |o, key| Reflect::get(&o, &JsValue::from_str(key)).expect("Reflect::get"))
}

fn message(err: JsValue) -> String {
    field(&err, "message").as_string().unwrap()
}

/// A tensor's shape and numbers; its data must be a Float32Array.
fn tensor(object: &JsValue, path: &str) -> (Vec<usize>, Vec<f32>) {
    let t = field(object, path);
    let shape = Array::from(&field(&t, "shape")).iter().map(|x| x.as_f64().unwrap() as usize).collect();
    let data = field(&t, "data").dyn_into::<Float32Array>().unwrap_or_else(|_| panic!("{path}.data is a Float32Array"));
    (shape, data.to_vec())
}

fn flat(v: &serde_json::Value) -> Vec<f32> {
    match v {
        serde_json::Value::Array(xs) => xs.iter().flat_map(flat).collect(),
        x => vec![x.as_f64().unwrap() as f32],
    }
}

#[wasm_bindgen_test]
fn inspect_hands_over_every_tensor_as_a_float32_array_with_its_shape() {
    let mut m = CharModel::six_blocks().unwrap();
    let r = m.inspect("attention").unwrap();
    assert_eq!(field(&r, "layers").as_f64(), Some(6.0));
    for (path, shape) in [
        ("embedded", vec![9, 16]),
        ("blocks.0.ln_1.output", vec![9, 16]),
        ("blocks.0.ln_1.input_spread", vec![9]),
        ("blocks.2.q", vec![4, 9, 4]),
        ("blocks.2.scores", vec![4, 9, 9]),
        ("blocks.5.weights", vec![4, 9, 9]),
        ("blocks.5.hidden_gelu", vec![9, 64]),
        ("blocks.5.stream_sizes.output", vec![9]),
        ("ln_f.normalized", vec![9, 16]),
        ("probabilities", vec![9, 50]),
    ] {
        let (s, data) = tensor(&r, path);
        assert_eq!((s.clone(), data.len()), (shape.clone(), shape.iter().product()), "{path}");
    }
    let (_, w) = tensor(&r, "blocks.3.weights");
    for (i, row) in w.chunks(9).enumerate() {
        let t = i % 9;
        assert!(row[t + 1..].iter().all(|&x| x == 0.0));
        assert!((row.iter().map(|&x| x as f64).sum::<f64>() - 1.0).abs() < 1e-5);
    }
    let share = field(&r, "blocks.0.gelu_open_share").as_f64().unwrap();
    assert!(share > 0.0 && share < 1.0, "{share}");
}

#[wasm_bindgen_test]
fn the_maps_are_the_bits_tblock_inspect_prints_natively() {
    let recorded: serde_json::Value =
        serde_json::from_str(include_str!("../../tests/e2e/fixtures/attention-shipped.json")).unwrap();
    let mut m = CharModel::shipped().unwrap();
    let r = m.attention("the residual").unwrap();
    let (shape, weights) = tensor(&r, "weights");
    assert_eq!(shape, [2, 4, 12, 12]);
    assert_eq!(weights, flat(&recorded["attentions"]));
    let (_, scores) = tensor(&r, "scores");
    assert!(scores[1] != 0.0, "scores are before the mask: the first query has a score for every key");
}

#[wasm_bindgen_test]
fn the_sampler_writes_what_tblock_sample_writes() {
    let recorded = include_str!("fixtures/sample-shipped-top-k-8-top-p-0.9.txt");
    let mut m = CharModel::shipped().unwrap();
    let text = m.sample("the stream", 60.0, 0.9, 5.0, Some(8.0), Some(0.9)).unwrap();
    assert_eq!(format!("the stream{text}").trim_end(), recorded.trim_end());
    // Top-k 1 is greedy at any temperature.
    let greedy = m.sample("the ", 30.0, 0.0, 1.0, None, None).unwrap();
    assert_eq!(m.sample("the ", 30.0, 2.0, 9.0, Some(1.0), None).unwrap(), greedy);
    let d = m.next_distribution("the stre", 1.0, Some(3.0), None).unwrap();
    assert_eq!(field(&d, "kept_count").as_f64(), Some(3.0));
    let order = Array::from(&field(&d, "order"));
    let first = order.get(0).as_f64().unwrap() as u32;
    assert_eq!(field(&d, "symbols").dyn_into::<Array>().unwrap().get(first).as_string().as_deref(), Some("a"));
}

#[wasm_bindgen_test]
fn bad_input_says_what_is_allowed() {
    let mut m = CharModel::shipped().unwrap();
    assert_eq!(
        message(m.inspect("abcdefghijklmnopq").unwrap_err()),
        "text of 17 characters is out of range: the model reads at most 16 characters at once: shorten it"
    );
    assert!(message(m.attention("").unwrap_err()).contains("type at least one character"));
    for (k, p, says) in [
        (Some(0.0), None, "top-k 0 is out of range"),
        (Some(51.0), None, "top-k 51 is out of range"),
        (Some(2.5), None, "top-k 2.5 is out of range: it must be a whole number"),
        (None, Some(0.0), "top-p 0 is out of range"),
        (None, Some(f64::NAN), "top-p NaN is out of range"),
        (None, Some(1.01), "top-p 1.01 is out of range"),
    ] {
        assert!(message(m.next_distribution("a", 1.0, k, p).unwrap_err()).starts_with(says), "{k:?} {p:?}");
        assert!(message(m.sample("a", 5.0, 1.0, 0.0, k, p).unwrap_err()).starts_with(says));
    }
    assert!(
        message(m.next_distribution("a", -1.0, None, None).unwrap_err()).starts_with("temperature -1 is out of range")
    );
    // The model still answers.
    assert!(m.inspect("ok").is_ok());
}
