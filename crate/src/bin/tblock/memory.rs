//! Whether a checkpoint's run fits this machine: the peak it expects (this process as it stands, the
//! mapped checkpoint once every page is read, and the decoder's working memory) against the memory
//! the machine has available, checked before any weight is read.

use serde::Serialize;
use transformer_block::nn::decoder::Footprint;
use transformer_block::numbers::thousands;

const MIB: u64 = 1024 * 1024;

/// The memory a run expects and the memory it may have, in bytes.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Budget {
    /// This process before the run: the program, the tokenizer, the ids, the checkpoints' headers.
    pub process_bytes: u64,
    pub mapped_bytes: u64,
    pub working: Footprint,
    pub expected_peak_bytes: u64,
    /// MemAvailable from /proc/meminfo (or TBLOCK_MEMORY, bytes); None where neither is known.
    pub available_bytes: Option<u64>,
    /// Which of the two it is.
    pub available_from: &'static str,
}

fn mib(bytes: u64) -> String {
    format!("{} MiB", thousands(bytes.div_ceil(MIB)))
}

/// What the operating system says could be given to a process without swapping: MemAvailable, or
/// `TBLOCK_MEMORY` (bytes) to run within a share of the machine.
fn available_bytes() -> (Option<u64>, &'static str) {
    if let Some(n) = std::env::var("TBLOCK_MEMORY").ok().and_then(|v| v.trim().parse::<u64>().ok()) {
        return (Some(n), "TBLOCK_MEMORY");
    }
    let mem_available = || {
        let info = std::fs::read_to_string("/proc/meminfo").ok()?;
        let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
        let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kb * 1024)
    };
    (mem_available(), "MemAvailable")
}

/// This process's resident bytes now (0 where /proc is not there).
fn resident_bytes() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: u64 = statm.split_whitespace().nth(1).and_then(|p| p.parse().ok()).unwrap_or(0);
    pages * 4096
}

impl Budget {
    pub fn of(mapped_bytes: u64, working: Footprint) -> Budget {
        let process_bytes = resident_bytes();
        let (available_bytes, available_from) = available_bytes();
        Budget {
            process_bytes,
            mapped_bytes,
            working,
            expected_peak_bytes: process_bytes + mapped_bytes + working.total,
            available_bytes,
            available_from,
        }
    }

    /// Whether what the run adds (the mapped pages and the working memory) fits what is available.
    pub fn fits(&self) -> bool {
        self.available_bytes.is_none_or(|a| self.mapped_bytes + self.working.total <= a)
    }

    /// Ok, or a message with both numbers and the ways down, for windows of `context` positions.
    pub fn check(&self, context: usize, bf16_in_place: bool) -> Result<(), String> {
        if self.fits() {
            return Ok(());
        }
        let available = self.available_bytes.unwrap_or(0);
        let copies = if bf16_in_place {
            ""
        } else {
            "; --compute bf16 reads the weights as stored instead of widening them to f32"
        };
        Err(format!(
            "this run expects a peak of {} (the {} checkpoint mapped, {} of working memory at --context {context}, {} already held) but the machine has {} available ({}): a smaller --context holds less{copies}",
            mib(self.expected_peak_bytes),
            mib(self.mapped_bytes),
            mib(self.working.total),
            mib(self.process_bytes),
            mib(available),
            self.available_from,
        ))
    }
}
