//! The optimizer's loops over every parameter: Adam's moment update and the step it takes, and the
//! two sweeps gradient clipping makes. (The schedule, weight decay and the clipping rule: the main
//! crate's train/optimizer.rs.)

/// β₁, β₂, ε and the two bias corrections (1 − β₁ᵗ, 1 − β₂ᵗ) of one step.
#[derive(Debug, Clone, Copy)]
pub struct Moments {
    pub beta1: f32,
    pub beta2: f32,
    pub eps: f32,
    pub correction1: f32,
    pub correction2: f32,
}

/// m ← β₁·m + (1 − β₁)·g;  v ← β₂·v + (1 − β₂)·g²;  θ −= lr · m̂ / (√v̂ + ε), m̂ = m / c₁, v̂ = v / c₂
///
/// params, grads, m, v [P]
pub fn adam_update(params: &mut [f32], grads: &[f32], m: &mut [f32], v: &mut [f32], lr: f32, k: Moments) {
    let (b1, b2) = (k.beta1, k.beta2);
    for (((p, &g), m), v) in params.iter_mut().zip(grads).zip(m).zip(v) {
        *m = b1 * *m + (1.0 - b1) * g;
        *v = b2 * *v + (1.0 - b2) * g * g;
        let denom = (*v / k.correction2).sqrt() + k.eps;
        *p -= lr * (*m / k.correction1) / denom;
    }
}

/// Σ x², summed in f64 (a gradient of tens of thousands of terms keeps its digits).
pub fn sum_of_squares(xs: &[f32]) -> f64 {
    xs.iter().map(|&x| (x as f64) * (x as f64)).sum()
}

/// xs ← factor · xs
pub fn scale(xs: &mut [f32], factor: f32) {
    xs.iter_mut().for_each(|x| *x *= factor);
}
