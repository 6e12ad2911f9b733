// Reading attributes that readers and authors type. Pure functions (no DOM, no wasm), unit-tested
// in Node. They only decide whether text is a number; what range is allowed is the library's call.
// Messages in the element's language: `t` its translator (i18n.js), English if none is given.

import { translator } from './i18n.js';

/**
 * A whole number typed as an attribute: { value } or { error } with a message naming the attribute.
 * Blank or absent text gives the fallback.
 */
export function parseWhole(name, text, fallback, tr = translator('en')) {
  if (text === null || text === undefined || String(text).trim() === '') return { value: fallback };
  const t = String(text).trim();
  const using = fallback === null || fallback === undefined ? tr('attr.usingDefault') : tr('attr.using', { value: String(fallback) });
  // Digits, or a whole number in exponent form ("1e3"). A huge one goes on: the library says how large it may be.
  if (/^[+]?\d+$/.test(t)) return { value: Number(t) };
  if (/^[+]?(\d+\.?\d*|\.\d+)e[+]?\d+$/i.test(t)) {
    const value = Number(t);
    if (value === Infinity) return { value: fallback, error: tr('attr.tooLarge', { name, text: clipText(t), using }) };
    if (Number.isInteger(value)) return { value };
  }
  return { value: fallback, error: tr('attr.notWhole', { name, text: clipText(t), using }) };
}

/** Text a reader or an author typed, short enough to echo in a message: 40 characters at most, "…" after a cut. */
export function clipText(text, max = 40) {
  const chars = [...String(text)];
  return chars.length <= max ? chars.join('') : `${chars.slice(0, max - 1).join('')}…`;
}

/** A comma- or space-separated list of numbers: { value } or { error }. */
export function parseNumberList(name, text, fallback, tr = translator('en')) {
  if (text === null || text === undefined || String(text).trim() === '') return { value: fallback };
  const parts = String(text).split(/[\s,]+/).filter(Boolean);
  const values = parts.map(Number);
  const bad = parts.find((p, i) => !Number.isFinite(values[i]));
  if (bad !== undefined) {
    return { value: fallback, error: tr('attr.notNumber', { name, text: clipText(bad) }) };
  }
  return { value: values };
}
