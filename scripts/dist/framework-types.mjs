// dist/npm/types/: each element's attributes typed for the frameworks an author writes pages in,
// generated from custom-elements.json by the field's generators (the manifest stays the one
// description of the elements):
//
//   types/jsx.d.ts      React 19, Preact, Solid (@wc-toolkit/jsx-types): <tb-masks tokens={3} />
//   types/vue.d.ts      Vue templates and Vue JSX (custom-element-vuejs-integration)
//   types/svelte.d.ts   Svelte (custom-element-svelte-integration)
//
// (@wc-toolkit/vuejs-types and svelte-types are not published; these two are their predecessors by
// the same author, the generators @wc-toolkit grew from.)
//
// The generators read an attribute's type from its manifest entry. What the manifest says for a
// reader of HTML is made exact for a type checker first (frameworkManifest): a number attribute
// takes a number or a numeric string ("3", "1e9"); a model takes a preset's name or a config.json's
// text (a string that opens with "{"), so that a misspelt preset fails; each attribute is its own
// field (the elements are configured by attributes alone).

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateJsxTypes } from '@wc-toolkit/jsx-types';
import { generateVuejsTypes } from 'custom-element-vuejs-integration';
import { generateSvelteTypes } from 'custom-element-svelte-integration';

/** An attribute's type for a type checker, from the manifest's type text (see the top). */
export function checkedType(text = 'string') {
  if (text === 'number') return 'number | `${number}`';
  // A preset's name, or a Hugging Face config.json's text (JSON.stringify(config) opens with "{").
  if (/'\s*\|\s*string$/.test(text)) return text.replace(/\|\s*string$/, '| `{${string}`');
  return text;
}

/** A copy of `manifest` whose attributes carry checkedType() and a field of their own name. */
export function frameworkManifest(manifest) {
  const copy = structuredClone(manifest);
  for (const mod of copy.modules ?? []) {
    for (const decl of mod.declarations ?? []) {
      for (const attr of decl.attributes ?? []) {
        attr.type = { text: checkedType(attr.type?.text) };
        attr.fieldName = attr.name;
      }
    }
  }
  return copy;
}

/** The three files into `out`/types/ (dist/npm/types/). */
export function frameworkTypes(manifest, out) {
  const outdir = join(out, 'types');
  mkdirSync(outdir, { recursive: true });
  const quiet = console.log;
  console.log = () => {}; // the generators announce every step
  try {
    generateJsxTypes(frameworkManifest(manifest), { outdir, fileName: 'jsx.d.ts', globalTypePath: '../index.js', useCemTypes: true });
    generateVuejsTypes(frameworkManifest(manifest), { outdir, fileName: 'vue.d.ts', hideLogs: true });
    generateSvelteTypes(frameworkManifest(manifest), { outdir, fileName: 'svelte.d.ts', hideLogs: true });
  } finally {
    console.log = quiet;
  }
  globalSvelteHtml(join(outdir, 'svelte.d.ts'));
}

/**
 * The Svelte file declares `namespace svelteHTML` at its top level, but it exports its types, so it
 * is a module and that namespace its own: Svelte's global one is extended from `declare global`
 * (without it, svelte-check saw no element's attributes at all: tests/types/svelte/).
 */
function globalSvelteHtml(file) {
  const text = readFileSync(file, 'utf8');
  const open = 'declare namespace svelteHTML {';
  const at = text.lastIndexOf(open);
  if (at < 0) throw new Error(`${file}: the generator wrote no svelteHTML namespace to extend`);
  const body = text.slice(at + open.length).replace(/}\s*$/, '');
  writeFileSync(file, `${text.slice(0, at)}declare global {\n  namespace svelteHTML {${body.replace(/\n/g, '\n  ')}}\n}\n`);
}
