// The character models a widget can run, by name: the two the page ships, the untrained lessons'
// TinyGPT of a seed, and the one a reader trained on this page (trained.js). Each is a CharModel of
// the wasm facade; the caller frees it.
//
//   const model = makeModel(lib, 'six-blocks');      // or 'shipped', 'untrained' (with a seed), 'trained',
//                                                    // 'checkpoint' (the reader's, models/your-checkpoint.js),
//                                                    // 'page' (the files of weights-src: pass them as `page`)
//   const spec = modelSpec('checkpoint');            // the same as a description for a worker
//   const model = modelFromSpec(lib, spec);          // (in the worker: train/model-spec.js)

import { latestTrained } from './trained.js';
import { latestCheckpoint } from '../models/your-checkpoint.js';
import { modelFromSpec } from './model-spec.js';

export const MODEL_LABELS = {
  shipped: 'trained on this page (shipped, 2 blocks)',
  'six-blocks': 'trained on this page (shipped, 6 blocks)',
  untrained: 'untrained',
  trained: 'the model I trained',
  checkpoint: 'your checkpoint',
  page: "this page's model",
};

/** The CharModel `source` names, on this thread; throws, saying why, when there is none. */
export function makeModel(lib, source, seed = 0, page = null) {
  return modelFromSpec(lib, modelSpec(source, seed, page));
}

// A model as a description a worker can build it from (postMessage copies it): { key, source, seed?,
// settings?, parameters?, weights?, config?, vocab? }. The key names the model: the same key, the
// same weights, so a worker that has built it once reuses it (and is sent only the key again).
const ids = new WeakMap();
let nextId = 0;
const idOf = (object) => {
  if (!ids.has(object)) ids.set(object, ++nextId);
  return ids.get(object);
};

/** The description of the model `source` would make (see makeModel); throws as makeModel does. */
export function modelSpec(source, seed = 0, page = null) {
  if (source === 'page' || source === 'checkpoint') {
    const files = source === 'page' ? page : latestCheckpoint();
    if (!files) {
      throw new Error(source === 'page' ? 'this page names no model of its own (weights-src)' : 'no checkpoint of yours is loaded: choose "Your checkpoint…" and drop its files');
    }
    // A Hugging Face checkpoint runs in its worker, in each widget's real view (model-shown.js: realView).
    if (files.kind === 'checkpoint') throw new Error(`${files.name} is a Hugging Face checkpoint, which its widget's real view runs`);
    return { key: `${source}:${idOf(files)}`, source: 'files', weights: files.weights, config: files.config ?? null, vocab: files.vocab ?? null };
  }
  if (source === 'untrained') return { key: `untrained:${seed}`, source, seed };
  if (source === 'trained') {
    const t = latestTrained();
    if (!t) throw new Error('no model has been trained on this page yet: train one with the training widget first');
    return { key: `trained:${idOf(t)}`, source, settings: t.settings, parameters: t.parameters };
  }
  return { key: source === 'six-blocks' ? 'six-blocks' : 'shipped', source: source === 'six-blocks' ? 'six-blocks' : 'shipped' };
}
