//! Seeded random numbers for GPT-2's initialisation: weights ~ N(0, 0.02²), biases 0, gains 1.
//!
//! SplitMix64 and the Box–Muller transform, written here so the same seed gives the same weights
//! in every build, native or WebAssembly, whatever version of a random-number crate is around.

/// The standard deviation GPT-2 draws its weights with.
pub const INIT_STD: f32 = 0.02;

/// SplitMix64: a 64-bit state advanced by a constant and mixed (Steele, Lea and Flood, 2014).
#[derive(Debug, Clone)]
pub struct Rng {
    state: u64,
}

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng { state: seed }
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in (0, 1]: 53 random bits, never 0 (Box–Muller takes its logarithm).
    pub fn uniform(&mut self) -> f64 {
        ((self.next_u64() >> 11) + 1) as f64 / (1u64 << 53) as f64
    }

    /// One draw from N(0, 1), by Box–Muller (using one of the pair).
    pub fn standard_normal(&mut self) -> f64 {
        let (u1, u2) = (self.uniform(), self.uniform());
        (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
    }

    /// `n` draws from N(0, std²), as f32.
    pub fn normal_vec(&mut self, n: usize, std: f32) -> Vec<f32> {
        (0..n).map(|_| (self.standard_normal() * std as f64) as f32).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_numbers_other_seed_other_numbers() {
        let a = Rng::new(7).normal_vec(100, 0.02);
        assert_eq!(a, Rng::new(7).normal_vec(100, 0.02));
        assert_ne!(a, Rng::new(8).normal_vec(100, 0.02));
    }

    #[test]
    fn draws_have_the_asked_spread() {
        let xs = Rng::new(1).normal_vec(100_000, 0.02);
        let mean = xs.iter().map(|&x| x as f64).sum::<f64>() / xs.len() as f64;
        let var = xs.iter().map(|&x| (x as f64 - mean).powi(2)).sum::<f64>() / xs.len() as f64;
        assert!(mean.abs() < 3e-4, "mean {mean}");
        assert!((var.sqrt() - 0.02).abs() < 3e-4, "std {}", var.sqrt());
    }
}
