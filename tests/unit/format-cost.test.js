import { test } from 'node:test';
import assert from 'node:assert/strict';

import { parseReaderNumber, formatHours } from '../../www/src/format-cost.js';

test('parseReaderNumber reads what readers type', () => {
  assert.deepEqual(parseReaderNumber('N', '123,653,376'), { value: 123653376 });
  assert.deepEqual(parseReaderNumber('N', ' 491 520 '), { value: 491520 });
  assert.deepEqual(parseReaderNumber('peak', '312e12'), { value: 312e12 });
  assert.deepEqual(parseReaderNumber('u', '0.4'), { value: 0.4 });
  assert.deepEqual(parseReaderNumber('u', '.5'), { value: 0.5 });
  assert.deepEqual(parseReaderNumber('u', '-1'), { value: -1 }); // the library says what range is allowed
});

test('parseReaderNumber names the field when the text is not a number', () => {
  for (const bad of ['', '   ', 'lots', '12abc', '1e', '0x10', 'Infinity', '1..2']) {
    const r = parseReaderNumber('Iterations', bad);
    assert.ok(r.error && r.error.startsWith('Iterations'), `${JSON.stringify(bad)} -> ${JSON.stringify(r)}`);
    assert.equal(r.value, undefined);
  }
});

test('formatHours says hours, and days or years when long', () => {
  assert.equal(formatHours(194.80162619076924), '195 hours (8.1 days)');
  // Tiny durations in scientific notation, not hundreds of zeros.
  assert.equal(formatHours(3.2e-320), '3.2 × 10⁻³²⁰ hours');
  assert.equal(formatHours(0.5), '0.5 hours');
  assert.equal(formatHours(1), '1 hour');
  assert.equal(formatHours(0.5), '0.5 hours');
  assert.equal(formatHours(30), '30 hours');
  assert.equal(formatHours(100000), '100,000 hours (11 years)');
  assert.throws(() => formatHours(NaN), TypeError);
});
