//! The head and the loss: the final stream times the vocabulary's rows, a slice of the vocabulary
//! at a time, so T x V logits are never held; the loss a running log-sum-exp per position.

use std::ops::Range;

use super::matrices::as_f32;
use super::{sized, Decoder, StreamWatcher, WeightSource};
use crate::error::{Error, Result};
use crate::nn::parallel::{linear_forward_on, product_on, Compute};
use crate::nn::stored_forward::stored_forward_on;
use tb_kernels::product::{max_exp_sum, Stored, StoredMatrix};

/// Rows of the head applied at once: 1,024 x d weights, and T x 1,024 logits (4 MiB at T = 1,024;
/// 4,096 rows held 16 MiB, as much as the rest of GPT-2 small's activations, for no measured gain).
pub(super) const HEAD_ROWS: usize = 1024;

/// In the page, where the head is read in place, more rows at once while T x rows logits stay within
/// this many (4 MiB): a written token's whole vocabulary in one product, not 49 (each a round trip to
/// the page's threads). Natively the slices stay HEAD_ROWS.
const PAGE_HEAD_LOGITS: usize = 1 << 20;

impl<W: WeightSource> Decoder<W> {
    /// The head over the final stream, a slice of the vocabulary at a time (HEAD_ROWS rows, more in the
    /// page: PAGE_HEAD_LOGITS): `each(rows, logits)` gets logits [T, rows.len()] for vocabulary rows `rows`.
    pub(super) fn head(&mut self, t: usize, mut each: impl FnMut(Range<usize>, &[f32])) -> Result<()> {
        let (v, d) = (self.shape.vocab_size, self.shape.d_model);
        let head = self.name(self.shape.head());
        let bf16 = self.compute == Compute::Bf16;
        if bf16 {
            self.act.rounded.round(&self.act.normed, t, d);
        }
        // The head in the mapped file, where the products read it there.
        let in_place = if self.reads_in_place() { self.weights.stored(&head, &[v, d])?.map(as_f32) } else { None };
        let slice = match in_place {
            Some(_) if cfg!(target_arch = "wasm32") => (PAGE_HEAD_LOGITS / t.max(1)).max(HEAD_ROWS),
            _ => HEAD_ROWS,
        };
        for start in (0..v).step_by(slice) {
            let rows = start..(start + slice).min(v);
            let n = rows.len();
            if in_place.is_none() {
                self.weights.read_rows(&head, v, d, rows.clone(), &mut self.act.head_rows)?;
            }
            let a = &mut self.act;
            let logits = sized(&mut a.logits, t * n);
            // Rows start..start+n of the head [V, d], in the file or in the f32 copy of them.
            let m = match in_place {
                Some(data) => StoredMatrix { offset: start * d, ..StoredMatrix::rows(data, n, d) },
                None => StoredMatrix::rows(Stored::F32(&a.head_rows), n, d),
            };
            match in_place {
                _ if bf16 => product_on(self.isa, self.threads, logits, &a.rounded, &m, None),
                Some(_) => stored_forward_on(self.threads, logits, &a.normed, &m, None, a.widened.get_mut()),
                _ => linear_forward_on(self.kernel, self.threads, logits, &a.normed, &a.head_rows, None, d, n),
            }
            each(rows, &a.logits);
        }
        Ok(())
    }

    /// The summed cross-entropy (nats) of predicting `targets[t]` after `ids[..=t]`, for every t.
    pub fn window_loss(&mut self, ids: &[usize], targets: &[usize]) -> Result<f64> {
        self.window_loss_with(ids, targets, None)
    }

    /// As [`Decoder::window_loss`], showing `streams` the stream around every block.
    pub fn window_loss_with(
        &mut self,
        ids: &[usize],
        targets: &[usize],
        streams: Option<StreamWatcher>,
    ) -> Result<f64> {
        self.check_targets(ids.len(), targets)?;
        self.run_blocks(ids, streams)?;
        self.head_loss(ids.len(), targets)
    }

    /// `targets` checked: one a position, each in the vocabulary.
    pub(super) fn check_targets(&self, t: usize, targets: &[usize]) -> Result<()> {
        if targets.len() != t {
            return Err(Error::field("targets", format!("{} targets for {t} positions", targets.len())));
        }
        if let Some(&bad) = targets.iter().find(|&&id| id >= self.shape.vocab_size) {
            return Err(Error::out_of_range(
                "token id",
                bad,
                format!("0 to {} (the model's vocabulary)", self.shape.vocab_size - 1),
            ));
        }
        Ok(())
    }

    /// The summed cross-entropy of `targets` under the head applied to act.normed [T, d].
    pub(super) fn head_loss(&mut self, t: usize, targets: &[usize]) -> Result<f64> {
        // A running log-sum-exp per position (its largest logit so far and Σ e^(z − largest)), and
        // the target's logit when its slice comes by; the positions spread over the threads.
        let mut running = vec![(f32::NEG_INFINITY, 0.0f64, 0.0f32); t];
        let isa = self.isa;
        self.head(t, |rows, logits| {
            let n = rows.len();
            let update = |(p, (top, sum, target)): (usize, &mut (f32, f64, f32))| {
                let z = &logits[p * n..(p + 1) * n];
                let (chunk_top, chunk_sum) = max_exp_sum(isa, z);
                let m = chunk_top.max(*top);
                let rescale = |from: f32| if from.is_finite() { f64::from(from - m).exp() } else { 0.0 };
                *sum = *sum * rescale(*top) + f64::from(chunk_sum) * rescale(chunk_top);
                *top = m;
                if rows.contains(&targets[p]) {
                    *target = z[targets[p] - rows.start];
                }
            };
            #[cfg(not(target_arch = "wasm32"))]
            {
                use rayon::prelude::*;
                running.par_iter_mut().enumerate().with_min_len(16).for_each(update);
            }
            #[cfg(target_arch = "wasm32")]
            running.iter_mut().enumerate().for_each(update);
        })?;
        Ok(running.iter().map(|&(top, sum, target)| top as f64 + sum.ln() - target as f64).sum())
    }

    /// The logits after the last position of `ids` [V]: its row of the final stream alone through
    /// the head (the other rows' logits would be thrown away).
    pub fn next_logits(&mut self, ids: &[usize]) -> Result<Vec<f32>> {
        self.run_blocks(ids, None)?;
        self.last_row_logits(ids.len())
    }

    /// The logits of row T - 1 of the final stream (act.normed [T, d]) [V].
    pub(super) fn last_row_logits(&mut self, t: usize) -> Result<Vec<f32>> {
        let d = self.shape.d_model;
        self.act.normed.copy_within((t - 1) * d..t * d, 0);
        // One row, as the head (and bf16's rounding of it) reads it.
        self.act.normed.truncate(d);
        let mut last = vec![0.0f32; self.shape.vocab_size];
        self.head(1, |rows, logits| last[rows].copy_from_slice(logits))?;
        Ok(last)
    }

    /// Every logit of one window, [T, V] (for tests and small vocabularies; the experiments use the
    /// streamed loss instead).
    pub fn logits(&mut self, ids: &[usize]) -> Result<Vec<f32>> {
        self.run_blocks(ids, None)?;
        let (t, v) = (ids.len(), self.shape.vocab_size);
        let mut all = vec![0.0f32; t * v];
        self.head(t, |rows, logits| {
            for p in 0..t {
                all[p * v + rows.start..p * v + rows.end]
                    .copy_from_slice(&logits[p * rows.len()..(p + 1) * rows.len()]);
            }
        })?;
        Ok(all)
    }
}
