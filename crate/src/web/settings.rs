//! The training settings as JavaScript gives them (an object of numbers and words), read into
//! `TrainSettings` and checked: for a training run and for a model trained with them.

use wasm_bindgen::prelude::*;

use super::amount;
use crate::error::Error;
use crate::nn::NormPlacement;
use crate::numbers::whole_number;
use crate::train::optimizer::Schedule;
use crate::train::TrainSettings;

/// What JavaScript may set; anything left out (or null) keeps its default.
#[derive(Default)]
struct JsTrainSettings {
    steps: Option<f64>,
    seed: Option<f64>,
    learning_rate: Option<f64>,
    warmup: Option<f64>,
    schedule: Option<String>,
    layers: Option<f64>,
    width: Option<f64>,
    heads: Option<f64>,
    norm: Option<String>,
    batch: Option<f64>,
    weight_decay: Option<f64>,
    grad_clip: Option<f64>,
}

impl JsTrainSettings {
    /// Each setting read as it is, so that NaN or an infinity reaches the settings' own checks (JSON
    /// text would have made it null, and the default would have been used in silence).
    fn read(value: &JsValue, expected: &str) -> Result<JsTrainSettings, Error> {
        // A setting left out or null: None.
        let field = |key: &str| {
            let v = js_sys::Reflect::get(value, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED);
            (!(v.is_undefined() || v.is_null())).then_some(v)
        };
        let wrong = || Error::parse("the training settings", format!("expected {expected}"));
        let number = |key: &str| field(key).map(|v| v.as_f64().ok_or_else(wrong)).transpose();
        let text = |key: &str| field(key).map(|v| v.as_string().ok_or_else(wrong)).transpose();
        Ok(JsTrainSettings {
            steps: number("steps")?,
            seed: number("seed")?,
            learning_rate: number("learning_rate")?,
            warmup: number("warmup")?,
            schedule: text("schedule")?,
            layers: number("layers")?,
            width: number("width")?,
            heads: number("heads")?,
            norm: text("norm")?,
            batch: number("batch")?,
            weight_decay: number("weight_decay")?,
            grad_clip: number("grad_clip")?,
        })
    }
}

/// The settings an object may carry.
const SETTING_NAMES: [&str; 12] = [
    "steps",
    "seed",
    "learning_rate",
    "warmup",
    "schedule",
    "layers",
    "width",
    "heads",
    "norm",
    "batch",
    "weight_decay",
    "grad_clip",
];

pub(super) fn train_settings(value: JsValue) -> Result<TrainSettings, Error> {
    let mut s = TrainSettings::default();
    if value.is_undefined() || value.is_null() {
        return Ok(s);
    }
    let expected = format!("an object with any of {}", SETTING_NAMES.join(", "));
    if !value.is_object() {
        return Err(Error::parse("the training settings", format!("expected {expected}")));
    }
    // Only the fields it knows are read: a misspelt one would be ignored in silence.
    for key in js_sys::Object::keys(value.unchecked_ref::<js_sys::Object>()).iter() {
        let key = key.as_string().unwrap_or_default();
        if !SETTING_NAMES.contains(&key.as_str()) {
            return Err(Error::parse(
                "the training settings",
                format!("{:?} is not a setting; expected {expected}", crate::error::clip(&key)),
            ));
        }
    }
    let js = JsTrainSettings::read(&value, &expected)?;
    let set = |target: &mut usize, what: &str, x: Option<f64>| -> Result<(), Error> {
        if let Some(x) = x {
            *target = amount(what, x)?;
        }
        Ok(())
    };
    set(&mut s.steps, "steps", js.steps)?;
    set(&mut s.warmup, "warmup", js.warmup)?;
    set(&mut s.layers, "layers", js.layers)?;
    set(&mut s.width, "width", js.width)?;
    set(&mut s.heads, "heads", js.heads)?;
    set(&mut s.batch, "batch", js.batch)?;
    if let Some(seed) = js.seed {
        s.seed = whole_number("seed", seed)?;
    }
    if let Some(lr) = js.learning_rate {
        s.learning_rate = lr;
    }
    if let Some(x) = js.weight_decay {
        s.weight_decay = x;
    }
    if let Some(x) = js.grad_clip {
        s.grad_clip = x;
    }
    if let Some(schedule) = js.schedule {
        s.schedule = match schedule.trim() {
            "cosine" => Schedule::Cosine,
            "constant" => Schedule::Constant,
            other => {
                return Err(Error::field(
                    "schedule",
                    format!("{:?} is not a schedule: choose cosine or constant", crate::error::clip(other)),
                ))
            }
        };
    }
    if let Some(norm) = js.norm {
        s.norm = NormPlacement::parse(&norm)?;
    }
    s.validate()?;
    Ok(s)
}
