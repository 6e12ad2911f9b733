//! A linear layer y = x·W + b. W is stored input x output ([in, out]), the layout of GPT-2's Conv1D
//! and of the analytic model's shapes, so a checkpoint's tensor is used as it is.
//!
//! Below the matrix layer, the flat pair that training runs ([`linear_forward`], [`linear_backward`]):
//! row-major buffers, the weight as [out, in] (each output's weights contiguous; nalgebra's
//! column-major [in, out] is exactly this in memory, so a [`Linear`]'s weight is used as it is).

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

/// Σ a[i]·b[i] in eight running sums, so the compiler can keep them in one or two vector registers
/// (a single running sum would force one addition after another).
#[inline]
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut acc = [0.0f32; 8];
    let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
    let rest: f32 = ca.remainder().iter().zip(cb.remainder()).map(|(p, q)| p * q).sum();
    for (x, y) in ca.zip(cb) {
        for k in 0..8 {
            acc[k] += x[k] * y[k];
        }
    }
    ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7])) + rest
}

/// y += a·x, element by element.
#[inline]
pub fn axpy(y: &mut [f32], a: f32, x: &[f32]) {
    for (y, x) in y.iter_mut().zip(x) {
        *y += a * x;
    }
}

/// out [N, out] = inp [N, in] · weightᵀ + bias
///
/// weight [out, in] (row o holds output o's weights)   bias [out]
pub fn linear_forward(out: &mut [f32], inp: &[f32], weight: &[f32], bias: Option<&[f32]>, c_in: usize, c_out: usize) {
    for (o_row, x) in out.chunks_exact_mut(c_out).zip(inp.chunks_exact(c_in)) {
        for (o, (y, w)) in o_row.iter_mut().zip(weight.chunks_exact(c_in)).enumerate() {
            *y = dot(x, w) + bias.map_or(0.0, |b| b[o]);
        }
    }
}

/// The gradients of [`linear_forward`], accumulated (+=) into dinp, dweight and dbias:
///
///   dinp [N, in]     += dout · weight
///   dweight [out, in] += doutᵀ · inp
///   dbias [out]       += Σ_n dout[n]
///
/// dout [N, out]   inp [N, in]   weight [out, in]
#[allow(clippy::too_many_arguments)]
pub fn linear_backward(
    dinp: &mut [f32],
    dweight: &mut [f32],
    dbias: Option<&mut [f32]>,
    dout: &[f32],
    inp: &[f32],
    weight: &[f32],
    c_in: usize,
    c_out: usize,
) {
    for (dx, g_row) in dinp.chunks_exact_mut(c_in).zip(dout.chunks_exact(c_out)) {
        for (&g, w) in g_row.iter().zip(weight.chunks_exact(c_in)) {
            axpy(dx, g, w);
        }
    }
    for (o, dw) in dweight.chunks_exact_mut(c_in).enumerate() {
        for (g_row, x) in dout.chunks_exact(c_out).zip(inp.chunks_exact(c_in)) {
            axpy(dw, g_row[o], x);
        }
    }
    if let Some(db) = dbias {
        for g_row in dout.chunks_exact(c_out) {
            db.iter_mut().zip(g_row).for_each(|(b, g)| *b += g);
        }
    }
}

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
