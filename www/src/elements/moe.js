// <tb-moe>: a mixture-of-experts router you can push around. One slider per expert sets that
// expert's router score for one token; the wasm keeps the top k and gives their gate weights
// (example_moe_routing). Below, a batch of tokens goes through a real seeded MoE layer
// (example_moe_batch) and a bar chart shows how many tokens each expert received, with the
// load-balancing loss.
//
// Attributes (all optional): experts (number of experts, default 4 sliders and a layer of 8),
// k (experts kept per token, default 2), tokens (batch size, default 64), seed (default the lessons').

import { TbElement, h, resultRegion } from './base.js';
import { defines } from './define.js';
import { sheet } from './theme.js';
import { blockBarsLayout } from '../charts/bars-layout.js';
import { renderBlockBars } from '../charts/block-bars-svg.js';
import { FRAME_CSS } from '../charts/frame.js';
import { formatDecimal, formatInteger, lazyFormat } from '../format.js';
import { speakEnglish } from '../i18n.js';
import moeTexts from '../locales/en/moe.js';

speakEnglish(moeTexts);

const CSS = `${FRAME_CSS}
.sliders { display: grid; grid-template-columns: minmax(6.5rem, auto) minmax(0, 1fr) 3rem; gap: 0.25rem 0.6rem; align-items: center; margin: 0.5rem 0; }
.sliders input[type="range"] { min-width: 0; width: 100%; }
.sliders output { font-variant-numeric: tabular-nums; text-align: right; }
/* Words whole ("Score", not "Scor/e"): the table fits a 320 px phone without splitting them. */
.routing th, .routing td { overflow-wrap: break-word; }
.routing td.kept { font-weight: 600; color: color-mix(in srgb, var(--_router) 75%, var(--_fg)); }
.routing td.skipped { color: var(--_muted); }
.bars .chart { max-width: 36rem; }
.bars .bar { fill: var(--_router); }
.bars .axis text { fill: var(--_muted); }
.bars .base { stroke: var(--_rule); }
section + section { margin-top: 1rem; }
figure { margin: 0.5rem 0; }
`;

const scoreFormat = lazyFormat({ minimumFractionDigits: 1, maximumFractionDigits: 1 });
const score1 = (x, locale) => scoreFormat.format(x, locale);

/**
 * "0, 1 and 2" in the language of `t` (the catalog's words, not Intl.ListFormat's: the lesson
 * writes no serial comma). `separator` is the catalog key between items: moe.listCommaDecimals for
 * numbers with decimals (a French "0,629 ; 0,231 et 0,14").
 */
function list(items, t, separator = 'moe.listComma') {
  if (items.length <= 1) return items.join('');
  return t('moe.listAnd', { rest: items.slice(0, -1).join(t(separator)), last: items.at(-1) });
}

/**
 * @summary A mixture-of-experts router: a slider per expert's score, the top k kept and their gate
 *   weights, and a batch of tokens through a seeded layer with its load-balancing loss.
 *
 * @attr {number} experts - The experts, a whole number from 1 to 64, for the sliders and the layer;
 *   absent: the lesson's 4 scores and a layer of 8.
 * @attr {number} [k=2] - The experts kept per token, from 1 to the number of experts.
 * @attr {number} [tokens=64] - The tokens in the batch, from 1 to 4,096.
 * @attr {number} [seed=0] - The seed of the layer and the batch, a whole number.
 */
class TbMoe extends TbElement {
  static observedAttributes = ['experts', 'k', 'tokens', 'seed'];
  static styles = [sheet(CSS)];

  render(lib) {
    const defaults = lib.example_defaults();
    const moe = defaults.moe;
    // How many experts: the lesson's 4 scores for one token and a layer of 8 for the batch, unless
    // the attribute sets both. The library checks the range.
    let experts = this.wholeAttr('experts', null);
    if (experts !== null && !this.attempt(() => (lib.example_moe_sizes(moe.d, experts, 1), true), () => false)) {
      experts = null;
    }
    const nSliders = experts ?? moe.scores.length;
    const nLayer = experts ?? moe.n_experts;
    const scores = Array.from({ length: nSliders }, (_, i) => moe.scores[i] ?? 0);

    let k = this.wholeAttr('k', Math.min(moe.k, nSliders));
    if (!this.attempt(() => (lib.example_moe_routing(scores, k), lib.example_moe_batch(moe.d, nLayer, k, 1, 0), true), () => false)) {
      k = Math.min(moe.k, nSliders);
    }
    let nTokens = this.wholeAttr('tokens', moe.n_tokens);
    let seed = this.wholeAttr('seed', defaults.seed);
    if (!this.attempt(() => (lib.example_moe_batch(moe.d, nLayer, k, nTokens, seed), true), () => false)) {
      nTokens = moe.n_tokens;
      seed = defaults.seed;
    }

    const uid = this.uid;
    const { t, locale } = this;

    // --- one token's routing ---
    const sliders = scores.map((score, i) => {
      const id = `${uid}-score-${i}`;
      const input = h('input', { type: 'range', id, min: -3, max: 3, step: 0.1, value: score });
      const shown = h('output', { htmlFor: id }, score1(score, locale));
      input.addEventListener('input', () => {
        shown.value = score1(Number(input.value), locale);
        routeNow();
      });
      return { input, row: [h('label', { htmlFor: id }, t('moe.scoreLabel', { expert: formatInteger(i, locale) })), input, shown] };
    });
    const kSelect = h(
      'select',
      { id: `${uid}-k` },
      Array.from({ length: nSliders }, (_, i) => h('option', { value: String(i + 1), selected: i + 1 === k }, formatInteger(i + 1, locale))),
    );
    kSelect.value = String(k);
    kSelect.addEventListener('change', () => {
      k = Number(kSelect.value);
      routeNow();
      batchNow();
    });
    const route = resultRegion({ t: this.t });
    const routeNow = () => {
      const current = sliders.map((sl) => Number(sl.input.value));
      route.show(() => lib.example_moe_routing(current, k), (r) => routingResult(r, t));
    };

    // --- a batch through a real layer ---
    const seedField = h('input', { type: 'number', id: `${uid}-seed`, min: 0, step: 1, value: seed });
    const batch = resultRegion({ outputClass: 'output bars', t: this.t });
    seedField.addEventListener('input', () => {
      if (seedField.validity.badInput || seedField.value.trim() === '') return batch.fail(t('moe.seedWhole'));
      seed = Number(seedField.value);
      batchNow();
    });

    const batchNow = () => {
      batch.show(
        () => lib.example_moe_batch(moe.d, nLayer, k, nTokens, seed),
        (r) => batchResult(r, { k, seed, t }),
      );
    };

    routeNow();
    batchNow();

    this.shadowRoot.replaceChildren(
      h('h3', {}, t('moe.title')),
      h(
        'div',
        { role: 'group', 'aria-labelledby': `${uid}-one` },
        h('h4', { id: `${uid}-one` }, t('moe.oneToken')),
        h('p', { class: 'muted' }, t('moe.drag')),
        h('div', { class: 'sliders' }, sliders.flatMap((sl) => sl.row)),
        h('div', { class: 'controls' }, h('label', { htmlFor: kSelect.id }, t('moe.k')), kSelect),
        route.error,
        route.output,
      ),
      h(
        'div',
        { role: 'group', 'aria-labelledby': `${uid}-batch` },
        h(
          'h4',
          { id: `${uid}-batch` },
          t('moe.batchTitle', { tokens: formatInteger(nTokens, locale), experts: formatInteger(nLayer, locale), d: formatInteger(moe.d, locale) }),
        ),
        h('div', { class: 'controls' }, h('label', { htmlFor: seedField.id }, t('moe.seed')), seedField, h('span', { class: 'muted' }, t('moe.seedHint'))),
        batch.error,
        batch.output,
      ),
    );
  }
}

function routingResult(r, t) {
  const { locale } = t;
  const gateOf = new Map(r.kept.map((e, i) => [e, r.gates[i]]));
  const expert = (e) => formatInteger(e, locale); // an expert's number
  const rows = r.scores.map((score, e) => {
    const kept = gateOf.has(e);
    return h(
      'tr',
      { dataset: { expert: e } },
      h('th', { scope: 'row' }, t('moe.expert', { expert: expert(e) })),
      h('td', { class: 'num' }, score1(score, locale)),
      h('td', { class: kept ? 'kept' : 'skipped' }, kept ? t('moe.keptGate', { gate: formatDecimal(gateOf.get(e), 3, locale) }) : t('moe.skippedCell')),
    );
  });
  const keptText = t('moe.kept', {
    count: r.kept.length,
    experts: list(r.kept.map(expert), t),
    gates: list(r.gates.map((g) => formatDecimal(g, 3, locale)), t, 'moe.listCommaDecimals'),
  });
  const skippedText = r.skipped.length ? t('moe.skipped', { count: r.skipped.length, experts: list(r.skipped.map(expert), t) }) : t('moe.noneSkipped');
  return [
    h('p', { class: 'result' }, t('moe.routing', { kept: keptText, skipped: skippedText })),
    h(
      'div',
      { class: 'scroll' },
      h(
        'table',
        { class: 'routing' },
        h('caption', { class: 'visually-hidden' }, t('moe.tableCaption')),
        h(
          'thead',
          {},
          h('tr', {}, h('th', { scope: 'col' }, t('moe.colExpert')), h('th', { scope: 'col', class: 'num' }, t('moe.colScore')), h('th', { scope: 'col' }, t('moe.colGate'))),
        ),
        h('tbody', {}, rows),
      ),
    ),
  ];
}

function batchResult(r, { k, seed, t }) {
  const { locale } = t;
  const layout = blockBarsLayout({
    values: r.tokens_per_expert,
    labels: r.tokens_per_expert.map((_, e) => [t('moe.expert', { expert: formatInteger(e, locale) }), formatInteger(e, locale)]),
    valueText: (count) => formatInteger(count, locale),
    axis: false,
    nice: true,
    height: 170,
    top: 20,
  });
  // The seed is a name for the draw, not a quantity: written as typed (no thousands separator).
  const label = t('moe.chartLabel', {
    tokens: formatInteger(r.n_tokens, locale),
    k: formatInteger(k, locale),
    seed: String(seed),
    counts: r.tokens_per_expert.map((c, e) => t('moe.chartCount', { expert: formatInteger(e, locale), count: formatInteger(c, locale) })).join(t('moe.listComma')),
  });
  return [
    h('figure', {}, h('div', { class: 'chart' }, renderBlockBars(layout, { className: 'tokens', ariaLabel: label })), h('figcaption', { class: 'muted' }, t('moe.figcaption'))),
    h('p', { class: 'result' }, t.parts('moe.loss', { loss: h('strong', { class: 'loss' }, formatDecimal(r.balance_loss, 3, locale)) })),
  ];
}

if (defines('tb-moe', TbMoe)) customElements.define('tb-moe', TbMoe);
