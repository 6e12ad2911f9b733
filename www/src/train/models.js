// The character models a widget can run, by name: the two the page ships, the untrained lessons'
// TinyGPT of a seed, and the one a reader trained on this page (trained.js). Each is a CharModel of
// the wasm facade; the caller frees it.
//
//   const model = makeModel(lib, 'six-blocks');      // or 'shipped', 'untrained' (with a seed), 'trained',
//                                                    // 'checkpoint' (the reader's, models/your-checkpoint.js),
//                                                    // 'page' (the files of weights-src: pass them as `page`)

import { latestTrained } from './trained.js';
import { latestCheckpoint } from '../models/your-checkpoint.js';

export const MODEL_LABELS = {
  shipped: 'trained on this page (shipped, 2 blocks)',
  'six-blocks': 'trained on this page (shipped, 6 blocks)',
  untrained: 'untrained',
  trained: 'the model I trained',
  checkpoint: 'your checkpoint',
  page: "this page's model",
};

export function makeModel(lib, source, seed = 0, page = null) {
  if (source === 'page') {
    if (!page) throw new Error('this page names no model of its own (weights-src)');
    return fromFiles(lib, page);
  }
  if (source === 'untrained') return lib.CharModel.untrained(seed);
  if (source === 'six-blocks') return lib.CharModel.six_blocks();
  if (source === 'trained') {
    const t = latestTrained();
    if (!t) throw new Error('no model has been trained on this page yet: train one with the training widget first');
    return lib.CharModel.from_parameters(t.settings, new Float32Array(t.parameters));
  }
  if (source === 'checkpoint') {
    const c = latestCheckpoint();
    if (!c) throw new Error('no checkpoint of yours is loaded: choose "Your checkpoint…" and drop its files');
    return fromFiles(lib, c);
  }
  return lib.CharModel.shipped();
}

/** A checkpoint's files ({ weights, config, vocab }, as the stores keep them) as a CharModel. */
function fromFiles(lib, files) {
  return lib.CharModel.from_checkpoint(new Uint8Array(files.weights), files.config ?? undefined, files.vocab ?? undefined);
}
