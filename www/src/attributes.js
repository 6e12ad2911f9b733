// Reading attributes that readers and authors type. Pure functions (no DOM, no wasm), unit-tested
// in Node. They only decide whether text is a number; what range is allowed is the library's call.

/**
 * A whole number typed as an attribute: { value } or { error } with a message naming the attribute.
 * Blank or absent text gives the fallback.
 */
export function parseWhole(name, text, fallback) {
  if (text === null || text === undefined || String(text).trim() === '') return { value: fallback };
  const t = String(text).trim();
  if (!/^[+]?\d+$/.test(t)) {
    return { value: fallback, error: `${name} "${t}" is not a whole number; using ${fallback}` };
  }
  return { value: Number(t) };
}

/** A comma- or space-separated list of numbers: { value } or { error }. */
export function parseNumberList(name, text, fallback) {
  if (text === null || text === undefined || String(text).trim() === '') return { value: fallback };
  const parts = String(text).split(/[\s,]+/).filter(Boolean);
  const values = parts.map(Number);
  const bad = parts.find((p, i) => !Number.isFinite(values[i]));
  if (bad !== undefined) {
    return { value: fallback, error: `${name}: "${bad}" is not a number; write numbers separated by commas` };
  }
  return { value: values };
}
