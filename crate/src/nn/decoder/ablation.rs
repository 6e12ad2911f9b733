//! One window of the ablation without redoing shared work: removing or overwriting block k leaves
//! blocks 0..k-1 as they were, so the two changed passes of block k branch off the intact pass where
//! it enters block k, from a copy of its stream (one [T, d] f32 kept, what `tblock ablate --plan`
//! reports), and the intact pass goes on from that copy once they are done. GPT-2 small at 12
//! blocks: the 25 passes run 156 blocks where they ran 300, the same bits. A page runs the passes
//! one at a time ([`AblationSteps`]); `tblock` runs them in a loop, by the same code.

use super::{Decoder, WeightSource};
use crate::error::Result;
use crate::nn::BlockMode;

/// One window's summed losses: every block intact, and each block removed and overwritten in turn.
#[derive(Debug, Clone, PartialEq)]
pub struct WindowAblation {
    pub intact: f64,
    /// (removed, overwritten), a block each.
    pub blocks: Vec<(f64, f64)>,
}

impl WindowAblation {
    /// Adds this window's losses to the sums over the windows so far: `intact`, and (removed,
    /// overwritten) a block each.
    pub fn add_to(self, intact: &mut f64, sums: &mut [(f64, f64)]) {
        *intact += self.intact;
        for (sum, (removed, overwritten)) in sums.iter_mut().zip(self.blocks) {
            sum.0 += removed;
            sum.1 += overwritten;
        }
    }
}

/// One window's ablation a pass at a time ([`Decoder::ablation_begin`], then
/// [`Decoder::ablation_step`] until it gives the window's losses), so a page's worker can answer
/// between passes (its progress, a Cancel, an inspection of another text). It keeps its own copy
/// of the intact stream, so whatever the decoder runs between two steps changes nothing.
#[derive(Debug, Clone)]
pub struct AblationSteps {
    /// T: the window's positions.
    t: usize,
    targets: Vec<usize>,
    /// The intact stream entering block `k`, [T, d] (entering the final norm once k = L).
    stream: Vec<f32>,
    k: usize,
    /// Block k's loss removed, once that pass is done (the overwritten pass is next).
    removed: Option<f64>,
    blocks: Vec<(f64, f64)>,
}

impl AblationSteps {
    /// Passes a window takes: block k removed and overwritten for every k, then the intact one.
    pub fn passes(n_layers: usize) -> usize {
        1 + 2 * n_layers
    }

    /// Passes done so far: two for each block carried through, one more once block k is removed.
    pub fn passes_done(&self) -> usize {
        2 * self.k + usize::from(self.removed.is_some())
    }
}

impl<W: WeightSource> Decoder<W> {
    /// The summed loss of predicting `targets[t]` after `ids[..=t]` (as [`Decoder::window_loss`])
    /// with every block intact, and with each block removed and with it overwriting the stream;
    /// `each_pass()` after every pass (1 + 2·L; the intact pass ends last). The blocks' modes are as they were afterwards.
    pub fn window_ablation(
        &mut self,
        ids: &[usize],
        targets: &[usize],
        each_pass: &mut dyn FnMut(),
    ) -> Result<WindowAblation> {
        let mut steps = self.ablation_begin(ids, targets)?;
        loop {
            let done = self.ablation_step(&mut steps)?;
            each_pass();
            if let Some(window) = done {
                // Its copy of the stream serves the next window.
                self.act.entering = steps.stream;
                return Ok(window);
            }
        }
    }

    /// A window's ablation, before its first pass: the stream entering block 0 for `ids`.
    pub fn ablation_begin(&mut self, ids: &[usize], targets: &[usize]) -> Result<AblationSteps> {
        self.check_targets(ids.len(), targets)?;
        self.embed(ids)?;
        let mut stream = std::mem::take(&mut self.act.entering);
        stream.clone_from(&self.act.x);
        Ok(AblationSteps {
            t: ids.len(),
            targets: targets.to_vec(),
            stream,
            k: 0,
            removed: None,
            blocks: Vec::with_capacity(self.shape.n_layers),
        })
    }

    /// The window's next pass: block k removed, or block k overwritten (then the intact stream is
    /// carried through block k), or at the end the intact pass's loss, when the window's losses
    /// are given. The blocks' modes are as they were afterwards.
    pub fn ablation_step(&mut self, steps: &mut AblationSteps) -> Result<Option<WindowAblation>> {
        let saved = std::mem::replace(&mut self.block_modes, vec![BlockMode::Intact; self.shape.n_layers]);
        let result = self.ablation_pass(steps);
        self.block_modes = saved;
        result
    }

    fn ablation_pass(&mut self, s: &mut AblationSteps) -> Result<Option<WindowAblation>> {
        let (n, t) = (self.shape.n_layers, s.t);
        let angles = self.shape.rotary.as_ref().map(|r| r.angles(t));
        self.act.x.clone_from(&s.stream);
        if s.k == n {
            self.final_norm(t)?;
            let intact = self.head_loss(t, &s.targets)?;
            return Ok(Some(WindowAblation { intact, blocks: std::mem::take(&mut s.blocks) }));
        }
        let mode = if s.removed.is_none() { BlockMode::Removed } else { BlockMode::Overwritten };
        self.block_modes[s.k] = mode;
        self.blocks_from(s.k, n, t, angles.as_ref(), None, None)?;
        self.final_norm(t)?;
        let loss = self.head_loss(t, &s.targets)?;
        self.block_modes[s.k] = BlockMode::Intact;
        match s.removed.take() {
            None => s.removed = Some(loss),
            Some(removed) => {
                s.blocks.push((removed, loss));
                // The intact stream on through block k.
                self.act.x.clone_from(&s.stream);
                self.blocks_from(s.k, s.k + 1, t, angles.as_ref(), None, None)?;
                s.stream.clone_from(&self.act.x);
                s.k += 1;
            }
        }
        Ok(None)
    }
}
