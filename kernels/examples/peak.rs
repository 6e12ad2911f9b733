//! This CPU's peak GFLOP/s for the instructions the products use, on one thread and on every core:
//! each thread runs the probe of [`tb_kernels::product::x86::peak`] for about half a second, the
//! best of three runs is kept. Prints one JSON object.
//!
//!   cargo run --release -p tb-kernels --example peak

#[cfg(target_arch = "x86_64")]
fn main() {
    use std::time::Instant;
    use tb_kernels::product::x86::{amx, avx512_bf16, peak};

    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let avx512f = std::is_x86_feature_detected!("avx512f");
    type Probe = unsafe fn(u64) -> f64;
    let probes: [(&str, bool, Probe, u64); 3] = [
        ("vfmadd231ps", avx512f, peak::fma_f32, 20_000_000),
        ("vdpbf16ps", avx512_bf16::supported(), peak::dot_bf16, 20_000_000),
        ("tdpbf16ps", amx::supported(), peak::tile_bf16, 2_000_000),
    ];
    let mut fields = vec![format!("\"cores\":{cores}")];
    for (name, runs_here, probe, rounds) in probes {
        if !runs_here {
            fields.push(format!("\"{name}\":null"));
            continue;
        }
        let mut rates = Vec::new();
        for threads in [1, cores] {
            let best = (0..3)
                .map(|_| {
                    let start = Instant::now();
                    let flop: f64 = std::thread::scope(|s| {
                        let handles: Vec<_> = (0..threads)
                            // SAFETY: each probe runs only where the CPU has its instructions (checked above).
                            .map(|_| s.spawn(move || unsafe { probe(rounds) }))
                            .collect();
                        handles.into_iter().map(|h| h.join().expect("a probe thread")).sum()
                    });
                    flop / start.elapsed().as_secs_f64() / 1e9
                })
                .fold(0.0f64, f64::max);
            rates.push(format!("\"{threads}\":{best:.1}"));
        }
        fields.push(format!("\"{name}\":{{{}}}", rates.join(",")));
    }
    println!("{{{}}}", fields.join(","));
}

#[cfg(not(target_arch = "x86_64"))]
fn main() {
    println!("{{}}");
}
