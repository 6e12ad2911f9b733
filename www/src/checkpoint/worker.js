// The checkpoint worker: a Hugging Face checkpoint (GPT-2, Llama, Mistral, Qwen2) in its own wasm
// instance (www/pkg/checkpoint*, with the checkpoint's tokenizer), so the lesson's widgets keep
// theirs and the page stays live while it loads and runs. One worker per checkpoint, started by
// client.js; cancelling a load ends the worker (and frees what it held).
//
// In:  { type: 'open', url }                 url: the folder, on the page's own site, ending in /;
//                                            or its model.safetensors.index.json (sharded)
//      { type: 'open', files }               files: File[], the reader's (dropped or picked)
//      { type: 'inspect', id, text }
//      { type: 'next', id, text, temperature, topK?, topP? }            the ten likeliest next tokens
//      { type: 'experiment', run, name, text?, textName?, context? }   name: 'ablation' | 'stream'
//      { type: 'experiment', run, name: 'continuation', text, count, seed, temperature, topK?, topP? }
//      { type: 'stop', run }                 the experiment `run` is not wanted any more
//      { type: 'pool-ready', id }            and out: 'pool-worker', 'pool-abandoned' (pool.js: the page
//                                            starts the threads build's pool workers)
// Out: { type: 'progress', read, total }     bytes of weights so far, of the total (0: unknown)
//      { type: 'opened', info, memory, kept, engine, isolated } PageCheckpoint.info() (its threads
//                                            among it); memory: the instance's bytes; kept: { bytes,
//                                            fromCopy } when read from this browser's copy; engine:
//                                            'threads' | 'relaxed-simd' | 'simd128'; isolated: whether
//                                            the page is cross-origin isolated (threads need it)
//      { type: 'threads', id, threads }      run the opened checkpoint on 1 to the pool's threads
//      { type: 'kept', kept }                a folder read from the site is now kept ({ bytes })
//      { type: 'inspected', id, result }     PageCheckpoint.inspect(text), its arrays transferred; or
//                                            info() once the threads are set; or
//                                            next_tokens(...)
//      { type: 'stepped', run, passes, total, drawn? } forward passes done, of all (0 of all once
//                                            started); a continuation's token drawn, and its text so far
//      { type: 'found', run, found }         what tblock ablate / stream prints for the same text
//      { type: 'failed', id? | run?, problem }  problem: { message, tb?, say? } (problems.js)
//
// An experiment runs a forward pass a task (PageCheckpoint.experiment_step), so a Stop, or an
// inspection of another text, is answered between two passes; one runs at a time (client.js queues).
//
// Opening (sources.js reads a folder on the site or the reader's files alike): config.json and
// tokenizer.json (the family, the shape and the tokenizer checked), then model.safetensors, or when
// there is none the shards model.safetensors.index.json names (the size checked against the page's
// limit first: the index's total or the files' sizes, else each answer's length before its body
// is read).
//
// A folder on the site is kept in this browser as it is read (kept-folder.js), and read from there
// at the next load.
//
// The weights arrive a piece at a time into the instance's memory (PageCheckpoint.push): the
// pieces are not gathered anywhere else, so the page holds the weights once.
//
// The engine is one of three builds of the same code:
// - checkpoint-threads (its own glue, SIMD128 on shared memory) where the page is cross-origin
//   isolated (its server sends COOP and COEP: docs/hosts.md) and the device has two cores or more:
//   a pool of workers (wasm-bindgen-rayon; started by the page, pool.js) takes the products' outputs
//   between them, the same bits as on one thread;
// - else checkpoint-relaxed_bg.wasm where the browser has relaxed SIMD (its fused multiply-add: a
//   forward about 15% faster, BENCHMARKS.md);
// - else checkpoint_bg.wasm (SIMD128), which is also what runs when neither other can be had (a folder
//   copied without them, a policy that refuses the pool's workers).
// The last two have the same exports and share one glue module.

import init, * as simd from '../../pkg/checkpoint.js';
import { problemData } from './problems.js';
import { fileSource, siteSource } from './sources.js';
import { keptFolder } from './kept-folder.js';
import { nextTask } from '../next-task.js';
import { poolFromPage } from './pool.js';

/** Progress is posted at most this often, in ms. */
const PROGRESS_EVERY = 50;

/** A module whose one function uses f32x4.relaxed_madd: valid only where the browser has relaxed SIMD. */
const RELAXED_SIMD_PROBE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // "\0asm", version 1
  0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7b, // types: () -> v128
  0x03, 0x02, 0x01, 0x00, // functions: one, of type 0
  0x0a, 0x3d, 0x01, 0x3b, 0x00, // code: one body of 59 bytes, no locals
  ...[0, 1, 2].flatMap(() => [0xfd, 0x0c, ...new Array(16).fill(0)]), // v128.const 0, three times
  0xfd, 0x85, 0x02, // f32x4.relaxed_madd
  0x0b, // end
]);

/** The threads build's pool (pool.js: its workers are started by the page), while it starts or runs. */
let pool = null;

/** The most workers the threads build starts: past a few, a product's panels are too small to share. */
const MOST_THREADS = 8;
/** How long the pool's workers may take to start before the page runs one thread instead (a worker a policy refuses never says so). */
const POOL_START_MS = 10_000;

/**
 * The threads build with its pool started, where the page can share memory between workers and the
 * device has two cores or more; null otherwise, or when it cannot be had (not beside the page, a
 * policy that refuses its workers).
 */
async function startThreads() {
  const threads = Math.min(navigator.hardwareConcurrency || 1, MOST_THREADS);
  if (!self.crossOriginIsolated || threads < 2) return null;
  try {
    const glue = await import(new URL('../../pkg/checkpoint-threads.js', import.meta.url).href);
    const exports = await glue.default();
    let late;
    const refused = new Promise((_, reject) => (late = setTimeout(() => reject(new Error('the pool did not start')), POOL_START_MS)));
    pool = poolFromPage(post);
    await Promise.race([glue.initThreadPool(threads), refused]).finally(() => clearTimeout(late));
    glue.usePool(threads);
    return { glue, exports, engine: 'threads' };
  } catch {
    pool?.abandon();
    return null; // one thread, below
  }
}

/** The engine's instance (see above): its glue, its exports, and which build it is. */
async function startEngine() {
  const threaded = await startThreads();
  if (threaded) return threaded;
  if (WebAssembly.validate(RELAXED_SIMD_PROBE)) {
    try {
      const relaxed = new URL('../../pkg/checkpoint-relaxed_bg.wasm', import.meta.url);
      return { glue: simd, exports: await init({ module_or_path: relaxed }), engine: 'relaxed-simd' };
    } catch {
      // Not beside the page (or not compiled): the SIMD128 build, below.
    }
  }
  return { glue: simd, exports: await init(), engine: 'simd128' };
}

let checkpoint = null;
let wasm = null; // the instance's exports (its memory)
let engine = null; // which build: 'threads' | 'relaxed-simd' | 'simd128'
const post = (message, transfer = []) => self.postMessage(message, transfer);

async function open(data) {
  const folder = data.files ? null : await keptFolder(data.url, siteSource(data.url));
  const source = folder?.source ?? fileSource(data.files);
  const { glue, exports, engine: build } = await startEngine();
  const { PageCheckpoint } = glue;
  [wasm, engine] = [exports, build];
  const text = (bytes) => new TextDecoder().decode(bytes);
  const [config, tokenizer] = await Promise.all([source.small('config.json'), source.small('tokenizer.json')]);
  // The family, the shape and the tokenizer are checked before a byte of weights is read.
  checkpoint = new PageCheckpoint(text(config), tokenizer);
  const { parts, total: known } = await source.weights((index) => PageCheckpoint.weight_files(index));
  if (known) PageCheckpoint.check_size(known);
  let total = known ?? 0;
  let read = 0;
  let posted = 0;
  for (const part of parts) {
    const { length, body, cancel } = await part.open();
    if (!known && length) {
      // Refused on its length, before its body is read.
      try {
        PageCheckpoint.check_size(read + length);
      } catch (err) {
        cancel();
        throw err;
      }
      total = read + length;
    }
    checkpoint.begin(part.name, length || undefined);
    const reader = body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      checkpoint.push(value);
      read += value.length;
      const now = performance.now();
      if (now - posted > PROGRESS_EVERY) {
        posted = now;
        post({ type: 'progress', read, total: Math.max(total, read) });
      }
    }
    checkpoint.end();
  }
  post({ type: 'progress', read, total: read });
  checkpoint.open();
  const isolated = self.crossOriginIsolated === true;
  post({ type: 'opened', info: checkpoint.info(), memory: wasm.memory.buffer.byteLength, kept: folder?.kept ?? null, engine, isolated });
  folder?.stored().then((kept) => kept && post({ type: 'kept', kept }));
}

let running = null; // the run under way: { run, stopped }

/**
 * A run the worker steps a pass a task: an experiment (tblock ablate / stream's figures), or a
 * continuation a token a pass. { total, step() -> { done, passes, drawn? }, found(), stop() }
 */
function stepper(d) {
  const or = (v) => v ?? undefined;
  if (d.name === 'continuation') {
    checkpoint.continuation_start(d.text, d.count, d.seed, d.temperature, or(d.topK), or(d.topP));
    let passes = 0;
    let drawn = null;
    return {
      total: d.count,
      step() {
        drawn = checkpoint.continuation_step();
        return { done: drawn.done, passes: ++passes, drawn };
      },
      found: () => drawn,
      stop: () => checkpoint.stop_continuation(),
    };
  }
  const plan = checkpoint.start_experiment(d.name, or(d.text), or(d.textName), or(d.context));
  return {
    total: plan.passes,
    step: () => checkpoint.experiment_step(),
    found: () => checkpoint.experiment_found(),
    stop: () => checkpoint.stop_experiment(),
  };
}

async function experiment(data) {
  const { run } = data;
  const runner = stepper(data);
  const job = { run, stopped: false };
  running = job;
  post({ type: 'stepped', run, passes: 0, total: runner.total });
  try {
    for (;;) {
      await nextTask();
      // Stopped, or replaced by one started meanwhile (which dropped it in the library).
      if (running !== job) return;
      if (job.stopped) return runner.stop();
      const { done, passes, drawn } = runner.step();
      post({ type: 'stepped', run, passes, total: runner.total, drawn });
      if (done) break;
    }
    post({ type: 'found', run, found: runner.found() });
  } finally {
    if (running === job) running = null;
  }
}

function next({ id, text, temperature, topK, topP }) {
  post({ type: 'inspected', id, result: checkpoint.next_tokens(text, temperature, topK ?? undefined, topP ?? undefined, 10) });
}

/** The opened checkpoint on `threads` threads (refused past the page's pool): answered with its info. */
function threadsOf({ id, threads }) {
  checkpoint.set_threads(threads);
  post({ type: 'inspected', id, result: checkpoint.info() });
}

function inspect({ id, text }) {
  const result = checkpoint.inspect(text, 10);
  post({ type: 'inspected', id, result }, result.attentions.map((a) => a.buffer));
}

const onMessage = async ({ data }) => {
  try {
    if (data?.type === 'open') await open(data);
    else if (data?.type === 'inspect') inspect(data);
    else if (data?.type === 'next') next(data);
    else if (data?.type === 'experiment') await experiment(data);
    else if (data?.type === 'stop' && running?.run === data.run) running.stopped = true;
    else if (data?.type === 'threads') threadsOf(data);
    else if (data?.type === 'pool-ready') pool?.ready(data.id);
  } catch (err) {
    if (data?.type === 'open') {
      checkpoint?.free();
      checkpoint = null;
    }
    post({ type: 'failed', id: data?.id, run: data?.run, problem: problemData(err) });
  }
};

// Listening only in a worker: imported anywhere else (Node, a site's build) the module does nothing.
if (typeof WorkerGlobalScope === 'function') self.onmessage = onMessage;
