// Times a few facade calls in the release wasm under Node (after `make wasm`):
//   node scripts/time-wasm.mjs
// Medians of 30 calls; the machine is shared, so compare runs made one after the other.
import { readFileSync } from 'node:fs';

const pkg = new URL('../www/pkg/', import.meta.url);
const mod = await import(new URL('transformer_block.js', pkg).href);
mod.initSync({ module: readFileSync(new URL('transformer_block_bg.wasm', pkg)) });

function time(label, fn, n = 30) {
  fn();
  const ts = [];
  for (let i = 0; i < n; i++) { const t0 = performance.now(); fn(); ts.push(performance.now() - t0); }
  ts.sort((a, b) => a - b);
  console.log(label.padEnd(40), 'median', ts[n >> 1].toFixed(3), 'ms');
}
time("cost_curve('gpt2-small', 200)", () => mod.cost_curve('gpt2-small', 200));
time("count('gpt2-small', 1024, 1)", () => mod.count('gpt2-small', 1024, 1));
time("count('llama3-70b', 1024, 1)", () => mod.count('llama3-70b', 1024, 1));
