// Encoder against decoder masks: the <tb-masks> view with the lesson's 3 tokens.
import { masksView } from '../masks.js';

export default {
  title: 'Encoder and decoder masks',
  intro: 'An encoder block lets every token look at every token; a decoder block lets each look only at itself and earlier tokens. Change a token and see which outputs move.',
  render({ lib, defaults, uid }) {
    const m = defaults.masks;
    return masksView({ uid, lib, n: m.n_tokens, position: m.position, seed: defaults.seed, ids: m.ids });
  },
};
