//! The character model the page reads text with, writes with and runs the experiments on: the
//! shipped models, the untrained seed, a model trained in the page, a reader's checkpoint.

use wasm_bindgen::prelude::*;

use super::settings::train_settings;
use super::{amount, count_within, to_js};
use crate::error::Error;
use crate::nn::{weights as checkpoint, TinyGpt, TrainableGpt};
use crate::numbers::whole_number;
use crate::train::sample::{generate, read};
use crate::train::sampler::Sampling;
use crate::train::shipped::Shipped;
use crate::train::trainer::initial_model;
use crate::train::{TrainSettings, Vocabulary};

/// A character-level TinyGPT for the page to read text with: the shipped trained weights, the
/// untrained model of a seed, or weights trained in the page.
#[wasm_bindgen]
pub struct CharModel {
    pub(super) model: TinyGpt,
    pub(super) vocab: Vocabulary,
    source: String,
    /// The same weights in flat buffers, made on first use by the experiments.
    flat: Option<TrainableGpt>,
    /// A measurement under way (`begin_measure`, `measure_step`: the experiments' facade only).
    #[cfg_attr(not(feature = "experiments-facade"), allow(dead_code))]
    pub(super) measurement: Option<crate::experiments::measurement::Measurement>,
}

#[wasm_bindgen]
impl CharModel {
    /// The trained TinyGPT the page ships.
    pub fn shipped() -> Result<CharModel, JsValue> {
        Self::from_shipped(Shipped::Lessons)
    }

    /// The six-block TinyGPT (width 16) the page ships for the experiments that take blocks out.
    pub fn six_blocks() -> Result<CharModel, JsValue> {
        Self::from_shipped(Shipped::SixBlocks)
    }

    fn from_shipped(which: Shipped) -> Result<CharModel, JsValue> {
        let (model, vocab) = which.load()?;
        Ok(CharModel { model, vocab, source: which.name().into(), flat: None, measurement: None })
    }

    /// The lessons' TinyGPT as initialised from `seed`, before any training.
    pub fn untrained(seed: f64) -> Result<CharModel, JsValue> {
        let seed = whole_number("seed", seed)?;
        let model = initial_model(&TrainSettings { seed, ..TrainSettings::default() }, Vocabulary::lessons().len())?;
        Ok(CharModel { model, vocab: Vocabulary::lessons(), source: "untrained".into(), flat: None, measurement: None })
    }

    /// A model trained with `settings` (what `TrainingRun.settings()` returns) from its flat
    /// `parameters` (what `TrainingRun.parameters()` returns).
    pub fn from_parameters(settings: JsValue, parameters: &[f32]) -> Result<CharModel, JsValue> {
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
        Ok(CharModel { model: flat.to_model(), vocab, source: "trained".into(), flat: None, measurement: None })
    }

    /// A reader's checkpoint: model.safetensors (`weights`), with its config.json and vocab.json
    /// when they came with it (the layout `tblock train` writes); at most 16 MiB
    /// (`checkpoint_limit()`).
    pub fn from_checkpoint(
        weights: &[u8],
        config_json: Option<String>,
        vocab_json: Option<String>,
    ) -> Result<CharModel, JsValue> {
        let (model, vocab) =
            crate::train::model_files::load_model_files(weights, config_json.as_deref(), vocab_json.as_deref())?;
        Ok(CharModel { model, vocab, source: "checkpoint".into(), flat: None, measurement: None })
    }

    /// The largest weights file `from_checkpoint` takes, in bytes.
    pub fn checkpoint_limit() -> f64 {
        crate::train::model_files::MAX_CHECKPOINT_BYTES as f64
    }

    /// A model from a safetensors file (Hugging Face GPT-2 names, F32 or F16, its config inside).
    pub fn from_weights(bytes: &[u8]) -> Result<CharModel, JsValue> {
        let model = checkpoint::load(bytes, None)?;
        let vocab = Vocabulary::lessons();
        if model.vocab_size() != vocab.len() {
            return Err(Error::field(
                "vocab_size",
                format!("the model has {} tokens, not the {} characters", model.vocab_size(), vocab.len()),
            )
            .into());
        }
        Ok(CharModel { model, vocab, source: "trained".into(), flat: None, measurement: None })
    }

    /// What the model makes of `text` (its last 16 characters): the symbols, the stream, the logits
    /// and the `k` likeliest next characters at each position.
    pub fn read(&self, text: &str, k: f64) -> Result<JsValue, JsValue> {
        to_js(&read(&self.model, &self.vocab, text, amount("k", k)?.min(self.vocab.len()))?)
    }

    /// `length` characters after `prompt`, drawn at `temperature` with `seed`, keeping the `top_k`
    /// likeliest characters (default: all) and of those the fewest whose probability adds up to
    /// `top_p` (default 1: all): the sampler `tblock sample` uses.
    pub fn sample(
        &mut self,
        prompt: &str,
        length: f64,
        temperature: f64,
        seed: f64,
        top_k: Option<f64>,
        top_p: Option<f64>,
    ) -> Result<String, JsValue> {
        let (length, seed) = (amount("length", length)?, whole_number("seed", seed)?);
        let sampling = self.sampling(temperature, top_k, top_p)?;
        let vocab = self.vocab.clone();
        Ok(generate(self.flat()?, &vocab, prompt, length, &sampling, seed)?)
    }

    /// The sampler's settings, checked against this model's vocabulary.
    pub(super) fn sampling(&self, temperature: f64, top_k: Option<f64>, top_p: Option<f64>) -> Result<Sampling, Error> {
        let v = self.vocab.len();
        let top_k = top_k.map(|k| count_within("top-k", k, || crate::train::sampler::top_k_allowed(v))).transpose()?;
        Sampling::new(temperature, top_k, top_p, v)
    }

    /// The model in flat buffers, made on first use.
    pub(super) fn flat(&mut self) -> Result<&mut TrainableGpt, Error> {
        if self.flat.is_none() {
            self.flat = Some(TrainableGpt::from_model(&self.model, crate::train::model_files::EXPERIMENT_BATCH)?);
        }
        Ok(self.flat.as_mut().expect("made above"))
    }

    /// `{ source, n_params, layers, width, heads, norm, context, vocab_size, longest_text, uniform_loss,
    /// training }`
    /// (training: how the shipped weights were made, for a shipped model).
    pub fn info(&self) -> Result<JsValue, JsValue> {
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
            "vocab_size": shape.vocab_size,
            // The longest text `inspect` and `attention` read (the context, 16 at most).
            "longest_text": crate::nn::inspect::longest_text(shape.context),
            // A uniform guess over the vocabulary: ln V nats (the experiments' dotted line).
            "uniform_loss": (shape.vocab_size as f64).ln(),
            "training": training,
        }))
    }
}
