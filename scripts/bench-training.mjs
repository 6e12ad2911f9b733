#!/usr/bin/env node
// `make bench-training`: how fast TinyGPT trains, natively, in wasm (Node and headless Chromium)
// and in PyTorch eager, on this machine, in one run. Prints a table and writes
// bench/training.json. Times are medians of repeated runs; the machine is shared, so compare
// figures from the same run. Not part of `make test` (timings are never asserted).
//
//   make bench-training          (builds what it needs: the release wasm and an optimised tblock)
//
// What each figure is: one training step at batch 16 x 16 = 256 tokens (sample a batch, forward to
// the loss, backward, clip, AdamW) of the lessons' TinyGPT (27,328 parameters), as steps per second
// and tokens per second; and, for the page, how long the default 600-step run takes in a worker.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { cpus } from 'node:os';

import { ROOT, launchChromium, startServer } from './browser.mjs';
import { torchPeers } from './torch-peers.mjs';

const TOKENS = 16 * 16;
const results = { date: new Date().toISOString(), cpu: cpus()[0]?.model ?? 'unknown', cores: cpus().length, rows: [] };
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const row = (name, msPerStep, note = '') => {
  results.rows.push({ name, ms_per_step: msPerStep, tokens_per_second: (TOKENS * 1000) / msPerStep, note });
};

// 1. Native: tblock train as `cargo build --release` builds it (what a user runs), five runs of 600 steps.
const tblock = join(ROOT, 'target', 'release', 'tblock');
execFileSync('cargo', ['build', '--quiet', '--release', '--bin', 'tblock'], { cwd: ROOT, stdio: 'inherit' });
const native = [];
for (let i = 0; i < 5; i++) {
  const out = execFileSync(tblock, ['train', '--steps', '600', '--out', join(ROOT, 'target', 'bench-model')], { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'] });
  const r = JSON.parse(out);
  native.push((r.seconds * 1000) / r.steps);
}
row('native (Rust: cargo build --release)', median(native), 'tblock train --steps 600, median of 5 runs');

// 2. Wasm in Node: the release build in www/pkg (make wasm), the facade's TrainingRun.
const pkg = join(ROOT, 'www', 'pkg');
const lib = await import(pathToFileURL(join(pkg, 'transformer_block.js')).href);
lib.initSync({ module: readFileSync(join(pkg, 'transformer_block_bg.wasm')) });
const node = [];
for (let i = 0; i < 5; i++) {
  const run = new lib.TrainingRun({ steps: 600 });
  const t0 = performance.now();
  let p;
  do p = run.run(1e9, 1e9);
  while (!p.done);
  node.push((performance.now() - t0) / 600);
  run.free();
}
row(`wasm in Node ${process.versions.node}`, median(node), 'TrainingRun, 600 steps, median of 5 runs');

// 3. Wasm in headless Chromium: the gallery's <tb-train>, the default 600-step run in its worker.
const server = await startServer();
const browser = await launchChromium();
const browserVersion = browser.version();
const page = await browser.newPage();
await page.goto(`${server.origin}/gallery/train.html`);
const chrome = [];
const pageRuns = [];
for (let i = 0; i < 5; i++) {
  const train = page.locator('tb-train').first();
  await train.getByRole('button', { name: 'Train' }).click();
  await train.locator('.outcome').filter({ hasText: 'After 600 steps' }).waitFor({ timeout: 60_000 });
  const status = await train.locator('.status').textContent(); // "Step 600 of 600 · 247 steps/s · 2.4 s"
  const seconds = Number(status.match(/· ([\d.]+) s$/)[1]);
  chrome.push((seconds * 1000) / 600);
  pageRuns.push(seconds);
  await train.locator('.outcome').evaluate((el) => { el.textContent = ''; });
}
row(`wasm in Chromium ${browserVersion} (worker)`, median(chrome), `<tb-train>, the default 600 steps, median of 5 runs: ${median(pageRuns).toFixed(1)} s`);

// 3b. The same without a worker: dist/transformer-block.js on a page whose policy refuses one, so
// training runs on the main thread in slices; how long the run takes and the longest main-thread task.
const bundle = join(ROOT, 'dist', 'transformer-block.js');
if (existsSync(bundle)) {
  const site = 'https://course.example';
  const context = await browser.newContext();
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url === `${site}/train.html`) {
      return route.fulfill({
        headers: { 'Content-Type': 'text/html', 'Content-Security-Policy': "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'" },
        body: '<!doctype html><meta charset="utf-8"><title>t</title><script src="/transformer-block.js"></script><tb-train></tb-train>',
      });
    }
    if (url === `${site}/transformer-block.js`) return route.fulfill({ headers: { 'Content-Type': 'text/javascript' }, body: readFileSync(bundle) });
    return route.abort();
  });
  const slices = await context.newPage();
  await slices.goto(`${site}/train.html`);
  await slices.evaluate(() => {
    window.__long = [];
    new PerformanceObserver((list) => window.__long.push(...list.getEntries().map((e) => e.duration))).observe({ type: 'longtask' });
  });
  const train = slices.locator('tb-train');
  await train.getByRole('button', { name: 'Train' }).click();
  await train.locator('.outcome').filter({ hasText: 'After 600 steps' }).waitFor({ timeout: 120_000 });
  const status = await train.locator('.status').textContent();
  const seconds = Number(status.match(/· ([\d.]+) s$/)[1]);
  const long = await slices.evaluate(() => window.__long);
  results.main_thread = { seconds_in_steps: seconds, long_tasks: long.length, longest_task_ms: Math.max(0, ...long) };
  row(`wasm in Chromium, main thread (no worker)`, (seconds * 1000) / 600, `600 steps in 8 ms slices; ${long.length} long tasks, the longest ${Math.round(Math.max(0, ...long))} ms`);
  await context.close();
} else {
  results.rows.push({ name: 'wasm in Chromium, main thread', note: 'skipped: no dist/ (make dist)' });
}
await browser.close();
server.stop();

// 4. PyTorch, when a Python with torch is there (tests/reference/.venv): by hand, SDPA, compiled.
const peers = torchPeers();
for (const r of peers.rows) {
  if (r.error) results.rows.push({ name: `PyTorch ${r.label}`, note: `failed: ${r.error}` });
  else row(`PyTorch ${r.torch} ${r.label}`, r.train_step_16x16_ms, 'train_reference.py --bench, median of 300 steps');
}
if (!peers.available) results.rows.push({ name: 'PyTorch', note: peers.note });

mkdirSync(join(ROOT, 'bench'), { recursive: true });
writeFileSync(join(ROOT, 'bench', 'training.json'), `${JSON.stringify(results, null, 2)}\n`);
console.log(`\nOne training step of TinyGPT at batch 16 x 16 (256 tokens) on ${results.cpu}, ${results.cores} cores, ${results.date}\n`);
console.log(`${'where'.padEnd(60)} ${'ms/step'.padStart(8)} ${'tokens/s'.padStart(10)}  note`);
for (const r of results.rows) {
  if (r.ms_per_step === undefined) console.log(`${r.name.padEnd(60)} ${''.padStart(8)} ${''.padStart(10)}  ${r.note}`);
  else console.log(`${r.name.padEnd(60)} ${r.ms_per_step.toFixed(2).padStart(8)} ${Math.round(r.tokens_per_second).toLocaleString('en-US').padStart(10)}  ${r.note}`);
}
