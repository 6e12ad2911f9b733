// The table alternative of <tb-attention>'s maps: for each head of a block, a <table> captioned
// "Block B, head H", a row per query character and a column per key character, the weights to three
// decimals, the cells after each query left empty. In a disclosure per block, built when it is opened
// (and kept up to date while it stays open), so typing redraws maps, not thousands of cells.

import { h } from './base.js';
import { formatFixed } from '../format.js';
import { labelCells } from './table-cards.js';
import { showChar } from './heatmap-figure.js';
import { speakEnglish, translator } from '../i18n.js';
import attentionTexts from '../locales/en/attention.js';

speakEnglish(attentionTexts);

/** One head's table from a result of CharModel.attention, in the language of `t`. */
export function weightTable(r, block, head, t = translator('en')) {
  const n = r.ids.length;
  return headTable({ labels: r.symbols.map(showChar), data: r.weights.data, offset: (block * r.heads + head) * n * n, block, head }, t);
}

/**
 * The table of one head's weights: `labels` the positions' texts, `data` from `offset` the head's
 * [T, T] weights (row q query q's over the keys); captioned "Block B, head H".
 */
export function headTable({ labels, data, offset, block, head }, t = translator('en')) {
  const { locale } = t;
  const n = labels.length;
  const name = (k) => `${k + 1} ${labels[k]}`;
  const table = h(
    'table',
    { class: 'weights-table', dataset: { block, head } },
    h('caption', {}, t('attention.headTitle', { block, head })),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('attention.queryKey')), labels.map((_, k) => h('th', { scope: 'col' }, name(k))))),
    h(
      'tbody',
      {},
      labels.map((_, q) =>
        h(
          'tr',
          {},
          h('th', { scope: 'row' }, name(q)),
          labels.map((_, k) => h('td', { class: 'num' }, k <= q ? formatFixed(data[offset + q * n + k], 3, locale) : '')),
        ),
      ),
    ),
  );
  return labelCells(table);
}

/** A block's disclosure of tables: { details, update(result) }. */
export function weightTables(block, heads, t = translator('en')) {
  const body = h('div', { class: 'tables-body' });
  const details = h('details', { class: 'tables', dataset: { block } }, h('summary', {}, t('attention.tablesSummary', { block })), body);
  let last = null;
  const fill = () => {
    if (!details.open || !last) return;
    body.replaceChildren(...Array.from({ length: heads }, (_, head) => h('div', { class: 'cards' }, weightTable(last, block, head, t))));
  };
  details.addEventListener('toggle', fill);
  return {
    details,
    update(r) {
      last = r;
      fill();
    },
  };
}
