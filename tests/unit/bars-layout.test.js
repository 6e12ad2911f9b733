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

test('twelve blocks: a phone\u2019s box labels every second slot, a wider one each, "block 8" where it fits; groups stand side by side', () => {
  const labels = Array.from({ length: 12 }, (_, i) => [`block ${i}`, String(i)]);
  const layout = blockBarsLayout({ values: Array(12).fill(1), labels });
  const shownIn = (range) => layout.slots.map((slot) => slot.labels.find((l) => l.from <= range && range <= l.upTo)?.text ?? null);
  assert.deepEqual(shownIn(0), ['0', null, '2', null, '4', null, '6', null, '8', null, '10', null]);
  assert.deepEqual(shownIn(1), ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11']);
  assert.equal(shownIn(2)[8], 'block 8');
  const grouped = blockBarsLayout({ groups: [[0.2, 0.3], [0.1, 0.4]], nice: true, least: 0.5 });
  assert.equal(grouped.bars.length, 4);
  const [a, f] = grouped.bars;
  assert.ok(Math.abs(a.x + a.width - f.x) < 1e-12, 'the second bar of a group starts where the first ends');
  assert.ok(grouped.y.domain[1] >= 0.5);
});

test('tokens per expert: no y axis, each bar\u2019s count above it, every expert named where eight share a phone\u2019s box', () => {
  const counts = [14, 18, 9, 23, 5, 6, 7, 8];
  const layout = blockBarsLayout({ values: counts, labels: counts.map((_, e) => [`Expert ${e}`, String(e)]), valueText: String, axis: false, nice: true, top: 20 });
  assert.equal(layout.axis, false);
  assert.deepEqual(layout.yTicks, []);
  assert.ok(layout.margin.left < 44, 'no room kept for axis labels');
  assert.deepEqual(layout.bars.map((b) => b.figure), counts.map((c) => [{ text: String(c), from: 0, upTo: 2 }]));
  assert.deepEqual(layout.slots.map((slot) => slot.labels[0]), counts.map((_, e) => ({ text: String(e), from: 0, upTo: 1 })));
  // The tallest bar reaches at most the top margin, where its figure still has room above it.
  assert.ok(Math.min(...layout.bars.map((b) => b.y)) >= 20);
});

test('sixty-four experts: labels thinned as ticks are, and counts shown only where a slot holds them', () => {
  const counts = Array.from({ length: 64 }, (_, e) => e + 3);
  const layout = blockBarsLayout({ values: counts, labels: counts.map((_, e) => [`Expert ${e}`, String(e)]), valueText: String, axis: false });
  const labelled = (range) => layout.slots.filter((slot) => slot.labels.some((l) => l.from <= range && range <= l.upTo)).map((slot) => slot.index);
  assert.deepEqual(labelled(0), [0, 8, 16, 24, 32, 40, 48, 56]);
  assert.deepEqual(labelled(1), [0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60]);
  // Two digits do not fit a slot of a phone's box, nor of a 640 px one; one digit fits from 640 px.
  assert.ok(layout.bars.every((b) => b.figure.every((f) => f.from === 2)));
  assert.deepEqual(layout.bars[3].figure, [{ text: '6', from: 2, upTo: 2 }]);
  assert.deepEqual(layout.bars[20].figure, []);
});
