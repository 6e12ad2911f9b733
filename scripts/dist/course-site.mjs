// A made-up course site that embeds the widgets, for measuring and testing the three ways an author
// embeds them (docs/embedding.md): the folder loaded by its autoloader, under a sub-path as a course
// would keep it; the one file; every other request refused. Each request's body is gzipped (level 6)
// as a server would send it, so a page's bytes are the sum of what it asked for.
//
//   const asked = await serveCourse(context, { '/page.html': autoloaded('<tb-masks></tb-masks>') });
//   await page.goto(`${SITE}/page.html`); …; pageBytes(asked)   // { bytes, files }
//
// Used by tests/e2e/autoloader.spec.js (budgets, same markup both ways), npm.spec.js (one element
// bundled) and scripts/bench.mjs (the bytes of a page with one widget, each way).

import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';
import { DIST } from './common.mjs';

export const SITE = 'https://course.example';
/** Where the course keeps the folder: a sub-path, as a course site would. */
export const AT = '/courses/transformers/assets/transformer-block/';
const FOLDER = `${DIST}/transformer-block/`;
const BUNDLE = `${DIST}/transformer-block.js`;
/** The policy docs/embedding.md recommends: no inline script, no eval; WebAssembly compiles; the wasm is fetched from the site. */
export const CSP = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'; style-src 'self'; img-src 'self' data:";

/** Throws, naming `make dist`, when the folder or the one file has not been built. */
export function assertBuilt() {
  for (const f of [`${FOLDER}autoloader.js`, BUNDLE]) if (!existsSync(f)) throw new Error(`${f} is missing: run \`make dist\``);
}

/**
 * Serves `pages` ({ path: html }) and the folder at AT (or the one file at /transformer-block.js) on
 * SITE in the Playwright `context`, refusing every other request (`missing`: folder files answered
 * 404), and each of `folders` ({ '/site/path/': directory on disk }); returns the list of requests
 * as they come, [{ path, gzip }]. `link`: a modelled network
 * (scripts/dist/network-model.mjs) each answer waits for, by its gzipped bytes; none: at once.
 */
export async function serveCourse(context, pages, { missing = [], csp = CSP, link = null, folders = {} } = {}) {
  const asked = [];
  await context.route('**/*', async (route) => {
    const url = new URL(route.request().url());
    if (url.origin !== SITE) return route.abort('blockedbyclient');
    const path = url.pathname;
    let body = null;
    let type = 'text/html; charset=utf-8';
    const [at, dir] = Object.entries(folders).find(([prefix]) => path.startsWith(prefix)) ?? [];
    const onDisk = at === undefined ? null : join(dir, path.slice(at.length));
    if (pages[path] !== undefined) body = pages[path];
    else if (onDisk !== null) body = existsSync(onDisk) ? readFileSync(onDisk) : null;
    else if (path.startsWith(AT) && !missing.includes(path.slice(AT.length)) && existsSync(FOLDER + path.slice(AT.length))) body = readFileSync(FOLDER + path.slice(AT.length));
    else if (path === '/transformer-block.js') body = readFileSync(BUNDLE);
    if (path.endsWith('.js')) type = 'text/javascript; charset=utf-8';
    if (path.endsWith('.wasm')) type = 'application/wasm';
    if (path.endsWith('.json')) type = 'application/json';
    if (path.endsWith('.safetensors')) type = 'application/octet-stream';
    const gzip = body === null ? 0 : gzipSync(body).length;
    asked.push({ path, gzip });
    await link?.deliver(gzip);
    if (body === null) return route.fulfill({ status: 404, body: '' });
    return route.fulfill({ status: 200, headers: { 'Content-Type': type, 'Content-Security-Policy': csp }, body });
  });
  return asked;
}

const page = (body, script) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>course</title>${script}</head><body>${body}</body></html>`;
/** A course page with `body`, loading the folder by its autoloader (or by `script`, the tags given). */
export const coursePage = page;
export const autoloaded = (body) => page(body, `<script type="module" src="${AT}autoloader.js"></script>`);
export const oneFile = (body) => page(body, '<script src="/transformer-block.js"></script>');

/** What a page fetched besides itself (`pagePath`): { bytes (gzip), files, paths (relative to the folder) }. */
export function pageBytes(asked, pagePath) {
  const files = asked.filter((a) => a.path !== pagePath);
  return { bytes: files.reduce((sum, a) => sum + a.gzip, 0), files: files.length, paths: files.map((a) => (a.path.startsWith(AT) ? a.path.slice(AT.length) : a.path)) };
}

/**
 * A site's module that imports one element from the npm package (`import
 * 'transformer-block/elements/NAME.js'`), bundled by esbuild as the site's build would: the bundle's
 * bytes (Uint8Array). `minify`: as a site's production build.
 */
export async function bundledElement(name, { minify = false } = {}) {
  const site = mkdtempSync(join(tmpdir(), 'tb-npm-'));
  try {
    mkdirSync(join(site, 'node_modules'));
    symlinkSync(join(DIST, 'npm'), join(site, 'node_modules', 'transformer-block'), 'dir');
    const built = await esbuild.build({
      stdin: { contents: `import 'transformer-block/elements/${name}.js';`, resolveDir: site },
      bundle: true,
      minify,
      format: 'esm',
      write: false,
      logLevel: 'silent',
    });
    return built.outputFiles[0].contents;
  } finally {
    rmSync(site, { recursive: true, force: true });
  }
}
