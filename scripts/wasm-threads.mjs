#!/usr/bin/env node
// `make wasm`'s last step: the threads build of the checkpoint facade (built by wasm-pack into
// target/threads/pkg/, optimised by wasm-opt into www/pkg/) gets its glue and its pool's worker
// (wasm-bindgen-rayon's workerHelpers.no-bundler.js) beside it in www/pkg/.
//
//   node scripts/wasm-threads.mjs target/threads/pkg www/pkg
//
// The pool's worker is started from its own URL rather than from a blob: copy of it (as it ships):
// the page's files are all on its own site, and a Content-Security-Policy of script-src 'self'
// (docs/embedding.md's) refuses blob: workers, which left the pool waiting forever. It is started by
// the page where the engine's worker offers that (self.startPoolWorker, www/src/checkpoint/pool.js):
// in Firefox a worker started by a worker now and then hung the engine's worker for good. And it starts the
// engine's glue with the one argument the glue now takes, and listens only in a worker (in Node, where
// a site's build imports the folder's modules, \`self\` is not defined).

import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { poolWorkerHelper } from './dist/common.mjs';

const [from, to] = process.argv.slice(2);
const fail = (message) => {
  console.error(`wasm-threads: ${message}`);
  process.exit(1);
};
if (!from || !to) fail('usage: node scripts/wasm-threads.mjs FROM_PKG TO_PKG');

const BLOB = `      // The script is fetched as a blob so it works even if this script is
      // hosted remotely (e.g. on a CDN). This avoids a cross-origin
      // security error.
      let scriptBlob = await fetch(import.meta.url).then(r => r.blob());
      let url = URL.createObjectURL(scriptBlob);
      const worker = new Worker(url, {`;
const OWN_URL = `      // Started by the page where it offers to (www/src/checkpoint/pool.js: a worker started by a
      // worker could hang Firefox), else from its own URL, on the page's own site (scripts/wasm-threads.mjs).
      const worker = self.startPoolWorker?.(import.meta.url) ?? new Worker(new URL(import.meta.url), {`;
const REVOKE = `      URL.revokeObjectURL(url);\n`;
// The glue's init takes one object now; the two arguments it ships with log a deprecation warning.
const INIT = 'await pkg.default(data.module, data.memory);';
const INIT_OBJECT = 'await pkg.default({ module_or_path: data.module, memory: data.memory });';
// Its listener only in a worker: imported in Node (a site's build imports every module of the folder)
// there is no \`self\`, and the import threw.
const LISTEN = "waitForMsgType(self, 'wasm_bindgen_worker_init').then(";
const LISTEN_IN_WORKER = `if (typeof WorkerGlobalScope === 'function') ${LISTEN}`;

let helper;
try {
  helper = poolWorkerHelper(from);
} catch (err) {
  fail(err.message);
}
const text = readFileSync(join(from, helper), 'utf8').replaceAll('\r\n', '\n'); // it ships with CRLF
if (![BLOB, REVOKE, INIT, LISTEN].every((part) => text.includes(part))) fail(`${helper} no longer starts its workers from a blob: as this script expects; read it again`);

// Only this build's snippets in www/pkg/ (an older wasm-bindgen-rayon's would be copied too).
rmSync(join(to, 'snippets'), { recursive: true, force: true });
mkdirSync(join(to, dirname(helper)), { recursive: true });
writeFileSync(join(to, helper), text.replace(BLOB, OWN_URL).replace(REVOKE, '').replace(INIT, INIT_OBJECT).replace(LISTEN, LISTEN_IN_WORKER));
copyFileSync(join(from, 'checkpoint-threads.js'), join(to, 'checkpoint-threads.js'));
console.log(`wasm-threads: ${to}/checkpoint-threads.js and ${helper}`);
