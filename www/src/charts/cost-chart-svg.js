// Draws the cost chart from costChartLayout's coordinates in a chart frame (frame.js): two panels
// sharing a log T axis, the curves, the crossover mark and a cursor that moves without redrawing the
// rest. Colours come from CSS classes (the widget's stylesheet), so dark mode and theming work.

import { s } from './svg.js';
import { pct, STRETCH_WIDTH } from './fit.js';
import { chartFrame, frameSvg, gridRows, rangeClass, stretched, xTickLabels, yAxisParts } from './frame.js';

/**
 * Returns { frame, svg, setCursor(cursor) }: `frame` goes in a box of class "chart"; `svg` is the
 * plot (a pointer's x over it is a fraction of the T axis). `labels` = { flops, share, crossover,
 * axis } (titles, the mark's text and the T axis' title, written by the widget in its language);
 * `ariaLabel` summarises the curves for screen readers. The ticks come worded from the layout.
 */
export function renderCostChart(layout, { labels, ariaLabel }) {
  const { height, margin, xTicks, flops, share } = layout;

  const grid = (panel) =>
    s(
      'g',
      { class: 'grid' },
      xTicks.map((t) => s('line', { x1: pct(t.at), x2: pct(t.at), y1: panel.top, y2: panel.bottom, class: rangeClass(t) || null })),
      gridRows(panel.yTicks),
    );

  const xAxis = (panel) =>
    s(
      'g',
      { class: 'axis x-axis' },
      s('line', { x1: 0, x2: '100%', y1: panel.bottom, y2: panel.bottom }),
      xTickLabels(xTicks, panel.bottom + 15),
      s('text', { class: 'axis-title', x: '100%', y: panel.bottom + 30, 'text-anchor': 'end' }, labels.axis ?? 'T (tokens, log scale)'),
    );

  const yAxis = (panel) =>
    s(
      'g',
      { class: 'axis y-axis' },
      yAxisParts(panel.yTicks, panel.top, panel.bottom),
    );

  const c = share.crossover;
  const crossoverMark = c.within
    ? s(
        'g',
        { class: 'crossover' },
        s('line', { x1: pct(c.x), x2: pct(c.x), y1: share.top, y2: share.bottom }),
        s('circle', { cx: pct(c.x), cy: share.half, r: 4 }),
        s('text', { x: pct(c.x), dx: -6, y: share.top + 12, 'text-anchor': 'end' }, labels.crossover),
      )
    : s(
        'g',
        { class: 'crossover beyond' },
        // An arrow at the right edge: drawn in px about x = 0 and moved across the plot by the
        // stylesheet (.beyond path: translate 100%, of the <svg>'s width for an SVG element).
        s('path', { d: `M-10,${share.half - 6} L0,${share.half} L-10,${share.half + 6}` }),
        s('text', { x: '100%', dx: -14, y: share.half - 8, 'text-anchor': 'end' }, labels.crossover),
      );

  const cursorLine = s('path', { class: 'cursor-line' });
  const dots = ['total', 'parameter', 'attention', 'share'].map((key) => s('circle', { class: `cursor-dot dot-${key}`, r: 4 }));
  const cursor = s('g', { class: 'cursor' }, dots);

  const svg = s(
    'svg',
    frameSvg({ height, className: 'cost-chart', ariaLabel }),
    s('text', { class: 'panel-title', x: -margin.left, y: flops.top - 10 }, labels.flops),
    grid(flops),
    yAxis(flops),
    xAxis(flops),

    s('text', { class: 'panel-title', x: -margin.left, y: share.top - 10 }, labels.share),
    grid(share),
    yAxis(share),
    xAxis(share),
    s('line', { class: 'half-line', x1: 0, x2: '100%', y1: share.half, y2: share.half }),
    // Both panels' curves, and the cursor over them, in one stretched drawing.
    stretched(
      height,
      s('path', { class: 'line line-parameter', d: flops.paths.parameter }),
      s('path', { class: 'line line-attention', d: flops.paths.attention }),
      s('path', { class: 'line line-total', d: flops.paths.total }),
      s('path', { class: 'line line-share', d: share.path }),
      cursorLine,
    ),
    // The cursor's dots under the crossover's label, which a halo keeps readable where they meet.
    cursor,
    crossoverMark,
    // A transparent surface on top, so a drag anywhere over the plots lands on the chart.
    s('rect', { class: 'drag-surface', x: 0, y: 0, width: '100%', height }),
  );

  function setCursor(cur) {
    const x = Math.round(cur.x * STRETCH_WIDTH * 10) / 10;
    cursorLine.setAttribute('d', cur.spans.map((span) => `M${x},${span.top}V${span.bottom}`).join(''));
    for (const [i, d] of cur.dots.entries()) {
      dots[i].setAttribute('cx', pct(d.x));
      dots[i].setAttribute('cy', d.y);
    }
  }

  return { frame: chartFrame(margin, svg), svg, setCursor };
}
