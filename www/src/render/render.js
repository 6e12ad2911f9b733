// Figures in a site's own HTML, without a browser: each <tb-…> element's first render written into
// the page as declarative shadow DOM, computed by the same elements and wasm as in the browser.
//
//   import { render } from 'transformer-block/render';
//   const html = await render(source, { url: 'https://example.org/lesson/' });
//
// The page shows its figures before (and without) any script; when the elements' script runs, each
// element takes its prerendered markup over as it does on our own prerendered pages.
//
// How: each page in a worker thread of its own (page-worker.js) with a DOM for Node (happy-dom):
// the elements render there as in a browser tab, and their shadow roots are read back by the same
// serialiser the Chromium prerender uses (../prerender/serialize.js), then written after each
// element's open tag in the source (../prerender/insert.js), which is otherwise left as it was.
// Stylesheets go inline, in a <style> in each template (a shadow root sees no page stylesheet).
//
// Bad input never fails a build: broken HTML is read as a browser reads it; a bad attribute gives
// the element's own message in its markup, as in the browser; a tag that is not one of the
// elements is left as it is. Each is reported through `onWarning` (default: console.warn).

import { Worker } from 'node:worker_threads';
import { JOB } from './job.js';
import { insertTemplates } from '../prerender/insert.js';
import { inlineStyles, ownSheetsInline, template, textOnly } from '../prerender/templates.js';

/** Time a page's widgets get to render and settle before what they show is written. */
const TIMEOUT_MS = 60_000;
/** How long a page's markup must stay the same to count as settled (the Chromium prerender: 300). */
const SETTLE_MS = 100;

/** The module that defines the elements (in the npm package, beside this file: the bundle, wasm inlined). */
const ELEMENTS = new URL('./index.js', import.meta.url).href;

/**
 * What each <tb-…> element of `html` shows first: [{ tag, markup }] in document order, markup as
 * serialize.js' widgetMarkup() gives it, or null for a tag that is not one of the elements.
 * `url`: the page's address (what relative links and the elements' fetches resolve against).
 */
export function renderedWidgets(html, { url = 'http://localhost/', onWarning = warn, timeoutMs = TIMEOUT_MS, elements = ELEMENTS } = {}) {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./page-worker.js', import.meta.url), {
      workerData: { job: JOB, html: String(html), url, elements, settleMs: SETTLE_MS, timeoutMs },
      stdout: true,
      stderr: true,
    });
    worker.once('message', ({ widgets, warnings }) => {
      for (const text of warnings) onWarning(text);
      resolve(widgets);
      worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the renderer's worker stopped (exit code ${code}) before it answered`)));
  });
}

const warn = (text) => console.warn(`transformer-block render: ${text}`);

/**
 * `html` with each <tb-…> element's first render written in after its open tag as
 * <template shadowrootmode="open">. A template a page already has there (rendered before) is
 * replaced: rendering twice gives the same page.
 */
export async function render(html, options = {}) {
  const source = String(html);
  const onWarning = options.onWarning ?? warn;
  let widgets;
  try {
    widgets = await renderedWidgets(source, { ...options, onWarning });
  } catch (err) {
    onWarning(`the page could not be rendered (${err.message}); it is left as it was`);
    return source;
  }
  const templates = widgets.map(({ tag, markup }) => ({
    tag,
    template: markup && template(ownSheetsInline(textOnly(markup)), inlineStyles),
  }));
  try {
    return insertTemplates(source, templates, options.name ?? 'the page');
  } catch (err) {
    // The source's tags and the parsed page's disagree (HTML broken in a way the two read apart).
    onWarning(`${err.message}; the page is left as it was`);
    return source;
  }
}
