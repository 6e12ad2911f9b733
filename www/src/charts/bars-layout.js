// Layout for a chart of one bar per block with two horizontal lines across it (the ablation: each
// block's loss, the intact loss, the uniform guess), as a pure function of numbers the wasm returned.
// No DOM, no model arithmetic.
//
//   const layout = blockBarsLayout({ width: 560, values: [4.66, 4.25, null, ...], lines: { intact: 1.92, uniform: 3.91 } });
//
// A value that is not there yet (null) gets no bar, only its slot.

import { linearScale } from './cost-layout.js';
import { roundTicks } from './loss-layout.js';

export function blockBarsLayout({ width, values, lines = {}, nice = false }) {
  const w = Math.max(240, Math.round(width));
  const margin = { left: 40, right: 84, top: 10, bottom: 34 };
  const height = 220;
  const known = [...values, ...Object.values(lines)].filter(Number.isFinite);
  const max = Math.max(0, ...known);
  // Losses: whole nats with a quarter to spare. Anything else (`nice`): the first round tick above.
  const top = nice ? (max > 0 ? roundTicks(0, max * 1.1, 4).filter((t) => t >= max).concat([max * 1.1])[0] : 1) : Math.max(1, Math.ceil(max + 0.25));
  const y = linearScale([0, top], [height - margin.bottom, margin.top]);
  const slot = (w - margin.left - margin.right) / Math.max(1, values.length);
  const barWidth = Math.max(6, Math.min(48, slot * 0.7));
  const bars = values.map((value, i) => {
    const cx = margin.left + slot * (i + 0.5);
    const ready = Number.isFinite(value);
    const yTop = ready ? round1(y.map(value)) : null;
    return { index: i, value, ready, cx: round1(cx), x: round1(cx - barWidth / 2), width: round1(barWidth), y: yTop, height: ready ? round1(y.map(0) - yTop) : 0 };
  });
  return {
    width: w,
    height,
    margin,
    y,
    yTicks: roundTicks(0, top, 4).map((value) => ({ value, y: round1(y.map(value)) })),
    bars,
    lines: Object.entries(lines)
      .filter(([, v]) => Number.isFinite(v))
      .map(([key, value]) => ({ key, value, y: round1(y.map(value)) })),
  };
}

function round1(v) {
  return Math.round(v * 10) / 10;
}
