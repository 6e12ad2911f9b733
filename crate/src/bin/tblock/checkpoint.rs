//! `tblock eval | ablate | stream` on a Hugging Face checkpoint directory (config.json,
//! tokenizer.json, model.safetensors or shards): the text tokenised by the model's own tokenizer,
//! cut into windows of --context positions, each experiment run by the checkpoint's forward pass.
//! `--plan` says what a run would cost before it starts; a progress bar on stderr while it runs.

use std::io::{self, IsTerminal};
use std::path::Path;
use std::time::Instant;

use serde_json::json;
use tb_kernels::product::{bf16_bits, BfRows, Isa, Stored, StoredMatrix};
use transformer_block::checkpoint::Checkpoint;
use transformer_block::cost::forward_flops_per_token;
use transformer_block::experiments::ablation::ablate;
use transformer_block::experiments::measured::{Measured, MeasuredAblation, MeasuredStream};
use transformer_block::experiments::stream::stream_stats;
use transformer_block::experiments::subject::{evaluate_intact, DecoderRun};
use transformer_block::nn::parallel::{linear_forward_on, product_on, Compute, Kernel};
use transformer_block::train::corpus::LESSON_PROSE;
use transformer_block::train::evaluate::{no_window, windows};

use super::args::ComputeArg;
use super::files::read_text;
use super::json as pretty;
use super::memory::Budget;

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
            let style = indicatif::ProgressStyle::with_template(
                "{bar:30} {pos}/{len} passes of a window · {per_sec} · {eta} left",
            )
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
                && self.done.is_multiple_of(self.total / 10)
                && self.started.elapsed().as_secs_f64() > 2.0 =>
            {
                let rate = self.done as f64 / self.started.elapsed().as_secs_f64().max(1e-9);
                eprintln!("tblock: {}/{} passes of a window · {rate:.2} a second", self.done, self.total);
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
/// d x 4d matrix (the linear layers' product as the blocks run it: on `threads` threads, in
/// `compute` on `isa`), timed for ~0.2 s.
fn measured_rate(d: usize, threads: usize, (compute, isa): (Compute, Isa)) -> f64 {
    let (rows, d) = (256, d.clamp(64, 4096));
    let inp: Vec<f32> = (0..rows * d).map(|i| (i % 7) as f32 * 0.1).collect();
    let weight: Vec<f32> = (0..4 * d * d).map(|i| (i % 5) as f32 * 0.01).collect();
    let stored: Vec<u8> = weight.iter().flat_map(|&w| bf16_bits(w).to_le_bytes()).collect();
    let matrix = StoredMatrix::rows(Stored::Bf16(&stored), 4 * d, d);
    let mut rounded = BfRows::default();
    let mut out = vec![0.0f32; rows * 4 * d];
    let kernel = Kernel::from_env();
    let started = Instant::now();
    let mut runs = 0u32;
    while runs < 3 || started.elapsed().as_secs_f64() < 0.2 {
        match compute {
            Compute::F32 => linear_forward_on(kernel, threads, &mut out, &inp, &weight, None, d, 4 * d),
            Compute::Bf16 => {
                rounded.round(&inp, rows, d);
                product_on(isa, threads, &mut out, &rounded, &matrix, None);
            }
        }
        runs += 1;
    }
    2.0 * (rows * 4 * d * d) as f64 * runs as f64 / started.elapsed().as_secs_f64() / 1e9
}

/// How a checkpoint's experiment runs: windows of `context` positions (default: the model's, at most
/// 1,024), or with `plan` only what it would cost; on `threads` threads, multiplying in `compute`.
pub struct How {
    pub context: Option<u64>,
    pub plan: bool,
    pub threads: Option<usize>,
    pub compute: Option<ComputeArg>,
}

/// Run `experiment` on the checkpoint in `dir` over `text` (default: the lesson prose), as `how` says.
pub fn run(experiment: Experiment, dir: &Path, text: Option<&Path>, how: How) -> Result<String, String> {
    let How { context, plan, threads, compute } = how;
    let at = |e: transformer_block::Error| format!("{}: {e}", dir.display());
    let mut checkpoint = Checkpoint::open(dir).map_err(at)?;
    if let Some(n) = threads {
        checkpoint.decoder.set_threads(n);
    }
    let choice = match compute.unwrap_or(ComputeArg::Auto) {
        ComputeArg::Auto => Compute::auto(&checkpoint.dtype, checkpoint.decoder.compute().1),
        ComputeArg::F32 => Compute::asked(Compute::F32),
        ComputeArg::Bf16 => Compute::asked(Compute::Bf16),
    };
    checkpoint.decoder.set_compute(choice.compute);
    // The pool every parallel stage runs on (the products and attention): as many threads as asked.
    rayon::ThreadPoolBuilder::new().num_threads(checkpoint.decoder.threads()).build_global().ok();
    let context = context.map(|n| usize::try_from(n).unwrap_or(usize::MAX));
    let window = checkpoint.window(context, "--context").map_err(|e| e.to_string())?;
    // Before a weight is read: the run's peak against what the machine has.
    let footprint = checkpoint.decoder.footprint(window, experiment == Experiment::Ablate);
    let budget = Budget::of(checkpoint.mapped_bytes, footprint);
    if !plan {
        let in_place = footprint.block_copy == 0;
        budget.check(window, in_place).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
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
        return Err(format!("{text_name}: {}", no_window(ids.len(), window, "--context")));
    }
    let shape = &checkpoint.decoder.shape;
    let measured = Measured {
        by: concat!("tblock ", env!("CARGO_PKG_VERSION")).to_string(),
        model: checkpoint.config.name.clone(),
        family: shape.family.clone(),
        parameters: checkpoint.parameters,
        dtype: checkpoint.dtype.clone(),
        compute: {
            let (compute, isa) = checkpoint.decoder.compute();
            compute.named(isa)
        },
        compute_reason: choice.reason,
        text: text_name,
        context: window,
        windows: n_windows,
        tokens: n_windows * window,
    };
    let passes = experiment.passes(shape.n_layers);
    if plan {
        let forward = forward_flops_per_token(&checkpoint.config, window as u64).map_err(|e| e.to_string())?;
        let head = forward.by_part.iter().filter(|p| p.key == "output_head").map(|p| p.flops).sum::<f64>();
        // Every pass runs the head; the blocks of an ablation run L + L² times, not L(1 + 2L): the
        // passes that change block k start from the stream the intact pass carried into it.
        let (l, blocks) = (shape.n_layers as f64, forward.total - head);
        let per_token = match experiment {
            Experiment::Ablate => blocks * (1.0 + l) + head * passes as f64,
            _ => forward.total,
        };
        let flops = per_token * (n_windows * window) as f64;
        let rate = measured_rate(shape.d_model, checkpoint.decoder.threads(), checkpoint.decoder.compute());
        return pretty(&json!({
            "plan": {
                "windows": n_windows,
                "forward_passes": passes,
                "blocks_run_per_window": match experiment {
                    Experiment::Ablate => shape.n_layers * (shape.n_layers + 1),
                    _ => shape.n_layers,
                },
                "tokens_per_pass": n_windows * window,
                "flops": flops,
                "measured_gflops_per_second": rate,
                "threads": checkpoint.decoder.threads(),
                "compute": measured.compute,
                "expected_seconds": flops / (rate * 1e9),
                "mapped_bytes": checkpoint.mapped_bytes,
                "memory": budget,
                "fits": budget.fits(),
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
