// <tb-tiny-gpt ids="3, 1, 4, 1, 5">: token ids go into TinyGPT (running in the wasm); the residual
// stream after the last block and the logits come out as heatmaps, with each position's
// highest-scoring next token as text.
//
// Attributes: ids (token ids separated by commas, default the lessons' 3, 1, 4, 1, 5),
// seed (whole number, default the lessons' seed).

import { TbElement, h, resultRegion } from './base.js';
import { sheet } from './theme.js';
import { s } from '../charts/svg.js';
import { heatmapLayout, paletteCss, rowLabelPosition, LEVELS, levelClass } from '../charts/heatmap.js';
import { parseNumberList } from '../attributes.js';
import { formatDecimal, formatInteger } from '../format.js';
import { listText } from './examples/form.js';

export const HEATMAP_CSS = `
:host, .heatmap-scope {
  --_negative: var(--tb-negative, var(--_attention));
  --_positive: var(--tb-positive, var(--_feed-forward));
  --_heat-zero: var(--tb-heat-zero, var(--_bg));
}
.heatmap { margin: 0.5rem 0 0.75rem; }
.heatmap figcaption { font-weight: 600; }
.heatmap svg { width: auto; max-width: 100%; }
.heatmap .frame { fill: none; stroke: var(--_rule); stroke-width: 0.5; }
.heatmap .best { fill: none; stroke: var(--_fg); stroke-width: 1.5; }
.heatmap .axis { font-size: 10px; fill: var(--_muted); }
h4 { margin-top: 0.75rem; }
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
  const cell = 12;
  const gutter = 22;
  const top = 0;
  const layout = heatmapLayout({ rows, cols, values, cell, gutter, top });
  const title = `${name} ${shape(dims)}`;
  const label = `${title} heatmap: values from ${formatDecimal(layout.min)} to ${formatDecimal(layout.max)}${note ? `; ${note}` : ''}`;
  const svg = s(
    'svg',
    { viewBox: `0 0 ${layout.width} ${layout.height}`, width: layout.width, height: layout.height, role: 'img', 'aria-label': label },
    layout.cells.map((c) => s('rect', { class: c.className, x: c.x, y: c.y, width: c.size, height: c.size })),
    s('rect', { class: 'frame', x: gutter, y: top, width: layout.width - gutter, height: layout.height - top }),
    rowLabels.map((text, row) => {
      const p = rowLabelPosition(row, { cell, gutter, top });
      return s('text', { class: 'axis', x: p.x, y: p.y, 'text-anchor': 'end', 'dominant-baseline': 'middle' }, String(text));
    }),
    mark
      ? mark.map((col, row) => s('rect', { class: 'best', x: gutter + col * cell, y: top + row * cell, width: cell, height: cell }))
      : null,
  );
  return h(
    'figure',
    { class: 'heatmap' },
    h('figcaption', {}, title, ' ', h('span', { class: 'muted range' }, `(values ${formatDecimal(layout.min)} to ${formatDecimal(layout.max)})`)),
    svg,
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

class TbTinyGpt extends TbElement {
  static observedAttributes = ['ids', 'seed'];
  static styles = [heatmapSheet];

  render(lib) {
    const defaults = lib.example_defaults();
    const seed = this.wholeAttr('seed', defaults.seed);
    let ids = this.listAttr('ids', defaults.tiny_gpt.ids);
    if (this.attempt(() => lib.example_tiny_gpt(ids, seed), () => null) === null) ids = defaults.tiny_gpt.ids;

    const id = `${this.uid}-ids`;
    const input = h('input', { id, type: 'text', value: listText(ids), spellcheck: false, autocomplete: 'off' });
    const region = resultRegion();

    const run = () => {
      const parsed = parseNumberList('token ids', input.value, []);
      if (parsed.error) return region.fail(parsed.error);
      region.show(() => lib.example_tiny_gpt(parsed.value, seed), tinyGptResult);
    };
    input.addEventListener('input', run);
    run();

    this.shadowRoot.replaceChildren(
      h('h3', {}, 'TinyGPT, running'),
      h(
        'div',
        { class: 'controls' },
        h('label', { htmlFor: id }, 'Token ids'),
        input,
        h('span', { class: 'muted' }, 'separated by commas'),
      ),
      region.error,
      region.output,
    );
  }
}

function tinyGptResult(r) {
  const T = r.stream_shape[0];
  return [
    h(
      'p',
      { class: 'result' },
      `ids (${r.ids.join(', ')}) → `,
      h('span', { class: 'shape' }, `stream ${shape(r.stream_shape)}`),
      ' → ',
      h('span', { class: 'shape' }, `logits ${shape(r.logits_shape)}`),
      ` · ${formatInteger(r.n_params)} parameters, seed ${r.seed}`,
    ),
    heatmapFigure({ name: 'stream', dims: r.stream_shape, values: r.stream, rowLabels: r.ids, note: 'rows are positions, columns the residual stream\u2019s numbers' }),
    heatmapFigure({
      name: 'logits',
      dims: r.logits_shape,
      values: r.logits,
      rowLabels: r.ids,
      mark: r.next_token,
      note: 'rows are positions, columns vocabulary ids; the outlined cell in each row is the highest score',
    }),
    heatmapLegend(),
    h('h4', {}, 'Highest-scoring next token at each position'),
    h(
      'ol',
      { class: 'next-tokens' },
      r.next_token.map((next, i) => h('li', {}, `after id ${r.ids[i]} (position ${i + 1} of ${T}): id ${next}`)),
    ),
  ];
}

customElements.get('tb-tiny-gpt') || customElements.define('tb-tiny-gpt', TbTinyGpt);
