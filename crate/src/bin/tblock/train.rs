//! `tblock train`: the loop with a progress bar (indicatif on a terminal, plain lines otherwise),
//! then the model directory and a JSON summary.

use std::io::{self, IsTerminal};
use std::path::{Path, PathBuf};
use std::time::Instant;

use transformer_block::nn::weights::{self, StoredDtype};
use transformer_block::train::corpus::LESSON_PROSE;
use transformer_block::train::settings::CONTEXT;
use transformer_block::train::{TrainSettings, Trainer};

use super::files::read_text;
use super::json;

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
            None if step.is_multiple_of((self.steps / 10).max(1)) || step == self.steps => {
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

pub fn train(settings: TrainSettings, text: Option<PathBuf>, out: &Path, dtype: StoredDtype) -> Result<String, String> {
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
