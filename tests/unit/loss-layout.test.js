import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lossChartLayout, roundTicks, smoothed, thinned } from '../../www/src/charts/loss-layout.js';

test('smoothing starts at the first value and follows a constant exactly', () => {
  assert.deepEqual(smoothed([4, 4, 4]), [4, 4, 4]);
  const s = smoothed([4, 2], 0.5);
  assert.equal(s[0], 4);
  assert.ok(Math.abs(s[1] - (0.5 * 0.5 * 4 + 0.5 * 2) / 0.75) < 1e-12);
});

test('thinning keeps the last step and at most the asked number of points', () => {
  const ys = Array.from({ length: 1000 }, (_, i) => i);
  const t = thinned(ys, 100);
  assert.equal(t.length, 100);
  assert.deepEqual(t.at(-1), { step: 1000, value: 999 });
  assert.deepEqual(thinned([1, 2], 10), [{ step: 1, value: 1 }, { step: 2, value: 2 }]);
});

test('round ticks cover the range at 1, 2, 2.5 or 5 times a power of ten', () => {
  assert.deepEqual(roundTicks(0, 600, 5), [0, 200, 400, 600]);
  assert.deepEqual(roundTicks(1.5, 4, 4), [2, 3, 4]);
  assert.deepEqual(roundTicks(1.5, 4, 6), [1.5, 2, 2.5, 3, 3.5, 4]);
  // An axis of steps: no step 2.5, and never a step below 1.
  assert.deepEqual(roundTicks(0, 40, 8, { whole: true }), [0, 5, 10, 15, 20, 25, 30, 35, 40]);
  assert.deepEqual(roundTicks(0, 40, 16, { whole: true }), [0, 5, 10, 15, 20, 25, 30, 35, 40]);
  assert.ok(roundTicks(0, 3, 10, { whole: true }).every(Number.isInteger));
});

test('the layout places the reference lines, the held-out points and the training line', () => {
  const reference = { uniform: 3.912, unigram: 3.406, bigram: 2.568 };
  const losses = Array.from({ length: 300 }, (_, i) => 3.9 - i / 200);
  const layout = lossChartLayout({ steps: 600, losses, heldOut: [{ step: 0, loss: 3.91 }, { step: 300, loss: 2.6 }], reference });
  assert.equal(layout.references.length, 3);
  const byKey = Object.fromEntries(layout.references.map((r) => [r.key, r]));
  // Higher loss is higher on the chart (smaller y); uniform above unigram above bigram.
  assert.ok(byKey.uniform.y < byKey.unigram.y && byKey.unigram.y < byKey.bigram.y);
  assert.equal(layout.heldOut.length, 2);
  assert.equal(layout.heldOut[0].x, 0);
  assert.ok(layout.trainPath.startsWith('M'));
  assert.equal(layout.lastTrain.step, 300);
  // Everything fits the y axis, which moves in half nats.
  const [y0, y1] = layout.y.domain;
  assert.ok(y0 <= 2.4 && y1 >= 3.912 && (y0 * 2) % 1 === 0 && (y1 * 2) % 1 === 0);
  // The x axis is the whole run, so the line ends half way across.
  const lastX = Number(layout.trainPath.split(' ').at(-1).slice(1).split(',')[0]);
  assert.equal(lastX, 500);
  assert.deepEqual(layout.references.map((r) => r.text), ['uniform 3.91', 'unigram 3.41', 'bigram 2.57']);
  // The labels' margin (ranges 1 and 2) fits the longest; a phone's box lists them under the chart.
  assert.ok(layout.margin.right[1] >= 60 && layout.margin.right[1] === layout.margin.right[2], `${layout.margin.right}`);
  assert.ok(layout.margin.right[0] < 20);
});

test('labels of reference lines closer than a line of text are pushed apart', () => {
  const layout = lossChartLayout({ steps: 10, losses: [], reference: { uniform: 3.0, unigram: 2.99, bigram: 2.98 } });
  const ys = layout.references.map((r) => r.labelY);
  assert.ok(ys[1] - ys[0] >= 12 && ys[2] - ys[1] >= 12, ys.join(', '));
});

test('before a run there is nothing to draw but the axes', () => {
  const layout = lossChartLayout({ steps: 600, losses: [] });
  assert.equal(layout.trainPath, '');
  assert.deepEqual(layout.references, []);
  assert.equal(layout.lastTrain, null);
});

test('several runs share one chart and one y axis', () => {
  const reference = { uniform: 3.912, unigram: 3.406, bigram: 2.568 };
  const pre = { key: 'pre', losses: Array.from({ length: 100 }, (_, i) => 3.9 - i / 60), heldOut: [{ step: 100, loss: 2.4 }] };
  const post = { key: 'post', losses: Array.from({ length: 100 }, () => 3.3), heldOut: [{ step: 100, loss: 3.2 }] };
  const layout = lossChartLayout({ steps: 300, series: [pre, post], reference });
  assert.deepEqual(layout.series.map((r) => r.key), ['pre', 'post']);
  assert.ok(layout.series[1].heldOut[0].y < layout.series[0].heldOut[0].y, 'post-LN higher loss, higher on the chart');
  assert.ok(layout.y.domain[0] <= 2.25, 'the axis reaches the lowest smoothed loss');
  assert.equal(layout.trainPath, layout.series[0].trainPath);
});

test('the step axis keeps fewer ticks in a narrow box, each shown in every wider one, in every language', async () => {
  const { translator } = await import('../../www/src/i18n.js');
  for (const t of [translator('en')]) {
    const layout = lossChartLayout({ steps: 20000, losses: [], t });
    const shown = (range) => layout.xTicks.filter((tick) => tick.from <= range);
    assert.ok(shown(0).length < shown(2).length, `${shown(0).length} / ${shown(2).length}`);
    assert.ok(shown(0).length >= 2);
    assert.equal(shown(2)[0].text, '0');
  }
});
