// Layout for the training chart: the loss against the step, as pure functions of what the wasm
// returned while training (each step's loss, the held-out loss now and then, the reference losses).
// No DOM, no model arithmetic: it places numbers Rust computed. Laid out once for every width, in
// the frame's units (charts/frame.js): x as a fraction of the plot, y in px.
//
//   const layout = lossChartLayout({ steps: 600, losses, heldOut, reference, t });
//
// `t` (an element's translator, i18n.js) words the numbers and the reference lines' labels. The
// labels sit at the right of the plot from fit.js' range 1 on, in a margin as wide as the longest;
// in a phone's box (range 0) they go under the chart instead (loss-chart-svg.js).
//
// The training line is each step's batch loss smoothed for display (an exponential average with the
// start-up bias removed, as TensorBoard draws it); the held-out points are drawn as they are.

import { linearScale, linePath } from './cost-layout.js';
import { speakEnglish, translator } from '../i18n.js';
import { fitTicks, labelMargins, nudged, plotWidths, STRETCH_WIDTH } from './fit.js';
import { formatDecimal, formatInteger } from '../format.js';
import trainTexts from '../locales/en/train.js';

speakEnglish(trainTexts);

/** How much the display smooths each step's loss (0: not at all). */
export const SMOOTHING = 0.9;

/** The exponential moving average of `xs` with its start-up bias removed: y_t = m_t / (1 − β^t). */
export function smoothed(xs, beta = SMOOTHING) {
  const out = new Array(xs.length);
  let m = 0;
  let weight = 0;
  for (let i = 0; i < xs.length; i++) {
    m = beta * m + (1 - beta) * xs[i];
    weight = beta * weight + (1 - beta);
    out[i] = m / weight;
  }
  return out;
}

/** At most `buckets` points of `ys` (index i is step i + 1): the last value of each bucket. */
export function thinned(ys, buckets) {
  const n = ys.length;
  if (n <= buckets) return ys.map((y, i) => ({ step: i + 1, value: y }));
  const out = [];
  for (let b = 1; b <= buckets; b++) {
    const i = Math.min(n, Math.round((b * n) / buckets)) - 1;
    out.push({ step: i + 1, value: ys[i] });
  }
  return out;
}

/**
 * Ticks at a round step (1, 2, 2.5 or 5 × 10^k) covering [lo, hi], about `count` of them; with
 * `whole`, only whole steps (an axis of steps has no step 2.5).
 */
export function roundTicks(lo, hi, count, { whole = false } = {}) {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10]
    .map((m) => m * power)
    .filter((s) => !whole || (Number.isInteger(s) && s >= 1))
    .concat(whole ? [Math.max(1, Math.ceil(raw))] : [])
    .find((s) => s >= raw * (1 - 1e-12));
  const ticks = [];
  for (let v = Math.ceil(lo / step - 1e-9) * step; v <= hi + 1e-9; v += step) ticks.push(Number(v.toPrecision(12)));
  return ticks;
}

/** The reference lines, top to bottom as they usually sit; each labelled by `lossChart.<key>`. */
const REFERENCES = ['uniform', 'unigram', 'bigram'];

/** The chart's height and the plot's margins in px; the right one in range 0, where no label sits. */
const HEIGHT = 240;
const MARGIN = { left: 44, top: 12, bottom: 38, right: 16 };

/**
 * Everything the renderer needs. `steps`: the run's length (the x axis); `losses`: each step's loss
 * so far; `heldOut`: [{ step, loss }]; `reference`: { uniform, unigram, bigram } (or null before a
 * run starts). For several runs on one chart (the norm race), `series`: [{ key, losses, heldOut }]
 * in place of losses and heldOut; each comes back in `series` with its own paths. `t`: the
 * translator of the reader's language, for the numbers and the reference lines' labels.
 */
export function lossChartLayout({ steps, losses = [], heldOut = [], reference = null, series = null, t = translator('en') }) {
  const { locale } = t;
  const runs = series ?? [{ key: 'run', losses, heldOut }];
  const height = HEIGHT;
  const refs = reference
    ? REFERENCES.filter((key) => Number.isFinite(reference[key])).map((key) => ({
        key,
        value: reference[key],
        text: `${t(`lossChart.${key}`)} ${formatDecimal(reference[key], 2, locale)}`,
      }))
    : [];
  // The labels' margin: the longest label, from range 1 on; a phone's plot keeps its width.
  const margin = { ...MARGIN, right: labelMargins(refs.map((r) => r.text), MARGIN.right) };
  const x = linearScale([0, Math.max(1, steps)], [0, 1]);

  const trains = runs.map((r) => smoothed(r.losses));
  const values = [...trains.flat(), ...runs.flatMap((r) => r.heldOut.map((p) => p.loss)), ...refs.map((r) => r.value)].filter(Number.isFinite);
  const lo = values.length ? Math.min(...values) : 0;
  const hi = values.length ? Math.max(...values) : 4;
  // Half-nat steps around what is drawn, so the axis does not jump with every new point.
  const y0 = Math.max(0, Math.floor((lo - 0.1) * 2) / 2);
  const y1 = Math.ceil((hi + 0.1) * 2) / 2;
  const y = linearScale([y0, y1], [height - margin.bottom, margin.top]);

  const drawn = runs.map((r, i) => {
    const train = trains[i];
    const points = thinned(train, POINTS);
    const held = r.heldOut.filter((p) => Number.isFinite(p.loss)).map((p) => ({ ...p, x: x.map(p.step), y: round1(y.map(p.loss)) }));
    const stretch = (p) => x.map(p.step) * STRETCH_WIDTH;
    return {
      key: r.key,
      trainPath: points.length ? linePath(points, stretch, (p) => y.map(p.value)) : '',
      lastTrain: train.length ? { step: train.length, value: train[train.length - 1] } : null,
      heldOut: held,
      heldOutPath: held.length > 1 ? linePath(held, stretch, (p) => p.y) : '',
    };
  });

  // Reference lines, with their labels nudged apart when two sit within a line of text.
  const references = nudged(refs.map((r) => ({ ...r, y: round1(y.map(r.value)) })).sort((a, b) => a.y - b.y));

  const xTicks = roundTicks(0, Math.max(1, steps), 10, { whole: true }).map((value) => ({ value, at: x.map(value), text: formatInteger(value, locale) }));
  return {
    height,
    margin,
    x,
    y,
    xTicks: fitTicks(xTicks, plotWidths(margin)),
    yTicks: roundTicks(y0, y1, 4).map((value) => ({ value, y: round1(y.map(value)), text: formatDecimal(value, 1, locale) })),
    series: drawn,
    // The first (or only) run, as the single-run chart reads it.
    ...(({ trainPath, lastTrain, heldOut: h, heldOutPath }) => ({ trainPath, lastTrain, heldOut: h, heldOutPath }))(drawn[0]),
    references,
  };
}

/** How many points of a training line are drawn, at most (a 1,000-unit-wide stretch: one per 2). */
const POINTS = STRETCH_WIDTH / 2;

function round1(v) {
  return Math.round(v * 10) / 10;
}
