import { test } from 'node:test';
import assert from 'node:assert/strict';

import {
  logScale,
  linearScale,
  logTicks,
  linearTicks,
  linePath,
  seqLenAtX,
  costChartLayout,
  cursorLayout,
} from '../../www/src/charts/cost-layout.js';

// A cost curve shaped like cost_curve('gpt2-small', …)'s result (numbers from the crate).
const GPT2_CURVE = {
  context: 1024,
  crossover_seq_len: 4608,
  crossover_within_context: false,
  points: [
    { seq_len: 1, parameter_flops: 247306752, attention_flops: 36864, total: 247343616, attention_share: 0.000217 },
    { seq_len: 32, parameter_flops: 247306752, attention_flops: 1179648, total: 248486400, attention_share: 0.00690 },
    { seq_len: 1024, parameter_flops: 247306752, attention_flops: 37748736, total: 285055488, attention_share: 0.18181818 },
  ],
};

test('the log scale is increasing and puts the domain ends on the range ends', () => {
  const x = logScale([1, 1024], [50, 650]);
  assert.equal(x.map(1), 50);
  assert.ok(Math.abs(x.map(1024) - 650) < 1e-9);
  assert.ok(Math.abs(x.map(32) - 350) < 1e-9, 'T = 32 is halfway between 1 and 1,024 on a log axis');
  let previous = -Infinity;
  for (let t = 1; t <= 1024; t += 1) {
    const px = x.map(t);
    assert.ok(px > previous, `map(${t}) = ${px} should exceed map(${t - 1})`);
    previous = px;
  }
});

test('inverting the log scale gives back every whole T', () => {
  for (const [context, width] of [[1024, 600], [8192, 300], [16, 200], [32768, 900]]) {
    const x = logScale([1, context], [40, 40 + width]);
    for (let t = 1; t <= context; t += Math.max(1, Math.floor(context / 500))) {
      assert.equal(Math.round(x.invert(x.map(t))), t);
      assert.equal(seqLenAtX(x, x.map(t), 1, context), t);
    }
  }
});

test('a pixel becomes a whole T, clamped to 1..context', () => {
  const x = logScale([1, 1024], [50, 650]);
  assert.equal(seqLenAtX(x, 350, 1, 1024), 32);
  assert.equal(seqLenAtX(x, -500, 1, 1024), 1);
  assert.equal(seqLenAtX(x, 10_000, 1, 1024), 1024);
  assert.equal(seqLenAtX(x, 650, 1, 1024), 1024);
  assert.equal(seqLenAtX(x, 649, 1, 1024), 1012); // one pixel spans about a dozen T up here
  assert.equal(seqLenAtX(x, NaN, 1, 1024), 1);
});

test('a one-point domain does not divide by zero', () => {
  const x = logScale([1, 1], [0, 100]);
  assert.equal(x.map(1), 0);
  assert.equal(x.invert(55), 1);
  assert.throws(() => logScale([0, 10], [0, 1]), RangeError);
});

test('the linear scale maps and inverts', () => {
  const y = linearScale([0, 300e6], [200, 20]);
  assert.equal(y.map(0), 200);
  assert.equal(y.map(300e6), 20);
  assert.equal(y.map(150e6), 110);
  assert.equal(y.invert(110), 150e6);
});

test('log ticks are powers of 2, thinned to fit', () => {
  assert.deepEqual(logTicks(1, 1024, 20), [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024]);
  assert.deepEqual(logTicks(1, 1024, 6), [1, 4, 16, 64, 256, 1024]);
  assert.deepEqual(logTicks(1, 1024, 4), [1, 8, 64, 512]);
  assert.deepEqual(logTicks(1, 32768, 6), [1, 8, 64, 512, 4096, 32768]);
  assert.deepEqual(logTicks(1, 16, 10), [1, 2, 4, 8, 16]);
  assert.deepEqual(logTicks(3, 100, 10), [4, 8, 16, 32, 64]);
  for (const max of [1, 2, 3, 5, 8]) assert.ok(logTicks(1, 8192, max).length <= max);
});

test('linear ticks step by 1, 2, 2.5 or 5 × 10^k and cover the maximum', () => {
  assert.deepEqual(linearTicks(285055488, 4), { max: 300e6, step: 100e6, ticks: [0, 100e6, 200e6, 300e6] });
  const t = linearTicks(19.4e9, 4);
  assert.equal(t.step, 5e9);
  assert.equal(t.max, 20e9);
  assert.deepEqual(linearTicks(0, 4).ticks, [0, 1]);
  for (const max of [1, 7, 99, 1234, 5e6, 8.7e10]) {
    const { ticks, max: top } = linearTicks(max, 4);
    assert.ok(top >= max, `${top} >= ${max}`);
    assert.ok(ticks.length >= 2 && ticks.length <= 9);
  }
});

test('linePath joins the points', () => {
  const d = linePath([{ a: 0, b: 1 }, { a: 2.26, b: 3 }], (p) => p.a, (p) => p.b * 10);
  assert.equal(d, 'M0,10 L2.3,30');
});

test('the chart layout places the curves, the ticks and the crossover beyond the context', () => {
  const layout = costChartLayout({ curve: GPT2_CURVE });
  // Across: fractions of the plot; the frame gives it its width.
  assert.deepEqual(layout.x.range, [0, 1]);
  assert.deepEqual(layout.xTicks.map((t) => t.value), [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024]);
  assert.deepEqual(layout.xTicks.map((t) => t.text).slice(-2), ['512', '1,024']);
  assert.ok(layout.xTicks.every((t, i, all) => i === 0 || t.at > all[i - 1].at));
  assert.ok(Math.abs(layout.xTicks.at(-1).at - 1) < 1e-12);
  // A phone's box shows every other power of two or fewer; a wide one all of them.
  assert.ok(layout.xTicks.filter((t) => t.from === 0).length <= 6);
  assert.equal(layout.xTicks.filter((t) => t.from <= 2).length, 11);
  assert.deepEqual(layout.flops.yTicks.map((t) => t.value), [0, 100e6, 200e6, 300e6]);
  assert.deepEqual(layout.flops.yTicks.map((t) => t.text), ['0', '100 M', '200 M', '300 M']);
  assert.equal(layout.flops.yTicks[0].y, layout.flops.bottom);
  assert.equal(layout.share.yTicks.at(-1).y, layout.share.top);
  assert.ok(layout.share.top > layout.flops.bottom, 'the share panel sits below the FLOPs panel');
  assert.ok(layout.height > layout.share.bottom);
  // The parameter term is flat: every point of its path has the same y.
  const ys = layout.flops.paths.parameter.split(' ').map((seg) => seg.split(',')[1]);
  assert.equal(new Set(ys).size, 1);
  assert.equal(layout.flops.paths.total.split(' ').length, 3);
  assert.ok(layout.flops.paths.total.endsWith(`L1000,${layout.flops.paths.total.split(',').at(-1)}`), 'the curve ends at the stretch\u2019s right edge');
  assert.deepEqual(layout.share.crossover, { seqLen: 4608, within: false, x: 1 });
  assert.equal(layout.margin.left, 56);
});

test('a crossover inside the context is marked at its T', () => {
  const curve = { ...GPT2_CURVE, context: 8192, crossover_seq_len: 4608, crossover_within_context: true };
  const layout = costChartLayout({ curve });
  assert.equal(layout.share.crossover.within, true);
  assert.equal(layout.share.crossover.x, layout.x.map(4608));
  assert.equal(layout.share.half, (layout.share.top + layout.share.bottom) / 2);
});

test('the cursor sits at T, with its dots on the values it is given', () => {
  const layout = costChartLayout({ curve: GPT2_CURVE });
  const cur = cursorLayout(layout, {
    seqLen: 1024,
    total: 285055488,
    parameterFlops: 247306752,
    attentionFlops: 37748736,
    share: 0.18181818,
  });
  assert.ok(Math.abs(cur.x - 1) < 1e-12);
  assert.deepEqual(cur.spans, [
    { top: layout.flops.top, bottom: layout.flops.bottom },
    { top: layout.share.top, bottom: layout.share.bottom },
  ]);
  // Nothing between the panels (ticks, axis title, the share panel's title) is crossed.
  assert.ok(cur.spans[0].bottom < cur.spans[1].top - 30);
  assert.deepEqual(cur.dots.map((d) => d.key), ['total', 'parameter', 'attention', 'share']);
  assert.ok(cur.dots[0].y < cur.dots[1].y && cur.dots[1].y < cur.dots[2].y, 'total above parameter above attention');
  const low = cursorLayout(layout, { seqLen: 1, total: 0, parameterFlops: 0, attentionFlops: 0, share: 0 });
  assert.equal(low.x, 0);
  assert.equal(low.dots[3].y, layout.share.bottom);
});
