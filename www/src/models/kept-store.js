// What the site keeps in this browser across reloads that is too large for localStorage (the
// reader's checkpoint: your-checkpoint.js): one IndexedDB database for the site, the values stored
// as they are (structured clones: an ArrayBuffer of weights stays bytes, no base64). Nothing here
// throws or rejects: where IndexedDB is refused or missing (private browsing, a file:// page, an
// old browser, storage turned off) a read finds nothing and a write says why it kept nothing.
//
//   await keptRead(key)             the value stored under `key`, or null
//   await keptWrite(key, value, { bytes, limit, current })
//     -> { kept: true }
//      | { kept: false, reason: 'too-large' | 'quota' | 'unavailable' | 'superseded', bytes, limit }
//     bytes: the value's size, checked against `limit` and against the room the browser says the
//     site has left (navigator.storage.estimate()) before anything is written; current(): false
//     once the value is no longer wanted (a newer one, or a forget), checked just before the write
//   await keptDelete(key)
//
// Shapes:
//   database "transformer-block", version 1
//   object store "kept", out-of-line keys: "tb-NAME:" + the page's path, as the localStorage slots
//     (page-slot.js), e.g. "tb-your-checkpoint:/gallery/experiments.html"
//   values: what the caller stores; your-checkpoint.js stores
//     { name: string, weights: ArrayBuffer, config: string | null, vocab: string | null }
//     or, for a Hugging Face checkpoint's folder, { kind: 'checkpoint', name: string, files: File[] }
//     (the browser copies each File's bytes into its own storage)

const DATABASE = 'transformer-block';
const STORE = 'kept';
/** Room left besides the value's bytes: the other files of the value, the database's own. */
const MARGIN = 1 << 20;
/** A browser that never answers the open (it happens): after this long, nothing is kept. */
const OPEN_TIMEOUT_MS = 5000;

let opening = null; // Promise of the IDBDatabase, or of null where there is none

function database() {
  opening ??= new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), OPEN_TIMEOUT_MS);
    const settle = (db) => {
      clearTimeout(timer);
      resolve(db);
    };
    let request;
    try {
      request = globalThis.indexedDB?.open(DATABASE, 1);
    } catch {
      return settle(null); // refused outright (a SecurityError: an opaque origin, storage off)
    }
    if (!request) return settle(null);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => {
      const db = request.result;
      // A newer version opened elsewhere (another tab of a later site): let it, and open again next time.
      db.onversionchange = () => {
        db.close();
        opening = null;
      };
      settle(db);
    };
    request.onerror = (event) => {
      event.preventDefault();
      settle(null);
    };
  });
  return opening;
}

/** A transaction's end: resolves on complete, rejects with its error when it aborts. */
function run(db, mode, work) {
  return new Promise((resolve, reject) => {
    const tx = db.transaction(STORE, mode);
    const request = work(tx.objectStore(STORE));
    tx.oncomplete = () => resolve(request.result);
    tx.onabort = () => reject(tx.error ?? new DOMException('The transaction was aborted', 'AbortError'));
    request.onerror = (event) => event.preventDefault(); // the abort that follows says why
  });
}

export async function keptRead(key) {
  const db = await database();
  if (!db) return null;
  try {
    return (await run(db, 'readonly', (store) => store.get(key))) ?? null;
  } catch {
    return null;
  }
}

export async function keptWrite(key, value, { bytes, limit = Infinity, current = () => true }) {
  const refused = (reason) => ({ kept: false, reason, bytes, limit });
  if (bytes > limit) return refused('too-large');
  const db = await database();
  if (!db) return refused('unavailable');
  if (!(await hasRoom(bytes))) return refused('quota');
  // Checked in the same task as the transaction starts: a forget after this is ordered after the write.
  if (!current()) return refused('superseded');
  try {
    await run(db, 'readwrite', (store) => store.put(value, key));
    return { kept: true };
  } catch (err) {
    return refused(err?.name === 'QuotaExceededError' ? 'quota' : 'unavailable');
  }
}

export async function keptDelete(key) {
  const db = await database();
  if (!db) return;
  try {
    await run(db, 'readwrite', (store) => store.delete(key));
  } catch {
    // nothing to remove, or storage gone: nothing is kept either way
  }
}

/** Whether the browser says the site has room for `bytes` more (yes when it will not say). */
async function hasRoom(bytes) {
  try {
    const { quota, usage = 0 } = (await globalThis.navigator?.storage?.estimate?.()) ?? {};
    return !(Number.isFinite(quota) && quota - usage < bytes + MARGIN);
  } catch {
    return true; // no estimate: try, and hear of a QuotaExceededError if it does not fit
  }
}
