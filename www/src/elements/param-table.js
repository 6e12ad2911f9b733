// <tb-param-table model="gpt2-small">: the full parameter count, one row per part with its formula
// in d, L, V …, per block and in the whole model, the totals, and Kaplan's 12·L·d² beside them.
// A second view lists every tensor. Every count comes from count(model, 1, 1).

import { TbElement, h } from './base.js';
import { sheet } from './theme.js';
import { labelCells, tableCardsSheet } from './table-cards.js';
import { formatInteger, formatPercent } from '../format.js';
import { ModelChoice, countModel, modelSwitcherSheet } from '../models/model-choice.js';

const DEFAULT_MODEL = 'gpt2-small';

const CSS = `
.scroll { margin: 0.25rem 0 0.5rem; }
table { min-width: 36rem; overflow-wrap: normal; }
tbody th, tfoot th { min-width: 10rem; }
.kaplan-note { min-width: 7rem; font-size: 0.85rem; }
tr.sum td.formula { font-weight: normal; }
caption { text-align: left; font-weight: 600; padding: 0 0 0.4rem; }
th[scope="col"] { font-size: 0.85rem; color: var(--_muted); font-weight: 600; vertical-align: bottom; }
td.formula, th .formula { font-family: var(--_mono); font-size: 0.9em; white-space: nowrap; }
td.num, th.num { white-space: nowrap; }
tbody th { font-weight: normal; }
tr.sum th, tr.sum td { font-weight: 600; }
tr.first-sum th, tr.first-sum td { border-top: 2px solid var(--_rule); }
tr.total th, tr.total td { border-top: 2px solid var(--_fg); }
tr.kaplan th, tr.kaplan td { color: var(--_muted); }
.swatch { display: inline-block; width: 0.7rem; height: 0.7rem; border-radius: 2px; margin-right: 0.4rem; vertical-align: -0.05rem; background: var(--_muted); }
.swatch.embeddings { background: var(--_embeddings); }
.swatch.attention { background: var(--_attention); }
.swatch.feed_forward { background: var(--_feed-forward); }
.swatch.norms { background: var(--_norms); }
.swatch.output_head { background: var(--_output-head); }
.swatch.router { background: var(--_router); }
.symbols { font-size: 0.9rem; }
.symbols dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.1rem 0.75rem; margin: 0.25rem 0; }
.symbols dt { font-family: var(--_mono); }
.symbols dd { margin: 0; }
details { margin-top: 0.5rem; }
summary { cursor: pointer; }
.note { font-size: 0.9rem; }
`;

export class TbParamTable extends TbElement {
  static observedAttributes = ['model', 'config-src'];
  static styles = [sheet(CSS), tableCardsSheet, modelSwitcherSheet];

  #choice = this.hold(new ModelChoice(this, DEFAULT_MODEL));

  render(lib) {
    const requested = this.#choice.model();
    if (requested === null) return this.#choice.showLoading();
    let shown = requested;
    const report = this.attempt(
      () => countModel(lib, requested, 1, 1),
      () => countModel(lib, (shown = DEFAULT_MODEL), 1, 1),
    );
    const c = report.config;
    const captionId = `${this.uid}-caption`;
    const tensorsId = `${this.uid}-tensors`;

    const k = report.kaplan;
    const kaplanVsCount = k.error_vs_non_embedding;
    const kaplanNote =
      `${formatPercent(Math.abs(kaplanVsCount))} ${kaplanVsCount <= 0 ? 'below' : 'above'} the count without embeddings`;

    const partRows = report.parts.map((p) => partRow(p, c));
    const moe = c.moe;
    const sums = [
      sumRow('first-sum sum', 'One block', 'the per-block rows', report.per_block_params, null, null),
      sumRow('sum', `All ${formatInteger(c.n_layers)} blocks`, 'L × one block', null, report.all_blocks_params, null),
      sumRow('sum', 'Without embeddings', 'total − tables', null, report.non_embedding_params, null),
      sumRow('total sum', 'Total', '', null, report.total_params, 1),
      moe ? sumRow('sum', `Used per token (${moe.experts_per_token} of ${moe.n_experts} experts)`, '', null, report.active_params, null) : null,
      h(
        'tr',
        { class: 'kaplan' },
        h('th', { scope: 'row' }, "Kaplan's estimate"),
        h('td', { class: 'formula' }, '12·L·d²'),
        h('td', { class: 'num' }),
        h('td', { class: 'num' }, formatInteger(k.params)),
        h('td', { class: 'kaplan-note' }, kaplanNote),
      ),
    ];

    const table = h(
      'table',
      { class: 'parts', 'aria-labelledby': captionId },
      h('caption', { id: captionId }, `Parameters of ${c.label}, part by part`),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { scope: 'col' }, 'Part'),
          h('th', { scope: 'col' }, 'Formula'),
          h('th', { scope: 'col', class: 'num' }, 'Per block'),
          h('th', { scope: 'col', class: 'num' }, 'In the model'),
          h('th', { scope: 'col', class: 'num' }, 'Share'),
        ),
      ),
      h('tbody', {}, partRows),
      h('tfoot', {}, sums),
    );

    const leftOut =
      `Adding the token table, 12·L·d² + V·d = ${formatInteger(k.plus_token_table)}: ` +
      `12·L·d² + V·d leaves out ${formatPercent(k.left_out_of_total)} of the total.`;

    this.shadowRoot.replaceChildren(
      this.#choice.switcher(lib, shown),
      h('div', { class: 'scroll cards', tabindex: '0', role: 'group', 'aria-labelledby': captionId }, labelCells(table)),
      h(
        'p',
        { class: 'kaplan-summary note' },
        `Kaplan's shortcut 12·L·d² = ${formatInteger(k.params)} ignores the embeddings, biases and norms: `,
        `it is ${kaplanNote} (${formatInteger(report.non_embedding_params)}). `,
        h('span', { class: 'left-out' }, leftOut),
      ),
      symbols(c),
      h(
        'details',
        {},
        h('summary', {}, `Every tensor of ${c.label}`),
        h('div', { class: 'scroll cards', tabindex: '0', role: 'group', 'aria-labelledby': tensorsId }, labelCells(tensorTable(report, tensorsId))),
      ),
    );
  }
}

function partRow(p, c) {
  const tiedHead = p.part === 'output_head' && c.tied_output;
  const value = (n) => (tiedHead ? 'tied (0)' : formatInteger(n));
  return h(
    'tr',
    { dataset: { part: p.part } },
    h('th', { scope: 'row' }, h('span', { class: `swatch ${p.group}`, 'aria-hidden': 'true' }), p.label),
    h('td', { class: 'formula' }, p.formula),
    h('td', { class: 'num per-block' }, p.per_block ? value(p.params_each) : '—'),
    h('td', { class: 'num in-model' }, value(p.params)),
    h('td', { class: 'num share' }, formatPercent(p.share)),
  );
}

function sumRow(cls, label, formula, perBlock, inModel, share) {
  return h(
    'tr',
    { class: cls },
    h('th', { scope: 'row' }, label),
    h('td', { class: 'formula muted' }, formula),
    h('td', { class: 'num per-block' }, perBlock === null ? '' : formatInteger(perBlock)),
    h('td', { class: 'num in-model' }, inModel === null ? '' : formatInteger(inModel)),
    h('td', { class: 'num share' }, share === null ? '' : formatPercent(share)),
  );
}

/** What the letters in the formulas stand for, with this model's values (from its config). */
function symbols(c) {
  const n = formatInteger;
  const items = [
    ['V', `vocabulary size, ${n(c.vocab_size)}`],
    ['d', `width of the residual stream (d_model), ${n(c.d_model)}`],
    ['L', `number of blocks, ${n(c.n_layers)}`],
    ['P', c.positions === 'learned' ? `positions in the position table (the context), ${n(c.context)}` : 'positions in a learned position table (none here: rotary positions hold no parameters)'],
    ['f', `feed-forward width, ${n(c.d_ff)}`],
    ['d_kv', `width of the keys and values: n_kv_heads × d_head = ${n(c.n_kv_heads)} × ${n(c.head_dim)}`],
    ['E', c.moe ? `experts per block, ${n(c.moe.n_experts)} (${n(c.moe.experts_per_token)} used per token)` : 'experts per block (a mixture of experts only; none here)'],
  ];
  return h(
    'div',
    { class: 'symbols' },
    h('p', { class: 'muted' }, `Symbols in the formulas, with ${c.label}'s values:`),
    h('dl', {}, items.flatMap(([sym, text]) => [h('dt', {}, sym), h('dd', {}, text)])),
    c.tied_output ? h('p', { class: 'muted' }, 'The output head is tied: it reuses the token table, so it adds no parameters of its own.') : null,
  );
}

function tensorTable(report, captionId) {
  const shape = (t) => `${t.shape_symbols.join(' × ')} = ${t.shape.map(formatInteger).join(' × ')}`;
  return h(
    'table',
    { class: 'tensors', 'aria-labelledby': captionId },
    h('caption', { id: captionId }, `Tensors of ${report.config.label}`),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', { scope: 'col' }, 'Tensor'),
        h('th', { scope: 'col' }, 'Shape'),
        h('th', { scope: 'col' }, 'Formula'),
        h('th', { scope: 'col', class: 'num' }, 'Each'),
        h('th', { scope: 'col', class: 'num' }, 'In the model'),
      ),
    ),
    h(
      'tbody',
      {},
      report.components.map((t) =>
        h(
          'tr',
          {},
          h('th', { scope: 'row' }, h('span', { class: `swatch ${t.group}`, 'aria-hidden': 'true' }), t.name),
          h('td', { class: 'formula' }, shape(t)),
          h('td', { class: 'formula' }, t.formula),
          h('td', { class: 'num' }, t.tied ? 'tied (0)' : formatInteger(t.params_each)),
          h('td', { class: 'num' }, t.tied ? 'tied (0)' : formatInteger(t.params)),
        ),
      ),
    ),
  );
}

customElements.get('tb-param-table') || customElements.define('tb-param-table', TbParamTable);
