// Layout for the training chart: the loss against the step, as pure functions of what the wasm
// returned while training (each step's loss, the held-out loss now and then, the reference losses)
// and the width available. No DOM, no model arithmetic: it places numbers Rust computed.
//
//   const layout = lossChartLayout({ width: 640, steps: 600, losses, heldOut, reference, t });
//
// `t` (an element's translator, i18n.js) words the reference lines' labels; the right margin that
// holds them widens for a language whose words are longer than English's.
//
// The training line is each step's batch loss smoothed for display (an exponential average with the
// start-up bias removed, as TensorBoard draws it); the held-out points are drawn as they are.

import { linearScale, linePath } from './cost-layout.js';
import { translator } from '../i18n.js';

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

/** The longest English label ("uniform", "unigram"), in characters: the margin was sized for it. */
const ENGLISH_LABEL_CHARS = 7;

/** What a character more than English's adds to a label, at most, in px (an 11 px "m" is about 10). */
const CHAR_PX = 9;

/** A label's width in Latin characters: a CJK character takes about two. */
function labelChars(text) {
  let n = 0;
  for (const c of text) n += c.codePointAt(0) >= 0x2e80 ? 2 : 1;
  return n;
}

/**
 * Everything the renderer needs. `steps`: the run's length (the x axis); `losses`: each step's loss
 * so far; `heldOut`: [{ step, loss }]; `reference`: { uniform, unigram, bigram } (or null before a
 * run starts). For several runs on one chart (the norm race), `series`: [{ key, losses, heldOut }]
 * in place of losses and heldOut; each comes back in `series` with its own paths. `t`: the
 * translator of the reader's language, for the reference lines' labels.
 */
export function lossChartLayout({ width, steps, losses = [], heldOut = [], reference = null, series = null, t = translator('en') }) {
  const runs = series ?? [{ key: 'run', losses, heldOut }];
  const w = Math.max(260, Math.round(width));
  const narrow = w < 420;
  const labels = Object.fromEntries(REFERENCES.map((key) => [key, t(`lossChart.${key}`)]));
  // Room at the right for "label 3.91": as much more as the longest label is longer than English's.
  const longest = Math.max(...Object.values(labels).map(labelChars));
  const extra = Math.max(0, longest - ENGLISH_LABEL_CHARS) * CHAR_PX;
  const margin = { left: 44, right: (narrow ? 62 : 76) + extra, top: 12, bottom: 38 };
  const height = narrow ? 220 : 260;
  const x = linearScale([0, Math.max(1, steps)], [margin.left, w - margin.right]);

  const trains = runs.map((r) => smoothed(r.losses));
  const refValues = reference ? Object.values(reference).filter(Number.isFinite) : [];
  const values = [...trains.flat(), ...runs.flatMap((r) => r.heldOut.map((p) => p.loss)), ...refValues].filter(Number.isFinite);
  const lo = values.length ? Math.min(...values) : 0;
  const hi = values.length ? Math.max(...values) : 4;
  // Half-nat steps around what is drawn, so the axis does not jump with every new point.
  const y0 = Math.max(0, Math.floor((lo - 0.1) * 2) / 2);
  const y1 = Math.ceil((hi + 0.1) * 2) / 2;
  const y = linearScale([y0, y1], [height - margin.bottom, margin.top]);

  const plotWidth = w - margin.left - margin.right;
  const drawn = runs.map((r, i) => {
    const train = trains[i];
    const points = thinned(train, Math.max(2, Math.floor(plotWidth / 2)));
    const held = r.heldOut.filter((p) => Number.isFinite(p.loss)).map((p) => ({ ...p, x: round1(x.map(p.step)), y: round1(y.map(p.loss)) }));
    return {
      key: r.key,
      trainPath: points.length ? linePath(points, (p) => x.map(p.step), (p) => y.map(p.value)) : '',
      lastTrain: train.length ? { step: train.length, value: train[train.length - 1] } : null,
      heldOut: held,
      heldOutPath: held.length > 1 ? linePath(held, (p) => p.x, (p) => p.y) : '',
    };
  });

  // Reference lines, with their labels nudged apart when two sit within a line of text.
  const refs = reference
    ? REFERENCES.filter((key) => Number.isFinite(reference[key]))
        .map((key) => ({ key, label: labels[key], value: reference[key], y: round1(y.map(reference[key])) }))
        .sort((a, b) => a.y - b.y)
    : [];
  for (let i = 1; i < refs.length; i++) refs[i].labelY = Math.max(refs[i].y, (refs[i - 1].labelY ?? refs[i - 1].y) + 12);
  if (refs.length) refs[0].labelY = refs[0].y;

  return {
    width: w,
    height,
    margin,
    x,
    y,
    xTicks: roundTicks(0, Math.max(1, steps), Math.floor(plotWidth / 60), { whole: true }).map((value) => ({ value, x: round1(x.map(value)) })),
    yTicks: roundTicks(y0, y1, 4).map((value) => ({ value, y: round1(y.map(value)) })),
    series: drawn,
    // The first (or only) run, as the single-run chart reads it.
    ...(({ trainPath, lastTrain, heldOut: h, heldOutPath }) => ({ trainPath, lastTrain, heldOut: h, heldOutPath }))(drawn[0]),
    references: refs,
  };
}

function round1(v) {
  return Math.round(v * 10) / 10;
}
