// The renderer for Node (www/src/render/, in the npm package as `transformer-block/render` and the
// `transformer-block render` command): what it writes into a page equals what Chromium's prerender
// writes for the same page (scripts/prerender.mjs), a page rendered by it shows its figures without
// JavaScript and goes live with it, bad input gives the elements' own messages and never fails a
// build, and the command reports a file it cannot read by name. All of it in Node, no browser,
// except where the rendered page is opened.
import { test, expect } from '@playwright/test';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { render, renderedWidgets } from '../../dist/npm/render.js';
import { recordProblems, shadowShown } from './helpers.js';
import { EDITIONS } from '../../scripts/dist/common.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = join(ROOT, 'dist/npm/cli.js');
/**
 * The lesson's editions (English, French: 188 widgets each) and every gallery page but the real
 * checkpoints': the npm bundle the renderer loads carries no checkpoint reader (a real model runs
 * from the folder's autoloader.js, in the reader's browser), so there its widgets say so, where
 * Chromium's prerender of the served page shows the model.
 */
const PAGES = [
  ...EDITIONS.filter((e) => existsSync(join(ROOT, 'www', e.page))).map((e) => e.page),
  ...readdirSync(join(ROOT, 'www/gallery')).filter((f) => f.endsWith('.html') && f !== 'checkpoint.html').map((f) => `gallery/${f}`),
];

/** What Chromium's prerender read of `page` (www/-relative) when make dist built it. */
const chromiumWidgets = (page) => JSON.parse(readFileSync(join(ROOT, 'dist/pages/prerendered', `${page.replaceAll('/', '--')}.json`), 'utf8')).result.widgets;

test.describe.configure({ mode: 'parallel' });

for (const page of PAGES) {
  test(`${page}: render() in Node writes what Chromium's prerender writes, widget for widget`, async ({ baseURL }) => {
    test.setTimeout(60_000);
    const widgets = await renderedWidgets(readFileSync(join(ROOT, 'www', page), 'utf8'), { url: `${baseURL}/${page}`, onWarning: () => {} });
    expect(widgets.every((w) => w.markup), 'every tag is one of the elements').toBe(true);
    const chromium = chromiumWidgets(page);
    expect(widgets.map((w) => w.tag)).toEqual(chromium.map((w) => w.tag));
    widgets.forEach(({ markup }, i) => {
      expect(markup.html, `<${markup.tag}> #${i + 1}: its markup`).toBe(chromium[i].html);
      expect(markup.sheets, `<${markup.tag}> #${i + 1}: its stylesheets`).toEqual(chromium[i].sheets);
      expect(markup.inline).toBe(chromium[i].inline);
    });
  });
}

test('gallery/checkpoint.html: a widget given a real checkpoint says, in its markup, where one runs; the rest render', async ({ baseURL }) => {
  const widgets = await renderedWidgets(readFileSync(join(ROOT, 'www/gallery/checkpoint.html'), 'utf8'), { url: `${baseURL}/gallery/checkpoint.html`, onWarning: () => {} });
  const attention = widgets.find((w) => w.tag === 'tb-attention').markup.html;
  expect(attention).toContain('autoloader.js');
  // A config.json beside the page is fetched as the browser fetches it: the tiny Llama's count.
  const table = widgets.find((w) => w.tag === 'tb-param-table').markup.html;
  expect(table).toContain('99,408'); // the tiny Llama's count
  expect(table).not.toContain('data-message');
});

// A course page as an author writes it: three widgets, a bad attribute, a tag that is no element,
// HTML left unclosed.
const COURSE_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A course page</title>
<script type="module" src="../transformer-block/autoloader.js"></script></head>
<body><main>
<p>GPT-2 small has <tb-number model="gpt2-small" value="total_params"></tb-number> parameters.</p>
<tb-param-table model="gpt2-small"></tb-param-table>
<tb-masks tokens="3"></tb-masks>
<tb-masks tokens="99"></tb-masks>
<tb-nope answer="42"></tb-nope>
<div><p>left open
</main></body></html>`;

test('render() fills each element of an author\'s page, gives a bad attribute its own message, leaves an unknown tag, and is the same when run again', async () => {
  test.setTimeout(60_000);
  const warnings = [];
  const once = await render(COURSE_PAGE, { onWarning: (w) => warnings.push(w) });
  expect(once.match(/<template shadowrootmode="open">/g)).toHaveLength(4);
  expect(once).toContain('124,439,808'); // the table's total and the number in the sentence
  expect(once).toMatch(/<tb-nope answer="42"><\/tb-nope>/); // left as it is
  expect(warnings.some((w) => w.includes('<tb-nope> is not one of the elements'))).toBe(true);
  expect(once).toMatch(/number of tokens 99 is out of range: choose 1 to 16/);
  // Everything outside the elements is the author's, byte for byte.
  expect(once.replace(/<template shadowrootmode="open">[^]*?<\/template>/g, '')).toBe(COURSE_PAGE);
  expect(await render(once, { onWarning: () => {} })).toBe(once);
});

test('render() never rejects on bad input: nothing, not HTML, a stray template', async () => {
  for (const input of ['', 'plain text', '<tb-masks tokens="-1"', '<template shadowrootmode="open"><tb-masks></tb-masks>', null]) {
    const out = await render(input, { onWarning: () => {} });
    expect(typeof out).toBe('string');
  }
});

test('a page written by render() shows its figures without JavaScript, and its elements go live over them with it', async ({ browser, baseURL }) => {
  test.setTimeout(90_000);
  const html = await render(COURSE_PAGE, { onWarning: () => {} });
  const url = `${baseURL}/gallery/rendered-course-page.html`;
  const serve = (page) => page.route(url, (route) => route.fulfill({ contentType: 'text/html; charset=utf-8', body: html }));

  const still = await browser.newContext({ javaScriptEnabled: false });
  const before = await still.newPage();
  await serve(before);
  await before.goto(url);
  expect(await shadowShown(before, 'tb-param-table')).toContain('124,439,808');
  expect(await shadowShown(before, 'tb-number')).toBe('124,439,808');
  await still.close();

  const live = await browser.newContext();
  const page = await live.newPage();
  const problems = recordProblems(page);
  await serve(page);
  await page.goto(url);
  // The elements (not <tb-nope>) have rendered live, over their prerender.
  await page.waitForFunction(() => [...document.querySelectorAll('tb-param-table, tb-masks')].every((el) => el.prerendered === false && !el.busy), null, { timeout: 30_000 });
  expect(await shadowShown(page, 'tb-param-table')).toContain('124,439,808');
  expect(problems.filter((p) => !p.includes('tb-nope'))).toEqual([]);
  await live.close();
});

test('transformer-block render: writes the pages a glob names in place, and names a file it cannot read', () => {
  test.setTimeout(90_000);
  const site = mkdtempSync(join(tmpdir(), 'tb-render-'));
  mkdirSync(join(site, 'course'));
  writeFileSync(join(site, 'index.html'), '<p>Llama 3 8B: <tb-number model="llama3-8b" value="total_params"></tb-number> parameters.</p>');
  writeFileSync(join(site, 'course/masks.html'), '<tb-masks tokens="4"></tb-masks>');
  // A file an element fetches from beside its page is read from beside it on disk.
  writeFileSync(join(site, 'course/table.html'), '<tb-param-table config-src="tiny/config.json"></tb-param-table>');
  mkdirSync(join(site, 'course/tiny'));
  copyFileSync(join(ROOT, 'tests/reference/fixtures/checkpoints/llama/config.json'), join(site, 'course/tiny/config.json'));
  const run = (...args) => spawnSync(process.execPath, [CLI, ...args], { cwd: site, encoding: 'utf8', timeout: 60_000 });

  const ok = run('render', '**/*.html');
  expect(ok.status, ok.stderr).toBe(0);
  expect(ok.stdout).toMatch(/render: 3 of 3 pages, 3 widgets/);
  expect(readFileSync(join(site, 'index.html'), 'utf8')).toBe('<p>Llama 3 8B: <tb-number model="llama3-8b" value="total_params"><template shadowrootmode="open">8,030,261,248</template></tb-number> parameters.</p>');
  expect(readFileSync(join(site, 'course/masks.html'), 'utf8')).toContain('<template shadowrootmode="open"><style>');
  expect(readFileSync(join(site, 'course/table.html'), 'utf8')).toContain('99,408');

  mkdirSync(join(site, 'folder.html'));
  const unreadable = run('render', 'folder.html', 'missing.html');
  expect(unreadable.status).toBe(1);
  expect(unreadable.stderr).toContain('cannot read folder.html');
  expect(unreadable.stderr).toContain('cannot read missing.html: no such file');

  expect(run('render', 'nothing/**/*.html').stderr).toContain('no file matches nothing/**/*.html');
  const usage = run('draw');
  expect(usage.status).toBe(2);
  expect(usage.stderr).toContain('usage: transformer-block render');
  expect(execFileSync(process.execPath, [CLI, '--help'], { encoding: 'utf8' })).toContain('--base URL');
});

test('the package exports the renderer and its command, and asks for its dependencies at the versions tested here', () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'dist/npm/package.json'), 'utf8'));
  const own = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).devDependencies;
  expect(pkg.exports['./render']).toEqual({ types: './render.d.ts', default: './render.js' });
  expect(pkg.bin).toEqual({ 'transformer-block': './cli.js' });
  for (const [name, version] of Object.entries(pkg.dependencies)) expect(version, name).toBe(own[name]);
  expect(readFileSync(CLI, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
});
