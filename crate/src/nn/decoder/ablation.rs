//! One window of the ablation without redoing shared work: removing or overwriting block k leaves
//! blocks 0..k-1 as they were, so the two changed passes of block k branch off the intact pass where
//! it enters block k, from a copy of its stream (one [T, d] f32 kept, what `tblock ablate --plan`
//! reports), and the intact pass goes on from that copy once they are done. GPT-2 small at 12
//! blocks: the 25 passes run 156 blocks where they ran 300, the same bits.

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
        self.check_targets(ids.len(), targets)?;
        let saved = std::mem::replace(&mut self.block_modes, vec![BlockMode::Intact; self.shape.n_layers]);
        let result = self.ablation_passes(ids, targets, each_pass);
        self.block_modes = saved;
        result
    }

    fn ablation_passes(
        &mut self,
        ids: &[usize],
        targets: &[usize],
        each_pass: &mut dyn FnMut(),
    ) -> Result<WindowAblation> {
        let n = self.shape.n_layers;
        let t = self.embed(ids)?;
        let angles = self.shape.rotary.as_ref().map(|r| r.angles(t));
        let mut entering = std::mem::take(&mut self.act.entering);
        let mut blocks = Vec::with_capacity(n);
        for k in 0..n {
            // act.x: the intact stream entering block k.
            entering.clone_from(&self.act.x);
            let mut pair = [0.0; 2];
            for (loss, mode) in pair.iter_mut().zip([BlockMode::Removed, BlockMode::Overwritten]) {
                self.block_modes[k] = mode;
                self.blocks_from(k, n, t, angles.as_ref(), None)?;
                self.final_norm(t)?;
                *loss = self.head_loss(t, targets)?;
                each_pass();
                self.act.x.clone_from(&entering);
            }
            self.block_modes[k] = BlockMode::Intact;
            blocks.push((pair[0], pair[1]));
            self.blocks_from(k, k + 1, t, angles.as_ref(), None)?;
        }
        self.final_norm(t)?;
        let intact = self.head_loss(t, targets)?;
        each_pass();
        self.act.entering = entering;
        Ok(WindowAblation { intact, blocks })
    }
}
