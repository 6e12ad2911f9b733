//! The experiments' measurements spread over tasks: start one, then step it within a time budget
//! until it is done (a worker steps in long slices, the page's thread in short ones).

use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::char_model::CharModel;
use super::timing::now_ms;
use super::{to_js, whole};
use crate::error::Error;
use crate::experiments::measurement::{Found, Measure, Measurement};
use crate::nn::BlockMode;

#[derive(Serialize)]
struct Step {
    done: bool,
    windows_done: usize,
    windows: usize,
    /// The loss `{ loss, tokens }` or the stream's figures, once done.
    found: Option<Found>,
}

#[wasm_bindgen]
impl CharModel {
    /// Start measuring `what` on `text` (default: the held-out tail of the lesson prose), in place of
    /// any measurement under way: "loss", with block `block` `mode` ("removed", "overwritten", or
    /// "intact": every block, `block` ignored), or "stream". Then call `measure_step` until done.
    pub fn begin_measure(&mut self, what: &str, mode: &str, block: f64, text: Option<String>) -> Result<(), JsValue> {
        self.measurement = None;
        let measure = match what {
            "loss" => {
                let mode = BlockMode::parse(mode)?;
                let block = if mode == BlockMode::Intact { 0 } else { whole("block", block)? };
                Measure::Loss { mode, block }
            }
            "stream" => Measure::Stream,
            other => {
                return Err(Error::field(
                    "measurement",
                    format!("{:?} is not a measurement: choose loss or stream", crate::error::clip(other)),
                )
                .into())
            }
        };
        let (flat, ids) = self.flat_and_text(text)?;
        let m = Measurement::new(flat, &ids, measure)?;
        self.measurement = Some(m);
        Ok(())
    }

    /// Measure for about `budget_ms` milliseconds (one window at least): `{ done, windows_done,
    /// windows, found }`.
    pub fn measure_step(&mut self, budget_ms: f64) -> Result<JsValue, JsValue> {
        let budget = if budget_ms.is_finite() && budget_ms > 0.0 { budget_ms.min(60_000.0) } else { 0.0 };
        let mut m = self
            .measurement
            .take()
            .ok_or_else(|| Error::field("measurement", "none is under way: call begin_measure first"))?;
        let start = now_ms();
        let flat = self.flat()?;
        let mut count = 1; // windows a step: grown once one window's time is known
        let mut result = Ok(());
        while !m.done() {
            let t0 = now_ms();
            if let Err(e) = m.step(flat, count) {
                result = Err(e);
                break;
            }
            let per_window = (now_ms() - t0) / count as f64;
            let left = budget - (now_ms() - start);
            if left <= per_window {
                break;
            }
            count = if per_window > 0.0 { ((left / per_window) as usize).clamp(1, 64) } else { 64 };
        }
        result?;
        let (windows_done, windows) = m.progress();
        let step = Step { done: m.done(), windows_done, windows, found: m.found() };
        if !m.done() {
            self.measurement = Some(m);
        }
        to_js(&step)
    }
}
