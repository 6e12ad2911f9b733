// Heatmap layout: a matrix of numbers (row-major, as the wasm returns tensors) becomes cells with
// coordinates and a colour level. Pure (no DOM): unit-tested in Node. The colours themselves are CSS
// (paletteCss), so a page's theme and dark mode decide them; a cell only carries a palette class.
//
// The scale is diverging: 0 sits in the middle (the background colour), negative values lean to
// --_negative and positive ones to --_positive, symmetric around 0 so equal sizes look equal.

/** Steps on each side of zero. Level 0 is "about zero"; ±LEVELS is the largest magnitude shown. */
export const LEVELS = 4;

/** Smallest and largest value of a list (0 and 0 for an empty list). */
export function valueRange(values) {
  let min = Infinity;
  let max = -Infinity;
  for (const v of values) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return Number.isFinite(min) ? { min, max } : { min: 0, max: 0 };
}

/** The symmetric domain of the scale: the largest magnitude (1 when everything is 0, to avoid 0/0). */
export function symmetricLimit(values) {
  const { min, max } = valueRange(values);
  const limit = Math.max(Math.abs(min), Math.abs(max));
  return limit > 0 ? limit : 1;
}

/**
 * The palette index of `value` on a diverging scale of ±`limit`: an integer from -levels to +levels,
 * 0 for values within half a step of zero.
 */
export function divergingLevel(value, limit, levels = LEVELS) {
  if (!Number.isFinite(value) || !(limit > 0)) return 0;
  const t = Math.max(-1, Math.min(1, value / limit));
  const level = Math.round(t * levels);
  return Object.is(level, -0) ? 0 : level;
}

/** The CSS class of a level: 0 -> "heat-0", 3 -> "heat-p3", -2 -> "heat-n2". */
export function levelClass(level) {
  if (level === 0) return 'heat-0';
  return level > 0 ? `heat-p${level}` : `heat-n${-level}`;
}

/**
 * The colour of a level as CSS: a mix of the side's theme variable with the background, stronger
 * further from zero. `color-mix(in srgb, var(--_positive) 50%, var(--_bg))`.
 */
export function levelColour(level, levels = LEVELS) {
  if (level === 0) return 'var(--_heat-zero)';
  const side = level > 0 ? 'var(--_positive)' : 'var(--_negative)';
  const share = Math.round((Math.abs(level) / levels) * 100);
  return share >= 100 ? side : `color-mix(in srgb, ${side} ${share}%, var(--_heat-zero))`;
}

/** The stylesheet text for every level's class (fill for SVG cells, background for legend swatches). */
export function paletteCss(levels = LEVELS) {
  const rules = [];
  for (let level = -levels; level <= levels; level++) {
    const c = levelColour(level, levels);
    rules.push(`.${levelClass(level)} { fill: ${c}; background-color: ${c}; }`);
  }
  return rules.join('\n');
}

/**
 * Cells of a `rows` × `cols` heatmap of row-major `values`, each `cell` units square, after a left
 * gutter of `gutter` units (for row labels) and a top margin of `top` units.
 * Returns { width, height, limit, min, max, cells: [{ row, col, index, x, y, size, value, level, className }] }.
 */
export function heatmapLayout({ rows, cols, values, cell = 10, gutter = 0, top = 0, levels = LEVELS }) {
  if (!(Number.isInteger(rows) && rows >= 0 && Number.isInteger(cols) && cols >= 0)) {
    throw new RangeError(`a heatmap needs whole rows and cols, got ${rows} × ${cols}`);
  }
  if (values.length !== rows * cols) {
    throw new RangeError(`a ${rows} × ${cols} heatmap needs ${rows * cols} values, got ${values.length}`);
  }
  const limit = symmetricLimit(values);
  const { min, max } = valueRange(values);
  const cells = [];
  for (let row = 0; row < rows; row++) {
    for (let col = 0; col < cols; col++) {
      const index = row * cols + col;
      const value = values[index];
      const level = divergingLevel(value, limit, levels);
      cells.push({
        row,
        col,
        index,
        x: gutter + col * cell,
        y: top + row * cell,
        size: cell,
        value,
        level,
        className: levelClass(level),
      });
    }
  }
  return { width: gutter + cols * cell, height: top + rows * cell, limit, min, max, cells };
}
