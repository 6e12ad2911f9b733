//! One block's weight matrices as the products read them ([`StoredMatrix`]): in place in the mapped
//! file when the source holds its bytes (no copy of the block at all: the bf16 products read any
//! dtype, faer's f32 product an f32 file's), else the f32 copies in [`BlockWeights`]. GPT-2's Conv1D
//! [in, out] is read transposed, its fused c_attn a third at a time (or as rows, where the source
//! holds it flipped to [out, in]: the page's).

use super::super::decoder_shape::Layout;
use super::block_weights::{BlockWeights, Names, WeightSource};
use crate::error::Result;
use tb_kernels::product::{Stored, StoredMatrix};

/// A block's matrices, each w [outputs, inputs].
pub(super) struct Matrices<'a> {
    pub q: StoredMatrix<'a>,
    pub k: StoredMatrix<'a>,
    pub v: StoredMatrix<'a>,
    pub out: StoredMatrix<'a>,
    /// SwiGLU's gate (None for GPT-2).
    pub gate: Option<StoredMatrix<'a>>,
    pub up: StoredMatrix<'a>,
    pub down: StoredMatrix<'a>,
}

/// GPT-2's Conv1D [inputs, stride] as w [outputs, inputs], its columns from `offset`.
fn conv1d(data: Stored, outputs: usize, inputs: usize, stride: usize, offset: usize) -> StoredMatrix {
    StoredMatrix { data, outputs, inputs, offset, n_stride: 1, k_stride: stride }
}

/// f32 bytes as the f32 they are, in place, where they are aligned (and the machine little-endian,
/// as safetensors stores them), so faer reads them; other numbers as they are.
pub(super) fn as_f32(data: Stored) -> Stored {
    if let Stored::F32Bytes(bytes) = data {
        // SAFETY: every bit pattern is an f32; align_to hands back only an aligned middle.
        let (head, floats, tail) = unsafe { bytes.align_to::<f32>() };
        if head.is_empty() && tail.is_empty() && cfg!(target_endian = "little") {
            return Stored::F32(floats);
        }
    }
    data
}

impl<'a> Matrices<'a> {
    /// Block i's matrices in the file `weights` maps, or None when it holds no bytes in place.
    pub fn in_place(i: usize, names: &Names, weights: &'a impl WeightSource) -> Result<Option<Matrices<'a>>> {
        let s = names.shape;
        let (d, f, qw, kw) = (s.d_model, s.d_ff, s.q_width(), s.kv_width());
        let stored = |part: &str, shape: &[usize]| Ok(weights.stored(&names.block(i, part), shape)?.map(as_f32));
        Ok(Some(match s.layout {
            Layout::Gpt2 => {
                let Some(c_attn) = stored("attn.c_attn.weight", &[d, 3 * d])? else { return Ok(None) };
                let Some(c_proj) = stored("attn.c_proj.weight", &[d, d])? else { return Ok(None) };
                let Some(c_fc) = stored("mlp.c_fc.weight", &[d, f])? else { return Ok(None) };
                let Some(down) = stored("mlp.c_proj.weight", &[f, d])? else { return Ok(None) };
                if weights.conv1d_as_linear() {
                    // Held flipped to [out, in]: c_attn's rows are q's outputs, then k's, then v's.
                    let rows = |data, outputs, inputs, offset| StoredMatrix {
                        offset,
                        ..StoredMatrix::rows(data, outputs, inputs)
                    };
                    Matrices {
                        q: rows(c_attn, d, d, 0),
                        k: rows(c_attn, d, d, d * d),
                        v: rows(c_attn, d, d, 2 * d * d),
                        out: rows(c_proj, d, d, 0),
                        gate: None,
                        up: rows(c_fc, f, d, 0),
                        down: rows(down, d, f, 0),
                    }
                } else {
                    Matrices {
                        q: conv1d(c_attn, d, d, 3 * d, 0),
                        k: conv1d(c_attn, d, d, 3 * d, d),
                        v: conv1d(c_attn, d, d, 3 * d, 2 * d),
                        out: conv1d(c_proj, d, d, d, 0),
                        gate: None,
                        up: conv1d(c_fc, f, d, f, 0),
                        down: conv1d(down, d, f, d, 0),
                    }
                }
            }
            Layout::Llama => {
                let read = |part: &str, outputs: usize, inputs: usize| -> Result<Option<StoredMatrix<'a>>> {
                    let data = stored(&format!("{part}.weight"), &[outputs, inputs])?;
                    Ok(data.map(|data| StoredMatrix::rows(data, outputs, inputs)))
                };
                let (Some(q), Some(k), Some(v), Some(out), Some(gate), Some(up), Some(down)) = (
                    read("self_attn.q_proj", qw, d)?,
                    read("self_attn.k_proj", kw, d)?,
                    read("self_attn.v_proj", kw, d)?,
                    read("self_attn.o_proj", d, qw)?,
                    read("mlp.gate_proj", f, d)?,
                    read("mlp.up_proj", f, d)?,
                    read("mlp.down_proj", d, f)?,
                ) else {
                    return Ok(None);
                };
                Matrices { q, k, v, out, gate: Some(gate), up, down }
            }
        }))
    }

    /// Whether every matrix is f32 in memory, which faer reads in place.
    pub fn all_f32(&self) -> bool {
        [&self.q, &self.k, &self.v, &self.out, &self.up, &self.down]
            .into_iter()
            .chain(&self.gate)
            .all(|m| matches!(m.data, Stored::F32(_)))
    }

    /// The f32 copies of `block` (loaded whole), every matrix already [outputs, inputs].
    pub fn copied(block: &'a BlockWeights, names: &Names) -> Matrices<'a> {
        let s = names.shape;
        let (d, f, qw, kw) = (s.d_model, s.d_ff, s.q_width(), s.kv_width());
        let rows = |w: &'a [f32], outputs, inputs| StoredMatrix::rows(Stored::F32(w), outputs, inputs);
        Matrices {
            q: rows(&block.q, qw, d),
            k: rows(&block.k, kw, d),
            v: rows(&block.v, kw, d),
            out: rows(&block.out, d, qw),
            gate: (s.layout == Layout::Llama).then(|| rows(&block.gate, f, d)),
            up: rows(&block.up, f, d),
            down: rows(&block.down, d, f),
        }
    }
}
