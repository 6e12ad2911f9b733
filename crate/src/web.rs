//! The WebAssembly facade: the only file with `#[wasm_bindgen]`. Thin by design: it reads what
//! JavaScript passes, calls the library, and returns plain objects (field names as in Rust).
//! Every library error becomes a `JsError` through wasm-bindgen's `From<E: std::error::Error>`
//! (the `?` below), carrying the library's message, which says what is allowed. What JavaScript
//! passes is checked here before it reaches the library: numbers must be whole where counts are
//! meant, lists must be lists of numbers. Nothing a reader types can reach a panic.

use serde::de::DeserializeOwned;
use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::config::ModelConfig;
use crate::cost::{cost_curve as curve, training_run as run};
use crate::error::Error;
use crate::examples as ex;
use crate::numbers::whole_number;
use crate::report::Report;

/// Runs once when the module is instantiated. In a debug build (wasm-pack test, `wasm-pack build
/// --dev`) a Rust panic is printed to the browser console with its message; release builds leave the
/// hook out. No input should reach a panic either way: the facade checks everything first.
#[wasm_bindgen(start)]
pub fn start() {
    #[cfg(debug_assertions)]
    console_error_panic_hook::set_once();
}

fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsError> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| JsError::new(&format!("internal error while returning a result: {e}")))
}

/// A JavaScript value of the expected shape (`what` names it in the message).
fn from_js<T: DeserializeOwned>(what: &str, value: JsValue, expected: &str) -> Result<T, Error> {
    serde_wasm_bindgen::from_value(value)
        .map_err(|_| Error::Parse { what: what.to_string(), problem: format!("expected {expected}") })
}

fn floats(what: &str, value: JsValue) -> Result<Vec<f32>, Error> {
    let xs: Vec<f64> = from_js(what, value, "a list of numbers")?;
    Ok(xs.into_iter().map(|x| x as f32).collect())
}

fn whole(what: &str, x: f64) -> Result<usize, Error> {
    let n = whole_number(what, x)?;
    usize::try_from(n).map_err(|_| Error::out_of_range(what, n, "it is too large"))
}

fn ids(value: JsValue) -> Result<Vec<usize>, Error> {
    let xs: Vec<f64> = from_js("token ids", value, "a list of whole numbers")?;
    xs.into_iter().map(|x| whole("token id", x)).collect()
}

/// The presets, in switcher order: `[{ name, label, family, vocab_size, d_model, ... }]`.
#[wasm_bindgen]
pub fn presets() -> Result<JsValue, JsError> {
    to_js(&ModelConfig::presets())
}

/// The `model_type`s a Hugging Face config.json may have: `["gpt2", "llama", ...]`.
#[wasm_bindgen]
pub fn config_families() -> Result<JsValue, JsError> {
    to_js(&crate::config::SUPPORTED_FAMILIES)
}

/// Everything about one model at sequence length `seq_len` and batch `batch` (see `Report`).
/// `model` is a preset key or the text of a Hugging Face config.json.
#[wasm_bindgen]
pub fn count(model: &str, seq_len: f64, batch: f64) -> Result<JsValue, JsError> {
    let config = ModelConfig::from_preset_or_json(model)?;
    let seq_len = whole_number("seq_len", seq_len)?;
    let batch = whole_number("batch", batch)?;
    to_js(&Report::new(&config, seq_len, batch)?)
}

/// Forward FLOPs per token and one block's attention share from T = 1 to the context.
#[wasm_bindgen]
pub fn cost_curve(model: &str, n_points: f64) -> Result<JsValue, JsError> {
    let config = ModelConfig::from_preset_or_json(model)?;
    to_js(&curve(&config, whole_number("points", n_points)?)?)
}

/// 6·N·D and its time at `utilisation` of `peak_flops_per_second`.
#[wasm_bindgen]
pub fn training_run(
    params: f64,
    tokens: f64,
    peak_flops_per_second: f64,
    utilisation: f64,
) -> Result<JsValue, JsError> {
    to_js(&run(params, tokens, peak_flops_per_second, utilisation)?)
}

/// The worked examples' default inputs: the lessons' own numbers.
#[wasm_bindgen]
pub fn example_defaults() -> Result<JsValue, JsError> {
    let (x, attention, feed_forward) = ex::RESIDUAL_DEFAULT;
    let (normed, table) = ex::TIED_DEFAULT;
    // nanoGPT's run trains GPT-2 small: N as the FLOP count takes it (all but the position table).
    let gpt2_n = crate::cost::forward_flops_per_token(&ModelConfig::preset("gpt2-small")?, 1)?.matmul_params;
    to_js(&serde_json::json!({
        "seed": ex::SEED_DEFAULT,
        "residual": { "x": x, "attention": attention, "feed_forward": feed_forward },
        "layernorm": ex::LAYERNORM_DEFAULT,
        "gelu": ex::GELU_DEFAULT,
        "feed_forward": { "d": 8, "max_d": ex::MAX_FEED_FORWARD_WIDTH },
        "tiny_gpt": { "ids": ex::IDS_DEFAULT },
        "tied_output": { "normed": normed, "table": table },
        "masks": { "n_tokens": 3, "position": 2, "ids": ex::MASK_IDS },
        "moe": { "scores": ex::MOE_SCORES_DEFAULT, "k": 2, "d": 16, "n_experts": 8, "n_tokens": 64,
                 "max_experts": ex::MAX_EXPERTS, "max_d": ex::MAX_MOE_WIDTH },
        "balance": { "even": [[0.25, 0.25, 0.25, 0.25], [0.25, 0.25, 0.25, 0.25]],
                     "all_to_one": [[1.0, 0.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0]] },
        "flops": { "infer_params": 7e9, "train": [[70e9, 1e12], [175e9, 300e9]] },
        "training_run": { "params": gpt2_n, "tokens_per_iteration": crate::cost::NANOGPT_TOKENS_PER_ITERATION,
                          "iterations": crate::cost::NANOGPT_ITERATIONS,
                          "tokens": crate::cost::NANOGPT_TOKENS_PER_ITERATION * crate::cost::NANOGPT_ITERATIONS,
                          "peak": crate::cost::A100_BF16_PEAK,
                          "utilisation": 1.0 },
    }))
}

#[wasm_bindgen]
pub fn example_residual(x: JsValue, attention: JsValue, feed_forward: JsValue) -> Result<JsValue, JsError> {
    let (x, a, f) =
        (floats("x", x)?, floats("attention's output", attention)?, floats("the feed-forward's output", feed_forward)?);
    to_js(&ex::residual(&x, &a, &f)?)
}

#[wasm_bindgen]
pub fn example_layernorm(x: JsValue) -> Result<JsValue, JsError> {
    to_js(&ex::layernorm(&floats("the vector", x)?)?)
}

#[wasm_bindgen]
pub fn example_gelu(z: JsValue) -> Result<JsValue, JsError> {
    to_js(&ex::gelu(&floats("the inputs", z)?)?)
}

#[wasm_bindgen]
pub fn example_feed_forward(d: f64) -> Result<JsValue, JsError> {
    to_js(&ex::feed_forward(whole("width d", d)?)?)
}

#[wasm_bindgen]
pub fn example_tiny_gpt(token_ids: JsValue, seed: f64) -> Result<JsValue, JsError> {
    to_js(&ex::tiny_gpt(&ids(token_ids)?, whole_number("seed", seed)?)?)
}

#[wasm_bindgen]
pub fn example_tied_output(normed: JsValue, table: JsValue) -> Result<JsValue, JsError> {
    let table: Vec<Vec<f64>> = from_js("the token table", table, "a list of rows, each a list of numbers")?;
    let table: Vec<Vec<f32>> = table.into_iter().map(|r| r.into_iter().map(|x| x as f32).collect()).collect();
    to_js(&ex::tied_output(&floats("LN(h)", normed)?, &table)?)
}

#[wasm_bindgen]
pub fn example_masks(n_tokens: f64, position: f64, seed: f64) -> Result<JsValue, JsError> {
    to_js(&ex::masks(
        whole("number of tokens", n_tokens)?,
        whole("position to change", position)?,
        whole_number("seed", seed)?,
    )?)
}

#[wasm_bindgen]
pub fn example_param_count() -> Result<JsValue, JsError> {
    to_js(&ex::param_count()?)
}

#[wasm_bindgen]
pub fn example_moe_routing(scores: JsValue, k: f64) -> Result<JsValue, JsError> {
    to_js(&ex::moe_routing(&floats("the router scores", scores)?, whole("k", k)?)?)
}

#[wasm_bindgen]
pub fn example_moe_sizes(d: f64, n_experts: f64, k: f64) -> Result<JsValue, JsError> {
    to_js(&ex::moe_sizes(whole("width d", d)?, whole("experts", n_experts)?, whole("k", k)?)?)
}

#[wasm_bindgen]
pub fn example_moe_batch(d: f64, n_experts: f64, k: f64, n_tokens: f64, seed: f64) -> Result<JsValue, JsError> {
    to_js(&ex::moe_batch(
        whole("width d", d)?,
        whole("experts", n_experts)?,
        whole("k", k)?,
        whole("number of tokens", n_tokens)?,
        whole_number("seed", seed)?,
    )?)
}

#[wasm_bindgen]
pub fn example_balance(fractions: JsValue, probabilities: JsValue) -> Result<JsValue, JsError> {
    let f: Vec<f64> = from_js("the fractions", fractions, "a list of numbers")?;
    let p: Vec<f64> = from_js("the probabilities", probabilities, "a list of numbers")?;
    to_js(&ex::balance(&f, &p)?)
}

#[wasm_bindgen]
pub fn example_flops(params: f64, tokens: f64) -> Result<JsValue, JsError> {
    to_js(&ex::flops(params, tokens)?)
}

// -------------------------------------------------------------------------------------------------
// Training TinyGPT, and running a trained one

use crate::experiments::{ablation::ablate, stream::stream_stats};
use crate::nn::BlockMode;
use crate::nn::{weights as checkpoint, NormPlacement, TinyGpt, TrainableGpt};
use crate::train::optimizer::Schedule;
use crate::train::sample::{generate, read};
use crate::train::settings::{MAX_BATCH, MAX_LAYERS, MAX_STEPS, WIDTHS};
use crate::train::shipped::Shipped;
use crate::train::trainer::initial_model;
use crate::train::{corpus::LESSON_PROSE, Corpus, TrainSettings, Trainer, Vocabulary};

/// A count typed into the page: a whole number. One far past any limit (1e300, say) is refused here,
/// written as typed ("1e300"), with what is allowed; the settings' own check does the rest.
fn amount(what: &str, x: f64) -> Result<usize, Error> {
    if x.is_finite() && x.fract() == 0.0 && x > 1e9 {
        return Err(Error::out_of_range(what, format!("{x:e}"), crate::train::settings::allowed(what)));
    }
    whole(what, x)
}

/// What JavaScript may set; anything left out keeps its default.
#[derive(serde::Deserialize, Default)]
#[serde(default)]
struct JsTrainSettings {
    steps: Option<f64>,
    seed: Option<f64>,
    learning_rate: Option<f64>,
    warmup: Option<f64>,
    schedule: Option<String>,
    layers: Option<f64>,
    width: Option<f64>,
    heads: Option<f64>,
    norm: Option<String>,
    batch: Option<f64>,
    weight_decay: Option<f64>,
    grad_clip: Option<f64>,
}

/// The settings an object may carry.
const SETTING_NAMES: [&str; 12] = [
    "steps",
    "seed",
    "learning_rate",
    "warmup",
    "schedule",
    "layers",
    "width",
    "heads",
    "norm",
    "batch",
    "weight_decay",
    "grad_clip",
];

fn train_settings(value: JsValue) -> Result<TrainSettings, Error> {
    let mut s = TrainSettings::default();
    if value.is_undefined() || value.is_null() {
        return Ok(s);
    }
    let expected = format!("an object with any of {}", SETTING_NAMES.join(", "));
    if !value.is_object() {
        return Err(Error::Parse { what: "the training settings".into(), problem: format!("expected {expected}") });
    }
    // serde-wasm-bindgen reads only the fields it knows: a misspelt one would be ignored in silence.
    for key in js_sys::Object::keys(value.unchecked_ref::<js_sys::Object>()).iter() {
        let key = key.as_string().unwrap_or_default();
        if !SETTING_NAMES.contains(&key.as_str()) {
            return Err(Error::Parse {
                what: "the training settings".into(),
                problem: format!("{:?} is not a setting; expected {expected}", crate::error::clip(&key)),
            });
        }
    }
    let js: JsTrainSettings = from_js("the training settings", value, &expected)?;
    let set = |target: &mut usize, what: &str, x: Option<f64>| -> Result<(), Error> {
        if let Some(x) = x {
            *target = amount(what, x)?;
        }
        Ok(())
    };
    set(&mut s.steps, "steps", js.steps)?;
    set(&mut s.warmup, "warmup", js.warmup)?;
    set(&mut s.layers, "layers", js.layers)?;
    set(&mut s.width, "width", js.width)?;
    set(&mut s.heads, "heads", js.heads)?;
    set(&mut s.batch, "batch", js.batch)?;
    if let Some(seed) = js.seed {
        s.seed = whole_number("seed", seed)?;
    }
    if let Some(lr) = js.learning_rate {
        s.learning_rate = lr;
    }
    if let Some(x) = js.weight_decay {
        s.weight_decay = x;
    }
    if let Some(x) = js.grad_clip {
        s.grad_clip = x;
    }
    if let Some(schedule) = js.schedule {
        s.schedule = match schedule.trim() {
            "cosine" => Schedule::Cosine,
            "constant" => Schedule::Constant,
            other => {
                return Err(Error::field(
                    "schedule",
                    format!("{:?} is not a schedule: choose cosine or constant", crate::error::clip(other)),
                ))
            }
        };
    }
    if let Some(norm) = js.norm {
        s.norm = NormPlacement::parse(&norm)?;
    }
    s.validate()?;
    Ok(s)
}

/// The defaults of a training run, the limits of each setting, the default corpus's size and the
/// reference losses of its held-out text (uniform, unigram, bigram).
#[wasm_bindgen]
pub fn train_defaults() -> Result<JsValue, JsError> {
    let vocab = Vocabulary::lessons();
    let context = crate::train::settings::CONTEXT;
    let corpus = Corpus::lessons(&vocab, context);
    let reference = crate::train::baselines::reference_losses(&corpus.train, &corpus.held_out, vocab.len(), context);
    to_js(&serde_json::json!({
        "reference": reference,
        "settings": TrainSettings::default(),
        "limits": { "max_steps": MAX_STEPS, "layers": [1, MAX_LAYERS], "width": [WIDTHS.0, WIDTHS.1], "batch": [1, MAX_BATCH] },
        "corpus": { "characters": LESSON_PROSE.chars().count(), "train_symbols": corpus.train.len(), "held_out_symbols": corpus.held_out.len() },
        "vocab_size": vocab.len(),
        "context": crate::train::settings::CONTEXT,
    }))
}

/// What the lesson reports measuring on GPT-2 small (quoted, not computed here), to show beside a
/// reader's own experiment: `{ source, ablation: [{ what, value }], stream: [{ what, value }] }`.
#[wasm_bindgen]
pub fn reported_gpt2_small() -> Result<JsValue, JsError> {
    use crate::experiments::quoted::{GPT2_SMALL_ABLATION, GPT2_SMALL_STREAM};
    to_js(&serde_json::json!({
        "source": "reported by the lesson for GPT-2 small on 1,024 tokens of its author's prose; quoted, not computed here",
        "ablation": GPT2_SMALL_ABLATION,
        "stream": GPT2_SMALL_STREAM,
    }))
}

/// The settings of one side of the pre-LN/post-LN race (the pre-LN side; the post-LN side differs
/// only in `norm`): six blocks of width 32, a constant 3e-3, `steps`, `seed`, `warmup`.
#[wasm_bindgen]
pub fn norm_race_settings(steps: f64, seed: f64, warmup: f64) -> Result<JsValue, JsError> {
    let s = crate::experiments::race::race_settings(
        amount("steps", steps)?,
        whole_number("seed", seed)?,
        amount("warmup", warmup)?,
    );
    s.validate()?;
    to_js(&s)
}

/// What a race found at `step`, from the two held-out losses and the reference lines
/// (`{ uniform, unigram, bigram }`): `{ step, pre, post, pre_place, post_place, post_lags, text }`.
#[wasm_bindgen]
pub fn norm_race_verdict(step: f64, pre: f64, post: f64, reference: JsValue) -> Result<JsValue, JsError> {
    let r: crate::train::ReferenceLosses = from_js("the reference losses", reference, "{ uniform, unigram, bigram }")?;
    for (what, x) in [("pre-LN's loss", pre), ("post-LN's loss", post)] {
        if !x.is_finite() {
            return Err(Error::out_of_range(what, x, "a loss is a finite number of nats").into());
        }
    }
    to_js(&crate::experiments::race::verdict(whole("step", step)?, pre, post, &r))
}

/// The lesson's own race (quoted, not computed here): `{ source, findings: [{ what, value }] }`.
#[wasm_bindgen]
pub fn reported_race() -> Result<JsValue, JsError> {
    to_js(&serde_json::json!({
        "source": "reported by the lesson for two six-block character models trained on its author's text (two seeds, losses read off training batches); quoted, not computed here",
        "findings": crate::experiments::quoted::REPORTED_RACE,
    }))
}

/// The page's clock in milliseconds: `performance.now()` (a window's or a worker's), else `Date.now()`.
fn now_ms() -> f64 {
    let global = js_sys::global();
    js_sys::Reflect::get(&global, &JsValue::from_str("performance"))
        .ok()
        .filter(|p| p.is_object())
        .and_then(|p| {
            let now = js_sys::Reflect::get(&p, &JsValue::from_str("now")).ok()?;
            now.dyn_ref::<js_sys::Function>()?.call0(&p).ok()?.as_f64()
        })
        .unwrap_or_else(js_sys::Date::now)
}

/// One of the four ways of spending the same block-parameter budget (`index` 0 to 3: 6 x 136,
/// 12 x 96, 24 x 68, 48 x 48), timed in the reader's browser a few runs a call.
#[wasm_bindgen]
pub struct DepthLatency {
    timer: crate::experiments::latency::DepthTimer,
}

#[wasm_bindgen]
impl DepthLatency {
    #[wasm_bindgen(constructor)]
    pub fn new(index: f64) -> Result<DepthLatency, JsError> {
        Ok(DepthLatency { timer: crate::experiments::latency::DepthTimer::new(whole("configuration", index)?)? })
    }

    /// Time `reps` more runs of one token through the stack (1 to 1,000).
    pub fn run(&mut self, reps: f64) -> Result<(), JsError> {
        Ok(self.timer.run(amount("repetitions", reps)?, &now_ms)?)
    }

    /// `{ layers, width, block_params, runs, median_ms }` of the runs so far.
    pub fn result(&self) -> Result<JsValue, JsError> {
        to_js(&self.timer.result())
    }
}

/// How many ways [`DepthLatency`] knows, and the sequence lengths the attention share is timed at.
#[wasm_bindgen]
pub fn latency_plan() -> Result<JsValue, JsError> {
    use crate::experiments::latency::{DEPTHS, STAGE_SEQ_LENS};
    to_js(&serde_json::json!({ "depths": DEPTHS, "seq_lens": STAGE_SEQ_LENS }))
}

/// One block of width 64 at one T, timed a few runs a call: its attention stage against the whole
/// block, beside the same share of its FLOPs.
#[wasm_bindgen]
pub struct AttentionTiming {
    timer: crate::experiments::latency::StageTimer,
}

#[wasm_bindgen]
impl AttentionTiming {
    #[wasm_bindgen(constructor)]
    pub fn new(seq_len: f64) -> Result<AttentionTiming, JsError> {
        Ok(AttentionTiming {
            timer: crate::experiments::latency::StageTimer::new(amount("sequence length", seq_len)?)?,
        })
    }

    /// Take `reps` more timings (1 to 1,000).
    pub fn run(&mut self, reps: f64) -> Result<(), JsError> {
        Ok(self.timer.run(amount("repetitions", reps)?, &now_ms)?)
    }

    /// `{ seq_len, runs, attention_ms, block_ms, measured_share, flops_share }` so far.
    pub fn result(&self) -> Result<JsValue, JsError> {
        to_js(&self.timer.result())
    }
}

/// One of `make bench`'s workloads (crate::bench: "forward-5", "forward-16", "train-step"), for the
/// benchmark page and Node to time: the same code criterion times natively.
#[wasm_bindgen]
pub struct Workload {
    inner: crate::bench::Workload,
}

#[wasm_bindgen]
impl Workload {
    #[wasm_bindgen(constructor)]
    pub fn new(name: &str) -> Result<Workload, JsError> {
        Ok(Workload { inner: crate::bench::Workload::new(name)? })
    }

    /// The workloads' names, in the order the tables list them.
    pub fn names() -> Result<JsValue, JsError> {
        to_js(&crate::bench::WORKLOADS)
    }

    /// Run it `reps` times (1 to 10,000); returns the last loss.
    pub fn run(&mut self, reps: f64) -> Result<f32, JsError> {
        Ok(self.inner.run(amount("repetitions", reps)?)?)
    }

    /// `{ name, tokens, flops }` of one run.
    pub fn info(&self) -> Result<JsValue, JsError> {
        to_js(
            &serde_json::json!({ "name": self.inner.name(), "tokens": self.inner.tokens(), "flops": self.inner.flops() }),
        )
    }
}

/// The lesson's own timings (quoted, not computed here): `{ source, depth, attention }`.
#[wasm_bindgen]
pub fn reported_latency() -> Result<JsValue, JsError> {
    use crate::experiments::quoted::{REPORTED_ATTENTION_TIME, REPORTED_DEPTH};
    to_js(&serde_json::json!({
        "source": "reported by the lesson for GPT-2-sized blocks on its author's CPU at batch 1; quoted, not computed here",
        "depth": REPORTED_DEPTH,
        "attention": REPORTED_ATTENTION_TIME,
    }))
}

/// The training settings `settings` would give, all of them, checked: what `TrainingRun`'s constructor
/// would accept, without building the run (the corpus, the model) on the page's thread.
#[wasm_bindgen]
pub fn check_train_settings(settings: JsValue) -> Result<JsValue, JsError> {
    to_js(&train_settings(settings)?)
}

/// One training run of TinyGPT, stepped by JavaScript (in a worker, or in short slices).
#[wasm_bindgen]
pub struct TrainingRun {
    trainer: Trainer,
}

#[derive(Serialize)]
struct RunProgress {
    steps_done: usize,
    steps: usize,
    /// The loss of every step this call took, in order.
    losses: Vec<f32>,
    learning_rate: f32,
    done: bool,
    /// Why the run stopped early, if it did (a loss that stopped being finite).
    stopped: Option<String>,
}

#[wasm_bindgen]
impl TrainingRun {
    /// A run of `settings` (an object; anything left out keeps its default) on `text` (default: the
    /// lesson page's prose).
    #[wasm_bindgen(constructor)]
    pub fn new(settings: JsValue, text: Option<String>) -> Result<TrainingRun, JsError> {
        let settings = train_settings(settings)?;
        let trainer = Trainer::new(settings, text.as_deref().unwrap_or(LESSON_PROSE))?;
        Ok(TrainingRun { trainer })
    }

    /// Steps until `max_steps` more are done, the run is over, or `budget_ms` milliseconds have
    /// passed (one step at least).
    pub fn run(&mut self, max_steps: f64, budget_ms: f64) -> Result<JsValue, JsError> {
        let max_steps = amount("max_steps", max_steps)?.max(1);
        let budget = if budget_ms.is_finite() && budget_ms > 0.0 { budget_ms } else { 0.0 };
        let start = js_sys::Date::now();
        let mut losses = Vec::new();
        let mut learning_rate = 0.0;
        while !self.trainer.is_done() && losses.len() < max_steps {
            match self.trainer.step() {
                Ok(r) => {
                    losses.push(r.loss);
                    learning_rate = r.learning_rate;
                }
                Err(_) => break, // the trainer keeps why (stopped below)
            }
            if js_sys::Date::now() - start >= budget {
                break;
            }
        }
        to_js(&RunProgress {
            steps_done: self.trainer.steps_done(),
            steps: self.trainer.settings.steps,
            losses,
            learning_rate,
            done: self.trainer.is_done(),
            stopped: self.trainer.stopped().map(|e| e.to_string()),
        })
    }

    /// The loss on the held-out tail, by the evaluation protocol.
    pub fn held_out_loss(&mut self) -> Result<f64, JsError> {
        Ok(self.trainer.held_out_loss()?.loss)
    }

    /// `{ uniform, unigram, bigram }`: the reference losses of the held-out text.
    pub fn reference(&self) -> Result<JsValue, JsError> {
        to_js(&self.trainer.reference)
    }

    pub fn settings(&self) -> Result<JsValue, JsError> {
        to_js(&self.trainer.settings)
    }

    /// `length` characters after `prompt`, drawn at `temperature` with `seed`.
    pub fn sample(&mut self, prompt: &str, length: f64, temperature: f64, seed: f64) -> Result<String, JsError> {
        let (length, seed) = (amount("length", length)?, whole_number("seed", seed)?);
        let vocab = self.trainer.vocab.clone();
        Ok(generate(self.trainer.trainable(), &vocab, prompt, length, temperature, seed)?)
    }

    /// The model's parameters as they are now, in one flat list (the layout `CharModel.from_parameters`
    /// reads with the same settings).
    pub fn parameters(&mut self) -> Vec<f32> {
        self.trainer.trainable().params.clone()
    }
}

/// A character-level TinyGPT for the page to read text with: the shipped trained weights, the
/// untrained model of a seed, or weights trained in the page.
#[wasm_bindgen]
pub struct CharModel {
    model: TinyGpt,
    vocab: Vocabulary,
    source: String,
    /// The same weights in flat buffers, made on first use by the experiments.
    flat: Option<TrainableGpt>,
}

#[wasm_bindgen]
impl CharModel {
    /// The trained TinyGPT the page ships.
    pub fn shipped() -> Result<CharModel, JsError> {
        Self::from_shipped(Shipped::Lessons)
    }

    /// The six-block TinyGPT (width 16) the page ships for the experiments that take blocks out.
    pub fn six_blocks() -> Result<CharModel, JsError> {
        Self::from_shipped(Shipped::SixBlocks)
    }

    fn from_shipped(which: Shipped) -> Result<CharModel, JsError> {
        let (model, vocab) = which.load()?;
        Ok(CharModel { model, vocab, source: which.name().into(), flat: None })
    }

    /// The lessons' TinyGPT as initialised from `seed`, before any training.
    pub fn untrained(seed: f64) -> Result<CharModel, JsError> {
        let seed = whole_number("seed", seed)?;
        let model = initial_model(&TrainSettings { seed, ..TrainSettings::default() }, Vocabulary::lessons().len())?;
        Ok(CharModel { model, vocab: Vocabulary::lessons(), source: "untrained".into(), flat: None })
    }

    /// A model trained with `settings` (what `TrainingRun.settings()` returns) from its flat
    /// `parameters` (what `TrainingRun.parameters()` returns).
    pub fn from_parameters(settings: JsValue, parameters: &[f32]) -> Result<CharModel, JsError> {
        let vocab = Vocabulary::lessons();
        let shape = train_settings(settings)?.shape(vocab.len());
        if parameters.len() != shape.n_params() {
            return Err(Error::out_of_range(
                "the number of parameters",
                parameters.len(),
                format!("a model of {} blocks of width {} has {}", shape.n_layers, shape.d_model, shape.n_params()),
            )
            .into());
        }
        if let Some(i) = parameters.iter().position(|x| !x.is_finite()) {
            return Err(Error::out_of_range("parameter", i, "every parameter must be a finite number").into());
        }
        let mut flat = TrainableGpt::zeros(shape, 1);
        flat.params.copy_from_slice(parameters);
        Ok(CharModel { model: flat.to_model(), vocab, source: "trained".into(), flat: None })
    }

    /// A reader's checkpoint: model.safetensors (`weights`), with its config.json and vocab.json
    /// when they came with it (the layout `tblock train` writes); at most 16 MiB
    /// (`checkpoint_limit()`).
    pub fn from_checkpoint(
        weights: &[u8],
        config_json: Option<String>,
        vocab_json: Option<String>,
    ) -> Result<CharModel, JsError> {
        let (model, vocab) =
            crate::train::model_files::load_model_files(weights, config_json.as_deref(), vocab_json.as_deref())?;
        Ok(CharModel { model, vocab, source: "checkpoint".into(), flat: None })
    }

    /// The largest weights file `from_checkpoint` takes, in bytes.
    pub fn checkpoint_limit() -> f64 {
        crate::train::model_files::MAX_CHECKPOINT_BYTES as f64
    }

    /// A model from a safetensors file (Hugging Face GPT-2 names, F32 or F16, its config inside).
    pub fn from_weights(bytes: &[u8]) -> Result<CharModel, JsError> {
        let model = checkpoint::load(bytes, None)?;
        let vocab = Vocabulary::lessons();
        if model.vocab_size() != vocab.len() {
            return Err(Error::field(
                "vocab_size",
                format!("the model has {} tokens, not the {} characters", model.vocab_size(), vocab.len()),
            )
            .into());
        }
        Ok(CharModel { model, vocab, source: "trained".into(), flat: None })
    }

    /// What the model makes of `text` (its last 16 characters): the symbols, the stream, the logits
    /// and the `k` likeliest next characters at each position.
    pub fn read(&self, text: &str, k: f64) -> Result<JsValue, JsError> {
        to_js(&read(&self.model, &self.vocab, text, amount("k", k)?.min(self.vocab.len()))?)
    }

    /// `length` characters after `prompt`.
    pub fn sample(&self, prompt: &str, length: f64, temperature: f64, seed: f64) -> Result<String, JsError> {
        let (length, seed) = (amount("length", length)?, whole_number("seed", seed)?);
        let mut flat = TrainableGpt::from_model(&self.model, 1)?;
        Ok(generate(&mut flat, &self.vocab, prompt, length, temperature, seed)?)
    }

    /// The model in flat buffers, with `text` as ids (default: the held-out tail of the lesson prose).
    fn flat_and_text(&mut self, text: Option<String>) -> Result<(&mut TrainableGpt, Vec<usize>), Error> {
        if self.flat.is_none() {
            self.flat = Some(TrainableGpt::from_model(&self.model, crate::train::model_files::EXPERIMENT_BATCH)?);
        }
        let ids = match text {
            Some(t) => self.vocab.encode(&t),
            None => Corpus::lessons(&self.vocab, self.model.context()).held_out,
        };
        Ok((self.flat.as_mut().expect("made above"), ids))
    }

    /// The loss on `text` (default: the held-out tail) by the evaluation protocol, with block `block`
    /// "removed" or "overwritten", or every block "intact" (`block` is then ignored). One
    /// configuration a call, so a page can spread an experiment over several frames.
    pub fn loss(&mut self, mode: &str, block: f64, text: Option<String>) -> Result<JsValue, JsError> {
        let n = self.model.blocks.len();
        let mode = match mode {
            "intact" => BlockMode::Intact,
            "removed" => BlockMode::Removed,
            "overwritten" => BlockMode::Overwritten,
            other => {
                return Err(Error::field(
                    "mode",
                    format!(
                        "{:?} is not a block mode: choose intact, removed or overwritten",
                        crate::error::clip(other)
                    ),
                )
                .into())
            }
        };
        let block = if mode == BlockMode::Intact { 0 } else { whole("block", block)? };
        if block >= n {
            return Err(Error::out_of_range("block", block, format!("the model has blocks 0 to {}", n - 1)).into());
        }
        let (flat, ids) = self.flat_and_text(text)?;
        flat.block_modes = vec![BlockMode::Intact; n];
        flat.block_modes[block] = mode;
        let result = crate::train::evaluate::evaluate(flat, &ids);
        flat.block_modes = vec![BlockMode::Intact; n];
        to_js(&result?)
    }

    /// The whole ablation on `text` (default: the held-out tail): `{ intact, uniform, tokens,
    /// blocks: [{ block, removed, overwritten }] }`.
    pub fn ablation(&mut self, text: Option<String>) -> Result<JsValue, JsError> {
        let (flat, ids) = self.flat_and_text(text)?;
        to_js(&ablate(flat, &ids)?)
    }

    /// The stream around each block on `text` (default: the held-out tail): `{ embedding_norm,
    /// positions, blocks: [{ block, stream_norm, attention_norm, attention_fraction, feed_forward_norm,
    /// feed_forward_fraction, cosine_in_out }] }`.
    pub fn stream(&mut self, text: Option<String>) -> Result<JsValue, JsError> {
        let (flat, ids) = self.flat_and_text(text)?;
        to_js(&stream_stats(flat, &ids)?)
    }

    /// `{ source, n_params, layers, width, heads, norm, training }` (training: how the shipped
    /// weights were made, for the shipped model).
    pub fn info(&self) -> Result<JsValue, JsError> {
        let shape = crate::nn::GptShape::of(&self.model)?;
        let training: serde_json::Value = match Shipped::parse(&self.source) {
            Ok(which) => serde_json::from_str(which.training()).unwrap_or_default(),
            Err(_) => serde_json::Value::Null,
        };
        to_js(&serde_json::json!({
            "source": self.source,
            "n_params": self.model.n_params(),
            "layers": shape.n_layers,
            "width": shape.d_model,
            "heads": shape.n_heads,
            "norm": shape.norm,
            "context": shape.context,
            // A uniform guess over the vocabulary: ln V nats (the experiments' dotted line).
            "uniform_loss": (shape.vocab_size as f64).ln(),
            "training": training,
        }))
    }
}
