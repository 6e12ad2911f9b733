//! How the weights move: AdamW (Loshchilov and Hutter, "Decoupled Weight Decay Regularization",
//! 2019) with β₁ 0.9 and β₂ 0.95 as GPT-style training uses them, weight decay on the matrices only
//! (the tables and the linear weights; never gains or biases), the gradient's global norm clipped,
//! and a learning rate that warms up linearly and then stays constant or follows a cosine down to
//! a tenth of its peak.

use std::ops::Range;

use serde::{Deserialize, Serialize};
use tb_kernels::adam::{adam_update, scale, sum_of_squares, Moments};

/// AdamW's state: a running mean of the gradient (m) and of its square (v) for every parameter.
#[derive(Debug, Clone, PartialEq)]
pub struct AdamW {
    pub beta1: f32,
    pub beta2: f32,
    pub eps: f32,
    pub weight_decay: f32,
    /// The parameters that decay (the matrices), as ranges of the flat buffer.
    decays: Vec<Range<usize>>,
    m: Vec<f32>,
    v: Vec<f32>,
    /// Steps taken.
    t: i32,
}

impl AdamW {
    pub fn new(n_params: usize, decays: Vec<Range<usize>>, weight_decay: f32) -> AdamW {
        AdamW {
            beta1: 0.9,
            beta2: 0.95,
            eps: 1e-8,
            weight_decay,
            decays,
            m: vec![0.0; n_params],
            v: vec![0.0; n_params],
            t: 0,
        }
    }

    /// One update at learning rate `lr`, PyTorch's order: the decayed weights shrink by lr·λ, then
    /// θ −= lr · m̂ / (√v̂ + ε) with m̂ and v̂ corrected for their start at 0.
    pub fn step(&mut self, params: &mut [f32], grads: &[f32], lr: f32) {
        self.t += 1;
        let correction1 = 1.0 - self.beta1.powi(self.t);
        let correction2 = 1.0 - self.beta2.powi(self.t);
        let shrink = 1.0 - lr * self.weight_decay;
        for range in &self.decays {
            params[range.clone()].iter_mut().for_each(|p| *p *= shrink);
        }
        let moments = Moments { beta1: self.beta1, beta2: self.beta2, eps: self.eps, correction1, correction2 };
        adam_update(params, grads, &mut self.m, &mut self.v, lr, moments);
    }

    pub fn steps_taken(&self) -> i32 {
        self.t
    }
}

/// Scale the gradient so its global (L2) norm is at most `max_norm`, as PyTorch's
/// `clip_grad_norm_` does (factor max_norm / (norm + 1e-6) when that is below 1). Returns the norm
/// before clipping.
pub fn clip_grad_norm(grads: &mut [f32], max_norm: f32) -> f32 {
    let norm = sum_of_squares(grads).sqrt() as f32;
    let factor = max_norm / (norm + 1e-6);
    if factor < 1.0 {
        scale(grads, factor);
    }
    norm
}

/// What the learning rate does after warmup.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Schedule {
    /// Half a cosine from the peak down to a tenth of it at the last step.
    #[default]
    Cosine,
    /// The peak until the end.
    Constant,
}

/// The learning rate at `step` (0-based) of `steps`: lr·(step + 1)/warmup while warming up, then
/// the schedule from the peak `lr`.
pub fn learning_rate(step: usize, steps: usize, warmup: usize, lr: f32, schedule: Schedule) -> f32 {
    if step < warmup {
        return lr * (step + 1) as f32 / warmup as f32;
    }
    match schedule {
        Schedule::Constant => lr,
        Schedule::Cosine => {
            let floor = lr / 10.0;
            let progress = (step - warmup) as f32 / (steps - warmup).max(1) as f32;
            floor + 0.5 * (lr - floor) * (1.0 + (std::f32::consts::PI * progress.min(1.0)).cos())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn warmup_then_cosine_to_a_tenth() {
        let lr = |s| learning_rate(s, 110, 10, 1e-2, Schedule::Cosine);
        assert!((lr(0) - 1e-3).abs() < 1e-9);
        assert!((lr(9) - 1e-2).abs() < 1e-9);
        assert!((lr(10) - 1e-2).abs() < 1e-9);
        assert!((lr(60) - 5.5e-3).abs() < 1e-6);
        assert!((lr(110) - 1e-3).abs() < 1e-9);
        assert_eq!(learning_rate(50, 110, 0, 1e-2, Schedule::Constant), 1e-2);
    }

    #[test]
    fn the_first_adam_step_moves_each_weight_by_about_lr() {
        // Step 1: m̂ = g and v̂ = g², so every weight moves by lr·g/(|g| + ε) ≈ ±lr; decay on the first two.
        let decays: Vec<Range<usize>> = std::iter::once(0..2).collect();
        let mut adam = AdamW::new(3, decays, 0.1);
        let mut p = [1.0f32, 1.0, 1.0];
        adam.step(&mut p, &[0.5, -2.0, 1e-3], 0.01);
        assert!((p[0] - (1.0 * (1.0 - 0.001) - 0.01)).abs() < 1e-6, "{}", p[0]);
        assert!((p[1] - (1.0 * (1.0 - 0.001) + 0.01)).abs() < 1e-6, "{}", p[1]);
        assert!((p[2] - (1.0 - 0.01)).abs() < 1e-4, "{}", p[2]);
    }

    #[test]
    fn clipping_scales_the_gradient_down_to_the_limit_only() {
        let mut g = [3.0f32, 4.0];
        assert_eq!(clip_grad_norm(&mut g, 1.0), 5.0);
        assert!((g[0] - 0.6).abs() < 1e-6 && (g[1] - 0.8).abs() < 1e-6);
        let mut small = [0.3f32, 0.4];
        clip_grad_norm(&mut small, 1.0);
        assert_eq!(small, [0.3, 0.4]);
    }
}
