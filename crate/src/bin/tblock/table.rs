//! `--format table`: a model's report for people to read.

use transformer_block::config::{FeedForwardKind, ModelConfig, NormKind, PositionScheme};
use transformer_block::numbers::thousands;
use transformer_block::Report;

fn percent(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// FLOPs with an SI prefix: 285.06 M, 19.30 G.
fn giga(x: f64) -> String {
    let (scale, prefix) =
        [(1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")].into_iter().find(|(s, _)| x >= *s).unwrap_or((1.0, ""));
    format!("{:.2} {prefix}", x / scale)
}

pub fn describe(c: &ModelConfig) -> String {
    let positions = match c.positions {
        PositionScheme::Learned => "learned positions",
        PositionScheme::Rotary => "rotary positions",
        PositionScheme::None => "no positions",
    };
    let mut s = format!(
        "V {}, d {}, L {}, h {} (key/value heads {}) of {}, f {}, context {}, {positions}, {}, {}, {}",
        thousands(c.vocab_size),
        thousands(c.d_model),
        c.n_layers,
        c.n_heads,
        c.n_kv_heads,
        c.head_dim,
        thousands(c.d_ff),
        thousands(c.context),
        match c.norm {
            NormKind::LayerNorm => "LayerNorm",
            NormKind::RmsNorm => "RMSNorm",
        },
        match c.feed_forward {
            FeedForwardKind::Gelu => "GELU feed-forward",
            FeedForwardKind::SwiGlu => "SwiGLU feed-forward",
        },
        if c.tied_output { "tied output" } else { "separate output head" },
    );
    if let Some(m) = c.moe {
        s.push_str(&format!(", {} experts, {} per token", m.n_experts, m.experts_per_token));
    }
    s
}

pub fn table(r: &Report) -> String {
    let mut out = format!(
        "{} ({}): {} parameters\n  {}\n\n",
        r.config.label,
        r.model,
        thousands(r.total_params),
        describe(&r.config)
    );
    out.push_str(&format!(
        "{:<30} {:<34} {:>16} {:>18} {:>7}\n",
        "part", "formula", "per block", "in the model", "share"
    ));
    for p in &r.parts {
        let per_block = if p.per_block { thousands(p.params_each) } else { "-".into() };
        out.push_str(&format!(
            "{:<30} {:<34} {:>16} {:>18} {:>7}\n",
            p.label,
            p.formula,
            per_block,
            thousands(p.params),
            percent(p.share)
        ));
    }
    out.push_str(&format!("\n{:<30} {:>70}\n", "one block", thousands(r.per_block_params)));
    out.push_str(&format!("{:<30} {:>70}\n", "total", thousands(r.total_params)));
    out.push_str(&format!("{:<30} {:>70}\n", "without embeddings", thousands(r.non_embedding_params)));
    out.push_str(&format!("{:<30} {:>70}\n", "active per token", thousands(r.active_params)));
    out.push_str(&format!(
        "{:<30} {:>70}\n  ({} off the count without embeddings; with V·d it leaves out {} of the total)\n",
        "Kaplan 12·L·d²",
        thousands(r.kaplan.params),
        percent(r.kaplan.error_vs_non_embedding),
        percent(r.kaplan.left_out_of_total)
    ));
    out.push_str("\nbreakdown\n");
    for g in &r.groups {
        out.push_str(&format!("  {:<16} {:>18} {:>7}\n", g.label, thousands(g.params), percent(g.share)));
    }
    let f = &r.forward_flops;
    out.push_str(&format!(
        "\nFLOPs per token at T = {}: forward {} (2N = {} + attention {}), training {}\n",
        thousands(r.seq_len),
        giga(f.total),
        giga(f.parameter_flops),
        giga(f.attention_flops),
        giga(r.training_flops_per_token)
    ));
    let a = &r.attention_share;
    out.push_str(&format!(
        "one block's attention share at T = {}: {}; attention passes the linear layers at T = {}{}\n",
        thousands(r.seq_len),
        percent(a.share),
        thousands(a.crossover_seq_len.round() as u64),
        if a.crossover_within_context { "" } else { " (past the model's context)" }
    ));
    out.push_str("\nmemory for the weights:");
    for b in &r.memory.weights {
        out.push_str(&format!("  {} {:.2} GB", b.dtype, b.bytes as f64 / 1e9));
    }
    out.push_str(&format!(
        "\nkey/value cache: {} bytes per token at bf16/fp16; {} bytes for batch {} x {} tokens\n",
        thousands(r.memory.kv_cache_per_token[1].bytes),
        thousands(r.memory.kv_cache[1].bytes),
        r.batch,
        thousands(r.seq_len)
    ));
    out
}
