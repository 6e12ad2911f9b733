// Writes the CatalogKey union of www/src/entry-module.d.ts from the English catalog's keys, in its
// order (tests/unit/i18n.test.js checks they agree). Run it after adding or removing a key:
//
//   node scripts/catalog-keys.mjs

import { readFileSync, writeFileSync } from 'node:fs';
import en from '../www/src/locales/en/index.js';

const file = new URL('../www/src/entry-module.d.ts', import.meta.url);
const dts = readFileSync(file, 'utf8');
const start = dts.indexOf('export type CatalogKey =');
const end = dts.indexOf(';', start);
const union = `export type CatalogKey =\n${Object.keys(en).map((k) => `  | '${k}'`).join('\n')}`;
writeFileSync(file, dts.slice(0, start) + union + dts.slice(end));
console.log(`CatalogKey: ${Object.keys(en).length} keys`);
