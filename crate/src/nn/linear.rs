//! A linear layer y = x·W + b. W is stored input x output ([in, out]), the layout of GPT-2's Conv1D
//! and of the analytic model's shapes, so a checkpoint's tensor is used as it is.

use super::{Matrix, RowVector};
use crate::nn::init::{Rng, INIT_STD};

#[derive(Debug, Clone, PartialEq)]
pub struct Linear {
    /// [in, out]
    pub weight: Matrix,
    /// [out], if the layer has one.
    pub bias: Option<RowVector>,
}

impl Linear {
    /// GPT-2's initialisation: W ~ N(0, 0.02²), b = 0.
    pub fn new(inputs: usize, outputs: usize, bias: bool, rng: &mut Rng) -> Linear {
        let weight = Matrix::from_row_slice(inputs, outputs, &rng.normal_vec(inputs * outputs, INIT_STD));
        Linear { weight, bias: bias.then(|| RowVector::zeros(outputs)) }
    }

    pub fn inputs(&self) -> usize {
        self.weight.nrows()
    }

    pub fn outputs(&self) -> usize {
        self.weight.ncols()
    }

    /// x [T, in] -> [T, out]
    pub fn forward(&self, x: &Matrix) -> Matrix {
        let mut y = x * &self.weight; // [T, out]
        if let Some(b) = &self.bias {
            for mut row in y.row_iter_mut() {
                row += b;
            }
        }
        y
    }

    pub fn n_params(&self) -> usize {
        self.weight.len() + self.bias.as_ref().map_or(0, |b| b.len())
    }
}
