//! The evaluation protocol, the one way every loss in this project is measured (`tblock eval`, the
//! held-out curve while training, the reference losses, the experiments): encode the text, cut it
//! into consecutive, non-overlapping windows of P + 1 symbols (the last partial window is dropped),
//! feed each window's first P symbols, and score the symbol that follows at every one of those P
//! positions. The loss is the mean cross-entropy over all scored positions, in nats.

use serde::Serialize;

use crate::error::{Error, Result};
use crate::nn::TrainableGpt;
use crate::numbers::thousands;

/// A loss and how many positions it averages.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Evaluation {
    /// Mean cross-entropy in nats.
    pub loss: f64,
    /// Scored positions (the number of windows times P).
    pub tokens: usize,
}

/// The protocol's windows of `context` + 1 ids.
pub fn windows(ids: &[usize], context: usize) -> std::slice::ChunksExact<'_, usize> {
    ids.chunks_exact(context + 1)
}

/// The scored pairs of the protocol: (the symbol before, the symbol to predict), for a baseline
/// that looks back one symbol at most; the model sees the whole window before each target.
pub fn scored_pairs(ids: &[usize], context: usize) -> impl Iterator<Item = (usize, usize)> + '_ {
    windows(ids, context).flat_map(|w| w.windows(2).map(|p| (p[0], p[1])))
}

/// Whether `ids` hold at least one of the protocol's windows; if not, a message that says so.
pub fn check_windows(ids: &[usize], context: usize) -> Result<()> {
    if windows(ids, context).next().is_none() {
        return Err(Error::field(
            "text",
            format!(
                "has {} symbols; at least one window of {} is needed (the model reads {context} and predicts the next)",
                thousands(ids.len() as u64),
                context + 1
            ),
        ));
    }
    Ok(())
}

/// Why a checkpoint's text of `tokens` tokens makes no window of `window` positions (and the token
/// each predicts), and what to change: `context` is how the reader names the window's size (the
/// page's "context", tblock's "--context").
pub fn no_window(tokens: usize, window: usize, context: &str) -> String {
    format!(
        "{} tokens make no window of {} ({window} positions and the token each predicts): give a longer text or a smaller {context}",
        thousands(tokens as u64),
        window + 1
    )
}

/// The summed loss over some of the protocol's windows (each P + 1 ids), up to B at a time: a part of
/// [`evaluate`], for work that is spread over several calls (the page's experiments).
pub fn score_windows(model: &mut TrainableGpt, windows: &[&[usize]]) -> Result<f64> {
    let p = model.shape.context;
    let batch = model.max_batch();
    let (mut inputs, mut targets) = (Vec::with_capacity(batch * p), Vec::with_capacity(batch * p));
    let mut total = 0.0f64;
    for group in windows.chunks(batch) {
        inputs.clear();
        targets.clear();
        for w in group {
            inputs.extend_from_slice(&w[..p]);
            targets.extend_from_slice(&w[1..]);
        }
        model.forward(&inputs, Some(&targets), group.len(), p)?;
        total += model.losses().iter().map(|&l| l as f64).sum::<f64>();
    }
    Ok(total)
}

/// The protocol's loss from the summed loss of `windows` windows of `context` scored positions.
pub fn mean_loss(total: f64, windows: usize, context: usize) -> Evaluation {
    let tokens = windows * context;
    Evaluation { loss: total / tokens as f64, tokens }
}

/// The model's loss on `ids` by the protocol, B windows at a time (B = the model's largest batch).
pub fn evaluate(model: &mut TrainableGpt, ids: &[usize]) -> Result<Evaluation> {
    let p = model.shape.context;
    check_windows(ids, p)?;
    let all: Vec<&[usize]> = windows(ids, p).collect();
    Ok(mean_loss(score_windows(model, &all)?, all.len(), p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_do_not_overlap_and_the_partial_one_is_dropped() {
        let ids: Vec<usize> = (0..40).collect();
        let w: Vec<&[usize]> = windows(&ids, 16).collect();
        assert_eq!(w, [&ids[0..17], &ids[17..34]]);
        assert_eq!(scored_pairs(&ids, 16).count(), 32);
        assert_eq!(scored_pairs(&ids, 16).nth(16), Some((17, 18)));
    }
}
