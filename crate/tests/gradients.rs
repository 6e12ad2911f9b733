//! The hand-written backward pass against finite differences, tensor by tensor, for a small model
//! with non-trivial weights, pre-LN and post-LN, with and without attention biases. A failure names
//! every tensor whose worst relative error is too large, with that error.
//!
//! Also: the flat training model and the matrix TinyGPT give the same logits and convert both ways.
#![cfg(not(target_arch = "wasm32"))]

use transformer_block::nn::init::Rng;
use transformer_block::nn::{GptShape, NormPlacement, TinyGpt, TrainableGpt};

/// A model small enough to difference every element of, with weights far from initialisation: a
/// bug that scales a gain or drops a bias must move the gradient.
fn stretched(norm: NormPlacement, attention_bias: bool, seed: u64) -> TrainableGpt {
    let shape = GptShape {
        vocab_size: 11,
        context: 6,
        d_model: 8,
        n_layers: 2,
        n_heads: 2,
        d_ff: 16,
        attention_bias,
        norm,
        eps: 1e-5,
    };
    TrainableGpt::with_random_weights(shape, 2, seed, 0.25)
}

/// Two sequences of five ids and the ids that follow them.
fn batch(seed: u64) -> (Vec<usize>, Vec<usize>) {
    let mut rng = Rng::new(seed);
    let stream: Vec<usize> = (0..12).map(|_| (rng.next_u64() % 11) as usize).collect();
    let ids = [&stream[0..5], &stream[6..11]].concat();
    let targets = [&stream[1..6], &stream[7..12]].concat();
    (ids, targets)
}

/// The mean loss, the positions' losses summed in f64 (less rounding for the differences to see).
fn loss(m: &mut TrainableGpt, ids: &[usize], targets: &[usize]) -> f64 {
    m.forward(ids, Some(targets), 2, 5).unwrap();
    m.losses().iter().map(|&l| l as f64).sum::<f64>() / 10.0
}

fn check_against_finite_differences(norm: NormPlacement, attention_bias: bool) {
    let mut m = stretched(norm, attention_bias, 3);
    let (ids, targets) = batch(4);
    loss(&mut m, &ids, &targets);
    m.zero_grad();
    m.backward().unwrap();
    let analytic = m.grads.clone();

    // Five-point central differences (error of order h⁴) with h = 3e-2. The loss is f32: its rounding
    // (~2e-7 near 2) costs ~1e-5 in a difference quotient, so the relative error is taken against a
    // floor of 5e-3 (a gradient smaller than that is compared in absolute terms). Measured: the worst
    // tensor's error is about 1e-2; a real mistake (a missing term, scale or sign) gives errors near 1.
    let h = 1e-2f32;
    let mut failures = Vec::new();
    let mut report = Vec::new();
    for t in m.shape.tensors() {
        let mut worst = 0.0f64;
        let mut worst_at = String::new();
        for (i, &a) in analytic.iter().enumerate().skip(t.offset).take(t.len) {
            let keep = m.params[i];
            let mut at = |k: f32| {
                m.params[i] = keep + k * h;
                loss(&mut m, &ids, &targets)
            };
            let numeric = (at(-2.0) - 8.0 * at(-1.0) + 8.0 * at(1.0) - at(2.0)) / (12.0 * h as f64);
            m.params[i] = keep;
            let a = a as f64;
            let relative = (a - numeric).abs() / (a.abs().max(numeric.abs()).max(5e-3));
            if relative > worst {
                worst_at = format!("[{}] analytic {a:.6e} numeric {numeric:.6e}", i - t.offset);
            }
            worst = worst.max(relative);
        }
        report.push(format!("{} {worst:.1e}", t.name));
        if worst > 2e-2 {
            failures.push(format!("{}: worst relative error {worst:.2e} at {worst_at}", t.name));
        }
    }
    assert!(
        failures.is_empty(),
        "{norm:?}-LN, attention bias {attention_bias}: gradients disagree with finite differences:\n  {}",
        failures.join("\n  ")
    );
    eprintln!("{norm:?}-LN, attention bias {attention_bias}: {}", report.join(", "));
}

#[test]
fn pre_ln_gradients_match_finite_differences() {
    check_against_finite_differences(NormPlacement::Pre, false);
}

#[test]
fn post_ln_gradients_match_finite_differences() {
    check_against_finite_differences(NormPlacement::Post, false);
}

#[test]
fn gradients_with_attention_biases_match_finite_differences() {
    check_against_finite_differences(NormPlacement::Pre, true);
    check_against_finite_differences(NormPlacement::Post, true);
}

/// The largest absolute difference between two lists.
fn max_diff(a: &[f32], b: &[f32]) -> f32 {
    assert_eq!(a.len(), b.len());
    a.iter().zip(b).map(|(x, y)| (x - y).abs()).fold(0.0, f32::max)
}

#[test]
fn the_flat_model_and_tiny_gpt_give_the_same_logits_both_norm_placements() {
    for norm in [NormPlacement::Pre, NormPlacement::Post] {
        let flat = stretched(norm, true, 9);
        let model = flat.to_model();
        assert_eq!(GptShape::of(&model).unwrap(), flat.shape);
        let mut again = TrainableGpt::from_model(&model, 2).unwrap();
        assert_eq!(again.params, flat.params, "{norm:?}: from_model(to_model(x)) is x");
        let (ids, _) = batch(1);
        again.forward(&ids, None, 2, 5).unwrap();
        for (b, seq) in ids.chunks(5).enumerate() {
            let expected = model.forward(seq).unwrap(); // [5, 11]
            let expected: Vec<f32> = expected.transpose().as_slice().to_vec(); // row-major
            let got = &again.logits()[b * 55..(b + 1) * 55];
            assert!(max_diff(got, &expected) < 1e-5, "{norm:?}, sequence {b}: {}", max_diff(got, &expected));
        }
    }
}

#[test]
fn the_lessons_tiny_gpt_converts_exactly_and_has_27_328_parameters() {
    let m = TinyGpt::tiny(0);
    let flat = TrainableGpt::from_model(&m, 1).unwrap();
    assert_eq!(flat.params.len(), 27_328);
    assert_eq!(flat.shape.tensors().iter().map(|t| t.len).sum::<usize>(), 27_328);
    assert!(flat.to_model() == m, "to_model(from_model(m)) differs from m");
}

#[test]
fn bad_batches_are_refused_with_what_is_allowed() {
    let mut m = TrainableGpt::from_model(&TinyGpt::tiny(0), 2).unwrap();
    let e = |r: Result<Option<f32>, transformer_block::Error>| r.unwrap_err().to_string();
    assert_eq!(
        e(m.forward(&[1; 17], None, 1, 17)),
        "sequence length 17 is out of range: the model has 16 positions, so give 1 to 16 tokens"
    );
    assert_eq!(e(m.forward(&[1; 12], None, 3, 4)), "batch 3 is out of range: give 1 to 2 sequences at once");
    assert_eq!(e(m.forward(&[1, 2, 50], None, 1, 3)), "token id 50 is out of range: ids run from 0 to 49");
    assert_eq!(
        e(m.forward(&[1, 2], None, 1, 3)),
        "number of token ids 2 is out of range: batch 1 × sequence length 3 needs 3"
    );
    assert_eq!(m.backward().unwrap_err().to_string(), "backward: needs a forward pass with targets first");
}
