// Draws the training chart from lossChartLayout's coordinates: the axes, the reference losses as
// dotted lines labelled at the right, the (smoothed) training loss and the held-out loss. Colours come
// from CSS classes (the widget's stylesheet), so dark mode and theming work. The axis titles and the
// numbers are in the reader's language (`t`, the element's translator; the labels of the lines come
// worded from the layout).

import { s } from './svg.js';
import { formatDecimal, formatInteger } from '../format.js';
import { translator } from '../i18n.js';

/** An <svg> for `layout`; `ariaLabel` is its text alternative (the numbers, written by the widget). */
export function renderLossChart(layout, { ariaLabel, t = translator('en') }) {
  const { width, height, margin, xTicks, yTicks, references } = layout;
  const { locale } = t;
  const right = width - margin.right;
  const bottom = height - margin.bottom;
  return s(
    'svg',
    { viewBox: `0 0 ${width} ${height}`, width, height, role: 'img', 'aria-label': ariaLabel, class: 'loss-chart' },
    s(
      'g',
      { class: 'grid' },
      yTicks.map((tick) => s('line', { x1: margin.left, x2: right, y1: tick.y, y2: tick.y })),
    ),
    s(
      'g',
      { class: 'axis y-axis' },
      s('line', { x1: margin.left, x2: margin.left, y1: margin.top, y2: bottom }),
      yTicks.map((tick) => s('text', { x: margin.left - 6, y: tick.y + 4, 'text-anchor': 'end' }, formatDecimal(tick.value, 1, locale))),
      s('text', { class: 'axis-title', x: margin.left - 36, y: margin.top + 4, 'text-anchor': 'start', transform: `rotate(-90 ${margin.left - 36} ${margin.top + 4})`, dy: '0.7em', dx: `-${bottom - margin.top}` }, t('lossChart.axisLoss')),
    ),
    s(
      'g',
      { class: 'axis x-axis' },
      s('line', { x1: margin.left, x2: right, y1: bottom, y2: bottom }),
      xTicks.map((tick) => s('text', { x: tick.x, y: bottom + 15, 'text-anchor': 'middle' }, formatInteger(tick.value, locale))),
      s('text', { class: 'axis-title', x: right, y: bottom + 31, 'text-anchor': 'end' }, t('lossChart.axisStep')),
    ),
    s(
      'g',
      { class: 'references' },
      references.map((r) =>
        s(
          'g',
          { class: `reference ${r.key}` },
          s('line', { x1: margin.left, x2: right, y1: r.y, y2: r.y }),
          s('text', { x: right + 4, y: r.labelY + 4 }, `${r.label} ${formatDecimal(r.value, 2, locale)}`),
        ),
      ),
    ),
    layout.series.map((run) =>
      s(
        'g',
        { class: `run run-${run.key}` },
        run.trainPath ? s('path', { class: 'train-line', d: run.trainPath }) : null,
        run.heldOutPath ? s('path', { class: 'held-out-line', d: run.heldOutPath }) : null,
        s('g', { class: 'held-out-points' }, run.heldOut.map((p) => s('circle', { cx: p.x, cy: p.y, r: 3 }))),
      ),
    ),
  );
}
