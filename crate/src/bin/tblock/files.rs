//! Reading what `tblock` is given: files, texts, a model directory that `tblock train` wrote (or
//! any GPT-2-shaped safetensors file), and a preset or config.json to count.

use std::path::{Path, PathBuf};

use transformer_block::config::{ModelConfig, PRESET_NAMES};
use transformer_block::nn::weights;
use transformer_block::nn::{TinyGpt, TrainableGpt};
use transformer_block::train::shipped::Shipped;
use transformer_block::train::{Corpus, Vocabulary};

use super::args::ModelArg;

fn read(path: &Path) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

/// The model for `forward`: a weights file (with its config) or a seeded TinyGPT.
pub fn model_for_forward(
    weights: Option<PathBuf>,
    config: Option<PathBuf>,
    seed: Option<u64>,
) -> Result<TinyGpt, String> {
    let Some(weights) = weights else {
        return Ok(TinyGpt::tiny(seed.unwrap_or(0)));
    };
    let bytes = read(&weights)?;
    let beside = weights.with_file_name("config.json");
    let config_path = config.or_else(|| beside.exists().then_some(beside));
    let config = match config_path {
        Some(path) => {
            let text = String::from_utf8(read(&path)?).map_err(|_| format!("{}: not UTF-8 text", path.display()))?;
            Some(ModelConfig::from_hf_config_json(&text).map_err(|e| format!("{}: {e}", path.display()))?)
        }
        None => None,
    };
    weights::load(&bytes, config.as_ref()).map_err(|e| format!("{}: {e}", weights.display()))
}

/// A model directory (model.safetensors with config.json and vocab.json beside it) or a
/// .safetensors file (its config beside it or in its metadata), with its vocabulary (the lessons'
/// when there is no vocab.json).
pub fn load_trained(path: &Path) -> Result<(TinyGpt, Vocabulary), String> {
    let file = if path.is_dir() { path.join("model.safetensors") } else { path.to_path_buf() };
    if !file.exists() {
        return Err(format!(
            "cannot read {}: no such file (give a directory that tblock train wrote, or a .safetensors file)",
            file.display()
        ));
    }
    let model = model_for_forward(Some(file.clone()), None, None)?;
    let vocab_path = file.with_file_name("vocab.json");
    let vocab = if vocab_path.exists() {
        let text =
            std::fs::read_to_string(&vocab_path).map_err(|e| format!("cannot read {}: {e}", vocab_path.display()))?;
        Vocabulary::from_json(&text).map_err(|e| format!("{}: {e}", vocab_path.display()))?
    } else {
        Vocabulary::lessons()
    };
    if vocab.len() != model.vocab_size() {
        return Err(format!(
            "{}: the vocabulary has {} symbols but the model's token table has {} rows",
            vocab_path.display(),
            vocab.len(),
            model.vocab_size()
        ));
    }
    Ok((model, vocab))
}

/// A trained model, ready to score, and the text to score as ids: `text`, or by default the
/// held-out tail of the lesson prose.
pub fn model_and_text(weights: &Path, text: Option<&Path>) -> Result<(TrainableGpt, Vec<usize>), String> {
    let (model, vocab) = load_trained(weights)?;
    let ids = text_ids(&vocab, model.context(), text)?;
    let flat = TrainableGpt::from_model(&model, 16).map_err(|e| e.to_string())?;
    Ok((flat, ids))
}

pub fn read_text(path: &Path) -> Result<String, String> {
    let bytes = read(path)?;
    String::from_utf8(bytes)
        .map_err(|e| format!("{}: not UTF-8 text (byte {})", path.display(), e.utf8_error().valid_up_to()))
}

/// A preset key, or else a path to a config.json.
pub fn load(model: &str) -> Result<ModelConfig, String> {
    if PRESET_NAMES.contains(&model) {
        return ModelConfig::preset(model).map_err(|e| e.to_string());
    }
    let path = Path::new(model);
    if !path.exists() {
        if model.ends_with(".json") || model.contains(std::path::MAIN_SEPARATOR) {
            return Err(format!("cannot read {model}: no such file"));
        }
        return ModelConfig::preset(model).map_err(|e| e.to_string());
    }
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {model}: {e}"))?;
    ModelConfig::from_hf_config_json(&text).map_err(|e| format!("{model}: {e}"))
}

/// The model `--weights` or `--model` names, with its vocabulary.
pub fn chosen_model(arg: &ModelArg) -> Result<(TinyGpt, Vocabulary), String> {
    match (&arg.weights, &arg.model) {
        (Some(path), _) => load_trained(path),
        (None, Some(name)) => Shipped::parse(name).and_then(Shipped::load).map_err(|e| e.to_string()),
        (None, None) => Err("give --weights DIR or --model shipped|six-blocks".into()),
    }
}

/// The held-out tail of the lesson prose, or the text of `path`, as ids.
pub fn text_ids(vocab: &Vocabulary, context: usize, text: Option<&Path>) -> Result<Vec<usize>, String> {
    Ok(match text {
        Some(path) => vocab.encode(&read_text(path)?),
        None => Corpus::lessons(vocab, context).held_out,
    })
}
