//! Every export of the WebAssembly facade, called with what a page could hand it: any number (NaN,
//! ±Infinity, -0, subnormal, 1e308, 2^53 + 1, fractions, negatives), any string (empty, blank,
//! unicode, markup, 10,000 characters), null, undefined, booleans, objects, lists of the wrong kind
//! or length, and random bytes. Each call returns a result or an error whose message is short and
//! not empty; a panic would abort the wasm instance and fail the test. The properties of the library
//! underneath are in properties.rs (natively, with proptest); these cover the facade's own
//! conversions from JavaScript values, which exist only in wasm.
//!
//! `wasm-pack test --headless --chrome crate` (and `--firefox`), like web.rs.
#![cfg(target_arch = "wasm32")]

use js_sys::{Array, Object, Reflect};
use wasm_bindgen::JsValue;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

use transformer_block::web;

wasm_bindgen_test_configure!(run_in_browser);

/// Calls of each export with random picks of the values below.
const CALLS: usize = 150;
/// The longest message a widget may have to show.
const LONGEST_MESSAGE: usize = 400;

/// A small deterministic generator (xorshift64), so a failure is found again on the next run.
struct Picks(u64);

impl Picks {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn number(&mut self) -> f64 {
        const EDGES: [f64; 18] = [
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            -0.0,
            0.0,
            5e-324,
            1e308,
            -1e308,
            9_007_199_254_740_993.0,
            1e20,
            -1.0,
            0.5,
            2.5,
            1.0,
            2.0,
            3.0,
            16.0,
            1e6,
        ];
        match self.below(3) {
            0 => EDGES[self.below(EDGES.len())],
            1 => (self.below(70) as f64) - 5.0,
            _ => f64::from_bits(self.next()),
        }
    }

    /// Absent half the time, else any number.
    fn optional_number(&mut self) -> Option<f64> {
        (self.below(2) == 0).then(|| self.number())
    }

    fn text(&mut self) -> String {
        const TEXTS: [&str; 10] = [
            "",
            "   ",
            "gpt2-small",
            "tiny-gpt",
            "removed",
            "1e3",
            "ünïcødé ✓ 😀 \u{202e}",
            "<img src=x onerror=alert(1)>",
            "{\"model_type\": \"gpt2\", \"n_layer\": 1e300}",
            "null",
        ];
        match self.below(4) {
            0 => "x".repeat(10_000),
            1 => (0..self.below(40)).map(|_| char::from_u32(self.below(0x2FFF) as u32).unwrap_or('?')).collect(),
            _ => TEXTS[self.below(TEXTS.len())].to_string(),
        }
    }

    fn list(&mut self) -> JsValue {
        let list = Array::new();
        let n = match self.below(5) {
            0 => 0,
            1 => 5_000,
            _ => self.below(20),
        };
        let kind = self.below(4);
        for _ in 0..n {
            list.push(&match kind {
                0 | 1 => JsValue::from_f64(self.number()),
                2 => self.list_of_numbers(),
                _ => self.value(),
            });
        }
        list.into()
    }

    fn list_of_numbers(&mut self) -> JsValue {
        let list = Array::new();
        for _ in 0..self.below(8) {
            list.push(&JsValue::from_f64(self.number()));
        }
        list.into()
    }

    fn object(&mut self) -> JsValue {
        const KEYS: [&str; 8] = ["seed", "steps", "learning_rate", "warmup", "layers", "norm", "width", "heads"];
        let object = Object::new();
        for _ in 0..self.below(6) {
            let key = KEYS[self.below(KEYS.len())];
            let value = match self.below(3) {
                0 => JsValue::from_f64(self.number()),
                1 => JsValue::from_str(&self.text()),
                _ => self.value(),
            };
            Reflect::set(&object, &JsValue::from_str(key), &value).expect("set on a plain object");
        }
        object.into()
    }

    /// Any JavaScript value, nested no deeper than lists of lists.
    fn value(&mut self) -> JsValue {
        match self.below(8) {
            0 => JsValue::NULL,
            1 => JsValue::UNDEFINED,
            2 => JsValue::from_bool(self.below(2) == 0),
            3 => JsValue::from_str(&self.text()),
            4 => self.list_of_numbers(),
            5 => Object::new().into(),
            _ => JsValue::from_f64(self.number()),
        }
    }

    fn any(&mut self) -> JsValue {
        match self.below(4) {
            0 => self.list(),
            1 => self.object(),
            _ => self.value(),
        }
    }

    fn optional_text(&mut self) -> Option<String> {
        (self.below(2) == 0).then(|| self.text())
    }

    fn bytes(&mut self) -> Vec<u8> {
        (0..self.below(600)).map(|_| self.next() as u8).collect()
    }
}

/// A result, or an error with a message a widget can show.
fn check<T>(what: &str, result: Result<T, JsValue>) {
    if let Err(err) = result {
        let value = err;
        let message =
            Reflect::get(&value, &JsValue::from_str("message")).ok().and_then(|m| m.as_string()).unwrap_or_default();
        assert!(!message.trim().is_empty(), "{what}: an error without a message");
        assert!(
            message.chars().count() <= LONGEST_MESSAGE,
            "{what}: a message of {} characters: {}…",
            message.chars().count(),
            message.chars().take(200).collect::<String>()
        );
        // The same message as data, for the page to word in the reader's language (messages.rs).
        let data = Reflect::get(&value, &JsValue::from_str("tb")).unwrap_or(JsValue::UNDEFINED);
        let coded = Reflect::get(&data, &JsValue::from_str("code")).ok().and_then(|c| c.as_string());
        let text = Reflect::get(&data, &JsValue::from_str("text")).ok().and_then(|c| c.as_string());
        assert!(coded.is_some() || text.is_some(), "{what}: an error without its message as data: {message}");
    }
}

#[wasm_bindgen_test]
fn the_model_functions_take_any_values() {
    let mut p = Picks(0x5eed_0001);
    for _ in 0..CALLS {
        let model = if p.below(2) == 0 { p.text() } else { "gpt2-small".into() };
        check("count", web::count(&model, p.number(), p.number()));
        check("config_families", web::config_families());
        check("cost_curve", web::cost_curve(&model, p.number()));
        check("training_run", web::training_run(p.number(), p.number(), p.number(), p.number()));
        check("example_flops", web::example_flops(p.number(), p.number()));
    }
}

#[wasm_bindgen_test]
fn the_worked_examples_take_any_values() {
    let mut p = Picks(0x5eed_0002);
    for _ in 0..CALLS {
        check("example_residual", web::example_residual(p.any(), p.any(), p.any()));
        check("example_layernorm", web::example_layernorm(p.any()));
        check("example_gelu", web::example_gelu(p.any()));
        check("example_feed_forward", web::example_feed_forward(p.number()));
        check("example_tiny_gpt", web::example_tiny_gpt(p.any(), p.number()));
        check("example_tied_output", web::example_tied_output(p.any(), p.any()));
        check("example_masks", web::example_masks(p.number(), p.number(), p.number()));
        check("example_moe_routing", web::example_moe_routing(p.any(), p.number()));
        check("example_moe_sizes", web::example_moe_sizes(p.number(), p.number(), p.number()));
        check("example_moe_batch", web::example_moe_batch(p.number(), p.number(), p.number(), p.number(), p.number()));
        check("example_balance", web::example_balance(p.any(), p.any()));
        check("norm_race_settings", web::norm_race_settings(p.number(), p.number(), p.number()));
        check("norm_race_verdict", web::norm_race_verdict(p.number(), p.number(), p.number(), p.any()));
    }
}

#[wasm_bindgen_test]
fn training_takes_any_settings() {
    let mut p = Picks(0x5eed_0003);
    for _ in 0..CALLS {
        let settings = p.any();
        check("check_train_settings", web::check_train_settings(settings.clone()));
        // A run is built only from settings the check accepted, kept to a few steps here.
        if web::check_train_settings(settings.clone()).is_ok() {
            let _ = Reflect::set(&settings, &JsValue::from_str("steps"), &JsValue::from_f64(2.0));
            if let Ok(mut run) = web::TrainingRun::new(settings, p.optional_text()) {
                check("TrainingRun::run", run.run(p.number(), 5.0));
                check("TrainingRun::sample", run.sample(&p.text(), p.number(), p.number(), p.number()));
            }
        }
    }
}

#[wasm_bindgen_test]
fn a_model_takes_any_text_and_any_numbers() {
    let mut p = Picks(0x5eed_0004);
    let mut model = web::CharModel::six_blocks().expect("the shipped six-block model");
    for _ in 0..40 {
        check("CharModel::read", model.read(&p.text(), p.number()));
        let (top_k, top_p) = (p.optional_number(), p.optional_number());
        check(
            "CharModel::sample",
            model.sample(&p.text(), p.number().min(400.0), p.number(), p.number(), top_k, top_p),
        );
        check("CharModel::inspect", model.inspect(&p.text()));
        check("CharModel::attention", model.attention(&p.text()));
        let (what, mode) = (["loss", "stream", ""][p.below(3)], ["intact", "removed", "overwritten"][p.below(3)]);
        let what = if p.below(4) == 0 { p.text() } else { what.to_string() };
        if model
            .begin_measure(&what, mode, p.number(), p.optional_text().map(|t| t.chars().take(300).collect()))
            .is_ok()
        {
            check("CharModel::measure_step", model.measure_step(p.number()));
        }
        check("CharModel::measure_step", model.measure_step(p.number()));
        let (top_k, top_p) = (p.optional_number(), p.optional_number());
        check("CharModel::next_distribution", model.next_distribution(&p.text(), p.number(), top_k, top_p));
        check(
            "CharModel::head_summaries",
            model.head_summaries(p.optional_text().map(|t| t.chars().take(400).collect())),
        );
        let mode = ["intact", "removed", "overwritten", ""][p.below(4)].to_string();
        let mode = if p.below(4) == 0 { p.text() } else { mode };
        check(
            "CharModel::loss",
            model.loss(&mode, p.number(), p.optional_text().map(|t| t.chars().take(200).collect())),
        );
        check("CharModel::untrained", web::CharModel::untrained(p.number()));
        check("CharModel::from_weights", web::CharModel::from_weights(&p.bytes()));
        check(
            "CharModel::from_checkpoint",
            web::CharModel::from_checkpoint(&p.bytes(), p.optional_text(), p.optional_text()),
        );
        let parameters: Vec<f32> = (0..p.below(3000)).map(|_| p.number() as f32).collect();
        check("CharModel::from_parameters", web::CharModel::from_parameters(p.any(), &parameters));
    }
}

#[wasm_bindgen_test]
fn the_timers_take_any_numbers_and_names() {
    let mut p = Picks(0x5eed_0005);
    for _ in 0..CALLS {
        // Runs are timed only with a handful of repetitions; the counts are what is under test.
        let reps = if p.below(2) == 0 { p.number() } else { 1.0 };
        if let Ok(mut timer) = web::DepthLatency::new(p.number()) {
            check("DepthLatency::run", timer.run(if reps <= 3.0 { reps } else { -reps }));
        }
        if let Ok(mut timer) = web::AttentionTiming::new(p.number().min(64.0)) {
            check("AttentionTiming::run", timer.run(if reps <= 3.0 { reps } else { f64::NAN }));
        }
        check("AttentionTiming::new", web::AttentionTiming::new(p.number()));
        check("Workload::new", web::Workload::new(&p.text()));
    }
}
