// Building SVG without innerHTML (safe under a strict Content-Security-Policy).

const NS = 'http://www.w3.org/2000/svg';

/** An SVG element with attributes and children (arrays of children, nested to any depth, flattened). */
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    el.setAttribute(key, String(value));
  }
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    el.append(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
  }
  return el;
}
