//! The WebAssembly facade: the only module with `#[wasm_bindgen]`, a file a concern (analytic, the
//! worked examples and the model report; the character model and inspecting it; the experiments;
//! training; timing; a real checkpoint), each under the feature of the facades that export it
//! (Cargo.toml: `make wasm` builds the analytic half, TinyGPT read alone, the whole, and the
//! checkpoint worker's facade with its own tokenizer).
//! Thin by design: it reads what
//! JavaScript passes, calls the library, and returns plain objects (field names as in Rust).
//! Every library error becomes a JavaScript `Error` (the `?` below, through `From<Error> for
//! JsValue` here) whose message is the library's English one, which says what is allowed, and
//! whose `tb` property is the same message as data (messages.rs: a code and its values) for the
//! page to word in the reader's language. What JavaScript
//! passes is checked here before it reaches the library: numbers must be whole where counts are
//! meant, lists must be lists of numbers. Nothing a reader types can reach a panic.

use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::error::Error;
use crate::numbers::whole_number;

/// Runs once when the module is instantiated. In a debug build (wasm-pack test, `wasm-pack build
/// --dev`) a Rust panic is printed to the browser console with its message; release builds leave the
/// hook out. No input should reach a panic either way: the facade checks everything first.
#[wasm_bindgen(start)]
pub fn start() {
    #[cfg(debug_assertions)]
    console_error_panic_hook::set_once();
}

/// A result as JavaScript gets it: the value written as JSON by serde_json and read back by the
/// browser's own `JSON.parse`. One string crosses the boundary instead of one call per field, and
/// the wasm carries one serializer (serde_json, which the config.json and safetensors readers need
/// anyway) instead of two. JSON has no NaN or infinity: a result that holds one gets null there.
fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    let text = serde_json::to_string(value)
        .map_err(|e| JsValue::from(JsError::new(&format!("internal error while returning a result: {e}"))))?;
    js_sys::JSON::parse(&text)
}

/// A library error as the page gets it: an `Error` with the English message, and the message as
/// data in `tb` ({ code, values } or { text }, messages.rs).
impl From<Error> for JsValue {
    fn from(error: Error) -> JsValue {
        let thrown = js_sys::Error::new(&error.to_string());
        if let Ok(data) = to_js(&error.phrase()) {
            let _ = js_sys::Reflect::set(&thrown, &JsValue::from_str("tb"), &data);
        }
        thrown.into()
    }
}

#[cfg(feature = "analytic-facade")]
/// A JavaScript array read entry by entry with `item`; anything but an array is refused with
/// "expected {expected}".
fn list<T>(what: &str, value: &JsValue, expected: &str, item: impl Fn(JsValue) -> Option<T>) -> Result<Vec<T>, Error> {
    let refused = || Error::parse(what, format!("expected {expected}"));
    if !js_sys::Array::is_array(value) {
        return Err(refused());
    }
    value.unchecked_ref::<js_sys::Array>().iter().map(|entry| item(entry).ok_or_else(refused)).collect()
}

#[cfg(feature = "analytic-facade")]
/// A list of numbers as JavaScript passes it (an array), each entry as it is: NaN and the
/// infinities reach the library's own checks, which say what is allowed.
fn numbers(what: &str, value: &JsValue, expected: &str) -> Result<Vec<f64>, Error> {
    list(what, value, expected, |entry| entry.as_f64())
}

#[cfg(feature = "analytic-facade")]
/// A list of rows, each a list of numbers (as [`numbers`]).
fn rows(what: &str, value: &JsValue, expected: &str) -> Result<Vec<Vec<f64>>, Error> {
    list(what, value, expected, |row| numbers(what, &row, expected).ok())
}

#[cfg(feature = "analytic-facade")]
fn floats(what: &str, value: JsValue) -> Result<Vec<f32>, Error> {
    let xs = numbers(what, &value, "a list of numbers")?;
    Ok(xs.into_iter().map(|x| x as f32).collect())
}

fn whole(what: &str, x: f64) -> Result<usize, Error> {
    let n = whole_number(what, x)?;
    usize::try_from(n).map_err(|_| Error::out_of_range(what, n, "it is too large"))
}

#[cfg(feature = "analytic-facade")]
fn ids(value: JsValue) -> Result<Vec<usize>, Error> {
    let xs = numbers("token ids", &value, "a list of whole numbers")?;
    xs.into_iter().map(|x| whole("token id", x)).collect()
}

/// A count typed into the page: a whole number. One far past any limit (1e300, say) is refused here,
/// written as typed ("1e300"), with what is allowed; the settings' own check does the rest.
#[cfg(feature = "tinygpt-facade")]
fn amount(what: &str, x: f64) -> Result<usize, Error> {
    count_within(what, x, || crate::train::settings::allowed(what))
}

/// A whole number typed into the page; one past 10⁹ is refused with `allowed()` before anything
/// larger than any limit is converted.
#[cfg(feature = "tinygpt-facade")]
fn count_within(what: &str, x: f64, allowed: impl FnOnce() -> crate::messages::Phrase) -> Result<usize, Error> {
    if x.is_finite() && x.fract() == 0.0 && x > 1e9 {
        return Err(Error::out_of_range(what, format!("{x:e}"), allowed()));
    }
    whole(what, x)
}

// Each facade's modules: the analytic model (analytic-facade); reading and looking inside the
// character model (tinygpt-facade); the experiments, training and timing (experiments-facade); a real
// checkpoint (checkpoint-facade, on threads with feature threads); what a weights-src folder holds (every facade).
#[cfg(feature = "analytic-facade")]
mod analytic;
#[cfg(feature = "tinygpt-facade")]
mod char_model;
#[cfg(feature = "checkpoint-facade")]
mod checkpoint;
#[cfg(feature = "checkpoint-facade")]
mod checkpoint_sampling;
#[cfg(feature = "checkpoint-facade")]
mod checkpoint_threads;
/// wasm-bindgen-rayon's `initThreadPool(n)` (the threads build): starts n workers on this instance's
/// shared memory, which checkpoint_threads.rs's `usePool(n)` then hands the products.
#[cfg(feature = "threads")]
pub use wasm_bindgen_rayon::init_thread_pool;
#[cfg(feature = "experiments-facade")]
mod experiments;
#[cfg(feature = "tinygpt-facade")]
mod inspect;
#[cfg(feature = "experiments-facade")]
mod measure;
#[cfg(feature = "tinygpt-facade")]
mod settings;
#[cfg(feature = "experiments-facade")]
mod timing;
#[cfg(feature = "experiments-facade")]
mod training;
mod weights_src;

#[cfg(feature = "analytic-facade")]
pub use analytic::*;
#[cfg(feature = "tinygpt-facade")]
pub use char_model::*;
#[cfg(feature = "checkpoint-facade")]
pub use checkpoint::*;
#[cfg(feature = "experiments-facade")]
pub use timing::*;
#[cfg(feature = "experiments-facade")]
pub use training::*;
pub use weights_src::*;
