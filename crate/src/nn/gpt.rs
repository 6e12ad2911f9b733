//! The whole model: ids -> token table + position table -> L blocks -> final LayerNorm -> logits
//! through the token table again (tied). TinyGPT is the lessons' size (V 50, d 32, 2 blocks, 16
//! positions, 27,328 parameters); the same code runs any GPT-2-shaped checkpoint.

use super::block::TransformerBlock;
use super::init::{Rng, INIT_STD};
use super::norm::LayerNorm;
use super::Matrix;
use crate::config::{FeedForwardKind, ModelConfig, NormKind, PositionScheme};
use crate::error::{Error, Result};
use crate::messages::{self, Phrase};

#[derive(Debug, Clone, PartialEq)]
pub struct TinyGpt {
    pub config: ModelConfig,
    /// Token table [V, d]; also the output head, transposed.
    pub wte: Matrix,
    /// Position table [P, d].
    pub wpe: Matrix,
    pub blocks: Vec<TransformerBlock>,
    pub ln_f: LayerNorm,
}

/// logits [T, V] = h [T, d] · tableᵀ [d, V]: each position's vector dotted with every row of the
/// token table. This is the tied output head.
pub fn tied_logits(h: &Matrix, table: &Matrix) -> Matrix {
    h * table.transpose()
}

fn unsupported(field: &str, what: &str) -> Error {
    Error::field(field, format!("{what}: the running model is GPT-2-shaped (LayerNorm, GELU, learned positions, tied output, one key/value head per query head)"))
}

impl TinyGpt {
    /// Whether the running model can take this shape.
    pub fn check_config(c: &ModelConfig) -> Result<()> {
        c.validate()?;
        if c.norm != NormKind::LayerNorm {
            return Err(unsupported("norm", "RMSNorm is not supported"));
        }
        if c.feed_forward != FeedForwardKind::Gelu || !c.bias.feed_forward {
            return Err(unsupported("feed_forward", "only the GELU feed-forward with biases is supported"));
        }
        if c.positions != PositionScheme::Learned {
            return Err(unsupported("positions", "only a learned position table is supported"));
        }
        if !c.tied_output {
            return Err(unsupported("tied_output", "a separate output head is not supported"));
        }
        if c.moe.is_some() {
            return Err(unsupported("moe", "a mixture of experts runs as its own layer, not inside the model"));
        }
        if c.n_kv_heads != c.n_heads || c.q_width() != c.d_model {
            return Err(unsupported("n_kv_heads", "grouped key/value heads are not supported"));
        }
        if c.bias.qkv != c.bias.attention_out {
            return Err(unsupported("bias", "attention biases must be on both c_attn and c_proj or on neither"));
        }
        Ok(())
    }

    /// GPT-2's initialisation from `seed`: weights ~ N(0, 0.02²), biases 0, gains 1.
    pub fn new(config: &ModelConfig, seed: u64) -> Result<TinyGpt> {
        Self::check_config(config)?;
        let (v, d, p) = (config.vocab_size as usize, config.d_model as usize, config.context as usize);
        let mut rng = Rng::new(seed);
        let wte = Matrix::from_row_slice(v, d, &rng.normal_vec(v * d, INIT_STD));
        let wpe = Matrix::from_row_slice(p, d, &rng.normal_vec(p * d, INIT_STD));
        let eps = config.norm_eps as f32;
        let blocks = (0..config.n_layers)
            .map(|_| {
                TransformerBlock::new(d, config.n_heads as usize, config.d_ff as usize, config.bias.qkv, eps, &mut rng)
            })
            .collect();
        Ok(TinyGpt { config: config.clone(), wte, wpe, blocks, ln_f: LayerNorm::new(d, eps) })
    }

    /// The lessons' TinyGPT, initialised from `seed`.
    pub fn tiny(seed: u64) -> TinyGpt {
        let config = ModelConfig::preset("tiny-gpt").expect("the tiny-gpt preset exists");
        Self::new(&config, seed).expect("the tiny-gpt preset is GPT-2-shaped")
    }

    pub fn vocab_size(&self) -> usize {
        self.wte.nrows()
    }

    pub fn context(&self) -> usize {
        self.wpe.nrows()
    }

    /// Ids must be a non-empty sequence of at most P tokens, each below V.
    pub fn check_ids(&self, ids: &[usize]) -> Result<()> {
        let (v, p) = (self.vocab_size(), self.context());
        if ids.is_empty() {
            return Err(Error::out_of_range(
                "sequence length",
                0,
                Phrase::of(messages::TOKEN_IDS_FROM).count("max", p),
            ));
        }
        if ids.len() > p {
            return Err(Error::out_of_range(
                "sequence length",
                ids.len(),
                Phrase::of(messages::POSITIONS_AT_MOST).count("max", p),
            ));
        }
        if let Some((i, id)) = ids.iter().enumerate().find(|(_, &id)| id >= v) {
            return Err(Error::out_of_range(
                "token id",
                id,
                Phrase::of(messages::IDS_RUN)
                    .count("last", v - 1)
                    .count("vocab", v)
                    .count("position", i)
                    .count("id", *id),
            ));
        }
        Ok(())
    }

    /// ids [T] -> the stream's start [T, d]: token row plus position row.
    pub fn embed(&self, ids: &[usize]) -> Result<Matrix> {
        self.check_ids(ids)?;
        let d = self.wte.ncols();
        Ok(Matrix::from_fn(ids.len(), d, |t, j| self.wte[(ids[t], j)] + self.wpe[(t, j)]))
    }

    /// ids [T] -> the stream after the last block [T, d]: everything up to the final norm.
    pub fn hidden(&self, ids: &[usize]) -> Result<Matrix> {
        let mut x = self.embed(ids)?;
        for block in &self.blocks {
            x = block.forward(&x);
        }
        Ok(x)
    }

    /// ids [T] -> logits [T, V]: row t scores every possible next token after position t.
    pub fn forward(&self, ids: &[usize]) -> Result<Matrix> {
        let h = self.hidden(ids)?;
        Ok(tied_logits(&self.ln_f.forward(&h), &self.wte))
    }

    /// Make every block a decoder (true, GPT-2) or an encoder (false).
    pub fn set_causal(&mut self, causal: bool) {
        for block in &mut self.blocks {
            block.attn.causal = causal;
        }
    }

    /// Every weight, the tied table once.
    pub fn n_params(&self) -> usize {
        self.wte.len()
            + self.wpe.len()
            + self.blocks.iter().map(TransformerBlock::n_params).sum::<usize>()
            + self.ln_f.n_params()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiny_gpt_has_27_328_parameters_and_the_lessons_shapes() {
        let m = TinyGpt::tiny(0);
        assert_eq!(m.n_params(), 27_328);
        let ids = [3, 1, 4, 1, 5];
        assert_eq!(m.hidden(&ids).unwrap().shape(), (5, 32));
        assert_eq!(m.forward(&ids).unwrap().shape(), (5, 50));
    }

    #[test]
    fn causal_model_row_t_depends_only_on_ids_up_to_t() {
        let m = TinyGpt::tiny(1);
        let a = m.forward(&[3, 1, 4, 1, 5]).unwrap();
        let b = m.forward(&[3, 1, 4, 9, 9]).unwrap();
        assert_eq!(a.rows(0, 3), b.rows(0, 3));
        assert_ne!(a.row(3), b.row(3));
    }

    #[test]
    fn bad_ids_are_refused_with_what_is_allowed() {
        let m = TinyGpt::tiny(0);
        assert_eq!(
            m.forward(&[]).unwrap_err().to_string(),
            "sequence length 0 is out of range: give 1 to 16 token ids"
        );
        assert_eq!(
            m.forward(&[3, 50]).unwrap_err().to_string(),
            "token id 50 is out of range: ids run from 0 to 49 (the vocabulary has 50 tokens); position 1 has 50"
        );
        assert_eq!(
            m.forward(&[0; 17]).unwrap_err().to_string(),
            "sequence length 17 is out of range: the model has 16 positions, so give at most 16 token ids"
        );
    }

    #[test]
    fn only_gpt2_shaped_configs_run() {
        let llama = ModelConfig::preset("llama3-8b").unwrap();
        assert!(TinyGpt::check_config(&llama).unwrap_err().to_string().starts_with("norm: RMSNorm is not supported"));
        assert!(TinyGpt::check_config(&ModelConfig::preset("gpt2-small").unwrap()).is_ok());
    }
}
