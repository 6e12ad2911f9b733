// Reading and writing the numbers of the cost widgets (training cost, memory). Pure: no DOM, no
// wasm, unit-tested in Node. Parsing only decides whether the text is a number; what range is
// allowed is the library's call. Formatting converts units (hours to days); it computes no model
// number.

import { clipText } from './attributes.js';
import { lazyFormat } from './format.js';
import { translator } from './i18n.js';

/**
 * A number a reader typed: "123,653,376", "1.2e20", "491 520" or "0.4"; in French "491 520" or
 * "0,4" (the comma is the decimal sign there, and a space, thin or not, groups thousands). Returns
 * { value } or { error } naming the field, in the language of `t` (i18n.js; English by default).
 */
export function parseReaderNumber(name, text, t = translator('en')) {
  const typed = String(text ?? '').trim();
  if (typed === '') return { error: t('parse.empty', { name }) };
  const spaces = /[_\s\u00a0\u202f]/g;
  const cleaned = t.locale === 'fr' ? typed.replace(spaces, '').replace(',', '.') : typed.replace(spaces, '').replace(/,/g, '');
  const value = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(cleaned) ? Number(cleaned) : NaN;
  if (!Number.isFinite(value)) return { error: t('parse.notNumber', { name, text: clipText(typed) }) };
  return { value };
}

// Durations through Intl's units, so each locale words them and their plurals itself ("195 hours",
// "195 heures", "195小时"); in scientific notation, past what the unit formats read well.
const unit = (name, digits) => lazyFormat({ style: 'unit', unit: name, unitDisplay: 'long', maximumSignificantDigits: digits });
const HOURS = unit('hour', 3);
const DAYS = unit('day', 2);
const YEARS = unit('year', 2);

/** `x` of a unit formatter, or in scientific notation with the unit's plural word when huge or tiny. */
function amount(format, x, locale) {
  const text = format.format(x, locale);
  if (!text.includes('×')) return text;
  // lazyFormat gave scientific notation without the unit: add the locale's word for many of it.
  const word = format.format(2, locale).replace(/[\d\s.,\u202f\u00a0]/g, '');
  return `${text} ${word}`;
}

/** A duration in hours as a reader says it: 194.8 -> "195 hours (8.1 days)"; short ones in hours only. */
export function formatHours(hours, locale = 'en') {
  if (!Number.isFinite(hours) || hours < 0) throw new TypeError(`expected a duration, got ${String(hours)}`);
  const h = amount(HOURS, hours, locale);
  if (hours < 48) return h;
  const days = hours / 24;
  if (days < 730) return `${h} (${amount(DAYS, days, locale)})`;
  return `${h} (${amount(YEARS, days / 365.25, locale)})`;
}
