// Layout for the cost chart: scales, ticks, line coordinates and the cursor, as pure functions of
// the data the wasm returned (cost_curve and count). No DOM, no model arithmetic: every FLOP count
// and share here was computed in Rust; this file only places them, once for every width, in the
// chart frame's units (charts/frame.js: x a fraction of the plot, y px).
//
//   const layout = costChartLayout({ curve, locale });          // curve = cost_curve(model, 96)
//   const cursor = cursorLayout(layout, { seqLen, total, parameterFlops, attentionFlops, share });
//   const T = seqLenAtX(layout.x, fraction, 1, curve.context);  // dragging: pointer -> whole T

import { fitTicks, plotWidths, STRETCH_WIDTH } from './fit.js';
import { formatInteger, formatPercent, formatSI } from '../format.js';

/** A logarithmic scale from [t0, t1] (both > 0) onto [x0, x1], with its inverse. */
export function logScale([t0, t1], [x0, x1]) {
  if (!(t0 > 0 && t1 > 0)) throw new RangeError(`a log scale needs positive bounds, got ${t0} and ${t1}`);
  const l0 = Math.log(t0);
  const span = Math.log(t1) - l0;
  // A one-point domain (context 1) maps everything to the left edge rather than dividing by zero.
  const k = span === 0 ? 0 : (x1 - x0) / span;
  return {
    domain: [t0, t1],
    range: [x0, x1],
    map: (t) => x0 + (Math.log(t) - l0) * k,
    invert: (x) => (k === 0 ? t0 : Math.exp(l0 + (x - x0) / k)),
  };
}

/** A linear scale from [v0, v1] onto [y0, y1] (y1 < y0 for an upward axis), with its inverse. */
export function linearScale([v0, v1], [y0, y1]) {
  const k = v1 === v0 ? 0 : (y1 - y0) / (v1 - v0);
  return {
    domain: [v0, v1],
    range: [y0, y1],
    map: (v) => y0 + (v - v0) * k,
    invert: (y) => (k === 0 ? v0 : v0 + (y - y0) / k),
  };
}

/**
 * Ticks for a log axis over [t0, t1]: powers of 2 (1, 2, 4, …, 1,024), thinned to every 2nd, 3rd …
 * power until at most `maxTicks` remain. Returns the tick values in increasing order.
 */
export function logTicks(t0, t1, maxTicks) {
  const lo = Math.ceil(Math.log2(t0) - 1e-9);
  const hi = Math.floor(Math.log2(t1) + 1e-9);
  if (hi < lo) return [];
  const limit = Math.max(1, Math.floor(maxTicks));
  let stride = 1;
  while (Math.floor((hi - lo) / stride) + 1 > limit) stride += 1;
  const ticks = [];
  for (let e = lo; e <= hi; e += stride) ticks.push(2 ** e);
  return ticks;
}

/**
 * Ticks for a linear axis from 0 up to at least `max`: a step of 1, 2 or 5 × 10^k giving about
 * `count` intervals. Returns { max, step, ticks } where max is the last tick (the axis' top).
 */
export function linearTicks(max, count = 4) {
  if (!(max > 0) || !Number.isFinite(max)) return { max: 1, step: 1, ticks: [0, 1] };
  const raw = max / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= raw * (1 - 1e-12));
  const n = Math.ceil(max / step - 1e-9);
  const ticks = Array.from({ length: n + 1 }, (_, i) => i * step);
  return { max: n * step, step, ticks };
}

/** An SVG path through the points: "M x,y L x,y …", coordinates to 0.1 px. */
export function linePath(points, xOf, yOf) {
  return points
    .map((p, i) => `${i === 0 ? 'M' : 'L'}${round1(xOf(p))},${round1(yOf(p))}`)
    .join(' ');
}

function round1(v) {
  return Math.round(v * 10) / 10;
}

/** The whole T under `at` (a fraction of the plot, or a pixel of a scale onto pixels) on log scale `x`, clamped to [min, max]. */
export function seqLenAtX(x, at, min, max) {
  const t = Math.round(x.invert(at));
  if (!Number.isFinite(t)) return min;
  return Math.min(max, Math.max(min, t));
}

/** The chart's margins in px: the y labels' room at the left, half a wide tick label at the right. */
const MARGIN = { left: 56, right: 24 };

/**
 * Everything the renderer needs for the two panels: (a) forward FLOPs per token against T, the flat
 * parameter term, the growing attention term and their total; (b) one block's attention share
 * against T on 0..1 with the crossover (share 1/2) marked. `curve` is cost_curve's result; `locale`
 * writes the ticks' numbers. x is a fraction of the plot (charts/frame.js), y px from the top.
 */
export function costChartLayout({ curve, locale = 'en' }) {
  const margin = { left: MARGIN.left, right: [MARGIN.right, MARGIN.right, MARGIN.right] };
  const flopsPanel = { top: 30, height: 170 };
  const sharePanel = { top: 0, height: 110 };
  const tickBand = 34; // room under each panel for the x tick labels
  sharePanel.top = flopsPanel.top + flopsPanel.height + tickBand + 26;
  const height = sharePanel.top + sharePanel.height + tickBand + 8;

  const { points, context } = curve;
  const x = logScale([points[0]?.seq_len ?? 1, context], [0, 1]);
  const allTicks = logTicks(x.domain[0], x.domain[1], Infinity).map((value) => ({ value, at: x.map(value), text: formatInteger(value, locale) }));
  const xTicks = fitTicks(allTicks, plotWidths(margin));

  const maxTotal = Math.max(...points.map((p) => p.total));
  const flopsAxis = linearTicks(maxTotal, 4);
  const yFlops = linearScale([0, flopsAxis.max], [flopsPanel.top + flopsPanel.height, flopsPanel.top]);
  const yShare = linearScale([0, 1], [sharePanel.top + sharePanel.height, sharePanel.top]);
  const xOf = (p) => x.map(p.seq_len) * STRETCH_WIDTH;

  const crossover = curve.crossover_seq_len;
  const within = curve.crossover_within_context && crossover >= x.domain[0];

  return {
    height,
    margin,
    x,
    xTicks,
    flops: {
      top: flopsPanel.top,
      bottom: flopsPanel.top + flopsPanel.height,
      y: yFlops,
      yTicks: flopsAxis.ticks.map((value) => ({ value, y: round1(yFlops.map(value)), text: formatSI(value, undefined, locale) })),
      paths: {
        parameter: linePath(points, xOf, (p) => yFlops.map(p.parameter_flops)),
        attention: linePath(points, xOf, (p) => yFlops.map(p.attention_flops)),
        total: linePath(points, xOf, (p) => yFlops.map(p.total)),
      },
    },
    share: {
      top: sharePanel.top,
      bottom: sharePanel.top + sharePanel.height,
      y: yShare,
      yTicks: [0, 0.25, 0.5, 0.75, 1].map((value) => ({ value, y: round1(yShare.map(value)), text: formatPercent(value, locale) })),
      path: linePath(points, xOf, (p) => yShare.map(p.attention_share)),
      half: round1(yShare.map(0.5)),
      // Inside the context: a mark at the crossover's T. Past it: a mark at the right edge.
      crossover: { seqLen: crossover, within, x: within ? x.map(crossover) : 1 },
    },
  };
}

/**
 * The cursor at T: a vertical line in each panel (spans: [{ top, bottom }], so it never crosses the
 * tick labels, axis titles and panel titles between them) and a dot on each curve, placed from the
 * values count(model, T, 1) returned (so the dots sit on Rust's numbers, not on interpolation).
 */
export function cursorLayout(layout, { seqLen, total, parameterFlops, attentionFlops, share }) {
  const [lo, hi] = layout.x.domain;
  const t = Math.min(hi, Math.max(lo, seqLen));
  const cx = layout.x.map(t);
  const yF = layout.flops.y.map;
  return {
    x: cx,
    spans: [layout.flops, layout.share].map((panel) => ({ top: panel.top, bottom: panel.bottom })),
    dots: [
      { key: 'total', x: cx, y: round1(yF(total)) },
      { key: 'parameter', x: cx, y: round1(yF(parameterFlops)) },
      { key: 'attention', x: cx, y: round1(yF(attentionFlops)) },
      { key: 'share', x: cx, y: round1(layout.share.y.map(share)) },
    ],
  };
}
