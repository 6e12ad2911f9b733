// Reading and writing the numbers of the cost widgets (training cost, memory). Pure: no DOM, no
// wasm, unit-tested in Node. Parsing only decides whether the text is a number; what range is
// allowed is the library's call. Formatting converts units (hours to days); it computes no model
// number.

import { clipText } from './attributes.js';
import { lazyFormat } from './format.js';

/**
 * A number a reader typed: "123,653,376", "1.2e20", "491 520" or "0.4". Returns { value } or
 * { error } naming the field.
 */
export function parseReaderNumber(name, text) {
  const t = String(text ?? '').trim();
  if (t === '') return { error: `${name} is empty: type a number` };
  const cleaned = t.replace(/[,_\s]/g, '');
  const value = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(cleaned) ? Number(cleaned) : NaN;
  if (!Number.isFinite(value)) return { error: `${name} "${clipText(t)}" is not a number: type digits, like 491,520 or 1.2e20` };
  return { value };
}

const sig3 = lazyFormat({ maximumSignificantDigits: 3 });
const sig2 = lazyFormat({ maximumSignificantDigits: 2 });

/** A duration in hours as a reader says it: 194.8 -> "195 hours (8.1 days)"; short ones in hours only. */
export function formatHours(hours) {
  if (!Number.isFinite(hours) || hours < 0) throw new TypeError(`expected a duration, got ${String(hours)}`);
  const h = `${sig3.format(hours)} ${hours === 1 ? 'hour' : 'hours'}`;
  if (hours < 48) return h;
  const days = hours / 24;
  if (days < 730) return `${h} (${sig2.format(days)} days)`;
  return `${h} (${sig2.format(days / 365.25)} years)`;
}
