// Figures an author measured with tblock on a real checkpoint, for <tb-ablation results-src> and
// <tb-stream results-src>: the URL, on the page's own site, of the .json file `tblock ablate` or
// `tblock stream` printed. Each URL is fetched once for the page (at most results_limit() bytes)
// and shared by every widget that names it; the library reads and checks it.
//
//   const load = pageResults(src, limit, onChange)
//     { state: 'loading' }  |  { state: 'ready', text }  |  { state: 'error', message }
//   onChange() runs when it is fetched or fails (the widget re-renders)

import { clipText } from '../attributes.js';
import { formatBytes } from '../format.js';
import { fetchSameSite, siteUrl } from './read-stream.js';

const loads = new Map(); // URL -> { state, text | message, waiting: Set of callbacks }

/** The results file at `src` (at most `limit` bytes): fetched, being fetched, or failed. */
export function pageResults(src, limit, onChange) {
  const url = siteUrl(src);
  if (!url || !/\.json$/i.test(url.pathname)) {
    return { state: 'error', message: `results-src "${clipText(src)}" is not a results file on this site: give the URL of the .json file tblock printed, on this page's site` };
  }
  let load = loads.get(url.href);
  if (!load) {
    load = { state: 'loading', waiting: new Set() };
    loads.set(url.href, load);
    fetchSameSite(url, {
      label: clipText(url.pathname),
      limit,
      tooLarge: (n) => new Error(`it is ${formatBytes(n)}; a results file of tblock is a few KB (at most ${formatBytes(limit)})`),
    })
      .then(
        (bytes) => Object.assign(load, { state: 'ready', text: new TextDecoder().decode(bytes) }),
        (err) => Object.assign(load, { state: 'error', message: `results-src "${clipText(src)}" could not be read: ${err.message}` }),
      )
      .finally(() => {
        for (const fn of load.waiting) fn();
        load.waiting.clear();
      });
  }
  if (load.state === 'loading') load.waiting.add(onChange);
  return load;
}
