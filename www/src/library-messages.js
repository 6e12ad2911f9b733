// The library's messages in the reader's language. A library error thrown by the wasm carries its
// message twice: `message`, the English the crate writes (and the command line prints), and `tb`,
// the same message as data (crate/src/messages.rs): { code, values } or { text } for plain English.
// The catalogs word each code ("lib." + code, www/src/locales/*/library.js; the English one is the
// crate's templates, written out by a cargo test). A message holding a phrase the reader's catalog
// lacks, or plain English text, is shown as the crate wrote it, whole: never half translated.
//
//   wordMessage(err.tb, t)   // "nombre de tokens 0 hors limites : ..." or null (then err.message)
//   errorText(err, t)        // any caught error, worded where it can be (a page's sentence:
//                            // models/worded.js), else as thrown

import { formatDecimal } from './format.js';

/**
 * What a caught error says, for a reader: `t` (an element's translator) words a library message in
 * the reader's language where it can; else the message as thrown (English).
 */
export function errorText(err, t) {
  if (!(err instanceof Error)) return String(err);
  // One of the page's own sentences (models/worded.js), in the reader's language.
  if (t && typeof err.word === 'function') return err.word(t);
  return wordMessage(err.tb, t) ?? err.message;
}

/** The message `data` worded by `t` (a translator of i18n.js), or null where it cannot be. */
export function wordMessage(data, t) {
  if (!t || t.locale === 'en') return null;
  const word = (phrase) => {
    if (!phrase || typeof phrase !== 'object' || typeof phrase.code !== 'string') return null;
    const key = `lib.${phrase.code}`;
    if (!t.has(key)) return null;
    const values = {};
    for (const [name, value] of Object.entries(phrase.values ?? {})) {
      if (typeof value === 'number') values[name] = formatDecimal(value, 6, t.locale);
      else if (typeof value === 'string') values[name] = value;
      else if (Array.isArray(value)) values[name] = t.list(value, 'or');
      else {
        const worded = word(value);
        if (worded === null) return null;
        values[name] = worded;
      }
    }
    return t(key, values);
  };
  return word(data);
}
