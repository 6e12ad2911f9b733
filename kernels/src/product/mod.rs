//! Matrix products in bf16 for real checkpoints: out [M, N] = a [M, K] · wᵀ + bias, with a's
//! numbers rounded to bf16 (as PyTorch's bf16 compute rounds them), w read as it is stored (bf16,
//! f16 or f32, rounded to bf16 while it is packed), every product summed in f32.
//!
//! One interface, a file per instruction set, the set chosen once ([`Isa::chosen`]):
//! - [`x86::amx`]: Intel's tile unit, `tdpbf16ps` on 32-row blocks (16 x 16 x 32 products an
//!   instruction), the edges on AVX-512 BF16;
//! - [`x86::avx512_bf16`]: `vdpbf16ps`, 32 pairs of bf16 multiplied and added into 16 f32 lanes per
//!   instruction (twice f32's `vfmadd231ps`);
//! - [`x86::avx2`]: the portable sums compiled for AVX2's 256-bit lanes, where BF16 is missing;
//! - [`portable`]: the same sums in plain Rust, for any CPU (and wasm32).
//!
//! The weights are never copied whole: each thread packs a panel of [`NR`] outputs by up to [`KC`]
//! pairs of inputs (at most 256 KiB, in L2) straight from the stored bytes, pairs of inputs side by
//! side as `vdpbf16ps` reads them, and runs every row of a over it, [`MR`] rows at a time, each
//! tile's sums held in registers across the whole panel. AMX packs a group of panels of fewer
//! pairs at once ([`x86::amx::GROUP`], 2 MiB), lays each block of 32 rows out as the tiles read it,
//! and runs the block over the whole group.
//!
//! This is not TinyGPT's path: the lesson's numbers stay on [`crate::linear`]'s bit-exact loops.

mod exp_sum;
mod pack;
pub mod portable;
#[cfg(test)]
mod tests;
#[cfg(target_arch = "x86_64")]
pub mod x86;

pub use exp_sum::{max_exp_sum, softmax};
pub use pack::{bf16_bits, BfRows};

/// Rows of a in one tile.
pub const MR: usize = 6;
/// Outputs in one panel: two vectors of 16 f32 lanes.
pub const NR: usize = 32;
/// Pairs of inputs in one panel, NR x KC x 4 bytes = 256 KiB at most: every input of the layers of
/// a model up to 4,096 inputs wide, so a tile's sums go to memory once. Measured on 1,024 x 896 x
/// 4,864 (2 threads): 354 GFLOP/s, against 322 with 128 pairs (16 KiB panels in L1, the sums
/// reloaded every 256 inputs).
pub const KC: usize = 2048;

/// The instruction set the bf16 products run on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Isa {
    /// AMX (tiles of bf16 products), with AVX-512 BF16 for what is left of a block.
    Amx,
    /// AVX-512 with BF16 dot products (`vdpbf16ps`).
    Avx512Bf16,
    /// AVX2 and FMA: the portable sums, eight lanes at a time.
    Avx2,
    /// Plain Rust, any CPU.
    Portable,
}

impl Isa {
    /// Every set this CPU can run, the fastest first.
    pub fn available() -> Vec<Isa> {
        let fast = [
            #[cfg(target_arch = "x86_64")]
            (Isa::Amx, x86::amx::supported()),
            #[cfg(target_arch = "x86_64")]
            (Isa::Avx512Bf16, x86::avx512_bf16::supported()),
            #[cfg(target_arch = "x86_64")]
            (Isa::Avx2, x86::avx2::supported()),
        ];
        fast.into_iter().filter(|&(_, has)| has).map(|(isa, _)| isa).chain([Isa::Portable]).collect()
    }

    /// Whether this CPU (and, for AMX, the kernel) runs the set.
    pub fn runs_here(self) -> bool {
        match self {
            #[cfg(target_arch = "x86_64")]
            Isa::Amx => x86::amx::supported(),
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512Bf16 => x86::avx512_bf16::supported(),
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2 => x86::avx2::supported(),
            Isa::Portable => true,
            #[allow(unreachable_patterns)] // the x86 sets, elsewhere
            _ => false,
        }
    }

    /// The set itself where it runs here, else [`Isa::Portable`]: what every public function
    /// taking a set runs on, so a set the CPU lacks never stops the process.
    pub fn or_portable(self) -> Isa {
        if self.runs_here() {
            self
        } else {
            Isa::Portable
        }
    }

    /// The fastest set this CPU has, or the one `TBLOCK_ISA` names ("amx", "avx512bf16", "avx2", "portable") when
    /// the CPU has it: the way a test or a benchmark forces a path.
    /// Looked up once a process.
    pub fn chosen() -> Isa {
        static CHOSEN: std::sync::OnceLock<Isa> = std::sync::OnceLock::new();
        *CHOSEN.get_or_init(|| {
            let sets = Isa::available();
            let asked = std::env::var("TBLOCK_ISA").ok().and_then(|name| Isa::named(&name));
            asked.filter(|s| sets.contains(s)).unwrap_or(sets[0])
        })
    }

    /// The set of this name, as `TBLOCK_ISA` spells it.
    pub fn named(name: &str) -> Option<Isa> {
        match name {
            "amx" => Some(Isa::Amx),
            "avx512bf16" => Some(Isa::Avx512Bf16),
            "avx2" => Some(Isa::Avx2),
            "portable" => Some(Isa::Portable),
            _ => None,
        }
    }

    /// Its name, as `TBLOCK_ISA` spells it.
    pub fn name(self) -> &'static str {
        match self {
            Isa::Amx => "amx",
            Isa::Avx512Bf16 => "avx512bf16",
            Isa::Avx2 => "avx2",
            Isa::Portable => "portable",
        }
    }
}

/// Numbers as a checkpoint stores them: little-endian bytes of a dtype, or f32 already in memory.
#[derive(Clone, Copy, Debug)]
pub enum Stored<'a> {
    Bf16(&'a [u8]),
    F16(&'a [u8]),
    F32Bytes(&'a [u8]),
    F32(&'a [f32]),
}

impl Stored<'_> {
    /// How many numbers it holds.
    pub fn len(&self) -> usize {
        match self {
            Stored::Bf16(b) | Stored::F16(b) => b.len() / 2,
            Stored::F32Bytes(b) => b.len() / 4,
            Stored::F32(f) => f.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A weight matrix w [N, K] (output n, input k) as stored: w[n][k] is number
/// `offset + n·n_stride + k·k_stride` of `data`. nn.Linear's [out, in] is (n_stride K, k_stride 1);
/// GPT-2's Conv1D [in, out] is (1, N), and a third of its fused c_attn has an offset too.
#[derive(Clone, Copy, Debug)]
pub struct StoredMatrix<'a> {
    pub data: Stored<'a>,
    /// N, the outputs.
    pub outputs: usize,
    /// K, the inputs.
    pub inputs: usize,
    pub offset: usize,
    pub n_stride: usize,
    pub k_stride: usize,
}

impl<'a> StoredMatrix<'a> {
    /// nn.Linear's layout: [outputs, inputs], row o holds output o's weights.
    pub fn rows(data: Stored<'a>, outputs: usize, inputs: usize) -> StoredMatrix<'a> {
        StoredMatrix { data, outputs, inputs, offset: 0, n_stride: inputs, k_stride: 1 }
    }

    /// Whether every element it names lies inside `data`.
    pub fn fits(&self) -> bool {
        if self.outputs == 0 || self.inputs == 0 {
            return true;
        }
        let last = (self.outputs - 1)
            .checked_mul(self.n_stride)
            .and_then(|a| (self.inputs - 1).checked_mul(self.k_stride).and_then(|b| a.checked_add(b)))
            .and_then(|a| a.checked_add(self.offset));
        last.is_some_and(|l| l < self.data.len())
    }
}

/// Runs `body(task)` for every task in 0..n, on as many threads as the caller has (rayon's
/// `into_par_iter().for_each`, or a plain loop).
pub type Runner<'r> = &'r dyn Fn(usize, &(dyn Fn(usize) + Sync));

/// A plain loop over the tasks, on this thread.
pub fn one_thread(n: usize, body: &(dyn Fn(usize) + Sync)) {
    (0..n).for_each(body)
}

/// out [M, N] = a [M, K] · wᵀ + bias, a's rows already rounded to bf16 ([`BfRows`]), w's numbers
/// rounded to bf16 as they are packed, every sum in f32; the outputs split among `tasks` tasks that
/// `run` spreads over its threads.
///
/// On a set this CPU lacks, the portable sums ([`Isa::or_portable`]). Panics if the sizes disagree
/// (out holds M x N, bias N, w's elements lie inside its data).
pub fn product_bf16(
    isa: Isa,
    out: &mut [f32],
    a: &BfRows,
    w: &StoredMatrix,
    bias: Option<&[f32]>,
    tasks: usize,
    run: Runner,
) {
    let isa = isa.or_portable();
    let (m, n, k) = (a.rows, w.outputs, w.inputs);
    assert_eq!(a.inputs, k, "a's rows have {} inputs, w {k}", a.inputs);
    assert_eq!(out.len(), m * n, "out holds {} numbers, not {m} x {n}", out.len());
    assert!(bias.is_none_or(|b| b.len() == n), "a bias of {n} outputs");
    assert!(w.fits(), "w's elements lie outside its data");
    if m == 0 || n == 0 {
        return;
    }
    let panels = n.div_ceil(NR);
    let tasks = tasks.clamp(1, panels);
    let per = panels.div_ceil(tasks);
    let tasks = panels.div_ceil(per);
    let out = SharedOut(out.as_mut_ptr());
    // Pairs packed at once (a panel in L2 for the tiles of vectors, 128 KiB for AMX's blocks), and
    // panels packed at once: one, or for AMX a group in L2 that each block of rows runs over, so
    // a's rows are read from memory once a group rather than once a panel.
    let (step, group) = match isa {
        #[cfg(target_arch = "x86_64")]
        Isa::Amx => (x86::amx::KC, x86::amx::GROUP),
        _ => (KC, 1),
    };
    let outputs = |p: usize| NR.min(n - p * NR);
    let body = |task: usize| {
        let (first, end) = (task * per, ((task + 1) * per).min(panels));
        let mut packed = vec![0u32; group.min(end - first) * step.min(a.pairs) * NR];
        // AMX's block of rows, copied once a group (see below).
        #[cfg(target_arch = "x86_64")]
        let mut a_block = vec![0u32; if isa == Isa::Amx { x86::amx::ROWS * step.min(a.pairs) } else { 0 }];
        #[cfg(target_arch = "x86_64")]
        if isa == Isa::Amx {
            // SAFETY: Isa::Amx is only ever chosen where the process may use the tiles.
            unsafe { x86::amx::configure() };
        }
        for g0 in (first..end).step_by(group) {
            let g1 = (g0 + group).min(end);
            for p in g0..g1 {
                // SAFETY: tasks own disjoint panels, so disjoint columns of out; every row r < m
                // and column p·NR + c < n of out [M, N] is inside it (checked above).
                unsafe { out.fill_columns(n, m, p * NR, outputs(p), bias) };
            }
            for kp0 in (0..a.pairs).step_by(step) {
                let kc = step.min(a.pairs - kp0);
                for p in g0..g1 {
                    pack::panel(isa, &mut packed[(p - g0) * kc * NR..], w, p * NR, outputs(p), kp0, kc);
                }
                // Rows m0..m0+mr over panel p's pairs from `from` on. SAFETY (of each use): as
                // above; a's rows hold pairs kp0..kp0+kc, each packed panel kc x NR.
                let tile = |p: usize, m0: usize, mr: usize, from: usize| Tile {
                    a: a.data[m0 * a.pairs + kp0 + from..].as_ptr(),
                    lda: a.pairs,
                    mr,
                    b: packed[((p - g0) * kc + from) * NR..].as_ptr(),
                    kc: kc - from,
                    // SAFETY: row m0 < m, column p·NR < n of out [M, N].
                    c: unsafe { out.0.add(m0 * n + p * NR) },
                    ldc: n,
                    nr: outputs(p),
                };
                // Rows below `done` are summed for every whole panel of the group.
                #[allow(unused_mut)] // set only where AMX may run
                let mut done = 0;
                #[cfg(target_arch = "x86_64")]
                if isa == Isa::Amx {
                    use x86::amx::{block, pack_rows, PAIRS, ROWS};
                    let whole = kc / PAIRS * PAIRS;
                    // A group of only the last, partial panel has no blocks: its rows are not laid out.
                    let blocks = whole > 0 && (g0..g1).any(|p| outputs(p) == NR);
                    while done + ROWS <= m && blocks {
                        // The block's rows in the layout AMX's tiles read (each tile of a 1 KiB
                        // in one piece), copied once a group and read by each of its panels.
                        let rows = a.data[done * a.pairs + kp0..].as_ptr();
                        // SAFETY: rows done..done+ROWS < m of a hold pairs kp0..kp0+whole.
                        unsafe { pack_rows(&mut a_block, rows, a.pairs, whole / PAIRS) };
                        for p in (g0..g1).filter(|&p| outputs(p) == NR) {
                            let t = tile(p, done, ROWS, 0);
                            // SAFETY: as above, for ROWS rows (in a_block), the first `whole` pairs
                            // and all NR columns.
                            unsafe { block(a_block.as_ptr(), t.b, whole, t.c, t.ldc) };
                            // The pairs past the last whole step, on AVX-512 BF16.
                            if whole < kc {
                                for r in (0..ROWS).step_by(MR) {
                                    // SAFETY: as above.
                                    unsafe { tile(p, done + r, MR.min(ROWS - r), whole).run(isa) };
                                }
                            }
                        }
                        done += ROWS;
                    }
                }
                for p in g0..g1 {
                    let from = if outputs(p) == NR { done } else { 0 };
                    for m0 in (from..m).step_by(MR) {
                        // SAFETY: as above.
                        unsafe { tile(p, m0, MR.min(m - m0), 0).run(isa) };
                    }
                }
            }
        }
        #[cfg(target_arch = "x86_64")]
        if isa == Isa::Amx {
            // SAFETY: as configure.
            unsafe { x86::amx::release() };
        }
    };
    run(tasks, &body);
}

/// One tile's operands: c [mr, nr] (row stride ldc) += a [mr rows of kc pairs] (row stride lda) ·
/// b [kc, NR] (a packed panel), mr ≤ MR and nr ≤ NR.
#[derive(Clone, Copy)]
pub struct Tile {
    pub a: *const u32,
    pub lda: usize,
    pub mr: usize,
    pub b: *const u32,
    pub kc: usize,
    pub c: *mut f32,
    pub ldc: usize,
    pub nr: usize,
}

impl Tile {
    /// The tile on `isa`'s instructions.
    ///
    /// # Safety
    /// The rows, the panel and c's mr x nr numbers must be readable (and c writable) as described,
    /// and `isa` must be one the CPU has ([`Isa::available`]).
    #[inline]
    unsafe fn run(self, isa: Isa) {
        match isa {
            #[cfg(target_arch = "x86_64")]
            Isa::Amx | Isa::Avx512Bf16 => x86::avx512_bf16::tile(self),
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2 => x86::avx2::tile(self),
            _ => portable::tile(self),
        }
    }
}

/// out's first number, shared by the tasks, each writing only its own columns.
#[derive(Clone, Copy)]
struct SharedOut(*mut f32);

// SAFETY: the tasks write disjoint columns (product_bf16), never the same number.
unsafe impl Sync for SharedOut {}
unsafe impl Send for SharedOut {}

impl SharedOut {
    /// Columns n0..n0+nr of out [m, n] set to the bias, or 0.
    ///
    /// # Safety
    /// out must hold m x n numbers, n0 + nr ≤ n, and no other thread write these columns.
    unsafe fn fill_columns(self, n: usize, m: usize, n0: usize, nr: usize, bias: Option<&[f32]>) {
        let from: [f32; NR] = std::array::from_fn(|c| bias.map_or(0.0, |b| b.get(n0 + c).copied().unwrap_or(0.0)));
        for r in 0..m {
            let row = std::slice::from_raw_parts_mut(self.0.add(r * n + n0), nr);
            // A whole panel's row as one fixed-size copy (vector stores, not a call to memset).
            match <&mut [f32; NR]>::try_from(&mut *row) {
                Ok(whole) => *whole = from,
                Err(_) => row.copy_from_slice(&from[..nr]),
            }
        }
    }
}
