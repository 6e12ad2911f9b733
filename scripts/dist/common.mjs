// What the steps of `make dist` share (scripts/build-dist.mjs and scripts/dist/): where things
// are, the browsers the bundles target, and how a step fails.

import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const WWW = join(ROOT, 'www');
export const SRC = join(WWW, 'src');
export const ELEMENTS = join(SRC, 'elements');
export const PKG = join(WWW, 'pkg');
export const DIST = join(ROOT, 'dist');

/** Browsers with constructable stylesheets and ES2022 classes (private fields, static blocks). */
export const TARGET = ['es2022', 'chrome111', 'firefox113', 'safari16.4'];
/** The name of the offline lesson; the served page links to it ("Download this lesson"). */
export const LESSON_FILE = 'transformer-block-lesson.html';

/**
 * The lesson's editions: each page under www/ and the offline file make dist builds from it (in
 * dist/, and copied into www/ beside the pages for their download links). The French one exists
 * once www/fr/index.html does. An edition in another language than the English page's is written
 * from that page and its prose file (`lang`, `prose`; `up`: how its relative URLs climb back to
 * www/): scripts/lesson-edition.mjs.
 */
export const EDITIONS = [
  { page: 'index.html', file: LESSON_FILE },
  { page: 'fr/index.html', file: 'transformer-block-lesson-fr.html', lang: 'fr', prose: 'fr/prose.json', up: '../' },
];

/** A build step's refusal: its message is the whole report (no stack). */
export class BuildError extends Error {}
export const fail = (message) => {
  throw new BuildError(message);
};

/**
 * The threads build's pool worker in a pkg/ folder (`pkg`: target/threads/pkg or www/pkg):
 * wasm-bindgen-rayon's helper, in a folder named by its hash, as a path under `pkg`.
 */
export function poolWorkerHelper(pkg) {
  const rayon = readdirSync(join(pkg, 'snippets')).filter((d) => d.startsWith('wasm-bindgen-rayon-'));
  if (rayon.length !== 1) fail(`${join(pkg, 'snippets')} holds ${rayon.length} wasm-bindgen-rayon folders, not one: run \`make wasm\` again`);
  return join('snippets', rayon[0], 'src', 'workerHelpers.no-bundler.js');
}
