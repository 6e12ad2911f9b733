import { test } from 'node:test';
import assert from 'node:assert/strict';

import { barLayout } from '../../www/src/charts/bars.js';

test('the tallest bar fills the plot; the others are in proportion', () => {
  const layout = barLayout([14, 18, 9, 0], { width: 400, height: 134, top: 16, bottom: 18, gap: 0.5 });
  assert.equal(layout.baseline, 116);
  assert.equal(layout.scaleMax, 18);
  assert.equal(layout.bars.length, 4);
  const [a, b, c, d] = layout.bars;
  assert.equal(b.height, 100);
  assert.equal(b.y, 16);
  assert.equal(c.height, 50);
  assert.equal(c.y, 66);
  assert.equal(d.height, 0);
  assert.equal(d.y, 116);
  assert.ok(Math.abs(a.height - (14 / 18) * 100) < 1e-9);
  // slots of 100, bars half a slot wide, centred
  assert.equal(a.width, 50);
  assert.equal(a.x, 25);
  assert.equal(a.centre, 50);
  assert.equal(d.centre, 350);
  assert.equal(b.valueY, 12);
  assert.equal(a.labelY, 130);
});

test('a left margin shifts the slots', () => {
  const layout = barLayout([1, 1], { width: 220, left: 20, gap: 0 });
  assert.deepEqual(
    layout.bars.map((b) => [b.x, b.width]),
    [
      [20, 100],
      [120, 100],
    ],
  );
});

test('all zeros or no bars draw nothing tall and do not divide by zero', () => {
  const zeros = barLayout([0, 0, 0]);
  assert.ok(zeros.bars.every((b) => b.height === 0 && Number.isFinite(b.y)));
  assert.deepEqual(barLayout([]).bars, []);
});

test('bad counts are refused', () => {
  assert.throws(() => barLayout([1, -1]), RangeError);
  assert.throws(() => barLayout([1, NaN]), RangeError);
  assert.throws(() => barLayout('12'), RangeError);
});
