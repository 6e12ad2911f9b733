// Draws blockBarsLayout's coordinates in a chart frame (frame.js): the y axis and its grid (or, with
// no axis, a baseline), a slot's bars (their figures above them, class "figure") and its label (and
// second row) under it, the horizontal lines labelled at the right (under the chart in a phone's
// box), an axis title at the bottom right or a unit at the top left. Colours come from CSS classes
// (the widget's stylesheet).

import { s } from './svg.js';
import { pct } from './fit.js';
import { chartFrame, frameSvg, gridRows, lineLabelsUnder, rangeClass, rightLabel, yAxisParts } from './frame.js';

/**
 * The chart's nodes for a box of class "chart". `className` and `ariaLabel`: the <svg>'s; `axisTitle`
 * under the slots' labels, at the right; `unit` above the y axis; `barClass(bar)`: a bar's classes;
 * `onBar(bar)`: what a click on a bar does.
 */
export function renderBlockBars(layout, { className, ariaLabel, axisTitle = null, unit = null, barClass = () => 'bar', onBar = null }) {
  const { height, margin } = layout;
  const bottom = height - margin.bottom;
  const slotText = (slot, key, y, cls) =>
    slot[key].map((label) => s('text', { x: pct(slot.at), y, 'text-anchor': 'middle', class: [cls, rangeClass(label)].filter(Boolean).join(' ') || null }, label.text));
  const svg = s(
    'svg',
    frameSvg({ height, className, ariaLabel }),
    s('g', { class: 'grid' }, gridRows(layout.yTicks)),
    s(
      'g',
      { class: 'axis' },
      layout.axis ? yAxisParts(layout.yTicks, margin.top, bottom) : s('line', { class: 'base', x1: 0, x2: '100%', y1: bottom, y2: bottom }),
      unit ? s('text', { class: 'axis-title', x: 0, y: margin.top - 2 }, unit) : null,
      layout.slots.map((slot) => [slotText(slot, 'labels', bottom + 15, null), slotText(slot, 'sublabels', bottom + 29, 'axis-title')]),
      axisTitle ? s('text', { class: 'axis-title', x: '100%', y: bottom + 29, 'text-anchor': 'end' }, axisTitle) : null,
    ),
    layout.bars
      .filter((b) => b.ready)
      .map((b) => {
        const bar = s('rect', { class: barClass(b), x: pct(b.x), y: b.y, width: pct(b.width), height: b.height });
        if (onBar) bar.addEventListener('click', () => onBar(b));
        const figures = b.figure.map((f) => s('text', { x: pct(b.x + b.width / 2), y: b.y - 4, 'text-anchor': 'middle', class: ['figure', rangeClass(f)].filter(Boolean).join(' ') }, f.text));
        return [bar, figures];
      }),
    layout.lines.map((l) =>
      s(
        'g',
        {},
        s('line', { class: `line-${l.key}`, x1: 0, x2: '100%', y1: l.y, y2: l.y }),
        rightLabel(l, 'line-label'),
      ),
    ),
  );
  const frame = chartFrame(margin, svg);
  return layout.lines.length ? [frame, lineLabelsUnder(layout.lines)] : [frame];
}
