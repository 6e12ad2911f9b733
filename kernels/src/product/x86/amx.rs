//! The bf16 product on AMX, the tile unit of Intel's Xeons since Sapphire Rapids: `tdpbf16ps`
//! multiplies a tile of 16 rows by 16 pairs of bf16 inputs with a tile of the same 16 pairs for 16
//! outputs (pairs side by side, as the panels are packed) into a tile of 16 x 16 f32 sums: 16,384
//! flop an instruction. A block is [`ROWS`] rows by a panel's 32 outputs: four tiles of sums held
//! in tmm0-3 across the panel's pairs, the rows in tmm4-5, the panel's two halves in tmm6-7.
//!
//! Stable Rust has neither AMX intrinsics nor its target features yet (rust-lang/rust#126622): the
//! instructions are inline assembly, the CPU is asked with CPUID, and Linux, which hands a process
//! the tile registers only when it asks (arch_prctl ARCH_REQ_XCOMP_PERM), is asked once.

use core::arch::asm;
use core::arch::x86_64::{__cpuid, __cpuid_count};
use std::sync::OnceLock;

use super::super::NR;

/// Rows of a block: two tiles of 16.
pub const ROWS: usize = 32;
/// Pairs of inputs a step of the block takes: a tile's 64 bytes a row.
pub const PAIRS: usize = 16;
/// Pairs of inputs in one panel for AMX: NR x KC x 4 bytes = 128 KiB, and as much of each row of a
/// block of a.
pub const KC: usize = 1024;
/// Panels packed at once for AMX, 2 MiB: each block of rows is laid out once for the tiles
/// ([`pack_rows`], 128 KiB) and runs over all of them, so a's rows come from memory once a group
/// rather than once a panel. Measured with the products bench on the 0.5 B Qwen2 shapes (1,024 rows,
/// 2 threads, GFLOP/s of 1024x896x4864, 1024x4864x896, 1024x896x896):
/// - a's rows read in place (row stride = its pairs): one panel of 256 pairs (before) 729, 464, 580;
///   8 of 256: 823, 540, 573; 8 of 512: 835, 599, 609; 16 of 512: 864, 588, 610; 32 of 128: 831,
///   530, 565; 8 of 1,024: 838, 628, 611. Prefetching the next step's panel rows changed nothing.
/// - the block's rows copied side by side (16 of 512): 1,087-1,112, 744-762, 700-742;
/// - the block laid out tile by tile, each tile 1 KiB in one piece: 16 of 512: 1,078-1,186,
///   695-763, 771-840; 8 of 512: 1,127, 724, 858; 16 of 256: 1,063, 669, 775; 4 of 1,024: 1,047,
///   800, 770; 8 of 1,024: 1,159, 819, 777; 16 of 1,024: 1,182, 860, 799.
pub const GROUP: usize = 16;

/// Whether this process runs the blocks: the CPU has AMX-TILE and AMX-BF16 (and AVX-512 BF16 for
/// the edges), and the kernel let it use the tile registers.
pub fn supported() -> bool {
    static SUPPORTED: OnceLock<bool> = OnceLock::new();
    *SUPPORTED.get_or_init(|| cpu_has_amx_bf16() && super::avx512_bf16::supported() && tiles_permitted())
}

fn cpu_has_amx_bf16() -> bool {
    // Leaf 7 is read only where the CPU has it. (Newer Rust makes CPUID a safe function; the
    // crate's 1.89 needs the block.)
    #[allow(unused_unsafe)]
    // SAFETY: CPUID runs on every x86-64 CPU.
    let edx = unsafe {
        if __cpuid(0).eax < 7 {
            return false;
        }
        __cpuid_count(7, 0).edx
    };
    // Leaf 7's EDX: bit 22 AMX-BF16, bit 24 AMX-TILE.
    edx & (1 << 22) != 0 && edx & (1 << 24) != 0
}

/// Asks Linux for the tile registers, for every thread of the process.
#[cfg(target_os = "linux")]
fn tiles_permitted() -> bool {
    const SYS_ARCH_PRCTL: i64 = 158;
    const ARCH_REQ_XCOMP_PERM: i64 = 0x1023;
    const XFEATURE_XTILEDATA: i64 = 18;
    let result: i64;
    // SAFETY: arch_prctl only changes which register states this process may use.
    unsafe {
        asm!(
            "syscall",
            inlateout("rax") SYS_ARCH_PRCTL => result,
            in("rdi") ARCH_REQ_XCOMP_PERM,
            in("rsi") XFEATURE_XTILEDATA,
            lateout("rcx") _,
            lateout("r11") _,
            options(nostack),
        );
    }
    result == 0
}

#[cfg(not(target_os = "linux"))]
fn tiles_permitted() -> bool {
    false
}

/// The tile configuration: palette 1, eight tiles of 16 rows of 64 bytes.
#[repr(C, align(64))]
struct Config([u8; 64]);

const CONFIG: Config = {
    let mut c = [0u8; 64];
    c[0] = 1;
    let mut t = 0;
    while t < 8 {
        c[16 + 2 * t] = 64; // bytes a row (u16, little-endian)
        c[48 + t] = 16; // rows
        t += 1;
    }
    Config(c)
};

/// Configures this thread's tiles for [`block`].
///
/// # Safety
/// [`supported`] must be true.
pub unsafe fn configure() {
    asm!("ldtilecfg [{}]", in(reg) CONFIG.0.as_ptr(), options(nostack, readonly, preserves_flags));
}

/// Hands this thread's tiles back (so a context switch saves no tile state).
///
/// # Safety
/// [`supported`] must be true.
pub unsafe fn release() {
    asm!("tilerelease", options(nostack, nomem, preserves_flags));
}

/// c [ROWS, NR] (row stride ldc) += a [ROWS rows of kc pairs] · b [kc, NR] (a packed panel), kc a
/// multiple of [`PAIRS`], a laid out as [`pack_rows`] leaves it: each step of PAIRS pairs a stretch of
/// ROWS x PAIRS, so that every tile of a is 1 KiB in one piece.
///
/// # Safety
/// This thread's tiles [`configure`]d; kc / PAIRS steps of a, the panel and c's ROWS x NR numbers
/// readable (and c writable) as described.
pub unsafe fn block(a: *const u32, b: *const u32, kc: usize, c: *mut f32, ldc: usize) {
    debug_assert_eq!(kc % PAIRS, 0);
    let (sa, sb, sc) = (4 * PAIRS, 4 * NR, 4 * ldc);
    let c_low = c.add(16 * ldc);
    asm!(
        "tileloadd tmm0, [{c} + {sc}*1]",
        "tileloadd tmm1, [{c} + {sc}*1 + 64]",
        "tileloadd tmm2, [{cl} + {sc}*1]",
        "tileloadd tmm3, [{cl} + {sc}*1 + 64]",
        c = in(reg) c,
        cl = in(reg) c_low,
        sc = in(reg) sc,
        options(nostack, readonly, preserves_flags),
    );
    for p in (0..kc).step_by(PAIRS) {
        let a = a.add(p * ROWS);
        let a_low = a.add(16 * PAIRS);
        asm!(
            "tileloadd tmm4, [{a} + {sa}*1]",
            "tileloadd tmm5, [{al} + {sa}*1]",
            "tileloadd tmm6, [{b} + {sb}*1]",
            "tileloadd tmm7, [{b} + {sb}*1 + 64]",
            "tdpbf16ps tmm0, tmm4, tmm6",
            "tdpbf16ps tmm1, tmm4, tmm7",
            "tdpbf16ps tmm2, tmm5, tmm6",
            "tdpbf16ps tmm3, tmm5, tmm7",
            a = in(reg) a,
            al = in(reg) a_low,
            b = in(reg) b.add(p * NR),
            sa = in(reg) sa,
            sb = in(reg) sb,
            options(nostack, readonly, preserves_flags),
        );
    }
    asm!(
        "tilestored [{c} + {sc}*1], tmm0",
        "tilestored [{c} + {sc}*1 + 64], tmm1",
        "tilestored [{cl} + {sc}*1], tmm2",
        "tilestored [{cl} + {sc}*1 + 64], tmm3",
        c = in(reg) c,
        cl = in(reg) c_low,
        sc = in(reg) sc,
        options(nostack, preserves_flags),
    );
}

/// to [steps, ROWS, PAIRS] = pairs 0..steps·PAIRS of rows 0..ROWS of a (row r from `a + r·lda`): the
/// layout [`block`] reads.
///
/// # Safety
/// Each row holds steps·PAIRS readable pairs; `to` holds steps·ROWS·PAIRS numbers.
pub unsafe fn pack_rows(to: &mut [u32], a: *const u32, lda: usize, steps: usize) {
    for (s, step) in to.chunks_exact_mut(ROWS * PAIRS).take(steps).enumerate() {
        for (r, row) in step.chunks_exact_mut(PAIRS).enumerate() {
            row.copy_from_slice(std::slice::from_raw_parts(a.add(r * lda + s * PAIRS), PAIRS));
        }
    }
}
