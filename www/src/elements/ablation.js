// <tb-ablation>: take one block out of a trained TinyGPT, or make it overwrite the stream instead of
// adding to it, and see what the loss does. One bar per block, the intact loss as a line and a
// uniform guess (ln V) dotted; choose a block for its numbers. Beside it, what the lesson reports
// for GPT-2 small, labelled as a reported measurement. Every loss is the library's (CharModel.loss,
// the evaluation protocol on the held-out text), measured one configuration a task so the page never
// waits long; the results stay while the reader switches between removing and overwriting.
//
// Attributes: model (six-blocks, the default, or shipped: the 2-block model), mode (removed, the
// default, or overwritten), weights-src (an author's TinyGPT, or a Hugging Face checkpoint folder:
// the ablation measured on the real model in the page, checkpoint-experiment.js; text: its first
// text), results-src (the JSON `tblock ablate` printed for a real checkpoint, on this site: shown,
// as measured, in place of the quoted figures).

import { checkpointSheet } from '../controls/checkpoint-picker.js';
import { h, TbElement } from './base.js';
import { defines } from './define.js';
import { clipText } from '../attributes.js';
import { sheet } from './theme.js';
import { blockBarsLayout } from '../charts/bars-layout.js';
import { renderBlockBars } from '../charts/block-bars-svg.js';
import { FRAME_CSS } from '../charts/frame.js';
import { formatDecimal, formatInteger } from '../format.js';
import { comparisonFigure, Measuring, REPORTED_CSS } from './experiment-parts.js';
import { ModelShown } from './model-shown.js';
import { CHECKPOINT_EXPERIMENT_CSS, checkpointExperiment } from './checkpoint-experiment.js';
import { speakEnglish } from '../i18n.js';
import ablationTexts from '../locales/en/ablation.js';

speakEnglish(ablationTexts);

const CSS = `${FRAME_CSS}
.modes { display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; margin: 0 0 0.5rem; padding: 0; border: 0; }
.modes legend { font-weight: 600; margin-bottom: 0.25rem; }
.bars .axis line { stroke: var(--_muted); }
.bars .grid line { stroke: var(--_rule); }
.bars .bar { fill: var(--_attention); cursor: pointer; }
.bars .bar.chosen { fill: var(--_feed-forward); }
.bars .line-intact { stroke: var(--_fg); stroke-width: 2; }
.bars .line-uniform { stroke: var(--_muted); stroke-width: 1.5; stroke-dasharray: 2 4; }
.bars .line-label, .bars .axis-title { fill: var(--_muted); }
.blocks { display: flex; flex-wrap: wrap; gap: 0.35rem; margin: 0.5rem 0; padding: 0; list-style: none; }
.blocks button[aria-pressed="true"] { border-color: var(--_accent); box-shadow: inset 0 0 0 1px var(--_accent); }
.details { font-variant-numeric: tabular-nums; }
${REPORTED_CSS}
${CHECKPOINT_EXPERIMENT_CSS}`;

/** The ablation's figures as a table (a results-src file's, or a real checkpoint's run): comparisonFigure's. */
function ablationTable(t) {
  const { locale } = t;
  return {
    what: t('ablation.what'),
    columns: [t('ablation.colLoss'), t('ablation.colRemoved'), t('ablation.colOverwriting')],
    rows: (r) => [
      [t('ablation.rowIntact'), formatDecimal(r.intact, 3, locale), ''],
      ...r.blocks.map((b) => [
        t('ablation.rowBlock', { block: formatInteger(b.block, locale) }),
        formatDecimal(b.removed, 3, locale),
        formatDecimal(b.overwritten, 3, locale),
      ]),
      [t('ablation.rowUniform'), formatDecimal(r.uniform, 3, locale), ''],
    ],
  };
}

/** The modes, each with the catalog key of its radio's label. */
const MODES = { removed: 'ablation.modeRemoved', overwritten: 'ablation.modeOverwritten' };

/**
 * @summary The loss of a trained TinyGPT with each block removed or overwriting the stream, against
 *   the intact loss and a uniform guess; GPT-2 small's reported figures beside it.
 *
 * @attr {'six-blocks' | 'shipped'} [model=six-blocks] - The trained TinyGPT measured: six blocks of
 *   width 16, or the 2-block one the page ships.
 * @attr {'removed' | 'overwritten'} [mode=removed] - Each block taken out (the stream passes it by),
 *   or made to overwrite the stream instead of adding to it.
 * @attr {string} weights-src - The URL, on the page's own site, of a model folder `tblock train`
 *   wrote (or its model.safetensors), shown first once loaded; or of a Hugging Face checkpoint
 *   folder (GPT-2, Llama, Mistral, Qwen2), the ablation measured on that model in the page.
 * @attr {string} results-src - The URL, on the page's own site, of the JSON `tblock ablate` printed
 *   for a real checkpoint, shown as measured in place of GPT-2 small's reported figures.
 * @attr {string} text - With a Hugging Face checkpoint, the first text measured; default the lesson's
 *   held-out text.
 */
export class TbAblation extends TbElement {
  static observedAttributes = ['model', 'weights-src', 'mode', 'results-src', 'text'];
  static needs = 'full'; // TinyGPT run: the whole facade (base.js)
  static styles = [sheet(CSS), checkpointSheet];

  #lib;
  #page = null; // the author's checkpoint files (weights-src), once loaded
  #models = this.hold(new ModelShown(this, checkpointExperiment(this, { name: 'ablation', title: (t) => t('ablation.title'), table: ablationTable })));
  #measuring = this.hold(new Measuring(this)); // in the page's worker, while the widget is on the page
  #results = null; // { source, info, intact, uniformLine, tokens, removed: [], overwritten: [] }
  #parts;
  #chosen = 0;

  keepsPrerendered(lib) {
    return this.#models.loading(lib);
  }

  render(lib) {
    this.#lib = lib;
    const shown = this.#models.shown(lib);
    if (shown.loading || shown.nodes) {
      this.#measuring.stop(); // stop measuring the model shown before
      return this.shadowRoot.replaceChildren(...(shown.loading ?? shown.nodes));
    }
    const { start } = shown;
    this.#page = start.page;
    let mode = this.attr('mode', 'removed');
    if (!(mode in MODES)) {
      this.warn(this.t('ablation.badMode', { mode: clipText(mode) }));
      mode = 'removed';
    }
    const { t, locale } = this;
    const { control, select } = this.#models.switcher(lib, start, (picked) => this.#measure(picked));
    const radios = Object.entries(MODES).map(([value, key]) => {
      const id = `${this.uid}-mode-${value}`;
      const input = h('input', { type: 'radio', name: `${this.uid}-mode`, id, value, checked: value === mode });
      input.addEventListener('change', () => this.#draw());
      return h('label', { htmlFor: id }, input, t(key));
    });
    const status = h('p', { class: 'muted status', 'aria-live': 'polite' });
    const error = h('p', { class: 'error', role: 'alert', hidden: true });
    const chart = h('div', { class: 'chart' });
    const blocks = h('ul', { class: 'blocks', 'aria-label': t('ablation.blocksLabel') });
    const details = h('p', { class: 'details', 'aria-live': 'polite' });
    // Where this browser measures (a worker, or the page itself): the session's, not the page's.
    const where = h('p', { class: 'muted where', dataset: { browserState: '' } });
    const reported = lib.reported_gpt2_small();
    this.#parts = { select, radios, status, error, chart, blocks, details, where };

    this.shadowRoot.replaceChildren(
      h('h3', {}, t('ablation.title')),
      control,
      h('fieldset', { class: 'modes' }, h('legend', {}, t('ablation.legend')), radios),
      error,
      status,
      chart,
      blocks,
      details,
      where,
      comparisonFigure(this, {
        read: (text) => (lib.check_results(text, 'ablate'), JSON.parse(text)),
        limit: lib.results_limit(),
        quoted: { source: reported.source, items: reported.ablation },
        ...ablationTable(t),
      }),
    );
    this.#draw();
    this.#measure(select.value);
  }

  #mode() {
    return this.#parts.radios.map((l) => l.querySelector('input')).find((i) => i.checked)?.value ?? 'removed';
  }

  /**
   * Measure every configuration of `source`, drawing as results come in. The measuring happens in
   * the page's worker (or, where there is none, on this thread in short slices): never here at once.
   */
  #measure(source) {
    const { status } = this.#parts;
    const { t, locale } = this;
    return this.#measuring.measure(source, this.#page, this.#parts, async (run, current) => {
      status.textContent = t('ablation.reading');
      const { info } = await run('info');
      if (!current()) return;
      const n = info.layers;
      this.#results = { source, info, intact: null, uniformLine: info.uniform_loss, tokens: 0, removed: Array(n).fill(null), overwritten: Array(n).fill(null) };
      this.#chosen = Math.min(this.#chosen, n - 1);
      const queue = [['intact', 0]];
      for (let i = 0; i < n; i++) queue.push(['removed', i], ['overwritten', i]);
      const total = queue.length;
      status.textContent = t('ablation.measuring', { count: total, total: formatInteger(total, locale) });
      this.#draw();
      for (const [k, [mode, block]] of queue.entries()) {
        const { found } = await run('loss', { mode, block });
        if (!current()) return;
        const r = this.#results;
        if (mode === 'intact') {
          r.intact = found.loss;
          r.tokens = found.tokens;
        } else {
          r[mode][block] = found.loss;
        }
        status.textContent =
          k + 1 < total
            ? t('ablation.progress', { count: total, done: formatInteger(k + 1, locale), total: formatInteger(total, locale) })
            : t('ablation.done', { model: describe(info, t), count: r.tokens, tokens: formatInteger(r.tokens, locale) });
        this.#draw();
      }
    });
  }

  #draw() {
    const { chart, blocks, details } = this.#parts ?? {};
    const r = this.#results;
    if (!chart || !r) return;
    chart.replaceChildren(...this.#chart(this.#mode()));
    blocks.replaceChildren(
      ...r[this.#mode()].map((_, i) => {
        const b = h('button', { type: 'button', 'aria-pressed': String(i === this.#chosen) }, this.t('ablation.blockButton', { block: formatInteger(i, this.locale) }));
        b.addEventListener('click', () => this.#choose(i));
        return h('li', {}, b);
      }),
    );
    details.textContent = this.#detailText();
  }

  #choose(i) {
    this.#chosen = i;
    this.#draw();
    this.#parts.blocks.querySelectorAll('button')[i]?.focus();
  }

  #detailText() {
    const r = this.#results;
    const i = this.#chosen;
    const { t, locale } = this;
    const n = (x) => (Number.isFinite(x) ? formatDecimal(x, 3, locale) : '…');
    return t('ablation.detail', {
      block: formatInteger(i, locale),
      removed: n(r.removed[i]),
      overwritten: n(r.overwritten[i]),
      intact: n(r.intact),
      uniform: n(r.uniformLine),
    });
  }

  /** The chart of `mode`'s losses, a bar a block, with the intact and uniform lines. */
  #chart(mode) {
    const r = this.#results;
    const { t, locale } = this;
    const n = (x) => formatDecimal(x, 2, locale);
    const label = t(mode === 'removed' ? 'ablation.chartRemoved' : 'ablation.chartOverwritten', {
      bars: r[mode]
        .map((v, i) => t('ablation.chartBar', { block: formatInteger(i, locale), loss: Number.isFinite(v) ? n(v) : t('ablation.notMeasured') }))
        .join(t('ablation.chartSeparator')),
      intact: Number.isFinite(r.intact) ? t('ablation.chartIntact', { loss: n(r.intact) }) : '',
      uniform: Number.isFinite(r.uniformLine) ? t('ablation.chartUniform', { loss: n(r.uniformLine) }) : '',
    });
    const layout = blockBarsLayout({
      values: r[mode],
      lines: [
        { key: 'intact', value: r.intact, text: Number.isFinite(r.intact) ? t('ablation.lineIntact', { loss: n(r.intact) }) : '' },
        { key: 'uniform', value: r.uniformLine, text: Number.isFinite(r.uniformLine) ? t('ablation.lineUniform', { loss: n(r.uniformLine) }) : '' },
      ],
      labels: r[mode].map((_, i) => [t('ablation.axisBlock', { block: formatInteger(i, locale) }), formatInteger(i, locale)]),
      yText: (v) => formatDecimal(v, 1, locale),
    });
    return renderBlockBars(layout, {
      className: 'bars',
      ariaLabel: label,
      axisTitle: t('ablation.axisTitle'),
      barClass: (b) => `bar${b.index === this.#chosen ? ' chosen' : ''}`,
      onBar: (b) => this.#choose(b.index),
    });
  }
}

function describe(info, t) {
  const { locale } = t;
  const training = info.training;
  const made = training
    ? t('ablation.madeShipped', { count: training.steps, steps: formatInteger(training.steps, locale) })
    : info.source === 'trained'
      ? t('ablation.madeTrained')
      : '';
  return t('ablation.describe', {
    count: info.layers,
    layers: formatInteger(info.layers, locale),
    width: formatInteger(info.width, locale),
    params: formatInteger(info.n_params, locale),
    made,
  });
}

if (defines('tb-ablation', TbAblation)) customElements.define('tb-ablation', TbAblation);
