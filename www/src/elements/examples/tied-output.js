// The tied output head: the last normalised vector dotted with each row of the token table.
import { h } from '../base.js';
import { formatDecimal, formatInteger, formatVector } from '../../format.js';
import { exampleForm, listText, rowsText, say, sentence, value } from './form.js';
import { speakEnglish } from '../../i18n.js';
import examplesTexts from '../../locales/en/examples.js';

speakEnglish(examplesTexts);

export default {
  title: 'example.tiedOutputTitle',
  intro: 'example.tiedOutputIntro',
  render({ lib, defaults, uid, t }) {
    const d = defaults.tied_output;
    const vector = (xs) => formatVector(xs, 3, t.locale);
    return exampleForm({
      uid,
      t,
      fields: [
        { key: 'normed', name: 'LN(h)', label: t('example.tiedOutputNormed'), kind: 'list', value: listText(d.normed) },
        { key: 'table', name: t('example.tiedOutputTableName'), label: t('example.tiedOutputTable'), kind: 'rows', value: rowsText(d.table) },
      ],
      compute: (v) => lib.example_tied_output(v.normed, v.table),
      show: (logits, v) => [
        h(
          'ul',
          { class: 'steps' },
          logits.map((x, i) =>
            h(
              'li',
              {},
              h('span', { class: 'label' }, t('example.tiedOutputToken', { index: formatInteger(i, t.locale), row: vector(v.table[i]), normed: vector(v.normed) })),
              ' ',
              h('span', { class: 'value' }, formatDecimal(x, 3, t.locale)),
            ),
          ),
        ),
        say(...sentence(t, 'example.tiedOutputResult', { logits: value(vector(logits)) })),
      ],
    });
  },
};
