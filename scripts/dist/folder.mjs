// dist/transformer-block/: the folder an author copies beside a course's pages, loaded by one tag,
// <script type="module" src="…/transformer-block/autoloader.js">, which imports only the modules of
// the elements a page has (www/src/autoloader.js):
//
//   autoloader.js          the one tag: finds <tb-…> elements, imports elements/NAME.js for each
//   elements/NAME.js       an element's module (NAME: its file under www/src/elements/)
//   chunks/*.js            what the elements share (base.js, the catalogs, the charts, …), and each
//                          language's catalog but English, fetched when a `lang` asks for it
//   pkg/analytic*          the wasm's analytic half, fetched by the first analytic widget
//   pkg/model*             TinyGPT read (no analytic model), fetched by a widget that only reads it
//   pkg/transformer_block* the whole facade, fetched by the first widget that trains or experiments
//                          (wasm.js: library)
//   train-worker.js        the training worker (one classic script), started when a widget trains
//
// Every URL is relative to the module that holds it, so the folder works from any path of any site.
// What runs a real checkpoint stays out, as in the one-file bundles (bundle.mjs: served-only).

import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';
import { PKG, SRC, TARGET, fail } from './common.mjs';
import { build, trainingWorker } from './bundle.mjs';

/** The autoloader's most (gzip): it is the one request every page makes. */
export const AUTOLOADER_BUDGET_GZIP = 10 * 1024;
/** The wasm-bindgen glue and wasm the folder's modules fetch from pkg/. */
const PKG_FILES = ['analytic', 'model', 'transformer_block'].flatMap((f) => [`${f}.js`, `${f}_bg.wasm`]);

/**
 * Each element's module (elements/NAME.js) and the chunks they share, written into `out`: with the
 * wasm fetched from ../pkg/ (`servedWasm`, the folder) or inlined in a chunk (the npm package's
 * per-element imports, for bundlers). Returns esbuild's output files.
 */
export async function elementModules(elements, out, { servedWasm, banner }) {
  const entries = Object.fromEntries([...new Set(elements.map((e) => e.file))].map((f) => [`elements/${basename(f, '.js')}`, f]));
  const result = await build({
    servedWasm,
    entryPoints: entries,
    splitting: true,
    format: 'esm',
    minify: true,
    outdir: out,
    chunkNames: 'chunks/[name]-[hash]',
    banner: { js: banner },
  });
  for (const file of result.outputFiles) {
    mkdirSync(dirname(file.path), { recursive: true });
    writeFileSync(file.path, file.contents);
  }
  return result.outputFiles;
}

/**
 * Writes the folder into `out` (dist.partial/transformer-block/), for `elements` (scanElements).
 * Returns { tags: { tag: 'elements/NAME.js' }, autoloaderGzip }.
 */
export async function buildFolder(elements, out, banner) {
  const outputs = await elementModules(elements, out, { servedWasm: true, banner });
  // The worker is started from ../train-worker.js (bundle.mjs: folder-worker): right only from one level down.
  for (const file of outputs) {
    const at = file.path.slice(out.length + 1);
    if (at.split('/').length !== 2 && new TextDecoder().decode(file.contents).includes('train-worker.js')) fail(`${at} starts ../train-worker.js but is not one folder down`);
  }
  writeFileSync(join(out, 'train-worker.js'), await trainingWorker());
  mkdirSync(join(out, 'pkg'), { recursive: true });
  for (const f of PKG_FILES) copyFileSync(join(PKG, f), join(out, 'pkg', f));

  const tags = Object.fromEntries(elements.map((e) => [e.tag, `elements/${basename(e.file)}`]));
  const loader = await esbuild.build({
    entryPoints: [join(SRC, 'autoloader.js')],
    bundle: true,
    write: false,
    format: 'esm',
    minify: true,
    target: TARGET,
    define: { __TB_ELEMENTS__: JSON.stringify(tags) },
    banner: { js: banner },
    logLevel: 'warning',
  });
  const js = loader.outputFiles[0].contents;
  const gzip = gzipSync(js).length;
  if (gzip > AUTOLOADER_BUDGET_GZIP) fail(`autoloader.js is ${gzip} bytes gzipped, over its ${AUTOLOADER_BUDGET_GZIP}`);
  writeFileSync(join(out, 'autoloader.js'), js);
  return { tags, autoloaderGzip: gzip };
}
