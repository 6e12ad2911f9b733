// The reader's own model: a Hugging Face config.json they pasted, dropped or picked, kept in this
// browser (localStorage, per page) so it survives a reload, shared by every model switcher on the
// page, and forgotten on request. Nothing leaves the machine. The library reads the text each time
// a widget counts with it (`count(text, T, B)`), as it reads a preset's name.
//
//   savedModel()              { text, label } or null
//   saveModel({ text, label }) stores it (kept across reloads up to CONFIG_LIMIT bytes); every switcher hears of it
//   forgetModel()             removes it
//   onModelSaved(fn)          fn() after every save or forget, on this page; returns off()

import { pageSlot } from './page-slot.js';

/** The largest config.json taken, in bytes: real ones are 1 to 3 KB; a weights file is not one. */
export const CONFIG_LIMIT = 64 * 1024;

const slot = pageSlot('your-model', {
  decode: (stored) => (typeof stored.text === 'string' && typeof stored.label === 'string' ? stored : null),
});

/** The reader's model on this page, or null. */
export const savedModel = () => slot.get();

/** Keep `{ text, label }` for this page; returns whether it will survive a reload. */
export const saveModel = ({ text, label }) => slot.set({ text, label }, new Blob([text]).size <= CONFIG_LIMIT);

export const forgetModel = () => slot.clear();

export const onModelSaved = (fn) => slot.on(fn);
