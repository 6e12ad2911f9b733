//! The transformer block: two sublayers around the residual stream. In GPT-2's order (pre-LN):
//!
//!   x = x + Attn(LN₁(x))      // the only stage that mixes positions
//!   x = x + FFN(LN₂(x))       // each position alone
//!
//! The switches are the lessons' experiments: each sublayer on or off, the residual `add` or
//! `overwrite` (x = f(x)), and the norm `pre` (GPT-2) or `post` (the original transformer:
//! x = LN(x + f(x))).

use super::attention::MultiHeadAttention;
use super::feed_forward::FeedForward;
use super::norm::LayerNorm;
use super::Matrix;
use crate::nn::init::Rng;

/// How a sublayer's output meets the stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Residual {
    /// x + f(x): an edit on top of the stream.
    #[default]
    Add,
    /// f(x): the stream is replaced.
    Overwrite,
}

impl Residual {
    /// The stream after a sublayer wrote `delta` to it: x + delta, or delta.
    pub fn apply(self, stream: &Matrix, delta: Matrix) -> Matrix {
        match self {
            Residual::Add => stream + delta,
            Residual::Overwrite => delta,
        }
    }
}

/// Where the norm sits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum NormPlacement {
    /// Inside the branch, x + f(LN(x)): the stream itself is never normalised (GPT-2).
    #[default]
    Pre,
    /// After the add, LN(x + f(x)): the stream is rescaled at every stage (the original transformer).
    Post,
}

/// The experiment switches of one block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Switches {
    pub attention: bool,
    pub feed_forward: bool,
    pub residual: Residual,
    pub norm: NormPlacement,
}

impl Default for Switches {
    fn default() -> Switches {
        Switches { attention: true, feed_forward: true, residual: Residual::Add, norm: NormPlacement::Pre }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct TransformerBlock {
    pub ln_1: LayerNorm,
    pub attn: MultiHeadAttention,
    pub ln_2: LayerNorm,
    pub mlp: FeedForward,
    pub switches: Switches,
}

impl TransformerBlock {
    /// GPT-2's initialisation for a block of width d with `n_heads` heads and a feed-forward of `hidden`.
    pub fn new(d: usize, n_heads: usize, hidden: usize, attention_bias: bool, eps: f32, rng: &mut Rng) -> Self {
        TransformerBlock {
            ln_1: LayerNorm::new(d, eps),
            attn: MultiHeadAttention::new(d, n_heads, attention_bias, true, rng),
            ln_2: LayerNorm::new(d, eps),
            mlp: FeedForward::new(d, hidden, rng),
            switches: Switches::default(),
        }
    }

    /// The stream [T, d] in, the stream [T, d] out: the same shape, so blocks stack.
    pub fn forward(&self, x: &Matrix) -> Matrix {
        let s = self.switches;
        let mut x = x.clone();
        if s.attention {
            x = Self::stage(&x, &self.ln_1, s, |h| self.attn.forward(h));
        }
        if s.feed_forward {
            x = Self::stage(&x, &self.ln_2, s, |h| self.mlp.forward(h));
        }
        x
    }

    /// One sublayer with its norm and residual, as the switches place them.
    fn stage(x: &Matrix, norm: &LayerNorm, s: Switches, f: impl Fn(&Matrix) -> Matrix) -> Matrix {
        match s.norm {
            NormPlacement::Pre => s.residual.apply(x, f(&norm.forward(x))),
            NormPlacement::Post => norm.forward(&s.residual.apply(x, f(x))),
        }
    }

    pub fn n_params(&self) -> usize {
        self.ln_1.n_params() + self.attn.n_params() + self.ln_2.n_params() + self.mlp.n_params()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block() -> (TransformerBlock, Matrix) {
        let mut rng = Rng::new(5);
        let b = TransformerBlock::new(16, 4, 64, false, 1e-5, &mut rng);
        let x = Matrix::from_row_slice(3, 16, &rng.normal_vec(48, 1.0));
        (b, x)
    }

    #[test]
    fn both_sublayers_off_returns_the_input_unchanged() {
        let (mut b, x) = block();
        b.switches.attention = false;
        b.switches.feed_forward = false;
        for residual in [Residual::Add, Residual::Overwrite] {
            for norm in [NormPlacement::Pre, NormPlacement::Post] {
                b.switches.residual = residual;
                b.switches.norm = norm;
                assert_eq!(b.forward(&x), x);
            }
        }
    }

    #[test]
    fn switches_change_the_computation_as_described() {
        let (mut b, x) = block();
        let pre_add = b.forward(&x);
        let h = &x + b.attn.forward(&b.ln_1.forward(&x));
        let expected = &h + b.mlp.forward(&b.ln_2.forward(&h));
        assert!((pre_add - expected).amax() < 1e-6);

        b.switches.residual = Residual::Overwrite;
        let h = b.attn.forward(&b.ln_1.forward(&x));
        let expected = b.mlp.forward(&b.ln_2.forward(&h));
        assert!((b.forward(&x) - expected).amax() < 1e-6);

        b.switches = Switches { norm: NormPlacement::Post, ..Switches::default() };
        let h = b.ln_1.forward(&(&x + b.attn.forward(&x)));
        let expected = b.ln_2.forward(&(&h + b.mlp.forward(&h)));
        assert!((b.forward(&x) - expected).amax() < 1e-6);
    }

    #[test]
    fn a_block_counts_its_own_weights() {
        // d = 32, 4d feed-forward, no attention biases: 12·1,024 + 160 + 128 (TinyGPT's block).
        let b = TransformerBlock::new(32, 4, 128, false, 1e-5, &mut Rng::new(0));
        assert_eq!(b.n_params(), 12_576);
    }
}
