// Mixture of experts: route one token's scores to the top k, then size a real MoE layer.
import { h } from '../base.js';
import { formatDecimal, formatInteger } from '../../format.js';
import { exampleForm, listOf, listText, say, steps } from './form.js';
import { speakEnglish } from '../../i18n.js';
import examplesTexts from '../../locales/en/examples.js';

speakEnglish(examplesTexts);

export default {
  title: 'example.moeTitle',
  intro: 'example.moeIntro',
  render({ lib, defaults, uid, t }) {
    const m = defaults.moe;
    const integer = (n) => formatInteger(n, t.locale);
    const experts = (xs) => listOf(xs.map(integer), t);
    const kField = { key: 'k', name: 'k', label: t('example.moeK'), kind: 'number', value: String(m.k), min: 1, step: 1 };
    const routing = exampleForm({
      uid: `${uid}-route`,
      t,
      legend: t('example.moeRouting'),
      fields: [{ key: 'scores', name: t('example.moeScoresName'), label: t('example.moeScores'), kind: 'list', value: listText(m.scores) }, kField],
      compute: (v) => lib.example_moe_routing(v.scores, v.k),
      show: (r) =>
        steps([
          [t('example.moeKept', { count: r.kept.length, k: integer(r.k) }), experts(r.kept)],
          [t('example.moeGates'), listOf(r.gates.map((g) => formatDecimal(g, 3, t.locale)), t, 'example.listCommaDecimals')],
          r.skipped.length
            ? [t('example.moeSkipped', { count: r.skipped.length }), experts(r.skipped)]
            : [t('example.moeSkippedNone'), t('example.moeNone')],
        ]),
    });
    const sizes = exampleForm({
      uid: `${uid}-size`,
      t,
      legend: t('example.moeSize'),
      fields: [
        { key: 'd', name: t('example.moeWidthName'), label: t('example.moeWidth'), kind: 'number', value: String(m.d), min: 1, max: m.max_d, step: 1 },
        {
          key: 'experts',
          name: t('example.moeExpertsName'),
          label: t('example.moeExperts'),
          kind: 'number',
          value: String(m.n_experts),
          min: 1,
          max: m.max_experts,
          step: 1,
        },
        kField,
      ],
      compute: (v) => lib.example_moe_sizes(v.d, v.experts, v.k),
      show: (r) => [
        steps([
          [t('example.moeOneExpert'), integer(r.one_expert)],
          [t('example.moeRouter'), integer(r.router)],
          [t('example.moeAllHeld'), integer(r.all_held)],
          [t('example.moeTouched'), integer(r.touched_per_token)],
        ]),
        say(t('example.moeResult')),
      ],
    });
    return h('div', { class: 'parts' }, routing, sizes);
  },
};
