// The reader's own model: a Hugging Face config.json they pasted, dropped or picked, kept in this
// browser (localStorage, per page) so it survives a reload, shared by every model switcher on the
// page, and forgotten on request. Nothing leaves the machine. The library reads the text each time
// a widget counts with it (`count(text, T, B)`), as it reads a preset's name.
//
//   savedModel()              { text, label } or null
//   saveModel({ text, label }) stores it (at most CONFIG_LIMIT bytes); every switcher hears of it
//   forgetModel()             removes it
//   onModelSaved(fn)          fn() after every save or forget, on this page; returns off()

/** The largest config.json taken, in bytes: real ones are 1 to 3 KB; a weights file is not one. */
export const CONFIG_LIMIT = 64 * 1024;

const EVENT = 'tb-your-model';
const key = () => `tb-your-model:${globalThis.location?.pathname ?? ''}`;

// This page's model (undefined: not read from storage yet). Kept here too, so the switchers share it
// where storage is refused (private browsing, a file:// page in some browsers, a full quota).
let current;

/** The reader's model on this page, or null. */
export function savedModel() {
  if (current === undefined) {
    try {
      const stored = JSON.parse(globalThis.localStorage?.getItem(key()) ?? 'null');
      current = stored && typeof stored.text === 'string' && typeof stored.label === 'string' ? stored : null;
    } catch {
      current = null;
    }
  }
  return current;
}

/** Keep `{ text, label }` for this page; returns whether it will survive a reload. */
export function saveModel({ text, label }) {
  current = { text, label };
  let kept = false;
  if (new Blob([text]).size <= CONFIG_LIMIT) {
    try {
      globalThis.localStorage?.setItem(key(), JSON.stringify(current));
      kept = true;
    } catch {
      kept = false;
      try {
        globalThis.localStorage?.removeItem(key()); // an older model must not come back after a reload
      } catch {
        // storage off altogether
      }
    }
  }
  announce();
  return kept;
}

export function forgetModel() {
  current = null;
  try {
    globalThis.localStorage?.removeItem(key());
  } catch {
    // nothing stored, nothing to do
  }
  announce();
}

export function onModelSaved(fn) {
  globalThis.addEventListener?.(EVENT, fn);
  return () => globalThis.removeEventListener?.(EVENT, fn);
}

function announce() {
  globalThis.dispatchEvent?.(new Event(EVENT));
}
