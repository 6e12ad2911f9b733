//! How the next character is drawn: the one sampler the command line and the page share. From one
//! position's logits: divide by a temperature and take the softmax (temperature 0: the likeliest
//! character, always); keep the k likeliest characters (top-k); of those, keep the fewest likeliest
//! whose probabilities, renormalised, add up to at least p (top-p, "nucleus"); renormalise what is
//! kept and draw from it. The order is transformers' (temperature, top-k, top-p). Top-k 1 is the
//! likeliest character at any temperature; top-k V with top-p 1 keeps every character and draws
//! exactly as temperature alone does.

use serde::Serialize;

#[cfg(any(feature = "checkpoint-facade", not(target_arch = "wasm32")))]
use super::likeliest::{likeliest, FEW};
use crate::error::{Error, Result};
use crate::messages::{self, Phrase};
use crate::nn::init::Rng;
use crate::numbers::{sort_small_by, thousands};

pub const MAX_TEMPERATURE: f64 = 10.0;

/// Vocabularies up to this size are ordered by the crate's insertion sort (TinyGPT's 50 characters);
/// larger ones (a checkpoint's tokens) by the standard library's, where the quadratic sort would take
/// seconds.
const SMALL_VOCABULARY: usize = 256;

/// The settings of the sampler, checked against a vocabulary of V symbols.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Sampling {
    /// 0 (always the likeliest) to 10; 1 samples the model as it is.
    pub temperature: f64,
    /// Keep the k likeliest characters, 1 to V (V: keep all).
    pub top_k: usize,
    /// Keep the fewest likeliest characters whose probability adds up to at least p, 0 < p ≤ 1 (1: all).
    pub top_p: f64,
}

/// One position's next-character distribution before and after the sampler's settings.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NextDistribution {
    /// The model's own probabilities (the softmax of the logits, temperature 1) [V].
    pub model: Vec<f64>,
    /// After the temperature, before top-k and top-p [V].
    pub tempered: Vec<f64>,
    /// Whether each character survives top-k and top-p [V].
    pub kept: Vec<bool>,
    /// What is drawn from: the kept characters' tempered probabilities renormalised, 0 elsewhere [V].
    pub sampled: Vec<f64>,
    /// How many characters are kept.
    pub kept_count: usize,
    /// The ids from the likeliest down (ties: the lower id first).
    pub order: Vec<usize>,
}

/// exp((z − max z)/τ) / Σ, in f64 (τ > 0).
fn softmax(logits: &[f32], temperature: f64) -> Vec<f64> {
    let max = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max) as f64;
    let mut p: Vec<f64> = logits.iter().map(|&z| ((z as f64 - max) / temperature).exp()).collect();
    let sum: f64 = p.iter().sum();
    p.iter_mut().for_each(|x| *x /= sum);
    p
}

/// What top-k may be for a vocabulary of `v` symbols, in words.
pub fn top_k_allowed(v: usize) -> Phrase {
    Phrase::of(messages::TOP_K).count("max", v)
}

impl Sampling {
    /// Check the settings for a vocabulary of `vocab_size`: `top_k` None means V, `top_p` None means 1.
    pub fn new(temperature: f64, top_k: Option<usize>, top_p: Option<f64>, vocab_size: usize) -> Result<Sampling> {
        if !(temperature.is_finite() && (0.0..=MAX_TEMPERATURE).contains(&temperature)) {
            return Err(Error::out_of_range(
                "temperature",
                temperature,
                "give 0 (always the likeliest) to 10; 1 samples the model as it is, below 1 is more cautious",
            ));
        }
        let v = vocab_size;
        let top_k = top_k.unwrap_or(v);
        if top_k == 0 || top_k > v {
            return Err(Error::out_of_range("top-k", thousands(top_k as u64), top_k_allowed(v)));
        }
        let top_p = top_p.unwrap_or(1.0);
        if !(top_p > 0.0 && top_p <= 1.0) {
            return Err(Error::out_of_range(
                "top-p",
                top_p,
                "give a share above 0 and at most 1: the likeliest characters are kept until their probability adds up to it (1 keeps all)",
            ));
        }
        Ok(Sampling { temperature, top_k, top_p })
    }

    /// Plain sampling at `temperature`, every character kept.
    pub fn temperature(temperature: f64, vocab_size: usize) -> Result<Sampling> {
        Sampling::new(temperature, None, None, vocab_size)
    }

    /// The distribution the next character is drawn from, after one position's logits [V], beside
    /// the model's own.
    pub fn distribution(&self, logits: &[f32]) -> NextDistribution {
        NextDistribution { model: softmax(logits, 1.0), ..self.after_settings(logits) }
    }

    /// How many of the likeliest top-k keeps of `v` (one where drawing is greedy: temperature 0, top-k 1).
    fn top_count(&self, v: usize) -> usize {
        if self.temperature == 0.0 || self.top_k == 1 {
            1
        } else {
            self.top_k.min(v)
        }
    }

    /// How many of the top-k, whose tempered probabilities are `top` (from the likeliest down), top-p
    /// keeps: the fewest whose shares, renormalised among the top-k, add up to at least p.
    fn nucleus(&self, top: &[f64]) -> usize {
        let mass: f64 = top.iter().sum();
        let mut cumulative = 0.0;
        for (n, &p) in top.iter().enumerate() {
            cumulative += p / mass;
            // A sum of shares can fall a hair short of an exact p (ten tenths reach 0.9999…): 1e-12 of slack.
            if self.top_p < 1.0 && cumulative >= self.top_p - 1e-12 {
                return n + 1;
            }
        }
        top.len()
    }

    /// What the settings make of one position's logits (`model` left empty: drawing needs none).
    fn after_settings(&self, logits: &[f32]) -> NextDistribution {
        let v = logits.len();
        // Characters from the likeliest down (ties: the lower id first), by logit, which every
        // positive temperature orders the same way.
        let mut order: Vec<usize> = (0..v).collect();
        if v <= SMALL_VOCABULARY {
            sort_small_by(&mut order, |&a, &b| logits[a] > logits[b] || (logits[a] == logits[b] && a < b));
        } else {
            // A real checkpoint's 50,257 (or 151,936) tokens: n log n, the same order (the ids
            // are distinct, so the key is total and an unstable sort gives the one order).
            order.sort_unstable_by(|&a, &b| logits[b].total_cmp(&logits[a]).then(a.cmp(&b)));
        }
        let tempered = if self.temperature == 0.0 {
            (0..v).map(|i| if Some(&i) == order.first() { 1.0 } else { 0.0 }).collect()
        } else {
            softmax(logits, self.temperature)
        };
        let mut kept = vec![false; v];
        let top: &[usize] = &order[..self.top_count(v)];
        let top_tempered: Vec<f64> = top.iter().map(|&i| tempered[i]).collect();
        for &i in &top[..self.nucleus(&top_tempered)] {
            kept[i] = true;
        }
        let kept_count = kept.iter().filter(|&&x| x).count();
        let sampled = if kept_count == v {
            tempered.clone() // every character kept: drawn exactly as temperature alone draws
        } else {
            let total: f64 = (0..v).filter(|&i| kept[i]).map(|i| tempered[i]).sum();
            (0..v).map(|i| if kept[i] { tempered[i] / total } else { 0.0 }).collect()
        };
        NextDistribution { model: Vec::new(), tempered, kept, sampled, kept_count, order }
    }

    /// Draw the next id after one position's logits [V]: one uniform number from `rng` (drawn at
    /// every setting, temperature 0 too, so the same seed walks the same sequence of numbers).
    pub fn draw(&self, logits: &[f32], rng: &mut Rng) -> usize {
        let u = rng.uniform(); // (0, 1]

        // A checkpoint's vocabulary: only the tokens the settings can keep are ordered (likeliest.rs),
        // the same probabilities. Left out of the wasm builds that only draw TinyGPT's characters.
        #[cfg(any(feature = "checkpoint-facade", not(target_arch = "wasm32")))]
        if logits.len() > SMALL_VOCABULARY {
            if let Some(probs) = self.sampled_among_few(logits) {
                return pick(&probs, u);
            }
        }
        pick(&self.after_settings(logits).sampled, u)
    }

    /// after_settings' `sampled` without ordering the whole vocabulary: every token's tempered
    /// probability where all are kept, else the k likeliest's (likeliest.rs, one pass); None where more than
    /// `FEW` and fewer than all are kept (top-p then needs the whole order).
    #[cfg(any(feature = "checkpoint-facade", not(target_arch = "wasm32")))]
    fn sampled_among_few(&self, logits: &[f32]) -> Option<Vec<f64>> {
        let (v, k) = (logits.len(), self.top_count(logits.len()));
        if k == v && self.top_p >= 1.0 {
            return Some(softmax(logits, self.temperature));
        }
        if k > FEW {
            return None;
        }
        // The k likeliest's tempered probabilities (temperature 0: all on the likeliest), top-p's
        // share of them, renormalised over those kept summed in id order, as after_settings does.
        let top = likeliest(logits, k);
        let tempered: Vec<f64> = if self.temperature == 0.0 {
            (0..k).map(|rank| if rank == 0 { 1.0 } else { 0.0 }).collect()
        } else {
            let all = softmax(logits, self.temperature);
            top.iter().map(|&id| all[id]).collect()
        };
        let mut kept: Vec<(usize, f64)> =
            top.into_iter().zip(tempered.iter().copied()).take(self.nucleus(&tempered)).collect();
        kept.sort_unstable_by_key(|&(id, _)| id);
        let total: f64 = kept.iter().map(|&(_, p)| p).sum();
        let mut sampled = vec![0.0; v];
        for (id, p) in kept {
            sampled[id] = p / total;
        }
        Some(sampled)
    }
}

/// The id `u` (0, 1] falls on, walking the probabilities after the settings [V] in id order.
fn pick(probs: &[f64], mut u: f64) -> usize {
    let mut next = probs.len() - 1;
    for (i, &q) in probs.iter().enumerate() {
        if q > 0.0 && u <= q {
            next = i;
            break;
        }
        u -= q;
    }
    // Rounding can leave u a hair above the last kept probability: take the last kept character.
    if probs[next] == 0.0 {
        next = probs.iter().rposition(|&q| q > 0.0).unwrap_or(next);
    }
    next
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOGITS: [f32; 6] = [1.0, 3.0, 2.0, 3.0, -1.0, 0.5];

    #[test]
    fn a_large_vocabulary_is_ordered_as_the_small_one_is() {
        // 1,000 logits with ties (a quarter repeat another): the likeliest first, ties by id, as the
        // insertion sort orders TinyGPT's characters.
        let mut rng = Rng::new(7);
        let logits: Vec<f32> = (0..1000)
            .map(|i| if i % 4 == 3 { (i / 8) as f32 * 0.01 } else { (rng.uniform() * 8.0 - 4.0) as f32 })
            .collect();
        let d = Sampling::new(1.0, Some(5), None, logits.len()).unwrap().distribution(&logits);
        let mut want: Vec<usize> = (0..logits.len()).collect();
        sort_small_by(&mut want, |&a, &b| logits[a] > logits[b] || (logits[a] == logits[b] && a < b));
        assert_eq!(d.order, want);
        assert_eq!(d.kept_count, 5);
        assert!(d.order[..5].iter().all(|&id| d.kept[id]));
    }

    #[test]
    #[cfg(any(feature = "checkpoint-facade", not(target_arch = "wasm32")))]
    fn the_probabilities_among_few_are_those_after_the_whole_order() {
        // Every setting, on vocabularies above TinyGPT's (where draw takes the k likeliest alone),
        // against the probabilities after the whole order, to the bit; logits with ties (every fifth
        // repeats a coarse value) and a few far ahead.
        for (v, seed) in [(257, 4), (3000, 5), (50_257, 6)] {
            let mut rng = Rng::new(seed);
            let z: Vec<f32> = (0..v)
                .map(|i| match i % 5 {
                    4 => ((i / 40) % 7) as f32 * 0.5,
                    _ if i % 997 == 3 => 9.0 + rng.uniform() as f32,
                    _ => (rng.uniform() * 8.0 - 4.0) as f32,
                })
                .collect();
            let bits = |p: &[f64]| p.iter().map(|q| q.to_bits()).collect::<Vec<_>>();
            for temperature in [0.0, 0.3, 1.0, 2.5, 10.0] {
                for top_k in [Some(1), Some(2), Some(40), Some(256), Some(257), None] {
                    for top_p in [None, Some(0.9), Some(0.5), Some(1e-9)] {
                        let s = Sampling::new(temperature, top_k.map(|k: usize| k.min(v)), top_p, v).unwrap();
                        match s.sampled_among_few(&z) {
                            Some(p) => assert!(bits(&p) == bits(&s.after_settings(&z).sampled), "V {v}, {s:?}"),
                            None => {
                                assert!(s.top_k > FEW && (s.top_k < v || s.top_p < 1.0) && temperature > 0.0, "{s:?}")
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn top_k_keeps_the_likeliest_and_top_p_the_fewest_that_reach_p() {
        let s = Sampling::new(1.0, Some(2), None, 6).unwrap();
        let d = s.distribution(&LOGITS);
        assert_eq!(d.kept, [false, true, false, true, false, false]);
        assert!((d.sampled[1] - 0.5).abs() < 1e-12 && (d.sampled.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        // p = 0.5: the two tied at 3 hold 0.67 of the mass; the first of them alone 0.33 < 0.5.
        let d = Sampling::new(1.0, None, Some(0.5), 6).unwrap().distribution(&LOGITS);
        assert_eq!(d.kept_count, 2);
        let d = Sampling::new(1.0, None, Some(0.3), 6).unwrap().distribution(&LOGITS);
        assert_eq!(d.kept, [false, true, false, false, false, false], "ties: the lower id first");
        // Ten equally likely characters and p = 0.8 keep eight, though the running sum of tenths falls
        // just short of 0.8 at the eighth.
        let even = Sampling::new(1.0, None, Some(0.8), 10).unwrap().distribution(&[0.5; 10]);
        assert_eq!(even.kept_count, 8);
        let all = Sampling::new(0.7, Some(6), Some(1.0), 6).unwrap().distribution(&LOGITS);
        assert_eq!((all.kept_count, &all.sampled), (6, &all.tempered));
    }

    #[test]
    fn top_k_one_is_greedy_and_top_k_v_with_top_p_one_is_plain_temperature() {
        let v = LOGITS.len();
        for seed in 0..50 {
            let (mut a, mut b) = (Rng::new(seed), Rng::new(seed));
            let greedy = Sampling::temperature(0.0, v).unwrap();
            let k1 = Sampling::new(2.5, Some(1), Some(0.9), v).unwrap();
            let first = greedy.draw(&LOGITS, &mut a);
            assert_eq!((first, k1.draw(&LOGITS, &mut b)), (1, 1));
            let plain = Sampling::temperature(1.3, v).unwrap();
            let all = Sampling::new(1.3, Some(v), Some(1.0), v).unwrap();
            assert_eq!(plain.draw(&LOGITS, &mut a), all.draw(&LOGITS, &mut b));
        }
    }

    #[test]
    fn bad_settings_say_what_is_allowed() {
        let e = |t, k, p| Sampling::new(t, k, p, 50).unwrap_err().to_string();
        assert!(e(f64::NAN, None, None).starts_with("temperature NaN is out of range: give 0"));
        assert!(e(-1.0, None, None).starts_with("temperature -1 is out of range"));
        assert!(e(f64::INFINITY, None, None).starts_with("temperature inf is out of range"));
        assert_eq!(
            e(1.0, Some(0), None),
            "top-k 0 is out of range: keep from 1 (the likeliest only) up to 50 (every character) of the likeliest"
        );
        assert!(e(1.0, Some(51), None).starts_with("top-k 51 is out of range"));
        for p in [0.0, -0.5, 1.5, f64::NAN] {
            assert!(e(1.0, None, Some(p)).starts_with("top-p "), "{p}");
        }
    }
}
