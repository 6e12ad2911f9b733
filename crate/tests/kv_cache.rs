//! The key/value cache against a whole forward: for each fixture family (GPT-2's learned positions,
//! Llama's llama3-scaled rotary, Qwen2's biases and tied head, Mistral's sliding window of 16),
//! the next-token logits read a token at a time through the cache agree with next_logits on the
//! whole text within 1e-5, in f32 and in bf16; a text that changes partway reuses only the start it
//! shares; blocks removed or overwritten, or a bad id, start the cache again. A continuation drawn
//! through it draws the tokens whole forwards draw, and past the context cuts and says where.
#![cfg(not(target_arch = "wasm32"))]

use std::path::PathBuf;

use transformer_block::checkpoint::Checkpoint;
use transformer_block::experiments::continuation::Continuation;
use transformer_block::nn::compute::Compute;
use transformer_block::nn::decoder::KvCache;
use transformer_block::nn::init::Rng;
use transformer_block::nn::BlockMode;
use transformer_block::train::sampler::Sampling;

const FAMILIES: [&str; 4] = ["gpt2", "llama", "qwen2", "mistral"];
const TOLERANCE: f32 = 1e-5;
/// In bf16 a layer's input is rounded to 8 bits of mantissa: an attention sum taken in another order
/// (natively the whole forward's is blocked, two matrix products) can round a number of it the other
/// way, one bf16 step (2⁻⁸ of it) apart, and the logits move by up to 6e-3 on these fixtures, where
/// bf16 itself moves them by up to 2.6e-2 from f32's. So in bf16 the cached logits are held as far
/// from f32's as the whole bf16 forward's are (a quarter more), plus this.
const BF16_TOLERANCE: f32 = 1e-3;

fn open(family: &str) -> Checkpoint {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/reference/fixtures/checkpoints").join(family);
    Checkpoint::open(&dir).unwrap()
}

/// The fixture text's first `n` ids.
fn ids(c: &Checkpoint, n: usize) -> Vec<usize> {
    let text = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/reference/fixtures/checkpoints/eval.txt"),
    )
    .unwrap();
    let ids = c.tokenizer.encode(&text).unwrap();
    assert!(ids.len() >= n, "the fixture text has {} ids", ids.len());
    ids[..n].to_vec()
}

fn largest_difference(a: &[f32], b: &[f32]) -> f32 {
    assert_eq!(a.len(), b.len());
    a.iter().zip(b).map(|(x, y)| (x - y).abs()).fold(0.0, f32::max)
}

#[test]
fn a_token_at_a_time_through_the_cache_gives_the_whole_forward_s_logits() {
    for family in FAMILIES {
        for compute in [Compute::F32, Compute::Bf16] {
            let mut c = open(family);
            c.decoder.set_compute(compute);
            let context = c.decoder.shape.context;
            let all = ids(&c, context);
            let mut cache = KvCache::new();
            // A first read of 5 tokens, then one more at a time up to the whole context.
            for n in 5..=context {
                let cached = c.decoder.cached_next_logits(&mut cache, &all[..n]).unwrap();
                assert_eq!(cache.len(), n);
                let whole = c.decoder.next_logits(&all[..n]).unwrap();
                let worst = largest_difference(&cached, &whole);
                if compute == Compute::F32 {
                    assert!(worst <= TOLERANCE, "{family} at {n} tokens: {worst}");
                } else {
                    // bf16's own error, the whole bf16 forward's from the f32 one, bounds the cache's.
                    c.decoder.set_compute(Compute::F32);
                    let exact = c.decoder.next_logits(&all[..n]).unwrap();
                    c.decoder.set_compute(Compute::Bf16);
                    let (cached_error, bf16_error) =
                        (largest_difference(&cached, &exact), largest_difference(&whole, &exact));
                    assert!(
                        cached_error <= 1.25 * bf16_error + BF16_TOLERANCE,
                        "{family} bf16 at {n} tokens: cached {cached_error} from f32, the whole forward {bf16_error}"
                    );
                }
                if n == 5 {
                    assert_eq!(cached, whole, "{family}: an empty cache runs the whole forward, the same bits");
                }
            }
            assert_eq!(c.decoder.shape.n_layers * 2 * context * c.decoder.shape.kv_width() * 4, cache.bytes());
            // Past the context: refused with the range allowed, and the cache is left as it was.
            let mut longer = all.clone();
            longer.push(0);
            let e = c.decoder.cached_next_logits(&mut cache, &longer).unwrap_err().to_string();
            assert!(e.contains(&format!("1 to the model's {context} positions")), "{e}");
        }
    }
}

#[test]
fn a_changed_text_reuses_the_start_it_shares_and_a_changed_model_nothing() {
    for family in FAMILIES {
        let mut c = open(family);
        let text = ids(&c, 24);
        let mut cache = KvCache::new();
        c.decoder.cached_next_logits(&mut cache, &text).unwrap();
        // The same text again: the last position run again, the same logits.
        let again = c.decoder.cached_next_logits(&mut cache, &text).unwrap();
        assert!(largest_difference(&again, &c.decoder.next_logits(&text).unwrap()) <= TOLERANCE, "{family}");
        // Token 10 changed: positions 10.. run again, on the new token.
        let mut edited = text.clone();
        edited[10] = (edited[10] + 1) % c.decoder.shape.vocab_size;
        let cached = c.decoder.cached_next_logits(&mut cache, &edited[..20]).unwrap();
        assert!(largest_difference(&cached, &c.decoder.next_logits(&edited[..20]).unwrap()) <= TOLERANCE, "{family}");
        // A block removed, another overwriting the stream: the cache starts again for them.
        c.decoder.block_modes[0] = BlockMode::Removed;
        c.decoder.block_modes[1] = BlockMode::Overwritten;
        let cached = c.decoder.cached_next_logits(&mut cache, &edited[..21]).unwrap();
        assert_eq!(cached, c.decoder.next_logits(&edited[..21]).unwrap(), "{family}: made again from nothing");
        // A bad id is refused, and the cache starts again after it.
        let mut bad = edited[..22].to_vec();
        bad[21] = c.decoder.shape.vocab_size;
        let e = c.decoder.cached_next_logits(&mut cache, &bad).unwrap_err().to_string();
        assert!(e.contains("token id") && e.contains("the model's vocabulary"), "{e}");
        assert!(cache.is_empty());
        assert!(c.decoder.cached_next_logits(&mut cache, &[]).is_err(), "an empty text is refused");
    }
}

/// What a continuation drew before the cache: each token from next_logits on the last `context`
/// ids of the text so far, drawn with the same settings and random numbers.
fn drawn_without_cache(c: &mut Checkpoint, text: &[usize], count: usize, seed: u64) -> Vec<usize> {
    let sampling = Sampling::new(0.8, Some(20), Some(0.95), c.decoder.shape.vocab_size).unwrap();
    let mut rng = Rng::new(seed);
    let mut ids = text.to_vec();
    for _ in 0..count {
        let logits = c.decoder.next_logits(&ids[ids.len().saturating_sub(c.decoder.shape.context)..]).unwrap();
        ids.push(sampling.draw(&logits, &mut rng));
    }
    ids[text.len()..].to_vec()
}

#[test]
fn a_continuation_draws_through_the_cache_what_whole_forwards_draw_and_says_where_it_cuts() {
    for family in FAMILIES {
        let mut c = open(family);
        let context = c.decoder.shape.context;
        let vocab = c.decoder.shape.vocab_size;
        let sampling = || Sampling::new(0.8, Some(20), Some(0.95), vocab).unwrap();
        // Within the context: the same tokens as whole forwards draw (the logits within 1e-5 and the
        // same random numbers), every step reading the whole text.
        let text = ids(&c, 10);
        let mut k = Continuation::new(text.clone(), 20, sampling(), 7, context);
        let mut steps = Vec::new();
        while let Some(drawn) = k.step(&mut c.decoder).unwrap() {
            steps.push(drawn);
        }
        assert_eq!(steps.len(), 20);
        assert!(steps.iter().all(|d| d.reads_from == 0 && !d.cut) && steps[19].done, "{family}");
        assert_eq!(k.written(), drawn_without_cache(&mut c, &text, 20, 7), "{family}");
        // Past the context: cut once, to the last half-context, and said; then on from there.
        let text = ids(&c, context - 3);
        let mut k = Continuation::new(text.clone(), 10, sampling(), 7, context);
        let mut steps = Vec::new();
        while let Some(drawn) = k.step(&mut c.decoder).unwrap() {
            steps.push(drawn);
        }
        let cuts: Vec<usize> = steps.iter().enumerate().filter(|(_, d)| d.cut).map(|(i, _)| i).collect();
        // Steps 0 to 3 read 61 to 64 tokens; step 4 would read 65.
        assert_eq!(cuts, [4], "{family}: the fifth token would have made the model read {} of {context}", context + 1);
        assert_eq!(steps[4].reads_from, context + 1 - context / 2, "{family}");
        assert!(
            steps[..4].iter().all(|d| d.reads_from == 0)
                && steps[4..].iter().all(|d| d.reads_from == steps[4].reads_from)
        );
        assert_eq!(k.written().len(), 10);
    }
}
