//! The checkpoint facade's threads: in the threads build (feature `threads`, www/pkg/checkpoint-threads*)
//! the worker starts wasm-bindgen-rayon's pool, then says so; every build lets a page (a test, a
//! benchmark) run an opened checkpoint on fewer of them.
//!
//!   await initThreadPool(n); usePool(n);    // the threads build only, in a cross-origin isolated page
//!   c.set_threads(1)                         // 1 to the pool's threads; the same bits on any of them
//!   c.info().threads                         // the threads a forward pass runs on

use wasm_bindgen::prelude::*;

use super::checkpoint::{not_yet, PageCheckpoint};
use super::whole;
use crate::error::Error;
use crate::nn::page_threads::pool_threads;

/// The pool initThreadPool(`threads`) started is running: the checkpoints opened from now on use it.
#[cfg(feature = "threads")]
#[wasm_bindgen(js_name = usePool)]
pub fn use_pool_of(threads: f64) -> Result<(), JsValue> {
    let threads = whole("threads", threads)?;
    if threads == 0 {
        return Err(Error::out_of_range("threads", 0, "1 or more (the workers initThreadPool started)").into());
    }
    crate::nn::page_threads::use_pool(threads);
    Ok(())
}

#[wasm_bindgen]
impl PageCheckpoint {
    /// Run the opened checkpoint's forward passes on `threads` threads: 1 to the page's pool (1 where
    /// the page has none), else refused naming the range.
    pub fn set_threads(&mut self, threads: f64) -> Result<(), JsValue> {
        let most = pool_threads();
        let threads = whole("threads", threads)?;
        if threads == 0 || threads > most {
            let why = if most == 1 { "this page runs one thread" } else { "the threads this page started" };
            return Err(Error::out_of_range("threads", threads, format!("1 to {most} ({why})")).into());
        }
        let c = self.opened.as_mut().ok_or_else(|| not_yet("set_threads"))?;
        c.decoder.set_threads(threads);
        Ok(())
    }
}
