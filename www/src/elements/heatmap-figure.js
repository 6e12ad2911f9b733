// A heatmap figure as the widgets that show TinyGPT's tensors draw one (<tb-tiny-gpt>'s stream and
// logits, <tb-anatomy>'s live tensors): the map in SVG cells with its row labels in HTML beside it,
// a caption with its shape and range, the colour key, and characters made visible.

import { h } from './base.js';
import { sheet } from './theme.js';
import { s } from '../charts/svg.js';
import { heatmapLayout, paletteCss, LEVELS, levelClass } from '../charts/heatmap.js';
import { formatDecimal, formatInteger } from '../format.js';
import { speakEnglish, translator } from '../i18n.js';
import attentionTexts from '../locales/en/attention.js';

speakEnglish(attentionTexts);

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

/** A tensor's shape, "12 × 32", its numbers in `locale`'s digits. */
export const shape = ([a, b], locale = 'en') => `${formatInteger(a, locale)} × ${formatInteger(b, locale)}`;

/**
 * A heatmap figure: `name` ("stream"), a [rows, cols] `dims`, row-major `values`, row labels, and
 * optionally one marked column per row (`mark[row]`, e.g. the highest logit); its texts in the
 * language of `t` (the widget's translator; `name` and `note` come worded by the caller).
 */
export function heatmapFigure({ name, dims, values, rowLabels = [], mark = null, note = '', t = translator('en') }) {
  const { locale } = t;
  const [rows, cols] = dims;
  const cell = ROW;
  const layout = heatmapLayout({ rows, cols, values, cell });
  const title = `${name} ${shape(dims, locale)}`;
  const range = { min: formatDecimal(layout.min, 3, locale), max: formatDecimal(layout.max, 3, locale) };
  const label = note ? t('attention.heatmapLabelNote', { title, ...range, note }) : t('attention.heatmapLabel', { title, ...range });
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
    cellPaths(layout.cells),
    s('rect', { class: 'frame', x: 0, y: 0, width: layout.width, height: layout.height }),
    mark ? mark.map((col, row) => s('rect', { class: 'best', x: col * cell, y: row * cell, width: cell, height: cell })) : null,
  );
  svg.style.height = `${layout.height}px`; // as drawn, however narrow the width (no aspect ratio)
  return h(
    'figure',
    { class: 'heatmap' },
    h('figcaption', {}, title, ' ', h('span', { class: 'muted range' }, t('attention.heatmapRange', range))),
    h('div', { class: 'map' }, h('div', { class: 'rows', 'aria-hidden': 'true' }, rowLabels.map((text) => h('span', {}, String(text)))), svg),
  );
}

/**
 * The cells as one path per colour class, a square subpath per cell: the same picture as a rect
 * per cell in a tenth of the markup (the lesson's TinyGPT maps are 984 cells; the page carries its
 * first render in its HTML). Classes in order of level, for the same markup every time.
 */
function cellPaths(cells) {
  const squares = new Map();
  for (const c of cells) squares.set(c.className, `${squares.get(c.className) ?? ''}M${c.x} ${c.y}h${c.size}v${c.size}h${-c.size}z`);
  const order = (cls) => (cls === 'heat-0' ? 0 : (cls[5] === 'p' ? 1 : -1) * Number(cls.slice(6)));
  return [...squares].sort(([a], [b]) => order(a) - order(b)).map(([cls, d]) => s('path', { class: cls, d }));
}

/** A colour key: `low`, a swatch of each palette class of `classes` in order, `high`, then any `notes`. */
export function rampLegend(classes, low, high, ...notes) {
  const ramp = classes.map((cls) => h('span', { class: cls }));
  return h('div', { class: 'legend' }, h('span', {}, low), h('span', { class: 'ramp', 'aria-hidden': 'true' }, ramp), h('span', {}, high), notes.map((n) => h('span', {}, n)));
}

/** The colour key: a ramp from negative through zero to positive. */
export function heatmapLegend(t = translator('en')) {
  const levels = Array.from({ length: 2 * LEVELS + 1 }, (_, i) => levelClass(i - LEVELS));
  return rampLegend(levels, t('attention.heatmapNegative'), t('attention.heatmapPositive'), t('attention.heatmapScale'));
}

/**
 * What the reader is told of characters read as the catch-all symbol (`unknown`: their positions,
 * from 0), in the language of `t`; '' for none.
 */
export function unknownNote(unknown, t = translator('en')) {
  if (!unknown.length) return '';
  const positions = unknown.map((p) => t('attention.unknownPosition', { position: p + 1 })).join(t('positions.separator'));
  return t('attention.unknown', { count: unknown.length, positions });
}

/** A character as the page shows it: space, newline and "everything else" made visible. */
export function showChar(c) {
  if (c === ' ') return '\u2423'; // ␣
  if (c === '\n') return '\u21b5'; // ↵
  return c;
}

