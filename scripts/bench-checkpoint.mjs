#!/usr/bin/env node
// `make bench-checkpoint`: memory and speed of `tblock eval` on a checkpoint the size of Qwen2-0.5B
// (494 M parameters, bf16, one 988 MB model.safetensors), beside PyTorch (transformers) on the same
// checkpoint and the same 1,024 token ids. Prints a table and writes bench/checkpoint.json. Not part
// of `make test` (timings are never asserted); the machine is shared, so compare figures from one run.
//
//   make bench-checkpoint        (builds the release tblock first)
//   RUNS=n                       timed runs a configuration (default 3; the median is reported)
//   TBLOCK_BENCH_DIR=dir         where the checkpoint is written (default /tmp/tblock-bench-qwen2-0.5b)
//   QUIET_WAIT=s                 before each run, wait up to s seconds (default 120) for the machine
//                                to be idle (under 10% busy over 2 s); 0: do not wait
//
// The checkpoint has random weights (a seeded init), written by scripts/bench_checkpoint.py with
// transformers in Qwen2-0.5B's shape, with the small test tokenizer of
// tests/reference/fixtures/checkpoints/qwen2 (384 tokens; every id is a valid row of the 151,936-row
// embedding, which is all the timing needs). It is written once, under /tmp, and reused while its
// spec is unchanged; it is never committed. The text is the shortest prefix of the lesson prose that
// makes 1,025 tokens: one window of 1,024 positions.
//
// What is measured, each configuration in its own process:
//   tblock eval --plan            the fixed cost of a run (open, map, check each block, tokenise, plus
//                                 its ~0.2 s rate probe) and the expected time it prints
//   tblock eval --plan --compute  the products' rate alone (f32 and bf16, all threads and one),
//                                 against this CPU's peak for their instruction, measured by the
//                                 kernels' probe (cargo run -p tb-kernels --example peak)
//   tblock eval                   all threads, and --threads 1: wall time and peak RSS
//                                 (/usr/bin/time -v), beside the mapped size (the .safetensors bytes);
//                                 faer's blocked products in f32, the kernels' bf16 products
//                                 (--compute bf16), and the plain kernels (TBLOCK_KERNEL=plain, what
//                                 checkpoints ran on before; PLAIN=0 leaves them out)
//   tblock ablate / PyTorch loop  GPT-2-small-shaped f32 (TBLOCK_BENCH_GPT2_DIR, default
//                                 /tmp/tblock-bench-gpt2-small): tblock ablate in f32 and bf16 beside
//                                 a PyTorch loop of the same 25 forwards, all threads and one, one run
//                                 each; time, peak RSS, every loss against PyTorch's (ABLATE=0: none)
//   PyTorch                       from_pretrained(dtype=float32), then bfloat16; one forward of the
//                                 1,024 ids with labels (so the loss too), median of RUNS after a
//                                 warm-up, at all threads and at 1; peak RSS of the process, and its
//                                 anonymous and file-backed resident memory sampled every 50 ms
// PyTorch's f32 loss must equal tblock's within 1e-3, or the run exits 1 (after writing the results).
// Each run also records what else the machine did meanwhile: the CPU time of all processes
// (/proc/stat) minus the run's own, as a share of the cores (`others_cpu_share`; 0 on a quiet
// machine), so a disturbed figure can be told from a slow one. A run during which the others used
// more than 10% is run again, up to 3 more times, and kept marked "disturbed" if it never was quiet.
//
// Without tests/reference/.venv and torch there is no way to write the checkpoint: the run prints
// that it is skipped and exits 0, and bench/checkpoint.json is left as it was (as the other benches
// report a missing PyTorch as "skipped" rather than fail).

import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { measurePeaks, shareOfPeak } from './bench-checkpoint/peak.mjs';
import { busySeconds, haveTime, measuring, othersShare } from './bench-checkpoint/runs.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PYTHON = join(ROOT, 'tests', 'reference', '.venv', 'bin', 'python');
const HELPER = join(ROOT, 'scripts', 'bench_checkpoint.py');
const TBLOCK = join(ROOT, 'target', 'release', 'tblock');
const DIR = process.env.TBLOCK_BENCH_DIR || '/tmp/tblock-bench-qwen2-0.5b';
const GPT2_DIR = process.env.TBLOCK_BENCH_GPT2_DIR || '/tmp/tblock-bench-gpt2-small';
const TEXT = join(DIR, 'bench-text.txt');
const CONTEXT = 1024;
const RUNS = Math.max(1, Number(process.env.RUNS) || 3);
const LOSS_TOLERANCE = 1e-3;
const MIB = 1024 * 1024;

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const say = (line) => console.error(`bench-checkpoint: ${line}`);

// 0. Python with torch, or skip.
function skip(note) {
  console.log(`bench-checkpoint: skipped: ${note}`);
  console.log('bench-checkpoint: the checkpoint is written with transformers, so nothing was measured; bench/checkpoint.json is unchanged');
  process.exit(0);
}
if (!existsSync(PYTHON)) skip('no tests/reference/.venv with torch (tests/reference/README.md says how to make one)');
if (spawnSync(PYTHON, ['-c', 'import torch, transformers, tokenizers, safetensors'], { stdio: 'ignore' }).status !== 0) {
  skip('tests/reference/.venv lacks torch, transformers, tokenizers or safetensors');
}
if (!existsSync(TBLOCK)) {
  console.error('bench-checkpoint: no target/release/tblock: run make bench-checkpoint (it builds it)');
  process.exit(1);
}

const python = (args) => JSON.parse(execFileSync(PYTHON, [HELPER, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 24 }));

// 1. The machine, before anything runs.
const cpuinfo = readFileSync('/proc/cpuinfo', 'utf8');
const machine = {
  nproc: Number(execFileSync('nproc').toString().trim()),
  cpu: cpuinfo.match(/^model name\s*:\s*(.*)$/m)?.[1] ?? 'unknown',
  memory_mib: Math.round(Number(readFileSync('/proc/meminfo', 'utf8').match(/^MemTotal:\s*(\d+)/m)[1]) / 1024),
  load_average_before: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).map(Number),
  date: new Date().toISOString(),
  shared: true,
};
const THREADS = [...new Set([machine.nproc, 1])];
const { undisturbed, timed } = measuring({ root: ROOT, tblock: TBLOCK, nproc: machine.nproc, quietWait: Number(process.env.QUIET_WAIT ?? 120), say });

// 2. The checkpoint and the text.
say(`checkpoint in ${DIR} (written once, about 15 s here; reused while its spec is the same)`);
const checkpoint = python(['write', DIR]);
say(checkpoint.reused ? 'reused the checkpoint already there' : `wrote it in ${checkpoint.write_seconds.toFixed(1)} s`);
const text = python(['text', TEXT, '--tokens', String(CONTEXT + 1)]);
const mappedMib = checkpoint.mapped_bytes / MIB;

// 3. tblock: each run in its own process under /usr/bin/time -v (peak RSS, CPU time); wall time from
// here; and, sampled every 50 ms from /proc, the most of its resident memory that was anonymous (its
// own f32 copies and activations) and file-backed (pages of the mapped checkpoint).

const evalArgs = ['eval', '--weights', DIR, '--text', TEXT, '--context', String(CONTEXT)];

say('tblock eval --plan');
const planRuns = [];
for (let i = 0; i < RUNS; i++) planRuns.push(await undisturbed(() => timed([...evalArgs, '--plan']), 'tblock --plan'));
const plan = {
  ...planRuns[0].out.plan,
  wall_seconds: median(planRuns.map((r) => r.seconds)),
  peak_rss_mib: Math.max(...planRuns.map((r) => r.peak_rss_mib ?? 0)) || null,
  peak_anonymous_mib: Math.max(...planRuns.map((r) => r.peak_anonymous_mib)),
  peak_file_backed_mib: Math.max(...planRuns.map((r) => r.peak_file_backed_mib)),
};
const measured = planRuns[0].out.measured;
if (measured.windows !== 1 || measured.tokens !== CONTEXT) throw new Error(`expected one window of ${CONTEXT}, tblock saw ${JSON.stringify(measured)}`);
const tokens = measured.tokens;

// The products' rate alone, as --plan measures it (256 rows by a d x 4d matrix, ~0.2 s), against this
// CPU's peak for the instruction they run on, measured here by the kernels' probe
// (bench-checkpoint/peak.mjs).
say('the peaks: cargo run --release -p tb-kernels --example peak');
const peaks = await undisturbed(() => ({ ...measurePeaks(ROOT), others_cpu_share: null }), 'the peak probe');
const rates = [];
for (const compute of ['f32', 'bf16']) for (const threads of THREADS) {
  const r = await undisturbed(() => timed([...evalArgs, '--plan', '--compute', compute, '--threads', String(threads)]), `tblock --plan, ${compute}, ${threads} thread(s)`);
  const gflops = r.out.plan.measured_gflops_per_second;
  const share = shareOfPeak(peaks, r.out.plan.compute, threads, gflops);
  rates.push({ compute: r.out.plan.compute, threads, gflops, instruction: share?.instruction ?? null, peak_gflops: share?.peak_gflops ?? null, share_of_peak: share?.share ?? null });
}

const rows = [];
// tblock's products: faer's blocked kernels in f32 (the default), the kernels' bf16 products
// (--compute bf16: vdpbf16ps on the mapped bf16, where the CPU has it), and the plain kernels the page
// runs (TBLOCK_KERNEL=plain: what every checkpoint ran on before; PLAIN=0 leaves them out).
const CONFIGS = [
  { kernel: 'blocked', compute: 'f32' },
  { kernel: 'blocked', compute: 'bf16' },
  ...(process.env.PLAIN === '0' ? [] : [{ kernel: 'plain', compute: 'f32' }]),
];
for (const { kernel, compute } of CONFIGS) for (const threads of THREADS) {
  say(`tblock eval, --compute ${compute}, ${kernel} kernels, --threads ${threads}, ${RUNS} runs`);
  const runs = [];
  const args = [...evalArgs, '--threads', String(threads), '--compute', compute];
  for (let i = 0; i < RUNS; i++) runs.push(await undisturbed(() => timed(args, { TBLOCK_KERNEL: kernel }), `tblock, ${compute}, ${kernel}, ${threads} thread(s)`));
  const wall = median(runs.map((r) => r.seconds));
  const forward = wall - plan.wall_seconds;
  const products = compute === 'bf16' ? runs[0].out.measured.compute : `f32, ${kernel === 'plain' ? 'plain kernels' : 'faer'}`;
  rows.push({
    who: `tblock ${measured.by.replace('tblock ', '')} (${products}; weights bf16 mapped)`,
    kernel,
    compute,
    threads,
    tokens_per_second: tokens / forward,
    tokens_per_second_whole_run: tokens / wall,
    forward_seconds: forward,
    wall_seconds: wall,
    wall_seconds_all: runs.map((r) => r.seconds),
    open_seconds: plan.wall_seconds,
    expected_seconds_plan: plan.expected_seconds,
    peak_rss_mib: haveTime ? Math.max(...runs.map((r) => r.peak_rss_mib)) : null,
    peak_anonymous_mib: Math.max(...runs.map((r) => r.peak_anonymous_mib)),
    peak_file_backed_mib: Math.max(...runs.map((r) => r.peak_file_backed_mib)),
    mapped_mib: mappedMib,
    loss: runs[0].out.loss,
    losses_equal_across_runs: runs.every((r) => r.out.loss === runs[0].out.loss),
    cpu_seconds: median(runs.map((r) => r.cpu_seconds)),
    others_cpu_share: runs.map((r) => r.others_cpu_share),
    attempts: runs.map((r) => r.attempts),
    disturbed: runs.some((r) => r.disturbed),
  });
}

// 4. PyTorch: one process a configuration.
for (const dtype of ['f32', 'bf16']) {
  for (const threads of THREADS) {
    say(`PyTorch ${dtype}, ${threads} thread(s), warm-up + ${RUNS} runs`);
    let r;
    try {
      r = await undisturbed(() => {
        const busy0 = busySeconds();
        const started = process.hrtime.bigint();
        const out = python(['peer', DIR, TEXT, '--context', String(CONTEXT), '--threads', String(threads), '--dtype', dtype, '--runs', String(RUNS)]);
        out.process_seconds = Number(process.hrtime.bigint() - started) / 1e9;
        out.others_cpu_share = othersShare(busySeconds() - busy0, out.process_cpu_seconds, out.process_seconds, machine.nproc);
        return out;
      }, `PyTorch ${dtype}, ${threads} thread(s)`);
    } catch (err) {
      rows.push({ who: `PyTorch (${dtype} compute)`, threads, error: String(err.message).split('\n')[0] });
      continue;
    }
    rows.push({
      who: `PyTorch ${r.torch}, transformers ${r.transformers} (${dtype} compute, ${r.attention})`,
      threads: r.threads,
      tokens_per_second: r.tokens / r.forward_seconds,
      tokens_per_second_whole_run: r.tokens / (r.load_seconds + r.forward_seconds),
      forward_seconds: r.forward_seconds,
      wall_seconds: r.load_seconds + r.forward_seconds,
      forward_seconds_all: r.forward_seconds_all,
      open_seconds: r.load_seconds,
      peak_rss_mib: r.peak_rss_mib,
      peak_anonymous_mib: r.peak_anonymous_mib,
      peak_file_backed_mib: r.peak_file_backed_mib,
      mapped_mib: mappedMib,
      loss: r.loss,
      dtype,
      process_seconds: r.process_seconds,
      cpu_seconds: r.process_cpu_seconds,
      others_cpu_share: [r.others_cpu_share],
      attempts: [r.attempts],
      disturbed: r.disturbed,
    });
  }
}

// 4b. The ablation: tblock ablate on a GPT-2-small-shaped f32 checkpoint at context 1,024 beside a
// PyTorch loop of the same 25 forwards (intact, each of 12 blocks removed and overwritten), one run
// each (they take a minute or two), at all threads and one. ABLATE=0 leaves it out.
const ablation = [];
let gpt2 = null;
if (process.env.ABLATE !== '0') {
  say(`GPT-2-small-shaped f32 checkpoint in ${GPT2_DIR}`);
  gpt2 = python(['write', GPT2_DIR, '--spec', 'gpt2-small']);
  const ablateArgs = ['ablate', '--weights', GPT2_DIR, '--text', TEXT, '--context', String(CONTEXT)];
  for (const compute of ['f32', 'bf16']) for (const threads of THREADS) {
    say(`tblock ablate, --compute ${compute}, --threads ${threads}`);
    const r = await undisturbed(() => timed([...ablateArgs, '--threads', String(threads), '--compute', compute]), `tblock ablate, ${compute}, ${threads} thread(s)`);
    ablation.push({ who: `tblock ablate (${r.out.measured.compute})`, compute, threads, seconds: r.seconds, peak_rss_mib: r.peak_rss_mib, mapped_mib: gpt2.mapped_bytes / MIB, intact: r.out.intact, blocks: r.out.blocks, others_cpu_share: [r.others_cpu_share], disturbed: r.disturbed });
  }
  for (const threads of THREADS) {
    say(`PyTorch ablation loop, f32, ${threads} thread(s)`);
    try {
      const r = await undisturbed(() => {
        const busy0 = busySeconds();
        const started = process.hrtime.bigint();
        const out = python(['ablate-peer', GPT2_DIR, TEXT, '--context', String(CONTEXT), '--threads', String(threads)]);
        out.process_seconds = Number(process.hrtime.bigint() - started) / 1e9;
        out.others_cpu_share = othersShare(busySeconds() - busy0, out.process_cpu_seconds, out.process_seconds, machine.nproc);
        return out;
      }, `PyTorch ablation, ${threads} thread(s)`);
      ablation.push({ who: `PyTorch ${r.torch} loop of ${r.forwards} forwards (f32)`, compute: 'pytorch', threads: r.threads, seconds: r.load_seconds + r.ablation_seconds, load_seconds: r.load_seconds, process_seconds: r.process_seconds, peak_rss_mib: r.peak_rss_mib, mapped_mib: gpt2.mapped_bytes / MIB, intact: r.intact, blocks: r.blocks, others_cpu_share: [r.others_cpu_share], disturbed: r.disturbed });
    } catch (err) {
      ablation.push({ who: 'PyTorch ablation loop (f32)', compute: 'pytorch', threads, error: String(err.message).split('\n')[0] });
    }
  }
  // Every loss beside PyTorch's at the same thread count.
  for (const a of ablation.filter((x) => x.compute !== 'pytorch' && !x.error)) {
    const peer = ablation.find((x) => x.compute === 'pytorch' && x.threads === a.threads && !x.error);
    if (!peer) continue;
    const diffs = [Math.abs(a.intact - peer.intact), ...a.blocks.flatMap((b, i) => [Math.abs(b.removed - peer.blocks[i].removed), Math.abs(b.overwritten - peer.blocks[i].overwritten)])];
    a.max_loss_difference_from_pytorch = Math.max(...diffs);
    a.speedup_over_pytorch = peer.seconds / a.seconds;
  }
}

// 5. The checks, the results, the table.
const tblockLoss = rows.find((r) => r.compute === 'f32').loss;
const tblockBf16Loss = rows.find((r) => r.compute === 'bf16')?.loss;
const f32Peers = rows.filter((r) => r.dtype === 'f32' && r.loss !== undefined);
const lossCheck = {
  tblock: tblockLoss,
  pytorch_f32: f32Peers.map((r) => r.loss),
  max_abs_difference: Math.max(...f32Peers.map((r) => Math.abs(r.loss - tblockLoss))),
  tolerance: LOSS_TOLERANCE,
};
lossCheck.agree = f32Peers.length > 0 && lossCheck.max_abs_difference <= LOSS_TOLERANCE;

const results = {
  date: machine.date,
  command: 'make bench-checkpoint',
  machine,
  checkpoint: { dir: DIR, files: checkpoint.files, mapped_bytes: checkpoint.mapped_bytes, parameters: measured.parameters, dtype: measured.dtype, reused: checkpoint.reused, write_seconds: checkpoint.write_seconds, spec: checkpoint.spec },
  text: { source: 'crate/data/lesson-prose.txt', chars: text.chars, tokens: text.tokens, windows: measured.windows, context: CONTEXT },
  runs_per_configuration: RUNS,
  plan,
  peaks,
  rates,
  rows,
  ablation: { checkpoint: gpt2, context: CONTEXT, rows: ablation },
  loss_check: lossCheck,
  notes: haveTime ? [] : ['no /usr/bin/time (Debian package time): peak RSS of tblock not measured'],
};
mkdirSync(join(ROOT, 'bench'), { recursive: true });
writeFileSync(join(ROOT, 'bench', 'checkpoint.json'), `${JSON.stringify(results, null, 2)}\n`);

const fmt = (x, digits = 1) => (x === null || x === undefined ? '—' : x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }));
console.log(`\ntblock eval vs PyTorch on a random Qwen2-0.5B-shaped bf16 checkpoint (${fmt(measured.parameters / 1e6, 0)} M parameters, ${fmt(mappedMib, 0)} MiB mapped),`);
console.log(`one window of ${CONTEXT} positions (${text.chars} characters); ${machine.cpu}, nproc ${machine.nproc} (shared), load ${machine.load_average_before.join(' ')}, ${machine.date}; median of ${RUNS}\n`);
const head = ['who', 'threads', 'tokens/s', 'forward s', 'whole run s', 'peak RSS MiB', 'RSS / mapped', 'loss', 'others\' CPU'];
const table = rows.map((r) => r.error
  ? [r.who, String(r.threads), `failed: ${r.error}`, '', '', '', '', '', '']
  : [`${r.who}${r.disturbed ? ' (disturbed)' : ''}`, String(r.threads), fmt(r.tokens_per_second), fmt(r.forward_seconds, 2), fmt(r.wall_seconds, 2), fmt(r.peak_rss_mib, 0), r.peak_rss_mib ? `${(r.peak_rss_mib / mappedMib).toFixed(2)}x` : '—', r.loss.toFixed(6), r.others_cpu_share.map((x) => (x === null ? '—' : `${Math.round(x * 100)}%`)).join(' ')]);
const widths = head.map((h, i) => Math.max(h.length, ...table.map((row) => row[i].length)));
const line = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
console.log(line(head));
for (const row of table) console.log(line(row));
console.log(`\ntblock --plan: ${fmt(plan.expected_seconds, 1)} s expected at ${fmt(plan.measured_gflops_per_second, 1)} GFLOP/s (${fmt(plan.flops / 1e12, 2)} TFLOP); the run itself opens in ${fmt(plan.wall_seconds, 2)} s (peak RSS ${fmt(plan.peak_rss_mib, 0)} MiB)`);
for (const r of rows.filter((x) => x.peak_anonymous_mib !== undefined)) {
  console.log(`${r.who}, ${r.threads} thread(s): at most ${fmt(r.peak_anonymous_mib, 0)} MiB anonymous and ${fmt(r.peak_file_backed_mib, 0)} MiB file-backed resident (sampled every 50 ms)`);
}
console.log(`tblock --plan: at most ${fmt(plan.peak_anonymous_mib, 0)} MiB anonymous and ${fmt(plan.peak_file_backed_mib, 0)} MiB file-backed`);
for (const r of rates) {
  const share = r.share_of_peak !== null
    ? `${Math.round(r.share_of_peak * 100)}% of the ${fmt(r.peak_gflops, 0)} GFLOP/s peak of ${r.instruction} (the kernels' probe)`
    : 'no probe of the peak for this path';
  console.log(`products alone (--plan's probe), ${r.compute}, ${r.threads} thread(s): ${fmt(r.gflops)} GFLOP/s, ${share}`);
}
console.log(`tblock's forward s = its wall time minus --plan's; PyTorch's is the forward alone, its whole run = from_pretrained + one forward`);
console.log(`others' CPU: what the rest of the machine used during each run (tblock) or the whole process (PyTorch), a share of the ${machine.nproc} cores`);
console.log(`loss: tblock ${tblockLoss}, PyTorch f32 ${lossCheck.pytorch_f32.join(', ')}: |difference| ${lossCheck.max_abs_difference.toExponential(2)} ${lossCheck.agree ? '<=' : '>'} ${LOSS_TOLERANCE}`);
if (ablation.length) {
  console.log(`\ntblock ablate vs a PyTorch loop of the same 25 forwards, GPT-2-small-shaped f32 checkpoint (${fmt(gpt2.mapped_bytes / MIB, 0)} MiB), one window of ${CONTEXT}; one run each`);
  for (const a of ablation) {
    if (a.error) { console.log(`${a.who}, ${a.threads} thread(s): failed: ${a.error}`); continue; }
    const vs = a.speedup_over_pytorch ? `, ${a.speedup_over_pytorch.toFixed(2)}x PyTorch's speed, losses within ${a.max_loss_difference_from_pytorch.toExponential(1)} of its` : '';
    console.log(`${a.who}${a.disturbed ? ' (disturbed)' : ''}, ${a.threads} thread(s): ${fmt(a.seconds, 1)} s whole run, peak RSS ${fmt(a.peak_rss_mib, 0)} MiB (${(a.peak_rss_mib / a.mapped_mib).toFixed(2)}x the file)${vs}`);
  }
}
if (tblockBf16Loss !== undefined) {
  const bf16Peers = rows.filter((r) => r.dtype === 'bf16' && r.loss !== undefined).map((r) => r.loss);
  console.log(`loss in bf16 products: tblock ${tblockBf16Loss} (${(tblockBf16Loss - tblockLoss).toExponential(2)} from its f32), PyTorch bf16 ${bf16Peers.join(', ')} (PyTorch rounds the stream, norms and attention to bf16 as well)`);
}
console.log('wrote bench/checkpoint.json');
if (!lossCheck.agree) {
  console.error('bench-checkpoint: PyTorch\'s f32 loss and tblock\'s disagree: the comparison is not of the same computation');
  process.exit(1);
}
