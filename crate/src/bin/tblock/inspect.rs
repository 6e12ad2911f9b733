//! `tblock inspect`: every intermediate of one forward pass over a text, as JSON. First what
//! transformers' GPT-2 gives with `output_attentions` and `output_hidden_states` (so a script can
//! compare the two directly), then every tensor under the name the library gives it. On a Hugging
//! Face checkpoint folder ([`checkpoint`]): what transformers gives, and the next tokens.

use std::path::Path;

use transformer_block::checkpoint::Checkpoint;
use transformer_block::nn::{TinyGpt, TrainableGpt};
use transformer_block::train::Vocabulary;

pub fn inspect(model: &TinyGpt, vocab: &Vocabulary, text: &str) -> Result<String, String> {
    let mut flat = TrainableGpt::from_model(model, 1).map_err(|e| e.to_string())?;
    let r = flat.inspect(vocab, text).map_err(|e| e.to_string())?;
    if !r.unknown.is_empty() {
        let at: Vec<String> = r.unknown.iter().map(|t| t.to_string()).collect();
        eprintln!(
            "tblock inspect: the character{} at position{} {} (counting from 0, as `unknown` does) {} not in the vocabulary: read as the catch-all symbol U+FFFD",
            if at.len() == 1 { "" } else { "s" },
            if at.len() == 1 { "" } else { "s" },
            at.join(", "),
            if at.len() == 1 { "is" } else { "are" },
        );
    }
    let mut out = serde_json::json!({
        "text": r.text,
        "ids": r.ids,
        "attentions": r.attentions(),
        "hidden_states": r.hidden_states(),
    });
    let serde_json::Value::Object(rest) = serde_json::to_value(&r).map_err(|e| e.to_string())? else {
        return Err("internal error: an inspection is an object".into());
    };
    for (key, value) in rest {
        out.as_object_mut().expect("an object").entry(key).or_insert(value);
    }
    serde_json::to_string(&out).map_err(|e| format!("internal error writing JSON: {e}"))
}

/// `tblock inspect --weights <checkpoint folder>`: one forward pass of a Hugging Face checkpoint over
/// `text` (1 to 64 of its tokens), as transformers shows it with output_attentions and
/// output_hidden_states: text, ids, tokens (each id's text), attentions [L][H][T][T], hidden_states
/// [L+1][T][d] (the last after the final norm), the ten likeliest next tokens, and the model.
pub fn checkpoint(dir: &Path, text: &str) -> Result<String, String> {
    let at = |e: transformer_block::Error| format!("{}: {e}", dir.display());
    let mut checkpoint = Checkpoint::open(dir).map_err(at)?;
    let ids = checkpoint.tokenizer.encode(text).map_err(at)?;
    if ids.is_empty() {
        return Err("the text is empty: give at least one token's worth of text to inspect".into());
    }
    let r = checkpoint.decoder.inspect(&ids, 10).map_err(at)?;
    let (t, s) = (ids.len(), &checkpoint.decoder.shape);
    let nested = |flat: &[f32], row: usize| -> Vec<Vec<f32>> { flat.chunks(row).map(<[f32]>::to_vec).collect() };
    let attentions: Vec<Vec<Vec<Vec<f32>>>> =
        r.attentions.iter().map(|a| a.chunks(t * t).map(|head| nested(head, t)).collect()).collect();
    let hidden_states: Vec<Vec<Vec<f32>>> = r.hidden_states.iter().map(|h| nested(h, s.d_model)).collect();
    let next_ids: Vec<usize> = r.next.iter().map(|n| n.id).collect();
    let next_tokens = checkpoint.tokenizer.pieces(&next_ids).map_err(at)?;
    let next: Vec<serde_json::Value> = r
        .next
        .iter()
        .zip(next_tokens)
        .map(|(n, token)| serde_json::json!({ "id": n.id, "token": token, "probability": n.probability }))
        .collect();
    let out = serde_json::json!({
        "text": text,
        "ids": ids,
        "tokens": checkpoint.tokenizer.pieces(&ids).map_err(at)?,
        "attentions": attentions,
        "hidden_states": hidden_states,
        "next": next,
        "model": {
            "by": concat!("tblock ", env!("CARGO_PKG_VERSION")),
            "model": checkpoint.config.name,
            "family": s.family,
            "parameters": checkpoint.parameters,
            "dtype": checkpoint.dtype,
            "blocks": s.n_layers,
            "heads": s.n_heads,
            "width": s.d_model,
        },
    });
    serde_json::to_string(&out).map_err(|e| format!("internal error writing JSON: {e}"))
}
