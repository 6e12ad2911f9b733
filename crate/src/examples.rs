//! The lessons' worked examples, each a function that runs the model code and returns its numbers,
//! so the page and the tests make the same call. Inputs are what a reader may edit; the defaults
//! (`*_DEFAULT`) are the lessons' own.

use std::rc::Rc;

use serde::Serialize;

use crate::config::ModelConfig;
use crate::cost::{c_infer, c_train};
use crate::count::count_params;
use crate::error::{Error, Result};
use crate::nn::gpt::tied_logits;
use crate::nn::init::Rng;
use crate::nn::masks::{mask_patterns, MaskPatterns};
use crate::nn::moe::{balance_loss, route};
use crate::nn::{activation, FeedForward, LayerNorm, Matrix, MixtureOfExperts, Residual, TinyGpt};

/// The lessons' TinyGPT of `seed`, made once per seed and shared: the examples rerun on every slider
/// step, and drawing its 27,328 initial weights (or even copying them) costs more than the example.
fn lessons_tiny_gpt(seed: u64) -> Rc<TinyGpt> {
    thread_local! {
        static LAST: std::cell::RefCell<Option<(u64, Rc<TinyGpt>)>> = const { std::cell::RefCell::new(None) };
    }
    LAST.with(|last| {
        let mut last = last.borrow_mut();
        match &*last {
            Some((s, model)) if *s == seed => Rc::clone(model),
            _ => {
                let model = Rc::new(TinyGpt::tiny(seed));
                *last = Some((seed, Rc::clone(&model)));
                model
            }
        }
    })
}

/// The seed of the TinyGPT whose numbers the page shows.
pub const SEED_DEFAULT: u64 = 0;
/// The lessons' token ids.
pub const IDS_DEFAULT: [usize; 5] = [3, 1, 4, 1, 5];
/// Up to 16 ids for the mask example (the digits of π).
pub const MASK_IDS: [usize; 16] = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3];
/// Longest vector a reader may type into an example.
pub const MAX_VECTOR: usize = 64;

fn vector(what: &str, x: &[f32]) -> Result<()> {
    if x.is_empty() || x.len() > MAX_VECTOR {
        return Err(Error::out_of_range(
            format!("the length of {what}"),
            x.len(),
            format!("give 1 to {MAX_VECTOR} numbers"),
        ));
    }
    if let Some(bad) = x.iter().find(|v| !v.is_finite()) {
        return Err(Error::out_of_range(what, bad, "every entry must be a finite number"));
    }
    Ok(())
}

fn row(x: &[f32]) -> Matrix {
    Matrix::from_row_slice(1, x.len(), x)
}

// --- residual ------------------------------------------------------------------------------

pub const RESIDUAL_DEFAULT: ([f32; 2], [f32; 2], [f32; 2]) = ([1.0, 2.0], [0.1, -0.3], [-0.2, 0.4]);

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ResidualExample {
    pub x: Vec<f32>,
    pub attention_adds: Vec<f32>,
    pub after_attention: Vec<f32>,
    pub feed_forward_adds: Vec<f32>,
    pub after_feed_forward: Vec<f32>,
    /// A TinyGPT block with both sublayers off, on a real stream: the largest change (0: unchanged).
    pub both_off_largest_change: f32,
}

/// x, then x + what attention wrote, then + what the feed-forward wrote: the block's add.
pub fn residual(x: &[f32], attention: &[f32], feed_forward: &[f32]) -> Result<ResidualExample> {
    for (what, v) in [("x", x), ("attention's output", attention), ("the feed-forward's output", feed_forward)] {
        vector(what, v)?;
        if v.len() != x.len() {
            return Err(Error::out_of_range(
                format!("the length of {what}"),
                v.len(),
                format!("it must match x, {} numbers", x.len()),
            ));
        }
    }
    let h = Residual::Add.apply(&row(x), row(attention));
    let out = Residual::Add.apply(&h, row(feed_forward));
    let model = lessons_tiny_gpt(SEED_DEFAULT);
    let stream = model.embed(&IDS_DEFAULT)?;
    let mut block = model.blocks[0].clone();
    block.switches.attention = false;
    block.switches.feed_forward = false;
    let both_off_largest_change = (block.forward(&stream) - &stream).amax();
    Ok(ResidualExample {
        x: x.to_vec(),
        attention_adds: attention.to_vec(),
        after_attention: h.iter().copied().collect(),
        feed_forward_adds: feed_forward.to_vec(),
        after_feed_forward: out.iter().copied().collect(),
        both_off_largest_change,
    })
}

// --- LayerNorm ------------------------------------------------------------------------------

pub const LAYERNORM_DEFAULT: [f32; 4] = [1.0, 2.0, 3.0, 4.0];

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LayerNormExample {
    pub input: Vec<f32>,
    pub mean: f32,
    pub variance: f32,
    pub spread: f32,
    pub centred: Vec<f32>,
    pub output: Vec<f32>,
    /// The input times 100 ...
    pub scaled_by: f32,
    /// ... normalises to (almost exactly) the same output.
    pub scaled_output: Vec<f32>,
}

/// LayerNorm of one vector with γ = 1, β = 0 and ε = 1e-5, every step kept.
pub fn layernorm(x: &[f32]) -> Result<LayerNormExample> {
    vector("the vector", x)?;
    let norm = LayerNorm::new(x.len(), 1e-5);
    let steps = norm.steps(x);
    let scaled: Vec<f32> = x.iter().map(|v| v * 100.0).collect();
    Ok(LayerNormExample {
        input: x.to_vec(),
        mean: steps.mean,
        variance: steps.variance,
        spread: steps.spread,
        centred: steps.centred,
        output: steps.output,
        scaled_by: 100.0,
        scaled_output: norm.steps(&scaled).output,
    })
}

// --- GELU and the feed-forward ----------------------------------------------------------------

pub const GELU_DEFAULT: [f32; 4] = [1.0, 10.0, -3.0, 0.0];
/// The widest feed-forward the example builds for real.
pub const MAX_FEED_FORWARD_WIDTH: usize = 256;

/// GELU of each number.
pub fn gelu(z: &[f32]) -> Result<Vec<f32>> {
    vector("the inputs", z)?;
    Ok(z.iter().map(|&v| activation::gelu(v)).collect())
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FeedForwardExample {
    pub d: usize,
    pub hidden: usize,
    /// W_1 [d, 4d], b_1 [4d], W_2 [4d, d], b_2 [d], counted off a real layer.
    pub params: usize,
    pub w1_shape: [usize; 2],
    pub w2_shape: [usize; 2],
}

/// Build a d -> 4d -> d feed-forward and count its weights.
pub fn feed_forward(d: usize) -> Result<FeedForwardExample> {
    if d == 0 || d > MAX_FEED_FORWARD_WIDTH {
        return Err(Error::out_of_range("width d", d, format!("choose 1 to {MAX_FEED_FORWARD_WIDTH}")));
    }
    let layer = FeedForward::new(d, 4 * d, &mut Rng::new(SEED_DEFAULT));
    Ok(FeedForwardExample {
        d,
        hidden: 4 * d,
        params: layer.n_params(),
        w1_shape: [layer.c_fc.inputs(), layer.c_fc.outputs()],
        w2_shape: [layer.c_proj.inputs(), layer.c_proj.outputs()],
    })
}

// --- TinyGPT ----------------------------------------------------------------------------------

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TinyGptExample {
    pub ids: Vec<usize>,
    pub seed: u64,
    pub n_params: usize,
    /// [T, d]
    pub stream_shape: [usize; 2],
    /// The stream after the last block, row-major.
    pub stream: Vec<f32>,
    /// [T, V]
    pub logits_shape: [usize; 2],
    /// Row-major.
    pub logits: Vec<f32>,
    /// For each position, the id with the highest logit: the model's guess at the next token.
    pub next_token: Vec<usize>,
}

fn row_major(m: &Matrix) -> Vec<f32> {
    m.transpose().as_slice().to_vec()
}

/// Run TinyGPT (initialised from `seed`) on `ids`.
pub fn tiny_gpt(ids: &[usize], seed: u64) -> Result<TinyGptExample> {
    let model = lessons_tiny_gpt(seed);
    let stream = model.hidden(ids)?;
    let logits = model.forward(ids)?;
    let next_token = logits
        .row_iter()
        .map(|r| {
            r.iter().enumerate().fold((0, f32::NEG_INFINITY), |best, (i, &v)| if v > best.1 { (i, v) } else { best }).0
        })
        .collect();
    Ok(TinyGptExample {
        ids: ids.to_vec(),
        seed,
        n_params: model.n_params(),
        stream_shape: [stream.nrows(), stream.ncols()],
        stream: row_major(&stream),
        logits_shape: [logits.nrows(), logits.ncols()],
        logits: row_major(&logits),
        next_token,
    })
}

pub const TIED_DEFAULT: ([f32; 2], [[f32; 2]; 3]) = ([1.0, -1.0], [[1.0, 0.0], [0.0, 1.0], [-1.0, 1.0]]);

/// The tied output head: LN(h) dotted with each row of the token table.
pub fn tied_output(normed: &[f32], table: &[Vec<f32>]) -> Result<Vec<f32>> {
    vector("LN(h)", normed)?;
    if table.is_empty() || table.len() > MAX_VECTOR {
        return Err(Error::out_of_range(
            "the number of table rows",
            table.len(),
            format!("give 1 to {MAX_VECTOR} rows"),
        ));
    }
    for (i, r) in table.iter().enumerate() {
        vector(&format!("table row {i}"), r)?;
        if r.len() != normed.len() {
            return Err(Error::out_of_range(
                format!("the length of table row {i}"),
                r.len(),
                format!("every row must be as wide as LN(h), {} numbers", normed.len()),
            ));
        }
    }
    let flat: Vec<f32> = table.iter().flatten().copied().collect();
    let logits = tied_logits(&row(normed), &Matrix::from_row_slice(table.len(), normed.len(), &flat));
    Ok(logits.iter().copied().collect())
}

// --- masks ------------------------------------------------------------------------------------

/// Encoder and decoder blocks on the first `n_tokens` of [`MASK_IDS`], changing the token at `position`.
pub fn masks(n_tokens: usize, position: usize, seed: u64) -> Result<MaskPatterns> {
    if n_tokens == 0 || n_tokens > MASK_IDS.len() {
        return Err(Error::out_of_range("number of tokens", n_tokens, format!("choose 1 to {}", MASK_IDS.len())));
    }
    let ids = &MASK_IDS[..n_tokens];
    let new_id = ids.get(position).map_or(0, |old| (old + 17) % 50);
    mask_patterns(&lessons_tiny_gpt(seed), ids, position, new_id)
}

// --- counting ---------------------------------------------------------------------------------

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ParamCountExample {
    /// Counted off TinyGPT's code.
    pub tiny_per_block: usize,
    pub tiny_total: usize,
    /// The analytic model's count of the same config.
    pub tiny_total_analytic: u64,
    pub token_table_shape: [usize; 2],
    pub position_table_shape: [usize; 2],
    pub final_norm: usize,
    pub gpt2_small_without_attention_biases: u64,
    pub gpt2_small: u64,
}

pub fn param_count() -> Result<ParamCountExample> {
    let tiny = lessons_tiny_gpt(SEED_DEFAULT);
    let gpt2 = ModelConfig::preset("gpt2-small")?;
    let mut no_bias = gpt2.clone();
    no_bias.bias.qkv = false;
    no_bias.bias.attention_out = false;
    Ok(ParamCountExample {
        tiny_per_block: tiny.blocks[0].n_params(),
        tiny_total: tiny.n_params(),
        tiny_total_analytic: count_params(&tiny.config)?.total,
        token_table_shape: [tiny.wte.nrows(), tiny.wte.ncols()],
        position_table_shape: [tiny.wpe.nrows(), tiny.wpe.ncols()],
        final_norm: tiny.ln_f.n_params(),
        gpt2_small_without_attention_biases: count_params(&no_bias)?.total,
        gpt2_small: count_params(&gpt2)?.total,
    })
}

// --- mixture of experts -----------------------------------------------------------------------

pub const MOE_SCORES_DEFAULT: [f32; 4] = [2.0, 1.0, 0.5, -1.0];
pub const MAX_EXPERTS: usize = 64;
pub const MAX_MOE_WIDTH: usize = 64;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MoeRoutingExample {
    pub scores: Vec<f32>,
    pub k: usize,
    pub kept: Vec<usize>,
    pub gates: Vec<f32>,
    pub skipped: Vec<usize>,
}

/// Route one token's router scores: the top k and their softmax.
pub fn moe_routing(scores: &[f32], k: usize) -> Result<MoeRoutingExample> {
    vector("the router scores", scores)?;
    let r = route(scores, k)?;
    Ok(MoeRoutingExample { scores: scores.to_vec(), k, kept: r.kept, gates: r.gates, skipped: r.skipped })
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MoeSizeExample {
    pub d: usize,
    pub n_experts: usize,
    pub k: usize,
    pub one_expert: usize,
    pub router: usize,
    pub all_held: usize,
    pub touched_per_token: usize,
}

fn moe_layer(d: usize, n_experts: usize, k: usize, rng: &mut Rng) -> Result<MixtureOfExperts> {
    if d == 0 || d > MAX_MOE_WIDTH {
        return Err(Error::out_of_range("width d", d, format!("choose 1 to {MAX_MOE_WIDTH}")));
    }
    if n_experts == 0 || n_experts > MAX_EXPERTS {
        return Err(Error::out_of_range("experts", n_experts, format!("choose 1 to {MAX_EXPERTS}")));
    }
    MixtureOfExperts::new(d, n_experts, k, rng)
}

/// Build a real MoE layer and count it: one expert, all held, touched per token.
pub fn moe_sizes(d: usize, n_experts: usize, k: usize) -> Result<MoeSizeExample> {
    let layer = moe_layer(d, n_experts, k, &mut Rng::new(SEED_DEFAULT))?;
    Ok(MoeSizeExample {
        d,
        n_experts,
        k,
        one_expert: layer.experts[0].n_params(),
        router: layer.router.n_params(),
        all_held: layer.n_params(),
        touched_per_token: layer.active_params(),
    })
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MoeBatchExample {
    pub n_tokens: usize,
    pub tokens_per_expert: Vec<usize>,
    pub balance_loss: f64,
}

/// Send `n_tokens` random tokens through a seeded layer: how many each expert gets, and the loss.
pub fn moe_batch(d: usize, n_experts: usize, k: usize, n_tokens: usize, seed: u64) -> Result<MoeBatchExample> {
    if n_tokens == 0 || n_tokens > 4096 {
        return Err(Error::out_of_range("number of tokens", n_tokens, "choose 1 to 4,096"));
    }
    let mut rng = Rng::new(seed);
    let layer = moe_layer(d, n_experts, k, &mut rng)?;
    let x = Matrix::from_row_slice(n_tokens, d, &rng.normal_vec(n_tokens * d, 1.0));
    Ok(MoeBatchExample {
        n_tokens,
        tokens_per_expert: layer.tokens_per_expert(&x),
        balance_loss: layer.load_balance_loss(&x),
    })
}

/// The load-balancing loss n·Σ f_i·P_i for given fractions and probabilities.
pub fn balance(fractions: &[f64], probabilities: &[f64]) -> Result<f64> {
    for (what, v) in [("fraction", fractions), ("probability", probabilities)] {
        if let Some(bad) = v.iter().find(|x| !(x.is_finite() && (0.0..=1.0).contains(*x))) {
            return Err(Error::out_of_range(what, bad, "each must be between 0 and 1"));
        }
    }
    balance_loss(fractions, probabilities)
}

// --- FLOPs ------------------------------------------------------------------------------------

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FlopsExample {
    pub params: f64,
    pub tokens: f64,
    /// 2N per generated token.
    pub c_infer: f64,
    /// 6·N·D for the whole run.
    pub c_train: f64,
}

/// C_infer(N) and C_train(N, D).
pub fn flops(params: f64, tokens: f64) -> Result<FlopsExample> {
    for (what, v) in [("parameters", params), ("tokens", tokens)] {
        if !(v.is_finite() && v > 0.0) {
            return Err(Error::out_of_range(what, v, "it must be a positive number"));
        }
    }
    Ok(FlopsExample {
        params,
        tokens,
        c_infer: crate::cost::finite_product(c_infer(params))?,
        c_train: crate::cost::finite_product(c_train(params, tokens))?,
    })
}
