// GELU on single numbers.
import { h } from '../base.js';
import { formatDecimal } from '../../format.js';
import { exampleForm, listText } from './form.js';
import { speakEnglish } from '../../i18n.js';
import examplesTexts from '../../locales/en/examples.js';

speakEnglish(examplesTexts);

export default {
  title: 'example.geluTitle',
  intro: 'example.geluIntro',
  render({ lib, defaults, uid, t }) {
    return exampleForm({
      uid,
      t,
      fields: [{ key: 'z', name: t('example.geluName'), label: t('example.geluLabel'), kind: 'list', value: listText(defaults.gelu) }],
      compute: (v) => lib.example_gelu(v.z),
      show: (out, v) =>
        h(
          'div',
          { class: 'scroll' },
          h(
            'table',
            { class: 'pairs' },
            h('caption', { class: 'visually-hidden' }, t('example.geluCaption')),
            h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'z'), h('th', { scope: 'col', class: 'num' }, 'GELU(z)'))),
            h(
              'tbody',
              {},
              out.map((g, i) =>
                h('tr', {}, h('th', { scope: 'row' }, formatDecimal(v.z[i], 6, t.locale)), h('td', { class: 'num value' }, formatDecimal(g, 3, t.locale))),
              ),
            ),
          ),
        ),
    });
  },
};
