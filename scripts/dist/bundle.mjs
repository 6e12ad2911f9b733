// Bundling with esbuild: the wasm and the training worker inlined into the bundles (or the wasm
// fetched from beside them, for the folder build), the page's inline modules, and the entries of
// the one-tag script and the npm module.

import * as esbuild from 'esbuild';
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { spawnSync } from 'node:child_process';
import { ELEMENTS, PKG, SRC, TARGET, WWW, fail } from './common.mjs';
import { inlineScriptProblem } from './lesson-page.mjs';

/**
 * esbuild plugin `name`: the module `served` (a file of www/src/, whoever imports it) becomes the
 * JavaScript `contents()` returns, resolved from the same folder.
 */
export function replaced(name, served, contents) {
  const file = basename(served).replace(/[.]/g, '\\.');
  return {
    name,
    setup(build) {
      build.onResolve({ filter: new RegExp(`(^|/)${file}$`) }, (args) =>
        resolve(args.resolveDir, args.path) === served ? { path: served, namespace: name } : undefined,
      );
      build.onLoad({ filter: /.*/, namespace: name }, async () => ({ resolveDir: dirname(served), loader: 'js', contents: await contents() }));
    },
  };
}

/**
 * esbuild plugin: www/src/wasm.js becomes a loader of the wasm inlined in the bundle. The served
 * wasm.js fetches the .wasm beside the glue; a bundle has nothing beside it. The bytes go in
 * xz-compressed (`xz -9e`, 15% smaller than zopfli's gzip: 230,968 bytes against ~271,600 for the
 * 622 KB wasm) and then base64-encoded, and are unpacked at load by xz-decompress (xz-embedded
 * compiled to a 9 KB wasm of its own, which imports nothing; DecompressionStream knows gzip and
 * deflate only): a gzipped page then costs about the compressed wasm, where base64 of the raw wasm
 * would cost a third more. The served wasm.js's exports, for one module: the bundle carries the
 * whole facade (both halves in one module cost it 84 KB less than the two the served page fetches),
 * so `wasm` is the whole facade and `library(need)`, `fullLibrary()` and `fullModule()` return it and its compiled
 * module. Besides them, `wasmModule`, the compiled module's promise, which the npm package has
 * always exported.
 */
const inlineWasm = replaced('inline-wasm', join(SRC, 'wasm.js'), () => {
  const packed = packedWasm();
  return `
        import init, * as lib from '../pkg/transformer_block.js';
        import { XzReadableStream } from 'xz-decompress';
        // A task of its own for each 64 KB the decoder writes (it runs on this thread, ~4 ms a
        // chunk at full speed, ~16 ms at 4x throttling): the whole unpacking would be one long task.
        import { nextTask } from './next-task.js';
        const PACKED = ${JSON.stringify(packed.base64)};
        const SIZE = ${packed.size};
        // Read chunk by chunk, not through a Response: a Response turns the decoder's own error (a
        // policy that refuses WebAssembly, say) into a bare "Failed to fetch".
        function bytesOf(text) {
          const bytes = new Uint8Array(text.length);
          for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
          return bytes;
        }
        async function inflate() {
          // Base64 to bytes: natively where the browser can (Uint8Array.fromBase64), else a plain
          // loop over atob's string (Uint8Array.from with a function per byte took 117 ms at 4x).
          const xz = Uint8Array.fromBase64?.(PACKED) ?? bytesOf(atob(PACKED));
          const reader = new XzReadableStream(new Blob([xz]).stream()).getReader();
          const bytes = new Uint8Array(SIZE);
          let at = 0;
          for (let r = await reader.read(); !r.done; r = await reader.read()) {
            if (at + r.value.length > SIZE) break;
            bytes.set(r.value, at);
            at += r.value.length;
            await nextTask();
          }
          if (at !== SIZE) throw new Error('the inlined wasm is damaged: it unpacks to the wrong size');
          return bytes;
        }
        const explain = (err) => {
          const csp = /Content.Security.Policy|CompileError.*(eval|disallowed)|call to WebAssembly/i.test(String(err))
            ? " The page's Content-Security-Policy must allow it: script-src 'wasm-unsafe-eval'."
            : '';
          return new Error('could not instantiate the WebAssembly module (' + err.message + ').' + csp, { cause: err });
        };
        // Made when first asked for (then, catch or finally), and at once on a page: imported
        // where there is no document (Node, a site's build), the module unpacks and compiles nothing.
        const lazy = (make) => {
          let made = null;
          const promise = () => (made ??= make());
          return { then: (a, b) => promise().then(a, b), catch: (b) => promise().catch(b), finally: (f) => promise().finally(f) };
        };
        export const wasmModule = lazy(() => {
          const compiled = inflate().then((bytes) => WebAssembly.compile(bytes)).catch((err) => { throw explain(err); });
          compiled.catch(() => {});
          return compiled;
        });
        export const wasm = lazy(() => Promise.resolve(wasmModule).then((module) => init({ module_or_path: module })).then(() => lib, (err) => {
          throw err.message.startsWith('could not instantiate') ? err : explain(err);
        }));
        if (typeof document !== 'undefined') wasm.catch(() => {});
        export const fullModule = () => wasmModule;
        export const fullLibrary = () => wasm;
        export const library = () => wasm;
      `;
});

let packed; // the wasm xz-compressed in base64, and its size: made once per run of this script

/**
 * The facade's wasm as xz (`xz -9e`, a CRC32 check: 4 bytes where CRC64's are 8) in base64. The
 * dictionary is the wasm's own size, not -9e's 64 MiB: the decoder allocates what the header names
 * (its memory grew to 64.5 MiB for -9e's header, 1.5 MiB for this one), and a phone should not be
 * asked for 64 MiB to unpack 0.6 MB.
 */
function packedWasm() {
  if (packed) return packed;
  const wasm = readFileSync(join(PKG, 'transformer_block_bg.wasm'));
  const dict = Math.max(4096, wasm.length);
  const run = spawnSync('xz', ['--format=xz', '--check=crc32', `--lzma2=preset=9e,dict=${dict}`, '--stdout'], { input: wasm, maxBuffer: 1 << 26 });
  if (run.error || run.status !== 0) {
    fail(`xz could not compress the wasm (${run.error?.message ?? String(run.stderr).trim()}): install xz-utils (scripts/setup.sh does)`);
  }
  packed = { base64: run.stdout.toString('base64'), size: wasm.length };
  return packed;
}

/**
 * esbuild plugin: www/src/train/worker-url.js (which starts the training worker from the module file
 * beside it) becomes a starter of the worker bundled into the script: `workerSource` is the worker
 * (www/src/train/worker.js with the wasm-bindgen glue, one classic script, no wasm: the page posts
 * its compiled module), started from a blob: URL. A Content-Security-Policy must allow that
 * (`worker-src blob:`); where it does not, the page trains on the main thread instead.
 */
function inlineWorker(workerSource) {
  return replaced('inline-worker', join(SRC, 'train', 'worker-url.js'), () => `
          const SOURCE = ${JSON.stringify(workerSource)};
          export function createWorker() {
            const url = URL.createObjectURL(new Blob([SOURCE], { type: 'text/javascript' }));
            const worker = new Worker(url, { name: 'tb-training' });
            const revoke = () => URL.revokeObjectURL(url);
            worker.addEventListener('message', revoke, { once: true });
            worker.addEventListener('error', revoke, { once: true });
            return worker;
          }
        `);
}

/** The training worker as one classic script (workerBundle), built once per run of make dist. */
export async function trainingWorker() {
  worker ??= await workerBundle();
  return worker;
}

/**
 * esbuild plugin: what runs a real checkpoint stays out of the bundles. Its worker fetches its own
 * wasm (www/pkg/checkpoint*, with the tokenizer: 0.8 MB gzipped) from beside it; a one-script
 * bundle or the offline lesson has nothing beside it. So the modules that start it become
 * stand-ins that name the problem: www/src/elements/checkpoint-attention.js,
 * checkpoint-experiment.js and checkpoint-sampling.js (the widget then runs TinyGPT, as for any
 * checkpoint it cannot open) and
 * www/src/checkpoint/yours.js (the reader's dropped checkpoint is refused in the panel, and the
 * model shown stays). The checkpoint client, its worker and the real model's views are not bundled.
 */

/**
 * A real model's view (named `view`, in www/src/elements/`file`) that says why it shows nothing
 * here. Its stylesheet `css` is the real view's text, read from its module at build time: a few
 * hundred bytes that keep a widget's sheets the same in every build, so the renderer in Node (which
 * loads the npm bundle) writes what Chromium's prerender of the served page writes.
 */
const viewStandIn = (file, view, css) => async () => {
  const real = await import(pathToFileURL(join(SRC, 'elements', file)).href);
  return `
  export const ${css} = ${JSON.stringify(real[css])};
  export function ${view}(element) {
    return {
      leave() {},
      loading: () => false,
      render() {
        element.warn(element.t('checkpoint.servedOnly'));
        return null;
      },
    };
  }
`;
};
const STAND_INS = {
  [join(SRC, 'elements', 'checkpoint-attention.js')]: viewStandIn('checkpoint-attention.js', 'checkpointAttention', 'CHECKPOINT_ATTENTION_CSS'),
  [join(SRC, 'elements', 'checkpoint-experiment.js')]: viewStandIn('checkpoint-experiment.js', 'checkpointExperiment', 'CHECKPOINT_EXPERIMENT_CSS'),
  [join(SRC, 'elements', 'checkpoint-sampling.js')]: viewStandIn('checkpoint-sampling.js', 'checkpointSampling', 'CHECKPOINT_SAMPLING_CSS'),
  [join(SRC, 'checkpoint', 'yours.js')]: () => `
    export function openYours() {
      const problem = Object.assign(new Error('a Hugging Face checkpoint does not run in this one-file build'), { word: (t) => t('checkpoint.servedOnlyFiles') });
      return { c: { state: 'error', problem, bars: new Set() }, hold() {}, drop() {} };
    }
  `,
};
/**
 * The checkpoint catalogs' keys a bundle shows: the stand-ins' and the sampling view's. The others
 * word the real model's views and the checkpoint worker's problems, which no bundle carries; each
 * language's locales/LANG/checkpoint.js is bundled with these alone (and build() fails when the
 * bundled code names another).
 */
const BUNDLED_CHECKPOINT_KEYS = ['checkpoint.servedOnly', 'checkpoint.servedOnlyFiles', 'checkpoint.samplingStop'];

const servedOnly = {
  name: 'served-only',
  setup(build) {
    build.onLoad({ filter: /locales[\\/][^\\/]+[\\/]checkpoint\.js$/ }, async (args) => {
      const { default: all } = await import(pathToFileURL(args.path).href);
      const kept = Object.fromEntries(BUNDLED_CHECKPOINT_KEYS.map((k) => [k, all[k]]));
      return { loader: 'js', contents: `export default ${JSON.stringify(kept)};` };
    });
    build.onResolve({ filter: /(^|\/)(checkpoint-attention|checkpoint-experiment|checkpoint-sampling|yours)\.js$/ }, (args) => {
      const path = resolve(args.resolveDir, args.path);
      return STAND_INS[path] === undefined ? undefined : { path, namespace: 'served-only' };
    });
    build.onLoad({ filter: /.*/, namespace: 'served-only' }, async (args) => ({ loader: 'js', contents: await STAND_INS[args.path]() }));
  },
};

/** The training worker as one classic script (glue and loop; the wasm comes from the page). */
async function workerBundle() {
  const result = await esbuild.build({
    ...COMMON,
    entryPoints: [join(SRC, 'train', 'worker.js')],
    format: 'iife',
    minify: true,
  });
  const js = result.outputFiles[0].text;
  const problem = inlineScriptProblem(js);
  if (problem) fail(`the training worker cannot be inlined: ${problem}`);
  return js;
}

/** A plugin that serves inline module scripts of the page as virtual modules `page-inline:N`. */
export function inlineModules(codes) {
  return {
    name: 'page-inline-modules',
    setup(build) {
      build.onResolve({ filter: /^page-inline:\d+$/ }, (args) => ({ path: args.path, namespace: 'page-inline' }));
      build.onLoad({ filter: /.*/, namespace: 'page-inline' }, (args) => ({
        contents: codes[Number(args.path.split(':')[1])],
        resolveDir: WWW,
        loader: 'js',
      }));
    },
  };
}

const COMMON = {
  bundle: true,
  write: false,
  target: TARGET,
  platform: 'browser',
  charset: 'utf8',
  // The licence notices of what is bundled (xz-decompress's, for the xz decoder) at the end.
  legalComments: 'eof',
  loader: { '.wasm': 'binary' },
  // The glue's default path, new URL('…_bg.wasm', import.meta.url), is never taken: the bytes are passed.
  logOverride: { 'empty-import-meta': 'silent' },
  define: { 'import.meta.url': 'undefined' },
  logLevel: 'warning',
};

/**
 * esbuild plugin for a file in one language (the offline lesson): the catalogs of www/src/locales/
 * other than English and `lang`'s become empty, so the file carries only what its page speaks (a
 * widget switched to another language there falls back to English, as for any language without a
 * catalog). The one-tag script and the npm module keep every catalog.
 */
export function onlyLanguage(lang) {
  const locales = join(SRC, 'locales');
  return {
    name: 'only-language',
    setup(build) {
      build.onResolve({ filter: /locales\/[^/]+\/index\.js$/ }, (args) => {
        const path = resolve(args.resolveDir, args.path);
        const tag = path.slice(locales.length + 1, -'/index.js'.length);
        if (!path.startsWith(locales + sep) || tag === 'en' || tag === lang) return undefined;
        return { path, namespace: 'dropped-language' };
      });
      build.onLoad({ filter: /.*/, namespace: 'dropped-language' }, () => ({ contents: 'export default {};', loader: 'js' }));
    },
  };
}

let worker; // the training worker's source, built once per run of this script

/**
 * esbuild plugin: xz-decompress's UMD header without its AMD branch, `define(["stream/web"], …)`.
 * esbuild takes the CommonJS branch and leaves the AMD one in the bundle, where a site's bundler
 * that reads AMD (Next.js's Turbopack) tried to resolve "stream/web" and failed the site's build
 * ("Module not found"; checked by hand with Next.js 16.5, docs/hosts.md).
 */
const withoutAmd = {
  name: 'xz-decompress-without-amd',
  setup(build) {
    build.onLoad({ filter: /xz-decompress[\\/]dist[\\/]package[\\/]xz-decompress\.js$/ }, async (args) => {
      const text = readFileSync(args.path, 'utf8');
      const amd = /else if\s*\(typeof define === 'function' && define\.amd\)\s*define\(\["stream\/web"\], factory\);/;
      if (!amd.test(text)) fail(`${args.path}: its UMD header changed; look again at the withoutAmd plugin (scripts/dist/bundle.mjs)`);
      return { loader: 'js', contents: text.replace(amd, '') };
    });
  },
};

/**
 * One bundle: `options` are esbuild's. `servedWasm`: www/src/wasm.js stays as it is, fetching the
 * wasm from ../pkg/ beside the module that carries it (the folder build, scripts/dist/folder.mjs),
 * instead of the wasm inlined.
 */
export async function build({ servedWasm = false, ...options }) {
  worker ??= await workerBundle();
  // The folder (servedWasm) fetches its wasm and starts its workers from files beside its modules
  // (folder-workers.mjs gives the plugins); the bundles carry both, and no real checkpoint.
  const plugins = [withoutAmd, ...(servedWasm ? [] : [inlineWasm, inlineWorker(worker), servedOnly]), ...(options.plugins ?? [])];
  const common = servedWasm ? { ...COMMON, define: {}, logOverride: {} } : COMMON;
  const result = await esbuild.build({ ...common, ...options, plugins });
  for (const file of servedWasm ? [] : (result.outputFiles ?? [])) {
    for (const [, key] of file.text.matchAll(/["'`](checkpoint\.[A-Za-z]+)["'`]/g)) {
      if (!BUNDLED_CHECKPOINT_KEYS.includes(key)) fail(`bundled code shows ${key}, which the bundles' catalogs leave out: add it to BUNDLED_CHECKPOINT_KEYS (scripts/dist/bundle.mjs)`);
    }
  }
  return result;
}

/** The element entry: www/src/entry-embed.js, or (until elements/index.js exists) every element file. */
export function elementsEntry(elements) {
  if (existsSync(join(ELEMENTS, 'index.js'))) return { entryPoints: [join(SRC, 'entry-embed.js')] };
  console.warn('build-dist: warning: www/src/elements/index.js does not exist yet; bundling every element file instead');
  const files = [...new Set(elements.map((e) => e.file))];
  return {
    stdin: {
      contents: files.map((f) => `import './${relative(SRC, f).split(sep).join('/')}';`).join('\n'),
      resolveDir: SRC,
      sourcefile: 'entry-embed (generated)',
    },
  };
}

/** The module entry: www/src/entry-module.js (its element list is checked against the scan below). */
export function moduleEntry() {
  return { entryPoints: [join(SRC, 'entry-module.js')] };
}
