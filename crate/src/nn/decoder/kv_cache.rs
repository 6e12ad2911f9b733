//! The key/value cache: the keys and values every block computed for the positions read so far,
//! kept, so that a text read again with tokens added costs only the added positions. A position's
//! keys and values depend on the positions before it alone (attention is causal, and the norms
//! and the feed-forward act a position at a time), so they are the same whatever comes after: the
//! continuation's next token runs one position through the blocks, reading the cached ones,
//! where a whole forward ran them all again (GPT-2 small: L = 12 blocks of one position instead of
//! of T). The cached logits agree with a whole forward's within f32 rounding (the attention sums
//! taken in another order natively; tests/kv_cache.rs).
//!
//!   cache.len()                      positions held (≤ the model's context)
//!   decoder.cached_next_logits(&mut cache, ids)   // [V], as next_logits(ids)

use super::{Decoder, WeightSource};
use crate::error::{Error, Result};
use crate::nn::compute::Compute;
use crate::nn::BlockMode;

/// One block's keys and values of the positions held, [P, n_kv·d_head] each (keys rotated, for
/// rotary families).
#[derive(Debug, Default, Clone)]
pub(crate) struct LayerCache {
    pub(super) keys: Vec<f32>,
    pub(super) values: Vec<f32>,
}

impl LayerCache {
    /// Appends the keys and values of new positions (k, v [T, kv_width]); the positions held before.
    pub(super) fn extend(&mut self, k: &[f32], v: &[f32], kv_width: usize) -> usize {
        let before = self.keys.len() / kv_width.max(1);
        self.keys.extend_from_slice(k);
        self.values.extend_from_slice(v);
        before
    }
}

/// The keys and values of a window's first positions, block by block, and the ids they are of.
#[derive(Debug, Default, Clone)]
pub struct KvCache {
    ids: Vec<usize>,
    layers: Vec<LayerCache>,
    /// The blocks' modes and the compute they were made with: another makes other keys.
    made_with: Option<(Vec<BlockMode>, Compute)>,
}

impl KvCache {
    pub fn new() -> KvCache {
        KvCache::default()
    }

    /// Positions held.
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// Bytes of keys and values held.
    pub fn bytes(&self) -> usize {
        self.layers.iter().map(|l| 4 * (l.keys.len() + l.values.len())).sum()
    }

    /// Holds only the first `n` positions.
    fn keep(&mut self, n: usize, kv_width: usize) {
        self.ids.truncate(n);
        for l in &mut self.layers {
            l.keys.truncate(n * kv_width);
            l.values.truncate(n * kv_width);
        }
    }

    /// Holds nothing.
    pub fn clear(&mut self) {
        self.keep(0, 0);
        self.made_with = None;
    }
}

impl<W: WeightSource> Decoder<W> {
    /// The logits after the last of `ids` [V] (as [`Decoder::next_logits`]), running through the
    /// blocks only the positions after the longest start `ids` shares with what `cache` holds (at
    /// least the last one), and leaving `cache` holding all of `ids`. A cache made with other block
    /// modes or compute starts again; so does one left by a failed call.
    pub fn cached_next_logits(&mut self, cache: &mut KvCache, ids: &[usize]) -> Result<Vec<f32>> {
        let context = self.shape.context;
        if ids.is_empty() || ids.len() > context {
            return Err(Error::out_of_range("window", ids.len(), format!("1 to the model's {context} positions")));
        }
        let made_with = (self.block_modes.clone(), self.compute);
        if cache.made_with.as_ref() != Some(&made_with) || cache.layers.len() != self.shape.n_layers {
            cache.clear();
            cache.layers = vec![LayerCache::default(); self.shape.n_layers];
            cache.made_with = Some(made_with);
        }
        let shared = cache.ids.iter().zip(ids).take_while(|(a, b)| a == b).count().min(ids.len() - 1);
        cache.keep(shared, self.shape.kv_width());
        let result = self.run_cached(cache, ids, shared);
        match result {
            Ok(logits) => {
                cache.ids = ids.to_vec();
                Ok(logits)
            }
            Err(e) => {
                cache.clear();
                Err(e)
            }
        }
    }

    /// Positions `first..` of `ids` through the blocks, each block's cached positions read and
    /// extended, then the final norm and the head on the last.
    fn run_cached(&mut self, cache: &mut KvCache, ids: &[usize], first: usize) -> Result<Vec<f32>> {
        let t = self.embed_at(&ids[first..], first)?;
        let angles = self.shape.rotary.as_ref().map(|r| r.angles_of(first..ids.len()));
        self.blocks_from(0, self.shape.n_layers, t, angles.as_ref(), None, Some(&mut cache.layers))?;
        self.final_norm(t)?;
        self.last_row_logits(t)
    }
}
