// Where a training run happens: in a Web Worker when the page can start one, else on the main thread
// in slices of at most 8 ms (never more than a frame, so scrolling, typing and every other widget
// keep working). Both speak the protocol of loop.js; a widget cannot tell them apart but by `kind`.
//
//   const runner = await trainingRunner();
//   runner.onmessage = (message) => { ... };   // 'started', 'progress', 'finished', 'error', ...
//   runner.post({ type: 'start', id: 1, settings: { steps: 600 } });
//   runner.kind    // 'worker' or 'main-thread'; runner.reason says why there is no worker
//   runner.why     // the same as data, { code, detail } (null for a reason of the browser's own)
//
// Neither the runner nor the worker knows the reader's language: what they report carries a code
// and its values besides its English (`why` on a runner; `code` and `detail` on an error message of
// the worker's own, `fields` on a library error's: loop.js), and the widget words it
// (elements/loss-chart-parts.js: reasonText, messageText).
//
// A worker may be refused: a Content-Security-Policy without `worker-src blob:` (the one-file
// lesson and the one-script embedding start their worker from a blob: URL) or `worker-src 'self'`,
// a browser without module workers for a served page, or a page opened where workers are not
// allowed. Then the main thread trains instead, more slowly.

import { fullLibrary, fullModule } from '../wasm.js';
import { createWorker } from './worker-url.js';
import { trainingLoop } from './loop.js';

/** Milliseconds to wait for a worker to say it is ready before training on the main thread. */
const READY_TIMEOUT = 10_000;

export async function trainingRunner() {
  try {
    return await workerRunner();
  } catch (err) {
    const why = typeof err?.code === 'string' && err.code in WHY ? { code: err.code, detail: err.detail ?? null } : null;
    return mainThreadRunner(err instanceof Error ? err.message : String(err), why);
  }
}

/**
 * The codes a worker start fails with (workerChannel), each with its English for the `what` it
 * names; detail: what the library said, for initFailed. An 'error' message of a started worker has
 * the code workerFailed (detail: the browser's message, or null), or notReady (worker.js).
 */
const WHY = {
  timeout: (what) => `the ${what} did not start in time`,
  refused: (what) => `the page does not allow a ${what}`,
  initFailed: (what, detail) => `the ${what} could not load the model library: ${detail}`,
};

async function workerRunner() {
  const channel = await workerChannel('training worker');
  const runner = { kind: 'worker', reason: null, why: null, onmessage: null, post: channel.post, close: channel.close };
  channel.onmessage = (message) => runner.onmessage?.(message);
  return runner;
}

/**
 * A worker of the page's own (worker.js, its own wasm instance) once it has said it is ready: {
 * post(message, transfer), onmessage, close() }. Rejects, with why, when the page cannot start one.
 */
export async function workerChannel(what = 'worker') {
  const module = await fullModule();
  const worker = createWorker();
  await new Promise((resolve, reject) => {
    // Each failure has a code (and what the library said, for initFailed) besides its English.
    const fail = (code, detail = null) => {
      clearTimeout(timer);
      worker.terminate();
      reject(Object.assign(new Error(WHY[code](what, detail)), { code, detail }));
    };
    const timer = setTimeout(() => fail('timeout'), READY_TIMEOUT);
    worker.onerror = (event) => {
      event.preventDefault();
      fail('refused');
    };
    worker.onmessage = (event) => {
      if (event.data?.type === 'ready') {
        clearTimeout(timer);
        resolve();
      } else if (event.data?.type === 'init-failed') {
        fail('initFailed', event.data.message);
      }
    };
    worker.postMessage({ type: 'init', module });
  });
  const channel = {
    onmessage: null,
    post: (message, transfer) => worker.postMessage(message, transfer ?? []),
    close: () => worker.terminate(),
  };
  worker.onmessage = (event) => channel.onmessage?.(event.data);
  worker.onerror = (event) => {
    event.preventDefault();
    const detail = event.message ?? null;
    channel.onmessage?.({ type: 'error', message: `the ${what} failed: ${detail ?? 'unknown error'}`, code: 'workerFailed', detail });
  };
  return channel;
}

async function mainThreadRunner(reason, why) {
  const lib = await fullLibrary();
  const runner = { kind: 'main-thread', reason, why, onmessage: null, close: () => handle({ type: 'stop' }) };
  // Messages go out asynchronously, as from a worker, so a widget sees the same order of events.
  const handle = trainingLoop(lib, (message) => setTimeout(() => runner.onmessage?.(message), 0), { sliceMs: 8 });
  runner.post = (message) => setTimeout(() => handle(message), 0);
  return runner;
}
