// The onnxruntime-web peer of `make bench-checkpoint-page` (bench-checkpoint-page.mjs): the same
// GPT-2-small-shaped weights exported to ONNX (scripts/bench_onnx.py, the reference venv with onnx
// and onnxscript), run by onnxruntime-web's wasm backend on `threads` threads (its own pool, where the
// page is cross-origin isolated) in the same Chromium, the
// engine Transformer Explainer uses. Never part of make test: the npm package (154 MB) goes into
// target/bench-ort/, installed here when missing, at the version pinned below.
//
//   const peer = prepareOrt(dir, served)   // copies model.onnx and the runtime beside the page;
//                                          // { skipped: why } when either cannot be had
//   await ortForwards(page, peer, idsByLength, runs, threads = 1)
//     idsByLength: { [T]: number[] } the token ids the page's forward read at T tokens
//     -> { version, threads, session_ms, forward_by_tokens: { [T]: { median_ms, runs, next_id } } }
//        next_id: the likeliest next token (the page's must be the same)

import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './browser.mjs';

/** The onnxruntime-web this bench measures (npm). */
export const ORT_VERSION = '1.31.1';
const PREFIX = join(ROOT, 'target/bench-ort');
const DIST = join(PREFIX, 'node_modules/onnxruntime-web/dist');
const RUNTIME = ['ort.wasm.min.mjs', 'ort-wasm-simd-threaded.mjs', 'ort-wasm-simd-threaded.wasm'];

export function prepareOrt(dir, served) {
  const model = join(dir, 'model.onnx');
  try {
    if (!existsSync(model)) {
      const python = join(ROOT, 'tests/reference/.venv/bin/python');
      execFileSync(python, [join(ROOT, 'scripts/bench_onnx.py'), 'export', dir, model], { stdio: ['ignore', 'ignore', 'inherit'] });
    }
  } catch {
    return { skipped: 'no model.onnx: scripts/bench_onnx.py needs tests/reference/.venv with torch, transformers, onnx and onnxscript' };
  }
  try {
    if (!existsSync(join(DIST, RUNTIME[0]))) {
      mkdirSync(PREFIX, { recursive: true });
      execFileSync('npm', ['install', '--prefix', PREFIX, '--no-save', '--no-package-lock', `onnxruntime-web@${ORT_VERSION}`], { stdio: 'inherit' });
    }
  } catch {
    return { skipped: `npm could not install onnxruntime-web@${ORT_VERSION}` };
  }
  mkdirSync(join(served, 'ort'), { recursive: true });
  for (const f of RUNTIME) copyFileSync(join(DIST, f), join(served, 'ort', f));
  copyFileSync(model, join(served, 'model.onnx'));
  return { base: `/${served.slice(join(ROOT, 'www').length + 1)}/` };
}

export async function ortForwards(page, peer, idsByLength, runs, threads = 1) {
  if (peer.skipped) return peer;
  return page.evaluate(
    async ({ base, idsByLength, runs, version, threads }) => {
      const ort = await import(`${base}ort/ort.wasm.min.mjs`);
      Object.assign(ort.env.wasm, { numThreads: threads, proxy: false, wasmPaths: `${base}ort/` });
      const t0 = performance.now();
      const session = await ort.InferenceSession.create(`${base}model.onnx`, { executionProviders: ['wasm'], graphOptimizationLevel: 'all' });
      const session_ms = Math.round(performance.now() - t0);
      const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
      const forward_by_tokens = {};
      for (const [length, ids] of Object.entries(idsByLength)) {
        const input = new ort.Tensor('int64', BigInt64Array.from(ids, BigInt), [1, ids.length]);
        const times = [];
        let next_id = -1;
        for (let run = 0; run <= runs; run++) {
          const start = performance.now();
          const out = await session.run({ input_ids: input });
          if (run > 0) times.push(Math.round(performance.now() - start)); // the first is a warm-up
          const logits = out.next_logits.data;
          next_id = 0;
          for (let i = 1; i < logits.length; i++) if (logits[i] > logits[next_id]) next_id = i;
        }
        forward_by_tokens[length] = { median_ms: median(times), runs: times, next_id };
      }
      await session.release();
      return { version, threads, session_ms, forward_by_tokens };
    },
    { base: peer.base, idsByLength, runs, version: ORT_VERSION, threads },
  );
}
