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

use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::{to_js, whole};
use crate::checkpoint::arriving::{check_fits, Arriving, CHECKPOINT_LIMIT};
use crate::checkpoint::opened::{decoder_shape, Checkpoint};
use crate::checkpoint::shards::{index_files, index_total_size};
use crate::checkpoint::tokenizer::TextTokenizer;
use crate::config::ModelConfig;
use crate::error::Error;
use crate::nn::decoder::MAX_INSPECTED_TOKENS;
use crate::numbers::whole_number;

/// A checkpoint on its way into the page, then opened.
#[wasm_bindgen]
pub struct PageCheckpoint {
    config_text: String,
    tokenizer: Option<TextTokenizer>,
    arriving: Option<Arriving>,
    opened: Option<Checkpoint>,
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

fn not_yet(what: &str) -> JsValue {
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
        self.opened = Some(Checkpoint::from_parts(&self.config_text, shards, tokenizer, "the checkpoint")?);
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
        })
    }

    /// One forward pass over `text` as the tokenizer cuts it: { text, ids, pieces, layers, heads,
    /// next: the `top` likeliest next tokens { id, piece, probability }, attentions: per block a
    /// Float32Array [heads, T, T] }.
    pub fn inspect(&mut self, text: &str, top: f64) -> Result<JsValue, JsValue> {
        let top = whole("top", top)?.min(1000);
        let c = self.opened.as_mut().ok_or_else(|| not_yet("inspect"))?;
        let ids = c.tokenizer.encode(text)?;
        if ids.is_empty() {
            return Err(Error::out_of_range(
                "tokens to inspect",
                0,
                format!("1 to {} (type some text)", MAX_INSPECTED_TOKENS.min(c.decoder.shape.context)),
            )
            .into());
        }
        let pieces = c.tokenizer.pieces(&ids)?;
        let r = c.decoder.inspect(&ids, top)?;
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
}
