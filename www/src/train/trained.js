// The model a reader trained on this page, for every widget that can run it (<tb-tiny-gpt>'s "the
// model I trained"). <tb-train> publishes each finished run here; a widget reads the latest and
// hears of the next. Page scripts can listen too: document fires `tb-trained` with the same detail.
//
//   publishTrained({ parameters, settings, heldOut, steps })   // parameters: ArrayBuffer of f32
//   latestTrained()                                        // the last one, or null
//   const off = onTrained((model) => ...);                 // off() to stop listening

let latest = null;
const listeners = new Set();

export function publishTrained(model) {
  latest = model;
  for (const listener of listeners) listener(model);
  document.dispatchEvent(new CustomEvent('tb-trained', { detail: model }));
}

export function latestTrained() {
  return latest;
}

export function onTrained(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
