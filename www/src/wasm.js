// The one place that loads the WebAssembly modules, each once for the whole page.
//
//   import { library, fullLibrary, fullModule } from './wasm.js';
//   const { presets, count } = await library('analytic'); // what an element needs (base.js: needs())
//   const { CharModel } = await fullLibrary();  // the whole facade, fetched on first call (~275 KB)
//   const compiled = await fullModule();        // its compiled WebAssembly.Module, for a worker
//
// The facade is built three ways (Cargo.toml's features, `make wasm`), and a page fetches the least
// that covers its widgets:
//   analytic  www/pkg/analytic*           the analytic model and the worked examples (~113 KB gzip)
//   model     www/pkg/model*              TinyGPT read and looked inside, no analytic model (~187 KB)
//   full      www/pkg/transformer_block*  both, with training, the experiments and timing (~275 KB)
// `library(need)` gives the one an element needs, or the whole facade when it is already coming or
// when the page holds a widget that will ask for it (facade-needs.js: facadeFor), so that no page
// fetches TinyGPT twice. Each is fetched on the first call and never again, and not at all if nothing asks.
// They are separate instances: nothing made by one is passed to another. `fullModule()` is posted to
// the page's worker (src/train/), which instantiates it for itself: fetched and compiled once
// however many run it.
//
// The imports are dynamic so that a missing or broken build rejects these promises (which a page
// can report) instead of failing the whole module graph before any of our code runs.
//
// The bundles of `make dist` (one classic script, the offline lesson, the npm module) replace this
// file with a loader of the whole wasm inlined in the script (gzip-compressed, base64), so they
// fetch nothing and every need gets the whole facade: scripts/dist/bundle.mjs, plugin `inline-wasm`.
// Same exports, same shapes.

import { facadeFor } from './facade-needs.js';
import { watched } from './settled.js';

const pkg = (name) => ({
  glue: new URL(`../pkg/${name}.js`, import.meta.url),
  bytes: new URL(`../pkg/${name}_bg.wasm`, import.meta.url),
});
const FACADES = { analytic: pkg('analytic'), model: pkg('model'), full: pkg('transformer_block') };

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

const instances = {};
let fullCompiled = null;

/**
 * The facade for `need` ('analytic', 'model' or 'full'), instantiated on the first call, the same
 * promise after; the whole facade where it covers the need and is coming anyway.
 */
export function library(need) {
  if (!(need in FACADES)) throw new Error(`no facade "${need}": analytic, model or full`);
  const whole = instances.full || facadeFor(need, globalThis.document) === 'full';
  if (whole) return fullLibrary();
  instances[need] ??= watched(instantiate(FACADES[need], compile(FACADES[need])));
  return instances[need];
}

/** The whole facade's compiled module: fetched and compiled on the first call, the same promise after. */
export function fullModule() {
  fullCompiled ??= compile(FACADES.full);
  return fullCompiled;
}

/** The whole facade, instantiated on the first call, the same promise after. */
export function fullLibrary() {
  instances.full ??= watched(instantiate(FACADES.full, fullModule()));
  return instances.full;
}
