//! Rotary positions (RoPE), as Llama, Mistral and Qwen2 use them: no table is added to the stream;
//! inside attention each query and key head is rotated by an angle that grows with its position, so
//! a score depends on how far apart two tokens are. Pairs are (j, j + d_head/2) (transformers'
//! `rotate_half`), pair j turning at the frequency θ^(−2j/d_head), θ the config's `rope_theta`.
//!
//! The frequencies may be rescaled as the config says: `linear` (every frequency divided by the
//! factor) or `llama3` (Llama 3.1: long wavelengths divided by the factor, short ones kept, a smooth
//! blend between). Other schemes (dynamic NTK, YaRN, ...) are refused with a message.

use std::f64::consts::PI;

use serde_json::{Map, Value};

use crate::error::{Error, Result};

/// How the frequencies are rescaled.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum RopeScaling {
    None,
    /// Positions divided by `factor` (every frequency divided by it).
    Linear {
        factor: f64,
    },
    /// Llama 3.1's: wavelengths above original/low_freq_factor slowed by `factor`, below
    /// original/high_freq_factor kept, in between a linear blend in original/wavelength.
    Llama3 {
        factor: f64,
        low_freq_factor: f64,
        high_freq_factor: f64,
        original_context: f64,
    },
}

/// The rotation every head uses: one inverse frequency per pair, [d_head / 2].
#[derive(Debug, Clone, PartialEq)]
pub struct Rotary {
    pub theta: f64,
    pub scaling: RopeScaling,
    pub inv_freq: Vec<f64>,
}

fn number(map: &Map<String, Value>, key: &str, field: &str) -> Result<Option<f64>> {
    match map.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => match v.as_f64() {
            Some(x) if x.is_finite() && x > 0.0 => Ok(Some(x)),
            _ => Err(Error::field(format!("{field}.{key}"), format!("is {v}: a positive number is needed"))),
        },
    }
}

impl Rotary {
    /// The rotation a Hugging Face config.json describes for heads of width `head_dim`: transformers
    /// 5 writes `rope_parameters` {rope_theta, rope_type, ...}; earlier versions `rope_theta` and
    /// `rope_scaling` {rope_type or type, factor, ...} at the top level. `default_theta` when absent.
    pub fn from_config(json: &Map<String, Value>, head_dim: usize, default_theta: f64) -> Result<Rotary> {
        let (params, field) = match json.get("rope_parameters") {
            Some(Value::Object(p)) => (Some(p), "rope_parameters"),
            _ => match json.get("rope_scaling") {
                Some(Value::Object(p)) => (Some(p), "rope_scaling"),
                _ => (None, "rope_scaling"),
            },
        };
        let theta = match params.map(|p| number(p, "rope_theta", field)).transpose()?.flatten() {
            Some(t) => t,
            None => number(json, "rope_theta", "config")?.unwrap_or(default_theta),
        };
        let kind = params
            .and_then(|p| p.get("rope_type").or_else(|| p.get("type")))
            .and_then(Value::as_str)
            .unwrap_or("default");
        let need = |key: &str| -> Result<f64> {
            params.map(|p| number(p, key, field)).transpose()?.flatten().ok_or_else(|| {
                Error::field(format!("{field}.{key}"), format!("is missing: rope_type \"{kind}\" needs it"))
            })
        };
        let scaling = match kind {
            "default" => RopeScaling::None,
            "linear" => RopeScaling::Linear { factor: need("factor")? },
            "llama3" => RopeScaling::Llama3 {
                factor: need("factor")?,
                low_freq_factor: need("low_freq_factor")?,
                high_freq_factor: need("high_freq_factor")?,
                original_context: need("original_max_position_embeddings")?,
            },
            other => {
                return Err(Error::field(
                    format!("{field}.rope_type"),
                    format!(
                        "\"{}\" is not supported: rotary scaling may be default, linear or llama3",
                        crate::error::clip(other)
                    ),
                ))
            }
        };
        if let RopeScaling::Llama3 { low_freq_factor, high_freq_factor, .. } = scaling {
            if high_freq_factor <= low_freq_factor {
                return Err(Error::field(
                    format!("{field}.high_freq_factor"),
                    format!("is {high_freq_factor}: it must be larger than low_freq_factor ({low_freq_factor})"),
                ));
            }
        }
        Rotary::new(theta, scaling, head_dim)
    }

    /// The inverse frequencies θ^(−2j/d_head) for j < d_head/2, rescaled by `scaling`.
    pub fn new(theta: f64, scaling: RopeScaling, head_dim: usize) -> Result<Rotary> {
        if !head_dim.is_multiple_of(2) {
            return Err(Error::field(
                "head_dim",
                format!("is {head_dim}: rotary positions turn pairs, so it must be even"),
            ));
        }
        let base: Vec<f64> = (0..head_dim / 2).map(|j| 1.0 / theta.powf((2 * j) as f64 / head_dim as f64)).collect();
        let inv_freq = base
            .into_iter()
            .map(|f| match scaling {
                RopeScaling::None => f,
                RopeScaling::Linear { factor } => f / factor,
                RopeScaling::Llama3 { factor, low_freq_factor, high_freq_factor, original_context } => {
                    let wavelength = 2.0 * PI / f;
                    if wavelength < original_context / high_freq_factor {
                        f
                    } else if wavelength > original_context / low_freq_factor {
                        f / factor
                    } else {
                        let smooth =
                            (original_context / wavelength - low_freq_factor) / (high_freq_factor - low_freq_factor);
                        (1.0 - smooth) * f / factor + smooth * f
                    }
                }
            })
            .collect();
        Ok(Rotary { theta, scaling, inv_freq })
    }

    /// cos and sin of every pair's angle at positions 0..T, each [T, d_head/2].
    pub fn angles(&self, t_len: usize) -> (Vec<f32>, Vec<f32>) {
        self.angles_of(0..t_len)
    }

    /// cos and sin of every pair's angle at `positions` (a KV cache's new ones), each
    /// [positions.len(), d_head/2], row 0 the first position's.
    pub fn angles_of(&self, positions: std::ops::Range<usize>) -> (Vec<f32>, Vec<f32>) {
        let (half, n) = (self.inv_freq.len(), positions.len());
        let (mut cos, mut sin) = (Vec::with_capacity(n * half), Vec::with_capacity(n * half));
        for t in positions {
            for &f in &self.inv_freq {
                // transformers computes the angle in f32 (position times frequency), then its cos/sin.
                let angle = (t as f32 * f as f32) as f64;
                cos.push(angle.cos() as f32);
                sin.push(angle.sin() as f32);
            }
        }
        (cos, sin)
    }

    /// Rotate x [T, heads, d_head] in place by the angles of [`Rotary::angles`]: for each head and
    /// pair j, (a, b) = (x_j, x_{j+d_head/2}) becomes (a·cos − b·sin, b·cos + a·sin).
    pub fn rotate(x: &mut [f32], heads: usize, head_dim: usize, cos: &[f32], sin: &[f32]) {
        let (hd, half) = (head_dim, head_dim / 2);
        for (t, row) in x.chunks_exact_mut(heads * hd).enumerate() {
            let (c, s) = (&cos[t * half..(t + 1) * half], &sin[t * half..(t + 1) * half]);
            for head in row.chunks_exact_mut(hd) {
                let (lo, hi) = head.split_at_mut(half);
                for j in 0..half {
                    let (a, b) = (lo[j], hi[j]);
                    lo[j] = a * c[j] - b * s[j];
                    hi[j] = b * c[j] + a * s[j];
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(text: &str) -> Map<String, Value> {
        serde_json::from_str(text).unwrap()
    }

    #[test]
    fn frequencies_fall_from_one_by_powers_of_theta() {
        let r = Rotary::new(10_000.0, RopeScaling::None, 8).unwrap();
        assert_eq!(r.inv_freq.len(), 4);
        assert_eq!(r.inv_freq[0], 1.0);
        assert!((r.inv_freq[2] - 10_000f64.powf(-0.5)).abs() < 1e-15);
    }

    #[test]
    fn a_rotation_keeps_each_pairs_length_and_position_zero_is_untouched() {
        let r = Rotary::new(100.0, RopeScaling::None, 4).unwrap();
        let (cos, sin) = r.angles(3);
        let mut x: Vec<f32> = (0..3 * 4).map(|i| i as f32 - 5.0).collect();
        let before = x.clone();
        Rotary::rotate(&mut x, 1, 4, &cos, &sin);
        assert_eq!(x[..4], before[..4], "position 0 turns by 0");
        for t in 1..3 {
            let (a, b) = (&before[t * 4..], &x[t * 4..]);
            for j in 0..2 {
                let len = |v: &[f32]| (v[j] * v[j] + v[j + 2] * v[j + 2]).sqrt();
                assert!((len(a) - len(b)).abs() < 1e-5);
            }
        }
    }

    #[test]
    fn the_config_forms_of_transformers_four_and_five_are_both_read() {
        let five = config(
            r#"{"rope_parameters": {"rope_theta": 500000.0, "rope_type": "llama3", "factor": 8.0,
            "low_freq_factor": 1.0, "high_freq_factor": 4.0, "original_max_position_embeddings": 8192}}"#,
        );
        let four = config(
            r#"{"rope_theta": 500000.0, "rope_scaling": {"rope_type": "llama3", "factor": 8.0,
            "low_freq_factor": 1.0, "high_freq_factor": 4.0, "original_max_position_embeddings": 8192}}"#,
        );
        let (a, b) = (Rotary::from_config(&five, 128, 1e4).unwrap(), Rotary::from_config(&four, 128, 1e4).unwrap());
        assert_eq!(a, b);
        assert_eq!(a.theta, 500000.0);
        // The fastest pairs keep their frequency, the slowest are divided by the factor.
        let plain = Rotary::new(500000.0, RopeScaling::None, 128).unwrap();
        assert_eq!(a.inv_freq[0], plain.inv_freq[0]);
        assert!((a.inv_freq[63] - plain.inv_freq[63] / 8.0).abs() < 1e-18);
        assert_eq!(Rotary::from_config(&config("{}"), 64, 1e4).unwrap().theta, 1e4);
    }

    #[test]
    fn an_unknown_scheme_or_a_missing_factor_is_named() {
        let yarn = config(r#"{"rope_scaling": {"type": "yarn", "factor": 4.0}}"#);
        assert_eq!(
            Rotary::from_config(&yarn, 64, 1e4).unwrap_err().to_string(),
            "rope_scaling.rope_type: \"yarn\" is not supported: rotary scaling may be default, linear or llama3"
        );
        let linear = config(r#"{"rope_parameters": {"rope_type": "linear"}}"#);
        assert_eq!(
            Rotary::from_config(&linear, 64, 1e4).unwrap_err().to_string(),
            "rope_parameters.factor: is missing: rope_type \"linear\" needs it"
        );
        assert!(Rotary::new(1e4, RopeScaling::None, 7).is_err());
    }
}
