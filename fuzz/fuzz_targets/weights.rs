//! The safetensors loader: any bytes as a weights file, as the page's `CharModel.from_weights(bytes)`
//! and `tblock forward --weights` / `eval` / `sample` take them (with the file's own config, or with
//! one given beside it), then what they do with a model that loads: run it, read text with it, put
//! it in flat buffers, write it back. Property: no panic, no hang, no huge allocation from a small
//! file, every error a short message, and a loaded model saves and loads back to the same weights.
#![no_main]

mod common;

use common::checked;
use libfuzzer_sys::fuzz_target;
use transformer_block::config::ModelConfig;
use transformer_block::nn::{weights, TinyGpt, TrainableGpt};
use transformer_block::train::sample::{generate, read};
use transformer_block::train::sampler::Sampling;
use transformer_block::train::Vocabulary;

fuzz_target!(|data: &[u8]| {
    // tblock forward without a config.json beside the file: the config in the file's metadata.
    checked(weights::config_from_metadata(data));
    if let Some(m) = checked(weights::load(data, None)) {
        run(&m);
    }
    // With a config.json beside it (tblock forward --config): the lessons' TinyGPT's.
    let tiny = ModelConfig::preset("tiny-gpt").expect("a preset");
    if let Some(m) = checked(weights::load(data, Some(&tiny))) {
        run(&m);
    }
});

fn run(m: &TinyGpt) {
    let (v, p) = (m.vocab_size(), m.context());
    let ids: Vec<usize> = (0..p.min(16)).map(|i| (i * 7) % v).collect();
    checked(m.forward(&ids));
    checked(m.hidden(&ids));
    // Saved and loaded again, it is the same model.
    if let Some(bytes) = checked(weights::save(m)) {
        let back = weights::load(&bytes, None).expect("a model this crate saved loads back");
        assert!(back.wte == m.wte && back.wpe == m.wpe && back.blocks == m.blocks && back.ln_f == m.ln_f);
    }
    // What the page does with a character model (CharModel: the vocabulary must be the lessons').
    let vocab = Vocabulary::lessons();
    if v != vocab.len() {
        return;
    }
    checked(read(m, &vocab, "The stream carries it.", 5));
    if let Some(mut flat) = checked(TrainableGpt::from_model(m, 1)) {
        let sampling = Sampling::new(0.8, Some(5), Some(0.9), vocab.len()).expect("valid settings");
        checked(generate(&mut flat, &vocab, "the ", 3, &sampling, 1));
        // Every intermediate of one text, as the page's inspector reads it.
        checked(flat.inspect(&vocab, "The stream"));
    }
    // The experiments' flat copy (CharModel.loss, ablation, stream): 16 windows at once.
    checked(TrainableGpt::from_model(m, 16));
}
