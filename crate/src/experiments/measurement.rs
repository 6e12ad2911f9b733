//! One of the experiments' measurements done a few windows at a time, so a page can spread it over
//! tasks (a worker's, or the page's own in short slices) and a large checkpoint never holds a thread
//! for long: the loss with one block removed or overwritten (or every block intact), or the stream's
//! figures around every block. The same numbers as [`evaluate`](crate::train::evaluate::evaluate) and
//! [`stream_stats`](super::stream::stream_stats) over the same text.

use serde::Serialize;

use super::check_text;
use super::stream_figures::{StreamAccumulator, StreamStats};
use super::subject::Subject;
use crate::error::{Error, Result};
use crate::messages::{self, Phrase};
use crate::nn::{BlockMode, TrainableGpt};
use crate::train::evaluate::{mean_loss, windows, Evaluation};

/// What to measure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Measure {
    /// The loss with `block` in `mode` and every other block intact (`mode` Intact: the intact loss).
    Loss { mode: BlockMode, block: usize },
    /// The stream around every block, every block intact.
    Stream,
}

/// What a finished measurement found.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Found {
    Loss(Evaluation),
    Stream(StreamStats),
}

#[derive(Debug, Clone)]
enum Gathered {
    Loss(f64),
    Stream(Box<StreamAccumulator>),
}

/// A measurement under way over a text's evaluation windows.
#[derive(Debug, Clone)]
pub struct Measurement {
    what: Measure,
    windows: Vec<Vec<usize>>,
    next: usize,
    gathered: Gathered,
}

impl Measurement {
    /// A measurement of `what` over `ids` (which must hold one of the protocol's windows) for `model`.
    pub fn new(model: &TrainableGpt, ids: &[usize], what: Measure) -> Result<Measurement> {
        check_text(model, ids)?;
        let n = model.shape.n_layers;
        let gathered = match what {
            Measure::Loss { mode, block } => {
                if mode != BlockMode::Intact && block >= n {
                    return Err(Error::out_of_range(
                        "block",
                        block,
                        Phrase::of(messages::MODEL_BLOCKS).count("last", n - 1),
                    ));
                }
                Gathered::Loss(0.0)
            }
            Measure::Stream => Gathered::Stream(Box::new(StreamAccumulator::new(n))),
        };
        let windows = windows(ids, model.shape.context).map(|w| w.to_vec()).collect();
        Ok(Measurement { what, windows, next: 0, gathered })
    }

    /// Windows measured so far, and in all.
    pub fn progress(&self) -> (usize, usize) {
        (self.next, self.windows.len())
    }

    pub fn done(&self) -> bool {
        self.next >= self.windows.len()
    }

    /// Measure up to `count` more windows (at least one, at most the model's batch at a time); the
    /// model's blocks are as they were afterwards.
    pub fn step(&mut self, model: &mut TrainableGpt, count: usize) -> Result<()> {
        let end = (self.next + count.max(1)).min(self.windows.len());
        let group: Vec<&[usize]> = self.windows[self.next..end].iter().map(|w| w.as_slice()).collect();
        let n = model.shape.n_layers;
        let mut modes = vec![BlockMode::Intact; n];
        if let Measure::Loss { mode, block } = self.what {
            if mode != BlockMode::Intact {
                modes[block] = mode;
            }
        }
        match &mut self.gathered {
            // Subject::score puts the model's own block modes back afterwards.
            Gathered::Loss(total) => *total += model.score(&group, &modes)?,
            Gathered::Stream(acc) => {
                let saved = std::mem::replace(&mut model.block_modes, modes);
                let gathered = model.gather_stream(&group, acc);
                model.block_modes = saved;
                gathered?;
            }
        }
        self.next = end;
        Ok(())
    }

    /// What it found, once done.
    pub fn found(&self) -> Option<Found> {
        if !self.done() {
            return None;
        }
        Some(match &self.gathered {
            Gathered::Loss(total) => {
                Found::Loss(mean_loss(*total, self.windows.len(), self.windows.first().map_or(0, |w| w.len() - 1)))
            }
            Gathered::Stream(acc) => Found::Stream(acc.as_ref().clone().finish()),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiments::stream::{stream_stats, tests::small_model};
    use crate::train::evaluate::evaluate;

    #[test]
    fn a_measurement_in_steps_finds_what_the_whole_experiment_finds() {
        let mut m = small_model();
        let ids: Vec<usize> = (0..90).map(|i| (i * 7 + 3) % 11).collect();
        for (mode, block) in [(BlockMode::Intact, 0), (BlockMode::Removed, 1), (BlockMode::Overwritten, 0)] {
            let mut steps = Measurement::new(&m, &ids, Measure::Loss { mode, block }).unwrap();
            while !steps.done() {
                steps.step(&mut m, 2).unwrap();
            }
            m.block_modes[block] = mode;
            let whole = evaluate(&mut m, &ids).unwrap();
            m.block_modes[block] = BlockMode::Intact;
            let Some(Found::Loss(e)) = steps.found() else { panic!("a loss") };
            assert_eq!(e.tokens, whole.tokens);
            assert!((e.loss - whole.loss).abs() < 1e-9, "{e:?} {whole:?}");
            assert_eq!(m.block_modes, vec![BlockMode::Intact; 2], "the blocks are put back");
        }
        let mut steps = Measurement::new(&m, &ids, Measure::Stream).unwrap();
        assert_eq!(steps.progress(), (0, 12));
        while !steps.done() {
            steps.step(&mut m, 5).unwrap();
        }
        let Some(Found::Stream(s)) = steps.found() else { panic!("the stream") };
        assert_eq!(s, stream_stats(&mut m, &ids).unwrap());
    }

    #[test]
    fn bad_measurements_say_what_is_allowed() {
        let m = small_model();
        let ids: Vec<usize> = (0..90).map(|i| i % 11).collect();
        let e = Measurement::new(&m, &ids, Measure::Loss { mode: BlockMode::Removed, block: 2 }).unwrap_err();
        assert_eq!(e.to_string(), "block 2 is out of range: the model has blocks 0 to 1");
        assert!(Measurement::new(&m, &ids[..5], Measure::Stream)
            .unwrap_err()
            .to_string()
            .starts_with("text: has 5 symbols"));
        assert!(BlockMode::parse("sideways")
            .unwrap_err()
            .to_string()
            .contains("choose intact, removed or overwritten"));
    }
}
