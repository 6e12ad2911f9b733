//! The loss: how surprised the model is by the token that actually comes next. The tied output head
//! scores every token of the vocabulary (logits [N, V] = LN(h) · wteᵀ, [`linear_forward`] with the
//! token table as its weight); softmax turns the scores into probabilities; the loss at a position is
//! −ln of the probability given to the true next token (cross-entropy, in nats). A model that
//! guesses uniformly among V tokens scores ln V at every position.
//!
//! Forward and backward side by side, flat row-major buffers, outputs first.
//!
//! [`linear_forward`]: crate::linear::linear_forward

use crate::activation::{exp, largest};

/// probs [N, V] = softmax of each row of logits [N, V];
/// losses [N] = −ln probs[n, targets[n]], computed as logsumexp(row) − row[target] so that a tiny
/// probability does not lose its digits.
pub fn crossentropy_forward(losses: &mut [f32], probs: &mut [f32], logits: &[f32], targets: &[usize], v: usize) {
    let rows = probs.chunks_exact_mut(v).zip(logits.chunks_exact(v));
    for ((loss, &target), (p, z)) in losses.iter_mut().zip(targets).zip(rows) {
        let max = largest(z);
        p.iter_mut().zip(z).for_each(|(p, &z)| *p = exp(z - max));
        let sum: f32 = p.iter().sum();
        p.iter_mut().for_each(|p| *p /= sum);
        *loss = max + sum.ln() - z[target];
    }
}

/// dlogits [N, V] = scale · (probs − onehot(targets)): the gradient of scale · Σ losses. With
/// scale = 1/N it is the gradient of the mean loss. Overwrites dlogits.
pub fn crossentropy_backward(dlogits: &mut [f32], probs: &[f32], targets: &[usize], v: usize, scale: f32) {
    let rows = dlogits.chunks_exact_mut(v).zip(probs.chunks_exact(v));
    for ((g, p), &target) in rows.zip(targets) {
        for (j, (g, &p)) in g.iter_mut().zip(p).enumerate() {
            *g = scale * (p - if j == target { 1.0 } else { 0.0 });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn equal_scores_cost_ln_v_and_the_gradient_is_probs_minus_onehot() {
        let logits = [0.0f32; 8]; // two positions, V = 4
        let (mut losses, mut probs) = ([0.0; 2], [0.0; 8]);
        crossentropy_forward(&mut losses, &mut probs, &logits, &[1, 3], 4);
        assert!(losses.iter().all(|l| (l - 4f32.ln()).abs() < 1e-6));
        let mut g = [9.0; 8];
        crossentropy_backward(&mut g, &probs, &[1, 3], 4, 0.5);
        assert_eq!(g, [0.125, -0.375, 0.125, 0.125, 0.125, 0.125, 0.125, -0.375]);
    }

    #[test]
    fn a_confident_wrong_guess_keeps_its_digits() {
        let (mut losses, mut probs) = ([0.0; 1], [0.0; 2]);
        crossentropy_forward(&mut losses, &mut probs, &[100.0, 0.0], &[1], 2);
        assert!((losses[0] - 100.0).abs() < 1e-4, "{}", losses[0]);
    }
}
