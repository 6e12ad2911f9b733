// <tb-ablation>: take one block out of a trained TinyGPT, or make it overwrite the stream instead of
// adding to it, and see what the loss does. One bar per block, the intact loss as a line and a
// uniform guess (ln V) dotted; choose a block for its numbers. Beside it, what the lesson reports
// for GPT-2 small, labelled as a reported measurement. Every loss is the library's (CharModel.loss,
// the evaluation protocol on the held-out text), measured one configuration a task so the page never
// waits long; the results stay while the reader switches between removing and overwriting.
//
// Attributes: model (six-blocks, the default, or shipped: the 2-block model), mode (removed, the
// default, or overwritten), weights-src (an author's TinyGPT), results-src (the JSON `tblock ablate`
// printed for a real checkpoint, on this site: shown, as measured, in place of the quoted figures).

import { checkpointSheet } from '../controls/checkpoint-picker.js';
import { h, TbElement, watchWidth } from './base.js';
import { clipText } from '../attributes.js';
import { sheet } from './theme.js';
import { s } from '../charts/svg.js';
import { blockBarsLayout } from '../charts/bars-layout.js';
import { formatDecimal, formatInteger } from '../format.js';
import { comparisonFigure, Measuring, ModelPick, modelSwitcher, startingModel, REPORTED_CSS } from './experiment-parts.js';

const CSS = `
.modes { display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; margin: 0 0 0.5rem; padding: 0; border: 0; }
.modes legend { font-weight: 600; margin-bottom: 0.25rem; }
.chart { width: 100%; min-width: 0; }
.bars text { font-size: 11px; }
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
${REPORTED_CSS}`;

const MODES = { removed: 'removed (the stream passes it untouched)', overwritten: 'overwriting (its adds become assignments)' };

export class TbAblation extends TbElement {
  static observedAttributes = ['model', 'weights-src', 'mode', 'results-src'];
  static needsModel = true; // TinyGPT: the whole facade (base.js)
  static styles = [sheet(CSS), checkpointSheet];

  #lib;
  #page = null; // the author's checkpoint files (weights-src), once loaded
  #pick = this.hold(new ModelPick()); // the reader's choice of model, across re-renders
  #measuring = this.hold(new Measuring(this)); // in the page's worker, while the widget is on the page
  #results = null; // { source, info, intact, uniformLine, tokens, removed: [], overwritten: [] }
  #parts;
  #chosen = 0;
  #observer;
  #off;
  #drawnWidth = 0;

  release() {
    this.#observer?.disconnect();
    this.#off?.();
  }

  render(lib) {
    this.#lib = lib;
    const start = startingModel(this, lib);
    if (start.loading) {
      this.#measuring.stop(); // stop measuring the model shown before
      return this.shadowRoot.replaceChildren(...start.loading);
    }
    this.#page = start.page;
    let mode = this.attr('mode', 'removed');
    if (!(mode in MODES)) {
      this.warn(`mode "${clipText(mode)}" is not a mode: choose removed or overwritten; using removed`);
      mode = 'removed';
    }
    this.#off?.();
    const { control, select, off } = modelSwitcher(this.uid, lib, start, this.#pick, (picked) => this.#measure(picked));
    this.#off = off;
    const radios = Object.entries(MODES).map(([value, label]) => {
      const id = `${this.uid}-mode-${value}`;
      const input = h('input', { type: 'radio', name: `${this.uid}-mode`, id, value, checked: value === mode });
      input.addEventListener('change', () => this.#draw(true));
      return h('label', { htmlFor: id }, input, label);
    });
    const status = h('p', { class: 'muted status', 'aria-live': 'polite' });
    const error = h('p', { class: 'error', role: 'alert', hidden: true });
    const chart = h('div', { class: 'chart' });
    const blocks = h('ul', { class: 'blocks', 'aria-label': 'Blocks' });
    const details = h('p', { class: 'details', 'aria-live': 'polite' });
    const where = h('p', { class: 'muted where' });
    const reported = lib.reported_gpt2_small();
    this.#parts = { select, radios, status, error, chart, blocks, details, where };

    this.shadowRoot.replaceChildren(
      h('h3', {}, 'Take a block out'),
      control,
      h('fieldset', { class: 'modes' }, h('legend', {}, 'Each block in turn'), radios),
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
        what: 'the loss with each block removed or overwriting',
        columns: ['loss (nats)', 'removed', 'overwriting'],
        rows: (r) => [
          ['intact', formatDecimal(r.intact, 3), ''],
          ...r.blocks.map((b) => [`block ${b.block}`, formatDecimal(b.removed, 3), formatDecimal(b.overwritten, 3)]),
          ['uniform guess (ln V)', formatDecimal(r.uniform, 3), ''],
        ],
      }),
    );
    this.#observer?.disconnect();
    this.#drawnWidth = 0; // a new chart box: draw it whatever the width
    this.#observer = watchWidth(chart, () => this.#draw(false));
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
    return this.#measuring.measure(source, this.#page, this.#parts, async (run, current) => {
      status.textContent = 'Reading the model…';
      const { info } = await run('info');
      if (!current()) return;
      const n = info.layers;
      this.#results = { source, info, intact: null, uniformLine: info.uniform_loss, tokens: 0, removed: Array(n).fill(null), overwritten: Array(n).fill(null) };
      this.#chosen = Math.min(this.#chosen, n - 1);
      const queue = [['intact', 0]];
      for (let i = 0; i < n; i++) queue.push(['removed', i], ['overwritten', i]);
      const total = queue.length;
      status.textContent = `Measuring ${formatInteger(total)} losses on the held-out text…`;
      this.#draw(true);
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
            ? `Measuring… ${formatInteger(k + 1)} of ${formatInteger(total)} losses.`
            : `${describe(info)}. Each loss scores ${formatInteger(r.tokens)} held-out positions.`;
        this.#draw(true);
      }
    });
  }

  #draw(force) {
    const { chart, blocks, details } = this.#parts ?? {};
    const r = this.#results;
    if (!chart || !chart.isConnected || !r) return;
    if (!this.#observer?.measured) return; // drawn once laid out (watchWidth)
    const width = Math.round(this.#observer.width || 560);
    if (!force && width === this.#drawnWidth) return;
    this.#drawnWidth = width;
    const mode = this.#mode();
    const layout = blockBarsLayout({ width, values: r[mode], lines: { intact: r.intact, uniform: r.uniformLine } });
    chart.replaceChildren(this.#svg(layout, mode));
    blocks.replaceChildren(
      ...r[mode].map((_, i) => {
        const b = h('button', { type: 'button', 'aria-pressed': String(i === this.#chosen) }, `Block ${i}`);
        b.addEventListener('click', () => this.#choose(i));
        return h('li', {}, b);
      }),
    );
    details.textContent = this.#detailText();
  }

  #choose(i) {
    this.#chosen = i;
    this.#draw(true);
    this.#parts.blocks.querySelectorAll('button')[i]?.focus();
  }

  #detailText() {
    const r = this.#results;
    const i = this.#chosen;
    const n = (x) => (Number.isFinite(x) ? formatDecimal(x, 3) : '…');
    return `Block ${i}: removed, the loss is ${n(r.removed[i])} nats; overwriting, ${n(r.overwritten[i])}. Intact: ${n(r.intact)}; a uniform guess: ${n(r.uniformLine)}.`;
  }

  #svg(layout, mode) {
    const r = this.#results;
    const { width, height, margin } = layout;
    const right = width - margin.right;
    const bottom = height - margin.bottom;
    const n = (x) => formatDecimal(x, 2);
    const label =
      `Loss with each block ${mode === 'removed' ? 'removed' : 'overwriting the stream'}: ` +
      r[mode].map((v, i) => `block ${i} ${Number.isFinite(v) ? n(v) : 'not yet measured'}`).join(', ') +
      (Number.isFinite(r.intact) ? `; intact ${n(r.intact)}` : '') +
      (Number.isFinite(r.uniformLine) ? `; uniform guess ${n(r.uniformLine)} (dotted)` : '') +
      ' nats.';
    return s(
      'svg',
      { viewBox: `0 0 ${width} ${height}`, width, height, role: 'img', 'aria-label': label, class: 'bars' },
      s('g', { class: 'grid' }, layout.yTicks.map((t) => s('line', { x1: margin.left, x2: right, y1: t.y, y2: t.y }))),
      s(
        'g',
        { class: 'axis' },
        s('line', { x1: margin.left, x2: margin.left, y1: margin.top, y2: bottom }),
        layout.yTicks.map((t) => s('text', { x: margin.left - 6, y: t.y + 4, 'text-anchor': 'end' }, formatDecimal(t.value, 1))),
        layout.bars.map((b) => s('text', { x: b.cx, y: bottom + 15, 'text-anchor': 'middle' }, layout.bars.length > 1 && b.width < 30 ? String(b.index) : `block ${b.index}`)),
        s('text', { class: 'axis-title', x: width - margin.right, y: bottom + 29, 'text-anchor': 'end' }, 'block'),
      ),
      layout.bars
        .filter((b) => b.ready)
        .map((b) => {
          const bar = s('rect', { class: `bar${b.index === this.#chosen ? ' chosen' : ''}`, x: b.x, y: b.y, width: b.width, height: b.height });
          bar.addEventListener('click', () => this.#choose(b.index));
          return bar;
        }),
      layout.lines.map((l) =>
        s(
          'g',
          {},
          s('line', { class: `line-${l.key}`, x1: margin.left, x2: right, y1: l.y, y2: l.y }),
          s('text', { class: 'line-label', x: right + 4, y: l.y + 4 }, `${l.key === 'intact' ? 'intact' : 'uniform'} ${n(l.value)}`),
        ),
      ),
    );
  }
}

function describe(info) {
  const t = info.training;
  const made = t ? `, trained ${formatInteger(t.steps)} steps on this page's prose` : info.source === 'trained' ? ', trained on this page by you' : '';
  return `${info.layers} blocks of width ${info.width}, ${formatInteger(info.n_params)} parameters${made}`;
}

customElements.get('tb-ablation') || customElements.define('tb-ablation', TbAblation);
