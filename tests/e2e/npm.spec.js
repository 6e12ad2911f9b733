// The npm package (dist/npm/): its package.json, types and ES module; its elements' manifest and
// VS Code's data; one element imported alone and bundled as a site would. Needs dist/ (`make dist`).
import { test, expect } from '@playwright/test';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scanElements } from '../../scripts/build-dist.mjs';
import { bundledElement } from '../../scripts/dist/course-site.mjs';
import { inFolder } from '../../scripts/dist/manifest.mjs';
import { SITE, STRICT_CSP, htmlFile, serveSite, shadowText, watch } from './course-page.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DIST = `${ROOT}dist/`;
const TAGS = [...new Set(scanElements().map((e) => e.tag))];

test.beforeAll(() => {
  if (!existsSync(`${DIST}npm/index.js`)) throw new Error(`${DIST}npm/index.js is missing: run \`make dist\``);
});

test.describe('the npm package', () => {
  test('package.json, types and the ES module, which defines and exports every element', async ({ page, context }) => {
    const pkg = JSON.parse(readFileSync(`${DIST}npm/package.json`, 'utf8'));
    const root = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8'));
    expect(pkg).toMatchObject({ name: 'transformer-block', version: root.version, type: 'module' });
    expect(pkg.exports['.']).toEqual({ types: './index.d.ts', default: './index.js' });
    for (const f of pkg.files) expect(existsSync(`${DIST}npm/${f}`), f).toBe(true);
    // No AMD define() of a module left in a bundle: Next.js's Turbopack resolves one and failed the
    // site's build on xz-decompress's "stream/web" (scripts/dist/bundle.mjs, withoutAmd).
    for (const bundle of ['npm/index.js', 'transformer-block.js']) expect(readFileSync(`${DIST}${bundle}`, 'utf8'), bundle).not.toMatch(/\bdefine\(\[/);
    const dts = readFileSync(`${DIST}npm/index.d.ts`, 'utf8');
    const classes = scanElements().map((e) => e.className);
    for (const c of classes) expect(dts).toContain(`export declare class ${c} `);

    await serveSite(context, {
      '/app.html': htmlFile(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>App</title>
<script type="module" src="/app.js"></script></head><body><tb-param-table model="gpt2-small"></tb-param-table></body></html>`),
      '/app.js': {
        type: 'text/javascript',
        body: `import * as tb from './index.js';
window.__module = { names: Object.keys(tb), presets: (await tb.wasm).presets().length,
  same: ${JSON.stringify(scanElements())}.every((e) => customElements.get(e.tag) === tb[e.className]) };`,
      },
      '/index.js': { body: readFileSync(`${DIST}npm/index.js`), type: 'text/javascript' },
    });
    const problems = await watch(page);
    await page.goto(`${SITE}/app.html`);
    await expect.poll(() => page.evaluate(() => window.__module)).toBeTruthy();
    const info = await page.evaluate(() => window.__module);
    expect(info.names).toEqual(expect.arrayContaining([...classes, 'TbElement', 'wasm']));
    expect(info).toMatchObject({ presets: 8, same: true });
    await expect.poll(() => shadowText(page.locator('tb-param-table'))).toContain('124,439,808');
    expect(await page.evaluate(() => window.__tb.violations)).toEqual([]);
    expect(problems).toEqual([]);
  });
});

test('two copies of the package on one page: the first one\u2019s elements stay, the second defines none and says so once', async ({ page, context }) => {
  const body = readFileSync(`${DIST}npm/index.js`);
  await serveSite(context, {
    '/two.html': htmlFile(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Two copies</title>
<script type="module" src="/one/index.js"></script><script type="module" src="/two/index.js"></script></head>
<body><tb-param-table model="gpt2-small"></tb-param-table></body></html>`),
    '/one/index.js': { body, type: 'text/javascript' },
    '/two/index.js': { body, type: 'text/javascript' },
  });
  const problems = await watch(page);
  await page.goto(`${SITE}/two.html`);
  await expect.poll(() => shadowText(page.locator('tb-param-table'))).toContain('124,439,808');
  await expect.poll(() => problems.length).toBeGreaterThan(0);
  expect(problems).toHaveLength(1);
  expect(problems[0]).toMatch(/<tb-[a-z-]+> is already defined by another copy of transformer-block on this page;.*\/two\/index\.js/);
});

test('the folder and the npm package on one page: each element is defined once, and the second to come says so once', async ({ page, context }) => {
  // Every file of the folder at /transformer-block/, as an author copies it beside the pages.
  const TYPES = { '.js': 'text/javascript', '.wasm': 'application/wasm', '.json': 'application/json' };
  const folder = {};
  const walk = (dir, at) => {
    for (const name of readdirSync(dir)) {
      const path = `${dir}/${name}`;
      if (statSync(path).isDirectory()) walk(path, `${at}${name}/`);
      else folder[`${at}${name}`] = { body: readFileSync(path), type: TYPES[extname(name)] ?? 'application/octet-stream' };
    }
  };
  walk(`${DIST}transformer-block`, '/transformer-block/');
  await serveSite(context, {
    ...folder,
    '/both.html': htmlFile(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Both</title>
<script type="module" src="/transformer-block/autoloader.js"></script><script type="module" src="/npm/index.js"></script></head>
<body><tb-param-table model="gpt2-small"></tb-param-table><tb-masks tokens="3"></tb-masks></body></html>`, `${STRICT_CSP}; connect-src 'self'`), // the folder fetches its wasm
    '/npm/index.js': { body: readFileSync(`${DIST}npm/index.js`), type: 'text/javascript' },
  });
  const problems = await watch(page);
  await page.goto(`${SITE}/both.html`);
  await expect.poll(() => shadowText(page.locator('tb-param-table'))).toContain('124,439,808');
  await expect.poll(() => shadowText(page.locator('tb-masks'))).toContain('Encoder');
  await expect.poll(() => problems.length).toBeGreaterThan(0);
  await page.waitForTimeout(500); // a second report would come now
  expect(problems).toHaveLength(1);
  expect(problems[0]).toMatch(/<tb-[a-z-]+> is already defined by another copy of transformer-block on this page/);
});

test.describe('the elements\u2019 manifest', () => {
  test('custom-elements.json lists every element, package.json points to it, the VS Code data names every tag', () => {
    const pkg = JSON.parse(readFileSync(`${DIST}npm/package.json`, 'utf8'));
    expect(pkg.customElements).toBe('custom-elements.json');
    expect(pkg.files).toEqual(expect.arrayContaining(['custom-elements.json', 'vscode.html-custom-data.json']));
    const text = readFileSync(`${DIST}npm/${pkg.customElements}`, 'utf8');
    const manifest = JSON.parse(text);
    // The folder's: the same, TbElement under the shared chunk that holds it (the folder has no index.js).
    const folder = JSON.parse(readFileSync(`${DIST}transformer-block/custom-elements.json`, 'utf8'));
    const base = folder.modules[0].path;
    expect(base).toMatch(/^chunks\/chunk-\w+\.js$/);
    expect(folder).toEqual(inFolder(manifest, base));
    expect(readFileSync(`${DIST}transformer-block/${base}`, 'utf8')).toContain('tb-ready');
    for (const [dir, { modules }] of [['npm', manifest], ['transformer-block', folder]]) {
      for (const { path } of modules) expect(existsSync(`${DIST}${dir}/${path}`), `${dir}/${path}`).toBe(true);
    }
    const elements = manifest.modules.flatMap((m) => m.declarations.filter((d) => d.tagName).map((d) => [d.tagName, d.name, m.path]));
    expect(elements).toHaveLength(16);
    expect(elements.sort()).toEqual(scanElements().map((e) => [e.tag, e.className, `elements/${e.file.split('/elements/')[1]}`]).sort());
    for (const [, , path] of elements) expect(existsSync(`${DIST}npm/${path}`), path).toBe(true);
    const data = JSON.parse(readFileSync(`${DIST}npm/vscode.html-custom-data.json`, 'utf8'));
    expect(data.tags.map((t) => t.name).sort()).toEqual([...TAGS].sort());
  });
});

test.describe('the npm package, one element at a time', () => {
  test('a bundler given one element\u2019s module defines that element alone', async ({ page, context }) => {
    // A site's source importing one element from the package, bundled by esbuild as a site would.
    const js = new TextDecoder().decode(await bundledElement('param-table'));
    await serveSite(context, {
      '/app.html': htmlFile(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>App</title>
<script type="module" src="/app.js"></script></head><body><tb-param-table model="gpt2-small"></tb-param-table></body></html>`),
      '/app.js': { type: 'text/javascript', body: js },
    });
    const problems = await watch(page);
    await page.goto(`${SITE}/app.html`);
    await expect.poll(() => shadowText(page.locator('tb-param-table'))).toContain('124,439,808');
    const defined = await page.evaluate((tags) => tags.filter((t) => customElements.get(t)), TAGS);
    expect(defined).toEqual(['tb-param-table']);
    expect(problems).toEqual([]);
  });
});
