//! The config.json import: any text as `tblock count path/to/config.json` and the page's
//! `count(model, seq_len, batch)` / `cost_curve(model, points)` take it (a preset key or the text
//! of a Hugging Face config.json), then everything the page computes from an accepted config; and
//! the same text as the vocab.json that `tblock` reads beside a trained model.
//! Property: no panic, no hang, every error a short message.
#![no_main]

mod common;

use common::checked;
use libfuzzer_sys::fuzz_target;
use transformer_block::config::ModelConfig;
use transformer_block::cost::cost_curve;
use transformer_block::nn::{weights, TinyGpt};
use transformer_block::train::Vocabulary;
use transformer_block::Report;

fuzz_target!(|data: &[u8]| {
    // tblock reads the file as UTF-8 (read_to_string); the page passes a JavaScript string.
    let Ok(text) = std::str::from_utf8(data) else { return };
    // The vocab.json beside a trained model (tblock eval, sample, ablate and stream read it).
    checked(Vocabulary::from_json(text));
    // The CLI's path: the text of a config.json.
    let direct = checked(ModelConfig::from_hf_config_json(text));
    // The page's: a preset key or the text of a config.json.
    let Some(config) = checked(ModelConfig::from_preset_or_json(text)) else { return };
    if text.trim_start().starts_with('{') {
        assert_eq!(direct.as_ref(), Some(&config), "the page and the CLI read the same config.json alike");
    }
    // The sliders' ends and past them: T from 0 to past the context, B from 0 to past the limit.
    let c = config.context;
    for (seq_len, batch) in [(1, 1), (c, 1), (c.saturating_add(1), 1), (0, 0), (8, u64::MAX), (c / 2 + 1, 64)] {
        checked(Report::new(&config, seq_len, batch));
    }
    for points in [0, 2, 64, 513] {
        checked(cost_curve(&config, points));
    }
    // The running model's check, and the config.json a weights file would carry for it.
    if checked(TinyGpt::check_config(&config)).is_some() {
        let again = ModelConfig::from_hf_config_json(&weights::hf_config_json(&config));
        assert!(again.is_ok(), "a runnable config writes a config.json that reads back: {again:?}");
    }
});
