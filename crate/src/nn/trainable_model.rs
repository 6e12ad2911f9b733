//! TinyGPT's weights into and out of the flat buffers: from a running [`TinyGpt`] (checked against
//! the working-memory limit first), back to one, and seeded far-from-initialisation weights for tests.
//! The two hold the same weights and give the same logits (tested).

use super::block::{Residual, Switches};
use super::gpt::TinyGpt;
use super::gpt_shape::{GptShape, MAX_WORKING_MEMORY};
use super::trainable::TrainableGpt;
use super::{Matrix, RowVector};
use crate::error::{Error, Result};
use crate::numbers::{short_digits, thousands};

impl TrainableGpt {
    /// A model of `shape` with seeded weights far from initialisation, for tests: matrices
    /// N(0, `spread`²), gains 1 + N(0, (0.8·spread)²), biases N(0, (0.4·spread)²). A bug that drops a
    /// gain or a bias changes what such a model computes.
    #[doc(hidden)]
    pub fn with_random_weights(shape: GptShape, max_batch: usize, seed: u64, spread: f32) -> TrainableGpt {
        let mut m = TrainableGpt::zeros(shape, max_batch);
        let mut rng = super::init::Rng::new(seed);
        for t in shape.tensors() {
            let gain = t.name.contains("ln_") && t.name.ends_with(".weight");
            let std = if gain {
                0.8 * spread
            } else if t.is_matrix() {
                spread
            } else {
                0.4 * spread
            };
            let values = rng.normal_vec(t.len, std);
            for (p, x) in m.params[t.offset..t.offset + t.len].iter_mut().zip(values) {
                *p = if gain { 1.0 + x } else { x };
            }
        }
        m
    }

    /// The same weights as a running [`TinyGpt`]. A model whose buffers would take more than
    /// [`MAX_WORKING_MEMORY`] at `max_batch` is refused, with its size and what is allowed.
    pub fn from_model(m: &TinyGpt, max_batch: usize) -> Result<TrainableGpt> {
        let shape = Self::check_fits(m, max_batch)?;
        Self::from_checked(m, shape, max_batch)
    }

    /// `m`'s shape, if its flat buffers at `max_batch` fit in [`MAX_WORKING_MEMORY`]; else the
    /// refusal `from_model` gives, without allocating anything.
    pub fn check_fits(m: &TinyGpt, max_batch: usize) -> Result<GptShape> {
        let shape = GptShape::of(m)?;
        let bytes = shape.working_memory(max_batch);
        if bytes > MAX_WORKING_MEMORY as f64 {
            let mib = bytes / (1u64 << 20) as f64;
            let mib = if mib < 1e15 { thousands(mib.round() as u64) } else { short_digits(&format!("{mib:.0}")) };
            return Err(Error::field(
                "working memory",
                format!(
                    "{} blocks of width {} ({} heads) with {} positions and {} tokens take {mib} MiB to run {max_batch} \
                     sequences at once in flat buffers (training, sampling, the experiments); allowed is up to 256 MiB: \
                     a shorter context or a smaller model",
                    shape.n_layers,
                    thousands(shape.d_model as u64),
                    thousands(shape.n_heads as u64),
                    thousands(shape.context as u64),
                    thousands(shape.vocab_size as u64),
                ),
            ));
        }
        Ok(shape)
    }

    fn from_checked(m: &TinyGpt, shape: GptShape, max_batch: usize) -> Result<TrainableGpt> {
        let mut t = TrainableGpt::zeros(shape, max_batch);
        let (v, p, d) = (shape.vocab_size, shape.context, shape.d_model);
        let mut at = 0;
        let mut put = |values: &mut dyn Iterator<Item = f32>| {
            for x in values {
                t.params[at] = x;
                at += 1;
            }
        };
        // Tables row by row (nalgebra is column-major); linear weights as they are in memory ([out, in]).
        put(&mut (0..v * d).map(|i| m.wte[(i / d, i % d)]));
        put(&mut (0..p * d).map(|i| m.wpe[(i / d, i % d)]));
        for b in &m.blocks {
            let bias = |l: &super::linear::Linear| l.bias.as_ref().map(|b| b.as_slice().to_vec()).unwrap_or_default();
            for part in [
                b.ln_1.gain.as_slice().to_vec(),
                b.ln_1.bias.as_slice().to_vec(),
                b.attn.c_attn.weight.as_slice().to_vec(),
                bias(&b.attn.c_attn),
                b.attn.c_proj.weight.as_slice().to_vec(),
                bias(&b.attn.c_proj),
                b.ln_2.gain.as_slice().to_vec(),
                b.ln_2.bias.as_slice().to_vec(),
                b.mlp.c_fc.weight.as_slice().to_vec(),
                bias(&b.mlp.c_fc),
                b.mlp.c_proj.weight.as_slice().to_vec(),
                bias(&b.mlp.c_proj),
            ] {
                put(&mut part.into_iter());
            }
        }
        put(&mut m.ln_f.gain.iter().copied());
        put(&mut m.ln_f.bias.iter().copied());
        debug_assert_eq!(at, shape.n_params());
        Ok(t)
    }

    /// The weights as a running [`TinyGpt`] (every switch at its default but the norm's place).
    pub fn to_model(&self) -> TinyGpt {
        let s = self.shape;
        let (v, p, d) = (s.vocab_size, s.context, s.d_model);
        let mut model = TinyGpt::new(&s.model_config(), 0).expect("a GptShape is GPT-2-shaped");
        model.wte = Matrix::from_row_slice(v, d, &self.params[..v * d]);
        model.wpe = Matrix::from_row_slice(p, d, &self.params[v * d..(v + p) * d]);
        let row = |x: &[f32]| RowVector::from_row_slice(x);
        for (i, block) in model.blocks.iter_mut().enumerate() {
            let w = self.block_weights(i);
            block.ln_1.gain = row(w.ln_1_gain);
            block.ln_1.bias = row(w.ln_1_bias);
            block.attn.c_attn.weight = Matrix::from_column_slice(d, 3 * d, w.c_attn_weight);
            block.attn.c_attn.bias = s.attention_bias.then(|| row(w.c_attn_bias));
            block.attn.c_proj.weight = Matrix::from_column_slice(d, d, w.attn_proj_weight);
            block.attn.c_proj.bias = s.attention_bias.then(|| row(w.attn_proj_bias));
            block.ln_2.gain = row(w.ln_2_gain);
            block.ln_2.bias = row(w.ln_2_bias);
            block.mlp.c_fc.weight = Matrix::from_column_slice(d, s.d_ff, w.c_fc_weight);
            block.mlp.c_fc.bias = Some(row(w.c_fc_bias));
            block.mlp.c_proj.weight = Matrix::from_column_slice(s.d_ff, d, w.mlp_proj_weight);
            block.mlp.c_proj.bias = Some(row(w.mlp_proj_bias));
            block.switches = Switches { norm: s.norm, residual: Residual::Add, ..Switches::default() };
        }
        let f = self.shape.block_offset(s.n_layers);
        model.ln_f.gain = row(&self.params[f..f + d]);
        model.ln_f.bias = row(&self.params[f + d..f + 2 * d]);
        model
    }
}
