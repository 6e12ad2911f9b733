// Draws the training chart from lossChartLayout's coordinates in a chart frame (frame.js): the
// axes, the reference losses as dotted lines labelled at the right (under the chart in a phone's
// box), the (smoothed) training loss and the held-out loss. Colours come from CSS classes (the
// widget's stylesheet), so dark mode and theming work. The axis titles are in the reader's
// language (`t`, the element's translator); the numbers and the lines' labels come worded from the
// layout.

import { s } from './svg.js';
import { pct } from './fit.js';
import { chartFrame, frameSvg, gridRows, lineLabelsUnder, rightLabel, stretched, xTickLabels, yAxisParts } from './frame.js';
import { speakEnglish, translator } from '../i18n.js';
import trainTexts from '../locales/en/train.js';

speakEnglish(trainTexts);

/**
 * The chart's nodes for a box of class "chart": the frame, and the list of the reference lines'
 * labels shown under it in range 0. `ariaLabel` is the chart's text alternative (the numbers,
 * written by the widget).
 */
export function renderLossChart(layout, { ariaLabel, t = translator('en') }) {
  const { height, margin, xTicks, yTicks, references } = layout;
  const bottom = height - margin.bottom;
  const svg = s(
    'svg',
    frameSvg({ height, className: 'loss-chart', ariaLabel }),
    s('g', { class: 'grid' }, gridRows(yTicks)),
    s(
      'g',
      { class: 'axis y-axis' },
      yAxisParts(yTicks, margin.top, bottom),
      s('text', { class: 'axis-title', x: -36, y: margin.top + 4, 'text-anchor': 'start', transform: `rotate(-90 -36 ${margin.top + 4})`, dy: '0.7em', dx: `-${bottom - margin.top}` }, t('lossChart.axisLoss')),
    ),
    s(
      'g',
      { class: 'axis x-axis' },
      s('line', { x1: 0, x2: '100%', y1: bottom, y2: bottom }),
      xTickLabels(xTicks, bottom + 15),
      s('text', { class: 'axis-title', x: '100%', y: bottom + 31, 'text-anchor': 'end' }, t('lossChart.axisStep')),
    ),
    s(
      'g',
      { class: 'references' },
      references.map((r) =>
        s(
          'g',
          { class: `reference ${r.key}` },
          s('line', { x1: 0, x2: '100%', y1: r.y, y2: r.y }),
          rightLabel(r),
        ),
      ),
    ),
    layout.series.map((run) =>
      s(
        'g',
        { class: `run run-${run.key}` },
        stretched(height, run.trainPath ? s('path', { class: 'train-line', d: run.trainPath }) : null, run.heldOutPath ? s('path', { class: 'held-out-line', d: run.heldOutPath }) : null),
        s('g', { class: 'held-out-points' }, run.heldOut.map((p) => s('circle', { cx: pct(p.x), cy: p.y, r: 3 }))),
      ),
    ),
  );
  const frame = chartFrame({ left: margin.left, right: margin.right }, svg);
  return references.length ? [frame, lineLabelsUnder(references)] : [frame];
}
