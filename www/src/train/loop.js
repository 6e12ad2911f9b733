// The training loop as messages: the same code runs inside a Web Worker (worker.js) and, where a
// page cannot start a worker, on the main thread in short slices (runner.js). It steps a
// TrainingRun from the wasm facade and reports what the widget draws. Every number comes from the
// facade; this file only schedules calls and passes their results on.
//
// In:  { type: 'start', id, settings, text?, evalEvery?, sampleEvery? }   (text: default the lesson prose)
//      { type: 'pause' } | { type: 'resume' } | { type: 'stop' }
// Out: { type: 'started', id, settings, reference, heldOut }
//      { type: 'progress', id, stepsDone, steps, losses, learningRate, heldOut?, sample?, seconds }
//      { type: 'finished', id, stepsDone, steps, losses, settings, heldOut, sample, stopped, parameters, seconds }
//        (losses: the last slice's, as a progress message would have carried them)
//      { type: 'paused', id } | { type: 'error', id, message, fields? }
//
// Each message's work stays small enough for the main thread: the held-out loss (about 1,500 scored
// positions) and a 120-character sample; nothing evaluates the whole training text.
//
// heldOut: { step, loss }; sample: { step, text }; parameters: the trained model's flat parameters
// (an ArrayBuffer of f32, transferred; CharModel.from_parameters(settings, …) reads them);
// stopped: why the run ended early (a loss that stopped being finite), or null.
// An error's `message` is its English; `fields` are the library error's own (its code and values,
// which postMessage would drop from an Error): errorFrom(message) makes it an Error again, for the
// widget to word in its reader's language.

const SAMPLE = { prompt: 'The ', length: 120, temperature: 0.8, seed: 1 };

/** An error as a message can carry it: { message, fields } (its own fields, as plain data). */
export function errorData(err) {
  if (!(err instanceof Error)) return { message: String(err) };
  let fields;
  try {
    fields = JSON.parse(JSON.stringify({ ...err }));
  } catch {
    fields = undefined; // fields that are not data: the English message alone
  }
  return { message: err.message, fields };
}

/** The Error an 'error' message (errorData's) describes, with its fields again. */
export function errorFrom({ message, fields }) {
  return Object.assign(new Error(message), fields ?? {});
}

/**
 * A loop over the facade `lib`. `post(message, transfer)` sends a message out; `sliceMs` is how long
 * one slice of steps may run before it yields (a worker can take more than a frame; the main
 * thread must not); `schedule(fn)` runs fn soon, after pending messages.
 */
export function trainingLoop(lib, post, { sliceMs = 40, schedule = (fn) => setTimeout(fn, 0) } = {}) {
  let run = null; // the current TrainingRun
  let job = null; // { id, evalEvery, sampleEvery, nextEval, nextSample, started, elapsed, paused }

  const fail = (id, err) => post({ type: 'error', id, ...errorData(err) });

  function free() {
    if (run) run.free();
    run = null;
    job = null;
  }

  function heldOut() {
    return { step: job.stepsDone, loss: run.held_out_loss() };
  }

  /** Run a slice of the current job soon, unless one is already waiting. */
  function soon() {
    if (job.pending) return;
    job.pending = true;
    const mine = job;
    schedule(() => tick(mine));
  }

  function sample() {
    return { step: job.stepsDone, text: run.sample(SAMPLE.prompt, SAMPLE.length, SAMPLE.temperature, SAMPLE.seed) };
  }

  function finish() {
    const { id } = job;
    const seconds = job.elapsed;
    const progress = job.last;
    const message = {
      type: 'finished',
      id,
      stepsDone: job.stepsDone,
      steps: job.steps,
      losses: progress ? progress.losses : [],
      heldOut: heldOut(),
      sample: sample(),
      stopped: progress ? progress.stopped ?? null : null,
      settings: run.settings(),
      seconds,
    };
    message.parameters = run.parameters().buffer; // a Float32Array over a copy
    free();
    post(message, [message.parameters]);
  }

  function tick(mine) {
    if (mine !== job) return; // a stopped or replaced run
    job.pending = false;
    if (job.paused) return;
    const t0 = performance.now();
    let progress;
    try {
      progress = run.run(1e9, sliceMs);
    } catch (err) {
      const { id } = job;
      free();
      return fail(id, err);
    }
    job.elapsed += (performance.now() - t0) / 1000;
    job.stepsDone = progress.steps_done;
    job.last = progress;
    if (progress.done) return finish();
    const message = {
      type: 'progress',
      id: job.id,
      stepsDone: progress.steps_done,
      steps: progress.steps,
      losses: progress.losses,
      learningRate: progress.learning_rate,
      seconds: job.elapsed,
    };
    if (job.stepsDone >= job.nextEval) {
      message.heldOut = heldOut();
      job.nextEval = job.stepsDone + job.evalEvery;
    }
    if (job.stepsDone >= job.nextSample) {
      message.sample = sample();
      job.nextSample = job.stepsDone + job.sampleEvery;
    }
    post(message);
    soon();
  }

  return function handle(message) {
    switch (message?.type) {
      case 'start': {
        free();
        try {
          run = new lib.TrainingRun(message.settings ?? {}, message.text ?? undefined);
        } catch (err) {
          run = null;
          return fail(message.id, err);
        }
        const settings = run.settings();
        const evalEvery = Math.max(1, Math.round(message.evalEvery ?? settings.steps / 20));
        const sampleEvery = Math.max(1, Math.round(message.sampleEvery ?? settings.steps / 5));
        job = { id: message.id, steps: settings.steps, stepsDone: 0, evalEvery, sampleEvery, nextEval: evalEvery, nextSample: sampleEvery, elapsed: 0, paused: false, pending: false, last: null };
        post({ type: 'started', id: message.id, settings, reference: run.reference(), heldOut: heldOut() });
        soon();
        return;
      }
      case 'pause':
        if (job && !job.paused) {
          job.paused = true;
          post({ type: 'paused', id: job.id });
        }
        return;
      case 'resume':
        if (job && job.paused) {
          job.paused = false;
          soon();
        }
        return;
      case 'stop':
        if (job) finish();
        return;
      default:
        fail(message?.id, `unknown message ${JSON.stringify(message?.type)}`);
    }
  };
}
