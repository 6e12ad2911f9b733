//! Where the time goes. Two measurements, taken on whatever runs this code (a reader's browser, or
//! `tblock latency` natively), with a clock the caller passes in:
//!
//! - Depth is latency: the same block-parameter budget spent four ways, the lesson's 6 x 1,088,
//!   12 x 768, 24 x 544 and 48 x 384 scaled down by 8 in width (6 x 136, 12 x 96, 24 x 68, 48 x 48:
//!   about 1.34 million block parameters each, within 1% of one another, as the lesson's 85 million
//!   are), one token
//!   through the stack at batch 1, the median of repeated runs.
//! - Attention's share of the clock: one block (width 64, 4 heads) at growing T, the time of its
//!   attention stage (LN, the q/k/v projection, scores, softmax and weighted sum, the output
//!   projection) as a share of the whole block's time, beside the same share of its FLOPs from the
//!   analytic model (which counts the full T x T square; the code computes only the causal half).

use serde::Serialize;

use super::stream_figures::median;
use crate::config::ModelConfig;
use crate::cost::forward_flops_per_token;
use crate::count::count_params;
use crate::error::{Error, Result};
use crate::messages::{self, Phrase};
use crate::nn::attention::attention_forward;
use crate::nn::block::{block_forward, BlockShape};
use crate::nn::linear::linear_forward;
use crate::nn::norm::layernorm_forward;
use crate::nn::trainable::activations_of;
use crate::nn::{GptShape, NormPlacement, TinyGpt, TrainableGpt};
use crate::train::trainer::initial_model;
use crate::train::TrainSettings;

/// The four ways of spending the budget: (blocks, width), 4 heads each.
pub const DEPTHS: [(usize, usize); 4] = [(6, 136), (12, 96), (24, 68), (48, 48)];
/// The most repetitions one call may time.
pub const MAX_REPS: usize = 1_000;
/// Each timing is the mean of this many runs back to back: a browser's clock ticks in steps of up to
/// 0.1 ms (`performance.now` without cross-origin isolation), about the time of one run.
pub const RUNS_PER_SAMPLE: usize = 20;
/// The sequence lengths the attention share is timed at, and the widest allowed.
pub const STAGE_SEQ_LENS: [usize; 4] = [32, 64, 128, 256];
pub const MAX_STAGE_SEQ_LEN: usize = 1_024;
const STAGE_WIDTH: usize = 64;

/// What one call may time, as a message says it.
pub fn allowed_repetitions() -> Phrase {
    Phrase::of(messages::TIME_RUNS).count("max", MAX_REPS)
}

fn check_reps(reps: usize) -> Result<()> {
    if reps == 0 || reps > MAX_REPS {
        return Err(Error::out_of_range("repetitions", reps, allowed_repetitions()));
    }
    Ok(())
}

/// The analytic config of a stack of `layers` blocks of `width` (TinyGPT's vocabulary and layout).
fn stack_config(layers: usize, width: usize, context: usize) -> ModelConfig {
    GptShape {
        vocab_size: 50,
        context,
        d_model: width,
        n_layers: layers,
        n_heads: 4,
        d_ff: 4 * width,
        attention_bias: false,
        norm: NormPlacement::Pre,
        eps: 1e-5,
    }
    .model_config()
}

/// One way of spending the budget, ready to time.
#[derive(Debug, Clone)]
pub struct DepthTimer {
    pub layers: usize,
    pub width: usize,
    /// Parameters in the blocks (from the analytic model), what the four ways hold equal.
    pub block_params: u64,
    model: TrainableGpt,
    samples: Vec<f64>,
}

/// A timer's result.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DepthTiming {
    pub layers: usize,
    pub width: usize,
    pub block_params: u64,
    /// Timings taken (each the mean of [`RUNS_PER_SAMPLE`] runs).
    pub runs: usize,
    /// The median time of one token through the stack, in milliseconds.
    pub median_ms: f64,
}

impl DepthTimer {
    /// The `index`-th of [`DEPTHS`], with GPT-2's initialisation (timing does not need training).
    pub fn new(index: usize) -> Result<DepthTimer> {
        let &(layers, width) = DEPTHS
            .get(index)
            .ok_or_else(|| Error::out_of_range("configuration", index, format!("choose 0 to {}", DEPTHS.len() - 1)))?;
        let config = stack_config(layers, width, 16);
        let block_params = count_params(&config)?.all_blocks;
        let model: TinyGpt = initial_model(&TrainSettings { layers, width, heads: 4, ..TrainSettings::default() }, 50)?;
        Ok(DepthTimer { layers, width, block_params, model: TrainableGpt::from_model(&model, 1)?, samples: Vec::new() })
    }

    /// Take `reps` more timings, each of [`RUNS_PER_SAMPLE`] runs of one token through the stack;
    /// `now` is a clock in milliseconds.
    pub fn run(&mut self, reps: usize, now: &dyn Fn() -> f64) -> Result<()> {
        check_reps(reps)?;
        for i in 0..reps {
            let start = now();
            for j in 0..RUNS_PER_SAMPLE {
                self.model.forward(&[(i + j) % 50], None, 1, 1)?;
            }
            self.samples.push((now() - start) / RUNS_PER_SAMPLE as f64);
        }
        Ok(())
    }

    pub fn result(&self) -> DepthTiming {
        let mut samples = self.samples.clone();
        DepthTiming {
            layers: self.layers,
            width: self.width,
            block_params: self.block_params,
            runs: samples.len(),
            median_ms: median(&mut samples),
        }
    }
}

/// One block's attention stage against the whole block, at one T.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StageTiming {
    pub seq_len: usize,
    pub runs: usize,
    pub attention_ms: f64,
    pub block_ms: f64,
    /// Median attention time / median block time; `None` (null in JSON) when the clock saw no time
    /// pass for the block (a coarse browser clock and a very fast machine).
    pub measured_share: Option<f64>,
    /// The attention stage's share of the block's FLOPs, from the analytic model (projections and
    /// the full T x T attention term).
    pub flops_share: f64,
}

/// One block of width 64 at one T, ready to time: its attention stage against the whole block.
/// Timings accumulate over calls of [`run`](Self::run), so a page can take a few per task.
#[derive(Debug, Clone)]
pub struct StageTimer {
    seq_len: usize,
    flops_share: f64,
    model: TrainableGpt,
    acts: Vec<f32>,
    x: Vec<f32>,
    attention: Vec<f64>,
    block: Vec<f64>,
}

impl StageTimer {
    pub fn new(seq_len: usize) -> Result<StageTimer> {
        if seq_len == 0 || seq_len > MAX_STAGE_SEQ_LEN {
            return Err(Error::out_of_range(
                "sequence length",
                seq_len,
                format!("time 1 to {MAX_STAGE_SEQ_LEN} tokens"),
            ));
        }
        let config = stack_config(1, STAGE_WIDTH, seq_len);
        let flops = forward_flops_per_token(&config, seq_len as u64)?;
        let part = |key: &str| flops.by_part.iter().find(|p| p.key == key).map_or(0.0, |p| p.flops);
        let attention_flops = part("attention_projections") + part("attention_scores");
        let block_flops = attention_flops + part("feed_forward");
        let shape = GptShape { context: seq_len, ..GptShape::of(&TinyGpt::new(&config, 1)?)? };
        let model = TrainableGpt::with_random_weights(shape, 1, 7, 0.02);
        let acts = vec![0.0f32; shape.block(1, seq_len).activation_lens().iter().sum()];
        let x = (0..seq_len * STAGE_WIDTH).map(|i| ((i * 37 % 101) as f32 - 50.0) / 50.0).collect();
        Ok(StageTimer {
            seq_len,
            flops_share: attention_flops / block_flops,
            model,
            acts,
            x,
            attention: Vec::new(),
            block: Vec::new(),
        })
    }

    /// Take `reps` more timings of the attention stage and of the whole block, alternating; each is
    /// the mean of enough runs to cover about 40,000 (T x d) of work (a browser's clock is coarse).
    pub fn run(&mut self, reps: usize, now: &dyn Fn() -> f64) -> Result<()> {
        check_reps(reps)?;
        let (n, d) = (self.seq_len, STAGE_WIDTH);
        let bs: BlockShape = self.model.shape.block(1, n);
        let w = self.model.block_weights(0);
        let inner = (40_000 / (n * d)).max(1);
        let heads = crate::nn::attention::AttentionShape { batch: 1, seq_len: n, d_model: d, n_heads: 4, causal: true };
        for _ in 0..reps {
            let mut a = activations_of(&mut self.acts, &bs);
            let start = now();
            for _ in 0..inner {
                layernorm_forward(a.ln_1, a.ln_1_mean, a.ln_1_rstd, &self.x, w.ln_1_gain, w.ln_1_bias, d, bs.eps);
                linear_forward(a.qkv, a.ln_1, w.c_attn_weight, None, d, 3 * d);
                attention_forward(a.atty, a.att, a.qkv, heads);
                linear_forward(a.res_1, a.atty, w.attn_proj_weight, None, d, d);
            }
            self.attention.push((now() - start) / inner as f64);
            let start = now();
            for _ in 0..inner {
                block_forward(&mut a, &self.x, &w, &bs);
            }
            self.block.push((now() - start) / inner as f64);
        }
        Ok(())
    }

    pub fn result(&self) -> StageTiming {
        let (attention_ms, block_ms) = (median(&mut self.attention.clone()), median(&mut self.block.clone()));
        StageTiming {
            seq_len: self.seq_len,
            runs: self.attention.len(),
            attention_ms,
            block_ms,
            measured_share: (block_ms > 0.0).then(|| attention_ms / block_ms),
            flops_share: self.flops_share,
        }
    }
}

/// Time one block of width 64 at `seq_len`, `reps` timings of each part (see [`StageTimer`]).
pub fn time_attention_share(seq_len: usize, reps: usize, now: &dyn Fn() -> f64) -> Result<StageTiming> {
    let mut timer = StageTimer::new(seq_len)?;
    timer.run(reps, now)?;
    Ok(timer.result())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock() -> impl Fn() -> f64 {
        let start = std::time::Instant::now();
        move || start.elapsed().as_secs_f64() * 1e3
    }

    #[test]
    fn the_four_ways_hold_the_block_parameters_within_one_percent() {
        let counts: Vec<u64> = (0..DEPTHS.len()).map(|i| DepthTimer::new(i).unwrap().block_params).collect();
        // 12·L·d² = 1,331,712 / 1,327,104 / 1,331,712 / 1,327,104, plus the biases and gains.
        assert_eq!(counts, [1_339_056, 1_337_472, 1_346_400, 1_347_840]);
        let (lo, hi) = (*counts.iter().min().unwrap() as f64, *counts.iter().max().unwrap() as f64);
        assert!(hi / lo < 1.01, "{counts:?}");
        assert!(DepthTimer::new(4).unwrap_err().to_string().starts_with("configuration 4 is out of range"));
    }

    #[test]
    fn timers_count_their_runs_and_refuse_absurd_repetitions() {
        let mut t = DepthTimer::new(3).unwrap();
        let now = clock();
        t.run(3, &now).unwrap();
        t.run(2, &now).unwrap();
        let r = t.result();
        assert_eq!((r.layers, r.width, r.runs), (48, 48, 5));
        assert!(r.median_ms >= 0.0);
        assert_eq!(t.run(0, &now).unwrap_err().to_string(), "repetitions 0 is out of range: time 1 to 1,000 runs");
        assert!(t.run(1_001, &now).is_err());
    }

    #[test]
    fn the_flop_share_of_the_attention_stage_grows_with_t() {
        let now = clock();
        let short = time_attention_share(32, 2, &now).unwrap();
        let long = time_attention_share(256, 2, &now).unwrap();
        assert!(short.flops_share < long.flops_share);
        // Projections 8d² of a block's 24d² per token: a third, plus the attention term.
        assert!(short.flops_share > 1.0 / 3.0 && short.flops_share < 0.45, "{}", short.flops_share);
        assert_eq!(short.runs, 2);
        assert!(time_attention_share(0, 2, &now)
            .unwrap_err()
            .to_string()
            .starts_with("sequence length 0 is out of range"));
        assert!(time_attention_share(2048, 2, &now).is_err());
    }

    #[test]
    fn a_clock_that_never_moves_gives_no_share_instead_of_nan() {
        let frozen = || 5.0;
        let r = time_attention_share(32, 2, &frozen).unwrap();
        assert_eq!((r.attention_ms, r.block_ms, r.measured_share), (0.0, 0.0, None));
        let json = serde_json::to_value(&r).unwrap();
        assert!(json["measured_share"].is_null(), "{json}");
        // A clock that moves one unit a call: both parts take one unit, a share of exactly 1.
        let ticks = std::cell::Cell::new(0.0);
        let tick = || {
            ticks.set(ticks.get() + 1.0);
            ticks.get()
        };
        let r = time_attention_share(32, 3, &tick).unwrap();
        assert_eq!(r.measured_share, Some(1.0));
    }
}
