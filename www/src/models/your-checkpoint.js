// The reader's own checkpoint, for the widgets that run a character model (<tb-tiny-gpt>,
// <tb-ablation>, <tb-stream>): the files as read, { name, weights (ArrayBuffer), config, vocab }
// (config.json and vocab.json text, or null). Shared by every widget on the page; kept in this
// browser for the page when the weights are small enough for localStorage (CHECKPOINT_KEEP_LIMIT),
// else for this visit only. Nothing leaves the machine.
//
//   latestCheckpoint()            the files, or null
//   publishCheckpoint(files)      share them; returns whether they will survive a reload
//   forgetCheckpoint()
//   const off = onCheckpoint(fn)  fn() after every publish or forget

/** Weights up to this many bytes are kept across reloads (base64 in localStorage: ~1.4 MB of text). */
export const CHECKPOINT_KEEP_LIMIT = 1 << 20;

const key = () => `tb-your-checkpoint:${globalThis.location?.pathname ?? ''}`;
const listeners = new Set();
let current; // undefined: storage not read yet

export function latestCheckpoint() {
  if (current === undefined) current = restore();
  return current;
}

export function publishCheckpoint(files) {
  current = files;
  let kept = false;
  try {
    if (files.weights.byteLength <= CHECKPOINT_KEEP_LIMIT) {
      globalThis.localStorage?.setItem(key(), JSON.stringify({ ...files, weights: toBase64(files.weights) }));
      kept = true;
    } else {
      globalThis.localStorage?.removeItem(key());
    }
  } catch {
    kept = false; // storage refused or full: the checkpoint still works on this visit, and an older
    try {
      globalThis.localStorage?.removeItem(key()); // one kept must not come back after a reload
    } catch {
      // storage off altogether
    }
  }
  announce();
  return kept;
}

export function forgetCheckpoint() {
  current = null;
  try {
    globalThis.localStorage?.removeItem(key());
  } catch {
    // nothing kept
  }
  announce();
}

export function onCheckpoint(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

function announce() {
  for (const fn of [...listeners]) fn();
}

function restore() {
  try {
    const kept = JSON.parse(globalThis.localStorage?.getItem(key()) ?? 'null');
    if (!kept || typeof kept.name !== 'string' || typeof kept.weights !== 'string') return null;
    return { name: kept.name, weights: fromBase64(kept.weights), config: kept.config ?? null, vocab: kept.vocab ?? null };
  } catch {
    return null;
  }
}

function toBase64(buffer) {
  const bytes = new Uint8Array(buffer);
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

function fromBase64(text) {
  const raw = atob(text);
  const bytes = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes.buffer;
}
