// The frame every chart is drawn in: an <svg> as wide as its box and as high as its layout, never
// scaled, so its text stays at TEXT_PX (fit.js) at every width. Across the plot, positions are
// fractions of its width written as SVG percentages (text, lines, rects, circles); curves are paths
// in a stretched inner <svg> (1,000 units across, strokes that do not stretch). The plot's left and
// right margins are the frame's padding; the y labels and titles sit in it at negative x.
//
// What changes with the width (fit.js' three ranges) is chosen by the container queries below, on
// the chart's box (class "chart"): the right margin per range, and elements shown only in some
// ranges (rangeClass). The prerendered page and a page without JavaScript carry the same markup and
// the same stylesheet, so they fit a phone as the live widget does.
//
//   const svg = s('svg', frameSvg({ height, className: 'loss-chart', ariaLabel }), …);
//   box.replaceChildren(chartFrame({ left: 44, right: [12, 90, 90] }, svg), legend);

import { s } from './svg.js';
import { BREAKPOINTS, pct, STRETCH_WIDTH, TEXT_PX } from './fit.js';

const [, MEDIUM, WIDE] = BREAKPOINTS;

/** The frame's stylesheet: every chart widget's own stylesheet starts with it. */
export const FRAME_CSS = `
.chart { container-type: inline-size; width: 100%; min-width: 0; }
.frame { padding: 0 var(--right-2, 12px) 0 var(--left, 40px); }
.frame > svg { display: block; width: 100%; overflow: visible; }
.frame text { font-size: ${TEXT_PX}px; }
.frame .stretch { overflow: visible; }
.frame .stretch * { vector-effect: non-scaling-stroke; }
.line-labels { display: flex; flex-wrap: wrap; gap: 0.1rem 1rem; margin: 0.25rem 0 0; padding: 0; list-style: none; font-size: 0.9rem; color: var(--_muted); }
@container (max-width: ${MEDIUM - 0.02}px) {
  .frame { padding-right: var(--right-0, 12px); }
  .hide-0 { display: none !important; }
}
@container (min-width: ${MEDIUM}px) and (max-width: ${WIDE - 0.02}px) {
  .frame { padding-right: var(--right-1, 12px); }
  .hide-1 { display: none !important; }
}
@container (min-width: ${WIDE}px) {
  .hide-2 { display: none !important; }
}
`;

/**
 * The class that shows an element in ranges `from` through `upTo` only ("" when that is all of
 * them): "hide-0" for a tick shown from range 1 on, say.
 */
export function rangeClass({ from = 0, upTo = BREAKPOINTS.length - 1 } = {}) {
  return BREAKPOINTS.map((_, range) => (range < from || range > upTo ? `hide-${range}` : ''))
    .filter(Boolean)
    .join(' ');
}

/** The y axis from `top` to `bottom` px at the plot's left edge, and its ticks' labels beside it. */
export function yAxisParts(ticks, top, bottom) {
  return [s('line', { x1: 0, x2: 0, y1: top, y2: bottom }), ...ticks.map((tick) => s('text', { x: -6, y: tick.y + 4, 'text-anchor': 'end' }, tick.text))];
}

/** The x ticks' labels (fitTicks' ticks) at `y` px, each shown from its range on. */
export function xTickLabels(ticks, y) {
  return ticks.map((tick) => s('text', { x: pct(tick.at), y, 'text-anchor': 'middle', class: rangeClass(tick) || null }, tick.text));
}

/** A grid line across the plot at each tick's y. */
export function gridRows(ticks) {
  return ticks.map((tick) => s('line', { x1: 0, x2: '100%', y1: tick.y, y2: tick.y }));
}

/** The attributes of a chart's <svg>: its box's width, `height` px high, no viewBox. */
export function frameSvg({ height, className, ariaLabel }) {
  return { width: '100%', height, role: 'img', 'aria-label': ariaLabel, class: className };
}

/**
 * The stretched <svg> curves are drawn in (x in 0..STRETCH_WIDTH, y in px), `height` px high; null
 * (nothing drawn) when no child is given, as before a run has a point.
 */
export function stretched(height, ...children) {
  if (!children.some(Boolean)) return null;
  return s(
    'svg',
    { class: 'stretch', width: '100%', height, viewBox: `0 0 ${STRETCH_WIDTH} ${height}`, preserveAspectRatio: 'none', 'aria-hidden': 'true' },
    ...children,
  );
}

/**
 * The frame: a <div class="frame"> whose padding is the plot's margins, `left` px and `right` px in
 * each range ([range 0, range 1, range 2]), holding the chart's `svg`. The margins reach CSS as
 * custom properties set from script (a strict style-src allows that; the prerender writes them as a
 * rule). Put it in a box of class "chart", the container the ranges are measured on.
 */
export function chartFrame({ left, right }, svg) {
  const div = document.createElement('div');
  div.className = 'frame';
  div.style.setProperty('--left', `${left}px`);
  for (const [range, px] of right.entries()) div.style.setProperty(`--right-${range}`, `${px}px`);
  div.append(svg);
  return div;
}

/**
 * A horizontal line's label at the plot's right ({ text, labelY }: nudged's), from range 1 on;
 * lineLabelsUnder says it in range 0. `className`: its classes beside the range's.
 */
export function rightLabel(line, className = '') {
  return s('text', { class: [className, rangeClass({ from: 1 })].filter(Boolean).join(' '), x: '100%', dx: 4, y: line.labelY + 4 }, line.text);
}

/**
 * The labels of a chart's horizontal lines ([{ key, text }]) as a list under the chart, shown in
 * range 0 only, where the plot keeps the width they take at its right from range 1 on. Hidden from
 * screen readers: the chart's text alternative says the same.
 */
export function lineLabelsUnder(lines) {
  const list = document.createElement('ul');
  list.className = `line-labels ${rangeClass({ upTo: 0 })}`;
  list.setAttribute('aria-hidden', 'true');
  for (const line of lines) {
    const item = document.createElement('li');
    item.className = `line-label ${line.key}`;
    item.textContent = line.text;
    list.append(item);
  }
  return list;
}
