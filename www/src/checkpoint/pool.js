// The threads build's pool of workers (worker.js's engine 'threads'), started by the page rather than
// by the checkpoint worker. wasm-bindgen-rayon starts each pool worker from the worker that runs the
// engine; in Firefox a worker started by a worker (`new Worker` inside a worker) now and then never
// returned from its constructor: the checkpoint worker blocked for good, its widget left loading (10
// page loads in 168 on Firefox ESR 153 here), where the page's start always returned (0 in 180).
// So the checkpoint worker asks the page for each pool worker, and the page relays the two messages
// of its start: the engine's memory and module in, "ready" out. Everything after that goes through
// the shared memory, not through messages.
//
// In the checkpoint worker (the helper scripts/wasm-threads.mjs writes into www/pkg/ calls
// self.startPoolWorker(url) where it would call `new Worker(url)`):
//   const pool = poolFromPage(post)   // installs self.startPoolWorker
//   pool.ready(id)                    // on { type: 'pool-ready', id } from the page
//   pool.abandon()                    // the pool did not start: the page ends its workers
// On the page (client.js), beside the checkpoint worker `worker`:
//   const pool = poolForWorker(worker)
//   pool.answer(data)   // true when `data` was one of the pool's messages (handled)
//   pool.end()          // ends the pool's workers (with the checkpoint worker they serve)
//
// Messages, worker -> page: { type: 'pool-worker', id, url, init }  start one (init: the helper's
//                                                                   start message, shared memory in it)
//                           { type: 'pool-abandoned' }              end them all
//           page -> worker: { type: 'pool-ready', id }               pool worker `id` has started

/** The message the pool's helper posts once its engine instance is made. */
const HELPER_READY = 'wasm_bindgen_worker_ready';

/** The checkpoint worker's half: `post` sends a message to the page. */
export function poolFromPage(post) {
  const waiting = new Map(); // id -> the stand-in the helper waits on
  let asked = 0;
  // What the helper calls in place of `new Worker(url)`: a stand-in with the two things the helper
  // uses of a Worker, postMessage (its start message, sent to the page) and its "ready" message.
  self.startPoolWorker = (url) => {
    const id = ++asked;
    const standIn = new EventTarget();
    standIn.postMessage = (init) => post({ type: 'pool-worker', id, url: String(url), init });
    waiting.set(id, standIn);
    return standIn;
  };
  return {
    ready(id) {
      const standIn = waiting.get(id);
      waiting.delete(id);
      standIn?.dispatchEvent(new MessageEvent('message', { data: { type: HELPER_READY } }));
    },
    abandon() {
      waiting.clear();
      delete self.startPoolWorker;
      post({ type: 'pool-abandoned' });
    },
  };
}

/** The page's half, beside the checkpoint worker `worker`. */
export function poolForWorker(worker) {
  const started = []; // kept: Firefox collects a worker on shared memory that nothing holds (bug 1702191)
  const end = () => {
    for (const poolWorker of started.splice(0)) poolWorker.terminate();
  };
  return {
    answer(data) {
      if (data?.type === 'pool-abandoned') {
        end();
        return true;
      }
      if (data?.type !== 'pool-worker') return false;
      let poolWorker;
      try {
        poolWorker = new Worker(data.url, { type: 'module', name: 'tb-checkpoint-pool' });
      } catch {
        return true; // refused (a policy): the checkpoint worker gives up on the pool and runs one thread
      }
      started.push(poolWorker);
      poolWorker.onmessage = ({ data: said }) => {
        if (said?.type === HELPER_READY) worker.postMessage({ type: 'pool-ready', id: data.id });
      };
      poolWorker.postMessage(data.init);
      return true;
    },
    end,
  };
}
