//! The training loop: draw a batch, run forward to the loss, back to every gradient, clip, step
//! AdamW at the scheduled learning rate; again. One [`Trainer`] is one run, advanced a step at a time
//! so a caller (the command line's progress bar, the page's worker) can report, pause or stop
//! between steps. Same settings and seed on the same platform give the same weights bit for bit:
//! everything is seeded and single-threaded.
//!
//! A loss or gradient that stops being finite stops the run: the message names the step, and the
//! weights go back to those of the last step whose loss was finite.

use serde::Serialize;

use super::baselines::{reference_losses, ReferenceLosses};
use super::corpus::{sample_batch, Corpus};
use super::evaluate::{evaluate, Evaluation};
use super::optimizer::{clip_grad_norm, learning_rate, AdamW};
use super::settings::{TrainSettings, CONTEXT};
use crate::config::ModelConfig;
use crate::error::{Error, Result};
use crate::nn::init::Rng;
use crate::nn::vocabulary::Vocabulary;
use crate::nn::{TinyGpt, TrainableGpt};

/// What one step did.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct StepReport {
    /// Steps done, this one included (1 after the first).
    pub step: usize,
    /// The mean loss of this step's batch, before the update.
    pub loss: f32,
    pub learning_rate: f32,
    /// The gradient's global norm before clipping.
    pub grad_norm: f32,
}

/// One training run.
#[derive(Debug, Clone)]
pub struct Trainer {
    pub settings: TrainSettings,
    pub vocab: Vocabulary,
    pub corpus: Corpus,
    /// Uniform, unigram and bigram losses on the held-out text.
    pub reference: ReferenceLosses,
    model: TrainableGpt,
    optimizer: AdamW,
    batches: Rng,
    steps_done: usize,
    ids: Vec<usize>,
    targets: Vec<usize>,
    last_good: Vec<f32>,
    stopped: Option<Error>,
}

/// The model a run starts from: GPT-2's initialisation from the seed, in the settings' shape.
pub fn initial_model(s: &TrainSettings, vocab_size: usize) -> Result<TinyGpt> {
    let config: ModelConfig = s.shape(vocab_size).model_config();
    config.validate()?;
    let mut model = TinyGpt::new(&config, s.seed)?;
    for block in &mut model.blocks {
        block.switches.norm = s.norm;
    }
    Ok(model)
}

impl Trainer {
    /// A run of `settings` on `text` (its last 10% held out), from freshly initialised weights.
    pub fn new(settings: TrainSettings, text: &str) -> Result<Trainer> {
        settings.validate()?;
        let vocab = Vocabulary::lessons();
        let corpus = Corpus::new(&vocab, text, CONTEXT)?;
        let model = TrainableGpt::from_model(&initial_model(&settings, vocab.len())?, settings.batch)?;
        Ok(Self::from_parts(settings, vocab, corpus, model))
    }

    /// A run of `settings` on `text` that starts from `model` (whose shape and norm placement take
    /// the place of the settings' layers, width, heads and norm).
    pub fn from_model(settings: TrainSettings, model: &TinyGpt, text: &str) -> Result<Trainer> {
        let flat = TrainableGpt::from_model(model, settings.batch)?;
        let shape = flat.shape;
        if shape.context != CONTEXT {
            return Err(Error::field(
                "n_positions",
                format!("the model has {} positions; training uses windows of {CONTEXT}", shape.context),
            ));
        }
        let settings = TrainSettings {
            layers: shape.n_layers,
            width: shape.d_model,
            heads: shape.n_heads,
            norm: shape.norm,
            ..settings
        };
        settings.validate()?;
        let vocab = Vocabulary::lessons();
        if shape.vocab_size != vocab.len() {
            return Err(Error::field(
                "vocab_size",
                format!("the model has {} tokens; the character vocabulary has {}", shape.vocab_size, vocab.len()),
            ));
        }
        let corpus = Corpus::new(&vocab, text, CONTEXT)?;
        Ok(Self::from_parts(settings, vocab, corpus, flat))
    }

    fn from_parts(settings: TrainSettings, vocab: Vocabulary, corpus: Corpus, model: TrainableGpt) -> Trainer {
        let reference = reference_losses(&corpus.train, &corpus.held_out, vocab.len(), CONTEXT);
        let decays =
            model.shape.tensors().into_iter().filter(|t| t.is_matrix()).map(|t| t.offset..t.offset + t.len).collect();
        let n = settings.batch * CONTEXT;
        Trainer {
            optimizer: AdamW::new(model.params.len(), decays, settings.weight_decay as f32),
            // Batches come from a second generator (seeded with the seed's bitwise complement), so the
            // data order does not depend on how many numbers the initialisation drew.
            batches: Rng::new(!settings.seed),
            steps_done: 0,
            ids: vec![0; n],
            targets: vec![0; n],
            last_good: model.params.clone(),
            stopped: None,
            settings,
            vocab,
            corpus,
            reference,
            model,
        }
    }

    pub fn steps_done(&self) -> usize {
        self.steps_done
    }

    pub fn is_done(&self) -> bool {
        self.steps_done >= self.settings.steps || self.stopped.is_some()
    }

    /// Why the run stopped early, if it did.
    pub fn stopped(&self) -> Option<&Error> {
        self.stopped.as_ref()
    }

    /// The model as it is now, as a running TinyGPT.
    pub fn model(&self) -> TinyGpt {
        self.model.to_model()
    }

    /// The flat model (for sampling and evaluation without a copy).
    pub fn trainable(&mut self) -> &mut TrainableGpt {
        &mut self.model
    }

    /// One step. After the last step, or after the run stopped, it returns an error saying so.
    pub fn step(&mut self) -> Result<StepReport> {
        if let Some(e) = &self.stopped {
            return Err(e.clone());
        }
        if self.steps_done >= self.settings.steps {
            return Err(Error::field(
                "steps",
                format!("the run is complete: all {} steps are done", self.settings.steps),
            ));
        }
        sample_batch(&mut self.batches, &self.corpus.train, &mut self.ids, &mut self.targets, CONTEXT);
        self.step_from_batch()
    }

    /// One step on a given batch: B windows of ids ([B, 16], row-major) and the ids that follow them.
    pub fn step_on(&mut self, ids: &[usize], targets: &[usize]) -> Result<StepReport> {
        if let Some(e) = &self.stopped {
            return Err(e.clone());
        }
        let n = self.settings.batch * CONTEXT;
        if ids.len() != n || targets.len() != n {
            return Err(Error::out_of_range(
                "batch length",
                ids.len(),
                format!("give {} windows of {CONTEXT}: {n} ids and {n} targets", self.settings.batch),
            ));
        }
        self.ids.copy_from_slice(ids);
        self.targets.copy_from_slice(targets);
        self.step_from_batch()
    }

    /// The step itself, on the batch in `ids` and `targets`.
    fn step_from_batch(&mut self) -> Result<StepReport> {
        let s = self.settings;
        let step = self.steps_done + 1;
        let loss = self.model.forward(&self.ids, Some(&self.targets), s.batch, CONTEXT)?.unwrap_or(f32::NAN);
        if !loss.is_finite() {
            return Err(self.stop(step, format!("the loss became {loss}")));
        }
        self.last_good.copy_from_slice(&self.model.params);
        self.model.zero_grad();
        self.model.backward()?;
        let grad_norm = clip_grad_norm(&mut self.model.grads, s.grad_clip as f32);
        if !grad_norm.is_finite() {
            return Err(self.stop(step, format!("the gradient's norm became {grad_norm}")));
        }
        let lr = learning_rate(self.steps_done, s.steps, s.warmup, s.learning_rate as f32, s.schedule);
        self.optimizer.step(&mut self.model.params, &self.model.grads, lr);
        self.steps_done = step;
        Ok(StepReport { step, loss, learning_rate: lr, grad_norm })
    }

    /// Stop at `step`, going back to the last weights whose loss was finite.
    fn stop(&mut self, step: usize, what: String) -> Error {
        self.model.params.copy_from_slice(&self.last_good);
        let kept = if step > 1 {
            format!("the weights of step {} (the last with a finite loss) are kept", step - 1)
        } else {
            "the initial weights are kept".to_string()
        };
        let e = Error::field(
            "training",
            format!("{what} at step {step}, so the run stopped; {kept}. Try a smaller learning rate or a warmup"),
        );
        self.stopped = Some(e.clone());
        e
    }

    /// The loss on the held-out text, by the evaluation protocol.
    pub fn held_out_loss(&mut self) -> Result<Evaluation> {
        evaluate(&mut self.model, &self.corpus.held_out)
    }

    /// The loss on the training text, by the same protocol.
    pub fn train_loss(&mut self) -> Result<Evaluation> {
        evaluate(&mut self.model, &self.corpus.train)
    }

    /// Make the model's weights NaN (for tests of the stop).
    #[doc(hidden)]
    pub fn poison_for_test(&mut self, index: usize) {
        self.model.params[index] = f32::NAN;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::corpus::LESSON_PROSE;

    fn short(steps: usize) -> TrainSettings {
        TrainSettings { steps, ..TrainSettings::default() }
    }

    #[test]
    fn same_seed_same_weights_bit_for_bit_other_seed_other_weights() {
        let run = |seed| {
            let mut t = Trainer::new(TrainSettings { seed, ..short(3) }, LESSON_PROSE).unwrap();
            while !t.is_done() {
                t.step().unwrap();
            }
            t.model.params.clone()
        };
        assert_eq!(run(5), run(5));
        assert_ne!(run(5), run(6));
    }

    #[test]
    fn a_loss_that_is_not_finite_stops_the_run_and_keeps_the_last_good_weights() {
        let mut t = Trainer::new(short(10), LESSON_PROSE).unwrap();
        t.step().unwrap();
        t.step().unwrap();
        let good = t.model.params.clone();
        t.poison_for_test(0); // the token table's first number: every batch with id 0 ("\n") sees it
        let mut err = None;
        for _ in 0..8 {
            if let Err(e) = t.step() {
                err = Some(e.to_string());
                break;
            }
        }
        let err = err.expect("a NaN weight makes some loss NaN");
        assert!(err.starts_with("training: the loss became NaN at step "), "{err}");
        assert!(
            err.ends_with("(the last with a finite loss) are kept. Try a smaller learning rate or a warmup"),
            "{err}"
        );
        assert!(t.model.params.iter().all(|p| p.is_finite()));
        assert!(t.is_done());
        assert_eq!(t.step().unwrap_err().to_string(), err);
        let _ = good;
    }

    #[test]
    fn a_finished_run_says_so() {
        let mut t = Trainer::new(short(1), LESSON_PROSE).unwrap();
        t.step().unwrap();
        assert_eq!(t.step().unwrap_err().to_string(), "steps: the run is complete: all 1 steps are done");
    }
}
