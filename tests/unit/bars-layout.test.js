import { test } from 'node:test';
import assert from 'node:assert/strict';
import { blockBarsLayout } from '../../www/src/charts/bars-layout.js';

test('one slot per block, bars for the values there are, and the two lines', () => {
  const layout = blockBarsLayout({ values: [4.66, 2.45, null], lines: [{ key: 'intact', value: 1.92, text: 'intact 1.92' }, { key: 'uniform', value: 3.91, text: 'uniform 3.91' }], labels: [['block 0', '0'], ['block 1', '1'], ['block 2', '2']] });
  assert.equal(layout.bars.length, 3);
  assert.deepEqual(layout.bars.map((b) => b.ready), [true, true, false]);
  // Taller loss, taller bar; each bar stands on 0.
  assert.ok(layout.bars[0].height > layout.bars[1].height);
  for (const b of layout.bars.filter((b) => b.ready)) assert.equal(Math.round(b.y + b.height), Math.round(layout.y.map(0)));
  const lines = Object.fromEntries(layout.lines.map((l) => [l.key, l]));
  assert.ok(lines.uniform.y < lines.intact.y, 'uniform (3.91) is above intact (1.92)');
  // The axis reaches past the tallest value.
  assert.ok(layout.y.domain[1] >= 4.66 + 0.25);
  assert.deepEqual(layout.slots.map((slot) => Math.round(slot.at * 1e9) / 1e9), [0.166666667, 0.5, 0.833333333]);
  // Each bar is centred in its slot, a fraction of the plot wide.
  for (const b of layout.bars) assert.ok(Math.abs(b.x + b.width / 2 - layout.slots[b.index].at) < 1e-12);
  // Three slots leave room for "block 0" even in a phone's box.
  assert.deepEqual(layout.slots[0].labels, [{ text: 'block 0', from: 0, upTo: 2 }]);
  assert.deepEqual(lines.uniform.labelY, lines.uniform.y);
});

test('before anything is measured, only the slots', () => {
  const layout = blockBarsLayout({ values: [null, null] });
  assert.deepEqual(layout.bars.map((b) => b.height), [0, 0]);
  assert.deepEqual(layout.lines, []);
});

test('times get a round axis just above the tallest bar', () => {
  const layout = blockBarsLayout({ values: [0.13, 0.135, 0.165, 0.165], nice: true });
  const top = layout.y.domain[1];
  assert.ok(top >= 0.165 && top <= 0.25, `${top}`);
  assert.ok(layout.bars[3].height > layout.bars[0].height);
});

test('twelve blocks: a slot too narrow for "block 11" in a phone\u2019s box says "11"; groups stand side by side', () => {
  const labels = Array.from({ length: 12 }, (_, i) => [`block ${i}`, String(i)]);
  const layout = blockBarsLayout({ values: Array(12).fill(1), labels });
  const eleven = layout.slots[11].labels;
  assert.equal(eleven[0].text, '11');
  assert.equal(eleven[0].from, 0);
  const grouped = blockBarsLayout({ groups: [[0.2, 0.3], [0.1, 0.4]], nice: true, least: 0.5 });
  assert.equal(grouped.bars.length, 4);
  const [a, f] = grouped.bars;
  assert.ok(Math.abs(a.x + a.width - f.x) < 1e-12, 'the second bar of a group starts where the first ends');
  assert.ok(grouped.y.domain[1] >= 0.5);
});
