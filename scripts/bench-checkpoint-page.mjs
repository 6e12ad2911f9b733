#!/usr/bin/env node
// `make bench-checkpoint-page`: a GPT-2-small-shaped checkpoint (124 M parameters, f32, one 475 MiB
// model.safetensors, random weights written by scripts/bench_checkpoint.py with the small test
// tokenizer) in <tb-attention weights-src> in headless Chromium, served from localhost by
// scripts/serve.mjs: how long its bytes take to arrive (a plain fetch read to its end, in the page),
// the time from opening the page to the first maps (and again after a reload, from the copy the
// browser kept), and one forward pass over the reader's text
// (PageCheckpoint.inspect in the checkpoint worker: every block's attention weights and the next
// token) at about 16 and 64 tokens, the median of RUNS; the worker's wasm memory once opened (what
// the page's checkpoint client was told) against the weights' bytes; the experiments run a pass a
// task in the worker (the stream and the ablation over one window of 64 positions, 32 tokens written
// on, the first and each after it timed: through the KV cache, one position a token); and the tasks on the page's main thread meanwhile (PerformanceObserver 'longtask': every task
// over 50 ms); and the engine alone through the client beside onnxruntime-web's wasm backend on the
// same weights (bench-onnx-peer.mjs, skipped with its reason when it cannot be had), each on one
// thread and on the machine's cores (the page is sent cross-origin isolated: the worker runs the
// threads build; Write on is timed on both too). Prints JSON; never
// asserted (timings on a shared machine), written down in BENCHMARKS.md.
//
//   TBLOCK_BENCH_GPT2_DIR=dir   the checkpoint (default /tmp/tblock-bench-gpt2-small; written with
//                               tests/reference/.venv when missing, as make bench-checkpoint does)
//   RUNS=n                      timed forwards a length (default 5)
//   ENGINE=simd128              the SIMD128 engine, as in a browser without relaxed SIMD (the
//                               relaxed-SIMD one answered 404); by default the worker's choice
//
// The checkpoint is copied beside the gallery (www/gallery/models/bench-gpt2/, not committed) for
// the run and removed after.

import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, launchChromiumProfile, startServer } from './browser.mjs';
import { ortForwards, prepareOrt } from './bench-onnx-peer.mjs';

const DIR = process.env.TBLOCK_BENCH_GPT2_DIR ?? '/tmp/tblock-bench-gpt2-small';
const RUNS = Number(process.env.RUNS ?? 5);
const SERVED = join(ROOT, 'www/gallery/models/bench-gpt2');
const FILES = ['config.json', 'tokenizer.json', 'model.safetensors'];

if (!existsSync(join(DIR, 'model.safetensors'))) {
  const python = join(ROOT, 'tests/reference/.venv/bin/python');
  execFileSync(python, [join(ROOT, 'scripts/bench_checkpoint.py'), 'write', DIR, '--spec', 'gpt2-small'], { stdio: 'inherit' });
}
mkdirSync(SERVED, { recursive: true });
for (const f of FILES) copyFileSync(join(DIR, f), join(SERVED, f));
const ortPeer = prepareOrt(DIR, SERVED);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const server = await startServer({ live: true });
// A profile on disk, as a reader's: the checkpoint is kept in Cache Storage as it loads.
const profile = mkdtempSync(join(tmpdir(), 'tb-bench-profile-'));
const browser = await launchChromiumProfile(profile);
try {
  const page = await browser.newPage();
  if (process.env.ENGINE === 'simd128') await page.route('**/checkpoint-relaxed_bg.wasm', (route) => route.fulfill({ status: 404, body: '' }));
  await page.addInitScript(() => {
    window.__long = [];
    new PerformanceObserver((list) => window.__long.push(...list.getEntries().map((e) => Math.round(e.duration)))).observe({ type: 'longtask', buffered: true });
  });
  // Sent cross-origin isolated, as serve.mjs sends its pages: the worker runs the threads build on a
  // pool of the machine's cores (and onnxruntime-web may start its threads).
  await page.route('**/bench-checkpoint.html', (route) =>
    route.fulfill({
      contentType: 'text/html',
      headers: { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' },
      body: '<!doctype html><html lang="en"><head><meta charset="utf-8"><script type="module" src="/src/elements/attention.js"></script></head><body><tb-attention weights-src="/gallery/models/bench-gpt2/" text="the"></tb-attention></body></html>',
    }),
  );
  // The bytes alone, read to their end in the page: what the page's load is compared with.
  await page.goto(`${server.origin}/gallery/index.html`);
  const arrive = await page.evaluate(async () => {
    const start = performance.now();
    const response = await fetch('/gallery/models/bench-gpt2/model.safetensors', { cache: 'no-store' });
    const reader = response.body.getReader();
    let bytes = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.length;
    }
    return { bytes, ms: performance.now() - start };
  });
  const start = Date.now();
  await page.goto(`${server.origin}/bench-checkpoint.html`);
  const att = page.locator('tb-attention');
  await att.locator('.pieces li').first().waitFor({ timeout: 600_000 });
  const firstMaps = Date.now() - start;
  // The page's own client module (the same instance the widget uses): what the worker said.
  const { memory, engine: engineBuild } = await page.evaluate(async () => {
    const { openCheckpoint } = await import('/src/checkpoint/client.js');
    const c = openCheckpoint({ href: new URL('/gallery/models/bench-gpt2/', location.href).href });
    return { memory: c.memory, engine: c.engine };
  });
  const longWhileLoading = await page.evaluate(() => window.__long.splice(0));
  const settled = () => page.waitForFunction(() => !document.querySelector('tb-attention').busy, null, { timeout: 600_000 });
  await settled();
  const forwards = {};
  for (const words of [8, 32]) {
    const times = [];
    let tokens = 0;
    for (let run = 0; run <= RUNS; run++) {
      // A new text each run (the widget reads only a changed text), the same length.
      const text = Array.from({ length: words }, (_, i) => 'abcdefghijklmnopqrstuvwxyz'[(i * 7 + run) % 26]).join(' ');
      const t0 = Date.now();
      await att.getByLabel('Text').fill(text);
      await settled();
      if (run > 0) times.push(Date.now() - t0); // the first is a warm-up
      tokens = await att.locator('.pieces li').count();
    }
    forwards[tokens] = { median_ms: median(times), runs: times };
  }
  const longWhileReading = await page.evaluate(() => window.__long.splice(0));
  // The experiments and the sampler's writing, through the same client: one window of 64 positions
  // (the stream: one pass; the ablation: 1 + 2L passes), and 32 tokens written on.
  const runs = await page.evaluate(async () => {
    const { openCheckpoint } = await import('/src/checkpoint/client.js');
    const c = openCheckpoint({ href: new URL('/gallery/models/bench-gpt2/', location.href).href });
    const text = 'the residual stream carries every token through each block of the model, and each block adds to it. '.repeat(2);
    const timed = async (what) => {
      const t0 = performance.now();
      let passes = 0;
      await c.experiment(what, (p) => (passes = p)).result;
      const ms = performance.now() - t0;
      return { ms: Math.round(ms), passes, ms_per_pass: Math.round(ms / passes) };
    };
    // Write on: 32 tokens after a text, each drawn through the KV cache; the time to each token
    // (the first reads the whole text, each after it one position).
    const writeOn = async (text) => {
      const at = [];
      const t0 = performance.now();
      await c.experiment({ name: 'continuation', text, count: 32, seed: 1, temperature: 0 }, (p, total, drawn) => drawn && at.push(performance.now())).result;
      const gaps = at.slice(1).map((t, i) => t - at[i]).sort((a, b) => a - b);
      return { first_token_ms: Math.round(at[0] - t0), after_first_median_ms: Math.round(gaps[Math.floor(gaps.length / 2)] * 10) / 10, after_first_max_ms: Math.round(gaps[gaps.length - 1]), tokens: at.length };
    };
    const prompt = 'the residual stream carries every token through each block of the model';
    const pool = c.info.threads;
    const figures = {
      threads: pool,
      stream: await timed({ name: 'stream', text, context: 64 }),
      ablation: await timed({ name: 'ablation', text, context: 64 }),
      write_on_32_tokens: await writeOn(prompt),
    };
    if (pool > 1) {
      await c.setThreads(1);
      figures.write_on_32_tokens_one_thread = await writeOn(prompt);
      await c.setThreads(pool);
    }
    return figures;
  });
  const longWhileMeasuring = await page.evaluate(() => window.__long.splice(0));
  // The engine alone, beside onnxruntime-web's: one forward through the client, no drawing. At 64
  // tokens an inspection (every block's weights and the next token, as the ONNX model gives); at
  // 256 a stream window of 256 positions (one pass of the same blocks: the page inspects up to 64).
  // On the pool's threads, then on one.
  const onThreads = (threads) => page.evaluate(async ({ runs, threads }) => {
    const { openCheckpoint } = await import('/src/checkpoint/client.js');
    const c = openCheckpoint({ href: new URL('/gallery/models/bench-gpt2/', location.href).href });
    await c.setThreads(threads);
    const letters = (n, shift) => Array.from({ length: n }, (_, i) => 'abcdefghijklmnopqrstuvwxyz'[(i * 7 + shift) % 26]).join(' ');
    const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    let words = 64;
    let first = null;
    while (!first) first = await c.inspect(letters(words, 0)).catch(() => ((words -= 2), null));
    const times = [];
    let result = first;
    for (let run = 1; run <= runs; run++) {
      const t0 = performance.now();
      result = await c.inspect(letters(words, run));
      times.push(Math.round(performance.now() - t0));
    }
    const stream = [];
    for (let run = 0; run < Math.max(1, Math.floor(runs / 2)); run++) {
      const t0 = performance.now();
      await c.experiment({ name: 'stream', text: letters(300, run), context: 256 }).result;
      stream.push(Math.round(performance.now() - t0));
    }
    return {
      threads,
      ids: Array.from(first.ids),
      next_id: first.next[0].id,
      forward_by_tokens: { [first.ids.length]: { median_ms: median(times), runs: times }, 256: { median_ms: median(stream), runs: stream, how: 'a stream window' } },
    };
  }, { runs: RUNS, threads });
  const pool = await page.evaluate(() => navigator.hardwareConcurrency);
  const engines = [await onThreads(1)];
  if (pool > 1 && engineBuild === 'threads') engines.push(await onThreads(Math.min(pool, 8)));
  const engine = engines[0];
  const T = engine.ids.length;
  const idsByLength = { [T]: engine.ids, 256: Array.from({ length: 256 }, (_, i) => engine.ids[i % T]) };
  const orts = [await ortForwards(page, ortPeer, idsByLength, RUNS, 1)];
  if (engines.length > 1) orts.push(await ortForwards(page, ortPeer, idsByLength, RUNS, engines[1].threads));
  for (const ort of orts) {
    if (ort.forward_by_tokens && ort.forward_by_tokens[T].next_id !== engine.next_id) {
      throw new Error(`onnxruntime-web's next token ${ort.forward_by_tokens[T].next_id} is not the page's ${engine.next_id}: not the same model`);
    }
  }
  // A reload: the folder is now kept in this browser (Cache Storage), read from the disk, not the site.
  await att.locator('.model-note .kept button').waitFor({ timeout: 600_000 });
  const reloaded = Date.now();
  await page.reload();
  await att.locator('.pieces li').first().waitFor({ timeout: 600_000 });
  const firstMapsKept = Date.now() - reloaded;
  const info = {
    checkpoint: DIR,
    weights_bytes: arrive.bytes,
    bytes_arrive_ms: Math.round(arrive.ms),
    first_maps_ms: firstMaps,
    first_maps_from_kept_copy_ms: firstMapsKept,
    forward_by_tokens: forwards,
    wasm_memory_bytes: memory,
    memory_over_weights: Number((memory / arrive.bytes).toFixed(3)),
    experiments_at_64_positions: runs,
    engine: engineBuild,
    engine_forward_by_tokens: Object.fromEntries(engines.map((e) => [`${e.threads} thread${e.threads > 1 ? 's' : ''}`, e.forward_by_tokens])),
    onnxruntime_web: Object.fromEntries(orts.map((o, i) => [`${[1, engines[1]?.threads][i]} thread${i ? 's' : ''}`, o])),
    main_thread_long_tasks_ms: { loading: longWhileLoading, reading: longWhileReading, measuring: longWhileMeasuring },
  };
  console.log(JSON.stringify(info, null, 2));
} finally {
  await browser.close();
  rmSync(profile, { recursive: true, force: true });
  await server.stop();
  rmSync(SERVED, { recursive: true, force: true });
}
