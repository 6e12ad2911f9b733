import { test } from 'node:test';
import assert from 'node:assert/strict';

import { BAR_WIDTH, breakdownSegments, groupClass } from '../../www/src/charts/breakdown.js';
import { formatFlops, formatShare } from '../../www/src/format-anatomy.js';

// GPT-2 small's groups as the wasm returns them (shares computed by the library).
const GPT2 = [
  { group: 'embeddings', label: 'Embeddings', params: 39383808, share: 0.3164888200406095 },
  { group: 'attention', label: 'Attention', params: 28348416, share: 0.2278082589134178 },
  { group: 'feed_forward', label: 'Feed-forward', params: 56669184, share: 0.45539433812048313 },
  { group: 'norms', label: 'Norms', params: 38400, share: 0.0003085829254895668 },
];

function sum(xs) {
  return xs.reduce((a, b) => a + b, 0);
}

test('segments fill the bar: widths add up to the width, in the groups’ order', () => {
  for (const width of [BAR_WIDTH, 600, 333]) {
    const segs = breakdownSegments(GPT2, width);
    assert.deepEqual(segs.map((s) => s.group), ['embeddings', 'attention', 'feed_forward', 'norms']);
    assert.ok(Math.abs(sum(segs.map((s) => s.w)) - width) < 1e-9);
    assert.equal(segs[0].x, 0);
    assert.equal(segs.at(-1).x + segs.at(-1).w, width);
    for (let i = 1; i < segs.length; i++) assert.ok(Math.abs(segs[i].x - (segs[i - 1].x + segs[i - 1].w)) < 1e-9);
  }
});

test('each segment is as wide as its share', () => {
  const segs = breakdownSegments(GPT2, 1000);
  const total = sum(GPT2.map((g) => g.share));
  GPT2.forEach((g, i) => assert.ok(Math.abs(segs[i].w - (g.share / total) * 1000) < 1e-9));
  assert.ok(Math.abs(segs[0].w - 316.5) < 0.1); // embeddings, about a third
  assert.equal(segs[1].label, 'Attention');
  assert.equal(segs[1].params, 28348416);
});

test('shares that do not add up to one still fill the bar; zero shares take no room', () => {
  const segs = breakdownSegments(
    [
      { group: 'a', share: 0.2 },
      { group: 'b', share: 0 },
      { group: 'c', share: 0.2 },
    ],
    100,
  );
  assert.deepEqual(segs.map((s) => s.w), [50, 0, 50]);
  assert.deepEqual(segs.map((s) => s.x), [0, 50, 50]);
  assert.deepEqual(breakdownSegments([], 100), []);
  assert.deepEqual(breakdownSegments([{ group: 'a', share: 0 }], 100).map((s) => s.w), [0]);
  assert.deepEqual(breakdownSegments([{ group: 'a', share: NaN }, { group: 'b', share: 1 }], 10).map((s) => s.w), [0, 10]);
});

test('group classes are safe class names', () => {
  assert.equal(groupClass('feed_forward'), 'g-feed_forward');
  assert.equal(groupClass('output head"><x'), 'g-outputheadx');
});

test('shares: whole percents, one decimal between 1% and 10%', () => {
  assert.equal(formatShare(0.3164888200406095), '32%');
  assert.equal(formatShare(0.2278082589134178), '23%');
  assert.equal(formatShare(0.0148918207728685), '1.5%'); // Llama 3 70B's token table
  assert.equal(formatShare(0.0654196121117279), '6.5%');
  assert.equal(formatShare(0.0996), '10%');
  assert.equal(formatShare(0.006319778314026328), '0.6%');
  assert.equal(formatShare(0.0003085829254895668), 'under 0.1%');
  assert.equal(formatShare(0), '0%');
});

test('FLOPs per token in G, as the lesson quotes them', () => {
  assert.equal(formatFlops(247601664), '0.248 G'); // GPT-2 small at T = 8
  assert.equal(formatFlops(15014043648), '15 G');
  assert.equal(formatFlops(139027038208), '139 G');
  assert.equal(formatFlops(55680), '55.7 k'); // TinyGPT
});
