//! The checkpoint facade (feature `checkpoint-facade`, www/pkg/checkpoint*): what a page's
//! checkpoint worker runs in its own wasm instance. A Hugging Face checkpoint arrives as its
//! config.json and tokenizer.json, then its shard files a piece at a time (held once, in wasm
//! memory, 16-bit numbers kept 16-bit), is opened by the same code as `tblock` opens a folder with,
//! and is inspected on the reader's text.
//!
//!   const c = new PageCheckpoint(configText, tokenizerBytes);   // family and tokenizer checked
//!   PageCheckpoint.weight_files(indexText | undefined)          // { files, total_size }
//!   PageCheckpoint.check_size(bytes)                            // refused past the page's limit
//!   c.begin(file, size | undefined); c.push(piece)...; c.end()  // each file in turn
//!   c.open(); c.info(); c.inspect(text, top)
//!   c.start_experiment("ablation" | "stream", text | undefined, textName | undefined, context | undefined)
//!                                             // { windows, passes, tokens, context }; text by default
//!                                             // the lesson's held-out prose
//!   c.experiment_step() ... until it says done  // { done, passes }: one forward pass
//!   c.experiment_found()                        // what tblock ablate / stream prints, `measured` and all
//!   c.stop_experiment()
//!   c.next_tokens(...), c.continuation_start(...), c.continuation_step()   // checkpoint_sampling.rs
//!   c.set_threads(n)                            // checkpoint_threads.rs: 1 to the page's pool

use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::{to_js, whole};
use crate::checkpoint::arriving::{check_fits, Arriving, CHECKPOINT_LIMIT};
use crate::checkpoint::opened::{decoder_shape, Checkpoint};
use crate::checkpoint::shards::{index_files, index_total_size};
use crate::checkpoint::tokenizer::TextTokenizer;
use crate::config::ModelConfig;
use crate::error::Error;
use crate::experiments::continuation::Continuation;
use crate::experiments::measured::{Measured, MeasuredAblation, MeasuredStream};
use crate::experiments::stepped::{Experiment, Found, Stepped};
use crate::nn::decoder::{KvCache, MAX_INSPECTED_TOKENS};
use crate::nn::page_threads::on_pool;
use crate::numbers::whole_number;
use crate::train::corpus::held_out_prose;

/// A checkpoint on its way into the page, then opened.
#[wasm_bindgen]
pub struct PageCheckpoint {
    config_text: String,
    tokenizer: Option<TextTokenizer>,
    arriving: Option<Arriving>,
    pub(super) opened: Option<Checkpoint>,
    /// The experiment under way, a forward pass a step, and what it is measured on.
    experiment: Option<(Stepped, Measured)>,
    /// The continuation under way, a token a step (checkpoint_sampling.rs).
    pub(super) continuation: Option<Continuation>,
    /// The keys and values of the text the next tokens last read (checkpoint_sampling.rs).
    pub(super) reading: KvCache,
}

/// The positions an experiment's windows feed when the page does not say: 256, or the model's
/// context when shorter.
const PAGE_CONTEXT: usize = 256;

/// Why the page multiplies a checkpoint in f32 whatever it stores (its `measured.compute_reason`).
const PAGE_COMPUTE: &str = "the page multiplies in f32 (WebAssembly's f32 SIMD) whatever the checkpoint stores";

/// Who measured, in a figure's `measured` (tblock says "tblock 0.1.0").
const MEASURED_BY: &str = concat!("transformer-block ", env!("CARGO_PKG_VERSION"), " in the page");

#[derive(Serialize)]
struct ExperimentPlan {
    windows: usize,
    passes: usize,
    /// Positions scored: windows x context.
    tokens: usize,
    context: usize,
}

#[derive(Serialize)]
struct ExperimentProgress {
    done: bool,
    passes: usize,
}

#[derive(Serialize)]
struct WeightFiles {
    files: Vec<String>,
    /// The index's metadata.total_size (the tensors' bytes), when it says.
    total_size: Option<u64>,
}

#[derive(Serialize)]
struct Info<'a> {
    config: &'a ModelConfig,
    dtype: &'a str,
    parameters: u64,
    bytes: u64,
    /// The most tokens `inspect` reads.
    longest_text: usize,
    /// An experiment's positions a window: by default, and at most.
    context: usize,
    longest_context: usize,
    /// The threads a forward pass runs on (checkpoint_threads.rs).
    threads: usize,
}

#[derive(Serialize)]
struct Next {
    id: usize,
    piece: String,
    probability: f64,
}

#[derive(Serialize)]
struct InspectMeta<'a> {
    text: &'a str,
    ids: &'a [usize],
    pieces: &'a [String],
    layers: usize,
    heads: usize,
    next: Vec<Next>,
}

fn no_experiment() -> JsValue {
    Error::field("experiment", "none is under way: start one first").into()
}

/// `text`'s ids for an inspection or the sampler: 1 to [`MAX_INSPECTED_TOKENS`] tokens (and the
/// model's context), else refused naming the range.
pub(super) fn text_ids(c: &Checkpoint, text: &str) -> crate::error::Result<Vec<usize>> {
    let ids = c.tokenizer.encode(text)?;
    let most = MAX_INSPECTED_TOKENS.min(c.decoder.shape.context);
    if ids.is_empty() || ids.len() > most {
        return Err(Error::out_of_range("tokens of the text", ids.len(), format!("1 to {most} (type some text)")));
    }
    Ok(ids)
}

pub(super) fn not_yet(what: &str) -> JsValue {
    Error::parse("the checkpoint", format!("{what}: its weights have not all arrived and been opened")).into()
}

#[wasm_bindgen]
impl PageCheckpoint {
    /// A checkpoint of config.json `config_text` and tokenizer.json `tokenizer_json`: refused here,
    /// before any weights are fetched, when its family is not one we run or its tokenizer is unreadable.
    #[wasm_bindgen(constructor)]
    pub fn new(config_text: &str, tokenizer_json: &[u8]) -> Result<PageCheckpoint, JsValue> {
        decoder_shape(config_text)?;
        let tokenizer = TextTokenizer::from_json(tokenizer_json)?;
        Ok(PageCheckpoint {
            config_text: config_text.to_string(),
            tokenizer: Some(tokenizer),
            arriving: Some(Arriving::new()),
            opened: None,
            experiment: None,
            continuation: None,
            reading: KvCache::new(),
        })
    }

    /// The most bytes of weights the page holds.
    pub fn limit() -> f64 {
        CHECKPOINT_LIMIT as f64
    }

    /// The shard files to fetch: those `model.safetensors.index.json` (`index_text`) names, or the
    /// one model.safetensors; and the index's total size when it gives one.
    pub fn weight_files(index_text: Option<String>) -> Result<JsValue, JsValue> {
        let files = match &index_text {
            Some(text) => WeightFiles { files: index_files(text)?, total_size: index_total_size(text) },
            None => WeightFiles { files: vec!["model.safetensors".into()], total_size: None },
        };
        to_js(&files)
    }

    /// Refused when `bytes` of weights would not fit in the page, naming the size, the limit and
    /// the command that runs the checkpoint natively.
    pub fn check_size(bytes: f64) -> Result<(), JsValue> {
        Ok(check_fits(whole_number("checkpoint size", bytes)?)?)
    }

    /// The shard file `name` begins; `size` its length in bytes when the server or the disk says it.
    pub fn begin(&mut self, name: &str, size: Option<f64>) -> Result<(), JsValue> {
        let size = size.map(|s| whole_number("file size", s)).transpose()?;
        let arriving = self.arriving.as_mut().ok_or_else(|| not_yet("a file began after it was opened"))?;
        Ok(arriving.begin(name, size)?)
    }

    /// The next piece of the current file (copied into its buffer; JavaScript drops its own).
    pub fn push(&mut self, piece: &[u8]) -> Result<(), JsValue> {
        let arriving = self.arriving.as_mut().ok_or_else(|| not_yet("a piece came after it was opened"))?;
        Ok(arriving.push(piece)?)
    }

    /// The current file is whole (refused if cut short).
    pub fn end(&mut self) -> Result<(), JsValue> {
        let arriving = self.arriving.as_mut().ok_or_else(|| not_yet("a file ended after it was opened"))?;
        Ok(arriving.end()?)
    }

    /// Bytes of weights received so far.
    pub fn received(&self) -> f64 {
        self.arriving.as_ref().map_or(0, Arriving::received) as f64
    }

    /// Every file arrived: read their headers, check the tensors against the config, make the decoder.
    pub fn open(&mut self) -> Result<(), JsValue> {
        let (Some(arriving), Some(tokenizer)) = (self.arriving.take(), self.tokenizer.take()) else {
            return Err(not_yet("it was opened twice"));
        };
        let shards = arriving.finish()?;
        let mut opened = Checkpoint::from_parts(&self.config_text, shards, tokenizer, "the checkpoint")?;
        opened.hold_conv1d_as_linear()?;
        self.opened = Some(opened);
        Ok(())
    }

    /// What the opened checkpoint is: its config (as the analytic model reads it), dtype,
    /// parameters, bytes, and the most tokens an inspection reads.
    pub fn info(&self) -> Result<JsValue, JsValue> {
        let c = self.opened.as_ref().ok_or_else(|| not_yet("info"))?;
        to_js(&Info {
            config: &c.config,
            dtype: &c.dtype,
            parameters: c.parameters,
            bytes: c.mapped_bytes,
            longest_text: MAX_INSPECTED_TOKENS.min(c.decoder.shape.context),
            context: PAGE_CONTEXT.min(c.decoder.shape.context),
            longest_context: c.window(None, "context")?,
            threads: c.decoder.threads(),
        })
    }

    /// One forward pass over `text` as the tokenizer cuts it: { text, ids, pieces, layers, heads,
    /// next: the `top` likeliest next tokens { id, piece, probability }, attentions: per block a
    /// Float32Array [heads, T, T] }.
    pub fn inspect(&mut self, text: &str, top: f64) -> Result<JsValue, JsValue> {
        let top = whole("top", top)?.min(1000);
        let c = self.opened.as_mut().ok_or_else(|| not_yet("inspect"))?;
        let ids = text_ids(c, text)?;
        let pieces = c.tokenizer.pieces(&ids)?;
        let decoder = &mut c.decoder;
        let r = on_pool(|| decoder.inspect(&ids, top))?;
        let next_ids: Vec<usize> = r.next.iter().map(|n| n.id).collect();
        let next_pieces = c.tokenizer.pieces(&next_ids)?;
        let next = r
            .next
            .iter()
            .zip(next_pieces)
            .map(|(n, piece)| Next { id: n.id, piece, probability: n.probability })
            .collect();
        let meta = InspectMeta {
            text,
            ids: &ids,
            pieces: &pieces,
            layers: c.decoder.shape.n_layers,
            heads: c.decoder.shape.n_heads,
            next,
        };
        let object = to_js(&meta)?;
        let attentions: js_sys::Array =
            r.attentions.iter().map(|a| JsValue::from(js_sys::Float32Array::from(a.as_slice()))).collect();
        js_sys::Reflect::set(&object, &"attentions".into(), &attentions)?;
        Ok(object)
    }

    /// Begins experiment `name` ("ablation" or "stream") on `text` as the tokenizer cuts it, in
    /// windows of `context` positions (by default 256, or the model's context when shorter; at most
    /// the model's): { windows, passes, tokens, context }. Refused, naming what is allowed, for an
    /// unknown name, a context out of range, or a text too short for one window. An experiment
    /// under way is dropped.
    pub fn start_experiment(
        &mut self,
        name: &str,
        text: Option<String>,
        text_name: Option<String>,
        context: Option<f64>,
    ) -> Result<JsValue, JsValue> {
        self.experiment = None;
        let what = Experiment::named(name)?;
        let c = self.opened.as_ref().ok_or_else(|| not_yet("an experiment"))?;
        let asked = match context {
            Some(n) => whole("context", n)?,
            None => PAGE_CONTEXT.min(c.decoder.shape.context),
        };
        let window = c.window(Some(asked), "context")?;
        // Named as the page says it, in its reader's language.
        let (text, default_name) = match text {
            Some(text) => (text, "your text"),
            None => (held_out_prose().to_string(), "the lesson's held-out text"),
        };
        let text_name = text_name.unwrap_or_else(|| default_name.into());
        let ids = c.tokenizer.encode(&text)?;
        if crate::train::evaluate::windows(&ids, window).next().is_none() {
            return Err(Error::field("text", crate::train::evaluate::no_window(ids.len(), window, "context")).into());
        }
        let stepped = Stepped::new(what, &ids, window, c.decoder.shape.n_layers)?;
        let measured = Measured {
            by: MEASURED_BY.into(),
            model: c.config.name.clone(),
            family: c.decoder.shape.family.clone(),
            parameters: c.parameters,
            dtype: c.dtype.clone(),
            compute: "f32".into(),
            compute_reason: PAGE_COMPUTE.into(),
            text: text_name,
            context: window,
            windows: stepped.windows(),
            tokens: stepped.windows() * window,
        };
        let plan = ExperimentPlan {
            windows: stepped.windows(),
            passes: stepped.total_passes(),
            tokens: measured.tokens,
            context: window,
        };
        self.experiment = Some((stepped, measured));
        to_js(&plan)
    }

    /// One forward pass of the experiment under way: { done, passes } (passes done so far).
    pub fn experiment_step(&mut self) -> Result<JsValue, JsValue> {
        let c = self.opened.as_mut().ok_or_else(|| not_yet("an experiment"))?;
        let (s, _) = self.experiment.as_mut().ok_or_else(no_experiment)?;
        let decoder = &mut c.decoder;
        if let Err(e) = on_pool(|| s.step(decoder)) {
            self.experiment = None;
            return Err(e.into());
        }
        to_js(&ExperimentProgress { done: s.done(), passes: s.passes_done() })
    }

    /// The finished experiment's figures as `tblock ablate` or `tblock stream` prints them (with
    /// `measured`: in the page, on this text); the experiment ends.
    pub fn experiment_found(&mut self) -> Result<JsValue, JsValue> {
        let c = self.opened.as_ref().ok_or_else(|| not_yet("an experiment"))?;
        let (s, measured) = self.experiment.take().ok_or_else(no_experiment)?;
        if !s.done() {
            self.experiment = Some((s, measured));
            return Err(Error::field("experiment", "it is not finished: step it until it says done").into());
        }
        match s.found(c.decoder.shape.vocab_size) {
            Some(Found::Ablation(ablation)) => to_js(&MeasuredAblation { ablation, measured }),
            Some(Found::Stream(stream)) => to_js(&MeasuredStream { stream, measured }),
            None => Err(no_experiment()),
        }
    }

    /// Drops the experiment under way, if any (a Cancel).
    pub fn stop_experiment(&mut self) {
        self.experiment = None;
    }
}
