//! Training TinyGPT through the WebAssembly facade, in real browsers (`wasm-pack test --headless
//! --chrome crate`, and `--firefox`): the calls the training worker and the widgets make.
#![cfg(target_arch = "wasm32")]

use js_sys::{Array, Object, Reflect};
use wasm_bindgen::JsValue;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

use transformer_block::bench::KERNEL_BITS;
use transformer_block::web::{CharModel, TrainingRun, Workload};

wasm_bindgen_test_configure!(run_in_browser);

fn field(object: &JsValue, key: &str) -> JsValue {
    Reflect::get(object, &JsValue::from_str(key)).expect("Reflect::get on an object")
}

fn settings(pairs: &[(&str, JsValue)]) -> JsValue {
    let o = Object::new();
    for (k, v) in pairs {
        Reflect::set(&o, &JsValue::from_str(k), v).unwrap();
    }
    o.into()
}

fn message(err: JsValue) -> String {
    field(&err, "message").as_string().unwrap()
}

/// Steps until the run is done; every step's loss.
fn run_to_end(run: &mut TrainingRun) -> Vec<f64> {
    let mut losses = Vec::new();
    loop {
        let p = run.run(1e9, 50.0).unwrap();
        losses.extend(Array::from(&field(&p, "losses")).iter().map(|x| x.as_f64().unwrap()));
        if field(&p, "done").as_bool().unwrap() {
            assert!(field(&p, "stopped").is_null(), "the run stopped: {:?}", field(&p, "stopped"));
            return losses;
        }
    }
}

#[wasm_bindgen_test]
fn a_run_learns_and_the_same_seed_gives_the_same_weights() {
    let s = || settings(&[("steps", 60.into()), ("seed", 3.into())]);
    let mut a = TrainingRun::new(s(), None).unwrap();
    let start = a.held_out_loss().unwrap();
    let losses = run_to_end(&mut a);
    assert_eq!(losses.len(), 60);
    let end = a.held_out_loss().unwrap();
    assert!(end < start - 0.5, "held-out loss {start} -> {end}");
    let reference = a.reference().unwrap();
    assert!((field(&reference, "uniform").as_f64().unwrap() - 50f64.ln()).abs() < 1e-12);

    let mut b = TrainingRun::new(s(), None).unwrap();
    run_to_end(&mut b);
    assert_eq!(a.parameters(), b.parameters(), "same seed and settings, same weights bit for bit");

    // The trained parameters become a model the reader widget runs.
    let model = CharModel::from_parameters(a.settings().unwrap(), &a.parameters()).unwrap();
    let reading = model.read("the", 3.0).unwrap();
    assert_eq!(Array::from(&field(&reading, "next")).length(), 3);
}

#[wasm_bindgen_test]
fn bad_settings_are_refused_with_what_is_allowed() {
    let bad = |pairs: &[(&str, JsValue)]| {
        let checked =
            message(transformer_block::web::check_train_settings(settings(pairs)).expect_err("refused by the check"));
        let run = message(TrainingRun::new(settings(pairs), None).err().expect("refused"));
        assert_eq!(checked, run, "the check and the run say the same");
        run
    };
    assert_eq!(
        bad(&[("learning_rate", 0.into())]),
        "learning rate 0 is out of range: give a positive number up to 1 (3e-3 trains TinyGPT well)"
    );
    assert_eq!(
        bad(&[("learning_rate", f64::NAN.into())]),
        "learning rate NaN is out of range: give a positive number up to 1 (3e-3 trains TinyGPT well)"
    );
    assert_eq!(bad(&[("layers", 9.into())]), "layers 9 is out of range: give 1 to 8 blocks");
    assert_eq!(bad(&[("width", 30.into())]), "width 30 is out of range: give 16 to 128, a multiple of the 4 heads");
    assert_eq!(bad(&[("steps", 0.into())]), "steps 0 is out of range: train for 1 to 100,000 steps");
    assert!(bad(&[("steps", f64::NAN.into())]).starts_with("steps NaN is out of range"));
    assert_eq!(bad(&[("steps", "60".into())]).split(':').next(), Some("the training settings could not be read"));
    assert_eq!(bad(&[("steps", 1e300.into())]), "steps 1e300 is out of range: train for 1 to 100,000 steps");
    assert_eq!(bad(&[("seed", 1.5.into())]), "seed 1.5 is out of range: it must be a whole number (0, 1, 2, ...)");
    assert_eq!(bad(&[("norm", "sideways".into())]).split(':').next(), Some("norm"));
    assert!(bad(&[("speed", 1.into())]).starts_with(
        "the training settings could not be read: \"speed\" is not a setting; expected an object with any of steps"
    ));
    assert!(message(TrainingRun::new("fast".into(), None).err().expect("refused"))
        .starts_with("the training settings could not be read: expected an object"));
    let text = message(TrainingRun::new(JsValue::UNDEFINED, Some(String::new())).err().expect("refused"));
    assert!(text.starts_with("text: the text is empty; give at least 170"), "{text}");
}

#[wasm_bindgen_test]
fn the_shipped_model_reads_characters() {
    let model = CharModel::shipped().unwrap();
    let info = model.info().unwrap();
    assert_eq!(field(&info, "n_params").as_f64(), Some(27_328.0));
    let reading = model.read("the residua", 3.0).unwrap();
    let next = Array::from(&field(&reading, "next"));
    let last = Array::from(&field(&next.get(10), "next"));
    assert_eq!(Array::from(&last.get(0)).get(0).as_string().as_deref(), Some("l"), "after \"residua\" comes l");
    let wrong = CharModel::from_parameters(settings(&[]), &[0.0; 10]).err().expect("refused");
    assert_eq!(
        message(wrong),
        "the number of parameters 10 is out of range: a model of 2 blocks of width 32 has 27328"
    );
}

#[wasm_bindgen_test]
fn the_six_block_model_takes_blocks_out_one_configuration_a_call() {
    let mut model = CharModel::six_blocks().unwrap();
    let intact = field(&model.loss("intact", 0.0, None).unwrap(), "loss").as_f64().unwrap();
    let removed = field(&model.loss("removed", 0.0, None).unwrap(), "loss").as_f64().unwrap();
    assert!(removed > intact + 1.0, "removing block 0 costs a lot: {intact} -> {removed}");
    let whole = model.ablation(None).unwrap();
    assert_eq!(field(&whole, "intact").as_f64(), Some(intact), "one call or thirteen, the same numbers");
    let first = Array::from(&field(&whole, "blocks")).get(0);
    assert_eq!(field(&first, "removed").as_f64(), Some(removed));
    let stream = model.stream(None).unwrap();
    assert_eq!(Array::from(&field(&stream, "blocks")).length(), 6);

    assert_eq!(
        message(model.loss("removed", 6.0, None).err().unwrap()),
        "block 6 is out of range: the model has blocks 0 to 5"
    );
    assert_eq!(
        message(model.loss("removed", -1.0, None).err().unwrap()),
        "block -1 is out of range: it must be a whole number (0, 1, 2, ...)"
    );
    assert!(
        message(model.loss("deleted", 0.0, None).err().unwrap()).starts_with("mode: \"deleted\" is not a block mode")
    );
    assert!(message(model.ablation(Some("short".into())).err().unwrap()).starts_with("text: has 5 symbols"));
}

#[wasm_bindgen_test]
fn a_measurement_in_slices_finds_what_one_call_finds() {
    let mut model = CharModel::six_blocks().unwrap();
    let finish = |model: &mut CharModel, budget: f64| -> (JsValue, usize) {
        let mut steps = 0;
        loop {
            let step = model.measure_step(budget).unwrap();
            steps += 1;
            if field(&step, "done").as_bool().unwrap() {
                return (field(&step, "found"), steps);
            }
            assert!(field(&step, "found").is_null());
        }
    };
    let whole = field(&model.loss("removed", 2.0, None).unwrap(), "loss").as_f64().unwrap();
    model.begin_measure("loss", "removed", 2.0, None).unwrap();
    // A budget of 0 still measures a window a step: the held-out text's ~100 windows take ~100 steps.
    let (found, steps) = finish(&mut model, 0.0);
    assert!(steps > 50, "{steps} steps");
    let sliced = field(&found, "loss").as_f64().unwrap();
    assert!((sliced - whole).abs() < 1e-9, "{sliced} {whole}");
    let stream = model.stream(None).unwrap();
    model.begin_measure("stream", "", 0.0, None).unwrap();
    let (found, _) = finish(&mut model, 1e9);
    assert_eq!(
        js_sys::JSON::stringify(&found).unwrap().as_string(),
        js_sys::JSON::stringify(&stream).unwrap().as_string()
    );
    // What may not be measured says what may.
    assert!(message(model.measure_step(8.0).err().unwrap()).contains("call begin_measure first"));
    assert!(message(model.begin_measure("speed", "", 0.0, None).err().unwrap()).contains("choose loss or stream"));
    assert!(message(model.begin_measure("loss", "sideways", 0.0, None).err().unwrap())
        .contains("choose intact, removed or overwritten"));
    assert_eq!(
        message(model.begin_measure("loss", "removed", 6.0, None).err().unwrap()),
        "block 6 is out of range: the model has blocks 0 to 5"
    );
}

#[wasm_bindgen_test]
fn the_race_settings_and_verdict_come_from_the_library() {
    use transformer_block::web::{norm_race_settings, norm_race_verdict};
    let s = norm_race_settings(300.0, 2.0, 100.0).unwrap();
    assert_eq!(field(&s, "layers").as_f64(), Some(6.0));
    assert_eq!(field(&s, "norm").as_string().as_deref(), Some("pre"));
    assert_eq!(
        message(norm_race_settings(300.0, 0.0, 400.0).err().unwrap()),
        "warmup 400 is out of range: give 0 to the 300 steps of the run"
    );
    assert_eq!(
        message(norm_race_settings(0.0, 0.0, 0.0).err().unwrap()),
        "steps 0 is out of range: train for 1 to 100,000 steps"
    );
    let r = settings(&[("uniform", 3.9.into()), ("unigram", 3.4.into()), ("bigram", 2.6.into())]);
    let v = norm_race_verdict(300.0, 2.5, 3.2, r.clone()).unwrap();
    assert_eq!(field(&v, "post_lags").as_bool(), Some(true));
    assert!(message(norm_race_verdict(300.0, f64::NAN, 3.2, r).err().unwrap())
        .starts_with("pre-LN's loss NaN is out of range"));
}

#[wasm_bindgen_test]
fn depth_latency_times_in_the_browser_and_refuses_absurd_requests() {
    use transformer_block::web::{AttentionTiming, DepthLatency};
    let mut t = DepthLatency::new(3.0).unwrap();
    t.run(2.0).unwrap();
    let r = t.result().unwrap();
    assert_eq!((field(&r, "layers").as_f64(), field(&r, "runs").as_f64()), (Some(48.0), Some(2.0)));
    assert_eq!(message(t.run(0.0).err().unwrap()), "repetitions 0 is out of range: time 1 to 1,000 runs");
    assert_eq!(message(t.run(1e12).err().unwrap()), "repetitions 1e12 is out of range: time 1 to 1,000 runs");
    assert!(message(DepthLatency::new(4.0).err().unwrap()).starts_with("configuration 4 is out of range"));
    let mut short = AttentionTiming::new(32.0).unwrap();
    short.run(1.0).unwrap();
    assert!(field(&short.result().unwrap(), "flops_share").as_f64().unwrap() > 0.3);
    assert!(message(AttentionTiming::new(5000.0).err().unwrap()).starts_with("sequence length 5000 is out of range"));
    let mut stage = AttentionTiming::new(64.0).unwrap();
    stage.run(1.0).unwrap();
    stage.run(2.0).unwrap();
    assert_eq!(field(&stage.result().unwrap(), "runs").as_f64(), Some(3.0));
}

#[wasm_bindgen_test]
fn the_kernels_give_the_same_bits_as_natively() {
    // wasm SIMD here; SSE on x86-64 in src/bench.rs's test, which pins the same constants.
    let forward = Workload::new("forward-16").unwrap().run(1.0).unwrap();
    let steps = Workload::new("train-step").unwrap().run(3.0).unwrap();
    assert_eq!((forward.to_bits(), steps.to_bits()), KERNEL_BITS, "{forward} {steps}");
}

#[wasm_bindgen_test]
fn a_benchmark_workload_names_its_own_limit() {
    // The benchmark times up to 10,000 runs, the lesson's timers 1,000: each message says its own.
    let mut w = Workload::new("forward-5").unwrap();
    assert_eq!(message(w.run(0.0).err().unwrap()), "repetitions 0 is out of range: time 1 to 10,000 runs");
    assert_eq!(message(w.run(1e12).err().unwrap()), "repetitions 1e12 is out of range: time 1 to 10,000 runs");
}
