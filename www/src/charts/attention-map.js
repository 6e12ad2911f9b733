// Attention-map layout: one head's weights [T, T] (queries down the side, keys along the top) as
// square cells grouped by shade (map-canvas.js fills them); the causal triangle (keys after the
// query) is left empty and outlined. Pure (no DOM): unit-tested in Node. The weights are the library's (CharModel.attention); this only decides
// which shade a cell is drawn in and where.
//
// Weights are shaded on one absolute scale, 0 to 1, so every map (every head, block and model) is
// read the same way: a near-uniform head looks pale everywhere, a head that picks one key shows one
// dark cell a row. Every key a query may see gets at least the palest shade, so a tiny weight is
// never mistaken for the masked triangle (which is left empty). Scores (before the softmax) are
// shaded on the diverging heatmap scale instead.

import { divergingLevel, levelClass, LEVELS, symmetricLimit } from './heatmap.js';

/** Shades of weight, 1/8 apart. */
export const WEIGHT_LEVELS = 8;

/** The shade of a weight: 1 (the palest, for any weight above 0) to WEIGHT_LEVELS (1); 0 for none. */
export function weightLevel(w, levels = WEIGHT_LEVELS) {
  if (!(w > 0)) return 0;
  return Math.max(1, Math.round(Math.min(1, w) * levels));
}

/** A weight shade's CSS class: "wt-3"; "wt-0" for none. */
export function weightClass(level) {
  return `wt-${level}`;
}

/** Every weight shade's CSS class, palest first (wt-0 first). */
export const WEIGHT_CLASSES = Array.from({ length: WEIGHT_LEVELS + 1 }, (_, level) => weightClass(level));

/** The stylesheet of the weight shades: the weight colour mixed into the background, 1/8 more each. */
export function weightPaletteCss() {
  return WEIGHT_CLASSES.map((cls, level) => {
    const share = Math.round((level / WEIGHT_LEVELS) * 100);
    const c = level === 0 ? 'var(--_heat-zero)' : share >= 100 ? 'var(--_weight)' : `color-mix(in srgb, var(--_weight) ${share}%, var(--_heat-zero))`;
    return `.${cls} { background-color: ${c}; }`;
  }).join('\n');
}

/**
 * One map: `n` positions, `weights` row-major [n, n] (from `offset` in a longer array, such as the
 * [L, h, T, T] of every map at once), cells `cell` units square.
 * Returns { n, size, cells: { [palette class]: [x, y, x, y, …] (each cell's top left) }, masked: d
 * (path data: the outline of the keys after each query), rows: [[weights of query t over keys 0..t]] }.
 */
export function attentionMapLayout({ n, weights, offset = 0, cell = 12, levels = WEIGHT_LEVELS }) {
  if (!(Number.isInteger(n) && n >= 1)) throw new RangeError(`an attention map needs a whole number of positions, got ${n}`);
  if (weights.length < offset + n * n) throw new RangeError(`a map of ${n} positions needs ${n * n} weights`);
  const byLevel = new Map();
  const rows = [];
  for (let q = 0; q < n; q++) {
    const row = [];
    for (let k = 0; k <= q; k++) {
      const w = weights[offset + q * n + k];
      row.push(w);
      const level = weightLevel(w, levels);
      if (level === 0) continue;
      const cls = weightClass(level);
      if (!byLevel.has(cls)) byLevel.set(cls, []);
      byLevel.get(cls).push(k * cell, q * cell);
    }
    rows.push(row);
  }
  return { n, size: n * cell, cells: Object.fromEntries(byLevel), masked: maskedOutline(n, cell), rows };
}

/**
 * The outline of the region a decoder may not look at (key > query): a staircase from the top left
 * to the bottom right along the diagonal, then back along the top and right edges. Empty for n = 1.
 */
export function maskedOutline(n, cell) {
  if (n < 2) return '';
  let d = `M${cell} 0`;
  for (let q = 0; q < n - 1; q++) d += `V${(q + 1) * cell}H${(q + 2) * cell}`;
  return `${d}V0Z`;
}

/**
 * One head's scores [n, n] (before the mask: every key has one) on the diverging scale of the scores
 * a query may use (the masked ones are drawn apart, dimmed): { n, size, limit, cells, maskedCells },
 * cells by palette class as attentionMapLayout gives them.
 */
export function scoreMapLayout({ n, scores, offset = 0, cell = 12, levels = LEVELS }) {
  const visible = [];
  for (let q = 0; q < n; q++) for (let k = 0; k <= q; k++) visible.push(scores[offset + q * n + k]);
  const limit = symmetricLimit(visible);
  const cells = {};
  const maskedCells = {};
  for (let q = 0; q < n; q++) {
    for (let k = 0; k < n; k++) {
      const cls = levelClass(divergingLevel(scores[offset + q * n + k], limit, levels));
      const into = k > q ? maskedCells : cells;
      (into[cls] ??= []).push(k * cell, q * cell);
    }
  }
  return { n, size: n * cell, limit, cells, maskedCells };
}

/**
 * Where query `q` puts its weight, strongest first: [{ key, weight }] over keys 0..q (ties: the
 * earlier key first). For a sentence: "most on 'h' (0.61)".
 */
export function strongestKeys(row) {
  return row.map((weight, key) => ({ key, weight })).sort((a, b) => b.weight - a.weight || a.key - b.key);
}
