// Whether a promise has settled, as far as this module has seen: a render whose library and catalog
// are here renders in the task that asked for it (base.js), one that waits for a fetch takes its
// turn later (render-queue.js: inTurn). A promise cannot be asked synchronously, so it is watched:
// from its making (watched: the library's and the catalogs' promises, in wasm.js and i18n.js) or from
// the first time it is asked about (hasSettled), whose answer is then no.

const settled = new WeakSet();

/** `promise`, watched from now on: hasSettled answers yes once it has settled. */
export function watched(promise) {
  const mark = () => settled.add(promise);
  promise.then(mark, mark);
  return promise;
}

/**
 * Whether `promise` has settled, as far as this module has seen: awaiting one that has takes no task
 * of its own. Asked about a promise not watched before, the answer is no (it is watched from then on).
 */
export function hasSettled(promise) {
  if (settled.has(promise)) return true;
  watched(promise);
  return false;
}
