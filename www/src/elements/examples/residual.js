// The residual stream: a block never overwrites x, it adds what each sublayer writes.
import { formatDecimal, formatVector } from '../../format.js';
import { exampleForm, listText, say, sentence, steps, value } from './form.js';
import { speakEnglish } from '../../i18n.js';
import examplesTexts from '../../locales/en/examples.js';

speakEnglish(examplesTexts);

export default {
  title: 'example.residualTitle',
  intro: 'example.residualIntro',
  render({ lib, defaults, uid, t }) {
    const d = defaults.residual;
    const vector = (xs) => formatVector(xs, 3, t.locale);
    return exampleForm({
      uid,
      t,
      fields: [
        { key: 'x', name: 'x', label: t('example.residualX'), kind: 'list', value: listText(d.x) },
        { key: 'attention', name: t('example.residualAttentionName'), label: t('example.residualAttention'), kind: 'list', value: listText(d.attention) },
        {
          key: 'feed_forward',
          name: t('example.residualFeedForwardName'),
          label: t('example.residualFeedForward'),
          kind: 'list',
          value: listText(d.feed_forward),
        },
      ],
      compute: (v) => lib.example_residual(v.x, v.attention, v.feed_forward),
      show: (r) => [
        steps([
          ['x', vector(r.x)],
          [t('example.residualPlusAttention', { adds: vector(r.attention_adds) }), vector(r.after_attention)],
          [t('example.residualPlusFeedForward', { adds: vector(r.feed_forward_adds) }), vector(r.after_feed_forward)],
        ]),
        say(...sentence(t, 'example.residualResult', { change: value(formatDecimal(r.both_off_largest_change, 3, t.locale)) })),
      ],
    });
  },
};
