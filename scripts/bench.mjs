#!/usr/bin/env node
// `make bench`: everything a reader feels, measured in one run on this machine, beside the peers a
// reader would otherwise use. Prints tables and writes bench/results.json (bench/results-quick.json
// with --quick). Times are never asserted anywhere: the machines are shared and noisy; compare
// figures from the same run, and copy them into BENCHMARKS.md with the machine they came from.
//
//   make bench            (a few minutes; builds the release wasm, dist/ and the criterion bench)
//   make bench QUICK=1    (the smoke run `make test` makes so this command cannot rot: every part
//                          runs, with few samples; its figures are rough)
//
// 1. Sizes of what ships: raw, gzip (level 6), brotli (quality 11); and what a page with one widget
//    fetches each way an author embeds them: the autoloaded folder, the one file, the npm import
//    (scripts/bench-embed.mjs).
// 2. Load: headless Chromium, cold, the served lesson page and the offline file: from navigation
//    start until every widget shows its content (each <tb-…> element's `rendered` promise), median
//    of 10 loads; and the same at 4x CPU throttling (a phone).
// 3. Interaction: every slider on the lesson page moved through its range, main-thread time per
//    input event (p50 / p95 / max) and long tasks; again while a training run goes on in the page.
// 4. TinyGPT forward (T = 5, 16) and one training step (16 x 16): native (criterion), wasm in
//    Chromium (www/bench.html) and in Node: time, tokens/s, GFLOP/s, wasm / native.
// 5. Peers: PyTorch eager running the same TinyGPT (tests/reference/train_reference.py --bench),
//    when tests/reference/.venv has torch; onnxruntime-web and transformers.js only if installed.
// 6. The analytic calls the charts make: a report at T = 1024, a 200-point cost curve.
// 7. Lighthouse 12.2.3, mobile, on the deployable site (make site): the lesson, its French edition,
//    the offline file, the gallery, an autoloaded course page, and a page with one heading beside
//    them (scripts/bench-lighthouse.mjs); median of 3 runs. And input to next paint (the Event
//    Timing API: INP's measure) for every control of the deployed lesson at 4x CPU throttling,
//    while it goes live and once it is (scripts/bench-inp.mjs).

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { ROOT, launchChromium, startServer } from './browser.mjs';
import { sweepSliders, typeInto, widgetsRendered } from './bench-in-page.mjs';
import { torchPeers } from './torch-peers.mjs';
import { embedBytes } from './bench-embed.mjs';
import { MOBILE } from './dist/network-model.mjs';
import { measureWasm } from '../www/src/bench/measure.js';
import { lighthouseRuns, lighthouseTable } from './bench-lighthouse.mjs';
import { inputToNextPaint } from './bench-inp.mjs';

const quick = process.argv.includes('--quick');
const LOADS = quick ? 2 : 10;
const PER_SLIDER = quick ? 6 : 60;
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};
const log = (text) => console.error(`bench: ${text}`);
/** One row of a workload's table: where it ran, its time, and what that makes in tokens/s and GFLOP/s. */
const timing = (workload, where, ms) => ({ where, ms, tokens_per_second: (workload.tokens * 1000) / ms, gflops: workload.flops / ms / 1e6 });
const run = (cmd, args, opts = {}) => execFileSync(cmd, args, { cwd: ROOT, encoding: 'utf8', ...opts });

const results = {
  date: new Date().toISOString(),
  quick,
  machine: { cpu: cpus()[0]?.model ?? 'unknown', cores: cpus().length, node: process.versions.node, rustc: run('rustc', ['--version']).trim() },
  sizes: [],
  embed: [],
  load: [],
  interaction: [],
  tinygpt: [],
  analytic: [],
  peers: [],
  lighthouse: [],
};

// 1. Sizes.
for (const file of ['www/pkg/transformer_block_bg.wasm', 'www/pkg/analytic_bg.wasm', 'www/pkg/model_bg.wasm', 'dist/transformer-block.js', 'dist/transformer-block-lesson.html', 'dist/npm/index.js']) {
  const bytes = readFileSync(join(ROOT, file));
  results.sizes.push({ file, raw: bytes.length, gzip: gzipSync(bytes).length, brotli: brotliCompressSync(bytes).length });
}

// 4 (native). criterion, reading its estimates (the median, in ns).
log('native: cargo bench (criterion)');
const criterionArgs = quick ? ['--warm-up-time', '0.1', '--measurement-time', '0.2', '--sample-size', '10'] : [];
run('cargo', ['bench', '--quiet', '-p', 'transformer-block', '--bench', 'tiny_gpt', '--', ...criterionArgs], { stdio: ['ignore', 'ignore', 'inherit'] });
const criterionDir = join(process.env.CARGO_TARGET_DIR ?? join(ROOT, 'target'), 'criterion');
const nativeMs = (name) => JSON.parse(readFileSync(join(criterionDir, name, 'new', 'estimates.json'), 'utf8')).median.point_estimate / 1e6;

// 4 (wasm in Node): the release build in www/pkg.
log('wasm in Node');
const lib = await import(pathToFileURL(join(ROOT, 'www', 'pkg', 'transformer_block.js')).href);
lib.initSync({ module: readFileSync(join(ROOT, 'www', 'pkg', 'transformer_block_bg.wasm')) });
const nodeRows = await measureWasm(lib, { quick });

// 2, 3, 4 (wasm in Chromium).
const server = await startServer();
const browser = await launchChromium();
results.machine.chromium = browser.version();
try {
  log('wasm in Chromium (bench.html)');
  const benchPage = await browser.newPage();
  await benchPage.goto(`${server.origin}/bench.html${quick ? '?quick' : ''}`);
  const chromeRows = (await benchPage.evaluate(() => window.benchResults)).rows;
  await benchPage.close();

  const info = Object.fromEntries(nodeRows.map((r) => [r.name, r]));
  const chromeMs = Object.fromEntries(chromeRows.map((r) => [r.name, r.ms]));
  for (const name of lib.Workload.names()) {
    const { tokens, flops, what } = info[name];
    const native = nativeMs(name);
    const w = { name, what, tokens, flops, rows: [] };
    w.rows.push(timing(w, 'native (criterion)', native), timing(w, `wasm, Chromium ${results.machine.chromium}`, chromeMs[name]), timing(w, `wasm, Node ${process.versions.node}`, info[name].ms));
    w.wasm_over_native = { chromium: chromeMs[name] / native, node: info[name].ms / native };
    results.tinygpt.push(w);
  }
  for (const r of nodeRows.filter((r) => r.flops === null)) {
    results.analytic.push({ name: r.name, what: r.what, native_ms: nativeMs(r.name), chromium_ms: chromeMs[r.name], node_ms: r.ms });
  }

  log('embed: a page with one widget, each way');
  results.embed = await embedBytes(browser, { loads: quick ? 1 : 5 });

  // 2. Load, cold (a new browser context each time: no cache), served page and offline file.
  const targets = [
    { page: 'served lesson (its sources: make dev)', url: `${server.origin}/` },
    { page: 'offline lesson file', url: pathToFileURL(join(ROOT, 'dist', 'transformer-block-lesson.html')).href },
  ];
  for (const throttle of [1, 4]) {
    for (const { page: name, url } of targets) {
      log(`load: ${name}${throttle > 1 ? `, ${throttle}x CPU throttling` : ''}`);
      const loads = [];
      for (let i = 0; i < LOADS; i++) {
        const context = await browser.newContext();
        const page = await context.newPage();
        if (throttle > 1) await (await context.newCDPSession(page)).send('Emulation.setCPUThrottlingRate', { rate: throttle });
        await page.goto(url, { waitUntil: 'commit' });
        loads.push(await page.evaluate(widgetsRendered));
        await context.close();
      }
      results.load.push({
        page: name,
        cpu_throttling: throttle,
        loads: loads.length,
        widgets: loads[0].widgets,
        prerendered_widgets: loads[0].prerendered,
        first_screen_widgets: loads[0].first_screen_widgets,
        median_first_screen_ms: median(loads.map((l) => l.first_screen_ms)),
        median_rendered_ms: median(loads.map((l) => l.rendered_ms)),
        median_first_paint_ms: median(loads.map((l) => l.first_paint_ms).filter((t) => t !== null)) ?? null,
        all_rendered_ms: loads.map((l) => l.rendered_ms),
      });
    }
  }

  // 3. Interaction: every slider, then the anatomy's again while the page's <tb-train> trains.
  log('interaction: every slider on the lesson page');
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${server.origin}/`);
  await page.evaluate(widgetsRendered);
  const idle = await page.evaluate(sweepSliders, { perSlider: PER_SLIDER, filter: null });
  log('interaction: typing into <tb-attention>, six blocks');
  const typing = await page.evaluate(typeInto, { tag: 'tb-attention', field: 'Text', model: 'six-blocks', text: 'attention mixes!', rounds: quick ? 1 : 4 });
  log('interaction: while a training run goes on');
  const train = page.locator('tb-train').first();
  await train.getByRole('button', { name: 'Train' }).click();
  const busy = await page.evaluate(sweepSliders, { perSlider: PER_SLIDER, filter: 'tb-anatomy', settle: false });
  const training = await train.locator('.status').textContent();
  await page.close();
  const summary = (label, sweep) => {
    const all = sweep.sliders.flatMap((s) => s.times);
    return {
      condition: label,
      sliders: sweep.sliders.length,
      events: all.length,
      p50_ms: quantile(all, 0.5),
      p95_ms: quantile(all, 0.95),
      max_ms: Math.max(...all),
      long_tasks: sweep.long_tasks,
      longest_task_ms: sweep.longest_task_ms,
      by_slider: sweep.sliders.map((s) => ({ widget: s.widget, slider: s.slider, events: s.events, p50_ms: quantile(s.times, 0.5), p95_ms: quantile(s.times, 0.95), max_ms: Math.max(...s.times) })),
    };
  };
  results.interaction.push(summary('page idle', idle), { ...summary('a training run going on', busy), training_status: training });
  results.typing = {
    widget: typing.widget,
    model: typing.model,
    maps: typing.maps,
    events: typing.events,
    p50_ms: quantile(typing.times, 0.5),
    p95_ms: quantile(typing.times, 0.95),
    max_ms: Math.max(...typing.times),
  };
} finally {
  await browser.close();
  server.stop();
}

// 7. Lighthouse on the deployable site, and input to next paint on its lesson.
results.lighthouse = await lighthouseRuns({ runs: 3, quick, log });
{
  log('input to next paint: every control of the deployed lesson, 4x CPU throttling');
  const site = await startServer({ site: true });
  const chromium = await launchChromium();
  try {
    results.inp = await inputToNextPaint(chromium, site.origin, { presses: quick ? 2 : 6 });
  } finally {
    await chromium.close();
    site.stop();
  }
}

// 5. Peers: PyTorch written three ways (scripts/torch-peers.mjs).
const peers = torchPeers({ quick });
for (const r of peers.rows) {
  if (r.error) continue;
  const where = `PyTorch ${r.torch} ${r.label}`;
  const ms = { 'forward-5': r.forward_T5_us / 1000, 'forward-16': r.forward_T16_us / 1000, 'train-step': r.train_step_16x16_ms };
  for (const w of results.tinygpt) w.rows.push(timing(w, where, ms[w.name]));
}
results.peers.push({
  peer: 'PyTorch (float32, the same TinyGPT: tests/reference/train_reference.py): eager with attention by hand, eager with scaled_dot_product_attention, and torch.compile',
  status: peers.available ? peers.rows.map((r) => `${r.label}: ${r.error ? `failed (${r.error})` : 'measured'}`).join('; ') : peers.note,
});
for (const peer of ['onnxruntime-web', '@huggingface/transformers']) {
  const installed = existsSync(join(ROOT, 'node_modules', peer));
  results.peers.push({ peer, status: installed ? 'installed but not wired in yet' : 'skipped: not installed here (it is not a dependency of this project, and a run must not fetch anything)' });
}

// Output.
const out = join(ROOT, 'bench', quick ? 'results-quick.json' : 'results.json');
mkdirSync(join(ROOT, 'bench'), { recursive: true });
writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);

const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const ms = (x) => (x < 1 ? `${(x * 1000).toFixed(1)} µs` : `${x.toFixed(2)} ms`);
const table = (head, rows) => {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) => cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ');
  console.log(line(head));
  rows.forEach((r) => console.log(line(r)));
  console.log('');
};
const m = results.machine;
console.log(`\nmake bench${quick ? ' QUICK=1 (rough: few samples)' : ''} · ${results.date} · ${m.cpu}, ${m.cores} cores · ${m.rustc} · Node ${m.node} · Chromium ${m.chromium}\n`);
console.log('Sizes');
table(['file', 'raw', 'gzip', 'brotli'], results.sizes.map((s) => [s.file, kb(s.raw), kb(s.gzip), kb(s.brotli)]));
console.log(`Embed: what a page with one widget fetches, gzip, the page aside, and when the widget shows its figures (ms from navigation start, median of cold loads): files served at once, and over a ${MOBILE.name} network`);
table(['page', 'autoloaded folder', 'wasm it fetched', 'shown at', 'on mobile', 'one file', 'shown at', 'on mobile', 'npm import (esbuild)'], results.embed.map((e) => [`one <${e.tag}>`, `${kb(e.folder.bytes)} in ${e.folder.files} files`, e.folder.wasm.join(', '), ms(e.folder.rendered_ms), ms(e.folder.mobile_ms), kb(e.one_file), ms(e.one_file_rendered_ms), ms(e.one_file_mobile_ms), kb(e.npm)]));
console.log(`Load: navigation start to the first screen complete (every widget on it showing its figures: prerendered ones once the page is parsed and painted), and to every widget's own render done (median of ${LOADS} cold loads; 1280 x 720)`);
table(['page', 'CPU', 'widgets (prerendered)', 'first paint', 'first screen complete', 'all rendered live'], results.load.map((l) => [l.page, `${l.cpu_throttling}x`, `${l.first_screen_widgets} + ${l.widgets - l.first_screen_widgets} (${l.prerendered_widgets})`, l.median_first_paint_ms === null ? 'none' : `${Math.round(l.median_first_paint_ms)} ms`, `${Math.round(l.median_first_screen_ms)} ms`, `${Math.round(l.median_rendered_ms)} ms`]));
console.log('Interaction: main-thread time per input event, every slider swept');
table(['condition', 'sliders', 'events', 'p50', 'p95', 'max', 'long tasks'], results.interaction.map((i) => [i.condition, i.sliders, i.events, ms(i.p50_ms), ms(i.p95_ms), ms(i.max_ms), i.long_tasks]));
table(['slider (page idle)', 'events', 'p50', 'p95', 'max'], results.interaction[0].by_slider.map((s) => [`${s.widget}: ${s.slider}`, s.events, ms(s.p50_ms), ms(s.p95_ms), ms(s.max_ms)]));
const t = results.typing;
console.log(`Typing: main-thread time per input event into <${t.widget}>'s text field, ${t.model} model (${t.maps} maps; those on screen painted at once, the rest as they scroll in)`);
table(['events', 'p50', 'p95', 'max'], [[t.events, ms(t.p50_ms), ms(t.p95_ms), ms(t.max_ms)]]);
console.log('TinyGPT (median time of one run)');
table(['workload', 'where', 'time', 'tokens/s', 'GFLOP/s'], results.tinygpt.flatMap((w) => w.rows.map((r) => [w.name, r.where, ms(r.ms), Math.round(r.tokens_per_second).toLocaleString('en-US'), r.gflops.toFixed(2)])));
table(['workload', 'wasm / native (Chromium)', '(Node)'], results.tinygpt.map((w) => [w.name, `${w.wasm_over_native.chromium.toFixed(2)}x`, `${w.wasm_over_native.node.toFixed(2)}x`]));
console.log('Analytic calls the charts make');
table(['call', 'native', 'wasm, Chromium', 'wasm, Node'], results.analytic.map((a) => [a.name, ms(a.native_ms), ms(a.chromium_ms), ms(a.node_ms)]));
console.log(`Lighthouse ${quick ? '(the served lesson, one run)' : '(mobile, median of 3 runs)'}: the deployable site, served with brotli; LCP also as a multiple of the one-heading page's`);
console.log(`${lighthouseTable(results.lighthouse)}\n`);
console.log(`Input to next paint (Event Timing, INP's measure), the deployed lesson on a phone-sized page, ${results.inp.throttle}x CPU throttling, ${results.inp.presses} key presses a control`);
table(
  ['when', 'controls', 'interactions', 'p50', 'p95', 'max', 'long tasks', 'slowest'],
  [['while it goes live', results.inp.going_live], ['every widget live', results.inp.live]].map(([when, r]) => [when, r.controls, r.interactions, ms(r.p50_ms), ms(r.p95_ms), ms(r.max_ms), r.long_tasks, r.slowest.slice(0, 2).join('; ')]),
);
console.log('Peers');
results.peers.forEach((p) => console.log(`- ${p.peer}: ${p.status}`));
console.log(`\nWritten: ${out}`);
