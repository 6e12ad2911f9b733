// The threads build's pool workers are started by the page (www/src/checkpoint/pool.js): the
// checkpoint worker's half stands in for each Worker the helper would start, the page's half starts
// the real one and relays its start message in and its "ready" out, and ends them all with the
// checkpoint worker or when the pool is given up. Both halves joined here by their messages, with a
// Worker that records what it is sent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { poolForWorker, poolFromPage } from '../../www/src/checkpoint/pool.js';

/** A Worker that keeps what it is sent and whether it was ended. */
class RecordingWorker {
  static started = [];
  constructor(url, options) {
    Object.assign(this, { url: String(url), options, sent: [], ended: false, onmessage: null });
    RecordingWorker.started.push(this);
  }
  postMessage(message) {
    this.sent.push(message);
  }
  terminate() {
    this.ended = true;
  }
}

/** The two halves joined: the checkpoint worker's posts reach the page's half, and back. */
function joined() {
  globalThis.self = globalThis;
  globalThis.Worker = RecordingWorker;
  RecordingWorker.started = [];
  const toPage = [];
  const checkpointWorker = new RecordingWorker('worker.js'); // the page's handle on the checkpoint worker
  RecordingWorker.started = [];
  const inWorker = poolFromPage((message) => toPage.push(message));
  const onPage = poolForWorker(checkpointWorker);
  return { toPage, checkpointWorker, inWorker, onPage };
}

test("a pool worker: started by the page, its start message relayed in, its 'ready' relayed out", async () => {
  const { toPage, checkpointWorker, inWorker, onPage } = joined();
  const url = 'https://course.example/pkg/snippets/wasm-bindgen-rayon-x/src/workerHelpers.no-bundler.js';
  const init = { type: 'wasm_bindgen_worker_init', receiver: 1234 };
  // What the helper does with each worker it starts: its start message in, then wait for 'ready'.
  const standIns = [self.startPoolWorker(url), self.startPoolWorker(url)];
  const ready = standIns.map((standIn) => new Promise((resolve) => standIn.addEventListener('message', ({ data }) => resolve(data))));
  standIns.forEach((standIn) => standIn.postMessage(init));
  assert.deepEqual(toPage, [1, 2].map((id) => ({ type: 'pool-worker', id, url, init })));

  for (const message of toPage) assert.equal(onPage.answer(message), true);
  const started = RecordingWorker.started;
  assert.deepEqual(started.map((w) => [w.url, w.options.type, w.sent]), [[url, 'module', [init]], [url, 'module', [init]]]);

  // The second says it is ready first: the page tells the checkpoint worker which one.
  started[1].onmessage({ data: { type: 'wasm_bindgen_worker_ready' } });
  started[0].onmessage({ data: { type: 'something else' } });
  assert.deepEqual(checkpointWorker.sent, [{ type: 'pool-ready', id: 2 }]);
  inWorker.ready(2);
  assert.deepEqual(await ready[1], { type: 'wasm_bindgen_worker_ready' });
  started[0].onmessage({ data: { type: 'wasm_bindgen_worker_ready' } });
  inWorker.ready(1);
  inWorker.ready(1); // twice, or an id never asked for: nothing
  inWorker.ready(7);
  assert.deepEqual(await ready[0], { type: 'wasm_bindgen_worker_ready' });

  // The checkpoint's other messages are not the pool's; the checkpoint ended ends its pool.
  assert.equal(onPage.answer({ type: 'progress', read: 1, total: 2 }), false);
  assert.equal(onPage.answer(null), false);
  assert.deepEqual(started.map((w) => w.ended), [false, false]);
  onPage.end();
  assert.deepEqual(started.map((w) => w.ended), [true, true]);
});

test('a pool given up (it did not start in time): the page ends the workers it started for it', () => {
  const { toPage, inWorker, onPage } = joined();
  self.startPoolWorker('helper.js').postMessage({ type: 'wasm_bindgen_worker_init' });
  onPage.answer(toPage.shift());
  inWorker.abandon();
  assert.equal(self.startPoolWorker, undefined, 'a later pool would start its own workers again');
  assert.deepEqual(toPage, [{ type: 'pool-abandoned' }]);
  assert.equal(onPage.answer(toPage[0]), true);
  assert.deepEqual(RecordingWorker.started.map((w) => w.ended), [true]);
});

test('a pool worker the page cannot start (a policy refuses it): no exception on the page', () => {
  const { toPage, onPage } = joined();
  globalThis.Worker = class {
    constructor() {
      throw new Error('refused');
    }
  };
  self.startPoolWorker('helper.js').postMessage({});
  assert.equal(onPage.answer(toPage[0]), true);
  onPage.end();
});
