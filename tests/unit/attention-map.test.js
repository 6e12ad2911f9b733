import { test } from 'node:test';
import assert from 'node:assert/strict';

import { attentionMapLayout, maskedOutline, scoreMapLayout, strongestKeys, weightClass, weightLevel, weightPaletteCss } from '../../www/src/charts/attention-map.js';

// Two maps of 3 positions back to back, as CharModel.attention returns [L, h, T, T].
const weights = new Float32Array([
  1, 0, 0, 0.5, 0.5, 0, 0.2, 0.3, 0.5,
  1, 0, 0, 0.9, 0.1, 0, 0.05, 0.05, 0.9,
]);

test('a weight is shaded on one absolute scale from 0 to 1; any weight above 0 shows', () => {
  assert.deepEqual([0, 0.001, 0.05, 0.2, 0.5, 0.9, 1, 1.5, NaN, -0.1].map((w) => weightLevel(w)), [0, 1, 1, 2, 4, 7, 8, 8, 0, 0]);
  assert.equal(weightClass(3), 'wt-3');
  assert.match(weightPaletteCss(), /\.wt-8 \{ background-color: var\(--_weight\); \}/);
});

test('cells go by shade; nothing is drawn after the diagonal', () => {
  const m = attentionMapLayout({ n: 3, weights, offset: 9, cell: 10 });
  assert.equal(m.size, 30);
  assert.deepEqual(m.rows, [[1], [0.9, 0.1], [0.05, 0.05, 0.9]].map((r) => r.map(Math.fround)));
  // The 1 in the darkest shade, the 0.9s a step lighter, the 0.1 and the 0.05s the palest: seen,
  // where the masked cells after the diagonal are not drawn at all.
  assert.deepEqual(Object.keys(m.cells).sort(), ['wt-1', 'wt-7', 'wt-8']);
  assert.deepEqual(m.cells['wt-8'], [0, 0]);
  assert.deepEqual(m.cells['wt-7'], [0, 10, 20, 20]);
  assert.deepEqual(m.cells['wt-1'], [10, 10, 0, 20, 10, 20]);
  const first = attentionMapLayout({ n: 3, weights, cell: 10 });
  assert.deepEqual(Object.keys(first.cells).sort(), ['wt-2', 'wt-4', 'wt-8']);
  assert.throws(() => attentionMapLayout({ n: 4, weights, offset: 9 }), /needs 16 weights/);
  assert.throws(() => attentionMapLayout({ n: 0, weights }), /whole number of positions/);
});

test('the masked region is the staircase above the diagonal', () => {
  assert.equal(maskedOutline(1, 10), '');
  assert.equal(maskedOutline(3, 10), 'M10 0V10H20V20H30V0Z');
});

test('scores are shaded on the diverging scale of the visible ones; the masked ones apart', () => {
  const scores = new Float32Array([2, 9, 9, -1, 1, 9, 0, 0.5, -2]);
  const m = scoreMapLayout({ n: 3, scores, cell: 10 });
  assert.equal(m.limit, 2);
  assert.deepEqual(m.cells['heat-p4'].slice(0, 2), [0, 0]);
  assert.deepEqual(m.cells['heat-n4'].slice(-2), [20, 20]);
  // 9 is past the visible limit: drawn (dimmed by the widget) in the darkest shade.
  assert.deepEqual(m.maskedCells['heat-p4'], [10, 0, 20, 0, 20, 10]);
});

test('the strongest keys come first, the earlier key first on a tie', () => {
  assert.deepEqual(strongestKeys([0.25, 0.5, 0.25]).map((x) => x.key), [1, 0, 2]);
});
