// The folder's workers (dist/transformer-block/, folder.mjs): files of the site beside its modules,
// which a Content-Security-Policy allows with script-src 'self' (no blob:), started from the modules
// one level down (elements/, chunks/), so ../ is the folder.
//
//   train-worker.js              the training worker (the classic script the bundles inline)
//   pkg/checkpoint-worker.js     a real checkpoint's worker (www/src/checkpoint/worker.js and the
//                                engine's glue, one module), beside the engine's builds it fetches:
//                                pkg/checkpoint_bg.wasm, pkg/checkpoint-relaxed_bg.wasm, and the
//                                threads build with its own glue and its pool's worker
//                                (pkg/checkpoint-threads.js, _bg.wasm, snippets/wasm-bindgen-rayon-*/)
//
//   esbuild.build({ …, plugins: FOLDER_WORKER_PLUGINS })   // the element modules start them
//   writeFileSync(…/pkg/checkpoint-worker.js, await checkpointWorker())

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { PKG, SRC, TARGET, fail, poolWorkerHelper } from './common.mjs';
import { replaced } from './bundle.mjs';

/** Where the folder keeps each worker, from the folder. */
export const TRAIN_WORKER = 'train-worker.js';
export const CHECKPOINT_WORKER = 'pkg/checkpoint-worker.js';
/** The engine's builds the checkpoint worker fetches from beside itself (www/pkg/). */
export const CHECKPOINT_WASM = ['checkpoint_bg.wasm', 'checkpoint-relaxed_bg.wasm'];

/**
 * The threads build's files, from www/pkg/: its glue, its wasm, and the worker its pool starts
 * (wasm-bindgen-rayon's, in a folder named by its hash), as paths under pkg/.
 */
export function checkpointThreadsFiles() {
  return ['checkpoint-threads.js', 'checkpoint-threads_bg.wasm', poolWorkerHelper(PKG)];
}

/** www/src/train/worker-url.js: the training worker from the folder's file. */
const trainWorker = replaced(
  'folder-worker',
  join(SRC, 'train', 'worker-url.js'),
  () => `export function createWorker() { return new Worker(new URL('../${TRAIN_WORKER}', import.meta.url), { name: 'tb-training' }); }`,
);

/** www/src/checkpoint/worker-url.js: the checkpoint worker from the folder's file (null where workers cannot start). */
const checkpointWorkerStarter = replaced(
  'folder-checkpoint-worker',
  join(SRC, 'checkpoint', 'worker-url.js'),
  () => `export function createCheckpointWorker() {
    if (typeof Worker !== 'function') return null;
    try {
      return new Worker(new URL('../${CHECKPOINT_WORKER}', import.meta.url), { type: 'module', name: 'tb-checkpoint' });
    } catch {
      return null;
    }
  }`,
);

/** The plugins the folder's element modules are built with. */
export const FOLDER_WORKER_PLUGINS = [trainWorker, checkpointWorkerStarter];

/**
 * Fails unless every module that starts a worker is one folder down (`outputs`: esbuild's output
 * files, `out`: the folder), where ../ is the folder.
 */
export function checkWorkerStarters(outputs, out) {
  for (const file of outputs) {
    const at = file.path.slice(out.length + 1);
    const text = new TextDecoder().decode(file.contents);
    for (const worker of [TRAIN_WORKER, CHECKPOINT_WORKER]) {
      if (at.split('/').length !== 2 && text.includes(worker)) fail(`${at} starts ../${worker} but is not one folder down`);
    }
  }
}

/**
 * The checkpoint worker as one ES module for the folder's pkg/: www/src/checkpoint/worker.js with
 * what it imports, the engine's glue included, so that the glue's own URL for the SIMD128 build
 * (checkpoint_bg.wasm beside it) is right, and the relaxed build's and the threads build's glue,
 * written from www/src/ as ../../pkg/, made beside it too.
 */
export async function checkpointWorker() {
  const WORKER = join(SRC, 'checkpoint', 'worker.js');
  const FROM_SRC = ["'../../pkg/checkpoint-relaxed_bg.wasm'", "'../../pkg/checkpoint-threads.js'"];
  const result = await esbuild.build({
    entryPoints: [WORKER],
    bundle: true,
    write: false,
    format: 'esm',
    minify: true,
    target: TARGET,
    logLevel: 'warning',
    plugins: [
      {
        name: 'relaxed-beside',
        setup(build) {
          build.onLoad({ filter: /[\\/]checkpoint[\\/]worker\.js$/ }, async (args) => {
            let source = await readFile(args.path, 'utf8');
            for (const from of FROM_SRC) {
              if (!source.includes(from)) fail(`www/src/checkpoint/worker.js no longer fetches ${from}: update scripts/dist/folder-workers.mjs`);
              source = source.replace(from, from.replace('../../pkg/', './'));
            }
            return { loader: 'js', contents: source };
          });
        },
      },
    ],
  });
  return result.outputFiles[0].contents;
}
