//! The feed-forward: each position alone, widened to 4d, GELU, narrowed back to d. Without the
//! GELU the two matrices would collapse into one.

use super::activation::gelu;
use super::linear::Linear;
use super::Matrix;
use crate::nn::init::Rng;

#[derive(Debug, Clone, PartialEq)]
pub struct FeedForward {
    /// [d, f] with bias [f].
    pub c_fc: Linear,
    /// [f, d] with bias [d].
    pub c_proj: Linear,
}

impl FeedForward {
    /// d -> hidden -> d, with biases.
    pub fn new(d: usize, hidden: usize, rng: &mut Rng) -> FeedForward {
        FeedForward { c_fc: Linear::new(d, hidden, true, rng), c_proj: Linear::new(hidden, d, true, rng) }
    }

    /// x [T, d] -> [T, d]
    pub fn forward(&self, x: &Matrix) -> Matrix {
        let mut h = self.c_fc.forward(x); // [T, f]
        h.apply(|z| *z = gelu(*z));
        self.c_proj.forward(&h)
    }

    /// d·f + f + f·d + d.
    pub fn n_params(&self) -> usize {
        self.c_fc.n_params() + self.c_proj.n_params()
    }
}
