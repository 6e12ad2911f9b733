//! A checkpoint writing on from a text, a token a step (the page's Write on): each token drawn with
//! the sampler's settings (temperature, top-k, top-p; [`Sampling`]) from the logits after the text
//! so far. The text is read through a key/value cache ([`KvCache`]), so each token after the first
//! runs one position through the blocks, not the whole text again. A text that would pass the
//! model's context is cut: the model then reads its last half-context of tokens, from scratch once,
//! and the step says from which token on ([`Drawn::reads_from`]).
//!
//!   let mut k = Continuation::new(ids, count, sampling, seed, context);
//!   while let Some(drawn) = k.step(&mut decoder)? { ... drawn.id ... }

use crate::error::Result;
use crate::nn::decoder::{Decoder, KvCache, WeightSource};
use crate::nn::init::Rng;
use crate::train::sampler::Sampling;

/// A continuation under way: the ids so far (the text's, then those drawn), the settings and the
/// random numbers they are drawn with, and the keys and values of the ids the model reads.
#[derive(Debug)]
pub struct Continuation {
    ids: Vec<usize>,
    /// Where the text ends and the drawn ids begin.
    from: usize,
    left: usize,
    sampling: Sampling,
    rng: Rng,
    cache: KvCache,
    /// The first id the model reads (0 until the text passes the model's context).
    reads_from: usize,
    context: usize,
}

/// One token drawn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Drawn {
    pub id: usize,
    /// The first token the model read for it (0: the whole text), and whether this step cut there.
    pub reads_from: usize,
    pub cut: bool,
    /// No token is left to draw.
    pub done: bool,
}

impl Continuation {
    /// `count` tokens to draw after `ids` with `sampling`, from random numbers of `seed`, by a model
    /// that reads at most `context` tokens.
    pub fn new(ids: Vec<usize>, count: usize, sampling: Sampling, seed: u64, context: usize) -> Continuation {
        let reads_from = ids.len().saturating_sub(context);
        Continuation {
            from: ids.len(),
            ids,
            left: count,
            sampling,
            rng: Rng::new(seed),
            cache: KvCache::new(),
            reads_from,
            context: context.max(2),
        }
    }

    /// Goes on from `cache`, the keys and values of (a start of) the text already read.
    pub fn reusing(mut self, cache: KvCache) -> Continuation {
        self.cache = cache;
        self
    }

    /// The ids drawn so far.
    pub fn written(&self) -> &[usize] {
        &self.ids[self.from..]
    }

    /// Draws the next token (None once all are drawn): the logits after the ids the model reads, the
    /// cached positions reused.
    pub fn step<W: WeightSource>(&mut self, decoder: &mut Decoder<W>) -> Result<Option<Drawn>> {
        if self.left == 0 {
            return Ok(None);
        }
        let cut = self.ids.len() - self.reads_from > self.context;
        if cut {
            self.reads_from = self.ids.len() - self.context / 2;
        }
        let logits = decoder.cached_next_logits(&mut self.cache, &self.ids[self.reads_from..])?;
        let id = self.sampling.draw(&logits, &mut self.rng);
        self.ids.push(id);
        self.left -= 1;
        Ok(Some(Drawn { id, reads_from: self.reads_from, cut, done: self.left == 0 }))
    }
}
