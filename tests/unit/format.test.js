import { test } from 'node:test';
import assert from 'node:assert/strict';

import { formatBytes, formatCompact, formatDecimal, formatInteger, formatSI, loadNumberData } from '../../www/src/format.js';
import { formatHours } from '../../www/src/format-cost.js';

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
  for (const bad of [1.5, NaN, Infinity, '12', null, undefined, 2 ** 40 + 0.5]) {
    assert.throws(() => formatInteger(bad), TypeError);
    assert.throws(() => formatCompact(bad), TypeError);
  }
  // Past 1e15 a count is shown in scientific notation, where exactness no longer shows anyway.
  assert.equal(formatInteger(2 ** 53), '9.01 × 10¹⁵');
});

test('percentages, SI prefixes, scientific notation, bytes, vectors', async () => {
  const f = await import('../../www/src/format.js');
  assert.equal(f.formatPercent(0.2278), '23%');
  assert.equal(f.formatPercent(0.000309), 'under 0.1%');
  assert.equal(f.formatPercent(0.0063), '0.6%');
  assert.equal(f.formatSI(285055488), '285 M');
  assert.equal(f.formatSI(247601664, 'G'), '0.248 G');
  assert.equal(f.formatScientific(2.2019e20, 2), '2.2 × 10²⁰');
  assert.equal(f.formatScientific(1.4e10), '1.4 × 10¹⁰');
  assert.equal(f.formatBytes(131072), '128 KiB');
  assert.equal(f.formatBytes(512), '512 B');
  assert.equal(f.formatVector([1.1000001, 1.7]), '(1.1, 1.7)');
  assert.equal(f.formatVector([-1.3416, -0.0001]), '(-1.342, 0)');
  assert.equal(f.formatDecimal(0.7310586), '0.731');
  assert.throws(() => f.formatSI(NaN), TypeError);
});

test('past a quadrillion, every formatter switches to scientific notation instead of printing hundreds of digits', () => {
  assert.equal(formatInteger(1e200), '1 × 10²⁰⁰');
  assert.equal(formatInteger(123456789012345678), '1.23 × 10¹⁷');
  assert.equal(formatInteger(999_999_999_999_999), '999,999,999,999,999');
  assert.equal(formatCompact(2.5e20), '2.5 × 10²⁰');
  assert.equal(formatSI(3e200), '3 × 10²⁰⁰');
  assert.equal(formatSI(2.5e17), '250 P');
  assert.equal(formatDecimal(1e30), '1 × 10³⁰');
  assert.equal(formatHours(1e200), '1 × 10²⁰⁰ hours (1.14 × 10¹⁹⁶ years)');
  assert.ok(formatBytes(1e200).length < 30, formatBytes(1e200));
  for (const f of [formatInteger, formatCompact, formatSI, formatDecimal, formatHours, formatBytes]) {
    assert.ok(String(f(1e300)).length < 40, `${f.name}(1e300) = ${f(1e300)}`);
  }
});

test('loading the number data takes any lang attribute: a bad tag or none loads English, nothing thrown', () => {
  for (const lang of ['fr', 'zh-CN', '', undefined, 'not a tag!', '123']) assert.doesNotThrow(() => loadNumberData(lang), String(lang));
});
