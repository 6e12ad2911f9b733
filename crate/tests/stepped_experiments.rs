//! The experiments a page runs on a real checkpoint a forward pass at a time
//! (experiments::stepped): the ablation and the stream's figures with the bits `tblock ablate` and
//! `tblock stream` give (ablate and stream_stats on a DecoderRun), on the four fixture families,
//! even with an inspection of another text run between every two passes, as a page may; the passes
//! counted as they go; the bad names and texts refused.
#![cfg(not(target_arch = "wasm32"))]

use std::path::PathBuf;

use transformer_block::checkpoint::Checkpoint;
use transformer_block::experiments::ablation::ablate;
use transformer_block::experiments::stepped::{Experiment, Found, Stepped};
use transformer_block::experiments::stream::stream_stats;
use transformer_block::experiments::subject::DecoderRun;

const FAMILIES: [&str; 4] = ["gpt2", "llama", "qwen2", "mistral"];

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/reference/fixtures/checkpoints")
}

/// The fixtures' text and the context their expected.json was measured at.
fn text_and_window(family: &str) -> (String, usize) {
    let text = std::fs::read_to_string(fixtures().join("eval.txt")).unwrap();
    let expected: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(fixtures().join(family).join("expected.json")).unwrap()).unwrap();
    (text, expected["context"].as_u64().unwrap() as usize)
}

/// `what` run a pass at a time, inspecting another text between every two passes when `meddle`.
fn stepped(c: &mut Checkpoint, what: Experiment, ids: &[usize], window: usize, meddle: bool) -> Found {
    let mut s = Stepped::new(what, ids, window, c.decoder.shape.n_layers).unwrap();
    let total = s.total_passes();
    assert_eq!(total, s.windows() * what.passes(c.decoder.shape.n_layers));
    let mut seen = 0;
    while !s.done() {
        assert_eq!(s.passes_done(), seen);
        s.step(&mut c.decoder).unwrap();
        seen += 1;
        if meddle {
            c.decoder.inspect(&ids[3..10], 3).unwrap();
        }
    }
    assert_eq!((seen, s.passes_done()), (total, total), "a step a pass");
    s.found(c.decoder.shape.vocab_size).unwrap()
}

#[test]
fn a_pass_at_a_time_gives_the_bits_of_the_whole_run_even_with_inspections_between() {
    for family in FAMILIES {
        let (text, window) = text_and_window(family);
        let mut c = Checkpoint::open(&fixtures().join(family)).unwrap();
        let ids = c.tokenizer.encode(&text).unwrap();
        let mut tick = || {};
        let (whole_ablation, whole_stream) = {
            let mut run = DecoderRun { decoder: &mut c.decoder, window, tick: &mut tick };
            (ablate(&mut run, &ids).unwrap(), stream_stats(&mut run, &ids).unwrap())
        };
        for meddle in [false, true] {
            assert_eq!(
                stepped(&mut c, Experiment::Ablation, &ids, window, meddle),
                Found::Ablation(whole_ablation.clone()),
                "{family}: the ablation (inspections between: {meddle})"
            );
            assert_eq!(
                stepped(&mut c, Experiment::Stream, &ids, window, meddle),
                Found::Stream(whole_stream.clone()),
                "{family}: the stream (inspections between: {meddle})"
            );
        }
    }
}

#[test]
fn a_text_without_a_window_and_an_unknown_experiment_are_refused() {
    let e = Stepped::new(Experiment::Ablation, &[1, 2, 3], 8, 2).unwrap_err().to_string();
    assert!(e.contains("has 3 symbols; at least one window of 9 is needed"), "{e}");
    let e = Experiment::named("heads").unwrap_err().to_string();
    assert!(e.contains("\"heads\"") && e.contains("\"ablation\" or \"stream\""), "{e}");
    assert_eq!(Experiment::named("stream").unwrap(), Experiment::Stream);
    // Nothing to find before the end.
    let s = Stepped::new(Experiment::Stream, &[1; 20], 8, 2).unwrap();
    assert!(s.found(50).is_none());
}
