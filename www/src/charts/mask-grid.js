// Attention-mask grid layout: which (query, key) pairs a block may use, as square cells, rows for
// queries and columns for keys, plus a marker column for the outputs that changed. Pure (no DOM):
// unit-tested in Node. `allowed[query][key]` is what the wasm returns (example_masks); a grid of
// `cell` px squares starts after a `gutter` of room for the position labels, which count from 1.

import { translator } from '../i18n.js';

/**
 * The position labels of a grid of `n` tokens: { rowLabels: [{ query, x, y, text }], colLabels:
 * [{ key, x, y, text }] }. A label's place depends on its position alone, not on `n`.
 */
export function axisLabels(n, { cell = 20, gutter = 20 } = {}) {
  const rowLabels = Array.from({ length: n }, (_, query) => ({
    query,
    x: gutter - 4,
    y: gutter + query * cell + cell / 2,
    text: String(query + 1),
  }));
  const colLabels = Array.from({ length: n }, (_, key) => ({
    key,
    x: gutter + key * cell + cell / 2,
    y: gutter - 6,
    text: String(key + 1),
  }));
  return { rowLabels, colLabels };
}

/**
 * Where the marker of each of `n` outputs goes, in the column after the grid: [{ query, cx, cy, r }].
 * Only cx depends on `n`.
 */
export function markerPlaces(n, { cell = 20, gutter = 20 } = {}) {
  const cx = gutter + n * cell + cell * 0.75;
  return Array.from({ length: n }, (_, query) => ({ query, cx, cy: gutter + query * cell + cell / 2, r: Math.max(2, cell * 0.3) }));
}

/**
 * The size of a grid of `n` tokens (`markers`: room for the marker column): { width, height }.
 */
export function maskGridSize(n, { cell = 20, gutter = 20, markers = false } = {}) {
  return { width: gutter + n * cell + (markers ? cell * 1.5 : 0), height: gutter + n * cell };
}

/**
 * One cell's square as an SVG path: `size` px wide at (x, y), corners rounded with radius `r` (the
 * tile a region's pattern repeats).
 */
export function roundedSquare(x, y, size, r = 2) {
  const side = size - 2 * r;
  const arc = (dx, dy) => `a${r} ${r} 0 0 1 ${dx} ${dy}`;
  return `M${x + r} ${y}h${side}${arc(r, r)}v${side}${arc(-r, r)}h${-side}${arc(-r, -r)}v${-side}${arc(r, -r)}z`;
}

/**
 * The cells of `allowed` whose value is `want` (and, with `key`, only that key's column), as one
 * SVG path of whole cells: a rectangle per run of such cells in a row, with no gap between cells
 * (a pattern of one rounded square per cell fills it, so a 16 x 16 grid stays a few short paths).
 * '' when there are none.
 */
export function regionPath(allowed, want, { cell = 20, gutter = 20, key = null } = {}) {
  let d = '';
  allowed.forEach((row, query) => {
    for (let k = 0; k < row.length; k++) {
      if (Boolean(row[k]) !== want || (key !== null && k !== key)) continue;
      let end = k;
      while (end + 1 < row.length && Boolean(row[end + 1]) === want && key === null) end++;
      const width = (end - k + 1) * cell;
      d += `M${gutter + k * cell} ${gutter + query * cell}h${width}v${cell}h${-width}z`;
      k = end;
    }
  });
  return d;
}

/**
 * Whether `allowed` (n x n) is the top left corner of `drawn` (m x m):
 * a grid drawn for m tokens then shows the pairs of n tokens once clipped to n rows and columns.
 */
export function isCorner(allowed, drawn) {
  return allowed.length <= drawn.length && allowed.every((row, q) => row.length <= drawn[q].length && row.every((ok, k) => ok === Boolean(drawn[q][k])));
}

/**
 * Positions listed for a sentence: [0, 1, 2, 4] -> "1–3, 5" (counting from 1); [] -> "none"; in the
 * language of `t` (i18n.js; English by default).
 */
export function positionList(indices, t = translator('en')) {
  if (indices.length === 0) return t('positions.none');
  const sorted = [...indices].sort((a, b) => a - b);
  const parts = [];
  let start = sorted[0];
  let prev = start;
  for (const i of [...sorted.slice(1), Infinity]) {
    if (i === prev + 1) {
      prev = i;
      continue;
    }
    parts.push(start === prev ? String(start + 1) : prev === start + 1 ? `${start + 1}${t('positions.separator')}${prev + 1}` : `${start + 1}–${prev + 1}`);
    start = i;
    prev = i;
  }
  return parts.join(t('positions.separator'));
}

/** For each query, the keys it may use, as text: "query 2: keys 1, 2". */
export function describeRows(allowed, t = translator('en')) {
  return allowed.map((row, query) => {
    const keys = row.flatMap((ok, key) => (ok ? [key] : []));
    return t('positions.query', { count: keys.length, query: query + 1, keys: positionList(keys, t) });
  });
}
