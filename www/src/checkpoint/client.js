// A Hugging Face checkpoint for the page's widgets, opened in its own worker (worker.js): one worker
// per checkpoint, shared by every widget that shows it, started on the first call.
//
//   const c = openCheckpoint(checkpoint, onChange, user)
//     checkpoint: { href } the folder on the page's site, ending in / (or its index), or
//                 { href, files } the reader's File[] (href then only names them: models/your-checkpoint.js)
//     c.state: 'loading' | 'ready' | 'error';  c.info (ready): PageCheckpoint.info();
//     c.memory (ready): the bytes of the worker's wasm memory once opened
//     c.engine (ready): which build of the engine runs it, 'threads', 'relaxed-simd' or 'simd128'
//       (worker.js); c.isolated: whether the page is cross-origin isolated, which threads need;
//       c.info.threads: the threads a forward pass runs on
//     await c.setThreads(n)   // 1 to the pool's threads (a test, a benchmark): c.info, updated
//     c.problem (error): an Error each widget words (models/worded.js problemText)
//     c.kept: { bytes, fromCopy? } while a weights-src folder is kept in this browser (kept-folder.js;
//       fromCopy: it was read from there), else null
//     c.watchKept(fn): fn() runs when c.kept changes, while fn's view is on the page (see keptNote)
//     await c.forget()   // the kept copy out of this browser: the next load fetches from the site
//     c.bars: the <progress> bars following the bytes;  c.cancel(): stops the load for every widget
//     await c.inspect(text, owner)   // PageCheckpoint.inspect's result
//     await c.nextTokens({ text, temperature, topK, topP }, owner)   // next_tokens' (ten likeliest)
//       One question runs at a time; of those an owner (a widget) asks meanwhile only its latest
//       runs (in turn with other owners'), the others resolve null
//     const run = c.experiment({ name, text, textName, context }, onStepped)
//       name: 'ablation' | 'stream', or 'continuation' with { text, count, seed, temperature, topK,
//       topP }; onStepped(passes, total, drawn) after each forward pass (drawn: a continuation's
//       { id, piece, text, done })
//       await run.result   // what tblock ablate / stream prints (`measured` and all); null once stopped
//       run.stop()         // Cancel: the worker drops it between two passes
//     Experiments run one at a time, in the order asked (a widget waits for another's run to end).
//   onChange() runs when it is opened or fails (the widget re-renders).
//   leaveCheckpoint(href, user)   // `user` (a widget) no longer shows it: once no widget does, its
//                                 // worker ends (a load stops, the memory is freed) and the next
//                                 // open starts anew; a failed or cancelled one stays as it is
//
// Cancel ends the worker (and the threads build's pool workers the page started for it, pool.js), so
// what it held is freed; the checkpoint then fails with "cancelled" until
// the page is reloaded, as a cancelled weights-src download does.

import { wordedError } from '../models/worded.js';
import { formatBytes } from '../format.js';
import { createCheckpointWorker } from './worker-url.js';
import { forgetFolder } from './kept-folder.js';
import { poolForWorker } from './pool.js';
import { speakEnglish } from '../i18n.js';
import checkpointTexts from '../locales/en/checkpoint.js';
import panelsTexts from '../locales/en/panels.js';

// With the texts the worker's problems name (sources.js), worded here.
speakEnglish(checkpointTexts, panelsTexts);

const opened = new Map();

/** The sentence `say` ({ key, values }) in the language of `t`. */
function word(say, t) {
  const values = {};
  for (const [k, v] of Object.entries(say.values ?? {})) {
    values[k] = v?.key ? word(v, t) : v?.bytes !== undefined ? formatBytes(v.bytes, t.locale) : v;
  }
  return t(say.key, values);
}

/** A problem posted by the worker (problems.js) as an Error for the page. */
export function problemError(problem) {
  if (problem?.say) return wordedError((t) => word(problem.say, t));
  const err = new Error(problem?.message ?? 'the checkpoint worker failed');
  if (problem?.tb) err.tb = problem.tb;
  return err;
}

/** The checkpoint `checkpoint` names: loading, ready or failed (see above). */
export function openCheckpoint(checkpoint, onChange = () => {}, user = null) {
  const { href } = checkpoint;
  let c = opened.get(href);
  if (!c) {
    c = start(checkpoint);
    opened.set(href, c);
  }
  if (user) c.users.add(user);
  if (c.state === 'loading') c.waiting.add(onChange);
  return c;
}

/**
 * `user` no longer shows the checkpoint at `href`: once nobody does, its worker ends (a load under
 * way stops, an opened one frees its memory) and it is forgotten. A failed one (a Cancel among them)
 * holds no worker and is kept, so it stays failed until the page is reloaded.
 */
export function leaveCheckpoint(href, user) {
  const c = opened.get(href);
  if (!c) return;
  c.users.delete(user);
  if (c.users.size > 0 || c.state === 'error') return;
  c.close();
  opened.delete(href);
}

function start({ href, files }) {
  const c = { state: 'loading', info: null, problem: null, read: 0, total: 0, kept: null, bars: new Set(), waiting: new Set(), users: new Set() };
  const keptWatchers = new Set();
  const keptNow = (kept) => {
    c.kept = kept;
    for (const fn of keptWatchers) fn();
  };
  const settle = (fields) => {
    Object.assign(c, fields);
    for (const fn of c.waiting) fn();
    c.waiting.clear();
    c.bars.clear();
  };
  const worker = createCheckpointWorker();
  if (!worker) {
    settle({ state: 'error', problem: wordedError((t) => t('checkpoint.noWorker')) });
    return Object.assign(c, { cancel() {}, close() {}, inspect: async () => null });
  }
  let asked = 0;
  let running = null; // the question the worker is on: { id, type, args, owner, resolve, reject }
  const queued = new Map(); // owner -> the latest question it asked meanwhile, in the order asked
  let measuring = null; // the experiment the worker runs: { run, what, onStepped, resolve, reject }
  const waiting = []; // the experiments asked for after it
  const measureNext = () => {
    measuring = waiting.shift() ?? null;
    if (measuring) worker.postMessage({ type: 'experiment', run: measuring.run, ...measuring.what });
  };
  const measured = (run, settleRun) => {
    if (measuring?.run !== run) return;
    settleRun(measuring);
    measureNext();
  };
  const send = (job) => {
    running = job;
    if (job) worker.postMessage({ type: job.type, id: job.id, ...job.args });
  };
  const answered = (id, settleJob) => {
    if (running?.id !== id) return;
    settleJob(running);
    const [next = null] = queued.values();
    queued.delete(next?.owner);
    send(next);
  };
  /** Question `type` with `args`, from `owner`: its answer, or null when a later one replaced it. */
  const ask = (type, args, owner) => {
    if (c.state !== 'ready') return Promise.resolve(null);
    return new Promise((resolve, reject) => {
      const job = { id: ++asked, type, args, owner, resolve, reject };
      if (!running) return send(job);
      queued.get(owner)?.resolve(null);
      queued.delete(owner);
      queued.set(owner, job);
    });
  };
  const pool = poolForWorker(worker); // the threads build's workers, which the page starts (pool.js)
  const end = () => {
    worker.terminate();
    pool.end();
  };
  worker.onmessage = ({ data }) => {
    if (pool.answer(data)) return;
    if (data.type === 'progress') {
      Object.assign(c, { read: data.read, total: data.total });
      for (const bar of c.bars) {
        bar.max = data.total || data.read || 1;
        bar.value = data.read;
      }
    } else if (data.type === 'opened') {
      settle({ state: 'ready', info: data.info, memory: data.memory, kept: data.kept, engine: data.engine, isolated: data.isolated });
    } else if (data.type === 'kept') {
      keptNow(data.kept);
    } else if (data.type === 'inspected') {
      answered(data.id, (job) => job.resolve(data.result));
    } else if (data.type === 'stepped') {
      if (measuring?.run === data.run) measuring.onStepped(data.passes, data.total, data.drawn);
    } else if (data.type === 'found') {
      measured(data.run, (job) => job.resolve(data.found));
    } else if (data.type === 'failed') {
      const problem = problemError(data.problem);
      if (data.run !== undefined) {
        measured(data.run, (job) => job.reject(problem));
      } else if (data.id === undefined) {
        settle({ state: 'error', problem });
        end();
      } else {
        answered(data.id, (job) => job.reject(problem));
      }
    }
  };
  worker.onerror = (e) => {
    e.preventDefault?.();
    if (c.state === 'loading') settle({ state: 'error', problem: new Error(`the checkpoint worker stopped (${e.message || 'it could not start'})`) });
  };
  worker.postMessage(files ? { type: 'open', files } : { type: 'open', url: href });
  return Object.assign(c, {
    /** Ends the worker, whatever it was doing; an inspect waiting resolves null. */
    close() {
      end();
      running?.resolve(null);
      for (const job of queued.values()) job.resolve(null);
      queued.clear();
      running = null;
      for (const job of [measuring, ...waiting.splice(0)]) job?.resolve(null);
      measuring = null;
    },
    cancel() {
      if (c.state !== 'loading') return;
      end();
      settle({ state: 'error', problem: wordedError((t) => t('checkpoint.cancelled')), cancelled: true });
    },
    experiment(what, onStepped = () => {}) {
      if (c.state !== 'ready') return { result: Promise.resolve(null), stop() {} };
      let job;
      const result = new Promise((resolve, reject) => {
        job = { run: ++asked, what, onStepped, resolve, reject };
      });
      waiting.push(job);
      if (!measuring) measureNext();
      return {
        result,
        stop() {
          if (measuring === job) {
            worker.postMessage({ type: 'stop', run: job.run });
            job.resolve(null);
            measureNext();
          } else if (waiting.includes(job)) {
            waiting.splice(waiting.indexOf(job), 1);
            job.resolve(null);
          }
        },
      };
    },
    watchKept(fn) {
      keptWatchers.add(fn);
      return () => keptWatchers.delete(fn);
    },
    async forget() {
      if (!files) await forgetFolder(href);
      keptNow(null);
    },
    inspect: (text, owner = null) => ask('inspect', { text }, owner),
    nextTokens: (args, owner = null) => ask('next', args, owner),
    async setThreads(threads) {
      const info = await ask('threads', { threads }, 'threads'); // an owner of its own: never dropped for an inspection
      if (info) c.info = info;
      return info;
    },
  });
}
