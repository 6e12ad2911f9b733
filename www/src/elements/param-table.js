// <tb-param-table model="gpt2-small">: the full parameter count, one row per part with its formula
// in d, L, V …, per block and in the whole model, the totals, and Kaplan's 12·L·d² beside them.
// A second view lists every tensor. Every count comes from count(model, 1, 1).

import { TbElement, h } from './base.js';
import { defines } from './define.js';
import { sheet } from './theme.js';
import { labelCells, tableCardsSheet } from './table-cards.js';
import { formatInteger, formatPercent } from '../format.js';
import { ModelChoice, countModel, modelSwitcherSheet } from '../models/model-choice.js';
import { speakEnglish } from '../i18n.js';
import paramTableTexts from '../locales/en/param-table.js';

speakEnglish(paramTableTexts);

const DEFAULT_MODEL = 'gpt2-small';

/** The catalog key of each part's name (count(...).parts[].part); a part not listed shows the library's label. */
const PART_KEYS = {
  token_table: 'paramTable.partTokenTable',
  position_table: 'paramTable.partPositionTable',
  attention_norm: 'paramTable.partAttentionNorm',
  attention: 'paramTable.partAttention',
  feed_forward_norm: 'paramTable.partFeedForwardNorm',
  feed_forward: 'paramTable.partFeedForward',
  router: 'paramTable.partRouter',
  final_norm: 'paramTable.partFinalNorm',
  output_head: 'paramTable.partOutputHead',
};

/**
 * The catalog key of each tensor the library names in words (count(...).components[].name); the
 * others (W_Q, b_1, …) are symbols and stay. A mixture of experts' feed-forward tensors end in
 * " (each expert)".
 */
const TENSOR_KEYS = {
  'token table': 'paramTable.tensorTokenTable',
  'position table': 'paramTable.tensorPositionTable',
  'attention norm gain γ': 'paramTable.tensorAttentionNormGain',
  'attention norm bias β': 'paramTable.tensorAttentionNormBias',
  'feed-forward norm gain γ': 'paramTable.tensorFeedForwardNormGain',
  'feed-forward norm bias β': 'paramTable.tensorFeedForwardNormBias',
  'final norm gain γ': 'paramTable.tensorFinalNormGain',
  'final norm bias β': 'paramTable.tensorFinalNormBias',
};
const EACH_EXPERT = ' (each expert)';

function tensorName(name, t) {
  const each = name.endsWith(EACH_EXPERT);
  const base = each ? name.slice(0, -EACH_EXPERT.length) : name;
  const shown = TENSOR_KEYS[base] ? t(TENSOR_KEYS[base]) : base;
  return each ? t('paramTable.eachExpert', { name: shown }) : shown;
}

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

/**
 * @summary The parameter count part by part, with its formula, per block and in the model; the
 *   totals beside Kaplan's 12·L·d²; and every tensor.
 *
 * @attr {'tiny-gpt' | 'gpt2-small' | 'gpt2-medium' | 'gpt2-large' | 'gpt2-xl' | 'llama3-8b' | 'llama3-70b' | 'mixtral-8x7b' | string} [model=gpt2-small] - A preset, or the text of a Hugging Face config.json.
 *   The reader's pick in the model switcher wins until the page changes model or config-src.
 * @attr {string} config-src - A config.json to show in place of model: "#id" of a
 *   <script type="application/json"> in the page, or the URL of a .json file on the page's own site.
 */
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
    const { t, locale } = this;
    const n = (x) => formatInteger(x, locale);

    const k = report.kaplan;
    const kaplanVsCount = k.error_vs_non_embedding;
    const kaplanNote = t(kaplanVsCount <= 0 ? 'paramTable.below' : 'paramTable.above', { share: formatPercent(Math.abs(kaplanVsCount), locale) });

    const partRows = report.parts.map((p) => partRow(p, c, t));
    const moe = c.moe;
    const sums = [
      sumRow('first-sum sum', t('paramTable.oneBlock'), t('paramTable.oneBlockFormula'), report.per_block_params, null, null, locale),
      sumRow('sum', t('paramTable.allBlocks', { layers: n(c.n_layers), count: c.n_layers }), t('paramTable.allBlocksFormula'), null, report.all_blocks_params, null, locale),
      sumRow('sum', t('paramTable.withoutEmbeddings'), t('paramTable.withoutEmbeddingsFormula'), null, report.non_embedding_params, null, locale),
      sumRow('total sum', t('paramTable.total'), '', null, report.total_params, 1, locale),
      moe
        ? sumRow(
            'sum',
            t('paramTable.usedPerToken', { used: n(moe.experts_per_token), experts: n(moe.n_experts), count: moe.n_experts }),
            '',
            null,
            report.active_params,
            null,
            locale,
          )
        : null,
      h(
        'tr',
        { class: 'kaplan' },
        h('th', { scope: 'row' }, t('paramTable.kaplan')),
        h('td', { class: 'formula' }, '12·L·d²'),
        h('td', { class: 'num' }),
        h('td', { class: 'num' }, n(k.params)),
        h('td', { class: 'kaplan-note' }, kaplanNote),
      ),
    ];

    const table = h(
      'table',
      { class: 'parts', 'aria-labelledby': captionId },
      h('caption', { id: captionId }, t('paramTable.caption', { model: c.label })),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { scope: 'col' }, t('paramTable.colPart')),
          h('th', { scope: 'col' }, t('paramTable.colFormula')),
          h('th', { scope: 'col', class: 'num' }, t('paramTable.colPerBlock')),
          h('th', { scope: 'col', class: 'num' }, t('paramTable.colInModel')),
          h('th', { scope: 'col', class: 'num' }, t('paramTable.colShare')),
        ),
      ),
      h('tbody', {}, partRows),
      h('tfoot', {}, sums),
    );

    const leftOut = t('paramTable.leftOut', { params: n(k.plus_token_table), share: formatPercent(k.left_out_of_total, locale) });

    this.shadowRoot.replaceChildren(
      this.#choice.switcher(lib, shown),
      h('div', { class: 'scroll cards', tabindex: '0', role: 'group', 'aria-labelledby': captionId }, labelCells(table)),
      h(
        'p',
        { class: 'kaplan-summary note' },
        t.parts('paramTable.summary', {
          params: n(k.params),
          note: kaplanNote,
          nonEmbedding: n(report.non_embedding_params),
          leftOut: h('span', { class: 'left-out' }, leftOut),
        }),
      ),
      symbols(c, t),
      h(
        'details',
        {},
        h('summary', {}, t('paramTable.tensorsSummary', { model: c.label })),
        h('div', { class: 'scroll cards', tabindex: '0', role: 'group', 'aria-labelledby': tensorsId }, labelCells(tensorTable(report, tensorsId, t))),
      ),
    );
  }
}

function partRow(p, c, t) {
  const { locale } = t;
  const tiedHead = p.part === 'output_head' && c.tied_output;
  const value = (n) => (tiedHead ? t('paramTable.tied') : formatInteger(n, locale));
  return h(
    'tr',
    { dataset: { part: p.part } },
    h('th', { scope: 'row' }, h('span', { class: `swatch ${p.group}`, 'aria-hidden': 'true' }), PART_KEYS[p.part] ? t(PART_KEYS[p.part]) : p.label),
    // The library's formula, but its words for a tied head in the widget's language.
    h('td', { class: 'formula' }, tiedHead ? t('paramTable.tiedFormula') : p.formula),
    h('td', { class: 'num per-block' }, p.per_block ? value(p.params_each) : '—'),
    h('td', { class: 'num in-model' }, value(p.params)),
    h('td', { class: 'num share' }, formatPercent(p.share, locale)),
  );
}

function sumRow(cls, label, formula, perBlock, inModel, share, locale) {
  return h(
    'tr',
    { class: cls },
    h('th', { scope: 'row' }, label),
    h('td', { class: 'formula muted' }, formula),
    h('td', { class: 'num per-block' }, perBlock === null ? '' : formatInteger(perBlock, locale)),
    h('td', { class: 'num in-model' }, inModel === null ? '' : formatInteger(inModel, locale)),
    h('td', { class: 'num share' }, share === null ? '' : formatPercent(share, locale)),
  );
}

/** What the letters in the formulas stand for, with this model's values (from its config). */
function symbols(c, t) {
  const n = (x) => formatInteger(x, t.locale);
  const items = [
    ['V', t('paramTable.symbolV', { value: n(c.vocab_size) })],
    ['d', t('paramTable.symbolD', { value: n(c.d_model) })],
    ['L', t('paramTable.symbolL', { value: n(c.n_layers) })],
    ['P', c.positions === 'learned' ? t('paramTable.symbolP', { value: n(c.context) }) : t('paramTable.symbolPNone')],
    ['f', t('paramTable.symbolF', { value: n(c.d_ff) })],
    ['d_kv', t('paramTable.symbolDkv', { kvHeads: n(c.n_kv_heads), headDim: n(c.head_dim) })],
    [
      'E',
      c.moe
        ? t('paramTable.symbolE', { experts: n(c.moe.n_experts), used: n(c.moe.experts_per_token), count: c.moe.experts_per_token })
        : t('paramTable.symbolENone'),
    ],
  ];
  return h(
    'div',
    { class: 'symbols' },
    h('p', { class: 'muted' }, t('paramTable.symbolsIntro', { model: c.label })),
    h('dl', {}, items.flatMap(([sym, text]) => [h('dt', {}, sym), h('dd', {}, text)])),
    c.tied_output ? h('p', { class: 'muted' }, t('paramTable.tiedNote')) : null,
  );
}

function tensorTable(report, captionId, t) {
  const n = (x) => formatInteger(x, t.locale);
  const shape = (tensor) => `${tensor.shape_symbols.join(' × ')} = ${tensor.shape.map(n).join(' × ')}`;
  return h(
    'table',
    { class: 'tensors', 'aria-labelledby': captionId },
    h('caption', { id: captionId }, t('paramTable.tensorsCaption', { model: report.config.label })),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', { scope: 'col' }, t('paramTable.colTensor')),
        h('th', { scope: 'col' }, t('paramTable.colShape')),
        h('th', { scope: 'col' }, t('paramTable.colFormula')),
        h('th', { scope: 'col', class: 'num' }, t('paramTable.colEach')),
        h('th', { scope: 'col', class: 'num' }, t('paramTable.colInModel')),
      ),
    ),
    h(
      'tbody',
      {},
      report.components.map((tensor) =>
        h(
          'tr',
          {},
          h('th', { scope: 'row' }, h('span', { class: `swatch ${tensor.group}`, 'aria-hidden': 'true' }), tensorName(tensor.name, t)),
          h('td', { class: 'formula' }, shape(tensor)),
          // The tensor's formula as the library writes it; its words for the tied head in the widget's language.
          h('td', { class: 'formula' }, tensor.tied ? t('paramTable.tiedTensorFormula') : tensor.formula),
          h('td', { class: 'num' }, tensor.tied ? t('paramTable.tied') : n(tensor.params_each)),
          h('td', { class: 'num' }, tensor.tied ? t('paramTable.tied') : n(tensor.params)),
        ),
      ),
    ),
  );
}

if (defines('tb-param-table', TbParamTable)) customElements.define('tb-param-table', TbParamTable);
