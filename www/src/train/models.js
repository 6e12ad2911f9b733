// The character models a widget can run, by name: the two the page ships, the untrained lessons'
// TinyGPT of a seed, and the one a reader trained on this page (trained.js). Each is a CharModel of
// the wasm facade; the caller frees it.
//
//   const model = makeModel(lib, 'six-blocks');      // or 'shipped', 'untrained' (with a seed), 'trained'

import { latestTrained } from './trained.js';

export const MODEL_LABELS = {
  shipped: 'trained on this page (shipped, 2 blocks)',
  'six-blocks': 'trained on this page (shipped, 6 blocks)',
  untrained: 'untrained',
  trained: 'the model I trained',
};

export function makeModel(lib, source, seed = 0) {
  if (source === 'untrained') return lib.CharModel.untrained(seed);
  if (source === 'six-blocks') return lib.CharModel.six_blocks();
  if (source === 'trained') {
    const t = latestTrained();
    if (!t) throw new Error('no model has been trained on this page yet: train one with the training widget first');
    return lib.CharModel.from_parameters(t.settings, new Float32Array(t.parameters));
  }
  return lib.CharModel.shipped();
}
