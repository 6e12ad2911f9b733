// <tb-stream>: the stream is a sum of small edits. For each block of a trained TinyGPT, medians over
// the held-out text's positions (CharModel.stream): how long the stream is entering the block, how
// much attention and the feed-forward add (each as a share of the stream it read, drawn as bars),
// and the cosine between the stream entering and leaving (1: the block only nudged it). Beside it,
// what the lesson reports for GPT-2 small.
//
// Attributes: model (six-blocks, the default, or shipped: the 2-block model), weights-src (an
// author's TinyGPT, or a Hugging Face checkpoint folder: measured on the real model in the page,
// checkpoint-experiment.js; text: its first text), results-src (the JSON `tblock stream` printed
// for a real checkpoint, on this site: shown, as measured, in place of the quoted figures).

import { checkpointSheet } from '../controls/checkpoint-picker.js';
import { chartLegend, h, TbElement } from './base.js';
import { defines } from './define.js';
import { sheet } from './theme.js';
import { blockBarsLayout } from '../charts/bars-layout.js';
import { renderBlockBars } from '../charts/block-bars-svg.js';
import { FRAME_CSS } from '../charts/frame.js';
import { formatDecimal, formatInteger, formatPercent } from '../format.js';
import { comparisonFigure, Measuring, REPORTED_CSS } from './experiment-parts.js';
import { ModelShown } from './model-shown.js';
import { CHECKPOINT_EXPERIMENT_CSS, checkpointExperiment } from './checkpoint-experiment.js';
import { speakEnglish } from '../i18n.js';
import streamTexts from '../locales/en/stream.js';

speakEnglish(streamTexts);

const CSS = `${FRAME_CSS}
.adds .axis line { stroke: var(--_muted); }
.adds .grid line { stroke: var(--_rule); }
.adds .attention { fill: var(--_attention); }
.adds .feed-forward { fill: var(--_feed-forward); }
.legend { display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; margin: 0.25rem 0; padding: 0; list-style: none; font-size: 0.9rem; }
.legend li { display: inline-flex; align-items: center; gap: 0.4rem; }
.swatch { display: inline-block; width: 0.9rem; height: 0.9rem; }
.swatch.attention { background: var(--_attention); }
.swatch.feed-forward { background: var(--_feed-forward); }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(13rem, 1fr)); gap: 0.5rem; margin: 0.5rem 0; padding: 0; list-style: none; }
.cards li { padding: 0.4rem 0.6rem; border: 1px solid var(--_rule); border-radius: calc(var(--_radius) / 2); font-variant-numeric: tabular-nums; }
.cards strong { display: block; }
${REPORTED_CSS}
${CHECKPOINT_EXPERIMENT_CSS}`;

/** The stream's figures as a table (a results-src file's, or a real checkpoint's run): comparisonFigure's. */
function streamTable(t) {
  const { locale } = t;
  return {
    what: t('stream.what'),
    columns: [t('stream.colMedian'), t('stream.colNorm'), t('stream.colAttention'), t('stream.colFeedForward'), t('stream.colCosine')],
    rows: (r) => [
      [t('stream.rowEmbedding'), formatDecimal(r.embedding_norm, 2, locale), '', '', ''],
      ...r.blocks.map((b) => [
        t('stream.rowBlock', { block: formatInteger(b.block, locale) }),
        formatDecimal(b.stream_norm, 2, locale),
        formatPercent(b.attention_fraction, locale),
        formatPercent(b.feed_forward_fraction, locale),
        formatDecimal(b.cosine_in_out, 3, locale),
      ]),
    ],
  };
}

/**
 * @summary The stream as a sum of small edits: per block of a trained TinyGPT, the stream's norm,
 *   what attention and the feed-forward add to it, and the cosine between the stream entering and leaving.
 *
 * @attr {'six-blocks' | 'shipped'} [model=six-blocks] - The trained TinyGPT measured: six blocks of
 *   width 16, or the 2-block one the page ships.
 * @attr {string} weights-src - The URL, on the page's own site, of a model folder `tblock train`
 *   wrote (or its model.safetensors), shown first once loaded; or of a Hugging Face checkpoint
 *   folder (GPT-2, Llama, Mistral, Qwen2), the figures measured on that model in the page.
 * @attr {string} results-src - The URL, on the page's own site, of the JSON `tblock stream` printed
 *   for a real checkpoint, shown as measured in place of GPT-2 small's reported figures.
 * @attr {string} text - With a Hugging Face checkpoint, the first text measured; default the lesson's
 *   held-out text.
 */
export class TbStream extends TbElement {
  static observedAttributes = ['model', 'weights-src', 'results-src', 'text'];
  static needs = 'full'; // TinyGPT run: the whole facade (base.js)
  static styles = [sheet(CSS), checkpointSheet];

  #lib;
  #page = null; // the author's checkpoint files (weights-src), once loaded
  #models = this.hold(new ModelShown(this, checkpointExperiment(this, { name: 'stream', title: (t) => t('stream.title'), table: streamTable })));
  #parts;
  #stats = null;
  #measuring = this.hold(new Measuring(this)); // in the page's worker, while the widget is on the page

  keepsPrerendered(lib) {
    return this.#models.loading(lib);
  }

  render(lib) {
    this.#lib = lib;
    const shown = this.#models.shown(lib);
    if (shown.loading) return this.shadowRoot.replaceChildren(...shown.loading);
    if (shown.nodes) {
      this.#measuring.stop();
      return this.shadowRoot.replaceChildren(...shown.nodes);
    }
    const { start } = shown;
    this.#page = start.page;
    const { t } = this;
    const { control, select } = this.#models.switcher(lib, start, (picked) => this.#measure(picked));
    const error = h('p', { class: 'error', role: 'alert', hidden: true });
    const chart = h('div', { class: 'chart' });
    const cards = h('ul', { class: 'cards', 'aria-label': t('stream.cardsLabel') });
    const note = h('p', { class: 'muted' });
    // Where this browser measures (a worker, or the page itself): the session's, not the page's.
    const where = h('p', { class: 'muted where', dataset: { browserState: '' } });
    const reported = lib.reported_gpt2_small();
    this.#parts = { select, error, chart, cards, note, where };
    this.shadowRoot.replaceChildren(
      h('h3', {}, t('stream.title')),
      control,
      error,
      chartLegend(
        [
          ['attention', t('stream.legendAttention')],
          ['feed-forward', t('stream.legendFeedForward')],
          [null, t('stream.legendNote')],
        ],
        t,
      ),
      chart,
      cards,
      note,
      where,
      comparisonFigure(this, {
        read: (text) => (lib.check_results(text, 'stream'), JSON.parse(text)),
        limit: lib.results_limit(),
        quoted: { source: reported.source, items: reported.stream },
        ...streamTable(t),
      }),
    );
    this.#draw();
    this.#measure(select.value);
  }

  /** The stream's figures for `source`, measured in the page's worker (or in short slices here). */
  #measure(source) {
    return this.#measuring.measure(source, this.#page, this.#parts, async (run, current) => {
      const { info } = await run('info');
      if (!current()) return;
      const { found } = await run('stream');
      if (!current()) return;
      this.#stats = { ...found, info };
      this.#draw();
    });
  }

  #draw() {
    const { chart, cards, note } = this.#parts ?? {};
    const st = this.#stats;
    if (!chart || !st) return;
    const { t, locale } = this;
    chart.replaceChildren(...addsChart(st, t));
    const n = (x) => formatDecimal(x, 2, locale);
    cards.replaceChildren(
      ...st.blocks.map((b) =>
        h(
          'li',
          {},
          h('strong', {}, t('stream.cardTitle', { block: formatInteger(b.block, locale) })),
          t('stream.cardIn', { norm: n(b.stream_norm) }),
          h('br'),
          t('stream.cardAttention', { norm: n(b.attention_norm), share: formatPercent(b.attention_fraction, locale) }),
          h('br'),
          t('stream.cardFeedForward', { norm: n(b.feed_forward_norm), share: formatPercent(b.feed_forward_fraction, locale) }),
          h('br'),
          t('stream.cardCosine', { cosine: formatDecimal(b.cosine_in_out, 3, locale) }),
        ),
      ),
    );
    note.textContent = t('stream.note', {
      norm: n(st.embedding_norm),
      positions: formatInteger(st.positions, locale),
      count: st.info.layers,
      layers: formatInteger(st.info.layers, locale),
      width: formatInteger(st.info.width, locale),
    });
  }
}

/** Grouped bars: per block, attention's and the feed-forward's share of the stream they read. */
function addsChart(st, t) {
  const { locale } = t;
  const label = t('stream.chartLabel', {
    blocks: st.blocks
      .map((b) =>
        t('stream.chartBlock', {
          block: formatInteger(b.block, locale),
          attention: formatPercent(b.attention_fraction, locale),
          feedForward: formatPercent(b.feed_forward_fraction, locale),
        }),
      )
      .join(t('stream.chartSeparator')),
  });
  const layout = blockBarsLayout({
    groups: st.blocks.map((b) => [b.attention_fraction, b.feed_forward_fraction]),
    labels: st.blocks.map((b) => [t('stream.axisBlock', { block: formatInteger(b.block, locale) }), formatInteger(b.block, locale)]),
    yText: (v) => formatPercent(v, locale),
    nice: true,
    least: 0.5,
    height: 190,
  });
  return renderBlockBars(layout, { className: 'adds', ariaLabel: label, axisTitle: t('stream.axisTitle'), barClass: (b) => (b.part === 0 ? 'attention' : 'feed-forward') });
}

if (defines('tb-stream', TbStream)) customElements.define('tb-stream', TbStream);
