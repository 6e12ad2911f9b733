//! `tblock inspect`: every intermediate of one forward pass over a text, as JSON. First what
//! transformers' GPT-2 gives with `output_attentions` and `output_hidden_states` (so a script can
//! compare the two directly), then every tensor under the name the library gives it.

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
