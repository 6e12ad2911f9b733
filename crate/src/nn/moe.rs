//! A mixture of experts: a router scores each token against E experts, keeps the top k, softmaxes
//! the kept scores only, and sums the kept experts' outputs weighted by those gates. The other
//! experts never run for that token: the layer holds E feed-forwards but a token pays for k.
//!
//! Training adds a load-balancing loss (Switch Transformer), n·Σ f_i·P_i: f_i is the fraction of
//! routed tokens expert i received and P_i the mean router probability it got. It is 1 for an even
//! split and n when everything goes to one expert.

use super::activation::softmax_in_place;
use super::feed_forward::FeedForward;
use super::linear::Linear;
use super::Matrix;
use crate::error::{Error, Result};
use crate::messages::{self, Phrase};
use crate::nn::init::Rng;

/// Which experts one token goes to, and with what weight.
#[derive(Debug, Clone, PartialEq)]
pub struct Routing {
    /// The kept experts, highest score first.
    pub kept: Vec<usize>,
    /// Their gates: the softmax over the kept scores only (sums to 1).
    pub gates: Vec<f32>,
    /// The experts that do not run for this token.
    pub skipped: Vec<usize>,
}

/// Keep the `k` highest of `scores` (ties to the lower index) and softmax just those.
pub fn route(scores: &[f32], k: usize) -> Result<Routing> {
    if scores.is_empty() {
        return Err(Error::out_of_range("the number of router scores", 0, "give one score per expert, at least 1"));
    }
    if let Some(bad) = scores.iter().find(|s| !s.is_finite()) {
        return Err(Error::out_of_range("router score", bad, "scores must be finite numbers"));
    }
    if k == 0 || k > scores.len() {
        return Err(Error::out_of_range("k", k, Phrase::of(messages::KEEP_EXPERTS).count("experts", scores.len())));
    }
    let mut order: Vec<usize> = (0..scores.len()).collect();
    crate::numbers::sort_small_by(&mut order, |&a, &b| scores[b].total_cmp(&scores[a]).then(a.cmp(&b)).is_lt());
    let kept: Vec<usize> = order[..k].to_vec();
    let mut gates: Vec<f32> = kept.iter().map(|&i| scores[i]).collect();
    softmax_in_place(&mut gates);
    let mut skipped: Vec<usize> = order[k..].to_vec();
    crate::numbers::sort_small_by(&mut skipped, |a, b| a < b);
    Ok(Routing { kept, gates, skipped })
}

/// n·Σ f_i·P_i over n experts.
pub fn balance_loss(fractions: &[f64], probabilities: &[f64]) -> Result<f64> {
    if fractions.is_empty() || fractions.len() != probabilities.len() {
        return Err(Error::out_of_range(
            "the number of fractions",
            fractions.len(),
            format!("give one fraction and one probability per expert ({} probabilities given)", probabilities.len()),
        ));
    }
    let n = fractions.len() as f64;
    Ok(n * fractions.iter().zip(probabilities).map(|(f, p)| f * p).sum::<f64>())
}

#[derive(Debug, Clone, PartialEq)]
pub struct MixtureOfExperts {
    /// [d, E], no bias.
    pub router: Linear,
    pub experts: Vec<FeedForward>,
    /// Experts per token.
    pub k: usize,
}

impl MixtureOfExperts {
    /// E experts of d -> 4d -> d, k of them per token.
    pub fn new(d: usize, n_experts: usize, k: usize, rng: &mut Rng) -> Result<MixtureOfExperts> {
        if n_experts == 0 {
            return Err(Error::out_of_range("experts", 0, "a mixture needs at least 1 expert"));
        }
        if k == 0 || k > n_experts {
            return Err(Error::out_of_range("k", k, Phrase::of(messages::KEEP_EXPERTS).count("experts", n_experts)));
        }
        let router = Linear::new(d, n_experts, false, rng);
        let experts = (0..n_experts).map(|_| FeedForward::new(d, 4 * d, rng)).collect();
        Ok(MixtureOfExperts { router, experts, k })
    }

    pub fn n_experts(&self) -> usize {
        self.experts.len()
    }

    /// Route one token's scores (one per expert) with this layer's k.
    pub fn route(&self, scores: &[f32]) -> Result<Routing> {
        if scores.len() != self.n_experts() {
            return Err(Error::out_of_range(
                "the number of router scores",
                scores.len(),
                Phrase::of(messages::EXPERT_SCORES).count("experts", self.n_experts()),
            ));
        }
        route(scores, self.k)
    }

    /// The routing of every token of x [T, d].
    pub fn routings(&self, x: &Matrix) -> Vec<Routing> {
        let scores = self.router.forward(x); // [T, E]
        scores
            .row_iter()
            .map(|row| {
                let row: Vec<f32> = row.iter().copied().collect();
                route(&row, self.k).expect("a router row has one finite score per expert")
            })
            .collect()
    }

    /// x [T, d] -> [T, d]. Each expert runs once, on the tokens routed to it.
    pub fn forward(&self, x: &Matrix) -> Matrix {
        let routings = self.routings(x);
        let mut y = Matrix::zeros(x.nrows(), x.ncols());
        for (e, expert) in self.experts.iter().enumerate() {
            // The tokens this expert serves, with their gates.
            let mine: Vec<(usize, f32)> = routings
                .iter()
                .enumerate()
                .filter_map(|(t, r)| r.kept.iter().position(|&k| k == e).map(|slot| (t, r.gates[slot])))
                .collect();
            if mine.is_empty() {
                continue;
            }
            let rows: Vec<usize> = mine.iter().map(|&(t, _)| t).collect();
            let out = expert.forward(&x.select_rows(&rows)); // [tokens, d]
            for (r, &(t, gate)) in mine.iter().enumerate() {
                let mut target = y.row_mut(t);
                target += out.row(r) * gate;
            }
        }
        y
    }

    /// How many tokens of x [T, d] each expert processes (a token counts once for each of its k).
    pub fn tokens_per_expert(&self, x: &Matrix) -> Vec<usize> {
        let mut counts = vec![0; self.n_experts()];
        for r in self.routings(x) {
            for e in r.kept {
                counts[e] += 1;
            }
        }
        counts
    }

    /// The load-balancing loss of x [T, d]: f_i from the routing, P_i the mean softmax over all E.
    pub fn load_balance_loss(&self, x: &Matrix) -> f64 {
        let counts = self.tokens_per_expert(x);
        let assignments = counts.iter().sum::<usize>().max(1) as f64;
        let fractions: Vec<f64> = counts.iter().map(|&c| c as f64 / assignments).collect();
        let mut probabilities = vec![0.0f64; self.n_experts()];
        let scores = self.router.forward(x);
        for row in scores.row_iter() {
            let mut p: Vec<f32> = row.iter().copied().collect();
            softmax_in_place(&mut p);
            for (acc, p) in probabilities.iter_mut().zip(p) {
                *acc += p as f64 / x.nrows().max(1) as f64;
            }
        }
        balance_loss(&fractions, &probabilities).expect("one fraction and one probability per expert")
    }

    /// Every expert and the router.
    pub fn n_params(&self) -> usize {
        self.router.n_params() + self.experts.iter().map(FeedForward::n_params).sum::<usize>()
    }

    /// What one token touches: k experts and the router.
    pub fn active_params(&self) -> usize {
        self.router.n_params() + self.k * self.experts[0].n_params()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn route_keeps_the_top_k_and_softmaxes_only_them() {
        let r = route(&[2.0, 1.0, 0.5, -1.0], 2).unwrap();
        assert_eq!(r.kept, vec![0, 1]);
        assert_eq!(r.skipped, vec![2, 3]);
        assert!((r.gates[0] - 0.731_058_6).abs() < 1e-6 && (r.gates[1] - 0.268_941_4).abs() < 1e-6);
    }

    #[test]
    fn forward_is_the_gated_sum_of_the_kept_experts() {
        let mut rng = Rng::new(11);
        let moe = MixtureOfExperts::new(8, 4, 2, &mut rng).unwrap();
        let x = Matrix::from_row_slice(3, 8, &rng.normal_vec(24, 1.0));
        let y = moe.forward(&x);
        for (t, r) in moe.routings(&x).iter().enumerate() {
            let row = x.rows(t, 1).into_owned();
            let mut expected = Matrix::zeros(1, 8);
            for (e, g) in r.kept.iter().zip(&r.gates) {
                expected += moe.experts[*e].forward(&row) * *g;
            }
            assert!((y.rows(t, 1) - expected).amax() < 1e-6);
        }
        assert_eq!(moe.tokens_per_expert(&x).iter().sum::<usize>(), 3 * 2);
    }

    #[test]
    fn bad_input_is_refused() {
        assert!(route(&[], 1).unwrap_err().to_string().contains("at least 1"));
        assert_eq!(
            route(&[1.0, 2.0], 3).unwrap_err().to_string(),
            "k 3 is out of range: keep between 1 and the 2 experts"
        );
        let moe = MixtureOfExperts::new(4, 4, 2, &mut Rng::new(0)).unwrap();
        assert_eq!(
            moe.route(&[1.0, 2.0, 3.0]).unwrap_err().to_string(),
            "the number of router scores 3 is out of range: this layer has 4 experts, one score each"
        );
        assert!(MixtureOfExperts::new(4, 4, 5, &mut Rng::new(0)).is_err());
        assert!(balance_loss(&[0.5, 0.5], &[1.0]).is_err());
    }
}
