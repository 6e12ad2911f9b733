//! What the experiments run on: TinyGPT in flat buffers, or a real checkpoint's forward pass over
//! windows of the reader's choosing. Both score the evaluation protocol's windows with any blocks
//! removed or overwritten, and show the stream around every block, so [`ablate`] and
//! [`stream_stats`] are written once for both.
//!
//! [`ablate`]: super::ablation::ablate
//! [`stream_stats`]: super::stream::stream_stats

use super::stream_figures::StreamAccumulator;
use crate::error::{Error, Result};
use crate::nn::decoder::{Decoder, WeightSource};
use crate::nn::{BlockMode, BlockStreams, TrainableGpt};
use crate::train::evaluate::{check_windows, mean_loss, score_windows, windows, Evaluation};

/// A model the experiments can measure.
pub trait Subject {
    /// P: the positions each window feeds (windows hold P + 1 ids).
    fn window(&self) -> usize;
    fn n_layers(&self) -> usize;
    fn vocab_size(&self) -> usize;
    /// The summed loss over `windows` with each block in its mode of `modes`.
    fn score(&mut self, windows: &[&[usize]], modes: &[BlockMode]) -> Result<f64>;
    /// The stream around every block (every block intact) over `windows`, into `acc`.
    fn gather_stream(&mut self, windows: &[&[usize]], acc: &mut StreamAccumulator) -> Result<()>;

    /// The protocol's loss over `windows` with the blocks in `modes`.
    fn loss(&mut self, windows: &[&[usize]], modes: &[BlockMode]) -> Result<Evaluation> {
        Ok(mean_loss(self.score(windows, modes)?, windows.len(), self.window()))
    }

    /// The summed loss over `windows` with every block intact, and (removed, overwritten) for each
    /// block in turn: one pass over the windows a configuration, unless a subject knows better.
    fn ablation_sums(&mut self, windows: &[&[usize]]) -> Result<(f64, Vec<(f64, f64)>)> {
        let n = self.n_layers();
        let mut run = |block: Option<(usize, BlockMode)>| {
            let mut modes = vec![BlockMode::Intact; n];
            if let Some((i, mode)) = block {
                modes[i] = mode;
            }
            self.score(windows, &modes)
        };
        let intact = run(None)?;
        let blocks = (0..n)
            .map(|i| Ok((run(Some((i, BlockMode::Removed)))?, run(Some((i, BlockMode::Overwritten)))?)))
            .collect::<Result<Vec<_>>>()?;
        Ok((intact, blocks))
    }
}

/// The protocol's loss on `ids` (which must hold one of its windows), every block intact.
pub fn evaluate_intact<S: Subject + ?Sized>(model: &mut S, ids: &[usize]) -> Result<Evaluation> {
    check_windows(ids, model.window())?;
    let all: Vec<&[usize]> = windows(ids, model.window()).collect();
    let modes = vec![BlockMode::Intact; model.n_layers()];
    model.loss(&all, &modes)
}

fn intact_only(modes: &[BlockMode]) -> Result<()> {
    if modes.iter().any(|&m| m != BlockMode::Intact) {
        return Err(Error::field("blocks", "the stream is measured on the intact model: put every block back first"));
    }
    Ok(())
}

impl Subject for TrainableGpt {
    fn window(&self) -> usize {
        self.shape.context
    }

    fn n_layers(&self) -> usize {
        self.shape.n_layers
    }

    fn vocab_size(&self) -> usize {
        self.shape.vocab_size
    }

    /// The model's own block modes are as they were afterwards.
    fn score(&mut self, windows: &[&[usize]], modes: &[BlockMode]) -> Result<f64> {
        let saved = std::mem::replace(&mut self.block_modes, modes.to_vec());
        let total = score_windows(self, windows);
        self.block_modes = saved;
        total
    }

    fn gather_stream(&mut self, windows: &[&[usize]], acc: &mut StreamAccumulator) -> Result<()> {
        intact_only(&self.block_modes)?;
        for group in windows.chunks(self.max_batch()) {
            acc.add(self, group)?;
        }
        Ok(())
    }
}

/// A checkpoint's decoder over windows of `window` positions; `tick` is called after each window
/// (a progress bar).
pub struct DecoderRun<'a, W: WeightSource> {
    pub decoder: &'a mut Decoder<W>,
    pub window: usize,
    pub tick: &'a mut dyn FnMut(),
}

impl<W: WeightSource> Subject for DecoderRun<'_, W> {
    fn window(&self) -> usize {
        self.window
    }

    fn n_layers(&self) -> usize {
        self.decoder.shape.n_layers
    }

    fn vocab_size(&self) -> usize {
        self.decoder.shape.vocab_size
    }

    fn score(&mut self, windows: &[&[usize]], modes: &[BlockMode]) -> Result<f64> {
        let saved = std::mem::replace(&mut self.decoder.block_modes, modes.to_vec());
        let mut total = 0.0;
        let result = windows.iter().try_for_each(|w| {
            total += self.decoder.window_loss(&w[..self.window], &w[1..=self.window])?;
            (self.tick)();
            Ok(())
        });
        self.decoder.block_modes = saved;
        result.map(|()| total)
    }

    /// Window by window, each changed pass starting from the stream the intact pass carried into
    /// its block ([`Decoder::window_ablation`]): the same sums, in the same order, with less work.
    fn ablation_sums(&mut self, windows: &[&[usize]]) -> Result<(f64, Vec<(f64, f64)>)> {
        let n = self.n_layers();
        let (mut intact, mut blocks) = (0.0, vec![(0.0, 0.0); n]);
        for w in windows {
            let one = self.decoder.window_ablation(&w[..self.window], &w[1..=self.window], &mut *self.tick)?;
            one.add_to(&mut intact, &mut blocks);
        }
        Ok((intact, blocks))
    }

    fn gather_stream(&mut self, windows: &[&[usize]], acc: &mut StreamAccumulator) -> Result<()> {
        intact_only(&self.decoder.block_modes)?;
        let d = self.decoder.shape.d_model;
        for w in windows {
            let mut keep = |i: usize, s: BlockStreams| acc.push(i, s, d);
            self.decoder.window_loss_with(&w[..self.window], &w[1..=self.window], Some(&mut keep))?;
            (self.tick)();
        }
        Ok(())
    }
}
