//! A checkpoint's own tokenizer: the directory's `tokenizer.json`, read by Hugging Face's
//! `tokenizers` crate (the library transformers itself uses), so the ids are the model's ids.
//! Text is encoded as it is, without the special tokens a chat template would add. Natively it is
//! read from the checkpoint's directory; in the page, from the bytes the checkpoint worker fetched
//! (the library's wasm build: fancy-regex rather than onig).

#[cfg(not(target_arch = "wasm32"))]
use std::path::Path;

use crate::error::{clip_to, Error, Result};

pub struct TextTokenizer {
    inner: tokenizers::Tokenizer,
}

impl TextTokenizer {
    /// The tokenizer in `dir`/tokenizer.json.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn open(dir: &Path) -> Result<TextTokenizer> {
        let path = dir.join("tokenizer.json");
        if !path.exists() {
            return Err(Error::parse(
                dir.display().to_string(),
                "it has no tokenizer.json (the checkpoint's tokenizer, as the hub stores it)",
            ));
        }
        let bytes = std::fs::read(&path)
            .map_err(|e| Error::parse(path.display().to_string(), format!("cannot be read ({e})")))?;
        TextTokenizer::from_json(&bytes)
    }

    /// The tokenizer whose tokenizer.json holds `bytes`.
    pub fn from_json(bytes: &[u8]) -> Result<TextTokenizer> {
        let inner = tokenizers::Tokenizer::from_bytes(bytes).map_err(|e| {
            Error::parse(
                "tokenizer.json",
                format!("it is not a tokenizer the tokenizers library reads ({})", clip_to(&e.to_string(), 120)),
            )
        })?;
        Ok(TextTokenizer { inner })
    }

    /// The ids of `text`.
    pub fn encode(&self, text: &str) -> Result<Vec<usize>> {
        let encoding = self.inner.encode(text, false).map_err(|e| {
            Error::parse("the text", format!("the tokenizer refused it ({})", clip_to(&e.to_string(), 120)))
        })?;
        Ok(encoding.get_ids().iter().map(|&id| id as usize).collect())
    }

    /// Each id as the text it stands for (GPT-2's byte-level " the", not "Ġthe"); a piece that is
    /// part of a character's bytes reads as U+FFFD.
    pub fn pieces(&self, ids: &[usize]) -> Result<Vec<String>> {
        ids.iter().map(|&id| self.decode(&[id])).collect()
    }

    /// The text `ids` stand for together (a character split over two pieces whole again).
    pub fn decode(&self, ids: &[usize]) -> Result<String> {
        let ids = ids
            .iter()
            .map(|&id| u32::try_from(id).map_err(|_| Error::out_of_range("token id", id, "a tokenizer's ids")))
            .collect::<Result<Vec<u32>>>()?;
        self.inner.decode(&ids, false).map_err(|e| {
            Error::parse("tokenizer.json", format!("it cannot decode ids {ids:?} ({})", clip_to(&e.to_string(), 120)))
        })
    }

    /// How many ids the tokenizer can give, special tokens included.
    pub fn vocab_size(&self) -> usize {
        self.inner.get_vocab_size(true)
    }
}
