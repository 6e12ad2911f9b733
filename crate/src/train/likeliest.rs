//! A draw over a checkpoint's vocabulary (50,257 or 151,936 tokens) that orders only the tokens the
//! settings can keep: the k likeliest, found in one pass over the logits, where the whole order took
//! a sort of the vocabulary for each written token (3.6 ms at GPT-2's, as the page's wasm is built).
//! Nothing ordered at all where every token stays (top-k V, top-p 1). The same arithmetic as
//! `Sampling::after_settings` on the tokens it keeps, so the same probabilities to the bit
//! (sampler.rs: `the_probabilities_among_few_are_those_after_the_whole_order`).

use std::cmp::Ordering;

/// Past this many kept tokens the one pass (k steps for each better token) gives way to a sort.
pub(super) const FEW: usize = 256;

/// What a token is drawn from [V] (after_settings' `sampled`) where top-k keeps the `k` likeliest
/// (k ≤ FEW; 1 when greedy) at `temperature`, and top-p `top_p` of those.
pub(super) fn sampled_among_likeliest(logits: &[f32], k: usize, temperature: f64, top_p: f64) -> Vec<f64> {
    let top = likeliest(logits, k);
    // The kept tokens' tempered probabilities: temperature 0 puts all on the likeliest; else the
    // softmax's terms, over the whole vocabulary's sum (the same terms, summed in the same order).
    let tempered: Vec<f64> = if temperature == 0.0 {
        top.iter().enumerate().map(|(rank, _)| if rank == 0 { 1.0 } else { 0.0 }).collect()
    } else {
        let max = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max) as f64;
        let term = |z: f32| ((z as f64 - max) / temperature).exp();
        let sum: f64 = logits.iter().map(|&z| term(z)).sum();
        top.iter().map(|&id| term(logits[id]) / sum).collect()
    };
    // Top-p over the top-k tokens' probabilities, renormalised among them (after_settings' loop).
    let mass: f64 = tempered.iter().sum();
    let mut cumulative = 0.0;
    let mut kept = top.len();
    for (rank, &p) in tempered.iter().enumerate() {
        cumulative += p / mass;
        if top_p < 1.0 && cumulative >= top_p - 1e-12 {
            kept = rank + 1;
            break;
        }
    }
    // Renormalised over the kept, summed in id order as after_settings sums them.
    let mut kept: Vec<(usize, f64)> = top[..kept].iter().copied().zip(tempered).collect();
    kept.sort_unstable_by_key(|&(id, _)| id);
    let total: f64 = kept.iter().map(|&(_, p)| p).sum();
    let mut sampled = vec![0.0; logits.len()];
    for (id, p) in kept {
        sampled[id] = p / total;
    }
    sampled
}

/// The `k` likeliest ids, from the likeliest down (ties: the lower id first), in one pass: each id
/// better than the k-th so far takes its place in the order. The order `after_settings` sorts into.
fn likeliest(logits: &[f32], k: usize) -> Vec<usize> {
    let before = |a: usize, b: usize| match logits[a].total_cmp(&logits[b]) {
        Ordering::Greater => true,
        Ordering::Equal => a < b,
        Ordering::Less => false,
    };
    let mut top: Vec<usize> = Vec::with_capacity(k + 1);
    for id in 0..logits.len() {
        if top.len() == k && !before(id, top[k - 1]) {
            continue;
        }
        let at = top.partition_point(|&t| before(t, id));
        top.insert(at, id);
        top.truncate(k);
    }
    top
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nn::init::Rng;

    /// Logits over `v` tokens with ties (every fifth repeats a coarse value) and a few far ahead.
    fn logits(v: usize, seed: u64) -> Vec<f32> {
        let mut rng = Rng::new(seed);
        (0..v)
            .map(|i| match i % 5 {
                4 => ((i / 40) % 7) as f32 * 0.5,
                _ if i % 997 == 3 => 9.0 + rng.uniform() as f32,
                _ => (rng.uniform() * 8.0 - 4.0) as f32,
            })
            .collect()
    }

    #[test]
    fn the_k_likeliest_are_the_first_k_of_the_whole_order() {
        for (v, seed) in [(300, 1), (1000, 2), (50_257, 3)] {
            let z = logits(v, seed);
            let mut order: Vec<usize> = (0..v).collect();
            order.sort_unstable_by(|&a, &b| z[b].total_cmp(&z[a]).then(a.cmp(&b)));
            for k in [1, 2, 7, 40, 256] {
                assert_eq!(likeliest(&z, k), order[..k], "V {v}, k {k}");
            }
        }
        // Ascending logits (every token better than the last) and all equal (ties by id).
        let rising: Vec<f32> = (0..500).map(|i| i as f32).collect();
        assert_eq!(likeliest(&rising, 3), [499, 498, 497]);
        assert_eq!(likeliest(&[0.25; 400], 3), [0, 1, 2]);
    }
}
