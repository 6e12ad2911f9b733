// Encoder against decoder masks: the <tb-masks> view with the lesson's 3 tokens.
import { masksView } from '../masks.js';
import { speakEnglish } from '../../i18n.js';
import examplesTexts from '../../locales/en/examples.js';

speakEnglish(examplesTexts);

export default {
  title: 'example.masksTitle',
  intro: 'example.masksIntro',
  render({ lib, defaults, uid, t }) {
    const m = defaults.masks;
    return masksView({ uid, lib, n: m.n_tokens, position: m.position, seed: defaults.seed, ids: m.ids, t });
  },
};
