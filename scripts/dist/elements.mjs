// The elements the bundles define: every customElements.define under www/src/elements/ (make dist
// holds the manifest, manifest.mjs, to them).

import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ELEMENTS } from './common.mjs';

/**
 * Every `customElements.define('tb-…', Class)` under www/src/elements/: [{ tag, className, file,
 * need }], `need` the class's static `needs` (base.js: 'analytic' unless it says 'model' or 'full';
 * attributes that make it 'full' are named in www/src/facade-needs.js).
 */
export function scanElements(dir = ELEMENTS) {
  const found = [];
  const walk = (d) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.js')) {
        const text = readFileSync(path, 'utf8');
        for (const m of text.matchAll(/customElements\.define\(\s*(['"])(tb-[a-z0-9-]+)\1\s*,\s*([A-Za-z_$][\w$]*)/g)) {
          found.push({ tag: m[2], className: m[3], file: path, need: /\n {2}static needs = '(\w+)'/.exec(text)?.[1] ?? 'analytic' });
        }
      }
    }
  };
  walk(dir);
  return found.sort((a, b) => a.tag.localeCompare(b.tag));
}
