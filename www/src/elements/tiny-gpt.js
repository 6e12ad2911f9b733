// <tb-tiny-gpt text="the residual">: TinyGPT reads characters. The reader types text; the
// model (running in the wasm) reads its last 16 characters, and the widget shows the residual stream
// after the last block and the logits as heatmaps, and at each position the likeliest next
// characters with their probabilities. "Write on" continues the text with the model.
//
// The model: the trained TinyGPT the page ships (default); with a `seed` attribute, the lessons'
// TinyGPT as initialised from that seed, before any training; or, once a reader has trained one
// with <tb-train> on the same page, "the model I trained".
//
// Attributes: text (default "the residual"), seed (a whole number: start from the untrained
// model of that seed).

import { TbElement, h, resultRegion, errorText } from './base.js';
import { sheet } from './theme.js';
import { s } from '../charts/svg.js';
import { heatmapLayout, paletteCss, LEVELS, levelClass } from '../charts/heatmap.js';
import { formatDecimal, formatInteger, formatPercent } from '../format.js';
import { latestTrained } from '../train/trained.js';
import { makeModel } from '../train/models.js';
import { checkpointSheet } from '../controls/checkpoint-picker.js';
import { latestCheckpoint } from '../models/your-checkpoint.js';
import { ModelPick, modelSwitcher, startingModel } from './experiment-parts.js';
import { clipText, parseWhole } from '../attributes.js';

/** A heatmap row's height in px; its label is 1 px smaller. */
const ROW = 12;

export const HEATMAP_CSS = `
:host, .heatmap-scope {
  --_negative: var(--tb-negative, var(--_attention));
  --_positive: var(--tb-positive, var(--_feed-forward));
  --_heat-zero: var(--tb-heat-zero, var(--_bg));
}
.heatmap { margin: 0.5rem 0 0.75rem; }
.heatmap figcaption { font-weight: 600; }
/* Row labels beside the map, in HTML, so they keep their size when a narrow column squeezes the
   map: rows keep their height and only the columns narrow (the map stretches sideways alone). */
.heatmap .map { display: flex; align-items: flex-start; }
.heatmap .rows { flex: none; display: grid; grid-auto-rows: ${ROW}px; min-width: 1.4em; padding-right: 3px; font-size: ${ROW - 1}px; line-height: ${ROW}px; text-align: end; color: var(--_muted); font-family: var(--_mono); }
.heatmap svg { flex: 0 1 auto; min-width: 0; }
.heatmap .frame { fill: none; stroke: var(--_rule); stroke-width: 0.5; vector-effect: non-scaling-stroke; }
.heatmap .best { fill: none; stroke: var(--_fg); stroke-width: 1.5; vector-effect: non-scaling-stroke; }
h4 { margin-top: 0.75rem; }
.model-note { font-size: 0.9rem; }
.next-chars { padding-left: 1.5rem; margin: 0.25rem 0; columns: 16rem; column-gap: 1.5rem; }
.next-chars li { break-inside: avoid; }
.char { font-family: var(--_mono); padding: 0 0.15rem; border: 1px solid var(--_rule); border-radius: 3px; }
.write { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center; margin-top: 0.5rem; }
.written { margin: 0.25rem 0 0; padding: 0.5rem; border: 1px solid var(--_rule); border-radius: calc(var(--_radius) / 2); white-space: pre-wrap; font-family: var(--_mono); font-size: 0.9rem; }
.controls input[type="text"] { flex: 1 1 12rem; min-width: 0; }
.legend { display: flex; flex-wrap: wrap; gap: 0.25rem 0.75rem; align-items: center; font-size: 0.85rem; color: var(--_muted); }
.ramp { display: inline-flex; border: 1px solid var(--_rule); }
.ramp span { display: inline-block; width: 0.9rem; height: 0.9rem; }
${paletteCss()}
`;

export const heatmapSheet = sheet(HEATMAP_CSS);

const shape = ([a, b]) => `${formatInteger(a)} × ${formatInteger(b)}`;

/**
 * A heatmap figure: `name` ("stream"), a [rows, cols] `dims`, row-major `values`, row labels, and
 * optionally one marked column per row (`mark[row]`, e.g. the highest logit).
 */
export function heatmapFigure({ name, dims, values, rowLabels = [], mark = null, note = '' }) {
  const [rows, cols] = dims;
  const cell = ROW;
  const layout = heatmapLayout({ rows, cols, values, cell });
  const title = `${name} ${shape(dims)}`;
  const label = `${title} heatmap: values from ${formatDecimal(layout.min)} to ${formatDecimal(layout.max)}${note ? `; ${note}` : ''}`;
  // Square cells where there is room; in a narrower box the map narrows (its width may shrink,
  // its height may not: preserveAspectRatio none) and the labels beside it stay as they are.
  const svg = s(
    'svg',
    {
      viewBox: `0 0 ${layout.width} ${layout.height}`,
      width: layout.width,
      height: layout.height,
      preserveAspectRatio: 'none',
      role: 'img',
      'aria-label': label,
    },
    layout.cells.map((c) => s('rect', { class: c.className, x: c.x, y: c.y, width: c.size, height: c.size })),
    s('rect', { class: 'frame', x: 0, y: 0, width: layout.width, height: layout.height }),
    mark ? mark.map((col, row) => s('rect', { class: 'best', x: col * cell, y: row * cell, width: cell, height: cell })) : null,
  );
  svg.style.height = `${layout.height}px`; // as drawn, however narrow the width (no aspect ratio)
  return h(
    'figure',
    { class: 'heatmap' },
    h('figcaption', {}, title, ' ', h('span', { class: 'muted range' }, `(values ${formatDecimal(layout.min)} to ${formatDecimal(layout.max)})`)),
    h('div', { class: 'map' }, h('div', { class: 'rows', 'aria-hidden': 'true' }, rowLabels.map((text) => h('span', {}, String(text)))), svg),
  );
}

/** The colour key: a ramp from negative through zero to positive. */
export function heatmapLegend() {
  const ramp = [];
  for (let level = -LEVELS; level <= LEVELS; level++) ramp.push(h('span', { class: levelClass(level) }));
  return h(
    'div',
    { class: 'legend' },
    h('span', {}, 'negative'),
    h('span', { class: 'ramp', 'aria-hidden': 'true' }, ramp),
    h('span', {}, 'positive'),
    h('span', {}, '(0 is the background colour; each map is scaled to its own largest magnitude)'),
  );
}

/** A character as the page shows it: space, newline and "everything else" made visible. */
export function showChar(c) {
  if (c === ' ') return '\u2423'; // ␣
  if (c === '\n') return '\u21b5'; // ↵
  return c;
}

const DEFAULT_TEXT = 'the residual';

class TbTinyGpt extends TbElement {
  static observedAttributes = ['text', 'seed', 'weights-src'];
  static styles = [heatmapSheet, checkpointSheet];

  #model = null;
  #off = null;
  #pick = this.hold(new ModelPick(['seed', 'weights-src'])); // the reader's choice of model, across re-renders

  release() {
    this.#off?.();
    this.#off = null;
    this.#model?.free();
    this.#model = null;
  }

  render(lib) {
    const seedText = this.attr('seed', null);
    let seed = null;
    if (seedText !== null) {
      const parsed = parseWhole('seed', seedText, 0);
      if (parsed.error) this.warn(`seed "${clipText(seedText)}" is not a whole number; showing the trained model`);
      else if (this.attempt(() => lib.CharModel.untrained(parsed.value).free(), () => null) !== null) seed = parsed.value;
    }
    const text = this.attr('text', DEFAULT_TEXT);
    // The author's own model (weights-src), fetched once for the page; shown first when it loads.
    const start = startingModel(this, lib, () => 'shipped');
    if (start.loading) return this.shadowRoot.replaceChildren(...start.loading);
    const { page } = start;

    const textId = `${this.uid}-text`;
    const input = h('input', { id: textId, type: 'text', value: text, spellcheck: false, autocomplete: 'off' });
    const note = h('p', { class: 'muted model-note' });
    const region = resultRegion();
    const writeButton = h('button', { type: 'button' }, 'Write on');
    const written = h('pre', { class: 'written', hidden: true, 'aria-live': 'polite' });

    const load = () => {
      this.#model?.free();
      this.#model = null;
      try {
        this.#model = makeModel(lib, select.value, seed ?? 0, page);
      } catch (err) {
        region.fail(errorText(err));
        return false;
      }
      const from = select.value === 'page' ? page : select.value === 'checkpoint' ? latestCheckpoint() : null;
      note.textContent = modelNote(this.#model.info(), latestTrained(), from, select.value);
      written.hidden = true;
      return true;
    };
    const run = () => {
      if (!this.#model) return;
      region.show(() => this.#model.read(input.value, 3), readingResult);
    };
    this.#off?.();
    const { control, select, off } = modelSwitcher(
      this.uid,
      lib,
      { source: seed !== null ? 'untrained' : start.source, page },
      this.#pick,
      () => load() && run(),
      {
        models: [
          ['shipped', 'trained on this page (shipped)'],
          ['untrained', `untrained (seed ${seed ?? 0})`],
          ['trained', 'the model I trained'],
        ],
        beside: [h('label', { htmlFor: textId }, 'Text'), input],
      },
    );
    this.#off = off;
    input.addEventListener('input', run);
    writeButton.addEventListener('click', () => {
      if (!this.#model) return;
      try {
        written.textContent = input.value + this.#model.sample(input.value, 80, 0.8, 1);
        written.hidden = false;
      } catch (err) {
        region.fail(errorText(err));
      }
    });
    if (load()) run();
    this.shadowRoot.replaceChildren(
      h('h3', {}, 'TinyGPT, reading'),
      control,
      note,
      region.error,
      region.output,
      h('div', { class: 'write' }, writeButton, h('span', { class: 'muted' }, '80 more characters, drawn at temperature 0.8')),
      written,
    );
  }
}

/** What the model is, in a sentence, from its info(). */
function modelNote(info, trained, files, picked) {
  const size = `${formatInteger(info.n_params)} parameters, ${info.layers} block${info.layers === 1 ? '' : 's'} of width ${info.width}`;
  if (info.source === 'shipped') {
    const t = info.training;
    return `${size}, trained for ${formatInteger(t.steps)} steps on this page's prose; held-out loss ${formatDecimal(t.val_loss_as_shipped, 3)} nats (bigram: ${formatDecimal(t.bigram_loss, 3)}).`;
  }
  if (info.source === 'trained') {
    return `${size}, ${info.norm}-LN, trained on this page for ${formatInteger(trained.steps)} steps; held-out loss ${formatDecimal(trained.heldOut.loss, 3)} nats.`;
  }
  if (info.source === 'checkpoint') {
    return `${size}, ${info.norm}-LN, from ${picked === 'page' ? "this page's files" : 'your checkpoint'} (${clipText(files?.name ?? '', 40)}).`;
  }
  return `${size}, as initialised, before any training: its guesses are close to uniform.`;
}

function readingResult(r) {
  const T = r.stream_shape[0];
  const labels = r.symbols.map(showChar);
  const best = r.next.map((p) => p.next[0]?.[0]);
  return [
    h(
      'p',
      { class: 'result' },
      `"${r.symbols.join('').replace(/\n/g, '\u21b5')}" → ids (${r.ids.join(', ')}) → `,
      h('span', { class: 'shape' }, `stream ${shape(r.stream_shape)}`),
      ' → ',
      h('span', { class: 'shape' }, `logits ${shape(r.logits_shape)}`),
      r.dropped ? ` · the first ${formatInteger(r.dropped)} characters do not fit in ${formatInteger(T)} positions` : '',
    ),
    heatmapFigure({ name: 'stream', dims: r.stream_shape, values: r.stream, rowLabels: labels, note: 'rows are positions, columns the residual stream\u2019s numbers' }),
    heatmapFigure({
      name: 'logits',
      dims: r.logits_shape,
      values: r.logits,
      rowLabels: labels,
      mark: r.best,
      note: 'rows are positions, columns the 50 characters; the outlined cell in each row is the likeliest next one',
    }),
    heatmapLegend(),
    h('h4', {}, 'Likeliest next characters'),
    h(
      'ol',
      { class: 'next-chars' },
      r.next.map((p, i) =>
        h(
          'li',
          {},
          'after ',
          h('span', { class: 'char' }, showChar(p.symbol)),
          ` (position ${i + 1} of ${T}): `,
          p.next.flatMap(([c, q], j) => [j ? ', ' : '', h('span', { class: 'char' }, showChar(c)), ` ${formatPercent(q)}`]),
        ),
      ),
    ),
    h('p', { class: 'muted' }, `Best guess after the last character: "${showChar(best.at(-1))}".`),
  ];
}

customElements.get('tb-tiny-gpt') || customElements.define('tb-tiny-gpt', TbTinyGpt);
