//! The analytic model and the worked examples: presets, the report of one model, the cost curve,
//! the training cost, and each example of the lessons with its defaults.

use wasm_bindgen::prelude::*;

use super::{floats, ids, numbers, rows, to_js, whole};
use crate::config::ModelConfig;
use crate::cost::{cost_curve as curve, training_run as run};
use crate::examples as ex;
use crate::numbers::whole_number;
use crate::report::Report;

/// The presets, in switcher order: `[{ name, label, family, vocab_size, d_model, ... }]`.
#[wasm_bindgen]
pub fn presets() -> Result<JsValue, JsValue> {
    to_js(&ModelConfig::presets())
}

/// The `model_type`s a Hugging Face config.json may have: `["gpt2", "llama", ...]`.
#[wasm_bindgen]
pub fn config_families() -> Result<JsValue, JsValue> {
    to_js(&crate::config::SUPPORTED_FAMILIES)
}

/// Everything about one model at sequence length `seq_len` and batch `batch` (see `Report`).
/// `model` is a preset key or the text of a Hugging Face config.json.
#[wasm_bindgen]
pub fn count(model: &str, seq_len: f64, batch: f64) -> Result<JsValue, JsValue> {
    let config = ModelConfig::from_preset_or_json(model)?;
    let seq_len = whole_number("seq_len", seq_len)?;
    let batch = whole_number("batch", batch)?;
    to_js(&Report::new(&config, seq_len, batch)?)
}

/// Forward FLOPs per token and one block's attention share from T = 1 to the context.
#[wasm_bindgen]
pub fn cost_curve(model: &str, n_points: f64) -> Result<JsValue, JsValue> {
    let config = ModelConfig::from_preset_or_json(model)?;
    to_js(&curve(&config, whole_number("points", n_points)?)?)
}

/// 6·N·D and its time at `utilisation` of `peak_flops_per_second`.
#[wasm_bindgen]
pub fn training_run(
    params: f64,
    tokens: f64,
    peak_flops_per_second: f64,
    utilisation: f64,
) -> Result<JsValue, JsValue> {
    to_js(&run(params, tokens, peak_flops_per_second, utilisation)?)
}

/// 6·N·D for a run of `iterations` steps of `tokens_per_iteration` tokens (whole numbers, as N).
#[wasm_bindgen]
pub fn training_run_per_iteration(
    params: f64,
    tokens_per_iteration: f64,
    iterations: f64,
    peak_flops_per_second: f64,
    utilisation: f64,
) -> Result<JsValue, JsValue> {
    to_js(&crate::cost::training_run_per_iteration(
        params,
        tokens_per_iteration,
        iterations,
        peak_flops_per_second,
        utilisation,
    )?)
}

/// The worked examples' default inputs: the lessons' own numbers.
#[wasm_bindgen]
pub fn example_defaults() -> Result<JsValue, JsValue> {
    let (x, attention, feed_forward) = ex::RESIDUAL_DEFAULT;
    let (normed, table) = ex::TIED_DEFAULT;
    // nanoGPT's run trains GPT-2 small: N as the FLOP count takes it (all but the position table).
    let gpt2_n = crate::cost::forward_flops_per_token(&ModelConfig::preset("gpt2-small")?, 1)?.matmul_params;
    to_js(&serde_json::json!({
        "seed": ex::SEED_DEFAULT,
        "residual": { "x": x, "attention": attention, "feed_forward": feed_forward },
        "layernorm": ex::LAYERNORM_DEFAULT,
        "gelu": ex::GELU_DEFAULT,
        "feed_forward": { "d": 8, "max_d": ex::MAX_FEED_FORWARD_WIDTH },
        "tiny_gpt": { "ids": ex::IDS_DEFAULT },
        "tied_output": { "normed": normed, "table": table },
        "masks": { "n_tokens": 3, "position": 2, "ids": ex::MASK_IDS },
        "moe": { "scores": ex::MOE_SCORES_DEFAULT, "k": 2, "d": 16, "n_experts": 8, "n_tokens": 64,
                 "max_experts": ex::MAX_EXPERTS, "max_d": ex::MAX_MOE_WIDTH },
        "balance": { "even": [[0.25, 0.25, 0.25, 0.25], [0.25, 0.25, 0.25, 0.25]],
                     "all_to_one": [[1.0, 0.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0]] },
        "flops": { "infer_params": 7e9, "train": [[70e9, 1e12], [175e9, 300e9]] },
        "training_run": { "params": gpt2_n, "tokens_per_iteration": crate::cost::NANOGPT_TOKENS_PER_ITERATION,
                          "iterations": crate::cost::NANOGPT_ITERATIONS,
                          "tokens": crate::cost::NANOGPT_TOKENS_PER_ITERATION * crate::cost::NANOGPT_ITERATIONS,
                          "peak": crate::cost::A100_BF16_PEAK,
                          "utilisation": 1.0 },
    }))
}

#[wasm_bindgen]
pub fn example_residual(x: JsValue, attention: JsValue, feed_forward: JsValue) -> Result<JsValue, JsValue> {
    let (x, a, f) =
        (floats("x", x)?, floats("attention's output", attention)?, floats("the feed-forward's output", feed_forward)?);
    to_js(&ex::residual(&x, &a, &f)?)
}

#[wasm_bindgen]
pub fn example_layernorm(x: JsValue) -> Result<JsValue, JsValue> {
    to_js(&ex::layernorm(&floats("the vector", x)?)?)
}

#[wasm_bindgen]
pub fn example_gelu(z: JsValue) -> Result<JsValue, JsValue> {
    to_js(&ex::gelu(&floats("the inputs", z)?)?)
}

#[wasm_bindgen]
pub fn example_feed_forward(d: f64) -> Result<JsValue, JsValue> {
    to_js(&ex::feed_forward(whole("width d", d)?)?)
}

#[wasm_bindgen]
pub fn example_tiny_gpt(token_ids: JsValue, seed: f64) -> Result<JsValue, JsValue> {
    to_js(&ex::tiny_gpt(&ids(token_ids)?, whole_number("seed", seed)?)?)
}

#[wasm_bindgen]
pub fn example_tied_output(normed: JsValue, table: JsValue) -> Result<JsValue, JsValue> {
    let table = rows("the token table", &table, "a list of rows, each a list of numbers")?;
    let table: Vec<Vec<f32>> = table.into_iter().map(|r| r.into_iter().map(|x| x as f32).collect()).collect();
    to_js(&ex::tied_output(&floats("LN(h)", normed)?, &table)?)
}

#[wasm_bindgen]
pub fn example_masks(n_tokens: f64, position: f64, seed: f64) -> Result<JsValue, JsValue> {
    to_js(&ex::masks(
        whole("number of tokens", n_tokens)?,
        whole("position to change", position)?,
        whole_number("seed", seed)?,
    )?)
}

#[wasm_bindgen]
pub fn example_param_count() -> Result<JsValue, JsValue> {
    to_js(&ex::param_count()?)
}

#[wasm_bindgen]
pub fn example_moe_routing(scores: JsValue, k: f64) -> Result<JsValue, JsValue> {
    to_js(&ex::moe_routing(&floats("the router scores", scores)?, whole("k", k)?)?)
}

#[wasm_bindgen]
pub fn example_moe_sizes(d: f64, n_experts: f64, k: f64) -> Result<JsValue, JsValue> {
    to_js(&ex::moe_sizes(whole("width d", d)?, whole("experts", n_experts)?, whole("k", k)?)?)
}

#[wasm_bindgen]
pub fn example_moe_batch(d: f64, n_experts: f64, k: f64, n_tokens: f64, seed: f64) -> Result<JsValue, JsValue> {
    to_js(&ex::moe_batch(
        whole("width d", d)?,
        whole("experts", n_experts)?,
        whole("k", k)?,
        whole("number of tokens", n_tokens)?,
        whole_number("seed", seed)?,
    )?)
}

#[wasm_bindgen]
pub fn example_balance(fractions: JsValue, probabilities: JsValue) -> Result<JsValue, JsValue> {
    let f = numbers("the fractions", &fractions, "a list of numbers")?;
    let p = numbers("the probabilities", &probabilities, "a list of numbers")?;
    to_js(&ex::balance(&f, &p)?)
}

#[wasm_bindgen]
pub fn example_flops(params: f64, tokens: f64) -> Result<JsValue, JsValue> {
    to_js(&ex::flops(params, tokens)?)
}
