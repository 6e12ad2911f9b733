//! Activation shapes at a batch and sequence length, and memory for weights and the KV cache.

use transformer_block::config::ModelConfig;
use transformer_block::count::{activations, memory, Activation};

fn shapes(name: &str, batch: u64, seq_len: u64) -> Vec<Activation> {
    activations(&ModelConfig::preset(name).unwrap(), batch, seq_len).unwrap()
}

fn find<'a>(all: &'a [Activation], key: &str) -> &'a Activation {
    all.iter().find(|a| a.key == key).unwrap_or_else(|| panic!("no activation {key}"))
}

#[test]
fn gpt2_small_shapes_in_the_lessons_terms() {
    let a = shapes("gpt2-small", 2, 8);
    let shape = |k| (find(&a, k).shape.clone(), find(&a, k).shape_symbols.join(","));
    assert_eq!(shape("stream"), (vec![2, 8, 768], "B,T,d".into()));
    assert_eq!(shape("qkv"), (vec![2, 8, 2304], "B,T,3d".into()));
    assert_eq!(shape("q_heads"), (vec![2, 12, 8, 64], "B,h,T,d_head".into()));
    assert_eq!(shape("scores"), (vec![2, 12, 8, 8], "B,h,T,T".into()));
    assert_eq!(shape("feed_forward_hidden"), (vec![2, 8, 3072], "B,T,4d".into()));
    assert_eq!(shape("logits"), (vec![2, 8, 50257], "B,T,V".into()));
    assert_eq!(find(&a, "scores").elements, 2 * 12 * 8 * 8);
}

#[test]
fn scores_grow_as_t_squared() {
    let at = |t| find(&shapes("gpt2-small", 1, t), "scores").elements;
    assert_eq!(at(1024), 12 * 1024 * 1024);
    assert_eq!(at(1024) / at(512), 4);
}

#[test]
fn grouped_key_value_heads_have_their_own_width() {
    let a = shapes("llama3-8b", 1, 16);
    assert_eq!(find(&a, "q").shape, vec![1, 16, 4096]);
    assert_eq!(find(&a, "k").shape, vec![1, 16, 1024]);
    assert_eq!(find(&a, "k_heads").shape, vec![1, 8, 16, 128]);
    assert_eq!(find(&a, "k_heads").shape_symbols, vec!["B", "n_kv", "T", "d_head"]);
    assert_eq!(find(&a, "qkv").shape_symbols[2], "d + 2d_kv");
    assert!(!a.iter().any(|x| x.key == "position_vectors"), "rotary positions have no table");
    let m = shapes("mixtral-8x7b", 1, 4);
    assert_eq!(find(&m, "router_scores").shape, vec![1, 4, 8]);
    assert_eq!(find(&m, "feed_forward_hidden").shape, vec![1, 4, 2, 14336]);
}

#[test]
fn sequence_length_and_batch_are_checked() {
    let gpt2 = ModelConfig::preset("gpt2-small").unwrap();
    assert_eq!(
        activations(&gpt2, 1, 0).unwrap_err().to_string(),
        "seq_len 0 is out of range: GPT-2 small accepts 1 to 1,024 tokens"
    );
    assert_eq!(
        activations(&gpt2, 1, 1025).unwrap_err().to_string(),
        "seq_len 1025 is out of range: GPT-2 small accepts 1 to 1,024 tokens"
    );
    assert_eq!(activations(&gpt2, 0, 8).unwrap_err().to_string(), "batch 0 is out of range: allowed is 1 to 65,536");
    assert!(activations(&gpt2, 1, 1024).is_ok());
}

#[test]
fn weight_memory_per_dtype() {
    let m = memory(&ModelConfig::preset("llama3-8b").unwrap(), 1, 8).unwrap();
    let bytes: Vec<(&str, u64)> = m.weights.iter().map(|b| (b.dtype, b.bytes)).collect();
    assert_eq!(
        bytes,
        vec![("fp32", 32_121_044_992), ("bf16/fp16", 16_060_522_496), ("int8", 8_030_261_248), ("int4", 4_015_130_624)]
    );
    // Odd counts round up to whole bytes at 4 bits.
    let tiny = memory(&ModelConfig::preset("tiny-gpt").unwrap(), 1, 8).unwrap();
    assert_eq!(tiny.weights[0].bytes, 4 * 27_328);
}

#[test]
fn kv_cache_uses_key_value_heads_not_query_heads() {
    // Llama 3 8B: 2 (K and V) x 32 blocks x 8 heads x 128 x 2 bytes = 128 KiB a token at bf16.
    let m = memory(&ModelConfig::preset("llama3-8b").unwrap(), 4, 8192).unwrap();
    assert_eq!(m.kv_cache_per_token[1].bytes, 131_072);
    assert_eq!(m.kv_cache[1].bytes, 131_072 * 4 * 8192);
    // GPT-2 small has one key/value head per query head: 2 x 12 x 768 x 2 bytes.
    let g = memory(&ModelConfig::preset("gpt2-small").unwrap(), 1, 1).unwrap();
    assert_eq!(g.kv_cache_per_token[1].bytes, 36_864);
    assert_eq!(g.kv_cache_per_token[0].bytes, 73_728);
}
