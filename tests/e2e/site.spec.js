// The deployable site (make site: dist/site/, scripts/site.mjs) as a static host serves it
// (scripts/serve.mjs --site, brotli where the browser takes it): every page renders from it with the
// folder's minified modules under a strict Content-Security-Policy and asks nothing of another
// host; each text file has its precompressed copies; every page has a description and a canonical
// URL, and the lesson's editions name each other.
import { test, expect } from '@playwright/test';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { startServer } from '../../scripts/browser.mjs';
import { EDITIONS } from '../../scripts/dist/common.mjs';
import { recordProblems } from './helpers.js';

const SITE = fileURLToPath(new URL('../../dist/site/', import.meta.url));
/** What every page of the site is held to: its own files only, no inline script or style. */
const STRICT_CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; worker-src 'self'; object-src 'none'; base-uri 'none'";

/** The site's files, relative to it. */
function siteFiles(dir = '') {
  return readdirSync(join(SITE, dir), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? siteFiles(join(dir, e.name)) : [join(dir, e.name)]));
}
/** The site's pages: the lesson's editions and the gallery (not the offline files, which are one file each). */
const PAGES = existsSync(SITE) ? siteFiles().filter((f) => f.endsWith('.html') && !EDITIONS.some((e) => e.file === f)) : [];
const EDITION_PAGES = EDITIONS.filter((e) => PAGES.includes(e.page));

let server;
test.beforeAll(async () => {
  expect(existsSync(join(SITE, 'index.html')), 'dist/site/ is built by make site').toBe(true);
  server = await startServer({ site: true });
});
test.afterAll(() => server?.stop());

test('the site holds the lesson, its editions and the gallery, each text file with its .br and .gz', () => {
  expect(PAGES).toEqual(expect.arrayContaining(['index.html', 'fr/index.html', 'gallery/index.html', 'gallery/anatomy.html', 'gallery/autoloaded.html']));
  for (const e of EDITIONS) expect(existsSync(join(SITE, e.file)), e.file).toBe(true);
  const texts = siteFiles().filter((f) => /\.(html|js|css|json|wasm)$/.test(f));
  expect(texts.length).toBeGreaterThan(50);
  for (const f of texts) {
    const bytes = readFileSync(join(SITE, f));
    expect(brotliDecompressSync(readFileSync(join(SITE, `${f}.br`))).equals(bytes), `${f}.br`).toBe(true);
    expect(gunzipSync(readFileSync(join(SITE, `${f}.gz`))).equals(bytes), `${f}.gz`).toBe(true);
  }
});

test('every page has a description and its canonical URL; the editions name each other and x-default', () => {
  const links = (html, rel) => [...html.matchAll(new RegExp(`<link rel="${rel}"([^>]*)>`, 'g'))].map((m) => Object.fromEntries([...m[1].matchAll(/([a-z-]+)="([^"]*)"/g)].map((a) => [a[1], a[2]])));
  // Where make site was told the site will be served (SITE_URL; by default make serve's address).
  const base = links(readFileSync(join(SITE, 'index.html'), 'utf8'), 'canonical')[0]?.href ?? '';
  expect(base).toMatch(/^https?:\/\/[^/]+\/(.*\/)?$/);
  const url = (page) => `${base}${page.replace(/(^|\/)index\.html$/, '$1')}`;
  for (const page of PAGES) {
    const html = readFileSync(join(SITE, page), 'utf8');
    expect(html, page).toMatch(/<meta name="description" content="[^"]{50,}">/);
    expect(links(html, 'canonical'), page).toEqual([{ href: url(page) }]);
    const alternates = links(html, 'alternate');
    if (!EDITION_PAGES.some((e) => e.page === page)) {
      expect(alternates, page).toEqual([]);
      continue;
    }
    // Every edition, itself included, by an absolute URL, and the English lesson as x-default: the same set on each.
    expect(alternates, page).toEqual([...EDITION_PAGES.map((e) => ({ hreflang: e.lang ?? 'en', href: url(e.page) })), { hreflang: 'x-default', href: url('index.html') }]);
  }
});

for (const path of PAGES) {
  test(`${path} renders from the site's minified modules, under a strict CSP, asking no other host`, async ({ page }) => {
    const problems = recordProblems(page, { origin: server.origin });
    // The policy as a host would send it, on the page only.
    await page.route(`${server.origin}/**`, async (route) => {
      if (route.request().resourceType() !== 'document') return route.continue();
      const response = await route.fetch();
      await route.fulfill({ response, headers: { ...response.headers(), 'content-security-policy': STRICT_CSP } });
    });
    await page.addInitScript(() => {
      window.__violations = [];
      document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(`${e.violatedDirective}: ${e.blockedURI} (${e.sourceFile}:${e.lineNumber})`));
    });
    const scripts = [];
    page.on('response', async (res) => {
      if (res.request().resourceType() !== 'script') return;
      // A response that arrives as the test closes the page has no headers to read: not one the test read.
      const headers = await res.allHeaders().catch(() => null);
      if (headers) scripts.push({ path: new URL(res.url()).pathname, encoding: headers['content-encoding'] });
    });
    await page.goto(`${server.origin}/${path}`);
    const widgets = await page.evaluate(async () => {
      const all = [...document.querySelectorAll('*')].filter((el) => el.localName.startsWith('tb-'));
      await Promise.all(all.map((el) => customElements.whenDefined(el.localName).then(() => el.rendered)));
      return all.length;
    });
    expect(await page.evaluate(() => window.__violations)).toEqual([]);
    expect(problems).toEqual([]);
    if (widgets) {
      // The folder's modules (minified by the build), brotli-compressed; nothing from www/src/.
      expect(scripts.length).toBeGreaterThan(0);
      // (An element's page in the gallery also runs its copy buttons' script of its own.)
      for (const s of scripts.filter((s) => !s.path.endsWith('/gallery/copy-snippets.js'))) {
        expect(s.path, 'a module of the folder').toMatch(/\/transformer-block\//);
        expect(s.encoding, s.path).toBe('br');
      }
    }
  });
}
