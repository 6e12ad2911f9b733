//! Training actually learns: from the default seed and settings, on the lesson prose, the held-out
//! loss after the default number of steps is below the bigram loss of the same text.
#![cfg(not(target_arch = "wasm32"))]

use transformer_block::train::corpus::LESSON_PROSE;
use transformer_block::train::{TrainSettings, Trainer};

#[test]
fn the_default_run_ends_below_the_bigram_line() {
    let mut t = Trainer::new(TrainSettings::default(), LESSON_PROSE).unwrap();
    let start = t.held_out_loss().unwrap().loss;
    let clock = std::time::Instant::now();
    while !t.is_done() {
        t.step().unwrap();
    }
    let seconds = clock.elapsed().as_secs_f64();
    let end = t.held_out_loss().unwrap();
    let r = t.reference;
    eprintln!(
        "held-out loss {start:.3} -> {:.3} over {} tokens in {seconds:.2} s; uniform {:.3}, unigram {:.3}, bigram {:.3}",
        end.loss, end.tokens, r.uniform, r.unigram, r.bigram
    );
    assert!((r.uniform - 50f64.ln()).abs() < 1e-12);
    assert!(r.bigram < r.unigram && r.unigram < r.uniform, "{r:?}");
    assert!((start - r.uniform).abs() < 0.05, "an untrained model is close to uniform: {start}");
    assert!(
        end.loss < r.bigram,
        "after {} steps the held-out loss is {:.4}, not below the bigram's {:.4}",
        t.steps_done(),
        end.loss,
        r.bigram
    );
}
