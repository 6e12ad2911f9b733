//! The presets against the published figures (../shared/reference/param-counts.md).

use transformer_block::config::{ModelConfig, PRESET_NAMES};
use transformer_block::count::{count_params, Group, ParamCount, Part};

fn count(name: &str) -> ParamCount {
    count_params(&ModelConfig::preset(name).unwrap()).unwrap()
}

fn part(c: &ParamCount, part: Part) -> &transformer_block::count::PartCount {
    c.parts.iter().find(|p| p.part == part).unwrap_or_else(|| panic!("no part {part:?}"))
}

fn group(c: &ParamCount, group: Group) -> u64 {
    c.groups.iter().find(|g| g.group == group).map_or(0, |g| g.params)
}

fn tensor<'a>(c: &'a ParamCount, name: &str) -> &'a transformer_block::count::Tensor {
    c.tensors.iter().find(|t| t.name == name).unwrap_or_else(|| panic!("no tensor {name}"))
}

#[test]
fn every_preset_matches_its_published_total() {
    let published = [
        ("tiny-gpt", 27_328u64),
        ("gpt2-small", 124_439_808),
        ("gpt2-medium", 354_823_168),
        ("gpt2-large", 774_030_080),
        ("gpt2-xl", 1_557_611_200),
        ("llama3-8b", 8_030_261_248),
        ("llama3-70b", 70_553_706_496),
        ("mixtral-8x7b", 46_702_792_704),
    ];
    assert_eq!(published.len(), PRESET_NAMES.len());
    for (name, total) in published {
        assert_eq!(count(name).total, total, "{name}");
    }
}

#[test]
fn mixtral_active_count_is_two_experts_plus_everything_shared() {
    let c = count("mixtral-8x7b");
    assert_eq!(c.active, 12_879_925_248);
    // Dense models use every parameter for every token.
    assert_eq!(count("llama3-8b").active, 8_030_261_248);
    // Per block, one token touches two of the eight experts' three matrices.
    let ff = part(&c, Part::FeedForward);
    assert_eq!((ff.params_each, ff.active_each), (8 * 176_160_768, 2 * 176_160_768));
    // The router is d x 8 without bias.
    assert_eq!(tensor(&c, "W_router").shape, vec![4096, 8]);
    assert!(!c.tensors.iter().any(|t| t.name == "b_router"));
}

#[test]
fn gpt2_small_by_component() {
    let c = count("gpt2-small");
    let attention = part(&c, Part::Attention);
    assert_eq!(attention.params_each, 2_362_368);
    assert_eq!(attention.formula, "4d² + 4d");
    assert_eq!(attention.params, 28_348_416);
    let ff = part(&c, Part::FeedForward);
    assert_eq!(ff.params_each, 4_722_432);
    assert_eq!(ff.formula, "8d² + 5d");
    assert_eq!(part(&c, Part::AttentionNorm).params_each + part(&c, Part::FeedForwardNorm).params_each, 3_072);
    assert_eq!(c.per_block, 7_087_872);
    assert_eq!(c.all_blocks, 85_054_464);
    assert_eq!(tensor(&c, "token table").params, 38_597_376);
    assert_eq!(tensor(&c, "position table").params, 786_432);
    assert_eq!(part(&c, Part::FinalNorm).params, 1_536);
    let head = tensor(&c, "W_out");
    assert!(head.tied);
    assert_eq!(head.params, 0);
    assert_eq!(c.non_embedding, 85_056_000);
}

#[test]
fn gpt2_small_shares_match_the_lesson() {
    let c = count("gpt2-small");
    let pct = |g| (100.0 * c.groups.iter().find(|x| x.group == g).unwrap().share).round();
    assert_eq!(group(&c, Group::Embeddings), 39_383_808); // 39.4M
    assert_eq!(pct(Group::Embeddings), 32.0);
    assert_eq!(group(&c, Group::Attention), 28_348_416); // 28.3M
    assert_eq!(pct(Group::Attention), 23.0);
    assert_eq!(group(&c, Group::FeedForward), 56_669_184); // 56.7M
    assert_eq!(pct(Group::FeedForward), 46.0);
    assert_eq!(group(&c, Group::Norms), 38_400); // 38.4K
                                                 // Tied: no output-head group of its own.
    assert!(!c.groups.iter().any(|g| g.group == Group::OutputHead));
    let groups_sum: u64 = c.groups.iter().map(|g| g.params).sum();
    assert_eq!(groups_sum, c.total);
}

#[test]
fn token_table_share_shrinks_with_width() {
    let share = |name| {
        let c = count(name);
        tensor(&c, "token table").params as f64 / c.total as f64
    };
    assert_eq!((1000.0 * share("gpt2-small")).round() / 10.0, 31.0);
    assert_eq!((1000.0 * share("gpt2-xl")).round() / 10.0, 5.2);
    // Llama 3 70B: both embedding matrices together are about 3% of the model.
    let c = count("llama3-70b");
    let tables = group(&c, Group::Embeddings) + group(&c, Group::OutputHead);
    assert_eq!((100.0 * tables as f64 / c.total as f64).round(), 3.0);
}

#[test]
fn without_attention_biases_gpt2_small_is_124_402_944() {
    let mut config = ModelConfig::preset("gpt2-small").unwrap();
    config.bias.qkv = false;
    config.bias.attention_out = false;
    assert_eq!(count_params(&config).unwrap().total, 124_402_944);
}

#[test]
fn kaplan_shortcut_against_the_exact_count() {
    let c = count("gpt2-small");
    assert_eq!(c.kaplan.params, 84_934_656);
    assert_eq!(c.kaplan.plus_token_table, 123_532_032);
    assert_eq!((1000.0 * c.kaplan.left_out_of_total).round() / 1000.0, 0.007);
    assert!(c.kaplan.error_vs_non_embedding < 0.0 && c.kaplan.error_vs_non_embedding > -0.002);
}

#[test]
fn llama3_8b_grouped_key_value_heads() {
    let c = count("llama3-8b");
    assert_eq!(tensor(&c, "W_Q").shape, vec![4096, 4096]);
    assert_eq!(tensor(&c, "W_K").shape, vec![4096, 1024]);
    assert_eq!(tensor(&c, "W_V").shape, vec![4096, 1024]);
    assert_eq!(tensor(&c, "W_K").shape_symbols, vec!["d", "d_kv"]);
    assert_eq!(c.per_block, 218_112_000);
    let ff = part(&c, Part::FeedForward);
    assert_eq!(ff.params_each, 176_160_768);
    assert_eq!((10_000.0 * ff.params_each as f64 / c.per_block as f64).round() / 100.0, 80.77);
    assert_eq!(ff.formula, "3d·f");
    assert_eq!(part(&c, Part::Attention).formula, "2d² + 2d·d_kv");
    // Untied: the output head is its own V x d matrix, and leaves the non-embedding count.
    assert_eq!(tensor(&c, "W_out").params, 525_336_576);
    assert_eq!(c.non_embedding, 8_030_261_248 - 2 * 525_336_576);
}

#[test]
fn tiny_gpt_by_component() {
    let c = count("tiny-gpt");
    assert_eq!(c.per_block, 12_576);
    assert_eq!(tensor(&c, "token table").shape, vec![50, 32]);
    assert_eq!(tensor(&c, "position table").shape, vec![16, 32]);
    assert_eq!(part(&c, Part::FinalNorm).params, 64);
    // No attention biases, feed-forward biases: 4·1,024 + 8·1,024 + 160 + 128.
    assert!(!c.tensors.iter().any(|t| t.name == "b_Q"));
    assert_eq!(part(&c, Part::Attention).params_each, 4 * 1024);
    assert_eq!(part(&c, Part::FeedForward).params_each, 8 * 1024 + 160);
}

#[test]
fn every_tensor_formula_evaluates_to_its_count() {
    // The printed formulas and the counts come from one polynomial; check the chain end to end by
    // recounting each part from its tensors' shapes.
    for name in PRESET_NAMES {
        let c = count(name);
        for t in &c.tensors {
            let from_shape: u64 = if t.tied { 0 } else { t.shape.iter().product() };
            assert_eq!(t.params_each, from_shape, "{name} {}", t.name);
        }
        let sum: u64 = c.parts.iter().map(|p| p.params).sum();
        assert_eq!(sum, c.total, "{name}");
        let shares: f64 = c.parts.iter().map(|p| p.share).sum();
        assert!((shares - 1.0).abs() < 1e-9, "{name}");
    }
}

#[test]
fn unknown_preset_names_the_allowed_ones() {
    let e = ModelConfig::preset("gpt5").unwrap_err().to_string();
    assert!(e.contains("unknown model \"gpt5\""), "{e}");
    for name in PRESET_NAMES {
        assert!(e.contains(name), "{e}");
    }
}

#[test]
fn a_config_with_zero_or_mismatched_sizes_is_refused() {
    let mut c = ModelConfig::preset("gpt2-small").unwrap();
    c.d_model = 0;
    assert_eq!(count_params(&c).unwrap_err().to_string(), "d_model: must be a positive integer, got 0");
    let mut c = ModelConfig::preset("llama3-8b").unwrap();
    c.n_kv_heads = 5;
    let e = count_params(&c).unwrap_err().to_string();
    assert!(e.starts_with("n_kv_heads: 5 key/value heads do not divide 32 query heads"), "{e}");
    let mut c = ModelConfig::preset("mixtral-8x7b").unwrap();
    c.moe.as_mut().unwrap().experts_per_token = 9;
    let e = count_params(&c).unwrap_err().to_string();
    assert!(e.contains("experts_per_token: must be between 1 and the 8 experts, got 9"), "{e}");
}

#[test]
fn counts_too_large_for_64_bits_are_an_error_not_a_wrap() {
    let mut c = ModelConfig::preset("gpt2-small").unwrap();
    c.vocab_size = u64::MAX / 2;
    let e = count_params(&c).unwrap_err().to_string();
    assert!(e.contains("too large to count exactly in 64 bits"), "{e}");
}
