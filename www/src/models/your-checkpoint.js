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

import { pageSlot } from './page-slot.js';

/** Weights up to this many bytes are kept across reloads (base64 in localStorage: ~1.4 MB of text). */
export const CHECKPOINT_KEEP_LIMIT = 1 << 20;

const slot = pageSlot('your-checkpoint', {
  encode: (files) => ({ ...files, weights: toBase64(files.weights) }),
  decode: (kept) =>
    typeof kept.name === 'string' && typeof kept.weights === 'string'
      ? { name: kept.name, weights: fromBase64(kept.weights), config: kept.config ?? null, vocab: kept.vocab ?? null }
      : null,
});

export const latestCheckpoint = () => slot.get();

export const publishCheckpoint = (files) => slot.set(files, files.weights.byteLength <= CHECKPOINT_KEEP_LIMIT);

export const forgetCheckpoint = () => slot.clear();

export const onCheckpoint = (fn) => slot.on(fn);

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
