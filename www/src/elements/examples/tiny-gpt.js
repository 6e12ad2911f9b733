// TinyGPT end to end: ids in, a stream and logits out, and the parameter count.
import { formatInteger } from '../../format.js';
import { exampleForm, listText, say, shapeText, steps } from './form.js';
import { speakEnglish } from '../../i18n.js';
import examplesTexts from '../../locales/en/examples.js';

speakEnglish(examplesTexts);

export default {
  title: 'example.tinyGptTitle',
  intro: 'example.tinyGptIntro',
  render({ lib, defaults, uid, t }) {
    const ids = (xs) => xs.map((x) => formatInteger(x, t.locale)).join(t('example.listComma'));
    return exampleForm({
      uid,
      t,
      fields: [
        { key: 'ids', name: t('example.tinyGptIdsName'), label: t('example.tinyGptIds'), kind: 'list', value: listText(defaults.tiny_gpt.ids) },
        { key: 'seed', name: t('example.tinyGptSeedName'), label: t('example.tinyGptSeed'), kind: 'number', value: String(defaults.seed), min: 0, step: 1 },
      ],
      compute: (v) => lib.example_tiny_gpt(v.ids, v.seed),
      show: (r) => [
        steps([
          [t('example.tinyGptStepIds'), ids(r.ids)],
          [t('example.tinyGptStepStream'), shapeText(r.stream_shape, t.locale)],
          [t('example.tinyGptStepLogits'), shapeText(r.logits_shape, t.locale)],
          [t('example.tinyGptStepNext'), ids(r.next_token)],
        ]),
        say(t('example.tinyGptResult', { params: formatInteger(r.n_params, t.locale) })),
      ],
    });
  },
};
