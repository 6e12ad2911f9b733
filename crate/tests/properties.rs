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
    prop_assert!(message.chars().count() <= 400, "too long ({} chars): {}", message.chars().count(), &message[..200]);
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
