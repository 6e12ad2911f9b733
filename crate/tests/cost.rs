//! FLOPs per token, the attention share, and training cost, against the lessons' figures.

use transformer_block::config::ModelConfig;
use transformer_block::cost::{
    attention_share, c_infer, c_train, forward_flops_per_token, training_flops_per_token, training_run, A100_BF16_PEAK,
    NANOGPT_ITERATIONS, NANOGPT_TOKENS_PER_ITERATION,
};

fn preset(name: &str) -> ModelConfig {
    ModelConfig::preset(name).unwrap()
}

/// Round to `digits` significant figures, as the lessons quote.
fn sig(x: f64, digits: i32) -> f64 {
    let scale = 10f64.powi(digits - 1 - x.abs().log10().floor() as i32);
    (x * scale).round() / scale
}

/// Equal up to floating-point rounding.
fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-12 * b.abs().max(a.abs())
}

#[test]
fn gpt2_small_forward_flops_at_1024_and_8() {
    let f = forward_flops_per_token(&preset("gpt2-small"), 1024).unwrap();
    // N is every parameter but the position table: the tied token table counts once, as the output.
    assert_eq!(f.matmul_params, 124_439_808 - 786_432);
    assert_eq!(f.parameter_flops, 247_306_752.0); // 247.3M
    assert_eq!(f.attention_flops, 37_748_736.0); // 37.7M
    assert!(close(sig(f.total, 4), 285.1e6), "{}", f.total);
    assert_eq!((f.total / 1e5).floor() / 10.0, 285.0); // 285.0M, as the lesson writes it
    let split: f64 = f.by_part.iter().map(|p| p.flops).sum();
    assert_eq!(split, f.total);
    assert_eq!(f.by_part.iter().find(|p| p.key == "attention_scores").unwrap().flops, f.attention_flops);
    assert_eq!(f.by_part.iter().find(|p| p.key == "output_head").unwrap().flops, 2.0 * 38_597_376.0);

    let at8 = forward_flops_per_token(&preset("gpt2-small"), 8).unwrap();
    assert!(close(sig(at8.total, 2), 0.25e9), "{}", at8.total);
    assert_eq!(at8.parameter_flops, f.parameter_flops, "the parameter term does not depend on T");
}

#[test]
fn untied_models_leave_the_input_table_out_of_n() {
    let f = forward_flops_per_token(&preset("llama3-8b"), 8).unwrap();
    assert_eq!(f.matmul_params, 8_030_261_248 - 525_336_576);
    // A mixture of experts counts the parameters a token touches.
    let m = forward_flops_per_token(&preset("mixtral-8x7b"), 8).unwrap();
    assert_eq!(m.matmul_params, 12_879_925_248 - 131_072_000);
}

#[test]
fn training_is_three_forwards() {
    let g = preset("gpt2-small");
    let f = forward_flops_per_token(&g, 1024).unwrap();
    let t = training_flops_per_token(&g, 1024).unwrap();
    assert_eq!(t, 6.0 * f.matmul_params as f64 + 12.0 * 12.0 * 1024.0 * 768.0);
}

#[test]
fn attention_share_of_one_gpt2_block() {
    let s = attention_share(&preset("gpt2-small"), 1024).unwrap();
    assert_eq!(s.linear_flops, 24.0 * 768.0 * 768.0);
    assert_eq!((100.0 * s.share).round(), 18.0);
    assert_eq!(s.crossover_seq_len, 4608.0); // 6d
    assert!(!s.crossover_within_context, "4,608 is past GPT-2's 1,024 positions");
    let at_crossover = 4.0 * 768.0 * s.crossover_seq_len;
    assert_eq!(at_crossover, s.linear_flops);
}

#[test]
fn envelope_formulas() {
    assert_eq!(c_infer(7e9), 1.4e10);
    assert!(close(sig(c_train(70e9, 1e12), 2), 4.2e23), "{}", c_train(70e9, 1e12));
    assert!(close(sig(c_train(175e9, 300e9), 3), 3.15e23), "{}", c_train(175e9, 300e9));
}

#[test]
fn nanogpt_gpt2_run() {
    let tokens = NANOGPT_TOKENS_PER_ITERATION * NANOGPT_ITERATIONS;
    assert!(close(sig(tokens, 3), 2.95e11), "{}", tokens);
    let n = forward_flops_per_token(&preset("gpt2-small"), 1024).unwrap().matmul_params as f64;
    let run = training_run(n, tokens, A100_BF16_PEAK, 1.0).unwrap();
    assert!(close(sig(run.flops, 2), 2.2e20), "{}", run.flops);
    assert_eq!(run.hours.round(), 195.0);
    // At a quarter of peak the same run takes four times as long.
    assert_eq!(training_run(n, tokens, A100_BF16_PEAK, 0.25).unwrap().hours, 4.0 * run.hours);
}

#[test]
fn training_run_refuses_nonsense() {
    let e = training_run(1e9, 1e9, 312e12, 1.5).unwrap_err().to_string();
    assert_eq!(e, "utilisation 1.5 is out of range: it is a fraction of peak, above 0 and at most 1");
    let e = training_run(-1.0, 1e9, 312e12, 0.5).unwrap_err().to_string();
    assert_eq!(e, "parameters -1 is out of range: it must be a positive number");
    assert!(training_run(1e9, f64::NAN, 312e12, 0.5).is_err());
    assert!(forward_flops_per_token(&preset("gpt2-small"), 2048).is_err());
}

#[test]
fn cost_curve_spans_the_context_on_a_log_scale() {
    use transformer_block::cost::cost_curve;
    let c = cost_curve(&preset("gpt2-small"), 64).unwrap();
    assert_eq!(c.points.first().unwrap().seq_len, 1);
    assert_eq!(c.points.last().unwrap().seq_len, 1024);
    assert!(c.points.windows(2).all(|w| w[0].seq_len < w[1].seq_len));
    let at_1024 = c.points.last().unwrap();
    assert_eq!(at_1024.total, 285_055_488.0);
    assert_eq!((100.0 * at_1024.attention_share).round(), 18.0);
    assert!(c.points.iter().all(|p| p.parameter_flops == 247_306_752.0), "the parameter term is flat");
    assert_eq!(c.crossover_seq_len, 4608.0);
    assert!(!c.crossover_within_context);
    assert_eq!(
        cost_curve(&preset("gpt2-small"), 1).unwrap_err().to_string(),
        "points 1 is out of range: choose 2 to 512"
    );
}

#[test]
fn products_past_what_a_double_holds_are_refused_and_huge_inputs_are_echoed_short() {
    use transformer_block::cost::training_run;
    let err = training_run(1e300, 1e300, 312e12, 0.4).unwrap_err().to_string();
    assert!(err.starts_with("6·N·D: N × D is too large to compute"), "{err}");
    let err = transformer_block::examples::flops(1e300, 1e300).unwrap_err().to_string();
    assert!(err.starts_with("6·N·D: N × D is too large to compute"), "{err}");
    // Valid and enormous: computed (the page shows it in scientific notation).
    assert!(training_run(1e200, 1e10, 312e12, 0.4).unwrap().hours.is_finite());
    // A negative huge value is echoed as 1e300, not 301 digits.
    let err = training_run(-1e300, 1e10, 312e12, 0.4).unwrap_err().to_string();
    assert_eq!(err, "parameters -1e300 is out of range: it must be a positive number");
    // A 10,000-character model name is cut to 40 characters in the message.
    let name = "x".repeat(10_000);
    let err = transformer_block::ModelConfig::preset(&name).unwrap_err().to_string();
    assert!(err.len() < 400 && err.contains(&format!("\"{}…\"", "x".repeat(39))), "{}", &err[..80]);
}
