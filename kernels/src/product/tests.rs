//! Every instruction set this CPU runs against a plain sum of the same rounded numbers, on shapes
//! that break the tiles: one row, one output, one input, odd inputs, sizes past MR, NR, KC and
//! AMX's blocks and groups of panels.

use super::*;
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

/// A number from a seed, in [-1, 1).
fn noise(seed: &mut u64) -> f32 {
    *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    ((*seed >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
}

fn rounded(x: f32) -> f64 {
    f64::from(f32::from_bits(u32::from(bf16_bits(x)) << 16))
}

/// out = a · wᵀ + bias in f64 over the bf16-rounded numbers; w [n, k] row-major.
fn reference(a: &[f32], w: &[f32], bias: Option<&[f32]>, m: usize, n: usize, k: usize) -> Vec<f64> {
    let mut out = vec![0.0; m * n];
    for r in 0..m {
        for o in 0..n {
            let s: f64 = (0..k).map(|i| rounded(a[r * k + i]) * rounded(w[o * k + i])).sum();
            out[r * n + o] = s + bias.map_or(0.0, |b| f64::from(b[o]));
        }
    }
    out
}

fn check(isa: Isa, m: usize, n: usize, k: usize, w_data: &dyn Fn(&[f32]) -> Vec<u8>, dtype: fn(&[u8]) -> Stored) {
    let mut seed = (m * 1_000_003 + n * 1009 + k) as u64;
    let a: Vec<f32> = (0..m * k).map(|_| noise(&mut seed)).collect();
    let w: Vec<f32> = (0..n * k).map(|_| noise(&mut seed)).collect();
    let bias: Vec<f32> = (0..n).map(|_| noise(&mut seed)).collect();
    let bytes = w_data(&w);
    let matrix = StoredMatrix::rows(dtype(&bytes), n, k);
    let mut rows = BfRows::default();
    rows.round(&a, m, k);
    for (tasks, b) in [(1, Some(&bias[..])), (3, None)] {
        let mut out = vec![f32::NAN; m * n];
        product_bf16(isa, &mut out, &rows, &matrix, b, tasks, &one_thread);
        let want = reference(&a, &w, b, m, n, k);
        for (i, (&got, &want)) in out.iter().zip(&want).enumerate() {
            // f32 sums of k products of numbers under 1: within k·2⁻²⁴ of the f64 sum, roughly.
            let tolerance = 1e-6 * (k as f64).max(1.0) + 1e-6;
            assert!(
                (f64::from(got) - want).abs() <= tolerance,
                "{isa:?} {m}x{n}x{k} tasks {tasks}: out[{i}] = {got}, want {want}"
            );
        }
    }
}

fn bf16_bytes(w: &[f32]) -> Vec<u8> {
    w.iter().flat_map(|&x| bf16_bits(x).to_le_bytes()).collect()
}

const SHAPES: [(usize, usize, usize); 18] = [
    (1, 1, 1),
    (1, 1, 2),
    (1, 33, 3),
    (7, 1, 5),
    (6, 32, 256),
    (5, 31, 255),
    (13, 65, 257),
    (2, 100, 513),
    (17, 64, 896),
    (1, 7, 4864),
    (12, 33, 129),
    (3, 3, 0),
    // AMX's blocks of 32 rows, 32 outputs and 16 pairs, and what is left of them: rows past the
    // last block, a partial panel, pairs past the last step and past KC.
    (64, 64, 64),
    (33, 32, 70),
    (70, 65, 4200),
    (32, 96, 33),
    // More panels than AMX packs at once (GROUP), the last group partial and its last panel too.
    (40, 600, 100),
    // A last group of only the partial panel (on one task).
    (33, 517, 40),
];

#[test]
fn every_instruction_set_sums_bf16_weights_as_the_plain_loop() {
    for isa in Isa::available() {
        for (m, n, k) in SHAPES {
            check(isa, m, n, k, &bf16_bytes, |b| Stored::Bf16(b));
        }
    }
}

#[test]
fn f32_and_f16_weights_are_rounded_to_bf16_as_they_are_packed() {
    let f32_bytes = |w: &[f32]| w.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    // f16 first, then bf16: the reference's rounding of the f16 value is the packer's.
    let f16_bytes = |w: &[f32]| w.iter().flat_map(|&x| half::f16::from_f32(x).to_le_bytes()).collect::<Vec<u8>>();
    for isa in Isa::available() {
        for (m, n, k) in [(5, 31, 255), (13, 65, 257)] {
            check(isa, m, n, k, &f32_bytes, |b| Stored::F32Bytes(b));
        }
        // The f16 values themselves are the weights here.
        let (m, n, k) = (7, 40, 129);
        let mut seed = 7u64;
        let a: Vec<f32> = (0..m * k).map(|_| noise(&mut seed)).collect();
        let w: Vec<f32> = (0..n * k).map(|_| half::f16::from_f32(noise(&mut seed)).to_f32()).collect();
        let bytes = f16_bytes(&w);
        let mut rows = BfRows::default();
        rows.round(&a, m, k);
        let mut out = vec![0.0; m * n];
        product_bf16(isa, &mut out, &rows, &StoredMatrix::rows(Stored::F16(&bytes), n, k), None, 2, &one_thread);
        for (got, want) in out.iter().zip(reference(&a, &w, None, m, n, k)) {
            assert!((f64::from(*got) - want).abs() < 1e-4, "{isa:?} f16: {got} against {want}");
        }
    }
}

#[test]
fn a_transposed_slice_of_a_fused_matrix_is_read_in_place() {
    // GPT-2's c_attn [k, 3n] stores q, k and v side by side; its middle third as w [n, k]. The
    // second shape has AMX's blocks of rows and an odd last input.
    for (m, n, k) in [(9, 37, 70), (40, 70, 71)] {
        let mut seed = 3u64;
        let a: Vec<f32> = (0..m * k).map(|_| noise(&mut seed)).collect();
        let fused: Vec<f32> = (0..k * 3 * n).map(|_| noise(&mut seed)).collect();
        let w: Vec<f32> = (0..n).flat_map(|o| (0..k).map(|i| fused[i * 3 * n + n + o]).collect::<Vec<_>>()).collect();
        let bytes: Vec<u8> = fused.iter().flat_map(|x| x.to_le_bytes()).collect();
        let mut rows = BfRows::default();
        rows.round(&a, m, k);
        for data in [Stored::F32(&fused), Stored::F32Bytes(&bytes)] {
            let matrix = StoredMatrix { data, outputs: n, inputs: k, offset: n, n_stride: 1, k_stride: 3 * n };
            for isa in Isa::available() {
                let mut out = vec![0.0; m * n];
                product_bf16(isa, &mut out, &rows, &matrix, None, 4, &one_thread);
                for (got, want) in out.iter().zip(reference(&a, &w, None, m, n, k)) {
                    assert!((f64::from(*got) - want).abs() < 1e-4, "{isa:?} {m}x{n}x{k}: {got} against {want}");
                }
            }
        }
    }
}

#[test]
fn the_environment_forces_a_path_the_cpu_has() {
    // Not set in the test run: the fastest set, which `available` lists first.
    if std::env::var("TBLOCK_ISA").is_err() {
        assert_eq!(Isa::chosen(), Isa::available()[0]);
    }
    for isa in Isa::available() {
        assert_eq!(Isa::named(isa.name()), Some(isa));
    }
    assert_eq!(Isa::named("avx9000"), None);
    // Every set runs, those this CPU lacks as the portable sums: none stops the process.
    for isa in [Isa::Amx, Isa::Avx512Bf16, Isa::Avx2, Isa::Portable] {
        assert_eq!(isa.runs_here(), Isa::available().contains(&isa), "{isa:?}");
        assert_eq!(isa.or_portable(), if isa.runs_here() { isa } else { Isa::Portable });
        check(isa, 33, 40, 70, &bf16_bytes, |b| Stored::Bf16(b));
    }
}

#[test]
#[should_panic(expected = "outside its data")]
fn a_matrix_past_its_data_is_refused() {
    let data = [0.0f32; 10];
    let rows = BfRows { data: vec![0; 3], rows: 1, inputs: 5, pairs: 3 };
    let mut out = vec![0.0; 3];
    product_bf16(Isa::Portable, &mut out, &rows, &StoredMatrix::rows(Stored::F32(&data), 3, 5), None, 1, &one_thread);
}

#[test]
fn a_panel_of_outputs_widens_to_f32_exactly_as_stored_in_every_dtype_and_layout() {
    // w [n, k] stored as nn.Linear's rows, and as the middle third of a Conv1D [k, 3n]; each dtype's
    // numbers exact in it (f16 values), so every widened number equals value(n, k).
    let (n, k) = (37, 70);
    let mut seed = 11u64;
    let numbers: Vec<f32> = (0..3 * n * k).map(|_| half::f16::from_f32(noise(&mut seed)).to_f32()).collect();
    let bf16: Vec<u8> = numbers.iter().flat_map(|&x| bf16_bits(x).to_le_bytes()).collect();
    let f16: Vec<u8> = numbers.iter().flat_map(|&x| half::f16::from_f32(x).to_le_bytes()).collect();
    let f32b: Vec<u8> = numbers.iter().flat_map(|x| x.to_le_bytes()).collect();
    let stores = [
        (Stored::Bf16(&bf16), "bf16"),
        (Stored::F16(&f16), "f16"),
        (Stored::F32Bytes(&f32b), "f32 bytes"),
        (Stored::F32(&numbers), "f32"),
    ];
    for (data, dtype) in stores {
        let rows = StoredMatrix { offset: 5, ..StoredMatrix::rows(data, n, k) };
        let conv1d = StoredMatrix { data, outputs: n, inputs: k, offset: n, n_stride: 1, k_stride: 3 * n };
        for (w, layout) in [(rows, "rows"), (conv1d, "conv1d")] {
            let mut out = vec![f32::NAN; 3];
            for (n0, nr) in [(0, n), (0, 1), (36, 1), (5, 13), (10, 0)] {
                w.widen_rows(n0, nr, &mut out);
                assert_eq!(out.len(), nr * k);
                for (i, &x) in out.iter().enumerate() {
                    assert_eq!(
                        x.to_bits(),
                        w.value(n0 + i / k, i % k).to_bits(),
                        "{dtype} {layout}: [{}, {}]",
                        n0 + i / k,
                        i % k
                    );
                }
            }
        }
    }
}
