//! LayerNorm's flat pair (row-major [N, d], outputs first): each row minus its mean, divided by its
//! spread, then a gain and a bias; and the gradients.

/// x̂ = (x − μ)·r: one number of a row normalised (mean 0, spread 1), before the gain and bias.
#[inline(always)]
pub fn normalized(x: f32, mean: f32, rstd: f32) -> f32 {
    (x - mean) * rstd
}

/// out [N, d] = γ ⊙ (x − μ)·r + β for each row x of inp [N, d], where μ is the row's mean and
/// r = 1/√(σ² + ε) (σ² the row's variance). Keeps μ [N] and r [N] for the backward pass.
#[allow(clippy::too_many_arguments)]
pub fn layernorm_forward(
    out: &mut [f32],
    mean: &mut [f32],
    rstd: &mut [f32],
    inp: &[f32],
    gain: &[f32],
    bias: &[f32],
    d: usize,
    eps: f32,
) {
    let rows = out.chunks_exact_mut(d).zip(inp.chunks_exact(d)).zip(mean.iter_mut().zip(rstd.iter_mut()));
    for ((y, x), (m, r)) in rows {
        let mu = x.iter().sum::<f32>() / d as f32;
        let var = x.iter().map(|v| (v - mu) * (v - mu)).sum::<f32>() / d as f32;
        let s = 1.0 / (var + eps).sqrt();
        for (j, (y, v)) in y.iter_mut().zip(x).enumerate() {
            *y = gain[j] * normalized(*v, mu, s) + bias[j];
        }
        (*m, *r) = (mu, s);
    }
}

/// The gradients of [`layernorm_forward`], accumulated (+=). With x̂ = (x − μ)·r and g = γ ⊙ dout:
///
///   dβ += dout   dγ += x̂ ⊙ dout   dx += r · (g − mean(g) − x̂ · mean(g ⊙ x̂))
///
/// dout, inp [N, d]   mean, rstd [N] from the forward pass   gain [d]
#[allow(clippy::too_many_arguments)]
pub fn layernorm_backward(
    dinp: &mut [f32],
    dgain: &mut [f32],
    dbias: &mut [f32],
    dout: &[f32],
    inp: &[f32],
    mean: &[f32],
    rstd: &[f32],
    gain: &[f32],
    d: usize,
) {
    let rows = dinp.chunks_exact_mut(d).zip(dout.chunks_exact(d)).zip(inp.chunks_exact(d));
    for (((dx, g), x), (&mu, &s)) in rows.zip(mean.iter().zip(rstd)) {
        let (mut g_mean, mut g_xhat_mean) = (0.0f32, 0.0f32);
        for j in 0..d {
            let xhat = normalized(x[j], mu, s);
            let gj = gain[j] * g[j];
            g_mean += gj;
            g_xhat_mean += gj * xhat;
        }
        g_mean /= d as f32;
        g_xhat_mean /= d as f32;
        for j in 0..d {
            let xhat = normalized(x[j], mu, s);
            dbias[j] += g[j];
            dgain[j] += xhat * g[j];
            dx[j] += s * (gain[j] * g[j] - g_mean - xhat * g_xhat_mean);
        }
    }
}
