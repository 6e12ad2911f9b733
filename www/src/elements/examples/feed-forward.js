// The feed-forward network: widen d to 4d, GELU, narrow back; its weights counted off a real layer.
import { formatInteger } from '../../format.js';
import { exampleForm, say, sentence, shapeText, steps, value } from './form.js';
import { speakEnglish } from '../../i18n.js';
import examplesTexts from '../../locales/en/examples.js';

speakEnglish(examplesTexts);

export default {
  title: 'example.feedForwardTitle',
  intro: 'example.feedForwardIntro',
  render({ lib, defaults, uid, t }) {
    const d = defaults.feed_forward;
    const integer = (n) => formatInteger(n, t.locale);
    return exampleForm({
      uid,
      t,
      fields: [
        { key: 'd', name: t('example.feedForwardName'), label: t('example.feedForwardLabel'), kind: 'number', value: String(d.d), min: 1, max: d.max_d, step: 1 },
      ],
      compute: (v) => lib.example_feed_forward(v.d),
      show: (r) => [
        steps([
          [t('example.feedForwardHidden'), integer(r.hidden)],
          ['W_1', shapeText(r.w1_shape, t.locale)],
          ['b_1', integer(r.hidden)],
          ['W_2', shapeText(r.w2_shape, t.locale)],
          ['b_2', integer(r.d)],
        ]),
        say(...sentence(t, 'example.feedForwardResult', { params: value(integer(r.params)) })),
      ],
    });
  },
};
