//! What `tblock eval | ablate | stream` measured on a checkpoint, as its JSON says (`measured`), and
//! the reading of such a file back: a course author publishes the figures `tblock` printed, and
//! `<tb-ablation results-src>` / `<tb-stream results-src>` show them in place of the quoted ones.
//! A file that is not what `tblock` prints for that experiment is refused with a message that says
//! what was expected, so the widget can say so and keep its own model.

use serde::Serialize;
use serde_json::Value;

use super::ablation::Ablation;
use super::stream_figures::StreamStats;
use crate::error::{clip_to, Error, Result};

/// What a measurement was made on: the `measured` object of tblock's JSON.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Measured {
    /// "tblock 0.1.0".
    pub by: String,
    /// The config's name for the model, and its family.
    pub model: String,
    pub family: String,
    /// The analytic model's count, checked against the stored tensors.
    pub parameters: u64,
    /// How most of the stored numbers were stored ("bf16").
    pub dtype: String,
    /// What the linear layers multiplied in: "f32", or "bf16 (amx)" with the instruction set.
    pub compute: String,
    /// Why: "auto: the checkpoint stores bf16, and this CPU multiplies bf16 natively (amx)", "asked
    /// for (--compute f32)", or the page's reason.
    pub compute_reason: String,
    /// The text's file name ("the lesson prose" by default).
    pub text: String,
    /// Positions per window, windows, and the positions scored (windows × context).
    pub context: usize,
    pub windows: usize,
    pub tokens: usize,
}

/// tblock ablate's output: the experiment's figures and what they were measured on.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MeasuredAblation {
    #[serde(flatten)]
    pub ablation: Ablation,
    pub measured: Measured,
}

/// tblock stream's output.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MeasuredStream {
    #[serde(flatten)]
    pub stream: StreamStats,
    pub measured: Measured,
}

/// The largest results file read: a 1,000-block model's figures fit many times over.
pub const RESULTS_LIMIT: usize = 256 * 1024;

fn refuse(command: &str, problem: impl Into<String>) -> Error {
    Error::parse(
        "the results file",
        format!("{}; it should be what `tblock {command}` prints for a checkpoint", problem.into()),
    )
}

/// The file as JSON with a `measured` object of the right fields, within the size allowed.
// Read from a serde_json::Value by hand rather than by derived Deserialize impls: the page's wasm
// already carries the JSON parser, and the derives (flatten above all) would add ~15 KB gzipped.
fn parse(text: &str, command: &str) -> Result<Value> {
    if text.len() > RESULTS_LIMIT {
        return Err(refuse(command, format!("it is {} bytes, over the {} allowed", text.len(), RESULTS_LIMIT)));
    }
    let value: Value = serde_json::from_str(text)
        .map_err(|e| refuse(command, format!("it is not JSON ({})", clip_to(&e.to_string(), 80))))?;
    let Some(m) = value.get("measured").filter(|m| m.is_object()) else {
        return Err(refuse(command, "it has no \"measured\" object naming the model and the text"));
    };
    let printed_by = [("intact", "ablate"), ("embedding_norm", "stream"), ("loss", "eval")]
        .into_iter()
        .find_map(|(key, other)| value.get(key).is_some().then_some(other));
    if let Some(other) = printed_by.filter(|&other| other != command) {
        return Err(Error::parse(
            "the results file",
            format!("it is what `tblock {other}` prints; this widget shows what `tblock {command}` prints"),
        ));
    }
    let texts = ["by", "model", "family", "dtype", "text"].iter().all(|k| m[*k].is_string());
    let counts = ["parameters", "context", "windows", "tokens"].iter().all(|k| m[*k].is_u64());
    if !(texts && counts) {
        return Err(refuse(
            command,
            "its \"measured\" object lacks one of by, model, family, dtype, text (texts) or parameters, context, windows, tokens (whole numbers)",
        ));
    }
    Ok(value)
}

/// `keys` of `value`, each a finite number, or a message naming the first that is not.
fn numbers(command: &str, value: &Value, keys: &[&str], whose: &str) -> Result<()> {
    match keys.iter().find(|k| !value[**k].as_f64().is_some_and(f64::is_finite)) {
        Some(k) => Err(refuse(command, format!("{whose}{k} is not a finite number"))),
        None => Ok(()),
    }
}

/// `blocks`: a non-empty list of objects numbered 0, 1, 2, ... in order, each with `keys`.
fn check_blocks(command: &str, value: &Value, keys: &[&str]) -> Result<()> {
    let Some(blocks) = value["blocks"].as_array().filter(|b| !b.is_empty()) else {
        return Err(refuse(command, "it has no list of blocks"));
    };
    for (i, b) in blocks.iter().enumerate() {
        if b["block"].as_u64() != Some(i as u64) {
            return Err(refuse(command, format!("its blocks are not numbered 0 to {} in order", blocks.len() - 1)));
        }
        numbers(command, b, keys, &format!("block {i}'s "))?;
    }
    Ok(())
}

/// A results file of `tblock ablate`, checked, as it was written.
pub fn read_ablation(text: &str) -> Result<Value> {
    let r = parse(text, "ablate")?;
    numbers("ablate", &r, &["intact", "uniform"], "its ")?;
    check_blocks("ablate", &r, &["removed", "overwritten"])?;
    if r["tokens"] != r["measured"]["tokens"] {
        return Err(refuse("ablate", "its token count is not the one measured says"));
    }
    Ok(r)
}

/// A results file of `tblock stream`, checked, as it was written.
pub fn read_stream(text: &str) -> Result<Value> {
    let r = parse(text, "stream")?;
    numbers("stream", &r, &["embedding_norm"], "its ")?;
    let figures = [
        "stream_norm",
        "attention_norm",
        "attention_fraction",
        "feed_forward_norm",
        "feed_forward_fraction",
        "cosine_in_out",
    ];
    check_blocks("stream", &r, &figures)?;
    if r["positions"] != r["measured"]["tokens"] {
        return Err(refuse("stream", "its position count is not the token count measured says"));
    }
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MEASURED: &str = r#""measured": {"by": "tblock 0.1.0", "model": "gpt2", "family": "gpt2", "parameters": 124439808,
        "dtype": "f32", "text": "mine.txt", "context": 1024, "windows": 2, "tokens": 2048}"#;

    #[test]
    fn what_tblock_prints_is_read_back() {
        let text = format!(
            r#"{{"intact": 3.6, "uniform": 10.82, "tokens": 2048, "blocks": [{{"block": 0, "removed": 9.1, "overwritten": 3.59}}], {MEASURED}}}"#
        );
        let r = read_ablation(&text).unwrap();
        assert_eq!((r["measured"]["model"].as_str(), r["blocks"][0]["removed"].as_f64()), (Some("gpt2"), Some(9.1)));
    }

    #[test]
    fn a_foreign_or_malformed_file_is_named() {
        let no = |text: &str| read_ablation(text).unwrap_err().to_string();
        assert!(no("<html>").contains("the results file could not be read: it is not JSON"), "{}", no("<html>"));
        assert!(no(r#"{"intact": 3}"#).contains("it has no \"measured\" object"));
        let stream_as_ablation = format!(r#"{{"embedding_norm": 4.6, "positions": 2048, "blocks": [], {MEASURED}}}"#);
        assert!(
            no(&stream_as_ablation)
                .ends_with("it is what `tblock stream` prints; this widget shows what `tblock ablate` prints"),
            "{}",
            no(&stream_as_ablation)
        );
        let no_figures = format!(r#"{{"blocks": [], {MEASURED}}}"#);
        assert!(no(&no_figures).contains("its intact is not a finite number; it should be what `tblock ablate` prints"));
        let shuffled = format!(
            r#"{{"intact": 3.6, "uniform": 10.8, "tokens": 2048, "blocks": [{{"block": 1, "removed": 1, "overwritten": 1}}], {MEASURED}}}"#
        );
        assert!(no(&shuffled).contains("its blocks are not numbered 0 to 0 in order"));
        let r = read_stream(&format!(r#"{{"embedding_norm": 4.6, "positions": 2048, "blocks": [], {MEASURED}}}"#));
        assert!(r.unwrap_err().to_string().contains("it has no list of blocks"));
        let nan = format!(
            r#"{{"intact": 3.6, "uniform": 10.8, "tokens": 2048, "blocks": [{{"block": 0, "removed": "9", "overwritten": 1}}], {MEASURED}}}"#
        );
        assert!(no(&nan).contains("block 0's removed is not a finite number"), "{}", no(&nan));
        assert!(no(r#"{"measured": {"by": 1}}"#).contains("its \"measured\" object lacks one of by, model"));
        assert!(no(&" ".repeat(RESULTS_LIMIT + 1)).contains("over the 262144 allowed"));
    }
}
