import { test } from 'node:test';
import assert from 'node:assert/strict';

import { formatCompact, formatInteger } from '../../www/src/format.js';

test('formatInteger puts thousands separators in exact counts', () => {
  assert.equal(formatInteger(0), '0');
  assert.equal(formatInteger(999), '999');
  assert.equal(formatInteger(27328), '27,328');
  assert.equal(formatInteger(124439808), '124,439,808');
  assert.equal(formatInteger(-1234), '-1,234');
  assert.equal(formatInteger(2n ** 64n - 1n), '18,446,744,073,709,551,615');
});

test('formatCompact rounds to three significant digits with a suffix', () => {
  assert.equal(formatCompact(950), '950');
  assert.equal(formatCompact(27328), '27.3K');
  assert.equal(formatCompact(124439808), '124M');
  assert.equal(formatCompact(354823168), '355M');
  assert.equal(formatCompact(1557611200), '1.56B');
  assert.equal(formatCompact(8030261248), '8.03B');
  assert.equal(formatCompact(70553706496), '70.6B');
  assert.equal(formatCompact(1.2e12), '1.2T');
});

test('formatters refuse what is not an exact integer', () => {
  for (const bad of [1.5, NaN, Infinity, '12', null, undefined, 2 ** 53]) {
    assert.throws(() => formatInteger(bad), TypeError);
    assert.throws(() => formatCompact(bad), TypeError);
  }
});
