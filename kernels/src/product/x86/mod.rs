//! The bf16 tile on x86-64's instruction sets: AMX, AVX-512 BF16, and AVX2 + FMA without them.

pub mod amx;
pub mod avx2;
pub mod avx512_bf16;
pub mod pack_avx512;
pub mod peak;
