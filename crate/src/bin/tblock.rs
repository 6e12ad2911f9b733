//! `tblock`: the analytic model and TinyGPT on the command line, for course authors who want the
//! numbers for their text: count, init, forward, and train / eval / sample. JSON to stdout by
//! default (`--format table` for people); progress and errors to stderr, errors with a non-zero exit.
//!
//! Native only: `wasm-pack test` builds every target of the crate for wasm32, where this is an empty stub.
#![cfg_attr(target_arch = "wasm32", no_main)]
#![cfg(not(target_arch = "wasm32"))]

use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand, ValueEnum};
use transformer_block::config::{FeedForwardKind, ModelConfig, NormKind, PositionScheme, PRESET_NAMES};
use transformer_block::experiments::ablation::ablate;
use transformer_block::experiments::latency::{time_attention_share, DepthTimer, DEPTHS, STAGE_SEQ_LENS};
use transformer_block::experiments::race::{race, race_settings};
use transformer_block::experiments::stream::stream_stats;
use transformer_block::nn::weights::{self, StoredDtype};
use transformer_block::nn::{Matrix, NormPlacement, TinyGpt, TrainableGpt};
use transformer_block::numbers::thousands;
use transformer_block::train::corpus::LESSON_PROSE;
use transformer_block::train::optimizer::Schedule;
use transformer_block::train::sample::generate;
use transformer_block::train::settings::CONTEXT;
use transformer_block::train::{evaluate, Corpus, TrainSettings, Trainer, Vocabulary};
use transformer_block::Report;

#[derive(Parser)]
#[command(name = "tblock", version, about = "Exact parameter, shape, FLOP and memory counts for real transformers")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List the presets.
    Presets {
        #[arg(long, value_enum, default_value_t = Format::Json)]
        format: Format,
    },
    /// Count a preset or a Hugging Face config.json: parameters by component, shapes, FLOPs, memory.
    Count {
        /// A preset (see `tblock presets`) or the path of a config.json.
        model: String,
        /// Sequence length T for the shapes, FLOPs and KV cache (1 to the model's context).
        #[arg(long, default_value_t = 8, allow_hyphen_values = true, value_parser = whole_number)]
        seq_len: u64,
        /// Batch size B for the shapes and KV cache.
        #[arg(long, default_value_t = 1, allow_hyphen_values = true, value_parser = whole_number)]
        batch: u64,
        #[arg(long, value_enum, default_value_t = Format::Json)]
        format: Format,
    },
    /// Write a freshly initialised GPT-2-shaped model (GPT-2's init, from a seed) as safetensors.
    Init {
        /// Where to write the .safetensors file.
        #[arg(long)]
        out: PathBuf,
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// A GPT-2-shaped preset (tiny-gpt, gpt2-small, ...).
        #[arg(long, default_value = "tiny-gpt")]
        model: String,
    },
    /// Run a model on token ids and print the logits as JSON: {"logits": [[...], ...]}, a row per position.
    Forward {
        /// Token ids, comma-separated: 3,1,4,1,5.
        #[arg(long, value_delimiter = ',', required = true, allow_hyphen_values = true, value_parser = token_id)]
        ids: Vec<usize>,
        /// A GPT-2-shaped safetensors file (Hugging Face names).
        #[arg(long, conflicts_with = "seed")]
        weights: Option<PathBuf>,
        /// The config.json giving the head count and epsilon (default: config.json beside the weights,
        /// else the file's own metadata).
        #[arg(long, requires = "weights")]
        config: Option<PathBuf>,
        /// Instead of a file, TinyGPT initialised from this seed.
        #[arg(long)]
        seed: Option<u64>,
        /// Turn the causal mask off (an encoder).
        #[arg(long)]
        encoder: bool,
        /// Also print the stream after the last block ("hidden").
        #[arg(long)]
        hidden: bool,
    },
    /// Train TinyGPT on a text (default: the lesson page's prose) and write it to a directory:
    /// model.safetensors (Hugging Face GPT-2 names), config.json, vocab.json. Progress on stderr,
    /// a JSON summary on stdout.
    Train {
        /// Where to write the model (created if missing).
        #[arg(long)]
        out: PathBuf,
        /// A UTF-8 text to learn from; its last 10% is held out. Default: the lesson page's prose.
        #[arg(long)]
        text: Option<PathBuf>,
        #[arg(long, default_value_t = 600, allow_hyphen_values = true, value_parser = whole_number)]
        steps: u64,
        /// Seeds the initial weights and the order of the batches (a whole number).
        #[arg(long, default_value_t = 0, allow_hyphen_values = true, value_parser = seed)]
        seed: u64,
        /// The peak learning rate.
        #[arg(long, default_value_t = TrainSettings::default().learning_rate, allow_hyphen_values = true)]
        lr: f64,
        /// Steps of linear warmup (0: none).
        #[arg(long, default_value_t = 0, allow_hyphen_values = true, value_parser = whole_number)]
        warmup: u64,
        /// After warmup: cosine down to a tenth, or constant.
        #[arg(long, value_enum, default_value_t = ScheduleArg::Cosine)]
        schedule: ScheduleArg,
        /// Blocks, 1 to 8.
        #[arg(long, default_value_t = 2, allow_hyphen_values = true, value_parser = whole_number)]
        layers: u64,
        /// Width d, 16 to 128, a multiple of the heads.
        #[arg(long, default_value_t = 32, allow_hyphen_values = true, value_parser = whole_number)]
        width: u64,
        #[arg(long, default_value_t = 4, allow_hyphen_values = true, value_parser = whole_number)]
        heads: u64,
        /// Where the norm sits: pre (GPT-2) or post (the original transformer).
        #[arg(long, value_enum, default_value_t = NormArg::Pre)]
        norm: NormArg,
        /// Windows of 16 per step.
        #[arg(long, default_value_t = 16, allow_hyphen_values = true, value_parser = whole_number)]
        batch: u64,
        /// How model.safetensors stores its numbers.
        #[arg(long, value_enum, default_value_t = DtypeArg::F32)]
        dtype: DtypeArg,
    },
    /// The loss of a trained model on a text, by the evaluation protocol: {"loss": …, "tokens": …}.
    Eval {
        /// A model directory (model.safetensors, config.json, vocab.json) or a .safetensors file.
        #[arg(long)]
        weights: PathBuf,
        /// The text to score. Default: the held-out last 10% of the lesson page's prose.
        #[arg(long)]
        text: Option<PathBuf>,
    },
    /// Take each block out, and make each overwrite the stream, and score the text each time:
    /// {"intact": …, "uniform": …, "blocks": [{"block": 0, "removed": …, "overwritten": …}, …]}.
    Ablate {
        /// A model directory (model.safetensors, config.json, vocab.json) or a .safetensors file.
        #[arg(long)]
        weights: PathBuf,
        /// The text to score. Default: the held-out last 10% of the lesson page's prose.
        #[arg(long)]
        text: Option<PathBuf>,
    },
    /// The stream around each block (medians over the text's positions): its norm, what attention
    /// and the feed-forward add, and the cosine between the stream entering and leaving.
    Stream {
        /// A model directory (model.safetensors, config.json, vocab.json) or a .safetensors file.
        #[arg(long)]
        weights: PathBuf,
        /// The text. Default: the held-out last 10% of the lesson page's prose.
        #[arg(long)]
        text: Option<PathBuf>,
    },
    /// Race pre-LN against post-LN: two six-block models of width 32, the same seed (so the same
    /// initial weights and batches) and settings (constant 3e-3), for each seed; both curves and what
    /// each race found, as JSON.
    Race {
        #[arg(long, default_value_t = 300, allow_hyphen_values = true, value_parser = whole_number)]
        steps: u64,
        /// Seeds, comma-separated.
        #[arg(long, value_delimiter = ',', default_value = "0,1,2", allow_hyphen_values = true, value_parser = seed)]
        seeds: Vec<u64>,
        /// Steps of linear warmup for both models.
        #[arg(long, default_value_t = 0, allow_hyphen_values = true, value_parser = whole_number)]
        warmup: u64,
        /// The held-out loss every this many steps.
        #[arg(long, default_value_t = 25, allow_hyphen_values = true, value_parser = whole_number)]
        eval_every: u64,
        /// A UTF-8 text to learn from (its last 10% held out). Default: the lesson page's prose.
        #[arg(long)]
        text: Option<PathBuf>,
    },
    /// Where the time goes, timed on this machine: one token through the same block-parameter budget
    /// spent four ways (6 x 136 to 48 x 48), and one block's attention stage as a share of its time
    /// at growing T beside its share of the FLOPs. Medians of `--reps` runs; JSON.
    Latency {
        #[arg(long, default_value_t = 200, allow_hyphen_values = true, value_parser = whole_number)]
        reps: u64,
    },
    /// Write text with a trained model: the prompt, then what the model adds.
    Sample {
        /// A model directory (model.safetensors, config.json, vocab.json) or a .safetensors file.
        #[arg(long)]
        weights: PathBuf,
        #[arg(long, default_value = "")]
        prompt: String,
        /// Characters to add.
        #[arg(long, default_value_t = 200, allow_hyphen_values = true, value_parser = whole_number)]
        length: u64,
        /// 0 always takes the likeliest character; 1 samples the model as it is.
        #[arg(long, default_value_t = 0.8, allow_hyphen_values = true)]
        temperature: f64,
        #[arg(long, default_value_t = 0, allow_hyphen_values = true, value_parser = seed)]
        seed: u64,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum ScheduleArg {
    Cosine,
    Constant,
}

#[derive(Clone, Copy, ValueEnum)]
enum NormArg {
    Pre,
    Post,
}

#[derive(Clone, Copy, ValueEnum)]
enum DtypeArg {
    F32,
    F16,
    /// A byte a weight with a scale per row (a quarter of f32; read by tblock and the page, not by transformers).
    Int8,
    /// As int8 with 127 levels (−63 to 63) a row: the same file size, smaller once compressed.
    Int7,
    /// As int8 with 63 levels (−31 to 31) a row: the same file size, about a fifth less once compressed.
    Int6,
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Json,
    Table,
    /// `count` only: a ready-to-paste `<tb-anatomy>` (a config.json inlined beside it).
    Html,
}

/// A count on the command line: a whole number (its range is checked against the model later).
fn whole_number(text: &str) -> Result<u64, String> {
    text.trim().parse::<u64>().map_err(|_| format!("must be a whole number of at least 1, got \"{text}\""))
}

fn seed(text: &str) -> Result<u64, String> {
    text.trim().parse::<u64>().map_err(|_| {
        format!(
            "a seed is a whole number from 0 to 18446744073709551615, got \"{}\"",
            transformer_block::error::clip(text)
        )
    })
}

fn token_id(text: &str) -> Result<usize, String> {
    text.trim().parse::<usize>().map_err(|_| format!("token ids are whole numbers from 0, got \"{text}\""))
}

fn read(path: &Path) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

/// The model for `forward`: a weights file (with its config) or a seeded TinyGPT.
fn model_for_forward(weights: Option<PathBuf>, config: Option<PathBuf>, seed: Option<u64>) -> Result<TinyGpt, String> {
    let Some(weights) = weights else {
        return Ok(TinyGpt::tiny(seed.unwrap_or(0)));
    };
    let bytes = read(&weights)?;
    let beside = weights.with_file_name("config.json");
    let config_path = config.or_else(|| beside.exists().then_some(beside));
    let config = match config_path {
        Some(path) => {
            let text = String::from_utf8(read(&path)?).map_err(|_| format!("{}: not UTF-8 text", path.display()))?;
            Some(ModelConfig::from_hf_config_json(&text).map_err(|e| format!("{}: {e}", path.display()))?)
        }
        None => None,
    };
    weights::load(&bytes, config.as_ref()).map_err(|e| format!("{}: {e}", weights.display()))
}

/// A model directory (model.safetensors with config.json and vocab.json beside it) or a
/// .safetensors file (its config beside it or in its metadata), with its vocabulary (the lessons'
/// when there is no vocab.json).
fn load_trained(path: &Path) -> Result<(TinyGpt, Vocabulary), String> {
    let file = if path.is_dir() { path.join("model.safetensors") } else { path.to_path_buf() };
    if !file.exists() {
        return Err(format!(
            "cannot read {}: no such file (give a directory that tblock train wrote, or a .safetensors file)",
            file.display()
        ));
    }
    let model = model_for_forward(Some(file.clone()), None, None)?;
    let vocab_path = file.with_file_name("vocab.json");
    let vocab = if vocab_path.exists() {
        let text =
            std::fs::read_to_string(&vocab_path).map_err(|e| format!("cannot read {}: {e}", vocab_path.display()))?;
        Vocabulary::from_json(&text).map_err(|e| format!("{}: {e}", vocab_path.display()))?
    } else {
        Vocabulary::lessons()
    };
    if vocab.len() != model.vocab_size() {
        return Err(format!(
            "{}: the vocabulary has {} symbols but the model's token table has {} rows",
            vocab_path.display(),
            vocab.len(),
            model.vocab_size()
        ));
    }
    Ok((model, vocab))
}

/// A trained model, ready to score, and the text to score as ids: `text`, or by default the
/// held-out tail of the lesson prose.
fn model_and_text(weights: &Path, text: Option<&Path>) -> Result<(TrainableGpt, Vec<usize>), String> {
    let (model, vocab) = load_trained(weights)?;
    let ids = match text {
        Some(path) => vocab.encode(&read_text(path)?),
        None => Corpus::lessons(&vocab, model.context()).held_out,
    };
    let flat = TrainableGpt::from_model(&model, 16).map_err(|e| e.to_string())?;
    Ok((flat, ids))
}

fn read_text(path: &Path) -> Result<String, String> {
    let bytes = read(path)?;
    String::from_utf8(bytes)
        .map_err(|e| format!("{}: not UTF-8 text (byte {})", path.display(), e.utf8_error().valid_up_to()))
}

fn usize_of(what: &str, n: u64) -> Result<usize, String> {
    usize::try_from(n).map_err(|_| format!("{what} {n} is too large"))
}

/// Progress on stderr: a bar with steps/s and the running loss on a terminal, else a plain line
/// every tenth of the run.
struct Progress {
    bar: Option<indicatif::ProgressBar>,
    steps: usize,
    started: Instant,
    smoothed: Option<f32>,
}

impl Progress {
    fn new(steps: usize) -> Progress {
        let bar = io::stderr().is_terminal().then(|| {
            let bar = indicatif::ProgressBar::new(steps as u64);
            let style = indicatif::ProgressStyle::with_template(
                "{bar:30} {pos}/{len} steps · {per_sec} · loss {msg} · {eta} left",
            )
            .expect("a valid template");
            bar.set_style(style);
            bar
        });
        Progress { bar, steps, started: Instant::now(), smoothed: None }
    }

    fn step(&mut self, step: usize, loss: f32) {
        // The running loss: an exponential average over about 20 steps (one batch's loss is noisy).
        let s = self.smoothed.map_or(loss, |s| 0.95 * s + 0.05 * loss);
        self.smoothed = Some(s);
        match &self.bar {
            Some(bar) => {
                bar.set_position(step as u64);
                bar.set_message(format!("{s:.3}"));
            }
            None if step % (self.steps / 10).max(1) == 0 || step == self.steps => {
                let rate = step as f64 / self.started.elapsed().as_secs_f64().max(1e-9);
                eprintln!("step {step}/{} · {rate:.0} steps/s · loss {s:.3}", self.steps);
            }
            None => {}
        }
    }

    fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish();
        }
    }
}

fn train(settings: TrainSettings, text: Option<PathBuf>, out: &Path, dtype: StoredDtype) -> Result<String, String> {
    let text = match &text {
        Some(path) => read_text(path)?,
        None => LESSON_PROSE.to_string(),
    };
    let mut t = Trainer::new(settings, &text).map_err(|e| e.to_string())?;
    std::fs::create_dir_all(out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let mut progress = Progress::new(settings.steps);
    let started = Instant::now();
    let mut failed = None;
    while !t.is_done() {
        match t.step() {
            Ok(r) => progress.step(r.step, r.loss),
            Err(e) => failed = Some(e.to_string()),
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    progress.finish();
    let model = t.model();
    let files = [
        ("model.safetensors", weights::save_as(&model, dtype).map_err(|e| e.to_string())?),
        ("config.json", format!("{}\n", weights::model_config_json(&model)).into_bytes()),
        ("vocab.json", t.vocab.to_json().into_bytes()),
    ];
    for (name, bytes) in files {
        let path = out.join(name);
        std::fs::write(&path, bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    if let Some(message) = failed {
        return Err(format!("{message}; wrote them to {}", out.display()));
    }
    let (train_loss, val_loss) =
        (t.train_loss().map_err(|e| e.to_string())?, t.held_out_loss().map_err(|e| e.to_string())?);
    let r = t.reference;
    let tokens = (t.steps_done() * settings.batch * CONTEXT) as f64;
    json(&serde_json::json!({
        "steps": t.steps_done(),
        "seconds": seconds,
        "train_loss": train_loss.loss,
        "val_loss": val_loss.loss,
        "uniform_loss": r.uniform,
        "unigram_loss": r.unigram,
        "bigram_loss": r.bigram,
        "tokens_per_second": tokens / seconds.max(1e-9),
        "parameters": model.n_params(),
        "settings": settings,
        "out": out.display().to_string(),
    }))
}

fn rows(m: &Matrix) -> Vec<Vec<f32>> {
    m.row_iter().map(|r| r.iter().copied().collect()).collect()
}

/// A preset key, or else a path to a config.json.
fn load(model: &str) -> Result<ModelConfig, String> {
    if PRESET_NAMES.contains(&model) {
        return ModelConfig::preset(model).map_err(|e| e.to_string());
    }
    let path = Path::new(model);
    if !path.exists() {
        if model.ends_with(".json") || model.contains(std::path::MAIN_SEPARATOR) {
            return Err(format!("cannot read {model}: no such file"));
        }
        return ModelConfig::preset(model).map_err(|e| e.to_string());
    }
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {model}: {e}"))?;
    ModelConfig::from_hf_config_json(&text).map_err(|e| format!("{model}: {e}"))
}

fn json<T: serde::Serialize>(value: &T) -> Result<String, String> {
    serde_json::to_string_pretty(value).map_err(|e| format!("internal error writing JSON: {e}"))
}

fn percent(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// FLOPs with an SI prefix: 285.06 M, 19.30 G.
fn giga(x: f64) -> String {
    let (scale, prefix) =
        [(1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")].into_iter().find(|(s, _)| x >= *s).unwrap_or((1.0, ""));
    format!("{:.2} {prefix}", x / scale)
}

fn describe(c: &ModelConfig) -> String {
    let positions = match c.positions {
        PositionScheme::Learned => "learned positions",
        PositionScheme::Rotary => "rotary positions",
        PositionScheme::None => "no positions",
    };
    let mut s = format!(
        "V {}, d {}, L {}, h {} (key/value heads {}) of {}, f {}, context {}, {positions}, {}, {}, {}",
        thousands(c.vocab_size),
        thousands(c.d_model),
        c.n_layers,
        c.n_heads,
        c.n_kv_heads,
        c.head_dim,
        thousands(c.d_ff),
        thousands(c.context),
        match c.norm {
            NormKind::LayerNorm => "LayerNorm",
            NormKind::RmsNorm => "RMSNorm",
        },
        match c.feed_forward {
            FeedForwardKind::Gelu => "GELU feed-forward",
            FeedForwardKind::SwiGlu => "SwiGLU feed-forward",
        },
        if c.tied_output { "tied output" } else { "separate output head" },
    );
    if let Some(m) = c.moe {
        s.push_str(&format!(", {} experts, {} per token", m.n_experts, m.experts_per_token));
    }
    s
}

fn table(r: &Report) -> String {
    let mut out = format!(
        "{} ({}): {} parameters\n  {}\n\n",
        r.config.label,
        r.model,
        thousands(r.total_params),
        describe(&r.config)
    );
    out.push_str(&format!(
        "{:<30} {:<34} {:>16} {:>18} {:>7}\n",
        "part", "formula", "per block", "in the model", "share"
    ));
    for p in &r.parts {
        let per_block = if p.per_block { thousands(p.params_each) } else { "-".into() };
        out.push_str(&format!(
            "{:<30} {:<34} {:>16} {:>18} {:>7}\n",
            p.label,
            p.formula,
            per_block,
            thousands(p.params),
            percent(p.share)
        ));
    }
    out.push_str(&format!("\n{:<30} {:>70}\n", "one block", thousands(r.per_block_params)));
    out.push_str(&format!("{:<30} {:>70}\n", "total", thousands(r.total_params)));
    out.push_str(&format!("{:<30} {:>70}\n", "without embeddings", thousands(r.non_embedding_params)));
    out.push_str(&format!("{:<30} {:>70}\n", "active per token", thousands(r.active_params)));
    out.push_str(&format!(
        "{:<30} {:>70}\n  ({} off the count without embeddings; with V·d it leaves out {} of the total)\n",
        "Kaplan 12·L·d²",
        thousands(r.kaplan.params),
        percent(r.kaplan.error_vs_non_embedding),
        percent(r.kaplan.left_out_of_total)
    ));
    out.push_str("\nbreakdown\n");
    for g in &r.groups {
        out.push_str(&format!("  {:<16} {:>18} {:>7}\n", g.label, thousands(g.params), percent(g.share)));
    }
    let f = &r.forward_flops;
    out.push_str(&format!(
        "\nFLOPs per token at T = {}: forward {} (2N = {} + attention {}), training {}\n",
        thousands(r.seq_len),
        giga(f.total),
        giga(f.parameter_flops),
        giga(f.attention_flops),
        giga(r.training_flops_per_token)
    ));
    let a = &r.attention_share;
    out.push_str(&format!(
        "one block's attention share at T = {}: {}; attention passes the linear layers at T = {}{}\n",
        thousands(r.seq_len),
        percent(a.share),
        thousands(a.crossover_seq_len.round() as u64),
        if a.crossover_within_context { "" } else { " (past the model's context)" }
    ));
    out.push_str("\nmemory for the weights:");
    for b in &r.memory.weights {
        out.push_str(&format!("  {} {:.2} GB", b.dtype, b.bytes as f64 / 1e9));
    }
    out.push_str(&format!(
        "\nkey/value cache: {} bytes per token at bf16/fp16; {} bytes for batch {} x {} tokens\n",
        thousands(r.memory.kv_cache_per_token[1].bytes),
        thousands(r.memory.kv_cache[1].bytes),
        r.batch,
        thousands(r.seq_len)
    ));
    out
}

fn run(cli: Cli) -> Result<String, String> {
    match cli.command {
        Command::Presets { format } => {
            let presets = ModelConfig::presets();
            match format {
                Format::Json => json(&presets),
                Format::Table => {
                    Ok(presets.iter().map(|c| format!("{:<14} {:<14} {}\n", c.name, c.label, describe(c))).collect())
                }
                Format::Html => Err("--format html is for count: it prints a <tb-anatomy> for one model".into()),
            }
        }
        Command::Init { out, seed, model } => {
            let config = ModelConfig::preset(&model).map_err(|e| e.to_string())?;
            let m = TinyGpt::new(&config, seed).map_err(|e| e.to_string())?;
            let bytes = weights::save(&m).map_err(|e| e.to_string())?;
            std::fs::write(&out, bytes).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
            Ok(format!("wrote {} ({} parameters, seed {seed})", out.display(), thousands(m.n_params() as u64)))
        }
        Command::Forward { ids, weights, config, seed, encoder, hidden } => {
            let mut m = model_for_forward(weights, config, seed)?;
            m.set_causal(!encoder);
            let logits = m.forward(&ids).map_err(|e| e.to_string())?;
            let mut out = serde_json::json!({ "logits": rows(&logits) });
            if hidden {
                out["hidden"] = serde_json::json!(rows(&m.hidden(&ids).map_err(|e| e.to_string())?));
            }
            json(&out)
        }
        Command::Train { out, text, steps, seed, lr, warmup, schedule, layers, width, heads, norm, batch, dtype } => {
            let settings = TrainSettings {
                steps: usize_of("steps", steps)?,
                seed,
                learning_rate: lr,
                warmup: usize_of("warmup", warmup)?,
                schedule: match schedule {
                    ScheduleArg::Cosine => Schedule::Cosine,
                    ScheduleArg::Constant => Schedule::Constant,
                },
                layers: usize_of("layers", layers)?,
                width: usize_of("width", width)?,
                heads: usize_of("heads", heads)?,
                norm: match norm {
                    NormArg::Pre => NormPlacement::Pre,
                    NormArg::Post => NormPlacement::Post,
                },
                batch: usize_of("batch", batch)?,
                ..TrainSettings::default()
            };
            let dtype = match dtype {
                DtypeArg::F32 => StoredDtype::F32,
                DtypeArg::F16 => StoredDtype::F16,
                DtypeArg::Int8 => StoredDtype::IntRows { bits: 8 },
                DtypeArg::Int7 => StoredDtype::IntRows { bits: 7 },
                DtypeArg::Int6 => StoredDtype::IntRows { bits: 6 },
            };
            train(settings, text, &out, dtype)
        }
        Command::Eval { weights, text } => {
            let (mut flat, ids) = model_and_text(&weights, text.as_deref())?;
            let e = evaluate(&mut flat, &ids).map_err(|e| e.to_string())?;
            json(&serde_json::json!({ "loss": e.loss, "tokens": e.tokens }))
        }
        Command::Ablate { weights, text } => {
            let (mut flat, ids) = model_and_text(&weights, text.as_deref())?;
            json(&ablate(&mut flat, &ids).map_err(|e| e.to_string())?)
        }
        Command::Race { steps, seeds, warmup, eval_every, text } => {
            let text = match &text {
                Some(path) => read_text(path)?,
                None => LESSON_PROSE.to_string(),
            };
            let (steps, warmup, eval_every) =
                (usize_of("steps", steps)?, usize_of("warmup", warmup)?, usize_of("eval-every", eval_every)?);
            let mut runs = Vec::new();
            let mut reference = None;
            for seed in seeds {
                eprintln!("tblock race: seed {seed}, {steps} steps, warmup {warmup}");
                let (run, r) = race(&text, steps, seed, warmup, eval_every).map_err(|e| e.to_string())?;
                eprintln!("  {}", run.verdict.text);
                reference = Some(r);
                runs.push(run);
            }
            json(&serde_json::json!({
                "settings": race_settings(steps, 0, warmup),
                "reference": reference,
                "runs": runs,
            }))
        }
        Command::Latency { reps } => {
            let reps = usize_of("reps", reps)?;
            let start = Instant::now();
            let now = move || start.elapsed().as_secs_f64() * 1e3;
            let mut depth = Vec::new();
            for i in 0..DEPTHS.len() {
                let mut timer = DepthTimer::new(i).map_err(|e| e.to_string())?;
                timer.run(reps, &now).map_err(|e| e.to_string())?;
                depth.push(timer.result());
            }
            let shares = STAGE_SEQ_LENS
                .iter()
                .map(|&t| time_attention_share(t, reps, &now))
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| e.to_string())?;
            json(&serde_json::json!({ "clock": "native (tblock)", "depth": depth, "attention_share": shares }))
        }
        Command::Stream { weights, text } => {
            let (mut flat, ids) = model_and_text(&weights, text.as_deref())?;
            json(&stream_stats(&mut flat, &ids).map_err(|e| e.to_string())?)
        }
        Command::Sample { weights, prompt, length, temperature, seed } => {
            let (model, vocab) = load_trained(&weights)?;
            let mut flat = TrainableGpt::from_model(&model, 1).map_err(|e| e.to_string())?;
            let text = generate(&mut flat, &vocab, &prompt, usize_of("length", length)?, temperature, seed)
                .map_err(|e| e.to_string())?;
            Ok(format!("{prompt}{text}"))
        }
        Command::Count { model, seq_len, batch, format } => {
            let config = load(&model)?;
            let report = Report::new(&config, seq_len, batch).map_err(|e| e.to_string())?;
            match format {
                Format::Json => json(&report),
                Format::Table => Ok(table(&report)),
                // The diagram shows one sequence: `batch` is checked above, not shown.
                Format::Html => {
                    let text = if PRESET_NAMES.contains(&model.as_str()) {
                        model.clone()
                    } else {
                        std::fs::read_to_string(&model).map_err(|e| format!("cannot read {model}: {e}"))?
                    };
                    transformer_block::embed::anatomy_snippet(&text, seq_len).map_err(|e| format!("{model}: {e}"))
                }
            }
        }
    }
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(text) => {
            // A closed pipe (`tblock count ... | head`) is not an error worth a message.
            let mut stdout = io::stdout().lock();
            match writeln!(stdout, "{}", text.trim_end()) {
                Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
                    eprintln!("tblock: cannot write the output: {e}");
                    ExitCode::FAILURE
                }
                _ => ExitCode::SUCCESS,
            }
        }
        Err(message) => {
            eprintln!("tblock: {message}");
            ExitCode::FAILURE
        }
    }
}
