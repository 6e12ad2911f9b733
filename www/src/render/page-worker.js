// One page rendered in a worker thread of its own (render.js starts it): a DOM for Node
// (happy-dom, registered as this thread's globals), the elements defined on it, the page's HTML
// written into it, every widget's first render awaited until the page settles, and each widget's
// shadow root read back as serialize.js reads it in Chromium.
//
//   new Worker(page-worker.js, { workerData: { job: JOB, html, url, elements, settleMs, timeoutMs } })
//   -> posts { widgets: [{ tag, markup }], warnings: [text] }
//      markup: serialize.js' { tag, html, sheets, inline }, or null for a tag that is not one of
//      the elements (left as the page has it)
//
// A thread of its own for each page: its globals (window, document, HTMLElement …) never reach the
// site's build that called render(), and a page starts as a new tab does (the elements' ids count
// from 1 again, as in the Chromium prerender). Imported anywhere else (the main thread, a worker
// of someone else's), it does nothing.

import { parentPort, workerData } from 'node:worker_threads';
import { widgetMarkup } from '../prerender/serialize.js';
import { untilSettled } from '../prerender/settle.js';
import { escapedLikeBrowsers, mendDomGaps } from './dom-gaps.js';
import { JOB } from './job.js';
import { readsSiteFiles } from './site-files.js';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function renderPage({ html, url, elements, settleMs, timeoutMs }) {
  const warnings = [];
  const { GlobalRegistrator } = await import('@happy-dom/global-registrator');
  GlobalRegistrator.register({
    url,
    width: 1280, // the Chromium prerender's viewport: what a desktop reader sees first
    height: 720,
    settings: {
      disableJavaScriptEvaluation: true, // the page's own scripts do not run: only the elements do
      disableJavaScriptFileLoading: true,
      disableCSSFileLoading: true,
      disableIframePageLoading: true,
      navigator: { userAgent: 'transformer-block render (happy-dom)' },
    },
  });
  mendDomGaps(globalThis);
  readsSiteFiles(globalThis);
  const report = (...args) => warnings.push(args.join(' '));
  globalThis.console = { ...console, warn: report, error: report };

  await import(elements);

  document.open();
  document.write(html);
  document.close();

  const tags = [...document.querySelectorAll('*')].filter((el) => el.localName.startsWith('tb-'));
  for (const el of tags) {
    if (!customElements.get(el.localName)) warnings.push(`<${el.localName}> is not one of the elements; it is left as it is`);
  }
  const widgets = tags.filter((el) => customElements.get(el.localName));

  const started = Date.now();
  const late = () => Date.now() - started > timeoutMs;
  await Promise.race([Promise.all(widgets.map((el) => el.rendered?.catch(() => {}))), sleep(timeoutMs)]);
  const { value: last, settled } = await untilSettled({
    idle: async () => {
      while (widgets.some((el) => el.busy) && !late()) await sleep(10);
    },
    read: () => widgetMarkup().map((w) => ({ ...w, html: escapedLikeBrowsers(w.html) })),
    settleMs,
    timeoutMs,
  });
  if (!settled) warnings.push(`the page did not settle in ${timeoutMs / 1000} s: its widgets are written as they were then`);
  // widgetMarkup() reads every tb- element with a shadow root, in document order.
  const markup = new Map(tags.filter((el) => el.shadowRoot).map((el, i) => [el, last[i]]));
  return { widgets: tags.map((el) => ({ tag: el.localName, markup: markup.get(el) ?? null })), warnings };
}

if (parentPort && workerData?.job === JOB) parentPort.postMessage(await renderPage(workerData));
