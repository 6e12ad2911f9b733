// GELU on single numbers.
import { h } from '../base.js';
import { formatDecimal } from '../../format.js';
import { exampleForm, listText } from './form.js';

export default {
  title: 'GELU on single numbers',
  intro: 'GELU lets large positive numbers through almost unchanged, squashes negative ones towards 0, and bends smoothly in between.',
  render({ lib, defaults, uid }) {
    return exampleForm({
      uid,
      fields: [{ key: 'z', name: 'the inputs', label: 'Numbers z', kind: 'list', value: listText(defaults.gelu) }],
      compute: (v) => lib.example_gelu(v.z),
      show: (out, v) =>
        h(
          'div',
          { class: 'scroll' },
          h(
            'table',
            { class: 'pairs' },
            h('caption', { class: 'visually-hidden' }, 'GELU of each number'),
            h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'z'), h('th', { scope: 'col', class: 'num' }, 'GELU(z)'))),
            h(
              'tbody',
              {},
              out.map((g, i) => h('tr', {}, h('th', { scope: 'row' }, formatDecimal(v.z[i], 6)), h('td', { class: 'num value' }, formatDecimal(g)))),
            ),
          ),
        ),
    });
  },
};
