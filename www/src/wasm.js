// The one place that loads the WebAssembly module. Every widget on the page awaits the same promise,
// so the module is fetched, compiled and instantiated once and its memory is shared.
//
//   import { wasm, wasmModule } from './wasm.js';
//   const { presets } = await wasm;           // the facade (wasm-bindgen's module namespace)
//   const compiled = await wasmModule;        // the compiled WebAssembly.Module, for a worker
//
// `wasmModule` is what a training worker instantiates for itself (src/train/): it is posted to the
// worker, so the bytes are fetched and compiled once per page however many instances run them.
//
// The import is dynamic so that a missing or broken build rejects this promise (which a page can
// report) instead of failing the whole module graph before any of our code runs.
//
// The bundles of `make dist` (one classic script, the offline lesson, the npm module) replace this
// file with a loader of the wasm inlined in the script (gzip-compressed, base64), so they fetch
// nothing: scripts/build-dist.mjs, plugin `inline-wasm`. Same exports, same shapes.

const PKG = new URL('../pkg/transformer_block.js', import.meta.url);
const WASM = new URL('../pkg/transformer_block_bg.wasm', import.meta.url);

const missing = (what, err) =>
  new Error(`could not load ${what} (${err.message}); build it with \`make wasm\``, { cause: err });

export const wasmModule = (async () => {
  let response;
  try {
    response = await fetch(WASM);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
  } catch (err) {
    throw missing(WASM.pathname, err);
  }
  return WebAssembly.compile(await response.arrayBuffer());
})();

// Awaited by `wasm` below (and by workers); this keeps a failure from also being reported as unhandled.
wasmModule.catch(() => {});

export const wasm = (async () => {
  let glue;
  try {
    glue = await import(PKG.href);
  } catch (err) {
    throw missing(PKG.pathname, err);
  }
  await glue.default({ module_or_path: await wasmModule });
  return glue;
})();
