// Figures an author measured with tblock on a real checkpoint, for <tb-ablation results-src> and
// <tb-stream results-src>: the URL, on the page's own site, of the .json file `tblock ablate` or
// `tblock stream` printed. Each URL is fetched once for the page (at most results_limit() bytes)
// and shared by every widget that names it; the library reads and checks it.
//
//   const load = pageResults(src, limit, onChange, t)
//     { state: 'loading' }  |  { state: 'ready', text }  |  { state: 'error', message }
//   onChange() runs when it is fetched or fails (the widget re-renders); `message` is worded by
//   `t`, the widget's translator (each widget tells the problem in its own reader's language)

import { clipText } from '../attributes.js';
import { formatBytes } from '../format.js';
import { speakEnglish, translator } from '../i18n.js';
import { fetchSameSite, siteUrl } from './read-stream.js';
import { problemText, wordedError } from './worded.js';
import panelsTexts from '../locales/en/panels.js';

speakEnglish(panelsTexts);

const loads = new Map(); // URL -> { state, text | problem(t), waiting: Set of callbacks }

/** The results file at `src` (at most `limit` bytes): fetched, being fetched, or failed. */
export function pageResults(src, limit, onChange, t = translator('en')) {
  const url = siteUrl(src);
  if (!url || !/\.json$/i.test(url.pathname)) {
    return { state: 'error', message: t('panels.resultsNotFile', { src: clipText(src) }) };
  }
  let load = loads.get(url.href);
  if (!load) {
    load = { state: 'loading', waiting: new Set() };
    loads.set(url.href, load);
    fetchSameSite(url, {
      label: clipText(url.pathname),
      limit,
      tooLarge: (n) => wordedError((t) => t('panels.resultsTooLarge', { size: formatBytes(n, t.locale), limit: formatBytes(limit, t.locale) })),
    })
      .then(
        (bytes) => Object.assign(load, { state: 'ready', text: new TextDecoder().decode(bytes) }),
        (err) => Object.assign(load, { state: 'error', problem: (t) => t('panels.resultsUnreadable', { src: clipText(src), error: problemText(err, t) }) }),
      )
      .finally(() => {
        for (const fn of load.waiting) fn();
        load.waiting.clear();
      });
  }
  if (load.state === 'loading') load.waiting.add(onChange);
  const shared = load;
  // What this widget sees of the shared load, as it goes: its problem in the widget's language.
  return {
    get state() {
      return shared.state;
    },
    get text() {
      return shared.text;
    },
    get message() {
      return shared.problem?.(t);
    },
  };
}
