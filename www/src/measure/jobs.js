// The experiments' measurements as messages: the same code runs inside the page's worker
// (train/worker.js) and, where a page cannot start one, on the main thread in short slices
// (runner.js). Each job builds (or reuses) a character model from its description
// (train/models.js: modelSpec) and steps one of the library's measurements (CharModel.begin_measure,
// measure_step) a slice at a time, so no slice holds its thread for long, whatever the checkpoint.
// Every number is the library's; this file schedules calls and passes their results on.
//
// In:  { type: 'measure', id, spec, what: 'info' | 'loss' | 'stream', mode?, block? }
//      { type: 'cancel', id }
// Out: { type: 'measured', id, found, info }            found: { loss, tokens } or the stream's figures
//      { type: 'measure-progress', id, windowsDone, windows }
//      { type: 'need-model', id }                        the description came without its weights
//      { type: 'measure-error', id, message, tb }

import { modelFromSpec } from '../train/model-spec.js';

/** Models kept built, by description key (a checkpoint's flat buffers are the largest thing here). */
const KEPT = 3;

/**
 * A handler of measurement messages over the facade `lib`; `post(message)` sends one out; `sliceMs`:
 * how long one slice may run (a worker may take longer than a frame, the page's thread may not).
 */
export function measureJobs(lib, post, { sliceMs = 40, schedule = (fn) => setTimeout(fn, 0) } = {}) {
  const models = new Map(); // key -> CharModel, the last used last
  const cancelled = new Set();
  const queue = [];
  let busy = false;

  const modelFor = (spec) => {
    if (models.has(spec.key)) {
      const m = models.get(spec.key);
      models.delete(spec.key);
      models.set(spec.key, m);
      return m;
    }
    if (spec.source === 'files' && !spec.weights) return null; // sent as a key only
    if (spec.source === 'trained' && !spec.parameters) return null;
    const model = modelFromSpec(lib, spec);
    models.set(spec.key, model);
    while (models.size > KEPT) {
      const [oldest] = models.keys();
      models.get(oldest).free();
      models.delete(oldest);
    }
    return model;
  };

  // The library's message as data (err.tb, library-messages.js) goes too: the page words it.
  const fail = (id, err) => post({ type: 'measure-error', id, message: err instanceof Error ? err.message : String(err), tb: err?.tb });

  function next() {
    if (busy) return;
    const job = queue.shift();
    if (!job) return;
    if (cancelled.delete(job.id)) return next();
    busy = true;
    let model;
    try {
      model = modelFor(job.spec);
      if (!model) {
        post({ type: 'need-model', id: job.id });
        busy = false;
        return next();
      }
      if (job.what === 'info') {
        post({ type: 'measured', id: job.id, found: null, info: model.info() });
        busy = false;
        return next();
      }
      model.begin_measure(job.what, job.mode ?? 'intact', job.block ?? 0);
    } catch (err) {
      busy = false;
      fail(job.id, err);
      return next();
    }
    const slice = () => {
      if (cancelled.delete(job.id)) {
        busy = false;
        return next();
      }
      let step;
      try {
        step = model.measure_step(sliceMs);
      } catch (err) {
        busy = false;
        fail(job.id, err);
        return next();
      }
      if (step.done) {
        post({ type: 'measured', id: job.id, found: step.found, info: null });
        busy = false;
        return next();
      }
      post({ type: 'measure-progress', id: job.id, windowsDone: step.windows_done, windows: step.windows });
      schedule(slice);
    };
    schedule(slice);
  }

  return function handle(message) {
    if (message?.type === 'cancel') {
      cancelled.add(message.id);
      return;
    }
    queue.push(message);
    next();
  };
}
