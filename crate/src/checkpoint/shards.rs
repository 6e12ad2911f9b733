//! A checkpoint's tensors as the Hugging Face hub stores them: one `model.safetensors`, or shards
//! named by `model.safetensors.index.json` ({"weight_map": {tensor: file}}). One reader over two
//! sources of bytes: natively each file is memory-mapped (memmap2), never read whole, so only the
//! pages a forward pass touches are loaded ([`Shards::open`]); in the page the shards are buffers a
//! worker streamed in ([`Shards::from_buffers`]). Tensors stored as f32, f16 or bf16 are read as
//! f32, or in place by the products.

use std::collections::HashMap;
use std::ops::Range;
#[cfg(not(target_arch = "wasm32"))]
use std::path::{Path, PathBuf};

use safetensors::tensor::{Dtype, Metadata, SafeTensors};

use crate::error::{clip_to, Error, Result};
use crate::nn::decoder::WeightSource;
use crate::nn::transpose::transpose_tiled;
use tb_kernels::product::Stored;

/// A safetensors file's bytes: mapped from disk, or held in memory.
enum Bytes {
    #[cfg(not(target_arch = "wasm32"))]
    Mapped(memmap2::Mmap),
    Held(Vec<u8>),
}

impl Bytes {
    /// The bytes, writable, where they are held in memory (a map is read-only).
    fn held_mut(&mut self) -> Option<&mut Vec<u8>> {
        match self {
            #[cfg(not(target_arch = "wasm32"))]
            Bytes::Mapped(_) => None,
            Bytes::Held(bytes) => Some(bytes),
        }
    }

    fn as_slice(&self) -> &[u8] {
        match self {
            #[cfg(not(target_arch = "wasm32"))]
            Bytes::Mapped(map) => map,
            Bytes::Held(bytes) => bytes,
        }
    }
}

/// One safetensors file and its header.
struct Shard {
    /// Its file name, for messages.
    file: String,
    bytes: Bytes,
    /// Where the tensors' bytes begin (8 + the header's length).
    data_start: usize,
    metadata: Metadata,
}

/// Every tensor of a checkpoint, by name, wherever it is stored.
pub struct Shards {
    shards: Vec<Shard>,
    /// Tensor name -> index into `shards`.
    place: HashMap<String, usize>,
    /// Whether GPT-2's Conv1D weights are held flipped to nn.Linear's [out, in] ([`Shards::flip_conv1d`]).
    conv1d_flipped: bool,
}

#[cfg(not(target_arch = "wasm32"))]
fn shown(path: &Path) -> String {
    path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned())
}

/// A shard named `file` over `bytes`, its header read (and checked: offsets inside the file, in
/// order, not overlapping; safetensors' own validation).
fn shard(file: String, bytes: Bytes) -> Result<Shard> {
    let (header, metadata) = SafeTensors::read_metadata(bytes.as_slice()).map_err(|e| {
        Error::parse(file.clone(), format!("it is not a valid safetensors file ({})", clip_to(&e.to_string(), 120)))
    })?;
    Ok(Shard { file, bytes, data_start: 8 + header, metadata })
}

#[cfg(not(target_arch = "wasm32"))]
fn map_shard(path: &Path) -> Result<Shard> {
    let file = std::fs::File::open(path).map_err(|e| Error::parse(shown(path), format!("cannot be opened ({e})")))?;
    // SAFETY: the map is read-only; a checkpoint changed on disk while it is read gives wrong
    // numbers (as it would for any reader), not undefined behaviour in safe code that copies from it.
    let map = unsafe { memmap2::Mmap::map(&file) }
        .map_err(|e| Error::parse(shown(path), format!("cannot be mapped ({e})")))?;
    shard(shown(path), Bytes::Mapped(map))
}

/// The shard files `model.safetensors.index.json` (read as `text`) names, each once, sorted: refused
/// unless its "weight_map" names a plain file name for every tensor.
pub fn index_files(text: &str) -> Result<Vec<String>> {
    const INDEX: &str = "model.safetensors.index.json";
    let json: serde_json::Value =
        serde_json::from_str(text).map_err(|e| Error::parse(INDEX, clip_to(&e.to_string(), 120)))?;
    let map = json
        .get("weight_map")
        .and_then(|m| m.as_object())
        .ok_or_else(|| Error::parse(INDEX, "it has no \"weight_map\" object of tensor names to shard files"))?;
    let mut files: Vec<String> = Vec::new();
    for (tensor, file) in map {
        let file =
            file.as_str().ok_or_else(|| Error::field(format!("weight_map.{tensor}"), "must name a shard file"))?;
        if file.contains('/') || file.contains('\\') || file.starts_with('.') {
            return Err(Error::field(
                format!("weight_map.{tensor}"),
                format!("\"{}\": a shard is a file name in the checkpoint's directory", clip_to(file, 60)),
            ));
        }
        if !files.iter().any(|f| f == file) {
            files.push(file.to_string());
        }
    }
    files.sort();
    Ok(files)
}

/// What `model.safetensors.index.json` (read as `text`) gives as its tensors' total bytes
/// ("metadata": {"total_size": n}), if it says.
pub fn index_total_size(text: &str) -> Option<u64> {
    let json: serde_json::Value = serde_json::from_str(text).ok()?;
    json.get("metadata")?.get("total_size")?.as_u64()
}

impl Shards {
    /// The tensors of shard files held in memory, each (its file name, its bytes): what a page's
    /// worker streamed in. The same checks as [`Shards::open`]'s, on every target.
    pub fn from_buffers(files: Vec<(String, Vec<u8>)>) -> Result<Shards> {
        let shards = files.into_iter().map(|(file, bytes)| shard(file, Bytes::Held(bytes))).collect::<Result<_>>()?;
        Ok(Shards::placed(shards))
    }

    /// Each tensor's shard, by name.
    fn placed(shards: Vec<Shard>) -> Shards {
        let mut place = HashMap::new();
        for (i, shard) in shards.iter().enumerate() {
            for name in shard.metadata.tensors().keys() {
                place.insert(name.clone(), i);
            }
        }
        Shards { shards, place, conv1d_flipped: false }
    }

    /// Turns each of `tensors` (name, rows, cols: GPT-2's Conv1D weights, stored [in, out]) into
    /// nn.Linear's [out, in] in place, once, where the shards are held in memory (the page's): the
    /// products then read their rows as they lie, rather than gathering a transposed panel in every
    /// forward pass (a third of a GPT-2 forward's time in wasm). One tensor's bytes are copied at a
    /// time. Mapped files (read-only) are left as they are: false, and nothing changes.
    pub fn flip_conv1d(&mut self, tensors: &[(String, usize, usize)]) -> Result<bool> {
        if self.conv1d_flipped || !self.shards.iter_mut().all(|s| s.bytes.held_mut().is_some()) {
            return Ok(self.conv1d_flipped);
        }
        // Every tensor checked before any is changed: all flipped, or none.
        let mut regions = Vec::with_capacity(tensors.len());
        for (name, rows, cols) in tensors {
            let (dtype, bytes) = self.bytes(name, &[*rows, *cols])?;
            let shard = self.place[name.as_str()];
            let start = bytes.as_ptr() as usize - self.shards[shard].bytes.as_slice().as_ptr() as usize;
            let width = if dtype == Dtype::F32 { 4 } else { 2 };
            regions.push((shard, start..start + bytes.len(), *rows, *cols, width));
        }
        let mut copy = Vec::new();
        for (shard, range, rows, cols, width) in regions {
            let held = self.shards[shard].bytes.held_mut().expect("every shard is held (checked above)");
            let region = &mut held[range];
            copy.clear();
            copy.extend_from_slice(region);
            transpose_bytes(region, &copy, rows, cols, width);
        }
        self.conv1d_flipped = true;
        Ok(true)
    }

    /// The tensors of the checkpoint directory `dir`: its index and the shards it names, or its one
    /// `model.safetensors`, each memory-mapped.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn open(dir: &Path) -> Result<Shards> {
        let index = dir.join("model.safetensors.index.json");
        let files: Vec<PathBuf> = if index.exists() {
            let text = std::fs::read_to_string(&index)
                .map_err(|e| Error::parse(shown(&index), format!("cannot be read ({e})")))?;
            let paths: Vec<PathBuf> = index_files(&text)?.iter().map(|f| dir.join(f)).collect();
            if let Some(missing) = paths.iter().find(|p| !p.exists()) {
                return Err(Error::parse(
                    shown(&index),
                    format!("it names the shard {}, which is not in {}", shown(missing), dir.display()),
                ));
            }
            paths
        } else {
            let single = dir.join("model.safetensors");
            if !single.exists() {
                return Err(Error::parse(
                    dir.display().to_string(),
                    "it has neither model.safetensors nor model.safetensors.index.json",
                ));
            }
            vec![single]
        };
        let shards = files.iter().map(|f| map_shard(f)).collect::<Result<Vec<_>>>()?;
        Ok(Shards::placed(shards))
    }

    /// Every tensor's name.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.place.keys().map(String::as_str)
    }

    /// Bytes of every shard (mapped or held).
    pub fn mapped_bytes(&self) -> u64 {
        self.shards.iter().map(|s| s.bytes.as_slice().len() as u64).sum()
    }

    /// The numbers stored in every tensor (each counted once, a tied head too).
    pub fn stored_numbers(&self) -> u64 {
        self.shards
            .iter()
            .flat_map(|s| s.metadata.tensors().into_values().map(|t| t.shape.iter().product::<usize>() as u64))
            .sum()
    }

    /// The shape of tensor `name`, if the checkpoint has it.
    pub fn shape(&self, name: &str) -> Option<Vec<usize>> {
        let shard = &self.shards[*self.place.get(name)?];
        shard.metadata.info(name).map(|t| t.shape.clone())
    }

    /// Tensor `name`'s dtype and bytes, checked to have `shape` and a dtype that is read.
    fn bytes(&self, name: &str, shape: &[usize]) -> Result<(Dtype, &[u8])> {
        let shard = self
            .place
            .get(name)
            .map(|&i| &self.shards[i])
            .ok_or_else(|| Error::weights(name, "is missing from the checkpoint (the config implies it)"))?;
        let info = shard.metadata.info(name).expect("a placed tensor is in its shard's header");
        if info.shape != shape {
            return Err(Error::weights(
                name,
                format!("has shape {:?} but the config implies {:?} ({})", info.shape, shape, shard.file),
            ));
        }
        let width = match info.dtype {
            Dtype::F32 => 4,
            Dtype::F16 | Dtype::BF16 => 2,
            other => {
                return Err(Error::weights(name, format!("is stored as {other:?}: f32, f16 and bf16 are read")));
            }
        };
        let (start, end) = info.data_offsets;
        let bytes = shard
            .bytes
            .as_slice()
            .get(shard.data_start + start..shard.data_start + end)
            .filter(|b| b.len() == shape.iter().product::<usize>() * width)
            .ok_or_else(|| Error::weights(name, format!("its bytes lie outside {}", shard.file)))?;
        Ok((info.dtype, bytes))
    }

    /// Elements `range` (in row-major order) of tensor `name`, checked to have `shape`, as f32.
    fn read_range(&self, name: &str, shape: &[usize], range: Range<usize>, out: &mut Vec<f32>) -> Result<()> {
        let (dtype, bytes) = self.bytes(name, shape)?;
        let width = if dtype == Dtype::F32 { 4 } else { 2 };
        let bytes = &bytes[range.start * width..range.end * width];
        out.clear();
        out.resize(range.len(), 0.0);
        // On this thread: widened over rayon's threads, the mapped pages came slower (9.7 s against
        // 10.9 s for a 1,024-token window of the 0.5 B bf16 checkpoint, 2 threads).
        widen(dtype, bytes, out);
        Ok(())
    }

    /// The dtype most of the stored numbers have ("bf16", "f16", "f32").
    pub fn dtype(&self) -> String {
        let mut by: HashMap<String, u64> = HashMap::new();
        for s in &self.shards {
            for t in s.metadata.tensors().into_values() {
                *by.entry(format!("{:?}", t.dtype).to_lowercase()).or_default() +=
                    t.shape.iter().product::<usize>() as u64;
            }
        }
        by.into_iter().max_by_key(|(_, n)| *n).map(|(d, _)| d).unwrap_or_default()
    }
}

impl WeightSource for Shards {
    fn contains(&self, name: &str) -> bool {
        self.place.contains_key(name)
    }

    fn read(&self, name: &str, shape: &[usize], out: &mut Vec<f32>) -> Result<()> {
        self.read_range(name, shape, 0..shape.iter().product(), out)
    }

    fn read_rows(&self, name: &str, n_rows: usize, cols: usize, rows: Range<usize>, out: &mut Vec<f32>) -> Result<()> {
        if rows.end > n_rows {
            return Err(Error::weights(name, format!("has {n_rows} rows; row {} was asked for", rows.end - 1)));
        }
        self.read_range(name, &[n_rows, cols], rows.start * cols..rows.end * cols, out)
    }

    fn conv1d_as_linear(&self) -> bool {
        self.conv1d_flipped
    }

    fn stored(&self, name: &str, shape: &[usize]) -> Result<Option<Stored<'_>>> {
        let (dtype, bytes) = self.bytes(name, shape)?;
        Ok(Some(match dtype {
            Dtype::BF16 => Stored::Bf16(bytes),
            Dtype::F16 => Stored::F16(bytes),
            _ => Stored::F32Bytes(bytes),
        }))
    }
}

/// from [rows, cols] of numbers `width` bytes wide (4 or 2) -> to [cols, rows], each number moved whole.
fn transpose_bytes(to: &mut [u8], from: &[u8], rows: usize, cols: usize, width: usize) {
    fn numbers<const W: usize>(to: &mut [u8], from: &[u8], rows: usize, cols: usize) {
        transpose_tiled(to.as_chunks_mut::<W>().0, from.as_chunks::<W>().0, rows, cols);
    }
    if width == 4 {
        numbers::<4>(to, from, rows, cols);
    } else {
        numbers::<2>(to, from, rows, cols);
    }
}

/// Little-endian f32, f16 or bf16 `bytes` as f32 into `out` (as many as there are numbers).
fn widen(dtype: Dtype, bytes: &[u8], out: &mut [f32]) {
    // bf16 is f32's top half: its bits shifted up (half's to_f32 too, but for a NaN's quiet bit).
    match dtype {
        Dtype::F32 => out
            .iter_mut()
            .zip(bytes.chunks_exact(4))
            .for_each(|(o, b)| *o = f32::from_le_bytes([b[0], b[1], b[2], b[3]])),
        Dtype::F16 => out
            .iter_mut()
            .zip(bytes.chunks_exact(2))
            .for_each(|(o, b)| *o = half::f16::from_le_bytes([b[0], b[1]]).to_f32()),
        _ => out
            .iter_mut()
            .zip(bytes.chunks_exact(2))
            .for_each(|(o, b)| *o = f32::from_bits(u32::from(u16::from_le_bytes([b[0], b[1]])) << 16)),
    }
}

#[cfg(test)]
mod tests {
    use super::transpose_bytes;

    #[test]
    fn numbers_are_transposed_whole_on_shapes_that_are_not_whole_tiles() {
        for width in [2, 4] {
            for (rows, cols) in [(1, 1), (1, 70), (37, 1), (37, 70), (64, 32), (33, 65)] {
                let from: Vec<u8> = (0..rows * cols * width).map(|i| (i * 7 + i / 251) as u8).collect();
                let mut to = vec![0u8; from.len()];
                transpose_bytes(&mut to, &from, rows, cols, width);
                for r in 0..rows {
                    for c in 0..cols {
                        let (f, t) = ((r * cols + c) * width, (c * rows + r) * width);
                        assert_eq!(to[t..t + width], from[f..f + width], "{rows} x {cols}, width {width}: ({r}, {c})");
                    }
                }
            }
        }
    }
}
