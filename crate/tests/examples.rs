//! Every worked example of the lessons, run through the model code, against the lessons' numbers.

use transformer_block::examples::*;

fn round(x: f32, places: i32) -> f32 {
    let s = 10f32.powi(places);
    (x * s).round() / s
}

fn rounded(xs: &[f32], places: i32) -> Vec<f32> {
    xs.iter().map(|&x| round(x, places)).collect()
}

#[test]
fn residual_edits_the_stream_and_never_replaces_it() {
    let (x, attn, ff) = RESIDUAL_DEFAULT;
    let r = residual(&x, &attn, &ff).unwrap();
    assert_eq!(rounded(&r.after_attention, 3), vec![1.1, 1.7]);
    assert_eq!(rounded(&r.after_feed_forward, 3), vec![0.9, 2.1]);
    assert_eq!(r.both_off_largest_change, 0.0, "a block with both sublayers off returns its input unchanged");
}

#[test]
fn layernorm_of_1_2_3_4() {
    let r = layernorm(&LAYERNORM_DEFAULT).unwrap();
    assert_eq!(r.mean, 2.5);
    assert_eq!(r.variance, 1.25);
    assert_eq!(round(r.spread, 3), 1.118);
    assert_eq!(rounded(&r.centred, 3), vec![-1.5, -0.5, 0.5, 1.5]);
    assert_eq!(rounded(&r.output, 3), vec![-1.342, -0.447, 0.447, 1.342]);
    assert_eq!(rounded(&r.scaled_output, 3), rounded(&r.output, 3), "the input times 100 gives the same output");
}

#[test]
fn gelu_and_the_feed_forward_at_width_8() {
    assert_eq!(rounded(&gelu(&GELU_DEFAULT).unwrap(), 3), vec![0.841, 10.0, -0.004, 0.0]);
    let ff = feed_forward(8).unwrap();
    assert_eq!(ff.params, 552);
    assert_eq!((ff.w1_shape, ff.w2_shape), ([8, 32], [32, 8]));
}

#[test]
fn tiny_gpt_on_3_1_4_1_5() {
    let r = tiny_gpt(&IDS_DEFAULT, SEED_DEFAULT).unwrap();
    assert_eq!(r.n_params, 27_328);
    assert_eq!(r.stream_shape, [5, 32]);
    assert_eq!(r.logits_shape, [5, 50]);
    assert_eq!((r.stream.len(), r.logits.len()), (5 * 32, 5 * 50));
    assert_eq!(r.next_token.len(), 5);
    for (t, &best) in r.next_token.iter().enumerate() {
        let row = &r.logits[t * 50..(t + 1) * 50];
        assert!(row.iter().all(|&v| v <= row[best]));
    }
    // Another seed is another model.
    assert_ne!(tiny_gpt(&IDS_DEFAULT, 1).unwrap().logits, r.logits);
}

#[test]
fn tied_output_is_a_dot_product_with_each_row() {
    let (h, table) = TIED_DEFAULT;
    let table: Vec<Vec<f32>> = table.iter().map(|r| r.to_vec()).collect();
    assert_eq!(tied_output(&h, &table).unwrap(), vec![1.0, -1.0, -2.0]);
}

#[test]
fn encoder_and_decoder_masks() {
    let three = masks(3, 2, SEED_DEFAULT).unwrap();
    assert_eq!(three.encoder.pairs, 9);
    assert_eq!(three.decoder.pairs, 6);
    // Changing token 5 (position 4) moves token 1's output (position 0) only in the encoder.
    let five = masks(5, 4, SEED_DEFAULT).unwrap();
    assert!(five.encoder.changed[0]);
    assert!(!five.decoder.changed[0]);
    assert_eq!(five.decoder.largest_change[0], 0.0);
    assert!(five.decoder.changed[4]);
}

#[test]
fn counting_parameters() {
    let r = param_count().unwrap();
    assert_eq!(r.tiny_per_block, 12_576);
    assert_eq!(r.tiny_total, 27_328);
    assert_eq!(r.tiny_total_analytic, 27_328, "the analytic model agrees with the code's own count");
    assert_eq!((r.token_table_shape, r.position_table_shape, r.final_norm), ([50, 32], [16, 32], 64));
    assert_eq!(r.gpt2_small_without_attention_biases, 124_402_944);
    assert_eq!(r.gpt2_small, 124_439_808);
}

#[test]
fn mixture_of_experts_routing_and_sizes() {
    let r = moe_routing(&MOE_SCORES_DEFAULT, 2).unwrap();
    assert_eq!(r.kept, vec![0, 1]);
    assert_eq!(rounded(&r.gates, 3), vec![0.731, 0.269]);
    assert_eq!(r.skipped, vec![2, 3], "experts 2 and 3 never run");
    let s = moe_sizes(16, 8, 2).unwrap();
    assert_eq!((s.one_expert, s.all_held, s.touched_per_token), (2_128, 17_152, 4_384));
    let b = moe_batch(16, 8, 2, 64, SEED_DEFAULT).unwrap();
    assert_eq!(b.tokens_per_expert.iter().sum::<usize>(), 64 * 2);
    assert!(b.balance_loss >= 1.0 - 1e-9, "the loss is at least 1, reached by a perfect balance");
}

#[test]
fn balance_loss_even_and_all_to_one() {
    assert_eq!(balance(&[0.25; 4], &[0.25; 4]).unwrap(), 1.0);
    assert_eq!(balance(&[1.0, 0.0, 0.0, 0.0], &[1.0, 0.0, 0.0, 0.0]).unwrap(), 4.0);
}

#[test]
fn flops_envelope() {
    assert_eq!(flops(7e9, 1.0).unwrap().c_infer, 1.4e10);
    let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * b;
    assert!(close(flops(70e9, 1e12).unwrap().c_train, 4.2e23));
    assert!(close(flops(175e9, 300e9).unwrap().c_train, 3.15e23));
}

#[test]
fn bad_input_gets_a_clear_message() {
    let e = |r: Result<_, transformer_block::Error>| r.map(|_: ()| ()).unwrap_err().to_string();
    assert_eq!(
        e(tiny_gpt(&[3, 50], 0).map(|_| ())),
        "token id 50 is out of range: ids run from 0 to 49 (the vocabulary has 50 tokens); position 1 has 50"
    );
    assert_eq!(e(tiny_gpt(&[], 0).map(|_| ())), "sequence length 0 is out of range: give 1 to 16 token ids");
    assert!(e(tiny_gpt(&[1; 17], 0).map(|_| ())).starts_with("sequence length 17 is out of range"));
    assert_eq!(
        e(moe_routing(&MOE_SCORES_DEFAULT, 5).map(|_| ())),
        "k 5 is out of range: keep between 1 and the 4 experts"
    );
    assert_eq!(
        e(moe_routing(&[], 1).map(|_| ())),
        "the length of the router scores 0 is out of range: give 1 to 64 numbers"
    );
    assert_eq!(
        e(layernorm(&[1.0, f32::NAN]).map(|_| ())),
        "the vector NaN is out of range: every entry must be a finite number"
    );
    assert_eq!(
        e(residual(&[1.0, 2.0], &[0.1], &[0.0, 0.0]).map(|_| ())),
        "the length of attention's output 1 is out of range: it must match x, 2 numbers"
    );
    assert_eq!(e(feed_forward(0).map(|_| ())), "width d 0 is out of range: choose 1 to 256");
    assert_eq!(e(masks(17, 0, 0).map(|_| ())), "number of tokens 17 is out of range: choose 1 to 16");
    assert!(e(balance(&[0.5, 0.5], &[1.0]).map(|_| ())).contains("one fraction and one probability per expert"));
    assert_eq!(e(flops(-1.0, 1.0).map(|_| ())), "parameters -1 is out of range: it must be a positive number");
}
