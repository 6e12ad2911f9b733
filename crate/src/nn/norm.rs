//! LayerNorm: each row (one position's d numbers) minus its mean, divided by its spread, then a
//! learned gain γ and bias β. It works on one position at a time; it never mixes positions.

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
        let d = x.ncols();
        let mut y = x.clone();
        for mut row in y.row_iter_mut() {
            let mean = row.sum() / d as f32;
            let variance = row.iter().map(|v| (v - mean) * (v - mean)).sum::<f32>() / d as f32;
            let inv = 1.0 / (variance + self.eps).sqrt();
            for (j, v) in row.iter_mut().enumerate() {
                *v = self.gain[j] * (*v - mean) * inv + self.bias[j];
            }
        }
        y
    }

    pub fn n_params(&self) -> usize {
        self.gain.len() + self.bias.len()
    }
}
