// This CPU's peak for the products' instructions, measured by the kernels' probe (cargo run --release
// -p tb-kernels --example peak: each instruction on registers only, one thread and every core, best
// of three), and the products' rate as a share of it.
//
//   const peaks = measurePeaks(root)    // { cores, vfmadd231ps: { 1: GFLOP/s, [cores]: … }, … }
//   shareOfPeak(peaks, 'bf16 (amx)', 1, gflops)   // { instruction, peak_gflops, share } or null
//
// f32 products (faer) run on vfmadd231ps; bf16 on AMX on tdpbf16ps, on AVX-512 BF16 on vdpbf16ps.
// The AVX2 and portable paths have no probe: their share is left out rather than guessed.

import { execFileSync } from 'node:child_process';

export function measurePeaks(root) {
  const out = execFileSync('cargo', ['run', '--quiet', '--release', '-p', 'tb-kernels', '--example', 'peak'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return JSON.parse(out.toString());
}

/** The instruction a product's compute (tblock's `measured.compute`, e.g. "f32", "bf16 (amx)") runs on. */
function instructionOf(compute) {
  if (compute === 'f32' || compute.startsWith('f32')) return 'vfmadd231ps';
  if (compute.includes('amx')) return 'tdpbf16ps';
  if (compute.includes('avx512bf16')) return 'vdpbf16ps';
  return null;
}

export function shareOfPeak(peaks, compute, threads, gflops) {
  const instruction = instructionOf(compute);
  const peak = instruction && peaks[instruction]?.[threads];
  return peak ? { instruction, peak_gflops: peak, share: gflops / peak } : null;
}
