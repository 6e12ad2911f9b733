// The one place that loads the WebAssembly modules, each once for the whole page.
//
//   import { wasm, fullLibrary, fullModule } from './wasm.js';
//   const { presets, count } = await wasm;      // the analytic half, fetched at once (~116 KB gzip)
//   const { CharModel } = await fullLibrary();  // the whole facade, fetched on first call (~273 KB)
//   const compiled = await fullModule();        // its compiled WebAssembly.Module, for a worker
//
// `wasm` is the facade's analytic half (www/pkg/analytic*): the analytic model and the worked
// examples, all the first screen's widgets need. `fullLibrary()` is the whole facade
// (www/pkg/transformer_block*): TinyGPT's character model, training, timing and experiments besides;
// a widget that runs TinyGPT asks for it (base.js: needsModel), so a page fetches it when the first
// such widget renders, never twice, and not at all if none does. The two are separate instances:
// nothing made by one is passed to the other. `fullModule()` is posted to the page's worker
// (src/train/), which instantiates it for itself: fetched and compiled once however many run it.
//
// The imports are dynamic so that a missing or broken build rejects these promises (which a page
// can report) instead of failing the whole module graph before any of our code runs.
//
// The bundles of `make dist` (one classic script, the offline lesson, the npm module) replace this
// file with a loader of the whole wasm inlined in the script (gzip-compressed, base64), so they
// fetch nothing and `wasm` is the whole facade too: scripts/dist/bundle.mjs, plugin `inline-wasm`.
// Same exports, same shapes.

const pkg = (name) => ({
  glue: new URL(`../pkg/${name}.js`, import.meta.url),
  bytes: new URL(`../pkg/${name}_bg.wasm`, import.meta.url),
});
const ANALYTIC = pkg('analytic');
const FULL = pkg('transformer_block');

const missing = (what, err) =>
  new Error(`could not load ${what} (${err.message}); build it with \`make wasm\``, { cause: err });

function compile(files) {
  const compiled = compileBytes(files);
  compiled.catch(() => {}); // awaited after the glue's import; not also an unhandled rejection
  return compiled;
}

async function compileBytes({ bytes }) {
  let response;
  try {
    response = await fetch(bytes);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
  } catch (err) {
    throw missing(bytes.pathname, err);
  }
  return WebAssembly.compile(await response.arrayBuffer());
}

async function instantiate(files, compiled) {
  let glue;
  try {
    glue = await import(files.glue.href);
  } catch (err) {
    throw missing(files.glue.pathname, err);
  }
  await glue.default({ module_or_path: await compiled });
  return glue;
}

/** The analytic half, instantiated once: the promise every widget that runs no TinyGPT awaits. */
export const wasm = instantiate(ANALYTIC, compile(ANALYTIC));

let fullCompiled = null;
let fullInstance = null;

/** The whole facade's compiled module: fetched and compiled on the first call, the same promise after. */
export function fullModule() {
  fullCompiled ??= compile(FULL);
  return fullCompiled;
}

/** The whole facade, instantiated on the first call, the same promise after. */
export function fullLibrary() {
  fullInstance ??= instantiate(FULL, fullModule());
  return fullInstance;
}
