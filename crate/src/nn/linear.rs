//! A linear layer y = x·W + b. W is stored input x output ([in, out]), the layout of GPT-2's Conv1D
//! and of the analytic model's shapes, so a checkpoint's tensor is used as it is.
//!
//! Below the matrix layer, the flat pair that training runs ([`linear_forward`], [`linear_backward`],
//! from the kernels crate `tb_kernels`): row-major buffers, the weight as [out, in].

use super::{Matrix, RowVector};
use crate::nn::init::{Rng, INIT_STD};

/// Up to this many rows nalgebra multiplies with its generic code (one short axpy per weight), which is
/// several times slower than a dot product per output for TinyGPT's sizes.
const SMALL_T: usize = 5;

/// x [T, in] · W [in, out] as T·out dot products over contiguous memory: xᵀ's columns are x's rows.
fn small_matmul(x: &Matrix, w: &Matrix) -> Matrix {
    let xt = x.transpose(); // [in, T]
    let (n_in, t) = xt.shape();
    let xs = xt.as_slice();
    Matrix::from_fn(t, w.ncols(), |r, o| {
        let a = &xs[r * n_in..(r + 1) * n_in];
        let b = &w.as_slice()[o * n_in..(o + 1) * n_in];
        let mut acc = [0.0f32; 8];
        for (ca, cb) in a.chunks_exact(8).zip(b.chunks_exact(8)) {
            for k in 0..8 {
                acc[k] += ca[k] * cb[k];
            }
        }
        let tail = n_in - n_in % 8;
        let rest: f32 = a[tail..].iter().zip(&b[tail..]).map(|(p, q)| p * q).sum();
        acc.iter().sum::<f32>() + rest
    })
}

pub use tb_kernels::linear::{axpy, dot, linear_backward, linear_forward};

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
        let mut y = if x.nrows() <= SMALL_T { small_matmul(x, &self.weight) } else { x * &self.weight }; // [T, out]
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
