// Starts the checkpoint worker (worker.js) as a module worker beside this file; null where workers
// cannot start. The bundles of `make dist` carry none of this (scripts/dist/bundle.mjs, plugin
// `served-only`): a real checkpoint runs from the served module build, whose worker fetches
// www/pkg/checkpoint* beside it, and from the autoloaded folder, where this file is replaced by a
// starter of the folder's pkg/checkpoint-worker.js (scripts/dist/folder-workers.mjs).

export function createCheckpointWorker() {
  if (typeof Worker !== 'function') return null;
  try {
    return new Worker(new URL('./worker.js', import.meta.url), { type: 'module', name: 'tb-checkpoint' });
  } catch {
    return null; // refused by the page's Content-Security-Policy
  }
}
