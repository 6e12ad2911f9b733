//! A real decoder checkpoint run forward (GPT-2, Llama, Mistral, Qwen2), with the lessons' switches:
//! any block removed or overwriting the stream, and the stream around every block for whoever asks.
//! Inference only, one window at a time, every number in f32 whatever the file stores.
//!
//! The weights are read through a [`WeightSource`] (a memory-mapped checkpoint, see
//! `crate::checkpoint`), one block at a time into buffers reused from block to block, so a large
//! model's f32 copy is never held whole: what stays resident is the file's pages and one block.
//! The head is applied a slice of the vocabulary at a time, so T x V logits are never held either.

mod ablation;
mod activations;
mod block_forward;
mod block_weights;
mod footprint;
mod head;
mod inspect;
mod kv_cache;
mod matrices;

pub use ablation::{AblationSteps, WindowAblation};
use activations::{sized, Activations};
pub use block_weights::WeightSource;
use block_weights::{BlockWeights, Names};
pub use footprint::Footprint;
pub use inspect::{DecoderInspection, NextToken, MAX_INSPECTED_TOKENS};
pub use kv_cache::KvCache;
use kv_cache::LayerCache;
use matrices::Matrices;

use super::decoder_shape::{DecoderShape, Layout};
use super::parallel::{threads, Compute, Kernel};
use super::rms_norm::rms_norm_forward;
use super::{BlockMode, BlockStreams};
use crate::error::{Error, Result};
use tb_kernels::norm::layernorm_forward;
use tb_kernels::product::Isa;

/// Who is shown the stream around block i (its index and the five streams), as a pass runs.
pub type StreamWatcher<'a> = &'a mut dyn FnMut(usize, BlockStreams<'_>);

/// A checkpoint ready to run, with a mode for each block.
pub struct Decoder<W: WeightSource> {
    pub shape: DecoderShape,
    pub weights: W,
    /// What each block does in the next passes (all intact to begin with).
    pub block_modes: Vec<BlockMode>,
    /// Prefix of GPT-2's tensor names ("transformer." when saved from GPT2LMHeadModel, "" on the hub).
    prefix: &'static str,
    block: BlockWeights,
    act: Activations,
    /// Threads the linear layers run on, and their matrix product.
    threads: usize,
    kernel: Kernel,
    /// The numbers the linear layers multiply in, and the instruction set of the bf16 products.
    compute: Compute,
    isa: Isa,
    /// Whether the source holds the stored bytes (a mapped file), which the products read in place;
    /// and whether those are f32 throughout (else faer's f32 product widens a panel at a time).
    in_place: bool,
    f32_in_place: bool,
}

impl<W: WeightSource> Decoder<W> {
    /// A decoder over `weights`, checking that every tensor the shape implies is there with its shape
    /// (so a wrong shape is found before minutes of work, not in the middle).
    pub fn new(shape: DecoderShape, weights: W) -> Result<Decoder<W>> {
        let prefix = if shape.layout == Layout::Gpt2 && weights.contains("transformer.wte.weight") {
            "transformer."
        } else {
            ""
        };
        let mut d = Decoder {
            block_modes: vec![BlockMode::Intact; shape.n_layers],
            shape,
            weights,
            prefix,
            block: BlockWeights::default(),
            act: Activations::default(),
            threads: threads(),
            kernel: Kernel::from_env(),
            compute: Compute::F32,
            isa: Isa::chosen(),
            in_place: false,
            f32_in_place: false,
        };
        // Every block's tensors checked: in place where the source holds its bytes (nothing read),
        // else read whole.
        let (mut in_place, mut f32_in_place) = (true, true);
        for i in 0..d.shape.n_layers {
            let names = Names { shape: &d.shape, prefix: d.prefix };
            let matrices = Matrices::in_place(i, &names, &d.weights)?;
            in_place &= matrices.is_some();
            f32_in_place &= matrices.is_some_and(|m| m.all_f32());
            d.block.load(i, &names, &d.weights, !in_place)?;
        }
        (d.in_place, d.f32_in_place) = (in_place, f32_in_place);
        let (v, dm) = (d.shape.vocab_size, d.shape.d_model);
        let mut scratch = Vec::new();
        d.weights.read_rows(&d.name(d.shape.token_table()), v, dm, 0..1, &mut scratch)?;
        d.weights.read_rows(&d.name(d.shape.head()), v, dm, 0..1, &mut scratch)?;
        if d.shape.layout == Layout::Gpt2 {
            d.weights.read_rows(&d.name("wpe.weight"), d.shape.context, dm, 0..1, &mut scratch)?;
        }
        let (gain, bias) = d.shape.final_norm();
        d.weights.read(&d.name(gain), &[dm], &mut scratch)?;
        if let Some(b) = bias {
            d.weights.read(&d.name(b), &[dm], &mut scratch)?;
        }
        Ok(d)
    }

    /// GPT-2's Conv1D weights of every block, each (name, rows, cols) as stored ([in, out]); none
    /// for other families (what `Shards::flip_conv1d` turns to [out, in] in the page).
    pub fn conv1d_tensors(&self) -> Vec<(String, usize, usize)> {
        Names { shape: &self.shape, prefix: self.prefix }.conv1d()
    }

    /// Run the linear layers on `threads` threads (at least one).
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
    }

    /// Run the linear layers on `kernel`'s product (chosen by TBLOCK_KERNEL to begin with).
    pub fn set_kernel(&mut self, kernel: Kernel) {
        self.kernel = kernel;
    }

    /// The threads the linear layers run on.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Multiply the linear layers' numbers in `compute` (f32 to begin with).
    pub fn set_compute(&mut self, compute: Compute) {
        self.compute = compute;
    }

    /// Run the bf16 products on `isa` (one [`Isa::available`] lists; the fastest to begin with, or
    /// the one `TBLOCK_ISA` names).
    pub fn set_isa(&mut self, isa: Isa) {
        if Isa::available().contains(&isa) {
            self.isa = isa;
        }
    }

    /// What the linear layers multiply in, and on which instruction set when that is bf16.
    pub fn compute(&self) -> (Compute, Isa) {
        (self.compute, self.isa)
    }

    /// Whether the products read the blocks' matrices in place (so a block is never copied): the
    /// bf16 products any dtype's, the f32 products too (natively faer on an f32 file's as it is; in
    /// wasm the kernels' product on nn.Linear's f32 rows; other numbers a widened panel at a time).
    fn reads_in_place(&self) -> bool {
        match self.compute {
            Compute::Bf16 => self.in_place,
            // In wasm the kernels' product reads them in place too, a widened panel at a time.
            Compute::F32 => self.in_place && (self.kernel == Kernel::Blocked || cfg!(target_arch = "wasm32")),
        }
    }

    fn name(&self, tensor: &str) -> String {
        Names { shape: &self.shape, prefix: self.prefix }.of(tensor)
    }

    /// Read block i's weights into the block buffers (the matrices only when they are not read in place).
    fn load_block(&mut self, i: usize) -> Result<()> {
        let names = Names { shape: &self.shape, prefix: self.prefix };
        self.block.load(i, &names, &self.weights, !self.reads_in_place())
    }

    /// The block's norm (LayerNorm or RMSNorm by family) of `inp` [T, d] into `out`.
    fn norm(layout: Layout, out: &mut [f32], inp: &[f32], gain: &[f32], bias: &[f32], d: usize, eps: f32) {
        match layout {
            Layout::Gpt2 => {
                let rows = inp.len() / d;
                let (mut mean, mut rstd) = (vec![0.0; rows], vec![0.0; rows]);
                layernorm_forward(out, &mut mean, &mut rstd, inp, gain, bias, d, eps);
            }
            Layout::Llama => rms_norm_forward(out, inp, gain, d, eps),
        }
    }

    /// Run one window of ids through the blocks (each in its mode) and the final norm: the stream
    /// the head reads, [T, d], is left in the activations. `streams(i, ...)` sees the stream around
    /// block i when given.
    fn run_blocks(&mut self, ids: &[usize], streams: Option<StreamWatcher>) -> Result<()> {
        let t = self.embed(ids)?;
        let angles = self.shape.rotary.as_ref().map(|r| r.angles(t));
        self.blocks_from(0, self.shape.n_layers, t, angles.as_ref(), streams, None)?;
        self.final_norm(t)
    }

    /// The stream entering block 0 for `ids` (token embeddings, and GPT-2's positions) into act.x;
    /// T, the window's length.
    fn embed(&mut self, ids: &[usize]) -> Result<usize> {
        self.embed_at(ids, 0)
    }

    /// As [`Decoder::embed`], for `ids` at positions `first..first + T` of their window.
    fn embed_at(&mut self, ids: &[usize], first: usize) -> Result<usize> {
        let (t, d) = (ids.len(), self.shape.d_model);
        if t == 0 || first + t > self.shape.context {
            let n = first + t;
            return Err(Error::out_of_range("window", n, format!("1 to the model's {} positions", self.shape.context)));
        }
        if let Some(&bad) = ids.iter().find(|&&id| id >= self.shape.vocab_size) {
            return Err(Error::out_of_range(
                "token id",
                bad,
                format!("0 to {} (the model's vocabulary)", self.shape.vocab_size - 1),
            ));
        }
        let table = self.name(self.shape.token_table());
        let mut x = std::mem::take(&mut self.act.x);
        x.clear();
        let mut row = Vec::new();
        for &id in ids {
            self.weights.read_rows(&table, self.shape.vocab_size, d, id..id + 1, &mut row)?;
            x.extend_from_slice(&row);
        }
        if self.shape.layout == Layout::Gpt2 {
            self.weights.read_rows(&self.name("wpe.weight"), self.shape.context, d, first..first + t, &mut row)?;
            x.iter_mut().zip(&row).for_each(|(a, p)| *a += p);
        }
        self.act.x = x;
        Ok(t)
    }

    /// Blocks `from..to` (each in its mode) on the stream entering block `from`, act.x [T, d], which
    /// they leave there; `streams(i, ...)` sees the stream around each block run, when given. With
    /// `cache` (a layer a block), the T rows are the positions after those cached, and each block
    /// reads and extends its layer.
    fn blocks_from(
        &mut self,
        from: usize,
        to: usize,
        t: usize,
        angles: Option<&(Vec<f32>, Vec<f32>)>,
        mut streams: Option<StreamWatcher>,
        mut cache: Option<&mut [LayerCache]>,
    ) -> Result<()> {
        for i in from..to.min(self.shape.n_layers) {
            let mode = self.block_modes.get(i).copied().unwrap_or_default();
            if mode == BlockMode::Removed {
                continue;
            }
            self.load_block(i)?;
            let past = cache.as_deref_mut().and_then(|layers| layers.get_mut(i));
            self.block_forward(i, t, mode, angles, past)?;
            if let Some(f) = streams.as_deref_mut() {
                let a = &self.act;
                f(
                    i,
                    BlockStreams {
                        input: &a.x,
                        after_attention: &a.after_attention,
                        feed_forward_reads: &a.after_attention,
                        after_feed_forward: &a.output,
                        output: &a.output,
                    },
                );
            }
            std::mem::swap(&mut self.act.x, &mut self.act.output);
        }
        Ok(())
    }

    /// The final norm of act.x [T, d] into act.normed, what the head reads.
    fn final_norm(&mut self, t: usize) -> Result<()> {
        let d = self.shape.d_model;
        let (gain, bias) = self.shape.final_norm();
        let mut g = Vec::new();
        let mut b = Vec::new();
        self.weights.read(&self.name(gain), &[d], &mut g)?;
        if let Some(bias) = bias {
            self.weights.read(&self.name(bias), &[d], &mut b)?;
        }
        let a = &mut self.act;
        Self::norm(self.shape.layout, sized(&mut a.normed, t * d), &a.x, &g, &b, d, self.shape.eps);
        Ok(())
    }
}
