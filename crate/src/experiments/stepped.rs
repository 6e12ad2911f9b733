//! An experiment on a real checkpoint a forward pass at a time, for a page: the ablation, or the
//! stream's figures, over a text's evaluation windows, each [`Stepped::step`] one pass, so the
//! page's checkpoint worker posts its progress and hears a Cancel (or an inspection) between two
//! passes rather than holding its thread for the whole run. The same sums in the same order as
//! [`ablate`](super::ablation::ablate) and [`stream_stats`](super::stream::stream_stats) on a
//! [`DecoderRun`](super::subject::DecoderRun) (what `tblock ablate` and `tblock stream` run), so the
//! same figures.

use serde::Serialize;

use super::ablation::Ablation;
use super::stream_figures::{StreamAccumulator, StreamStats};
use super::subject::{DecoderRun, Subject};
use crate::error::{Error, Result};
use crate::nn::decoder::{AblationSteps, Decoder, WeightSource};
use crate::nn::BlockMode;
use crate::train::evaluate::{check_windows, windows};

/// Which experiment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Experiment {
    /// Every block removed, then overwriting the stream, in turn (1 + 2·L passes a window).
    Ablation,
    /// The stream around every block, every block intact (one pass a window).
    Stream,
}

impl Experiment {
    /// `"ablation"` or `"stream"`.
    pub fn named(name: &str) -> Result<Experiment> {
        match name {
            "ablation" => Ok(Experiment::Ablation),
            "stream" => Ok(Experiment::Stream),
            _ => Err(Error::field("experiment", format!("\"{name}\" is not one: \"ablation\" or \"stream\""))),
        }
    }

    /// Forward passes a window takes on a model of `n_layers` blocks.
    pub fn passes(self, n_layers: usize) -> usize {
        match self {
            Experiment::Ablation => AblationSteps::passes(n_layers),
            Experiment::Stream => 1,
        }
    }
}

/// What a finished experiment found.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Found {
    Ablation(Ablation),
    Stream(StreamStats),
}

/// An experiment under way over a text's windows.
#[derive(Debug)]
pub struct Stepped {
    what: Experiment,
    /// The windows, P + 1 ids each.
    windows: Vec<Vec<usize>>,
    /// P: the positions a window feeds.
    window: usize,
    n_layers: usize,
    /// Windows finished.
    next: usize,
    /// The ablation of window `next`, under way.
    current: Option<AblationSteps>,
    intact: f64,
    sums: Vec<(f64, f64)>,
    stream: StreamAccumulator,
}

impl Stepped {
    /// `what` over `ids` in windows of `window` positions (and the token each predicts), on a model
    /// of `n_layers` blocks; refused when the text holds no window.
    pub fn new(what: Experiment, ids: &[usize], window: usize, n_layers: usize) -> Result<Stepped> {
        check_windows(ids, window)?;
        Ok(Stepped {
            what,
            windows: windows(ids, window).map(<[usize]>::to_vec).collect(),
            window,
            n_layers,
            next: 0,
            current: None,
            intact: 0.0,
            sums: vec![(0.0, 0.0); n_layers],
            stream: StreamAccumulator::new(n_layers),
        })
    }

    /// Windows in all.
    pub fn windows(&self) -> usize {
        self.windows.len()
    }

    /// Forward passes in all.
    pub fn total_passes(&self) -> usize {
        self.windows.len() * self.what.passes(self.n_layers)
    }

    pub fn done(&self) -> bool {
        self.next >= self.windows.len()
    }

    /// One forward pass of `decoder` (the checkpoint this was made for; every block intact).
    pub fn step<W: WeightSource>(&mut self, decoder: &mut Decoder<W>) -> Result<()> {
        if self.done() {
            return Ok(());
        }
        if decoder.block_modes.iter().any(|&m| m != BlockMode::Intact) {
            return Err(Error::field(
                "blocks",
                "the experiments start from the intact model: put every block back first",
            ));
        }
        let p = self.window;
        let w = &self.windows[self.next];
        match self.what {
            Experiment::Stream => {
                // One window through what `tblock stream` runs.
                let mut run = DecoderRun { decoder, window: p, tick: &mut || {} };
                run.gather_stream(&[w.as_slice()], &mut self.stream)?;
                self.next += 1;
            }
            Experiment::Ablation => {
                let mut steps = match self.current.take() {
                    Some(steps) => steps,
                    None => decoder.ablation_begin(&w[..p], &w[1..=p])?,
                };
                match decoder.ablation_step(&mut steps)? {
                    None => self.current = Some(steps),
                    Some(one) => {
                        one.add_to(&mut self.intact, &mut self.sums);
                        self.next += 1;
                    }
                }
            }
        }
        Ok(())
    }

    /// Forward passes done.
    pub fn passes_done(&self) -> usize {
        let per = self.what.passes(self.n_layers);
        // A window's ablation: two passes a block done, and one more while block k's second is next.
        self.next * per + self.current.as_ref().map_or(0, AblationSteps::passes_done)
    }

    /// What it found, once done (`vocab`: V, for the ablation's uniform guess).
    pub fn found(self, vocab: usize) -> Option<Found> {
        if !self.done() {
            return None;
        }
        Some(match self.what {
            Experiment::Ablation => {
                Found::Ablation(Ablation::from_sums(self.intact, &self.sums, self.windows.len(), self.window, vocab))
            }
            Experiment::Stream => Found::Stream(self.stream.finish()),
        })
    }
}
