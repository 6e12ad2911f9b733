//! Training TinyGPT in the page: the run stepped from a worker (its settings read by settings.rs),
//! the defaults and the reference losses, and the pre-LN/post-LN race.

use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::settings::train_settings;
use super::{amount, to_js, whole};
use crate::error::Error;
use crate::numbers::whole_number;
use crate::train::sample::generate;
use crate::train::sampler::Sampling;
use crate::train::settings::{MAX_BATCH, MAX_LAYERS, MAX_STEPS, WIDTHS};
use crate::train::{corpus::LESSON_PROSE, Corpus, TrainSettings, Trainer, Vocabulary};

/// The defaults of a training run, the limits of each setting, the default corpus's size and the
/// reference losses of its held-out text (uniform, unigram, bigram).
#[wasm_bindgen]
pub fn train_defaults() -> Result<JsValue, JsValue> {
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
pub fn reported_gpt2_small() -> Result<JsValue, JsValue> {
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
pub fn norm_race_settings(steps: f64, seed: f64, warmup: f64) -> Result<JsValue, JsValue> {
    let s = crate::experiments::race::race_settings(
        amount("steps", steps)?,
        whole_number("seed", seed)?,
        amount("warmup", warmup)?,
    );
    s.validate()?;
    to_js(&s)
}

/// `{ uniform, unigram, bigram }`, each a number, as the page got them from `reference_losses`.
fn reference_losses(value: &JsValue) -> Result<crate::train::ReferenceLosses, Error> {
    let number = |key: &str| {
        js_sys::Reflect::get(value, &JsValue::from_str(key))
            .ok()
            .and_then(|v| v.as_f64())
            .ok_or_else(|| Error::parse("the reference losses", "expected { uniform, unigram, bigram }"))
    };
    Ok(crate::train::ReferenceLosses {
        uniform: number("uniform")?,
        unigram: number("unigram")?,
        bigram: number("bigram")?,
    })
}

/// What a race found at `step`, from the two held-out losses and the reference lines
/// (`{ uniform, unigram, bigram }`): `{ step, pre, post, pre_place, post_place, post_lags, text }`.
#[wasm_bindgen]
pub fn norm_race_verdict(step: f64, pre: f64, post: f64, reference: JsValue) -> Result<JsValue, JsValue> {
    let r = reference_losses(&reference)?;
    for (what, x) in [("pre-LN's loss", pre), ("post-LN's loss", post)] {
        if !x.is_finite() {
            return Err(Error::out_of_range(what, x, "a loss is a finite number of nats").into());
        }
    }
    to_js(&crate::experiments::race::verdict(whole("step", step)?, pre, post, &r))
}

/// The lesson's own race (quoted, not computed here): `{ source, findings: [{ what, value }] }`.
#[wasm_bindgen]
pub fn reported_race() -> Result<JsValue, JsValue> {
    to_js(&serde_json::json!({
        "source": "reported by the lesson for two six-block character models trained on its author's text (two seeds, losses read off training batches); quoted, not computed here",
        "findings": crate::experiments::quoted::REPORTED_RACE,
    }))
}

/// The training settings `settings` would give, all of them, checked: what `TrainingRun`'s constructor
/// would accept, without building the run (the corpus, the model) on the page's thread.
#[wasm_bindgen]
pub fn check_train_settings(settings: JsValue) -> Result<JsValue, JsValue> {
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
    pub fn new(settings: JsValue, text: Option<String>) -> Result<TrainingRun, JsValue> {
        let settings = train_settings(settings)?;
        let trainer = Trainer::new(settings, text.as_deref().unwrap_or(LESSON_PROSE))?;
        Ok(TrainingRun { trainer })
    }

    /// Steps until `max_steps` more are done, the run is over, or `budget_ms` milliseconds have
    /// passed (one step at least).
    pub fn run(&mut self, max_steps: f64, budget_ms: f64) -> Result<JsValue, JsValue> {
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
    pub fn held_out_loss(&mut self) -> Result<f64, JsValue> {
        Ok(self.trainer.held_out_loss()?.loss)
    }

    /// `{ uniform, unigram, bigram }`: the reference losses of the held-out text.
    pub fn reference(&self) -> Result<JsValue, JsValue> {
        to_js(&self.trainer.reference)
    }

    pub fn settings(&self) -> Result<JsValue, JsValue> {
        to_js(&self.trainer.settings)
    }

    /// `length` characters after `prompt`, drawn at `temperature` with `seed`.
    pub fn sample(&mut self, prompt: &str, length: f64, temperature: f64, seed: f64) -> Result<String, JsValue> {
        let (length, seed) = (amount("length", length)?, whole_number("seed", seed)?);
        let vocab = self.trainer.vocab.clone();
        let sampling = Sampling::temperature(temperature, vocab.len())?;
        Ok(generate(self.trainer.trainable(), &vocab, prompt, length, &sampling, seed)?)
    }

    /// The model's parameters as they are now, in one flat list (the layout `CharModel.from_parameters`
    /// reads with the same settings).
    pub fn parameters(&mut self) -> Vec<f32> {
        self.trainer.trainable().params.clone()
    }
}

/// Check a results file that `tblock ablate` or `tblock stream` (`command`: "ablate" or "stream")
/// printed for a checkpoint (its text): ablate's `{ intact, uniform, tokens, blocks: [{ block,
/// removed, overwritten }], measured }`, stream's `{ embedding_norm, positions, blocks: [{ block,
/// stream_norm, attention_norm, attention_fraction, feed_forward_norm, feed_forward_fraction,
/// cosine_in_out }], measured }`, measured `{ by, model, family, parameters, dtype, text, context,
/// windows, tokens }`; else an error saying what the file should be. (The page then reads the
/// checked text as it is, with JSON.parse: returning it from here would carry a second JSON
/// serialiser in the wasm.)
#[wasm_bindgen]
pub fn check_results(text: &str, command: &str) -> Result<(), JsValue> {
    use crate::experiments::measured::{read_ablation, read_stream};
    if command == "ablate" {
        read_ablation(text)?;
    } else {
        read_stream(text)?;
    }
    Ok(())
}

/// The largest results file a page reads, in bytes. (In this half, beside the quoted figures: only
/// the widgets that run TinyGPT read results files.)
#[wasm_bindgen]
pub fn results_limit() -> usize {
    crate::experiments::measured::RESULTS_LIMIT
}
