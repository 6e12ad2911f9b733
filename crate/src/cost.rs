//! What running a model costs: FLOPs per token (forward and training), how the attention term grows
//! with the context, and the whole-run training cost 6·N·D.
//!
//! A multiply and an add are two FLOPs, so each parameter that takes part in a matrix product costs
//! 2 FLOPs per token going forward. N counts those parameters: all but the position table (a lookup,
//! not a product) and, when the output head is untied, but the input token table (also a lookup).
//! A tied table counts once, as the output projection. Norms and biases stay in N by convention
//! (Kaplan et al.; nanoGPT): they are a rounding error. Attention adds 4·L·T·d_q per token for
//! the scores and the weighted sum over the whole T x T square (d_q = h·d_head = d in every preset).
//! A mixture of experts counts the parameters a token uses, not all it holds.

use serde::Serialize;

use crate::config::ModelConfig;
use crate::count::{check_batch_and_seq_len, count_params, Group, ParamCount, Part, Tensor};
use crate::error::{Error, Result};
use crate::messages::{self, Phrase};

/// One line of the forward cost.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FlopsPart {
    pub key: &'static str,
    pub label: &'static str,
    pub flops: f64,
}

/// Forward FLOPs for one token at context T: 2N + 4·L·T·d_q.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ForwardFlops {
    pub seq_len: u64,
    /// N: the parameters that take part in a matrix product for one token.
    pub matmul_params: u64,
    /// 2N: the flat term, the same at every T.
    pub parameter_flops: f64,
    /// 4·L·T·d_q: the scores and the weighted sum, growing with T.
    pub attention_flops: f64,
    pub total: f64,
    /// The total split by where it is spent.
    pub by_part: Vec<FlopsPart>,
}

/// One block's attention term against its linear layers, at context T.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AttentionShare {
    pub seq_len: u64,
    /// 4·T·d_q per token.
    pub attention_flops: f64,
    /// 2 × the block's matrix parameters per token (24d² for a GPT-2 block).
    pub linear_flops: f64,
    /// attention / (attention + linear).
    pub share: f64,
    /// The T at which the two are equal (6d for GPT-2).
    pub crossover_seq_len: f64,
    /// Whether the model accepts a context that long.
    pub crossover_within_context: bool,
}

/// Whether a tensor takes part in a matrix product for each token, and under which line of the cost.
fn flops_key(t: &Tensor, tied: bool) -> Option<(&'static str, &'static str)> {
    match t.part {
        Part::PositionTable => None,
        Part::TokenTable if !tied => None,
        Part::TokenTable | Part::OutputHead => Some(("output_head", "Output head (logits)")),
        _ => match t.group {
            Group::Attention => Some(("attention_projections", "Attention projections")),
            Group::FeedForward => Some(("feed_forward", "Feed-forward")),
            Group::Router => Some(("router", "Router")),
            _ => Some(("norms", "Norms")),
        },
    }
}

/// Forward FLOPs per token at context `seq_len`.
pub fn forward_flops_per_token(config: &ModelConfig, seq_len: u64) -> Result<ForwardFlops> {
    forward_flops(config, &count_params(config)?, seq_len)
}

/// As [`forward_flops_per_token`], from a count already made of the same config.
pub fn forward_flops(config: &ModelConfig, count: &ParamCount, seq_len: u64) -> Result<ForwardFlops> {
    check_batch_and_seq_len(config, 1, seq_len)?;
    let mut by_part: Vec<FlopsPart> = Vec::new();
    let mut matmul_params: u64 = 0;
    for t in &count.tensors {
        let Some((key, label)) = flops_key(t, config.tied_output) else { continue };
        // A tied head has no parameters of its own: the token table above stands for it.
        let n = if t.tied { 0 } else { t.active };
        matmul_params = matmul_params.checked_add(n).ok_or_else(|| Error::overflow("N"))?;
        match by_part.iter_mut().find(|p| p.key == key) {
            Some(p) => p.flops += 2.0 * n as f64,
            None => by_part.push(FlopsPart { key, label, flops: 2.0 * n as f64 }),
        }
    }
    let attention_flops = 4.0 * (config.n_layers as f64) * (seq_len as f64) * (config.q_width() as f64);
    let position = by_part.iter().position(|p| p.key == "attention_projections").map_or(0, |i| i + 1);
    by_part.insert(
        position,
        FlopsPart { key: "attention_scores", label: "Attention scores and weighted sum", flops: attention_flops },
    );
    let parameter_flops = 2.0 * matmul_params as f64;
    Ok(ForwardFlops {
        seq_len,
        matmul_params,
        parameter_flops,
        attention_flops,
        total: parameter_flops + attention_flops,
        by_part,
    })
}

/// Training FLOPs per token: the backward pass costs about two forwards, so 6N + 12·L·T·d_q.
pub fn training_flops_per_token(config: &ModelConfig, seq_len: u64) -> Result<f64> {
    Ok(training_flops(&forward_flops_per_token(config, seq_len)?))
}

/// Training FLOPs per token from the forward cost: three forwards' worth.
pub fn training_flops(forward: &ForwardFlops) -> f64 {
    3.0 * forward.total
}

/// One block's attention share of the arithmetic at context `seq_len`, and the crossover length.
pub fn attention_share(config: &ModelConfig, seq_len: u64) -> Result<AttentionShare> {
    attention_share_of(config, &count_params(config)?, seq_len)
}

/// As [`attention_share`], from a count already made of the same config.
pub fn attention_share_of(config: &ModelConfig, count: &ParamCount, seq_len: u64) -> Result<AttentionShare> {
    check_batch_and_seq_len(config, 1, seq_len)?;
    let matrix_params: u64 = count
        .tensors
        .iter()
        .filter(|t| t.part.per_block() && t.shape.len() == 2)
        .map(|t| t.active / config.n_layers)
        .sum();
    let linear_flops = 2.0 * matrix_params as f64;
    let per_t = 4.0 * config.q_width() as f64;
    let attention_flops = per_t * seq_len as f64;
    let crossover_seq_len = linear_flops / per_t;
    Ok(AttentionShare {
        seq_len,
        attention_flops,
        linear_flops,
        share: attention_flops / (attention_flops + linear_flops),
        crossover_seq_len,
        crossover_within_context: crossover_seq_len <= config.context as f64,
    })
}

/// C_infer(N) = 2N: FLOPs to generate one token with N parameters.
pub fn c_infer(n_params: f64) -> f64 {
    2.0 * n_params
}

/// C_train(N, D) = 6·N·D: FLOPs to train N parameters on D tokens.
pub fn c_train(n_params: f64, tokens: f64) -> f64 {
    6.0 * n_params * tokens
}

/// 6·N·D (or 2·N) when a double holds it; an error naming the limit when N and D are too large.
pub fn finite_product(flops: f64) -> Result<f64> {
    if flops.is_finite() {
        Ok(flops)
    } else {
        Err(Error::field(
            "6·N·D",
            "N × D is too large to compute: the FLOPs would pass 1.8e308, the largest number a double holds; give a smaller N or D",
        ))
    }
}

/// A whole training run and how long it takes on hardware of a given peak.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TrainingRun {
    pub params: f64,
    pub tokens: f64,
    /// 6·N·D.
    pub flops: f64,
    pub peak_flops_per_second: f64,
    /// The fraction of peak actually reached (model FLOPs utilisation).
    pub utilisation: f64,
    pub seconds: f64,
    pub hours: f64,
}

/// nanoGPT's GPT-2 (124M) run: tokens per iteration and iterations (config/train_gpt2.py).
pub const NANOGPT_TOKENS_PER_ITERATION: f64 = 491_520.0;
pub const NANOGPT_ITERATIONS: f64 = 600_000.0;
/// An A100's bf16 dense peak, FLOP/s.
pub const A100_BF16_PEAK: f64 = 312e12;

/// The cost of training `params` parameters on `tokens` tokens at `utilisation` of `peak` FLOP/s.
pub fn training_run(params: f64, tokens: f64, peak: f64, utilisation: f64) -> Result<TrainingRun> {
    let positive = [("parameters", params), ("tokens", tokens), ("peak FLOP/s", peak)];
    for (what, value) in positive {
        if !(value.is_finite() && value > 0.0) {
            return Err(Error::out_of_range(what, value, "it must be a positive number"));
        }
    }
    if !(utilisation.is_finite() && utilisation > 0.0 && utilisation <= 1.0) {
        return Err(Error::out_of_range("utilisation", utilisation, "it is a fraction of peak, above 0 and at most 1"));
    }
    let flops = finite_product(c_train(params, tokens))?;
    let seconds = flops / (peak * utilisation);
    if !seconds.is_finite() {
        return Err(Error::field(
            "time",
            "the run would take longer than a double can count (1.8e308 seconds): give a larger peak or utilisation",
        ));
    }
    Ok(TrainingRun {
        params,
        tokens,
        flops,
        peak_flops_per_second: peak,
        utilisation,
        seconds,
        hours: seconds / 3600.0,
    })
}

/// A count the reader typed for a training run (parameters, tokens per iteration, iterations): a
/// whole number of at least 1 (a fraction of a token or of an iteration is not a run).
fn whole_count(what: &str, x: f64) -> Result<f64> {
    if x.is_finite() && x >= 1.0 && x.fract() == 0.0 {
        Ok(x)
    } else if x.is_finite() && x > 0.0 && x.fract() != 0.0 {
        Err(Error::out_of_range(what, x, "it counts whole things: give a whole number of at least 1"))
    } else {
        Err(Error::out_of_range(what, x, "it must be a whole number of at least 1"))
    }
}

/// [`training_run`] from the way a run is set up: D = tokens per iteration x iterations, every
/// count a whole number.
pub fn training_run_per_iteration(
    params: f64,
    tokens_per_iteration: f64,
    iterations: f64,
    peak: f64,
    utilisation: f64,
) -> Result<TrainingRun> {
    let params = whole_count("parameters", params)?;
    let tokens = whole_count("tokens per iteration", tokens_per_iteration)? * whole_count("iterations", iterations)?;
    training_run(params, tokens, peak, utilisation)
}

#[cfg(test)]
mod run_tests {
    use super::*;

    #[test]
    fn a_run_counts_whole_tokens_and_iterations() {
        let r = training_run_per_iteration(124e6, 491_520.0, 600_000.0, 312e12, 1.0).unwrap();
        assert_eq!(r.tokens, 491_520.0 * 600_000.0);
        let no = |tpi: f64, it: f64| training_run_per_iteration(124e6, tpi, it, 312e12, 1.0).unwrap_err().to_string();
        assert_eq!(
            no(0.5, 10.0),
            "tokens per iteration 0.5 is out of range: it counts whole things: give a whole number of at least 1"
        );
        assert_eq!(
            no(1e-320, 10.0),
            "tokens per iteration 1e-320 is out of range: it counts whole things: give a whole number of at least 1"
        );
        assert_eq!(
            no(10.0, 2.5),
            "iterations 2.5 is out of range: it counts whole things: give a whole number of at least 1"
        );
        assert_eq!(no(10.0, 0.0), "iterations 0 is out of range: it must be a whole number of at least 1");
    }
}

/// One point of the cost chart.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CostPoint {
    pub seq_len: u64,
    /// 2N: flat in T.
    pub parameter_flops: f64,
    /// 4·L·T·d_q: growing with T.
    pub attention_flops: f64,
    pub total: f64,
    /// One block's attention share at this T.
    pub attention_share: f64,
}

/// Forward FLOPs per token and one block's attention share across the model's whole context.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CostCurve {
    pub context: u64,
    /// Sequence lengths spaced evenly on a log scale from 1 to the context (whole numbers, no repeats).
    pub points: Vec<CostPoint>,
    pub crossover_seq_len: f64,
    pub crossover_within_context: bool,
}

/// The most points a curve may have.
pub const MAX_CURVE_POINTS: u64 = 512;

/// The cost chart's data: `n_points` sequence lengths from 1 to the context, log-spaced.
pub fn cost_curve(config: &ModelConfig, n_points: u64) -> Result<CostCurve> {
    if !(2..=MAX_CURVE_POINTS).contains(&n_points) {
        return Err(Error::out_of_range(
            "points",
            n_points,
            Phrase::of(messages::CHOOSE_POINTS).count("max", MAX_CURVE_POINTS),
        ));
    }
    let context = config.context;
    let mut lengths: Vec<u64> = (0..n_points)
        .map(|i| ((context as f64).ln() * i as f64 / (n_points - 1) as f64).exp().round() as u64)
        .map(|t| t.clamp(1, context))
        .collect();
    lengths.dedup();
    let count = count_params(config)?;
    let points = lengths
        .into_iter()
        .map(|t| {
            let f = forward_flops(config, &count, t)?;
            Ok(CostPoint {
                seq_len: t,
                parameter_flops: f.parameter_flops,
                attention_flops: f.attention_flops,
                total: f.total,
                attention_share: attention_share_of(config, &count, t)?.share,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let share = attention_share_of(config, &count, 1)?;
    Ok(CostCurve {
        context,
        points,
        crossover_seq_len: share.crossover_seq_len,
        crossover_within_context: share.crossover_within_context,
    })
}
