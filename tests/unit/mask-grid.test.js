import { test } from 'node:test';
import assert from 'node:assert/strict';

import { axisLabels, describeRows, isCorner, markerPlaces, maskGridSize, positionList, regionPath, roundedSquare } from '../../www/src/charts/mask-grid.js';

const encoder3 = [
  [true, true, true],
  [true, true, true],
  [true, true, true],
];
const decoder3 = [
  [true, false, false],
  [true, true, false],
  [true, true, true],
];

test('3 tokens: the encoder allows 9 of 9 pairs, the decoder 6, as regions of whole cells', () => {
  const opts = { cell: 20, gutter: 20 };
  // Each row of the encoder is one run of 3 allowed cells; nothing is blocked.
  assert.equal(regionPath(encoder3, true, opts), 'M20 20h60v20h-60zM20 40h60v20h-60zM20 60h60v20h-60z');
  assert.equal(regionPath(encoder3, false, opts), '');
  // The decoder's allowed cells cover 1 + 2 + 3 = 6 cells' width, its blocked ones 3.
  const widths = (d) => [...d.matchAll(/h(\d+)v/g)].reduce((sum, m) => sum + Number(m[1]), 0);
  assert.equal(widths(regionPath(decoder3, true, opts)) / 20, 6);
  assert.equal(widths(regionPath(decoder3, false, opts)) / 20, 3);
});

test("a cell's tile is one closed square with rounded corners", () => {
  const d = roundedSquare(1, 1, 14);
  assert.equal(d, 'M3 1h10a2 2 0 0 1 2 2v10a2 2 0 0 1 -2 2h-10a2 2 0 0 1 -2 -2v-10a2 2 0 0 1 2 -2z');
  assert.equal((d.match(/z/g) ?? []).length, 1);
  assert.ok(roundedSquare(0, 0, 10, 3).startsWith('M3 0h4a3 3'));
});

test('labels sit in the gutter, counting from 1', () => {
  const { rowLabels, colLabels } = axisLabels(3, { cell: 20, gutter: 20 });
  assert.deepEqual(rowLabels[0], { query: 0, x: 16, y: 30, text: '1' });
  assert.deepEqual(colLabels[2], { key: 2, x: 70, y: 14, text: '3' });
  assert.deepEqual(axisLabels(0), { rowLabels: [], colLabels: [] });
});

test('the markers stand in a column after the grid, one a row', () => {
  assert.deepEqual(
    markerPlaces(3, { cell: 20, gutter: 20 }).map((m) => [m.query, m.cx, m.cy]),
    [
      [0, 95, 30],
      [1, 95, 50],
      [2, 95, 70],
    ],
  );
});

test('positionList counts from 1 and joins runs', () => {
  assert.equal(positionList([]), 'none');
  assert.equal(positionList([0]), '1');
  assert.equal(positionList([0, 1]), '1, 2');
  assert.equal(positionList([0, 1, 2, 4]), '1–3, 5');
  assert.equal(positionList([4, 0, 1, 2, 3]), '1–5');
  assert.equal(positionList([1, 3, 5, 6, 7, 9]), '2, 4, 6–8, 10');
});

test('describeRows says which keys each query may use', () => {
  assert.deepEqual(describeRows(decoder3), ['query 1: key 1', 'query 2: keys 1, 2', 'query 3: keys 1–3']);
});

test("a grid's size: the gutter, n cells, and room for the markers when asked", () => {
  assert.deepEqual(maskGridSize(3, { cell: 20, gutter: 20 }), { width: 80, height: 80 });
  assert.deepEqual(maskGridSize(3, { cell: 20, gutter: 20, markers: true }), { width: 110, height: 80 });
  assert.deepEqual(maskGridSize(16, { cell: 28, gutter: 22, markers: true }), { width: 512, height: 470 });
});

test("a label's place and a marker's row depend on the position alone, not on the count", () => {
  // tb-masks makes the 16 labels and markers once and hides those past the count: a grid of 5
  // tokens must find its labels where a grid of 16 has them.
  const opts = { cell: 16, gutter: 20 };
  const five = axisLabels(5, opts);
  const sixteen = axisLabels(16, opts);
  assert.deepEqual(five.rowLabels, sixteen.rowLabels.slice(0, 5));
  assert.deepEqual(five.colLabels, sixteen.colLabels.slice(0, 5));
  assert.deepEqual(sixteen.colLabels[15], { key: 15, x: 20 + 15 * 16 + 8, y: 14, text: '16' });
  const strip = (ms) => ms.map(({ query, cy, r }) => ({ query, cy, r }));
  assert.deepEqual(strip(markerPlaces(5, opts)), strip(markerPlaces(16, opts)).slice(0, 5));
  // Only the column moves: one cell and three quarters after the grid's last one.
  assert.equal(markerPlaces(5, opts)[0].cx, 20 + 5 * 16 + 12);
  assert.equal(markerPlaces(16, opts)[0].cx, 20 + 16 * 16 + 12);
});

test("a grid drawn for more tokens shows a smaller one's pairs only when they are its corner", () => {
  const causal = (n) => Array.from({ length: n }, (_, q) => Array.from({ length: n }, (_, k) => k <= q));
  const open = (n) => Array.from({ length: n }, () => Array(n).fill(true));
  assert.equal(isCorner(causal(3), causal(16)), true);
  assert.equal(isCorner(causal(16), causal(16)), true);
  assert.equal(isCorner(open(5), open(16)), true);
  // The other mask, a grid larger than the drawing, one pair different: drawn again.
  assert.equal(isCorner(open(3), causal(16)), false);
  assert.equal(isCorner(causal(5), causal(4)), false);
  const odd = causal(4);
  odd[3][1] = false;
  assert.equal(isCorner(odd, causal(16)), false);
  assert.equal(isCorner([], causal(2)), true);
});

test('a kind of cell is a region of whole cells: one rectangle per run in a row', () => {
  const opts = { cell: 16, gutter: 20 };
  // 3 x 3 decoder: rows of 1, 2 and 3 allowed keys; the blocked ones are the rest of each row.
  assert.equal(regionPath(decoder3, true, opts), 'M20 20h16v16h-16zM20 36h32v16h-32zM20 52h48v16h-48z');
  assert.equal(regionPath(decoder3, false, opts), 'M36 20h32v16h-32zM52 36h16v16h-16z');
  // One key's column: its allowed cells each on their own.
  assert.equal(regionPath(decoder3, true, { ...opts, key: 1 }), 'M36 36h16v16h-16zM36 52h16v16h-16z');
  assert.equal(regionPath(decoder3, false, { ...opts, key: 0 }), '');
  // Two runs in one row.
  assert.equal(regionPath([[true, false, true], [true, true, true], [true, true, true]], true, opts).split('M').length - 1, 4);
});
