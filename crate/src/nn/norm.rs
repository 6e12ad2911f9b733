//! LayerNorm: each row (one position's d numbers) minus its mean, divided by its spread, then a
//! learned gain γ and bias β. It works on one position at a time; it never mixes positions.
//!
//! [`LayerNorm`] works on matrices, for the worked examples; [`layernorm_forward`] and
//! [`layernorm_backward`] are the flat pair that training runs (row-major [N, d], outputs first).

pub use tb_kernels::norm::{layernorm_backward, layernorm_forward, normalized};

use super::{Matrix, RowVector};

/// The intermediate numbers of normalising one row, for the worked example.
#[derive(Debug, Clone, PartialEq)]
pub struct NormSteps {
    /// μ = (1/d) Σ x_j
    pub mean: f32,
    /// σ² = (1/d) Σ (x_j − μ)²
    pub variance: f32,
    /// √(σ² + ε)
    pub spread: f32,
    /// x − μ
    pub centred: Vec<f32>,
    /// γ ⊙ (x − μ)/√(σ² + ε) + β
    pub output: Vec<f32>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct LayerNorm {
    /// γ [d]
    pub gain: RowVector,
    /// β [d]
    pub bias: RowVector,
    pub eps: f32,
}

impl LayerNorm {
    /// γ = 1, β = 0: the identity scale and shift a model starts from.
    pub fn new(d: usize, eps: f32) -> LayerNorm {
        LayerNorm { gain: RowVector::from_element(d, 1.0), bias: RowVector::zeros(d), eps }
    }

    /// Normalise one row, keeping every intermediate step. `x` has this norm's width d.
    pub fn steps(&self, x: &[f32]) -> NormSteps {
        let d = x.len() as f32;
        let mean = x.iter().sum::<f32>() / d;
        let centred: Vec<f32> = x.iter().map(|v| v - mean).collect();
        let variance = centred.iter().map(|c| c * c).sum::<f32>() / d;
        let spread = (variance + self.eps).sqrt();
        let output = centred.iter().enumerate().map(|(j, c)| self.gain[j] * c / spread + self.bias[j]).collect();
        NormSteps { mean, variance, spread, centred, output }
    }

    /// x [T, d] -> [T, d], each row on its own.
    pub fn forward(&self, x: &Matrix) -> Matrix {
        // Column by column (nalgebra is column-major): each sweep is contiguous and runs over all T
        // positions at once; per position the sums still run j = 0..d in order.
        let (t, d) = x.shape();
        let mut y = x.clone();
        let mut stats = vec![0.0f32; 2 * t]; // [mean; T] then [1/spread; T]
        let (mean, inv) = stats.split_at_mut(t);
        let data = y.as_mut_slice();
        for col in data.chunks_exact(t) {
            mean.iter_mut().zip(col).for_each(|(m, v)| *m += v);
        }
        mean.iter_mut().for_each(|m| *m /= d as f32);
        for col in data.chunks_exact(t) {
            inv.iter_mut().zip(col).zip(&*mean).for_each(|((s, v), m)| *s += (v - m) * (v - m));
        }
        inv.iter_mut().for_each(|s| *s = 1.0 / (*s / d as f32 + self.eps).sqrt());
        for (j, col) in data.chunks_exact_mut(t).enumerate() {
            let (g, b) = (self.gain[j], self.bias[j]);
            for ((v, m), s) in col.iter_mut().zip(&*mean).zip(&*inv) {
                *v = g * (*v - m) * s + b;
            }
        }
        y
    }

    pub fn n_params(&self) -> usize {
        self.gain.len() + self.bias.len()
    }
}
