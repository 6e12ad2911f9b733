import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fitText, fitTicks, labelMargins, NARROWEST, nudged, pct, plotWidths, textWidth } from '../../www/src/charts/fit.js';

test('a text\u2019s width: CJK a full em, Latin about 0.6 em, spaces and commas less', () => {
  assert.equal(textWidth('损失', 10), 20);
  assert.ok(Math.abs(textWidth('1,024', 10) - (4 * 6.2 + 3.4)) < 1e-9);
  assert.ok(textWidth('uniforme 3,91') > textWidth('uniform 3.91'));
});

test('percentages to three decimals', () => {
  assert.equal(pct(0.25), '25%');
  assert.equal(pct(1 / 3), '33.333%');
});

test('ticks: every 1st, 2nd, 4th \u2026 kept so that no two labels touch, narrow ranges a subset of wide ones', () => {
  const ticks = Array.from({ length: 11 }, (_, i) => ({ at: i / 10, text: (i * 2000).toLocaleString('en-US') }));
  const fitted = fitTicks(ticks, (range) => NARROWEST[range] - 60);
  const shown = (range) => fitted.filter((t) => t.from <= range);
  for (const range of [0, 1, 2]) {
    const width = NARROWEST[range] - 60;
    const kept = shown(range);
    for (let i = 1; i < kept.length; i++) {
      const gap = (kept[i].at - kept[i - 1].at) * width - (textWidth(kept[i].text) + textWidth(kept[i - 1].text)) / 2;
      assert.ok(gap >= 8, `range ${range}: ${kept[i - 1].text} and ${kept[i].text} ${gap.toFixed(1)} px apart`);
    }
  }
  assert.ok(shown(0).length < shown(2).length);
  assert.equal(shown(0)[0].text, '0');
  // A tick shown narrow is shown wide: `from` is where it starts, and it never stops.
  assert.ok(fitted.every((t) => [0, 1, 2].includes(t.from)));
});

test('a label\u2019s wordings: the longest that fits each range, ranges that agree merged', () => {
  assert.deepEqual(fitText(['block 11', '11'], (range) => [30, 60, 90][range]), [
    { text: '11', from: 0, upTo: 0 },
    { text: 'block 11', from: 1, upTo: 2 },
  ]);
  assert.deepEqual(fitText(['a very long wording', 'short'], () => 10), [{ text: 'short', from: 0, upTo: 2 }]);
});

test('line labels closer than a line of text are pushed apart, in the order given', () => {
  const out = nudged([{ y: 50 }, { y: 40 }, { y: 45 }]);
  assert.deepEqual(out.map((l) => [l.y, l.labelY]), [[50, 66], [40, 40], [45, 53]]);
});

test('labels at the plot\u2019s right: a margin as wide as the longest from range 1 on, the least in range 0', () => {
  assert.deepEqual(labelMargins([], 12), [12, 12, 12]);
  const [narrow, medium, wide] = labelMargins(['intact 1.92', 'uniform 3.91'], 12);
  assert.equal(narrow, 12);
  assert.equal(medium, Math.ceil(8 + textWidth('uniform 3.91')));
  assert.equal(wide, medium);
  assert.equal(plotWidths({ left: 40, right: [12, 90, 90] })(1), NARROWEST[1] - 130);
});
