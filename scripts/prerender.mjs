#!/usr/bin/env node
// The widgets' first render, written into the HTML at build time as declarative shadow DOM, so a
// page shows its figures before (and without) any script or wasm.
//
//   node scripts/prerender.mjs                 every page `make serve` serves (www/index.html and
//                                              www/gallery/*.html) into dist/pages/, and the offline
//                                              lesson dist/transformer-block-lesson.html in place;
//                                              pages whose inputs have not changed since their last
//                                              render (kept in dist/pages/prerendered/*.json) are not
//                                              rendered again
//
// An author's own pages are rendered without a browser, by the renderer in Node that the npm
// package carries (www/src/render/: `npx transformer-block render 'site/**/*.html'`), which writes
// what this writes (tests/e2e/render.spec.js compares the two on every gallery page).
//
// How: headless Chromium (the one the tests use) loads each page as a reader would, at the tests'
// desktop size, waits until every widget has rendered and settled, and reads each widget's shadow
// root (www/src/prerender/serialize.js). Each widget's open tag in the page's source then gets a
// <template shadowrootmode="open"> with that markup; on upgrade the element keeps it on screen until
// its own first render replaces it in one task (www/src/elements/base.js). The same crate and the
// same element code compute both, so they agree; tests/e2e/prerender.spec.js checks they do.
//
// Styles: a shadow root sees no page stylesheet, so each template carries its own. Served pages
// link them (dist/pages/prerendered/<hash>.css, one file for each widget's set, fetched once for
// every widget that shares it: allowed by a strict style-src 'self'); the offline lesson, one file,
// has them in <style> elements.
// Widgets that lay out to their width (the charts) are drawn for the desktop column; on a narrower
// screen they redraw to fit when the script runs.

import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { createHash } from 'node:crypto';
import { launchChromium, ROOT, startServer } from './browser.mjs';
import { pageMarkup, widgetMarkup } from '../www/src/prerender/serialize.js';
import { insertTemplates, replaceRegions } from '../www/src/prerender/insert.js';
import { inlineStyles, ownSheetsInline, template, textOnly } from '../www/src/prerender/templates.js';
import { settled } from './prerender-settle.mjs';
import { DIST, EDITIONS, WWW } from './dist/common.mjs';

const PAGES = join(DIST, 'pages');
/** The tests' viewport (Playwright's default): the prerender draws what they and a desktop see. */
const VIEWPORT = { width: 1280, height: 720 };

/** The lesson's editions whose page exists. */
const editions = () => EDITIONS.filter((e) => existsSync(join(WWW, e.page)));

/** The pages make serve serves, relative to www/: the lesson's editions and the gallery (not the bench page). */
function servedPages() {
  const gallery = readdirSync(join(WWW, 'gallery')).filter((f) => f.endsWith('.html'));
  return [...editions().map((e) => e.page), ...gallery.map((f) => `gallery/${f}`)];
}

/**
 * Loads `url`, waits for every widget's first render and for the page to settle
 * (prerender-settle.mjs), and returns { widgets, regions, sheets }: widgetMarkup()'s list and
 * pageMarkup()'s parts.
 */
async function renderedWidgets(browser, url, setup) {
  const page = await browser.newPage({ viewport: VIEWPORT, colorScheme: 'light', reducedMotion: 'reduce' });
  const errors = [];
  page.on('pageerror', (err) => errors.push(err.message));
  try {
    await setup?.(page);
    await page.goto(url, { waitUntil: 'load' });
    await page.evaluate(async () => {
      const widgets = [...document.querySelectorAll('*')].filter((el) => el.localName.startsWith('tb-'));
      await Promise.all(widgets.map((el) => customElements.whenDefined(el.localName)));
      await Promise.all(widgets.map((el) => el.rendered));
    });
    const last = await settled(page, async () => ({ widgets: await page.evaluate(widgetMarkup), ...(await page.evaluate(pageMarkup)) }), url);
    if (errors.length) throw new Error(`${url}: the page threw while it rendered: ${errors.join('; ')}`);
    return last;
  } finally {
    await page.close();
  }
}

const hash = (text) => createHash('sha256').update(text).digest('hex').slice(0, 12);

/**
 * A page's source with its widgets' templates and its script-filled regions put in.
 * `stylesOf(sheets)`: the markup that brings a list of stylesheets in (none: nothing).
 */
function prerenderedPage(source, { widgets, regions, sheets }, stylesOf, name, own = (w) => w) {
  const styles = (list) => (list.length ? stylesOf(list) : '');
  const withWidgets = insertTemplates(source, widgets.map((w) => ({ tag: w.tag, template: template(own(textOnly(w)), styles) })), name);
  return replaceRegions(withWidgets, regions, styles(sheets), name);
}

/**
 * A prerendered page shows its first screen without its scripts, which only bring its behaviour: it
 * does not ask for its modules and the wasm before anything else (<link rel=modulepreload> and
 * preload), which, measured, put its first paint ~60 ms later; the module script still loads them.
 */
const withoutPreloads = (html) => html.replace(/[ \t]*<link rel="(?:modulepreload|preload)"[^>]*>\n?/g, '');

/**
 * A digest of what a prerender reads: every file of www/ (bar the lessons' copies) and these scripts,
 * by content (make wasm rewrites www/pkg/ with the same bytes).
 */
function inputsDigest() {
  const digest = createHash('sha256');
  const add = (path) => digest.update(`${relative(ROOT, path)}\0`).update(readFileSync(path));
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (!EDITIONS.some((e) => path === join(WWW, e.file))) add(path); // the offline lessons' copies (make dist): outputs
    }
  };
  walk(WWW);
  for (const script of ['prerender.mjs', 'prerender-settle.mjs', 'browser.mjs']) add(join(ROOT, 'scripts', script));
  return digest.digest('hex');
}

/**
 * What the browser rendered of each served page, from dist/pages/prerendered/<page>.json when it was
 * rendered from the same inputs (a `make serve` with nothing changed launches no browser), else
 * rendered now and kept there.
 */
async function renderedPages(openBrowser) {
  const inputs = inputsDigest();
  const rendered = new Map();
  const stale = [];
  for (const page of servedPages()) {
    const kept = join(PAGES, 'prerendered', `${page.replaceAll('/', '--')}.json`);
    const previous = existsSync(kept) ? JSON.parse(readFileSync(kept, 'utf8')) : null;
    if (previous?.inputs === inputs) rendered.set(page, previous.result);
    else stale.push([page, kept]);
  }
  if (stale.length) {
    const browser = await openBrowser();
    const server = await startServer({ live: true });
    try {
      for (const [page, kept] of stale) {
        const result = await renderedWidgets(browser, `${server.origin}/${page}`);
        mkdirSync(dirname(kept), { recursive: true });
        writeFileSync(kept, JSON.stringify({ inputs, result }));
        rendered.set(page, result);
        console.log(`prerender: ${page}: ${result.widgets.length} widgets rendered`);
      }
    } finally {
      server.stop();
    }
  }
  if (stale.length < rendered.size) console.log(`prerender: ${rendered.size - stale.length} pages unchanged since their last render`);
  return rendered;
}

/** The served pages into dist/pages/, their stylesheets into dist/pages/prerendered/. */
function writeSite(rendered) {
  const written = new Map(); // hash -> css
  for (const [page, result] of rendered) {
    const source = readFileSync(join(WWW, page), 'utf8');
    const cssDir = relative(dirname(join(PAGES, page)), join(PAGES, 'prerendered')) || '.';
    // One file for all of a widget's stylesheets: a link a shadow root, not one a sheet, which
    // took the lesson's first paint from ~140 to ~100 ms (752 links against 188, measured).
    const stylesOf = (sheets) => {
      const css = sheets.join('\n');
      const name = hash(css);
      written.set(name, css);
      return `<link rel="stylesheet" href="${cssDir}/${name}.css">`;
    };
    mkdirSync(dirname(join(PAGES, page)), { recursive: true });
    writeFileSync(join(PAGES, page), withoutPreloads(prerenderedPage(source, result, stylesOf, page)));
  }
  for (const [name, css] of written) writeFileSync(join(PAGES, 'prerendered', `${name}.css`), `${css}\n`);
  for (const file of readdirSync(join(PAGES, 'prerendered'))) {
    if (file.endsWith('.css') && !written.has(file.slice(0, -4))) rmSync(join(PAGES, 'prerendered', file)); // an earlier build's
  }
  console.log(`prerender: ${rendered.size} pages and ${written.size} stylesheets in ${relative(ROOT, PAGES)}/`);
}

/**
 * The offline lesson, in place: the served lesson's templates (its widgets are the same elements
 * in the same order: tests/e2e/prerender.spec.js checks both against what they render) with their
 * stylesheets inside.
 */
function writeOffline(lesson, file) {
  const OFFLINE = join(DIST, file);
  const source = readFileSync(OFFLINE, 'utf8');
  writeFileSync(OFFLINE, prerenderedPage(source, lesson, inlineStyles, OFFLINE, ownSheetsInline));
  console.log(`prerender: ${relative(ROOT, OFFLINE)}: ${lesson.widgets.length} widgets`);
}

async function main(args) {
  let browser = null;
  const openBrowser = async () => (browser ??= await launchChromium());
  try {
    if (args.length) throw new Error(`unknown argument ${args[0]}: it takes none (an author's pages: npx transformer-block render)`);
    const rendered = await renderedPages(openBrowser);
    writeSite(rendered);
    for (const edition of editions()) writeOffline(rendered.get(edition.page), edition.file);
  } finally {
    await browser?.close();
  }
}

main(process.argv.slice(2)).catch((err) => {
  console.error(`prerender: ${err.message}`);
  process.exit(1);
});
