import { test } from 'node:test';
import assert from 'node:assert/strict';

import { attentionMapLayout, maskedOutline, scoreMapLayout, strongestKeys, weightLevel } from '../../www/src/charts/attention-map.js';

// Two maps of 3 positions back to back, as CharModel.attention returns [L, h, T, T].
const weights = new Float32Array([
  1, 0, 0, 0.5, 0.5, 0, 0.2, 0.3, 0.5,
  1, 0, 0, 0.9, 0.1, 0, 0.05, 0.05, 0.9,
]);

test('a weight is shaded on one absolute scale from 0 to 1', () => {
  assert.deepEqual([0, 0.05, 0.2, 0.5, 0.9, 1, 1.5, NaN, -0.1].map((w) => weightLevel(w)), [0, 0, 1, 2, 4, 4, 4, 0, 0]);
});

test('cells go by shade into one path each; nothing is drawn after the diagonal', () => {
  const m = attentionMapLayout({ n: 3, weights, offset: 9, cell: 10 });
  assert.equal(m.size, 30);
  assert.deepEqual(m.rows, [[1], [0.9, 0.1], [0.05, 0.05, 0.9]].map((r) => r.map(Math.fround)));
  // The 0.9s and the 1 in the darkest shade, the 0.1 too pale to draw, the 0.05s too.
  assert.deepEqual(Object.keys(m.paths), ['heat-p4']);
  assert.equal(m.paths['heat-p4'], 'M0 0h10v10h-10zM0 10h10v10h-10zM20 20h10v10h-10z');
  const first = attentionMapLayout({ n: 3, weights, cell: 10 });
  assert.deepEqual(Object.keys(first.paths).sort(), ['heat-p1', 'heat-p2', 'heat-p4']);
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
  assert.ok(m.paths['heat-p4'].startsWith('M0 0h10'));
  assert.ok(m.paths['heat-n4'].includes('M20 20h10'));
  // 9 is past the visible limit: drawn (dimmed by the widget) in the darkest shade.
  assert.equal(m.maskedPaths['heat-p4'], 'M10 0h10v10h-10zM20 0h10v10h-10zM20 10h10v10h-10z');
});

test('the strongest keys come first, the earlier key first on a tie', () => {
  assert.deepEqual(strongestKeys([0.25, 0.5, 0.25]).map((x) => x.key), [1, 0, 2]);
});
