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
//   pkg/checkpoint-worker.js  a real checkpoint's worker, started when a widget opens one (weights-src,
//                          or the reader's), with the engine it fetches, pkg/checkpoint*_bg.wasm
//                          (folder-workers.mjs)
//
// Every URL is relative to the module that holds it, so the folder works from any path of any site.

import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';
import { PKG, SRC, TARGET, fail } from './common.mjs';
import { build, trainingWorker } from './bundle.mjs';
import { CHECKPOINT_WASM, CHECKPOINT_WORKER, FOLDER_WORKER_PLUGINS, TRAIN_WORKER, checkWorkerStarters, checkpointThreadsFiles, checkpointWorker } from './folder-workers.mjs';

/** The autoloader's most (gzip): it is the one request every page makes. */
export const AUTOLOADER_BUDGET_GZIP = 10 * 1024;
/** Each build of the wasm (www/src/wasm.js: FACADES): its wasm-bindgen glue and wasm, in pkg/. */
const FACADE_FILES = Object.fromEntries(
  Object.entries({ analytic: 'analytic', model: 'model', full: 'transformer_block' }).map(([need, f]) => [need, { glue: `pkg/${f}.js`, wasm: `pkg/${f}_bg.wasm` }]),
);
const PKG_FILES = Object.values(FACADE_FILES).flatMap(({ glue, wasm }) => [glue, wasm].map((f) => f.slice('pkg/'.length)));

/**
 * Each element's module (elements/NAME.js) and the chunks they share, written into `out`: with the
 * wasm fetched from ../pkg/ (`servedWasm`, the folder) or inlined in a chunk (the npm package's
 * per-element imports, for bundlers). `pages`: more entries built with them, sharing their chunks
 * ({ 'pages/NAME': file }, one folder down as the elements are: the deployable site's page scripts,
 * scripts/site.mjs). Returns esbuild's result (outputFiles, metafile).
 */
export async function elementModules(elements, out, { servedWasm, banner, pages = {} }) {
  const entries = {
    ...Object.fromEntries([...new Set(elements.map((e) => e.file))].map((f) => [`elements/${basename(f, '.js')}`, f])),
    ...pages,
  };
  for (const name of Object.keys(pages)) if (name.split('/').length !== 2) fail(`a page's module must be one folder down, as the elements are: ${name}`);
  const result = await build({
    servedWasm,
    entryPoints: entries,
    splitting: true,
    format: 'esm',
    minify: true,
    outdir: out,
    chunkNames: 'chunks/[name]-[hash]',
    banner: { js: banner },
    metafile: true,
    plugins: servedWasm ? FOLDER_WORKER_PLUGINS : [],
  });
  for (const file of result.outputFiles) {
    mkdirSync(dirname(file.path), { recursive: true });
    writeFileSync(file.path, file.contents);
  }
  return result;
}

/**
 * The chunks each element module imports, directly or through another, by static imports: what the
 * autoloader preloads beside the module ({ 'elements/NAME.js': ['chunks/…', …] }, paths in `out`).
 */
function staticChunks(metafile, out) {
  const outputs = Object.fromEntries(Object.entries(metafile.outputs).map(([path, o]) => [resolve(path), o]));
  const closure = (path, seen = new Set()) => {
    for (const imported of outputs[path]?.imports ?? []) {
      const to = resolve(imported.path);
      if (imported.kind !== 'import-statement' || seen.has(to)) continue;
      seen.add(to);
      closure(to, seen);
    }
    return seen;
  };
  const at = (path) => relative(out, path).split(sep).join('/');
  return Object.fromEntries(
    Object.keys(outputs)
      .filter((path) => at(path).startsWith('elements/'))
      .map((path) => [at(path), [...closure(path)].map(at).sort()]),
  );
}

/** The output (its path in `out`) that holds the source file `source` (absolute), from esbuild's metafile. */
function outputHolding(metafile, out, source) {
  const input = relative(process.cwd(), source).split(sep).join('/');
  const found = Object.entries(metafile.outputs).find(([, o]) => input in o.inputs);
  if (!found) fail(`no module of the folder holds ${input}`);
  return relative(out, resolve(found[0])).split(sep).join('/');
}

/**
 * Writes the folder into `out` (dist.partial/transformer-block/), for `elements` (scanElements).
 * `pages`: page scripts built with the elements (elementModules). Returns { tags: { tag:
 * 'elements/NAME.js' }, autoloaderGzip, baseChunk } (baseChunk: the chunk that holds TbElement,
 * www/src/elements/base.js, for the folder's manifest).
 */
export async function buildFolder(elements, out, banner, { pages } = {}) {
  const { outputFiles: outputs, metafile } = await elementModules(elements, out, { servedWasm: true, banner, pages });
  checkWorkerStarters(outputs, out);
  writeFileSync(join(out, TRAIN_WORKER), await trainingWorker());
  mkdirSync(join(out, 'pkg'), { recursive: true });
  for (const f of [...PKG_FILES, ...CHECKPOINT_WASM, ...checkpointThreadsFiles()]) {
    mkdirSync(dirname(join(out, 'pkg', f)), { recursive: true });
    copyFileSync(join(PKG, f), join(out, 'pkg', f));
  }
  writeFileSync(join(out, CHECKPOINT_WORKER), await checkpointWorker());

  const tags = Object.fromEntries(elements.map((e) => [e.tag, `elements/${basename(e.file)}`]));
  const chunks = staticChunks(metafile, out);
  const folder = {
    elements: Object.fromEntries(elements.map((e) => [e.tag, { module: tags[e.tag], need: e.need, chunks: chunks[tags[e.tag]] }])),
    facades: FACADE_FILES,
  };
  for (const [tag, { module, chunks: list }] of Object.entries(folder.elements)) if (!list) fail(`esbuild wrote no ${module} for <${tag}>`);
  const loader = await esbuild.build({
    entryPoints: [join(SRC, 'autoloader.js')],
    bundle: true,
    write: false,
    format: 'esm',
    minify: true,
    target: TARGET,
    define: { __TB_FOLDER__: JSON.stringify(folder) },
    banner: { js: banner },
    logLevel: 'warning',
  });
  const js = loader.outputFiles[0].contents;
  const gzip = gzipSync(js).length;
  if (gzip > AUTOLOADER_BUDGET_GZIP) fail(`autoloader.js is ${gzip} bytes gzipped, over its ${AUTOLOADER_BUDGET_GZIP}`);
  writeFileSync(join(out, 'autoloader.js'), js);
  return { tags, autoloaderGzip: gzip, baseChunk: outputHolding(metafile, out, join(SRC, 'elements', 'base.js')) };
}
