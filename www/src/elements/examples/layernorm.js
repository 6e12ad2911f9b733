// LayerNorm of one vector, each step shown (γ = 1, β = 0).
import { formatDecimal, formatVector } from '../../format.js';
import { exampleForm, listText, say, sentence, steps, value } from './form.js';
import { speakEnglish } from '../../i18n.js';
import examplesTexts from '../../locales/en/examples.js';

speakEnglish(examplesTexts);

export default {
  title: 'example.layernormTitle',
  intro: 'example.layernormIntro',
  render({ lib, defaults, uid, t }) {
    const decimal = (x) => formatDecimal(x, 3, t.locale);
    const vector = (xs) => formatVector(xs, 3, t.locale);
    return exampleForm({
      uid,
      t,
      fields: [{ key: 'x', name: t('example.layernormName'), label: t('example.layernormLabel'), kind: 'list', value: listText(defaults.layernorm) }],
      compute: (v) => lib.example_layernorm(v.x),
      show: (r) => [
        steps([
          [t('example.layernormMean'), decimal(r.mean)],
          [t('example.layernormVariance'), decimal(r.variance)],
          [t('example.layernormSpread'), decimal(r.spread)],
          [t('example.layernormCentred'), vector(r.centred)],
          [t('example.layernormOutput'), vector(r.output)],
        ]),
        say(...sentence(t, 'example.layernormResult', { factor: decimal(r.scaled_by), output: value(vector(r.scaled_output)) })),
      ],
    });
  },
};
