// Bar chart layout for tokens per expert: one vertical bar per expert, heights in proportion to the
// counts the wasm returned. Pure (no DOM): unit-tested in Node. Units are SVG user units; the SVG
// scales to its container through its viewBox.

/**
 * Bars for `counts` (whole numbers, one per expert) in a `width` × `height` box.
 * `top` leaves room for the value above each bar, `bottom` for the expert's label under it.
 * Returns { width, height, baseline, scaleMax, bars: [{ index, value, x, y, width, height,
 *   centre, valueY, labelY }] }. The tallest bar reaches the top of the plot area.
 */
export function barLayout(counts, { width = 320, height = 150, gap = 0.25, top = 16, bottom = 18, left = 0 } = {}) {
  if (!Array.isArray(counts) || counts.some((c) => !(Number.isFinite(c) && c >= 0))) {
    throw new RangeError('bar counts must be numbers of at least 0');
  }
  const n = counts.length;
  const plot = Math.max(0, height - top - bottom);
  const baseline = top + plot;
  const scaleMax = Math.max(0, ...counts);
  const slot = n > 0 ? (width - left) / n : 0;
  const barWidth = slot * (1 - gap);
  const bars = counts.map((value, index) => {
    const h = scaleMax > 0 ? (value / scaleMax) * plot : 0;
    const x = left + index * slot + (slot - barWidth) / 2;
    return {
      index,
      value,
      x,
      y: baseline - h,
      width: barWidth,
      height: h,
      centre: x + barWidth / 2,
      valueY: baseline - h - 4,
      labelY: baseline + bottom - 4,
    };
  });
  return { width, height, baseline, scaleMax, bars };
}
