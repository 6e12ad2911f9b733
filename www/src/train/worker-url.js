// Starts the training worker (worker.js) as a module worker beside this file. The bundles of
// `make dist` replace this file with one that starts the bundled worker from a blob: URL
// (scripts/dist/bundle.mjs, plugin `inline-worker`). Same export.

export function createWorker() {
  return new Worker(new URL('./worker.js', import.meta.url), { type: 'module', name: 'tb-training' });
}
