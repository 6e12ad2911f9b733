//! `tblock`: the analytic model and TinyGPT on the command line, for course authors who want the
//! numbers for their text: count, init, forward, train / eval / sample, inspect / heads, and the
//! experiments. JSON to stdout by default (`--format table` for people); progress and errors to
//! stderr, errors with a non-zero exit. One small function a subcommand; the options are in args.rs.
//!
//! Native only: `wasm-pack test` builds every target of the crate for wasm32, where this is an empty stub.
#![cfg_attr(target_arch = "wasm32", no_main)]
#![cfg(not(target_arch = "wasm32"))]

mod args;
mod checkpoint;
mod files;
mod inspect;
mod memory;
mod table;
mod train;

use std::io::{self, Write};
use std::process::ExitCode;
use std::time::Instant;

use args::{Cli, Command, DtypeArg, ExperimentArgs, Format, NormArg, ScheduleArg};
use checkpoint::Experiment;
use clap::Parser;
use files::{chosen_model, load, model_and_text, model_for_forward, read_text, text_ids};
use table::{describe, table};
use transformer_block::checkpoint::is_checkpoint_dir;
use transformer_block::config::{ModelConfig, PRESET_NAMES};
use transformer_block::experiments::ablation::ablate;
use transformer_block::experiments::heads::head_summaries;
use transformer_block::experiments::latency::{time_attention_share, DepthTimer, DEPTHS, STAGE_SEQ_LENS};
use transformer_block::experiments::race::{race, race_settings};
use transformer_block::experiments::stream::stream_stats;
use transformer_block::nn::weights::{self, StoredDtype};
use transformer_block::nn::{Matrix, NormPlacement, TinyGpt, TrainableGpt};
use transformer_block::numbers::thousands;
use transformer_block::train::corpus::LESSON_PROSE;
use transformer_block::train::optimizer::Schedule;
use transformer_block::train::sample::generate;
use transformer_block::train::sampler::Sampling;
use transformer_block::train::{evaluate, TrainSettings};
use transformer_block::Report;

fn json<T: serde::Serialize>(value: &T) -> Result<String, String> {
    serde_json::to_string_pretty(value).map_err(|e| format!("internal error writing JSON: {e}"))
}

fn usize_of(what: &str, n: u64) -> Result<usize, String> {
    usize::try_from(n).map_err(|_| format!("{what} {n} is too large"))
}

fn rows(m: &Matrix) -> Vec<Vec<f32>> {
    m.row_iter().map(|r| r.iter().copied().collect()).collect()
}

/// eval, ablate or stream: on a Hugging Face checkpoint directory, or on a TinyGPT model.
fn experiment(which: Experiment, run: ExperimentArgs) -> Result<String, String> {
    let ExperimentArgs { weights, text, context, plan, threads, compute } = run;
    if is_checkpoint_dir(&weights) {
        let how = checkpoint::How { context, plan, threads, compute };
        return checkpoint::run(which, &weights, text.as_deref(), how);
    }
    if context.is_some() || plan || threads.is_some() || compute.is_some() {
        return Err(format!(
            "{}: --context, --plan, --threads and --compute are for Hugging Face checkpoint directories (config.json with tokenizer.json); a TinyGPT model reads its own context on one thread, in f32",
            weights.display()
        ));
    }
    let (mut flat, ids) = model_and_text(&weights, text.as_deref())?;
    match which {
        Experiment::Eval => {
            let e = evaluate(&mut flat, &ids).map_err(|e| e.to_string())?;
            json(&serde_json::json!({ "loss": e.loss, "tokens": e.tokens }))
        }
        Experiment::Ablate => json(&ablate(&mut flat, &ids).map_err(|e| e.to_string())?),
        Experiment::Stream => json(&stream_stats(&mut flat, &ids).map_err(|e| e.to_string())?),
    }
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
            train::train(settings, text, &out, dtype)
        }
        Command::Eval { run } => experiment(Experiment::Eval, run),
        Command::Ablate { run } => experiment(Experiment::Ablate, run),
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
        Command::Stream { run } => experiment(Experiment::Stream, run),
        Command::Sample { model, prompt, length, temperature, top_k, top_p, seed } => {
            let (model, vocab) = chosen_model(&model)?;
            let top_k = top_k.map(|k| usize_of("top-k", k)).transpose()?;
            let sampling = Sampling::new(temperature, top_k, top_p, vocab.len()).map_err(|e| e.to_string())?;
            let mut flat = TrainableGpt::from_model(&model, 1).map_err(|e| e.to_string())?;
            let text = generate(&mut flat, &vocab, &prompt, usize_of("length", length)?, &sampling, seed)
                .map_err(|e| e.to_string())?;
            Ok(format!("{prompt}{text}"))
        }
        Command::Inspect { model, text } => {
            if let Some(dir) = model.weights.as_deref().filter(|dir| is_checkpoint_dir(dir)) {
                return inspect::checkpoint(dir, &text);
            }
            let (model, vocab) = chosen_model(&model)?;
            inspect::inspect(&model, &vocab, &text)
        }
        Command::Heads { model, text } => {
            let (model, vocab) = chosen_model(&model)?;
            let ids = text_ids(&vocab, model.context(), text.as_deref())?;
            let mut flat = TrainableGpt::from_model(&model, 16).map_err(|e| e.to_string())?;
            json(&head_summaries(&mut flat, &ids).map_err(|e| e.to_string())?)
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
            // Exactly what the command made (a sampled text may end in a space the reader asked
            // for), then a newline unless it already ends with one. A closed pipe (`tblock count ...
            // | head`) is not an error worth a message.
            let mut stdout = io::stdout().lock();
            let newline = if text.ends_with('\n') { "" } else { "\n" };
            match write!(stdout, "{text}{newline}") {
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
