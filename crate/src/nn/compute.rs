//! What a checkpoint's linear layers multiply in: f32, or bf16 products with f32 sums; and `auto`,
//! the checkpoint's own numbers wherever this CPU multiplies them natively (what PyTorch's
//! `from_pretrained(torch_dtype="auto")` loads), else f32. The stream, the norms, attention and the
//! loss stay in f32 whichever is chosen.

use tb_kernels::product::Isa;

/// The numbers a checkpoint's linear layers multiply in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Compute {
    /// f32 throughout, whatever the file stores: transformers' f32 results within 1e-4.
    #[default]
    F32,
    /// The layers' inputs and weights rounded to bf16, their sums in f32 (PyTorch's bf16 compute
    /// rounds the same; tblock keeps the stream, the norms, attention and the loss in f32): the
    /// products on the kernels' bf16 path ([`tb_kernels::product`], `vdpbf16ps` where the CPU has it),
    /// the weights read in place from the mapped file.
    Bf16,
}

/// A compute and why it was the one run, as a result's `measured` says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ComputeChoice {
    pub compute: Compute,
    pub reason: String,
}

impl Compute {
    /// Whether `isa` multiplies bf16 in one instruction (`tdpbf16ps`, `vdpbf16ps`), rather than
    /// widening each number to f32 first.
    pub fn bf16_is_native(isa: Isa) -> bool {
        matches!(isa, Isa::Amx | Isa::Avx512Bf16)
    }

    /// `auto` for a checkpoint that stores most of its numbers as `dtype` ("bf16", "f16", "f32"),
    /// with the bf16 products on `isa`: bf16 where the file is bf16 and `isa` multiplies it natively,
    /// f32 otherwise.
    pub fn auto(dtype: &str, isa: Isa) -> ComputeChoice {
        let (compute, reason) = match dtype {
            "bf16" if Compute::bf16_is_native(isa) => (
                Compute::Bf16,
                format!("auto: the checkpoint stores bf16, and this CPU multiplies bf16 natively ({})", isa.name()),
            ),
            "bf16" => (
                Compute::F32,
                format!(
                    "auto: the checkpoint stores bf16, but this CPU has no bf16 instructions (its bf16 products would run on {}), so f32",
                    isa.name()
                ),
            ),
            "f32" => (Compute::F32, "auto: the checkpoint stores f32".to_string()),
            other => (Compute::F32, format!("auto: the checkpoint stores {other}, which tblock multiplies in f32")),
        };
        ComputeChoice { compute, reason }
    }

    /// `compute` because the run asked for it (`--compute f32` or `bf16`).
    pub fn asked(compute: Compute) -> ComputeChoice {
        let name = match compute {
            Compute::F32 => "f32",
            Compute::Bf16 => "bf16",
        };
        ComputeChoice { compute, reason: format!("asked for (--compute {name})") }
    }

    /// What a result's `measured.compute` says: "f32", or "bf16 (amx)" with the instruction set.
    pub fn named(self, isa: Isa) -> String {
        match self {
            Compute::F32 => "f32".to_string(),
            Compute::Bf16 => format!("bf16 ({})", isa.name()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auto_multiplies_bf16_natively_or_not_at_all() {
        for (dtype, isa, compute) in [
            ("bf16", Isa::Amx, Compute::Bf16),
            ("bf16", Isa::Avx512Bf16, Compute::Bf16),
            ("bf16", Isa::Avx2, Compute::F32),
            ("bf16", Isa::Portable, Compute::F32),
            ("f32", Isa::Amx, Compute::F32),
            ("f32", Isa::Portable, Compute::F32),
            ("f16", Isa::Amx, Compute::F32),
            ("f16", Isa::Avx2, Compute::F32),
        ] {
            let choice = Compute::auto(dtype, isa);
            assert_eq!(choice.compute, compute, "{dtype} on {}", isa.name());
            assert!(choice.reason.starts_with("auto: the checkpoint stores ") && choice.reason.contains(dtype));
        }
        assert!(Compute::auto("bf16", Isa::Avx2)
            .reason
            .contains("no bf16 instructions (its bf16 products would run on avx2), so f32"));
        assert_eq!(Compute::asked(Compute::Bf16).reason, "asked for (--compute bf16)");
        assert_eq!(Compute::Bf16.named(Isa::Amx), "bf16 (amx)");
    }
}
