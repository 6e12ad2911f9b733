// The one place that loads the WebAssembly module. Every widget on the page awaits the same promise,
// so the module is fetched, compiled and instantiated once and its memory is shared.
//
//   import { wasm } from './wasm.js';
//   const { presets } = await wasm;
//
// The import is dynamic so that a missing or broken build rejects this promise (which a page can
// report) instead of failing the whole module graph before any of our code runs.
//
// The bundles of `make dist` (one classic script, the offline lesson, the npm module) replace this
// file with a loader that passes wasm-bindgen the wasm bytes inlined in the script, so they fetch
// nothing: scripts/build-dist.mjs, plugin `inline-wasm`. Same export, same shape.

const PKG = new URL('../pkg/transformer_block.js', import.meta.url);

export const wasm = (async () => {
  let module;
  try {
    module = await import(PKG.href);
  } catch (err) {
    throw new Error(
      `could not load ${PKG.pathname} (${err.message}); build it with \`make wasm\``,
      { cause: err },
    );
  }
  await module.default(); // fetches and instantiates transformer_block_bg.wasm next to it
  return module;
})();
