// Problems found once for the whole page (a config-src or weights-src download that failed, shared
// by every widget that names it) but told by each widget in its own reader's language: the error
// keeps how to word it, `word(t)`, and its message is the English wording (for a console, a test).
//
//   throw wordedError((t) => t('panels.serverAnswered', { status: '404' }));
//   problemText(err, t)   // its wording in t's language; any other error as errorText words it
//                         // (errorText itself words these: one place, library-messages.js)

import { errorText } from '../elements/base.js';
import { translator } from '../i18n.js';

/** An Error whose text each widget words: `word(t)` gives it in the language of a translator. */
export function wordedError(word) {
  return Object.assign(new Error(word(translator('en'))), { word });
}

/** What `err` says in the language of `t`: its own wording when it has one (errorText words both). */
export function problemText(err, t) {
  return errorText(err, t);
}
