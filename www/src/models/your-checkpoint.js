// The reader's own checkpoint, for the widgets that run a character model (<tb-tiny-gpt>,
// <tb-ablation>, <tb-stream>, <tb-attention>): the files as read, { name, weights (ArrayBuffer),
// config, vocab } (config.json and vocab.json text, or null); or a Hugging Face checkpoint's
// folder, { kind: 'checkpoint', name, href, files } (File[], as dropped: realCheckpoint(); href only
// names it for the checkpoint worker, ../checkpoint/client.js). Shared by every widget on the page at
// once; kept in this browser for the page, across reloads, in IndexedDB (kept-store.js: the bytes as
// they are, up to CHECKPOINT_KEEP_LIMIT), where the browser allows it and has room; else for this
// visit only, and the panel says why. Nothing leaves the machine.
//
// Reading what was kept is asynchronous and never holds a widget back: latestCheckpoint() is null
// until it has been read (a widget renders with its own model meanwhile); then onCheckpoint's
// listeners hear of it, and the model switchers offer it.
//
//   latestCheckpoint()            the files, or null
//   publishCheckpoint(files)      share them now; resolves with whether they will survive a reload:
//                                 { kept: true } | { kept: false, reason, bytes, limit } (kept-store.js)
//   checkpointKept()              that answer for the checkpoint shared now (null: none, or still being written)
//   forgetCheckpoint()            here, and in the browser
//   const off = onCheckpoint(fn)  fn() after every publish or forget, and when the kept one has been read
//
// An earlier version kept small checkpoints as base64 in localStorage ("tb-your-checkpoint:" and the
// page's path): such an entry is read once, moved into IndexedDB, and removed.

import { keptDelete, keptRead, keptWrite } from './kept-store.js';

/** Weights up to this many bytes are kept across reloads: all the page runs (CharModel.checkpoint_limit()). */
export const CHECKPOINT_KEEP_LIMIT = 16 * 1024 * 1024;

let named = 0;
/** The reader's Hugging Face checkpoint `name` in `files` (File[], its folder's), for the page. */
export function realCheckpoint(name, files) {
  return { kind: 'checkpoint', name, href: `yours:${++named}:${name}`, files };
}

/** Its bytes, and those a reload may keep: a real checkpoint, all the page opened (the worker checked it). */
const sizeOf = (files) =>
  files.kind === 'checkpoint'
    ? { bytes: files.files.reduce((sum, f) => sum + f.size, 0), limit: Infinity }
    : { bytes: files.weights.byteLength, limit: CHECKPOINT_KEEP_LIMIT };

const key = () => `tb-your-checkpoint:${globalThis.location?.pathname ?? ''}`;
const listeners = new Set();
let current = null; // the files shared on the page
let keep = null; // whether `current` will survive a reload: publishCheckpoint's answer, once known
let generation = 0; // one more at every publish or forget: older reads and writes are dropped
let started = false; // the kept checkpoint is being (or has been) read

const announce = () => {
  for (const fn of [...listeners]) fn();
};

/** Reads what an earlier visit kept (once, in the background), and shares it unless something newer came. */
function start() {
  if (started) return;
  started = true;
  const asked = generation;
  (async () => {
    const stored = asFiles(await keptRead(key()));
    const old = takeLocalStorage();
    const files = stored ?? old;
    if (!files || asked !== generation) return;
    current = files;
    keep = stored ? { kept: true } : null;
    announce();
    if (!stored) save(files); // the localStorage entry, moved
  })().catch(() => {}); // (asFiles and takeLocalStorage do not throw; nothing to share if they did)
}

/** Writes `files` for the next visits; resolves with the answer (see publishCheckpoint). */
async function save(files) {
  const asked = generation;
  // A real checkpoint's files are stored as they are (the browser copies them); its href is this visit's.
  const value = files.kind === 'checkpoint' ? { kind: files.kind, name: files.name, files: files.files } : files;
  const result = await keptWrite(key(), value, { ...sizeOf(files), current: () => asked === generation });
  if (asked === generation) {
    keep = result;
    // Not kept: an older checkpoint must not come back after a reload.
    if (!result.kept) keptDelete(key());
  }
  return result;
}

export function latestCheckpoint() {
  start();
  return current;
}

export function publishCheckpoint(files) {
  start();
  generation++;
  current = files;
  keep = null;
  announce();
  return save(files);
}

export const checkpointKept = () => (current ? keep : null);

export function forgetCheckpoint() {
  start();
  generation++;
  current = null;
  keep = null;
  keptDelete(key());
  announce();
}

export function onCheckpoint(fn) {
  start();
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** A stored value as the files, or null if it is not one (another version's, say). */
function asFiles(value) {
  if (!value || typeof value.name !== 'string') return null;
  if (value.kind === 'checkpoint') {
    const files = Array.isArray(value.files) && value.files.every((f) => f instanceof Blob && typeof f.name === 'string') ? value.files : null;
    return files?.length ? realCheckpoint(value.name, files) : null;
  }
  const weights = value.weights instanceof ArrayBuffer ? value.weights : value.weights instanceof Uint8Array ? value.weights.slice().buffer : null;
  if (!weights) return null;
  const text = (v) => (typeof v === 'string' ? v : null);
  return { name: value.name, weights, config: text(value.config), vocab: text(value.vocab) };
}

/** The checkpoint an earlier version kept in localStorage (base64), removed from there; or null. */
function takeLocalStorage() {
  let stored = null;
  try {
    const text = globalThis.localStorage?.getItem(key()) ?? null;
    if (text === null) return null;
    globalThis.localStorage.removeItem(key());
    stored = JSON.parse(text);
  } catch {
    return null; // storage off, or not JSON: nothing to move
  }
  if (!stored || typeof stored.name !== 'string' || typeof stored.weights !== 'string') return null;
  try {
    const raw = atob(stored.weights);
    const bytes = new Uint8Array(raw.length);
    for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
    return asFiles({ ...stored, weights: bytes.buffer });
  } catch {
    return null;
  }
}
