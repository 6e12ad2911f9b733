// One value kept for this page in the browser (localStorage, under "tb-NAME:" and the page's path),
// with a copy in memory so every widget on the page shares it even where storage is refused
// (private browsing, a file:// page in some browsers, a full quota), and listeners told of every
// change. For small JSON values: the reader's config (your-model.js) has one. (The reader's
// checkpoint, megabytes of weights, is kept in IndexedDB instead: your-checkpoint.js, kept-store.js.)
//
//   const slot = pageSlot('your-model', { decode, encode })
//   slot.get()              the value, or null (read from storage on first use; decode(stored) may refuse it: null)
//   slot.set(value, keep)   share it; keep it across reloads when `keep` and storage allows; returns whether kept
//   slot.clear()            forget it
//   const off = slot.on(fn) fn() after every set or clear

export function pageSlot(name, { decode = (stored) => stored, encode = (value) => value } = {}) {
  const key = () => `tb-${name}:${globalThis.location?.pathname ?? ''}`;
  const listeners = new Set();
  let current; // undefined: storage not read yet
  const announce = () => {
    for (const fn of [...listeners]) fn();
  };
  const remove = () => {
    try {
      globalThis.localStorage?.removeItem(key());
    } catch {
      // storage off altogether: nothing kept
    }
  };
  return {
    get() {
      if (current === undefined) {
        try {
          const stored = JSON.parse(globalThis.localStorage?.getItem(key()) ?? 'null');
          current = stored === null ? null : decode(stored);
        } catch {
          current = null;
        }
      }
      return current;
    },
    set(value, keep) {
      current = value;
      let kept = false;
      if (keep) {
        try {
          globalThis.localStorage?.setItem(key(), JSON.stringify(encode(value)));
          kept = true;
        } catch {
          kept = false;
        }
      }
      // Not kept (too large, storage refused or full): an older value must not come back after a reload.
      if (!kept) remove();
      announce();
      return kept;
    },
    clear() {
      current = null;
      remove();
      announce();
    },
    on(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
  };
}
