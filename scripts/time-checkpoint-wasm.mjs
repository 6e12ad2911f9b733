// Times the page's checkpoint engine (www/pkg/checkpoint*, after `make wasm`) under Node, without a
// browser: the folder's weights pushed in as the worker pushes them, then one inspection at 62 tokens
// (every block's attention weights and the next token), the median and the fastest of 5 (RUNS=n: of
// n) after a warm-up; with LONG=1 a stream window of 256 positions instead. For trying a kernel quickly: V8 is Chromium's
// engine; make bench-checkpoint-page measures the page itself.
//
//   node scripts/time-checkpoint-wasm.mjs [PKG]     PKG: a wasm-bindgen --target web output (default www/pkg)
//   WASM=checkpoint-relaxed_bg.wasm                 the engine built with relaxed SIMD (Node 20 needs
//                                                   --experimental-wasm-relaxed-simd); by default the SIMD128 one
//   TBLOCK_BENCH_GPT2_DIR=dir                       the checkpoint (default /tmp/tblock-bench-gpt2-small,
//                                                   written by make bench-checkpoint-page)
//
// A profile with function names: build the checkpoint facade with cargo (its name section kept), run
// wasm-bindgen on it into PKG, then `node --cpu-prof` this script.
import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const pkg = process.argv[2] ?? fileURLToPath(new URL('../www/pkg', import.meta.url));
const dir = process.env.TBLOCK_BENCH_GPT2_DIR ?? '/tmp/tblock-bench-gpt2-small';
const mod = await import(`${pkg}/checkpoint.js`);
mod.initSync({ module: readFileSync(`${pkg}/${process.env.WASM ?? 'checkpoint_bg.wasm'}`) });
const c = new mod.PageCheckpoint(readFileSync(`${dir}/config.json`, 'utf8'), readFileSync(`${dir}/tokenizer.json`));
const size = statSync(`${dir}/model.safetensors`).size;
c.begin('model.safetensors', size);
const fd = openSync(`${dir}/model.safetensors`, 'r');
const piece = Buffer.alloc(8 << 20);
for (let at = 0; at < size; ) {
  const n = readSync(fd, piece, 0, piece.length, at);
  c.push(piece.subarray(0, n));
  at += n;
}
closeSync(fd);
c.end();
const opening = performance.now();
c.open();
console.log(`opened in ${(performance.now() - opening).toFixed(0)} ms`);

const letters = (n) => Array.from({ length: n }, (_, i) => 'abcdefghijklmnopqrstuvwxyz'[(i * 7) % 26]).join(' ');
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const times = [];
const runs = Number(process.env.RUNS ?? 5);
for (let run = 0; run <= runs; run++) {
  const t0 = performance.now();
  if (process.env.LONG) {
    c.start_experiment('stream', letters(300), undefined, 256);
    while (!c.experiment_step().done);
  } else {
    c.inspect(letters(46), 10); // 62 tokens with the bench's tokenizer
  }
  if (run > 0) times.push(performance.now() - t0);
}
console.log(
  `${process.env.LONG ? 'a stream window of 256' : 'an inspection of 62 tokens'}: median ${median(times).toFixed(0)} ms, ` +
    `fastest ${Math.min(...times).toFixed(0)} ms (${times.map((t) => t.toFixed(0)).join(', ')})`,
);
