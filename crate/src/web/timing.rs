//! Timing in the reader's browser: depth as latency, attention's share of a block's time, and the
//! benchmark's workloads, with the page's clock.

use wasm_bindgen::prelude::*;

use super::{amount, count_within, to_js, whole};
use crate::experiments::latency::allowed_repetitions;

/// The page's clock in milliseconds: `performance.now()` (a window's or a worker's), else `Date.now()`.
pub(super) fn now_ms() -> f64 {
    let global = js_sys::global();
    js_sys::Reflect::get(&global, &JsValue::from_str("performance"))
        .ok()
        .filter(|p| p.is_object())
        .and_then(|p| {
            let now = js_sys::Reflect::get(&p, &JsValue::from_str("now")).ok()?;
            now.dyn_ref::<js_sys::Function>()?.call0(&p).ok()?.as_f64()
        })
        .unwrap_or_else(js_sys::Date::now)
}

/// One of the four ways of spending the same block-parameter budget (`index` 0 to 3: 6 x 136,
/// 12 x 96, 24 x 68, 48 x 48), timed in the reader's browser a few runs a call.
#[wasm_bindgen]
pub struct DepthLatency {
    timer: crate::experiments::latency::DepthTimer,
}

#[wasm_bindgen]
impl DepthLatency {
    #[wasm_bindgen(constructor)]
    pub fn new(index: f64) -> Result<DepthLatency, JsValue> {
        Ok(DepthLatency { timer: crate::experiments::latency::DepthTimer::new(whole("configuration", index)?)? })
    }

    /// Time `reps` more runs of one token through the stack (1 to 1,000).
    pub fn run(&mut self, reps: f64) -> Result<(), JsValue> {
        Ok(self.timer.run(count_within("repetitions", reps, allowed_repetitions)?, &now_ms)?)
    }

    /// `{ layers, width, block_params, runs, median_ms }` of the runs so far.
    pub fn result(&self) -> Result<JsValue, JsValue> {
        to_js(&self.timer.result())
    }
}

/// How many ways [`DepthLatency`] knows, and the sequence lengths the attention share is timed at.
#[wasm_bindgen]
pub fn latency_plan() -> Result<JsValue, JsValue> {
    use crate::experiments::latency::{DEPTHS, STAGE_SEQ_LENS};
    to_js(&serde_json::json!({ "depths": DEPTHS, "seq_lens": STAGE_SEQ_LENS }))
}

/// One block of width 64 at one T, timed a few runs a call: its attention stage against the whole
/// block, beside the same share of its FLOPs.
#[wasm_bindgen]
pub struct AttentionTiming {
    timer: crate::experiments::latency::StageTimer,
}

#[wasm_bindgen]
impl AttentionTiming {
    #[wasm_bindgen(constructor)]
    pub fn new(seq_len: f64) -> Result<AttentionTiming, JsValue> {
        Ok(AttentionTiming {
            timer: crate::experiments::latency::StageTimer::new(amount("sequence length", seq_len)?)?,
        })
    }

    /// Take `reps` more timings (1 to 1,000).
    pub fn run(&mut self, reps: f64) -> Result<(), JsValue> {
        Ok(self.timer.run(count_within("repetitions", reps, allowed_repetitions)?, &now_ms)?)
    }

    /// `{ seq_len, runs, attention_ms, block_ms, measured_share, flops_share }` so far (measured_share
    /// null while the block has taken no time the clock can see).
    pub fn result(&self) -> Result<JsValue, JsValue> {
        to_js(&self.timer.result())
    }
}

/// One of `make bench`'s workloads (crate::bench: "forward-5", "forward-16", "train-step"), for the
/// benchmark page and Node to time: the same code criterion times natively.
#[wasm_bindgen]
pub struct Workload {
    inner: crate::bench::Workload,
}

#[wasm_bindgen]
impl Workload {
    #[wasm_bindgen(constructor)]
    pub fn new(name: &str) -> Result<Workload, JsValue> {
        Ok(Workload { inner: crate::bench::Workload::new(name)? })
    }

    /// The workloads' names, in the order the tables list them.
    pub fn names() -> Result<JsValue, JsValue> {
        to_js(&crate::bench::WORKLOADS)
    }

    /// Run it `reps` times (1 to 10,000); returns the last loss.
    pub fn run(&mut self, reps: f64) -> Result<f32, JsValue> {
        Ok(self.inner.run(count_within("repetitions", reps, crate::bench::allowed_repetitions)?)?)
    }

    /// `{ name, tokens, flops }` of one run.
    pub fn info(&self) -> Result<JsValue, JsValue> {
        to_js(
            &serde_json::json!({ "name": self.inner.name(), "tokens": self.inner.tokens(), "flops": self.inner.flops() }),
        )
    }
}

/// The lesson's own timings (quoted, not computed here): `{ source, depth, attention }`.
#[wasm_bindgen]
pub fn reported_latency() -> Result<JsValue, JsValue> {
    use crate::experiments::quoted::{REPORTED_ATTENTION_TIME, REPORTED_DEPTH};
    to_js(&serde_json::json!({
        "source": "reported by the lesson for GPT-2-sized blocks on its author's CPU at batch 1; quoted, not computed here",
        "depth": REPORTED_DEPTH,
        "attention": REPORTED_ATTENTION_TIME,
    }))
}
