//! A checkpoint's shard files arriving in pieces, as the page's worker fetches them (or reads a
//! dropped file): each piece is appended to its file's buffer in wasm memory and dropped by
//! JavaScript, so the weights are held once. A file's whole size is reserved as soon as it is known
//! (the server's Content-Length, else the file's own header, read from its first bytes), so a buffer
//! never doubles on the way. What would pass [`CHECKPOINT_LIMIT`] is refused as it arrives.

use super::shards::Shards;
use crate::error::{Error, Result};
use crate::numbers::thousands;

/// The most bytes of weights a page holds: 2 GiB (wasm32's memory is at most 4 GiB, and one buffer
/// at most 2 GiB less a byte).
pub const CHECKPOINT_LIMIT: u64 = 2 << 30;

/// The most a safetensors header may take (the safetensors library's own limit).
const HEADER_LIMIT: u64 = 100_000_000;

/// `n` bytes as the messages write them ("988,097,824 bytes (942.3 MiB)").
fn bytes_shown(n: u64) -> String {
    format!("{} bytes ({:.1} MiB)", thousands(n), n as f64 / f64::from(1u32 << 20))
}

/// Refused unless `bytes` of weights fit in the page, naming the size, the limit and the command
/// that runs the checkpoint natively instead.
pub fn check_fits(bytes: u64) -> Result<()> {
    if bytes <= CHECKPOINT_LIMIT {
        return Ok(());
    }
    Err(Error::out_of_range(
        "checkpoint size",
        bytes_shown(bytes),
        format!(
            "at most {} in the page; run it natively instead: tblock inspect --weights <folder> --text \"...\"",
            bytes_shown(CHECKPOINT_LIMIT)
        ),
    ))
}

/// One file on its way: its name, the bytes so far, its size once known, and whether its header
/// has been read (and its size checked against it).
struct File {
    name: String,
    bytes: Vec<u8>,
    size: Option<u64>,
    header_read: bool,
}

/// The shard files of one checkpoint, arriving one after another.
#[derive(Default)]
pub struct Arriving {
    done: Vec<(String, Vec<u8>)>,
    current: Option<File>,
    /// Bytes received, every file.
    received: u64,
}

impl Arriving {
    pub fn new() -> Arriving {
        Arriving::default()
    }

    /// The next file, `name`, begins; `size` is its length when the server (or the disk) said it.
    pub fn begin(&mut self, name: &str, size: Option<u64>) -> Result<()> {
        if let Some(file) = &self.current {
            return Err(Error::parse(name, format!("it began before {} was whole", file.name)));
        }
        let mut file = File { name: name.to_string(), bytes: Vec::new(), size: None, header_read: false };
        if let Some(size) = size {
            self.reserve(&mut file, size)?;
        }
        self.current = Some(file);
        Ok(())
    }

    /// Room for the whole of `file`, `size` bytes, checked against the limit.
    fn reserve(&self, file: &mut File, size: u64) -> Result<()> {
        let before: u64 = self.done.iter().map(|(_, b)| b.len() as u64).sum();
        check_fits(before + size)?;
        let more = usize::try_from(size).ok().and_then(|s| s.checked_sub(file.bytes.len()));
        if more.is_none_or(|more| file.bytes.try_reserve_exact(more).is_err()) {
            return Err(Error::parse(
                file.name.clone(),
                format!("the page could not set aside {} for it", bytes_shown(size)),
            ));
        }
        file.size = Some(size);
        Ok(())
    }

    /// The next piece of the current file.
    pub fn push(&mut self, piece: &[u8]) -> Result<()> {
        let mut file = self.current.take().ok_or_else(|| Error::parse("a piece", "it came before its file began"))?;
        let result = self.append(&mut file, piece);
        self.current = Some(file);
        result
    }

    fn append(&mut self, file: &mut File, piece: &[u8]) -> Result<()> {
        let len = file.bytes.len() as u64 + piece.len() as u64;
        check_fits(self.received + piece.len() as u64)?;
        if let Some(size) = file.size.filter(|&s| len > s) {
            return Err(Error::parse(
                file.name.clone(),
                format!("it runs past the {} its size says", bytes_shown(size)),
            ));
        }
        file.bytes.extend_from_slice(piece);
        self.received += piece.len() as u64;
        if !file.header_read {
            if let Some(size) = header_size(&file.name, &file.bytes)? {
                file.header_read = true;
                if let Some(said) = file.size.filter(|&s| s != size) {
                    return Err(Error::parse(
                        file.name.clone(),
                        format!("its header says {} but its length is {}", bytes_shown(size), bytes_shown(said)),
                    ));
                }
                if file.bytes.len() as u64 > size {
                    return Err(Error::parse(
                        file.name.clone(),
                        format!("it runs past the {} its header says", bytes_shown(size)),
                    ));
                }
                self.reserve(file, size)?;
            }
        }
        Ok(())
    }

    /// The current file is whole: refused if it was cut short.
    pub fn end(&mut self) -> Result<()> {
        let file = self.current.take().ok_or_else(|| Error::parse("a file", "it ended before it began"))?;
        let got = file.bytes.len() as u64;
        let size = file.size.or_else(|| header_size(&file.name, &file.bytes).ok().flatten());
        if size.is_some_and(|s| got < s) {
            return Err(Error::parse(
                file.name,
                format!("it was cut short: {} of {}", bytes_shown(got), bytes_shown(size.unwrap_or(0))),
            ));
        }
        self.done.push((file.name, file.bytes));
        Ok(())
    }

    /// Bytes received so far, every file.
    pub fn received(&self) -> u64 {
        self.received
    }

    /// Every file whole, read as shards (their headers checked).
    pub fn finish(self) -> Result<Shards> {
        if let Some(file) = self.current {
            return Err(Error::parse(file.name, "it was not whole when the checkpoint was opened"));
        }
        Shards::from_buffers(self.done)
    }
}

/// A safetensors file's whole length from its first bytes: 8 (the header's length, little-endian),
/// the header, and the end of the tensor whose bytes end last; None until the header has arrived.
fn header_size(name: &str, bytes: &[u8]) -> Result<Option<u64>> {
    let Some(first) = bytes.get(..8) else { return Ok(None) };
    let n = u64::from_le_bytes(first.try_into().expect("8 bytes"));
    let bad = |why: String| Error::parse(name, format!("it is not a valid safetensors file ({why})"));
    if n > HEADER_LIMIT {
        return Err(bad(format!("its header would take {} bytes", thousands(n))));
    }
    let Some(header) = bytes.get(8..8 + n as usize) else { return Ok(None) };
    let json: serde_json::Map<String, serde_json::Value> =
        serde_json::from_slice(header).map_err(|e| bad(format!("its header is not JSON: {e}")))?;
    let mut end = 0u64;
    for (tensor, info) in json.iter().filter(|(k, _)| *k != "__metadata__") {
        let offsets = info.get("data_offsets").and_then(|o| o.as_array()).filter(|o| o.len() == 2);
        let last = offsets.and_then(|o| o[1].as_u64()).ok_or_else(|| bad(format!("{tensor} has no data_offsets")))?;
        end = end.max(last);
    }
    Ok(Some(8 + n + end))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A safetensors file of one f32 tensor [2].
    fn file() -> Vec<u8> {
        let header = r#"{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}"#;
        let mut bytes = (header.len() as u64).to_le_bytes().to_vec();
        bytes.extend_from_slice(header.as_bytes());
        bytes.extend_from_slice(&[0, 0, 128, 63, 0, 0, 0, 64]);
        bytes
    }

    #[test]
    fn pieces_of_any_size_make_the_file() {
        let whole = file();
        for piece in [1, 3, 8, 70, 1000] {
            for size in [None, Some(whole.len() as u64)] {
                let mut arriving = Arriving::new();
                arriving.begin("model.safetensors", size).unwrap();
                for p in whole.chunks(piece) {
                    arriving.push(p).unwrap();
                }
                arriving.end().unwrap();
                assert_eq!(arriving.received(), whole.len() as u64);
                let shards = arriving.finish().unwrap();
                assert_eq!(shards.shape("a"), Some(vec![2]));
            }
        }
    }

    #[test]
    fn the_header_reserves_the_whole_file() {
        let whole = file();
        let mut arriving = Arriving::new();
        arriving.begin("model.safetensors", None).unwrap();
        arriving.push(&whole[..whole.len() - 8]).unwrap();
        let capacity = arriving.current.as_ref().unwrap().bytes.capacity();
        assert_eq!(capacity, whole.len());
    }

    #[test]
    fn a_file_cut_short_or_too_long_is_refused() {
        let whole = file();
        let mut arriving = Arriving::new();
        arriving.begin("model.safetensors", None).unwrap();
        arriving.push(&whole[..whole.len() - 1]).unwrap();
        let e = arriving.end().unwrap_err().to_string();
        assert!(e.contains("cut short") && e.contains("model.safetensors"), "{e}");

        let mut arriving = Arriving::new();
        arriving.begin("model.safetensors", Some(10)).unwrap();
        let e = arriving.push(&whole).unwrap_err().to_string();
        assert!(e.contains("runs past"), "{e}");

        // A server that sends fewer bytes than the header says, and says so in its length.
        let mut arriving = Arriving::new();
        arriving.begin("model.safetensors", Some(whole.len() as u64 - 4)).unwrap();
        let e = arriving.push(&whole[..whole.len() - 4]).unwrap_err().to_string();
        assert!(e.contains("its header says") && e.contains("but its length is"), "{e}");

        let mut longer = whole.clone();
        longer.push(0);
        let mut arriving = Arriving::new();
        arriving.begin("model.safetensors", None).unwrap();
        let e = arriving.push(&longer).unwrap_err().to_string();
        assert!(e.contains("runs past"), "{e}");
    }

    #[test]
    fn a_checkpoint_over_the_limit_is_refused_naming_the_command() {
        let e = check_fits(CHECKPOINT_LIMIT + 1).unwrap_err().to_string();
        assert!(e.contains("2,147,483,649 bytes") && e.contains("tblock inspect --weights"), "{e}");
        let mut arriving = Arriving::new();
        let e = arriving.begin("model.safetensors", Some(3 << 30)).unwrap_err().to_string();
        assert!(e.contains("at most 2,147,483,648 bytes"), "{e}");
        assert!(check_fits(CHECKPOINT_LIMIT).is_ok());
    }

    #[test]
    fn a_header_that_is_not_one_is_refused() {
        let mut arriving = Arriving::new();
        arriving.begin("model.safetensors", None).unwrap();
        let e = arriving.push(&u64::MAX.to_le_bytes()).unwrap_err().to_string();
        assert!(e.contains("not a valid safetensors file"), "{e}");
        let mut arriving = Arriving::new();
        arriving.begin("model.safetensors", None).unwrap();
        let mut bad = 4u64.to_le_bytes().to_vec();
        bad.extend_from_slice(b"{{{{");
        let e = arriving.push(&bad).unwrap_err().to_string();
        assert!(e.contains("not JSON"), "{e}");
    }
}
