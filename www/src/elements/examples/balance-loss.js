// The load-balancing loss n·Σ f_i·P_i for an even split and for everything sent to one expert.
import { h } from '../base.js';
import { exampleForm, listText, say, sentence, value } from './form.js';
import { formatInteger, lazyFormat } from '../../format.js';
import { speakEnglish } from '../../i18n.js';
import examplesTexts from '../../locales/en/examples.js';

speakEnglish(examplesTexts);

const loss = lazyFormat({ minimumFractionDigits: 1, maximumFractionDigits: 3 });

export default {
  title: 'example.balanceTitle',
  intro: 'example.balanceIntro',
  render({ lib, defaults, uid, t }) {
    const b = defaults.balance;
    const part = (key, legend, [f, p]) =>
      exampleForm({
        uid: `${uid}-${key}`,
        t,
        legend,
        fields: [
          { key: 'f', name: t('example.balanceFractionsName'), label: t('example.balanceFractions'), kind: 'list', value: listText(f) },
          { key: 'p', name: t('example.balanceProbabilitiesName'), label: t('example.balanceProbabilities'), kind: 'list', value: listText(p) },
        ],
        compute: (v) => lib.example_balance(v.f, v.p),
        show: (x) => say(...sentence(t, 'example.balanceResult', { loss: value(loss.format(x, t.locale)) })),
      });
    return h(
      'div',
      { class: 'parts' },
      part('even', t('example.balanceEven'), b.even),
      part('one', t('example.balanceAllToOne', { expert: formatInteger(0, t.locale) }), b.all_to_one),
    );
  },
};
