// The page's worker: its own instance of the wasm (compiled once by the page and posted here as a
// WebAssembly.Module), running the training loop (loop.js) or the experiments' measurements
// (../measure/jobs.js) off the main thread, so the page stays responsive however long they take.
// Messages of type 'measure' and 'cancel' go to the measurements, the rest to the training loop.
//
// Served pages start it as a module worker from this file (worker-url.js); the bundles of `make dist`
// bundle it into one classic script and start it from a blob: URL (scripts/dist/bundle.mjs). First
// message in: { type: 'init', module }; first message out: { type: 'ready' } or { type: 'init-failed', message }.

// Only what the loop uses is imported, so a bundler leaves the rest of the glue out of the worker.
import init, { CharModel, TrainingRun } from '../../pkg/transformer_block.js';
import { trainingLoop } from './loop.js';
import { measureJobs } from '../measure/jobs.js';

let handle = null;
let measure = null;
const post = (message, transfer = []) => self.postMessage(message, transfer);

const onMessage = async (event) => {
  const message = event.data;
  if (message?.type === 'init') {
    try {
      await init({ module_or_path: message.module });
      handle = trainingLoop({ TrainingRun }, post);
      measure = measureJobs({ CharModel }, post);
      post({ type: 'ready' });
    } catch (err) {
      post({ type: 'init-failed', message: err instanceof Error ? err.message : String(err) });
    }
    return;
  }
  if (!handle) {
    post({ type: 'error', id: message?.id, message: 'the training worker is not ready yet', code: 'notReady' });
    return;
  }
  if (message?.type === 'measure' || message?.type === 'cancel') measure(message);
  else handle(message);
};

// Listening only in a worker: imported anywhere else (Node, a site's build) the module does nothing.
if (typeof WorkerGlobalScope === 'function') self.onmessage = onMessage;
