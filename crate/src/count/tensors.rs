//! Every weight tensor of a model, each from its dimensions in symbols (V, P, d, d_q, d_kv, f, E),
//! in the order data meets them: the tables, one block (norm, W_Q, W_K, W_V, W_O, norm, router,
//! feed-forward), the final norm and the output head.

use super::parts::{Part, Tensor};
use crate::config::{FeedForwardKind, ModelConfig, NormKind};
use crate::error::{Error, Result};
use crate::formula::{Poly, Sym, Values};

/// The symbols' values for a model, and the symbol each width prints as: d_q, d_kv and f print as
/// d, d and 4d where they equal them, so GPT-2 reads 4d² + 4d as in the lessons. The activations'
/// shapes print with the same symbols.
pub(super) struct Symbols {
    values: Values,
    pub(super) d: Poly,
    pub(super) q: Poly,
    pub(super) kv: Poly,
    pub(super) f: Poly,
}

impl Symbols {
    pub(super) fn of(c: &ModelConfig) -> Symbols {
        let d = Poly::sym(Sym::D);
        let q = if c.q_width() == c.d_model { d.clone() } else { Poly::sym(Sym::Dq) };
        let kv = if c.kv_width() == c.d_model { d.clone() } else { Poly::sym(Sym::Dkv) };
        let f = if Some(c.d_ff) == c.d_model.checked_mul(4) { d.scale(4) } else { Poly::sym(Sym::F) };
        let values = Values {
            e: c.moe.map_or(1, |m| m.n_experts),
            v: c.vocab_size,
            p: c.context,
            d: c.d_model,
            d_q: c.q_width(),
            d_kv: c.kv_width(),
            f: c.d_ff,
        };
        Symbols { values, d, q, kv, f }
    }
}

/// Builds the tensor list, each tensor from its dimensions.
struct Builder<'a> {
    config: &'a ModelConfig,
    symbols: Symbols,
    tensors: Vec<Tensor>,
}

impl Builder<'_> {
    fn tensor(&mut self, name: &str, part: Part, dims: &[Poly], copies: u64, active_copies: u64) -> Result<()> {
        let overflow = || Error::overflow(format!("the parameter count of {name}"));
        let shape: Vec<u64> =
            dims.iter().map(|p| p.eval(&self.symbols.values).ok_or_else(overflow)).collect::<Result<_>>()?;
        let formula = Poly::product(dims);
        let params = formula.eval(&self.symbols.values).ok_or_else(overflow)?;
        let blocks = if part.per_block() { self.config.n_layers } else { 1 };
        let total = |n: u64| n.checked_mul(params).and_then(|x| x.checked_mul(blocks)).ok_or_else(overflow);
        self.tensors.push(Tensor {
            name: name.to_string(),
            part,
            group: part.group(),
            shape,
            shape_symbols: dims.iter().map(|p| p.to_string()).collect(),
            formula: formula.to_string(),
            params_each: params,
            copies,
            active_copies,
            params: total(copies)?,
            active: total(active_copies)?,
            tied: false,
            poly: formula,
        });
        Ok(())
    }

    fn one(&mut self, name: &str, part: Part, dims: &[Poly]) -> Result<()> {
        self.tensor(name, part, dims, 1, 1)
    }

    fn norm(&mut self, part: Part, which: &str) -> Result<()> {
        let d = self.symbols.d.clone();
        self.one(&format!("{which} gain γ"), part, std::slice::from_ref(&d))?;
        if self.config.norm == NormKind::LayerNorm {
            self.one(&format!("{which} bias β"), part, &[d])?;
        }
        Ok(())
    }

    /// The feed-forward's matrices (and biases), `copies` of them in a block, `active` used per token.
    fn feed_forward(&mut self, copies: u64, active: u64) -> Result<()> {
        let (d, f) = (self.symbols.d.clone(), self.symbols.f.clone());
        let bias = self.config.bias.feed_forward;
        let suffix = if self.config.moe.is_some() { " (each expert)" } else { "" };
        let add = |b: &mut Self, name: &str, dims: &[Poly]| {
            b.tensor(&format!("{name}{suffix}"), Part::FeedForward, dims, copies, active)
        };
        match self.config.feed_forward {
            FeedForwardKind::Gelu => {
                add(self, "W_1", &[d.clone(), f.clone()])?;
                if bias {
                    add(self, "b_1", std::slice::from_ref(&f))?;
                }
                add(self, "W_2", &[f.clone(), d.clone()])?;
                if bias {
                    add(self, "b_2", std::slice::from_ref(&d))?;
                }
            }
            FeedForwardKind::SwiGlu => {
                for name in ["W_gate", "W_up"] {
                    add(self, name, &[d.clone(), f.clone()])?;
                    if bias {
                        add(self, &name.replace("W_", "b_"), std::slice::from_ref(&f))?;
                    }
                }
                add(self, "W_down", &[f.clone(), d.clone()])?;
                if bias {
                    add(self, "b_down", std::slice::from_ref(&d))?;
                }
            }
        }
        Ok(())
    }

    fn build(mut self) -> Result<Vec<Tensor>> {
        let c = self.config;
        let Symbols { d, q, kv, .. } = Symbols::of(c);
        let v = Poly::sym(Sym::V);

        self.one("token table", Part::TokenTable, &[v.clone(), d.clone()])?;
        if c.has_position_table() {
            self.one("position table", Part::PositionTable, &[Poly::sym(Sym::P), d.clone()])?;
        }

        // One block.
        self.norm(Part::AttentionNorm, "attention norm")?;
        for (name, width) in [("Q", &q), ("K", &kv), ("V", &kv)] {
            self.one(&format!("W_{name}"), Part::Attention, &[d.clone(), width.clone()])?;
            if c.bias.qkv {
                self.one(&format!("b_{name}"), Part::Attention, std::slice::from_ref(width))?;
            }
        }
        self.one("W_O", Part::Attention, &[q.clone(), d.clone()])?;
        if c.bias.attention_out {
            self.one("b_O", Part::Attention, std::slice::from_ref(&d))?;
        }
        self.norm(Part::FeedForwardNorm, "feed-forward norm")?;
        match c.moe {
            None => self.feed_forward(1, 1)?,
            Some(moe) => {
                let e = Poly::sym(Sym::E);
                self.one("W_router", Part::Router, &[d.clone(), e.clone()])?;
                if moe.router_bias {
                    self.one("b_router", Part::Router, &[e])?;
                }
                self.feed_forward(moe.n_experts, moe.experts_per_token)?;
            }
        }

        self.norm(Part::FinalNorm, "final norm")?;
        self.one("W_out", Part::OutputHead, &[d.clone(), v])?;
        if c.tied_output {
            let head = self.tensors.last_mut().expect("just pushed");
            head.tied = true;
            head.formula = "0 (tied: the token table, transposed)".into();
            head.params_each = 0;
            head.params = 0;
            head.active = 0;
            head.poly = Poly::zero();
        }
        Ok(self.tensors)
    }
}

/// Every weight tensor of the model, in the order data meets them.
pub fn tensors(config: &ModelConfig) -> Result<Vec<Tensor>> {
    Builder { config, symbols: Symbols::of(config), tensors: Vec::new() }.build()
}
