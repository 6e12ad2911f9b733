//! `tblock`: the analytic model on the command line, for course authors who want the numbers for
//! their text. JSON to stdout by default (`--format table` for people); errors to stderr with a
//! non-zero exit.
//!
//! Native only: `wasm-pack test` builds every target of the crate for wasm32, where this is an empty stub.
#![cfg_attr(target_arch = "wasm32", no_main)]
#![cfg(not(target_arch = "wasm32"))]

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use transformer_block::config::{FeedForwardKind, ModelConfig, NormKind, PositionScheme, PRESET_NAMES};
use transformer_block::nn::{weights, Matrix, TinyGpt};
use transformer_block::numbers::thousands;
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
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Json,
    Table,
}

/// A count on the command line: a whole number (its range is checked against the model later).
fn whole_number(text: &str) -> Result<u64, String> {
    text.trim().parse::<u64>().map_err(|_| format!("must be a whole number of at least 1, got \"{text}\""))
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
        Command::Count { model, seq_len, batch, format } => {
            let config = load(&model)?;
            let report = Report::new(&config, seq_len, batch).map_err(|e| e.to_string())?;
            match format {
                Format::Json => json(&report),
                Format::Table => Ok(table(&report)),
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
