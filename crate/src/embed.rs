//! The HTML a course author pastes to show a model in a page: `tblock count MODEL --format html`.
//!
//! A preset is named in the element's `model` attribute. A Hugging Face config.json is inlined in a
//! `<script type="application/json">` beside the element, which points at it with `config-src`, so
//! the page needs no hosting for the file. The widgets read the config with the same import as
//! everything else (`ModelConfig::from_hf_config_json`).

use crate::config::{ModelConfig, PRESET_NAMES};
use crate::error::{Error, Result};
use crate::numbers::thousands;
use crate::Report;

/// The snippet for `<tb-anatomy>` showing `model` (a preset name, or the text of its config.json) at
/// sequence length `seq_len`.
pub fn anatomy_snippet(model: &str, seq_len: u64) -> Result<String> {
    let (config, inline) = if PRESET_NAMES.contains(&model) {
        (ModelConfig::preset(model)?, None)
    } else {
        (ModelConfig::from_hf_config_json(model)?, Some(inline_json(model)?))
    };
    let report = Report::new(&config, seq_len, 1)?;
    let about = format!(
        "<!-- <tb-anatomy>: {}, {} parameters (tblock count). Paste it after the script that defines the widgets. -->",
        comment_safe(&config.label),
        thousands(report.total_params)
    );
    Ok(match inline {
        None => format!("{about}\n<tb-anatomy model=\"{model}\" seq-len=\"{seq_len}\"></tb-anatomy>\n"),
        Some(json) => {
            // The name, and 8 hex digits of the config itself: two models of one family pasted into
            // one page get two ids.
            let id = format!("tb-config-{}-{:08x}", slug(&config.label), fnv1a(json.as_bytes()) as u32);
            format!(
                "{about}\n<script type=\"application/json\" id=\"{id}\">{json}</script>\n\
                 <tb-anatomy config-src=\"#{id}\" seq-len=\"{seq_len}\"></tb-anatomy>\n"
            )
        }
    })
}

/// The config as compact JSON that cannot end its <script> early: every `<` written `\u003c` (a
/// `<` can only stand inside a JSON string, where the escape means the same).
fn inline_json(text: &str) -> Result<String> {
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| Error::field("config.json", format!("could not be read: {e}")))?;
    let compact =
        serde_json::to_string(&value).map_err(|e| Error::field("config.json", format!("could not be written: {e}")))?;
    Ok(compact.replace('<', "\\u003c"))
}

/// An id from a label: lower-case letters and digits, runs of anything else as one `-`.
fn slug(label: &str) -> String {
    let mut out = String::new();
    for c in label.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    let out = out.trim_end_matches('-');
    if out.is_empty() {
        "model".to_string()
    } else {
        out.chars().take(40).collect()
    }
}

/// FNV-1a, 64 bits: a stable fingerprint of the inlined text (not a security measure).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// Text that cannot close or break an HTML comment.
fn comment_safe(text: &str) -> String {
    text.replace("--", "- -").replace(['<', '>'], "")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_preset_is_named_in_the_model_attribute() {
        let html = anatomy_snippet("llama3-8b", 1024).unwrap();
        assert!(html.contains("<tb-anatomy model=\"llama3-8b\" seq-len=\"1024\"></tb-anatomy>"), "{html}");
        assert!(html.contains("8,030,261,248 parameters"), "{html}");
        assert!(!html.contains("<script"));
    }

    #[test]
    fn a_config_is_inlined_where_no_markup_can_escape() {
        let config = r#"{"model_type": "gpt2", "_name_or_path": "a </script><b>x</b> -- model", "n_embd": 64,
            "n_layer": 2, "n_head": 4, "vocab_size": 100, "n_positions": 32}"#;
        let html = anatomy_snippet(config, 8).unwrap();
        let id = html.split("id=\"").nth(1).unwrap().split('"').next().unwrap();
        assert!(
            id.starts_with("tb-config-a-script-b-x-b-model-")
                && id.len() == "tb-config-a-script-b-x-b-model-".len() + 8,
            "{id}"
        );
        assert!(html.contains(&format!("<script type=\"application/json\" id=\"{id}\">")), "{html}");
        assert!(html.contains(&format!("<tb-anatomy config-src=\"#{id}\" seq-len=\"8\"></tb-anatomy>")), "{html}");
        // One script element, closed once; the label's markup is escaped inside it.
        assert_eq!(html.matches("</script>").count(), 1, "{html}");
        assert!(html.contains("\\u003c/script>\\u003cb>"), "{html}");
        // The comment stays one comment.
        assert_eq!(html.matches("-->").count(), 1, "{html}");
        // What is inlined is the same config.
        let json = &html[html.find("application/json").unwrap()..];
        let json = &json[json.find('>').unwrap() + 1..json.find("</script>").unwrap()];
        assert_eq!(ModelConfig::from_hf_config_json(json).unwrap(), ModelConfig::from_hf_config_json(config).unwrap());
    }

    #[test]
    fn two_configs_of_one_family_get_two_ids() {
        let a =
            r#"{"model_type": "gpt2", "n_embd": 64, "n_layer": 2, "n_head": 4, "vocab_size": 100, "n_positions": 32}"#;
        let b = a.replace("\"n_layer\": 2", "\"n_layer\": 3");
        let id = |html: String| html.split("id=\"").nth(1).unwrap().split('"').next().unwrap().to_string();
        assert_ne!(id(anatomy_snippet(a, 8).unwrap()), id(anatomy_snippet(&b, 8).unwrap()));
    }

    #[test]
    fn a_bad_config_or_t_is_refused_with_the_library_message() {
        assert!(anatomy_snippet("{\"model_type\": \"bert\"}", 8)
            .unwrap_err()
            .to_string()
            .contains("supported families"));
        assert!(anatomy_snippet("gpt2-small", 5000).unwrap_err().to_string().contains("1,024"));
    }
}
