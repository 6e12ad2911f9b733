// The static module graph of the lesson page's script, for the preload links in www/index.html
// (tests/unit/preload.test.js checks they match), which its French edition www/fr/index.html has
// too, one folder up (scripts/lesson-edition.mjs writes it from the English page):
//
//   node scripts/module-graph.mjs            print them
//   node scripts/module-graph.mjs --write    write them into the page, in place of the old ones,
//                                            and the editions from it
//
// Imports are found by a plain pattern over the source (our modules import with string literals only).

import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeEditions } from './lesson-edition.mjs';

export const WWW = fileURLToPath(new URL('../www/', import.meta.url));

/** Every module `entry` (a path under www/) imports, directly or not, itself included: paths relative to www/, dependencies first. */
export function moduleGraph(entry = 'src/main.js') {
  const seen = new Set();
  const order = [];
  const walk = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    const source = readFileSync(file, 'utf8');
    for (const m of source.matchAll(/^\s*(?:import|export)\s(?:[^'";]*?\sfrom\s)?['"](\.{1,2}\/[^'"]+)['"]/gm)) {
      walk(resolve(dirname(file), m[1]));
    }
    order.push(relative(WWW, file));
  };
  walk(resolve(WWW, entry));
  return order;
}

/**
 * The <link> lines www/index.html carries: every module, and the wasm-bindgen glue and the wasm of
 * the facade's analytic half (the whole facade is fetched when a widget runs TinyGPT: src/wasm.js).
 */
export function preloadLinks() {
  return [
    ...moduleGraph().map((path) => `<link rel="modulepreload" href="${path}" data-online-only>`),
    '<link rel="modulepreload" href="pkg/analytic.js" data-online-only>',
    '<link rel="preload" href="pkg/analytic_bg.wasm" as="fetch" crossorigin data-online-only>',
  ];
}

/** `html` with its run of preload links replaced by `links`, one a line, indented as the first was. */
export function withPreloadLinks(html, links) {
  const run = /^([ \t]*)<link rel="(?:module)?preload"[^>]*>(?:\n[ \t]*<link rel="(?:module)?preload"[^>]*>)*$/m.exec(html);
  if (!run) throw new Error('no preload links to replace');
  return html.slice(0, run.index) + links.map((l) => `${run[1]}${l}`).join('\n') + html.slice(run.index + run[0].length);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--write')) {
    const path = resolve(WWW, 'index.html');
    writeFileSync(path, withPreloadLinks(readFileSync(path, 'utf8'), preloadLinks()));
    console.log(`module-graph: ${preloadLinks().length} links in www/index.html`);
    writeEditions();
  } else console.log(preloadLinks().map((l) => `  ${l}`).join('\n'));
}
