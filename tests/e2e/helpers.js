// Shared by the spec files: open a page as a reader would and record every problem it has (console
// errors and warnings, uncaught exceptions, failed, refused or foreign requests), wait until every
// widget has rendered with the wasm, and read what the page shows.

import { expect, test } from '@playwright/test';

/**
 * Records what `page` does wrong into the returned list, from now on: console errors and warnings,
 * uncaught exceptions, requests that fail, HTTP responses of 400 or more, and requests to a host
 * other than `origin`.
 *
 * options.origin: the site's origin (default: the project's baseURL, which page.goto resolves
 * paths against).
 */
export function recordProblems(page, { origin = new URL(test.info().project.use.baseURL).origin } = {}) {
  const problems = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error' || msg.type() === 'warning') {
      problems.push(`console ${msg.type()}: ${msg.text()} (${msg.location().url})`);
    }
  });
  page.on('pageerror', (err) => problems.push(`uncaught: ${err.message}`));
  page.on('request', (req) => {
    const url = new URL(req.url());
    if (url.protocol !== 'data:' && url.protocol !== 'blob:' && url.origin !== origin) {
      problems.push(`request to another host: ${req.url()}`);
    }
  });
  page.on('requestfailed', (req) => problems.push(`failed request: ${req.url()}`));
  page.on('response', (res) => {
    if (res.status() >= 400) problems.push(`HTTP ${res.status()}: ${res.url()}`);
  });
  return problems;
}

/**
 * Opens `path` (against the baseURL), recording problems (see recordProblems) into the returned
 * list, and waits until every widget has shown its own render or its message (`rendered`): a
 * prerendered page shows its widgets' figures before their scripts have loaded, and what is done to
 * a widget before its script arrives is not heard (once it has, it is replayed: base.js).
 */
export async function openPage(page, path = '/', options = {}) {
  const problems = recordProblems(page, options);
  await page.goto(path);
  await page.evaluate(async () => {
    const all = [...document.querySelectorAll('*')].filter((el) => el.localName.startsWith('tb-'));
    await Promise.all(all.map((el) => customElements.whenDefined(el.localName).then(() => el.rendered)));
  });
  return problems;
}

/** How far the page scrolls sideways, in CSS pixels: 0 or less when it fits its viewport. */
export function pageOverflow(page) {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

/** Every <tb-…> element on the page: { tag, name, defined, rendered }. */
export function widgets(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll('*')]
      .filter((el) => el.localName.startsWith('tb-'))
      .map((el) => ({
        tag: el.localName,
        name: el.getAttribute('name'),
        defined: Boolean(customElements.get(el.localName)),
        // Rendered: the shadow root holds more than the placeholder a tb-number starts with (a
        // tb-number's is one text node), and
        // the element's own render has replaced the first render the page came with (prerendered).
        rendered: Boolean(el.shadowRoot && el.shadowRoot.childNodes.length > 0 && el.shadowRoot.textContent.trim() !== '…' && el.prerendered === false),
      })),
  );
}

/** Waits until every <tb-…> element is defined and has rendered. */
export async function waitForWidgets(page) {
  await expect
    .poll(async () => (await widgets(page)).filter((w) => !w.defined || !w.rendered).map((w) => `${w.tag} ${w.name ?? ''}`), {
      message: 'widgets still not rendered',
      timeout: 15_000,
    })
    .toEqual([]);
}

/**
 * The visible messages inside the widgets' shadow roots (.error elements that are not hidden, and
 * tb-number's bracketed messages): [] when every widget rendered cleanly.
 */
export function widgetMessages(page) {
  return page.evaluate(() => {
    const found = [];
    for (const el of document.querySelectorAll('*')) {
      if (!el.localName.startsWith('tb-') || !el.shadowRoot) continue;
      for (const m of el.shadowRoot.querySelectorAll('.error, .message')) {
        if (!m.hidden && m.closest('[hidden]') === null && m.textContent.trim() !== '') {
          found.push(`${el.localName}${el.getAttribute('name') ? ` ${el.getAttribute('name')}` : ''}: ${m.textContent.trim()}`);
        }
      }
    }
    return found;
  });
}

/** The text of `selector` as a reader sees it: tb-number elements replaced by the number they show. */
export function proseText(page, selector) {
  return page.evaluate((sel) => {
    const el = document.querySelector(sel);
    if (!el) return null;
    const walk = (node) => {
      if (node.nodeType === Node.TEXT_NODE) return node.textContent;
      if (node.nodeType !== Node.ELEMENT_NODE) return '';
      if (node.localName === 'tb-number') return node.shadowRoot?.textContent ?? '';
      if (node.localName.startsWith('tb-')) return ' [widget] ';
      return [...node.childNodes].map(walk).join('');
    };
    return walk(el).replace(/\s+/g, ' ').trim();
  }, selector);
}

/**
 * Opens a page of `lang` holding `body` (the widgets as an author embeds them), served at `path`,
 * and waits until every widget matching `selector` has rendered; returns the problems recorded.
 */
export async function openInLanguage(page, { path, lang, body, selector }) {
  const problems = recordProblems(page);
  const html = `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><title>languages</title>
<link rel="stylesheet" href="/styles.css">
<script type="module" src="/src/elements/index.js"></script>
</head><body><main>${body}</main></body></html>`;
  await page.route(`**${path}`, (route) => route.fulfill({ contentType: 'text/html', body: html }));
  await page.goto(path);
  await page.evaluate((sel) => Promise.all([...document.querySelectorAll(sel)].map((el) => el.rendered)), selector);
  return problems;
}

/** A number as Intl writes it in the page's own browser (its ICU decides the spaces). */
export const intlInPage = (page, locale, x, options = {}) =>
  page.evaluate(([l, v, o]) => new Intl.NumberFormat(l, o).format(v), [locale, x, options]);

/**
 * What the first `selector` element shows in its shadow root, its stylesheets left out (a
 * prerendered template carries its <style> elements): '' when it has no shadow root.
 */
export const shadowShown = (page, selector) =>
  page.evaluate((s) => [...(document.querySelector(s)?.shadowRoot?.childNodes ?? [])].filter((n) => n.localName !== 'style').map((n) => n.textContent).join(''), selector);
