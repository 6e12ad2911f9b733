//! The lessons' experiments, run on TinyGPT or a real checkpoint (one file each):
//!
//! - [`ablation`]: take one block out, or make it overwrite the stream instead of adding to it, and
//!   measure the loss.
//! - [`stream`]: how large the stream is entering each block, how much attention and the
//!   feed-forward add to it, and how far each block turns it; [`stream_figures`] counts them.
//! - [`race`]: pre-LN against post-LN, trained side by side, with and without a warmup.
//! - [`continuation`]: a real checkpoint writing on from a text, a token a step, through a KV cache.
//! - [`heads`]: where each head looks, over a text: the previous character, itself, the first position.
//! - [`measured`]: what tblock measured on a checkpoint, and its results read back for the page.
//! - [`measurement`]: a loss or the stream measured a few windows at a time, for the page's tasks.
//! - [`subject`]: what they run on: TinyGPT, or a real checkpoint's forward pass.
//! - [`stepped`]: the ablation or the stream on a real checkpoint a forward pass at a time, for a page.
//! - [`latency`]: depth as latency at equal parameters, and attention's share of a block's time.
//! - [`quoted`]: what the lesson reports measuring on GPT-2 small, to show beside a reader's own run
//!   (quoted, never computed here).

pub mod ablation;
pub mod continuation;
pub mod heads;
pub mod latency;
pub mod measured;
pub mod measurement;
pub mod quoted;
pub mod race;
pub mod stepped;
pub mod stream;
pub mod stream_figures;
pub mod subject;

use crate::error::Result;
use crate::nn::TrainableGpt;
use crate::train::evaluate::check_windows;

/// The text must hold one of the evaluation protocol's windows.
fn check_text(model: &TrainableGpt, ids: &[usize]) -> Result<()> {
    check_windows(ids, model.shape.context)
}
