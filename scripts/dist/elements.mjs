// The elements the bundles define (every customElements.define under www/src/elements/) and the
// ones the hand-written types declare (www/src/entry-module.d.ts), so make dist can hold them equal.

import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ELEMENTS } from './common.mjs';

/** Every `customElements.define('tb-…', Class)` under www/src/elements/: [{ tag, className, file }]. */
export function scanElements(dir = ELEMENTS) {
  const found = [];
  const walk = (d) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.js')) {
        const text = readFileSync(path, 'utf8');
        for (const m of text.matchAll(/customElements\.define\(\s*(['"])(tb-[a-z0-9-]+)\1\s*,\s*([A-Za-z_$][\w$]*)/g)) {
          found.push({ tag: m[2], className: m[3], file: path });
        }
      }
    }
  };
  walk(dir);
  return found.sort((a, b) => a.tag.localeCompare(b.tag));
}

/** The `'tb-…': Class` entries of HTMLElementTagNameMap in a hand-written .d.ts. */
export function declaredTags(dts) {
  const map = dts.match(/interface\s+HTMLElementTagNameMap\s*\{([^}]*)\}/);
  if (!map) return [];
  return [...map[1].matchAll(/['"](tb-[a-z0-9-]+)['"]\s*:\s*([A-Za-z_$][\w$]*)/g)].map((m) => ({ tag: m[1], className: m[2] }));
}
