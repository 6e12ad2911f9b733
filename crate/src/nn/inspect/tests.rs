//! Tests of an inspection: the weights are the softmax of the masked scores, the adds are what the
//! sublayers output, post-LN norms read the stream they should, every tensor is listed once in its
//! shape, and a text too long or empty is refused with what is allowed.

use super::*;
use crate::nn::{GptShape, TinyGpt};

fn tiny() -> TrainableGpt {
    let m = TinyGpt::tiny(0);
    let shape = GptShape::of(&m).unwrap();
    TrainableGpt::with_random_weights(shape, 1, 3, 0.5)
}

#[test]
fn weights_are_the_softmax_of_the_masked_scores_and_every_row_sums_to_one() {
    let mut m = tiny();
    let vocab = Vocabulary::lessons();
    let r = m.inspect(&vocab, "attention mixes").unwrap();
    assert_eq!(r.ids.len(), 15);
    for b in &r.blocks {
        assert_eq!(b.weights.shape, [4, 15, 15]);
        for (i, (w, z)) in b.weights.row_slices().zip(b.scores.row_slices()).enumerate() {
            let t = i % 15;
            assert!(w[t + 1..].iter().all(|&x| x == 0.0), "nothing above the diagonal");
            assert!((w.iter().map(|&x| x as f64).sum::<f64>() - 1.0).abs() < 1e-6);
            let mut expected = z[..=t].to_vec();
            softmax_in_place(&mut expected);
            assert_eq!(&w[..=t], &expected[..], "the same bits as the forward pass");
        }
        for (row, spread) in b.ln_1.normalized_mean.data.iter().zip(&b.ln_1.normalized_spread.data) {
            assert!(row.abs() < 1e-5 && (spread - 1.0).abs() < 1e-3, "{row} {spread}");
        }
    }
    // The stream leaving block 0 is the one entering block 1, and the probabilities sum to 1.
    assert_eq!(r.blocks[0].output, r.blocks[1].input);
    for row in r.probabilities.row_slices() {
        assert!((row.iter().map(|&x| x as f64).sum::<f64>() - 1.0).abs() < 1e-5);
    }
    // The logits are those of the loss's forward pass.
    m.forward(&r.ids, None, 1, 15).unwrap();
    assert_eq!(m.logits(), &r.logits.data[..]);
}

#[test]
fn the_adds_are_what_the_sublayers_output() {
    let mut m = tiny();
    let r = m.inspect(&Vocabulary::lessons(), "the stream").unwrap();
    for b in &r.blocks {
        for ((x, a), y) in b.input.data.iter().zip(&b.attention_output.data).zip(&b.after_attention.data) {
            assert!((x + a - y).abs() < 1e-5);
        }
        for ((y, f), o) in b.after_attention.data.iter().zip(&b.feed_forward_output.data).zip(&b.output.data) {
            assert!((y + f - o).abs() < 1e-5);
        }
    }
}

#[test]
fn post_ln_blocks_say_which_stream_each_norm_reads() {
    let shape = GptShape { norm: NormPlacement::Post, ..GptShape::of(&TinyGpt::tiny(0)).unwrap() };
    let mut m = TrainableGpt::with_random_weights(shape, 1, 4, 0.5);
    let r = m.inspect(&Vocabulary::lessons(), "post norm").unwrap();
    assert_eq!(r.norm, NormPlacement::Post);
    for b in &r.blocks {
        // x + attention(x) is what ln_1 reads; its output is the stream after attention's stage.
        assert_eq!(b.after_attention, b.ln_1.output);
        // Its size before the norm rescales it is the size of x + attention(x), not of ln_1's output.
        for (t, (x, a)) in b.input.row_slices().zip(b.attention_output.row_slices()).enumerate() {
            let sum: Vec<f32> = x.iter().zip(a).map(|(p, q)| p + q).collect();
            assert!((euclidean_norm(&sum) as f32 - b.stream_sizes.after_attention_add.data[t]).abs() < 1e-4);
        }
        // ln_2 reads after_attention + the feed-forward's output, and hands on the block's output.
        assert_eq!(b.output, b.ln_2.output);
        for ((y, f), mean) in
            b.after_attention.row_slices().zip(b.feed_forward_output.row_slices()).zip(&b.ln_2.input_mean.data)
        {
            let m = y.iter().zip(f).map(|(p, q)| (p + q) as f64).sum::<f64>() / y.len() as f64;
            assert!((m as f32 - mean).abs() < 1e-5);
        }
        for row in b.ln_2.normalized_spread.data.iter() {
            assert!((row - 1.0).abs() < 1e-3);
        }
    }
    // The blocks' modes are the model's again afterwards, whatever an experiment had set.
    m.block_modes[1] = BlockMode::Removed;
    assert!(m.inspect(&Vocabulary::lessons(), "ok").is_ok());
    assert_eq!(m.block_modes[1], BlockMode::Removed);
}

#[test]
fn zero_queries_and_keys_attend_uniformly_over_the_past() {
    let mut m = tiny();
    let d = m.shape.d_model;
    for i in 0..m.shape.n_layers {
        let t = m.shape.tensors().into_iter().find(|t| t.name == format!("h.{i}.attn.c_attn.weight")).unwrap();
        // [3d, d]: the first 2d rows make q and k.
        m.params[t.offset..t.offset + 2 * d * d].fill(0.0);
    }
    let r = m.inspect(&Vocabulary::lessons(), "uniform?").unwrap();
    for b in &r.blocks {
        for (i, w) in b.weights.row_slices().enumerate() {
            let t = i % 8;
            for &x in &w[..=t] {
                assert!((x - 1.0 / (t + 1) as f32).abs() < 1e-6);
            }
        }
    }
}

#[test]
fn every_tensor_is_listed_once_and_serialised_in_its_shape() {
    let mut m = tiny();
    let r = m.inspect(&Vocabulary::lessons(), "heads").unwrap();
    let json = serde_json::to_value(&r).unwrap();
    // Every listed tensor is the nested list at its path in the serialised result ...
    let listed = r.tensors();
    for (path, t) in &listed {
        let mut here = &json;
        for key in path.split('.') {
            here = key.parse::<usize>().map_or_else(|_| &here[key], |i| &here[i]);
        }
        let flat: Vec<f32> = flatten(here);
        assert_eq!((&flat, flat.len()), (&t.data, t.shape.iter().product()), "{path}");
    }
    // ... and every list of numbers in the result is listed (but the ids and the unknown positions).
    fn lists(v: &serde_json::Value, at: String, out: &mut Vec<String>) {
        match v {
            serde_json::Value::Array(xs) if xs.first().is_some_and(|x| x.is_number() || x.is_array()) => out.push(at),
            serde_json::Value::Array(xs) => xs.iter().enumerate().for_each(|(i, x)| lists(x, format!("{at}.{i}"), out)),
            serde_json::Value::Object(m) => m.iter().for_each(|(k, x)| lists(x, format!("{at}.{k}"), out)),
            _ => {}
        }
    }
    let mut found = Vec::new();
    lists(&json, String::new(), &mut found);
    let mut found: Vec<String> =
        found.into_iter().map(|p| p[1..].to_string()).filter(|p| p != "ids" && p != "unknown").collect();
    let mut names: Vec<String> = listed.iter().map(|(p, _)| p.clone()).collect();
    found.sort();
    names.sort();
    assert_eq!(found, names);
    // transformers' two: [L][h][T][T] and [L + 1][T][d], the last after ln_f.
    assert_eq!(r.attentions().shape, [2, 4, 5, 5]);
    let h = r.hidden_states();
    assert_eq!(h.shape, [3, 5, 32]);
    assert_eq!(&h.data[..160], &r.embedded.data[..]);
    assert_eq!(&h.data[320..], &r.ln_f.output.data[..]);
}

fn flatten(v: &serde_json::Value) -> Vec<f32> {
    match v {
        serde_json::Value::Array(xs) => xs.iter().flat_map(flatten).collect(),
        x => vec![x.as_f64().unwrap() as f32],
    }
}

#[test]
fn a_long_context_reads_at_most_sixteen_characters() {
    let mut long = TinyGpt::tiny(0).config.clone();
    long.context = 64;
    let m = TinyGpt::new(&long, 0).unwrap();
    let mut flat = TrainableGpt::from_model(&m, 1).unwrap();
    let v = Vocabulary::lessons();
    assert_eq!(flat.inspect(&v, "sixteen letters!").unwrap().longest_text, 16);
    assert_eq!(
        flat.inspect(&v, "seventeen letters").unwrap_err().to_string(),
        "text of 17 characters is out of range: the model reads at most 16 characters at once: shorten it"
    );
}

#[test]
fn bad_texts_say_what_is_allowed_and_unknown_characters_are_named() {
    let mut m = tiny();
    let v = Vocabulary::lessons();
    assert_eq!(
        m.inspect(&v, "").unwrap_err().to_string(),
        "text (empty) is out of range: type at least one character (the model reads at most 16 at once)"
    );
    assert_eq!(
        m.inspect(&v, "abcdefghijklmnopq").unwrap_err().to_string(),
        "text of 17 characters is out of range: the model reads at most 16 characters at once: shorten it"
    );
    let r = m.inspect(&v, "Ä b\u{FFFD}").unwrap();
    assert_eq!((r.unknown, r.text.as_str()), (vec![0], "\u{FFFD} b\u{FFFD}"));
    let r = m.inspect(&v, "A\r\n").unwrap();
    assert_eq!(r.symbols, ["a", "\n"]);
}
