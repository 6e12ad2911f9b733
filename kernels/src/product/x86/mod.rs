//! The bf16 tile on x86-64's instruction sets (AVX-512 BF16; AVX2 machines take the portable tile).

pub mod avx512_bf16;
