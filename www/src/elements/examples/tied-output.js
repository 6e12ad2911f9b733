// The tied output head: the last normalised vector dotted with each row of the token table.
import { h } from '../base.js';
import { formatDecimal, formatVector } from '../../format.js';
import { exampleForm, listText, rowsText, say, value } from './form.js';

export default {
  title: 'The tied output head',
  intro: 'The output head reuses the token table: the score of each vocabulary entry is the dot product of LN(h) with that entry\u2019s row.',
  render({ lib, defaults, uid }) {
    const d = defaults.tied_output;
    return exampleForm({
      uid,
      fields: [
        { key: 'normed', name: 'LN(h)', label: 'LN(h), the last position after the final norm', kind: 'list', value: listText(d.normed) },
        { key: 'table', name: 'the token table', label: 'Token table rows (rows separated by ;)', kind: 'rows', value: rowsText(d.table) },
      ],
      compute: (v) => lib.example_tied_output(v.normed, v.table),
      show: (logits, v) => [
        h(
          'ul',
          { class: 'steps' },
          logits.map((x, i) =>
            h('li', {}, h('span', { class: 'label' }, `token ${i}: ${formatVector(v.table[i])} · ${formatVector(v.normed)} =`), ' ', h('span', { class: 'value' }, formatDecimal(x))),
          ),
        ),
        say('Logits: ', value(formatVector(logits)), '.'),
      ],
    });
  },
};
