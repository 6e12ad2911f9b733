// Mixture of experts: route one token's scores to the top k, then size a real MoE layer.
import { h } from '../base.js';
import { formatDecimal, formatInteger } from '../../format.js';
import { exampleForm, listText, say, steps } from './form.js';

function and(xs) {
  const items = xs.map(String);
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

export default {
  title: 'Mixture of experts: routing and size',
  intro: 'A router scores the token against every expert; only the top k run, weighted by a softmax over their scores.',
  render({ lib, defaults, uid }) {
    const m = defaults.moe;
    const routing = exampleForm({
      uid: `${uid}-route`,
      legend: 'One token\u2019s routing',
      fields: [
        { key: 'scores', name: 'the router scores', label: 'Router scores, one per expert', kind: 'list', value: listText(m.scores) },
        { key: 'k', name: 'k', label: 'Experts kept, k', kind: 'number', value: String(m.k), min: 1, step: 1 },
      ],
      compute: (v) => lib.example_moe_routing(v.scores, v.k),
      show: (r) =>
        steps([
          [`kept (top ${r.k}): expert${r.kept.length === 1 ? '' : 's'}`, and(r.kept)],
          ['gates (softmax over the kept scores)', and(r.gates.map((g) => formatDecimal(g)))],
          [r.skipped.length === 1 ? 'skipped (never run): expert' : 'skipped (never run): experts', r.skipped.length ? and(r.skipped) : 'none'],
        ]),
    });
    const sizes = exampleForm({
      uid: `${uid}-size`,
      legend: 'The size of a layer',
      fields: [
        { key: 'd', name: 'width d', label: 'Width d', kind: 'number', value: String(m.d), min: 1, max: m.max_d, step: 1 },
        { key: 'experts', name: 'experts', label: 'Experts', kind: 'number', value: String(m.n_experts), min: 1, max: m.max_experts, step: 1 },
        { key: 'k', name: 'k', label: 'Experts kept, k', kind: 'number', value: String(m.k), min: 1, step: 1 },
      ],
      compute: (v) => lib.example_moe_sizes(v.d, v.experts, v.k),
      show: (r) => [
        steps([
          ['one expert (a feed-forward network)', formatInteger(r.one_expert)],
          ['router', formatInteger(r.router)],
          ['all held in memory', formatInteger(r.all_held)],
          ['touched per token', formatInteger(r.touched_per_token)],
        ]),
        say('Every expert must be held; only k of them work on any one token.'),
      ],
    });
    return h('div', { class: 'parts' }, routing, sizes);
  },
};
