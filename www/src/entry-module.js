// Entry point of dist/npm/index.js, the ES module of the npm package (`make dist`). Importing it
// defines every <tb-…> element (./elements/index.js). The classes are exported, read back from the
// registry (so the element files need not export them), for `instanceof` and subclassing; `wasm` is
// the promise of the one shared WebAssembly instance (the facade), for a page that wants the numbers
// without a widget; `addLanguage(tag, catalog)` adds or overrides a language the widgets speak; `allRendered()` resolves once every widget on the page shows its content. Types: entry-module.api.d.ts beside this file, and what make dist
// generates from the elements' manifest (scripts/dist/types.mjs). `make dist` fails when an element
// defined under ./elements/ is missing here.

import './elements/index.js';

// (In Node, where nothing is defined, these are undefined: there is no HTMLElement to extend.)
const defined = (tag) => globalThis.customElements?.get(tag);

export { TbElement, allRendered } from './elements/base.js';
export const TbAnatomy = defined('tb-anatomy');
export const TbParamTable = defined('tb-param-table');
export const TbCostChart = defined('tb-cost-chart');
export const TbMemory = defined('tb-memory');
export const TbTrainingCost = defined('tb-training-cost');
export const TbExample = defined('tb-example');
export const TbMoe = defined('tb-moe');
export const TbMasks = defined('tb-masks');
export const TbTinyGpt = defined('tb-tiny-gpt');
export const TbAttention = defined('tb-attention');
export const TbNumber = defined('tb-number');
export const TbTrain = defined('tb-train');
export const TbAblation = defined('tb-ablation');
export const TbStream = defined('tb-stream');
export const TbNormRace = defined('tb-norm-race');
export const TbDepthLatency = defined('tb-depth-latency');
export { wasm, wasmModule } from './wasm.js';
export { addLanguage, languages } from './i18n.js';
