// Draws the cost chart from costChartLayout's coordinates: two panels sharing a log T axis, the
// curves, the crossover mark and a cursor that moves without redrawing the rest. Colours come from
// CSS classes (the widget's stylesheet), so dark mode and theming work.

import { s } from './svg.js';
import { formatSI, formatInteger, formatPercent } from '../format.js';

/**
 * Returns { svg, setCursor(cursor) }. `labels` = { flops, share, crossover, axis } (titles, the mark's
 * text and the T axis' title, written by the widget in its language), `ariaLabel` summarises the
 * curves for screen readers; `locale` (format.js) writes the ticks' numbers.
 */
export function renderCostChart(layout, { labels, ariaLabel, locale = 'en' }) {
  const { width, height, margin, xTicks, flops, share } = layout;
  const right = width - margin.right;

  const grid = (panel) =>
    s(
      'g',
      { class: 'grid' },
      xTicks.map((t) => s('line', { x1: t.x, x2: t.x, y1: panel.top, y2: panel.bottom })),
      panel.yTicks.map((t) => s('line', { x1: margin.left, x2: right, y1: t.y, y2: t.y })),
    );

  const xAxis = (panel) =>
    s(
      'g',
      { class: 'axis x-axis' },
      s('line', { x1: margin.left, x2: right, y1: panel.bottom, y2: panel.bottom }),
      xTicks.map((t) =>
        s('text', { x: t.x, y: panel.bottom + 15, 'text-anchor': 'middle' }, formatInteger(t.value, locale)),
      ),
      s('text', { class: 'axis-title', x: right, y: panel.bottom + 30, 'text-anchor': 'end' }, labels.axis ?? 'T (tokens, log scale)'),
    );

  const yAxis = (panel, format) =>
    s(
      'g',
      { class: 'axis y-axis' },
      s('line', { x1: margin.left, x2: margin.left, y1: panel.top, y2: panel.bottom }),
      panel.yTicks.map((t) => s('text', { x: margin.left - 6, y: t.y + 4, 'text-anchor': 'end' }, format(t.value))),
    );

  const c = share.crossover;
  const crossoverMark = c.within
    ? s(
        'g',
        { class: 'crossover' },
        s('line', { x1: c.x, x2: c.x, y1: share.top, y2: share.bottom }),
        s('circle', { cx: c.x, cy: share.half, r: 4 }),
        s('text', { x: c.x - 6, y: share.top + 12, 'text-anchor': 'end' }, labels.crossover),
      )
    : s(
        'g',
        { class: 'crossover beyond' },
        s('path', { d: `M${c.x - 10},${share.half - 6} L${c.x},${share.half} L${c.x - 10},${share.half + 6}` }),
        s('text', { x: c.x - 14, y: share.half - 8, 'text-anchor': 'end' }, labels.crossover),
      );

  const cursorLine = s('path', { class: 'cursor-line' });
  const dots = ['total', 'parameter', 'attention', 'share'].map((key) =>
    s('circle', { class: `cursor-dot dot-${key}`, r: 4 }),
  );
  const cursor = s('g', { class: 'cursor' }, cursorLine, dots);

  const svg = s(
    'svg',
    {
      viewBox: `0 0 ${width} ${height}`,
      width,
      height,
      role: 'img',
      'aria-label': ariaLabel,
      class: 'cost-chart',
    },
    s('text', { class: 'panel-title', x: 0, y: flops.top - 10 }, labels.flops),
    grid(flops),
    yAxis(flops, (v) => formatSI(v, undefined, locale)),
    xAxis(flops),
    s('path', { class: 'line line-parameter', d: flops.paths.parameter }),
    s('path', { class: 'line line-attention', d: flops.paths.attention }),
    s('path', { class: 'line line-total', d: flops.paths.total }),

    s('text', { class: 'panel-title', x: 0, y: share.top - 10 }, labels.share),
    grid(share),
    yAxis(share, (v) => formatPercent(v, locale)),
    xAxis(share),
    s('line', { class: 'half-line', x1: margin.left, x2: right, y1: share.half, y2: share.half }),
    s('path', { class: 'line line-share', d: share.path }),
    // The cursor under the crossover's label, which a halo keeps readable where the two meet.
    cursor,
    crossoverMark,
    // A transparent surface on top, so a drag anywhere over the plots lands on the chart.
    s('rect', { class: 'drag-surface', x: 0, y: 0, width, height }),
  );

  function setCursor(cur) {
    cursorLine.setAttribute('d', cur.spans.map((span) => `M${cur.x},${span.top}V${span.bottom}`).join(''));
    for (const [i, d] of cur.dots.entries()) {
      dots[i].setAttribute('cx', d.x);
      dots[i].setAttribute('cy', d.y);
    }
  }

  return { svg, setCursor };
}
