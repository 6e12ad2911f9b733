//! `tblock eval | ablate | stream` on a Hugging Face checkpoint directory (config.json,
//! tokenizer.json, model.safetensors or shards): the text tokenised by the model's own tokenizer,
//! cut into windows of --context positions, each experiment run by the checkpoint's forward pass.
//! `--plan` says what a run would cost before it starts; a progress bar on stderr while it runs.

use std::io::{self, IsTerminal};
use std::path::Path;
use std::time::Instant;

use serde_json::json;
use transformer_block::checkpoint::Checkpoint;
use transformer_block::cost::forward_flops_per_token;
use transformer_block::experiments::ablation::ablate;
use transformer_block::experiments::measured::{Measured, MeasuredAblation, MeasuredStream};
use transformer_block::experiments::stream::stream_stats;
use transformer_block::experiments::subject::{evaluate_intact, DecoderRun};
use transformer_block::nn::parallel::{linear_forward_on, Kernel};
use transformer_block::numbers::thousands;
use transformer_block::train::corpus::LESSON_PROSE;
use transformer_block::train::evaluate::windows;

use super::files::read_text;
use super::json as pretty;

/// Which experiment.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Experiment {
    Eval,
    Ablate,
    Stream,
}

impl Experiment {
    /// Forward passes over the text: one, or the intact one and two per block.
    fn passes(self, layers: usize) -> usize {
        match self {
            Experiment::Ablate => 1 + 2 * layers,
            _ => 1,
        }
    }
}

/// Windows done, on a bar when stderr is a terminal, else a line every tenth of a run that has
/// taken more than two seconds so far.
struct Progress {
    bar: Option<indicatif::ProgressBar>,
    total: usize,
    done: usize,
    started: Instant,
}

impl Progress {
    fn new(total: usize) -> Progress {
        let bar = io::stderr().is_terminal().then(|| {
            let bar = indicatif::ProgressBar::new(total as u64);
            let style =
                indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} windows · {per_sec} · {eta} left")
                    .expect("a valid template");
            bar.set_style(style);
            bar
        });
        Progress { bar, total, done: 0, started: Instant::now() }
    }

    fn tick(&mut self) {
        self.done += 1;
        match &self.bar {
            Some(bar) => bar.set_position(self.done as u64),
            None if self.total >= 10
                && self.done % (self.total / 10) == 0
                && self.started.elapsed().as_secs_f64() > 2.0 =>
            {
                let rate = self.done as f64 / self.started.elapsed().as_secs_f64().max(1e-9);
                eprintln!("tblock: {}/{} windows · {rate:.2} windows/s", self.done, self.total);
            }
            None => {}
        }
    }

    fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// This machine's rate for the forward pass's main loop: GFLOP/s of one product of 256 rows with a
/// d x 4d matrix (the linear layers' product, as the blocks run it, on `threads` threads), timed
/// for ~0.2 s.
fn measured_rate(d: usize, threads: usize) -> f64 {
    let (rows, d) = (256, d.clamp(64, 4096));
    let inp: Vec<f32> = (0..rows * d).map(|i| (i % 7) as f32 * 0.1).collect();
    let weight: Vec<f32> = (0..4 * d * d).map(|i| (i % 5) as f32 * 0.01).collect();
    let mut out = vec![0.0f32; rows * 4 * d];
    let kernel = Kernel::from_env();
    let started = Instant::now();
    let mut runs = 0u32;
    while runs < 3 || started.elapsed().as_secs_f64() < 0.2 {
        linear_forward_on(kernel, threads, &mut out, &inp, &weight, None, d, 4 * d);
        runs += 1;
    }
    2.0 * (rows * 4 * d * d) as f64 * runs as f64 / started.elapsed().as_secs_f64() / 1e9
}

/// Run `experiment` on the checkpoint in `dir` over `text` (default: the lesson prose), windows of
/// `context` positions (default: the model's, at most 1,024); or with `plan`, only say what it costs.
pub fn run(
    experiment: Experiment,
    dir: &Path,
    text: Option<&Path>,
    context: Option<u64>,
    plan: bool,
    threads: Option<usize>,
) -> Result<String, String> {
    let at = |e: transformer_block::Error| format!("{}: {e}", dir.display());
    let mut checkpoint = Checkpoint::open(dir).map_err(at)?;
    if let Some(n) = threads {
        checkpoint.decoder.set_threads(n);
    }
    // The pool every parallel stage runs on (the products and attention): as many threads as asked.
    rayon::ThreadPoolBuilder::new().num_threads(checkpoint.decoder.threads()).build_global().ok();
    let context = context.map(|n| usize::try_from(n).unwrap_or(usize::MAX));
    let window = checkpoint.window(context).map_err(|e| e.to_string())?;
    let (body, text_name) = match text {
        Some(path) => (
            read_text(path)?,
            path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned()),
        ),
        None => (LESSON_PROSE.to_string(), "the lesson prose".to_string()),
    };
    let ids = checkpoint.tokenizer.encode(&body).map_err(|e| e.to_string())?;
    let n_windows = windows(&ids, window).count();
    if n_windows == 0 {
        return Err(format!(
            "{text_name}: {} tokens make no window of {} (--context {window} positions and the token each predicts): give a longer text or a smaller --context",
            thousands(ids.len() as u64),
            window + 1
        ));
    }
    let shape = &checkpoint.decoder.shape;
    let measured = Measured {
        by: concat!("tblock ", env!("CARGO_PKG_VERSION")).to_string(),
        model: checkpoint.config.name.clone(),
        family: shape.family.clone(),
        parameters: checkpoint.parameters,
        dtype: checkpoint.dtype.clone(),
        text: text_name,
        context: window,
        windows: n_windows,
        tokens: n_windows * window,
    };
    let passes = experiment.passes(shape.n_layers);
    if plan {
        let per_token = forward_flops_per_token(&checkpoint.config, window as u64).map_err(|e| e.to_string())?.total;
        let flops = per_token * (n_windows * window * passes) as f64;
        let rate = measured_rate(shape.d_model, checkpoint.decoder.threads());
        return pretty(&json!({
            "plan": {
                "windows": n_windows,
                "forward_passes": passes,
                "tokens_per_pass": n_windows * window,
                "flops": flops,
                "measured_gflops_per_second": rate,
                "threads": checkpoint.decoder.threads(),
                "expected_seconds": flops / (rate * 1e9),
                "mapped_bytes": checkpoint.mapped_bytes,
            },
            "measured": measured,
        }));
    }
    let mut progress = Progress::new(n_windows * passes);
    let mut tick = || progress.tick();
    let mut subject = DecoderRun { decoder: &mut checkpoint.decoder, window, tick: &mut tick };
    let out = match experiment {
        Experiment::Eval => {
            let e = evaluate_intact(&mut subject, &ids).map_err(at)?;
            pretty(&json!({ "loss": e.loss, "tokens": e.tokens, "measured": measured }))
        }
        Experiment::Ablate => pretty(&MeasuredAblation { ablation: ablate(&mut subject, &ids).map_err(at)?, measured }),
        Experiment::Stream => {
            pretty(&MeasuredStream { stream: stream_stats(&mut subject, &ids).map_err(at)?, measured })
        }
    };
    progress.finish();
    out
}
