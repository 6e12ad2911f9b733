import { test } from 'node:test';
import assert from 'node:assert/strict';

import { clipText, parseNumberList, parseWhole } from '../../www/src/attributes.js';

test('parseWhole reads whole numbers and falls back for blank text', () => {
  assert.deepEqual(parseWhole('seq-len', '8', 1), { value: 8 });
  assert.deepEqual(parseWhole('seq-len', ' 1024 ', 8), { value: 1024 });
  assert.deepEqual(parseWhole('seq-len', '+3', 8), { value: 3 });
  assert.deepEqual(parseWhole('seq-len', '0', 8), { value: 0 }, 'range is the library\'s call');
  assert.deepEqual(parseWhole('seq-len', null, 8), { value: 8 });
  assert.deepEqual(parseWhole('seq-len', undefined, 8), { value: 8 });
  assert.deepEqual(parseWhole('seq-len', '   ', 8), { value: 8 });
});

test('parseWhole refuses what is not a whole number, naming the attribute and the fallback', () => {
  for (const bad of ['abc', '1.5', '-2', '1.5e0', '8 tokens', '0x10']) {
    const r = parseWhole('seq-len', bad, 8);
    assert.equal(r.value, 8, bad);
    assert.equal(r.error, `seq-len "${bad}" is not a whole number; using 8`);
  }
});

test('parseNumberList splits on commas and spaces', () => {
  assert.deepEqual(parseNumberList('x', '1, 2, 3, 4', []), { value: [1, 2, 3, 4] });
  assert.deepEqual(parseNumberList('x', '1 2,3,,  4', []), { value: [1, 2, 3, 4] });
  assert.deepEqual(parseNumberList('x', '-0.5, 1e3, .25', []), { value: [-0.5, 1000, 0.25] });
  assert.deepEqual(parseNumberList('x', ' 7 ', []), { value: [7] });
  assert.deepEqual(parseNumberList('x', '', [1]), { value: [1] });
  assert.deepEqual(parseNumberList('x', null, [1]), { value: [1] });
});

test('parseNumberList names the first word that is not a number', () => {
  assert.deepEqual(parseNumberList('scores', '1, x, y', [0]), {
    value: [0],
    error: 'scores: "x" is not a number; write numbers separated by commas',
  });
  assert.equal(parseNumberList('x', '1, Infinity', []).error, 'x: "Infinity" is not a number; write numbers separated by commas');
  assert.equal(parseNumberList('x', '1, NaN', []).error, 'x: "NaN" is not a number; write numbers separated by commas');
});

test('echoed values are clipped, a missing fallback is "the default", and whole numbers in exponent form pass on', () => {
  const long = 'x'.repeat(10_000);
  const { error } = parseWhole('seed', long, 7);
  assert.ok(error.length < 100, error);
  assert.match(error, /^seed "x{39}…" is not a whole number; using 7$/);
  assert.equal(parseWhole('seq-len', 'abc', null).error, 'seq-len "abc" is not a whole number; using the default');
  assert.deepEqual(parseWhole('seq-len', '1e3', 8), { value: 1000 });
  assert.deepEqual(parseWhole('seq-len', '1e300', 8), { value: 1e300 });
  assert.equal(parseWhole('seq-len', '1e400', 8).error, 'seq-len "1e400" is far too large; using 8');
  assert.equal(parseWhole('seq-len', '2.5', 8).error, 'seq-len "2.5" is not a whole number; using 8');
  assert.ok(parseNumberList('ids', `1, ${long}`, [1]).error.length < 100);
  assert.equal(clipText('short'), 'short');
  assert.equal([...clipText('é'.repeat(50))].length, 40);
});
