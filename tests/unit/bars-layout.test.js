import { test } from 'node:test';
import assert from 'node:assert/strict';
import { blockBarsLayout } from '../../www/src/charts/bars-layout.js';

test('one slot per block, bars for the values there are, and the two lines', () => {
  const layout = blockBarsLayout({ width: 560, values: [4.66, 2.45, null], lines: { intact: 1.92, uniform: 3.91 } });
  assert.equal(layout.bars.length, 3);
  assert.deepEqual(layout.bars.map((b) => b.ready), [true, true, false]);
  // Taller loss, taller bar; each bar stands on 0.
  assert.ok(layout.bars[0].height > layout.bars[1].height);
  for (const b of layout.bars.filter((b) => b.ready)) assert.equal(Math.round(b.y + b.height), Math.round(layout.y.map(0)));
  const lines = Object.fromEntries(layout.lines.map((l) => [l.key, l]));
  assert.ok(lines.uniform.y < lines.intact.y, 'uniform (3.91) is above intact (1.92)');
  // The axis reaches past the tallest value.
  assert.ok(layout.y.domain[1] >= 4.66 + 0.25);
  assert.ok(layout.bars[0].cx < layout.bars[1].cx && layout.bars[1].cx < layout.bars[2].cx);
});

test('before anything is measured, only the slots', () => {
  const layout = blockBarsLayout({ width: 300, values: [null, null], lines: {} });
  assert.deepEqual(layout.bars.map((b) => b.height), [0, 0]);
  assert.deepEqual(layout.lines, []);
});

test('times get a round axis just above the tallest bar', () => {
  const layout = blockBarsLayout({ width: 400, values: [0.13, 0.135, 0.165, 0.165], nice: true });
  const top = layout.y.domain[1];
  assert.ok(top >= 0.165 && top <= 0.25, `${top}`);
  assert.ok(layout.bars[3].height > layout.bars[0].height);
});
