// Where the experiments measure: in one worker for the whole page (train/worker.js, started on first
// need and ended when no widget holds it), else, where the page cannot start a worker, on the main
// thread in slices of at most 8 ms. Either way the protocol of jobs.js; a widget cannot tell them
// apart but by `kind`.
//
//   const measurer = acquireMeasurer();            // one hold per widget; measurer.release() lets go
//   const job = measurer.measure(spec, 'loss', { mode: 'removed', block: 2, onProgress });
//   const { found, info } = await job.done;        // rejects with the library's message
//   job.cancel();                                   // a newer choice replaces it
//   (await measurer.kind)                           // 'worker' or 'main-thread'; measurer.where: a sentence
//   (await measurer.place)                          // { kind, reason }: for a sentence in the reader's language
//
// A model's weights go to the worker once: later jobs on the same model send its key only (and send
// the weights again if the worker has let that model go).

import { fullLibrary } from '../wasm.js';
import { workerChannel } from '../train/runner.js';
import { measureJobs } from './jobs.js';

let shared = null; // { holders, backend: Promise<{ kind, reason, post, close, onmessage }> }
let nextId = 0;

async function startBackend() {
  try {
    const channel = await workerChannel();
    const backend = { kind: 'worker', reason: null, onmessage: null, post: channel.post, close: channel.close };
    channel.onmessage = (message) => backend.onmessage?.(message);
    return backend;
  } catch (err) {
    const lib = await fullLibrary();
    const backend = { kind: 'main-thread', reason: err instanceof Error ? err.message : String(err), onmessage: null, close() {} };
    // Messages go out asynchronously, as from a worker, so a widget sees the same order of events.
    const handle = measureJobs(lib, (message) => setTimeout(() => backend.onmessage?.(message), 0), { sliceMs: 8 });
    backend.post = (message) => setTimeout(() => handle(message), 0);
    return backend;
  }
}

/** The measurements of every widget on the page: acquire per widget, release when it leaves. */
function measurements() {
  if (shared) return shared;
  const jobs = new Map(); // id -> { resolve, reject, onProgress, message }
  const sent = new Set(); // model keys whose weights the backend has had
  const backend = startBackend();
  const state = { holders: 0, backend, jobs, sent };
  backend.then((b) => {
    b.onmessage = (message) => {
      const job = jobs.get(message?.id);
      if (!job) return;
      if (message.type === 'measure-progress') return job.onProgress?.(message.windowsDone, message.windows);
      if (message.type === 'need-model') {
        sent.delete(job.message.spec.key);
        return post(job.message);
      }
      jobs.delete(message.id);
      if (message.type === 'measured') job.resolve({ found: message.found, info: message.info });
      else job.reject(Object.assign(new Error(message.message ?? 'the measurement failed'), { tb: message.tb }));
    };
  });
  const post = (message) => {
    const { spec } = message;
    const light = sent.has(spec.key) ? { ...spec, weights: undefined, parameters: undefined } : spec;
    sent.add(spec.key);
    backend.then((b) => b.post({ ...message, spec: light }));
  };
  state.post = post;
  shared = state;
  return state;
}

export function acquireMeasurer() {
  const m = measurements();
  m.holders++;
  let released = false;
  const mine = new Set();
  return {
    kind: m.backend.then((b) => b.kind),
    /** Where the measuring happens: { kind, reason } (a widget words it in its reader's language). */
    place: m.backend.then((b) => ({ kind: b.kind, reason: b.reason })),
    /** Where the measuring happens, in a sentence for the reader (in English). */
    where: m.backend.then((b) =>
      b.kind === 'worker'
        ? 'Measured in a background worker: the page stays responsive.'
        : `Measured on the page itself, in slices of a few milliseconds (${b.reason}).`,
    ),
    /** Measure `what` ('info', 'loss', 'stream') of the model `spec` describes: { done, cancel }. */
    measure(spec, what, { mode = 'intact', block = 0, onProgress } = {}) {
      const id = ++nextId;
      const message = { type: 'measure', id, spec, what, mode, block };
      const done = new Promise((resolve, reject) => m.jobs.set(id, { resolve, reject, onProgress, message }));
      mine.add(id);
      done.finally(() => mine.delete(id)).catch(() => {});
      m.post(message);
      const cancel = () => {
        if (!m.jobs.delete(id)) return;
        mine.delete(id);
        m.backend.then((b) => b.post({ type: 'cancel', id }));
      };
      return { done, cancel };
    },
    /** This widget is done: its jobs are cancelled, and the worker ends with the last holder. */
    release() {
      if (released) return;
      released = true;
      for (const id of [...mine]) {
        m.jobs.delete(id);
        m.backend.then((b) => b.post({ type: 'cancel', id }));
      }
      if (--m.holders === 0 && shared === m) {
        shared = null;
        m.backend.then((b) => b.close());
      }
    },
  };
}
