//! The k likeliest tokens of a checkpoint's vocabulary (50,257 or 151,936), found in one pass over
//! the logits: what the sampler's draw orders where its settings keep few (sampler.rs
//! `sampled_among_few`), where the whole order took a sort of the vocabulary for each written token
//! (3.6 ms at GPT-2's, as the page's wasm is built).

use std::cmp::Ordering;

/// Past this many kept tokens the one pass (k steps for each better token) gives way to a sort.
pub(super) const FEW: usize = 256;

/// The `k` likeliest ids, from the likeliest down (ties: the lower id first), in one pass: each id
/// better than the k-th so far takes its place in the order. The order `after_settings` sorts into.
pub(super) fn likeliest(logits: &[f32], k: usize) -> Vec<usize> {
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
