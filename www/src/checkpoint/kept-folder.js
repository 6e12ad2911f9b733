// A weights-src checkpoint kept in this browser across reloads: the folder's files as the site
// served them, in Cache Storage, so the next visit reads them from the disk rather than the site.
// The worker keeps a folder as it reads it (each weight file written at the pace the wasm takes
// it: no second copy waits in memory) and marks it whole only once every file is stored; the page
// forgets it (the widgets' "Forget").
//
//   const k = await keptFolder(url, siteSource(url))   // in the worker
//     k.source: what to read the checkpoint from (sources.js's shape): the kept copy when the
//       folder is whole in the cache, else the site's, each file stored as it is read
//     k.kept: { bytes, fromCopy: true } when k.source is the kept copy, else null
//     await k.stored()   // once read to the end: { bytes } when the folder is now kept, else null
//   await forgetFolder(url)   // in the page or the worker: the folder's files out of the cache
//
// A kept copy is used unless the site says its weights changed: a HEAD for each weight file (3 s at
// most), whose ETag (else Last-Modified) or length differs from the one stored drops the copy and
// fetches the folder anew; no answer (offline, refused) keeps using the copy.
//
// Where Cache Storage is missing or refused (an insecure origin, private browsing in some browsers,
// storage turned off) or the site's quota has no room for the weights, nothing is kept and the
// checkpoint loads from the site as before; a failed write never fails the load.
//
// Shapes: cache "transformer-block-checkpoints"; an entry per file at its URL; and the mark, at the
// folder's URL + "?transformer-block-kept", a JSON
//   { small: [name], weights: [{ name, bytes, version }], bytes }   version: as the site served it, or null

import { answerLength, answerVersion } from './answer.js';

const CACHE = 'transformer-block-checkpoints';
/** How long the site may take to say whether a kept weight file changed. */
const ASK_MS = 3000;
/** Room kept free besides the weights' bytes (the config, the tokenizer, the cache's own). */
const MARGIN = 64 << 20;

const folderOf = (url) => new URL('./', url);
const markOf = (base) => new URL('?transformer-block-kept', base);

async function openCache() {
  try {
    return globalThis.caches ? await globalThis.caches.open(CACHE) : null;
  } catch {
    return null; // refused (a SecurityError: an opaque origin, storage turned off)
  }
}

/** The folder's files out of the cache (and its mark), so the next load fetches them from the site. */
export async function forgetFolder(url) {
  const cache = await openCache();
  if (!cache) return;
  const base = folderOf(url).href;
  const keys = await cache.keys();
  await Promise.all(keys.filter((r) => r.url.startsWith(base)).map((r) => cache.delete(r)));
}

/** Whether the browser says the site has room for `bytes` more. */
async function room(bytes) {
  try {
    const { quota, usage } = await navigator.storage.estimate();
    return quota === undefined || quota - (usage ?? 0) >= bytes + MARGIN;
  } catch {
    return true; // no estimate: the write says so itself if it fails
  }
}

/** Whether the site says a kept weight file is no longer what it served (see above). */
async function changedOnSite(base, mark) {
  const changed = await Promise.all(
    mark.weights.map(async ({ name, bytes, version }) => {
      try {
        const url = new URL(name, base);
        const r = await fetch(url, { method: 'HEAD', mode: 'same-origin', credentials: 'same-origin', cache: 'no-cache', signal: AbortSignal.timeout(ASK_MS) });
        await r.arrayBuffer(); // read to its (empty) end: the request is done before the time-out fires
        if (!r.ok) return false; // the site cannot say: the copy stays
        const [now, length] = [answerVersion(r), answerLength(r)];
        return Boolean((now && version && now !== version) || (length && length !== bytes));
      } catch {
        return false; // offline or refused: the copy is what there is
      }
    }),
  );
  return changed.some(Boolean);
}

/** The kept copy of a folder whose mark `mark` lists its files (sources.js's shape). */
function keptSource(cache, base, mark) {
  const entry = async (name) => {
    const response = await cache.match(new URL(name, base));
    if (!response) throw new Error(`${name} is no longer in this browser's copy: reload to fetch it from the site`);
    return response;
  };
  return {
    small: async (name) => new Uint8Array(await (await entry(name)).arrayBuffer()),
    async weights() {
      const parts = mark.weights.map(({ name, bytes }) => ({
        name,
        async open() {
          const { body } = await entry(name);
          return { length: bytes, body, cancel: () => body?.cancel() };
        },
      }));
      return { parts, total: mark.bytes };
    },
  };
}

/**
 * `body` read at its reader's pace, each piece also written to `store(stream)` (a cache write),
 * which fails with it, and counted (`counted(bytes)`): what the wasm has not taken yet is all that
 * waits, never a second whole copy.
 */
function copied(body, store, counted) {
  let copy;
  store(new ReadableStream({ start: (c) => void (copy = c) }));
  // The copy's side never fails the load: a write that failed (it cancels its stream) is let be.
  const toCopy = (fn) => {
    try {
      fn(copy);
    } catch {
      // the write failed, or the copy already ended
    }
  };
  const reader = body.getReader();
  const read = new ReadableStream(
    {
      async pull(c) {
        try {
          const { done, value } = await reader.read();
          if (done) {
            toCopy((w) => w.close());
            c.close();
            return;
          }
          counted(value.length);
          toCopy((w) => w.enqueue(value));
          c.enqueue(value);
        } catch (err) {
          toCopy((w) => w.error(err));
          c.error(err);
        }
      },
      cancel(reason) {
        toCopy((w) => w.error(reason ?? new Error('cancelled')));
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
  return read;
}

/** The site's source, storing each file it reads in `cache`; stored() marks the folder whole. */
function keepingSource(cache, base, source) {
  const writes = [];
  const small = [];
  const weights = [];
  let keeping = true; // false once a file cannot be kept (no room, a failed write)
  const put = (name, response) => {
    const write = cache.put(new URL(name, base), response).then(
      () => true,
      () => (keeping = false),
    );
    writes.push(write);
    return write;
  };
  const kept = {
    async small(name) {
      const bytes = await source.small(name);
      if (keeping) {
        small.push(name);
        put(name, new Response(bytes));
      }
      return bytes;
    },
    async weights(weightFiles) {
      const { parts, total } = await source.weights(weightFiles);
      if (total && !(await room(total))) keeping = false;
      return {
        total,
        parts: parts.map((part) => ({
          name: part.name,
          async open() {
            const opened = await part.open();
            if (keeping && !total && opened.length && !(await room(opened.length))) keeping = false;
            if (!keeping) return opened;
            const entry = { name: part.name, bytes: 0, version: opened.version ?? null };
            weights.push(entry);
            const store = (stream) => put(part.name, new Response(stream));
            const body = copied(opened.body, store, (bytes) => (entry.bytes += bytes));
            return { length: opened.length, body, cancel: () => body.cancel() };
          },
        })),
      };
    },
  };
  return {
    source: kept,
    async stored() {
      await Promise.all(writes);
      if (!keeping || weights.length === 0) return null;
      const bytes = weights.reduce((sum, w) => sum + w.bytes, 0);
      const mark = { small, weights, bytes };
      try {
        await cache.put(markOf(base), new Response(JSON.stringify(mark), { headers: { 'content-type': 'application/json' } }));
      } catch {
        return null;
      }
      return { bytes };
    },
  };
}

/** Where the checkpoint at `url` is read from: the kept copy, or the site's `source`, kept as read. */
export async function keptFolder(url, source) {
  const cache = await openCache();
  const none = { source, kept: null, stored: async () => null };
  if (!cache) return none;
  const base = folderOf(url);
  try {
    const found = await cache.match(markOf(base));
    const mark = found && (await found.json());
    if (mark) {
      const names = [...mark.small, ...mark.weights.map((w) => w.name)];
      const whole = (await Promise.all(names.map((n) => cache.match(new URL(n, base))))).every(Boolean);
      if (whole && !(await changedOnSite(base, mark))) return { source: keptSource(cache, base, mark), kept: { bytes: mark.bytes, fromCopy: true }, stored: async () => null };
    }
    // Not whole (a load cut short, a file deleted) or changed on the site: dropped, and kept anew.
    await forgetFolder(base);
  } catch {
    return none;
  }
  return { kept: null, ...keepingSource(cache, base, source) };
}
