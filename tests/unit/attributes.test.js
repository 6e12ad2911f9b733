import { test } from 'node:test';
import assert from 'node:assert/strict';

import { parseNumberList, parseWhole } from '../../www/src/attributes.js';

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
  for (const bad of ['abc', '1.5', '-2', '1e3', '8 tokens', '0x10']) {
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
